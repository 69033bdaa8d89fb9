// The process_isolation oracle (opt-in): the case run again after another case (another seed's
// run) in this process, and in a freshly built processor registry, has the same fingerprint and
// sink (oracles/logic.h checkProcessIsolation). Its extra runs: those two.
#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness {
namespace unit_process_isolation {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.againAfterOther) return Status::FailedPrecondition("process_isolation needs a run after another case");
  RunOutcome after = in.againAfterOther();
  if (!in.againInFreshRegistry) return checkProcessIsolation(in.run, after);
  RunOutcome fresh = in.againInFreshRegistry();
  return checkProcessIsolation(in.run, after, &fresh);
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.againAfterOther = [&run]() -> RunOutcome {
    ScenarioRunOptions other = run.quiet;  // another seed, without the fault plan
    other.seed = run.quiet.seed + 1;
    other.skipExpectations = true;
    other.faultPlan.reset();
    runScenario(run.sc, other);
    run.r.oracleRuns += 2;
    return runScenario(run.sc, run.quiet);
  };
  in.againInFreshRegistry = [&run]() -> RunOutcome {
    ScenarioRunOptions fresh = run.quiet;  // the run's own processors, each factory made anew
    const ProcessorSet& now = run.quiet.processors ? *run.quiet.processors : processorsOf(run.sc.registries.get());
    fresh.processors = std::make_shared<const ProcessorSet>(now.fresh());
    ++run.r.oracleRuns;
    return runScenario(run.sc, fresh);
  };
}

}  // namespace unit_process_isolation

Oracle processIsolationOracle() {
  Oracle o;
  o.name = "process_isolation";
  o.needs = "the same case run again after another case in this process";
  o.check = unit_process_isolation::check;
  o.example = "process_isolation";
  o.prepare = unit_process_isolation::prepare;
  return o;
}

}  // namespace streamsim::harness
