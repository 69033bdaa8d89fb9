// The determinism oracle: the same case run twice does the same (trace), writes the same sink rows
// in the same order and leaves the same committed state (oracles/logic.h checkDeterminism). Its
// extra run: the case again.
#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/table.h"

namespace streamsim::harness {
namespace unit_determinism {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.again) return Status::FailedPrecondition("determinism needs a second run");
  RunOutcome again = in.again();
  return checkDeterminism(in.run, again);
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.again = [&run]() -> RunOutcome {
    ++run.r.oracleRuns;
    return runScenario(run.sc, run.quiet);
  };
}

}  // namespace unit_determinism

Oracle determinismOracle() {
  Oracle o;
  o.name = "determinism";
  o.needs = "a second run of the same case: its trace, sink rows and committed state";
  o.check = unit_determinism::check;
  o.example = "determinism";
  o.prepare = unit_determinism::prepare;
  return o;
}

}  // namespace streamsim::harness
