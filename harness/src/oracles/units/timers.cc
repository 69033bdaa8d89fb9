// The timers oracle: every registered, undeleted timer fires once, in the first committed batch
// where its time has come, never early, after its partition's input (oracles/logic.h checkTimers).
#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"

namespace streamsim::harness {
namespace unit_timers {

Result<std::optional<Violation>> check(OracleInput& in) {
  // The oracle acts only on its own events: a trace without any passes without being parsed.
  if (!traceMayHaveEvents(in.run.trace, "tws.timer_")) return std::optional<Violation>();
  return checkTimers(in.committedBatches(), in.timerClock);
}

// The time mode: an EventTime transformWithState's timers fire against the watermark.
void prepare(ScenarioOracleRun& run, OracleInput& in) {
  for (const auto& op : run.sc.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op); t && t->timeMode == "EventTime")
      in.timerClock = TimerClock::kEventTime;
}

}  // namespace unit_timers

Oracle timersOracle() {
  Oracle o;
  o.name = "timers";
  o.needs = "the trace's committed tws.timer_* events and the time mode";
  o.check = unit_timers::check;
  o.example = "timers";
  o.prepare = unit_timers::prepare;
  o.workloadDefault = [](const WorkloadConfig& c) { return runsTransformWithState(c.kind); };
  return o;
}

}  // namespace streamsim::harness
