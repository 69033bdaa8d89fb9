// The exactly_once oracle: the reader's view of the sink equals the fault-free run's (a multiset;
// foreach: duplicates reported). Its extra run: the fault-free reference, restarted where the run
// restarted cleanly (docs/oracles.md).
#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"

namespace streamsim::harness {
namespace unit_exactly_once {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.reference) return Status::FailedPrecondition("exactly_once needs a reference run");
  STREAMSIM_ASSIGN_OR_RETURN(auto expected, in.reference());
  return checkExactlyOnce(expected, in.run.sinkRows, in.run.sinkBatchOf, in.sinkKind);
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.reference = [&run]() -> Result<std::vector<Row>> {
    // A sweep's reference is the fault-free run of the scenario (its own crashes kept); a plain
    // run's is the scenario without its crash steps; both restart where the run restarted cleanly
    // and had a no-data batch withheld.
    const ScenarioRunOptions ref = exactlyOnceReferenceOf(run.options, run.r);
    // A sweep seed's fault-free run, when it is this very run (sameFaultFreeRun), is not run again.
    const FaultFreeRun* same = run.options.faultFreeRun.get();
    if (same == nullptr || run.given == nullptr || !sameFaultFreeRun(*same, *run.given, ref)) same = nullptr;
    ScenarioRunResult ran;
    if (same == nullptr) {
      ran = runScenario(run.sc, ref);
      ++run.r.oracleRuns;
    } else {
      run.r.referenceFromFaultFreeRun = true;
    }
    const ScenarioRunResult& expected = same != nullptr ? same->result : ran;
    if (run.options.faultPlan && ref.faultPlan)
      if (auto breach = detail::restartTransparencyBreach(run, same != nullptr ? same->scenario : &run.sc,
                                                          same != nullptr ? same->options : ref, expected))
        return Status::FailedPrecondition(*breach);
    if (!expected.passed())
      return Status::FailedPrecondition("the reference run (without faults) failed:\n" + expected.report());
    return expected.sinkRows;
  };
}

}  // namespace unit_exactly_once

Oracle exactlyOnceOracle() {
  Oracle o;
  o.name = "exactly_once";
  o.needs = "the sink after the run and the fault-free reference run's sink";
  o.check = unit_exactly_once::check;
  o.example = "exactly_once";
  o.prepare = unit_exactly_once::prepare;
  o.workloadDefault = [](const WorkloadConfig&) { return true; };
  return o;
}

}  // namespace streamsim::harness
