// Oracles for a processor's own logic (oracles/logic.h).
#include "streamsim/harness/oracles/logic.h"

#include <map>
#include <utility>

#include <fmt/format.h>

#include "streamsim/trace_events.h"
#include "oracles/trace_fields.h"

namespace streamsim::harness {
std::optional<Violation> checkTimerBound(const std::vector<CommittedBatch>& batches, int64_t bound) {
  // (operator, key) -> ts -> the registration's trace line
  std::map<std::pair<int64_t, std::string>, std::map<int64_t, std::string>> live;
  for (const CommittedBatch& b : batches) {
    for (size_t i = 0; i < b.events.size(); ++i) {
      const auto& e = b.events[i];
      const std::string ev = e.value("event", "");
      if (ev != events::kTimerRegistered && ev != events::kTimerDeleted && ev != events::kTimerFired)
        continue;
      auto& timers = live[{eventInt(e, "operator"), eventKey(e)}];
      if (ev == events::kTimerRegistered) {
        timers[eventInt(e, "ts")] = b.lines[i];
      } else {
        timers.erase(eventInt(e, "ts"));
      }
    }
    for (const auto& [where, timers] : live) {
      if (static_cast<int64_t>(timers.size()) <= bound) continue;
      Violation v;
      v.oracle = "timer_bound";
      v.batch = b.batch;
      v.key = where.second;
      v.message = fmt::format(
          "operator {} holds {} pending timers for this key after the batch, over the bound {} "
          "(a timer registered per input without deleting the previous one piles up)",
          where.first, timers.size(), bound);
      for (const auto& [ts, line] : timers) {
        if (v.events.size() == 4) break;
        v.events.push_back(line);
      }
      return v;
    }
  }
  return std::nullopt;
}

std::optional<Violation> checkStateBoundPerKey(const std::map<std::string, int64_t>& rows, int64_t bound) {
  auto worst = rows.end();
  for (auto it = rows.begin(); it != rows.end(); ++it)
    if (it->second > bound && (worst == rows.end() || it->second > worst->second)) worst = it;
  if (worst == rows.end()) return std::nullopt;
  Violation v;
  v.oracle = "state_bound";
  v.key = worst->first;
  v.message = fmt::format(
      "{} holds {} state rows in the committed state after the run, over the bound {} per key "
      "(state that grows without bound for a key: a list appended to and never trimmed)",
      worst->first, worst->second, bound);
  return v;
}

std::optional<Violation> checkRestartEquivalence(const RestartRuns& runs) {
  std::optional<Violation> v = checkExactlyOnce(runs.pausedSink, runs.restartedSink);
  if (v) {
    v->message = fmt::format(
        "restarting after each batch ({} restarts) changed the reader's view (the run without the "
        "restarts, down as long at the same batches, is the reference): {}",
        runs.restarts, v->message);
  } else if (runs.pausedState != runs.restartedState) {
    v = Violation{};
    size_t i = 0;
    while (i < runs.restartedState.size() && i < runs.pausedState.size() &&
           runs.restartedState[i] == runs.pausedState[i])
      ++i;
    v->message = fmt::format(
        "restarting after each batch ({} restarts) changed the committed state: first difference at "
        "entry {}: without the restarts {}, with them {}",
        runs.restarts, i, i < runs.pausedState.size() ? runs.pausedState[i] : "(none)",
        i < runs.restartedState.size() ? runs.restartedState[i] : "(none)");
  }
  if (v) v->oracle = "restart_equivalence";
  return v;
}

std::optional<Violation> checkProcessIsolation(const RunOutcome& first, const RunOutcome& after,
                                               const RunOutcome* fresh) {
  // How each run differs from the case, as determinism reports it.
  std::optional<Violation> afterDiff = checkDeterminism(first, after);
  std::optional<Violation> freshDiff = fresh != nullptr ? checkDeterminism(first, *fresh) : std::nullopt;
  if (!afterDiff && !freshDiff) return std::nullopt;
  Violation v = afterDiff ? *afterDiff : *freshDiff;
  v.oracle = "process_isolation";
  auto verdict = [](const std::optional<Violation>& d) {
    return d ? fmt::format("differed: {}", d->message) : std::string("was the same");
  };
  v.message = fmt::format(
      "run again after another seed's run in the same process, the case {}; run again in a fresh "
      "processor registry (new factories), the case {}; the processor keeps data outside its state "
      "variables (a static or process-wide cache, or a cache its factory captured)",
      verdict(afterDiff), fresh != nullptr ? verdict(freshDiff) : std::string("was not run"));
  return v;
}

}  // namespace streamsim::harness
