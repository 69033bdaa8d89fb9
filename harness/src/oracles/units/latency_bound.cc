// The latency_bound oracle (real-time mode, `{latency_bound: {p99: 50ms}}`): every batch's p50/p95/
// p99 end-to-end latency <= its bound (oracles/logic.h checkLatencyBound). Parameters "p50", "p95",
// "p99" (ms).
#include <fmt/format.h>

#include "scenario/parse_context.h"
#include "streamsim/harness/oracles/table.h"

namespace streamsim::harness {
namespace unit_latency_bound {

constexpr int kPercentiles[] = {50, 95, 99};

Result<std::optional<Violation>> check(OracleInput& in) {
  std::map<int, DurationMs> bounds;  // percentile -> bound; empty: nothing to check
  for (int pct : kPercentiles)
    if (auto b = in.args.integer("latency_bound", fmt::format("p{}", pct))) bounds[pct] = *b;
  return checkLatencyBound(in.run.progress, bounds);
}

void parse(detail::ParseContext& pc, const YAML::Node& b, const Scenario&, OracleArgs& args) {
  if (!pc.expectMap(b, "latency_bound")) return;
  pc.checkKeys(b, "latency_bound", {"p50", "p95", "p99"});
  for (int pct : kPercentiles) {
    const std::string key = fmt::format("p{}", pct);
    if (auto x = b[key]; x) args.set("latency_bound", key, pc.duration(x, "a latency bound"));
  }
  if (!args.has("latency_bound")) pc.error(b, "latency_bound needs at least one of p50, p95, p99 (e.g. {p99: 50ms})");
}

}  // namespace unit_latency_bound

Oracle latencyBoundOracle() {
  Oracle o;
  o.name = "latency_bound";
  o.needs = "the progress records' latency percentiles (real time) and the bounds";
  o.check = unit_latency_bound::check;
  o.forms = "{latency_bound: {p99: 50ms}}";
  o.example = "{latency_bound: {p50: 10ms, p99: 50ms}}";
  o.parse = unit_latency_bound::parse;
  return o;
}

}  // namespace streamsim::harness
