// The timer_bound oracle (opt-in, `{timer_bound: N}`; a processor may promise it): after every
// committed batch each grouping key holds <= N pending timers. Parameter "bound".
#include "scenario/parse_context.h"
#include "streamsim/harness/oracles/table.h"

namespace streamsim::harness {
namespace unit_timer_bound {

Result<std::optional<Violation>> check(OracleInput& in) {
  auto bound = in.args.integer("timer_bound", "bound");
  if (!bound) return std::optional<Violation>();
  if (!traceMayHaveEvents(in.run.trace, "tws.timer_")) return std::optional<Violation>();
  return checkTimerBound(in.committedBatches(), *bound);
}

void parse(detail::ParseContext& pc, const YAML::Node& value, const Scenario&, OracleArgs& args) {
  args.set("timer_bound", "bound", pc.integer(value, "timer_bound (the most pending timers per key)", 0));
}

std::string refuse(const Scenario&) { return "oracle 'timer_bound' needs its bound: write {timer_bound: N}"; }

}  // namespace unit_timer_bound

Oracle timerBoundOracle() {
  Oracle o;
  o.name = "timer_bound";
  o.needs = "the trace's committed tws.timer_* events per key and the bound";
  o.check = unit_timer_bound::check;
  o.forms = "{timer_bound: N}";
  o.example = "{timer_bound: 3}";
  o.parse = unit_timer_bound::parse;
  o.refuse = unit_timer_bound::refuse;
  o.needsArgs = true;
  return o;
}

}  // namespace streamsim::harness
