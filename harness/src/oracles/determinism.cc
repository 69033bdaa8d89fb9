// The determinism oracle's check (oracles/logic.h): two runs of one seed must do the same (trace),
// produce the same (sink rows, in order) and leave the same committed state. The trace alone is
// not enough: it counts a batch's rows per key but does not hold their values, so a processor that
// emits uuid4() or a wall-clock value passed a trace-only comparison (issue 33).
#include <fmt/format.h>

#include "oracles/trace_fields.h"
#include "streamsim/harness/oracles/logic.h"
#include "streamsim/json_nesting.h"

namespace streamsim::harness {
namespace {

// The index of the first entry where `a` and `b` differ (their common length when one is a
// prefix of the other); nullopt when they are equal.
template <typename T>
std::optional<size_t> firstDifference(const std::vector<T>& a, const std::vector<T>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i == a.size() && i == b.size()) return std::nullopt;
  return i;
}

std::string entryOr(const std::vector<std::string>& v, size_t i) {
  return i < v.size() ? v[i] : std::string("(none)");
}

std::string rowOr(const std::vector<Row>& v, size_t i) {
  return i < v.size() ? v[i].toJson() : std::string("(none)");
}

}  // namespace

std::optional<Violation> checkDeterminism(const RunOutcome& a, const RunOutcome& b) {
  Violation v;
  v.oracle = "determinism";
  if (auto i = firstDifference(a.trace, b.trace); i || a.fingerprint != b.fingerprint) {
    const size_t at = i.value_or(a.trace.size());
    v.message = fmt::format("two runs of one seed did different things: their traces first differ at line {}",
                            at + 1);
    v.events.push_back("first run:  " + entryOr(a.trace, at));
    v.events.push_back("second run: " + entryOr(b.trace, at));
    auto e = parseJsonBounded<nlohmann::json>(at < a.trace.size() ? a.trace[at] : "{}");
    if (e.is_object()) {
      v.batch = eventInt(e, "batch");
      v.key = eventKey(e);
    }
    return v;
  }
  if (auto i = firstDifference(a.sinkRows, b.sinkRows)) {
    v.message = fmt::format(
        "two runs of one seed did the same steps but wrote other rows to the sink ({} rows, then {}; "
        "the first difference is row {}): the output depends on something outside the seed (a random "
        "id, the wall clock, a hash order)",
        a.sinkRows.size(), b.sinkRows.size(), *i + 1);
    if (*i < a.sinkBatchOf.size()) v.batch = a.sinkBatchOf[*i];
    v.events.push_back("first run:  " + rowOr(a.sinkRows, *i));
    v.events.push_back("second run: " + rowOr(b.sinkRows, *i));
    return v;
  }
  if (auto i = firstDifference(a.committedState, b.committedState)) {
    v.message = fmt::format(
        "two runs of one seed wrote the same rows but left another committed state ({} entries, then "
        "{}; the first difference is entry {}): the state depends on something outside the seed",
        a.committedState.size(), b.committedState.size(), *i + 1);
    v.events.push_back("first run:  " + entryOr(a.committedState, *i));
    v.events.push_back("second run: " + entryOr(b.committedState, *i));
    return v;
  }
  return std::nullopt;
}

}  // namespace streamsim::harness
