// The restart_equivalence oracle (opt-in): the case restarted cleanly right after each committed
// batch has the reader's view and the committed state of the case down as long at the same
// batches without restarting (oracles/logic.h checkRestartEquivalence). Its extra runs: those two.
#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "streamsim/fault_points.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/clean_restarts.h"

namespace streamsim::harness {
namespace unit_restart_equivalence {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.restartRuns) return Status::FailedPrecondition("restart_equivalence needs the restarted and the paused run");
  STREAMSIM_ASSIGN_OR_RETURN(RestartRuns runs, in.restartRuns());
  return checkRestartEquivalence(runs);
}

// restart_equivalence's runs: the scenario (its expectations skipped, the seed's plan left out)
// restarted cleanly right after each committed batch — every other restart after 90 s of
// downtime — and the scenario down as long at the same batches without restarting; both with a
// no-data batch allowed right after a restart (not Spark's rule: the one visible effect of a clean
// restart that is Spark's, not the processor's).
Result<RestartRuns> restartRuns(const Scenario& sc, const ScenarioRunOptions& quiet) {
  constexpr int64_t kBoundaries = 64;
  constexpr DurationMs kDowntime = 90'000;
  ScenarioRunOptions o = quiet;
  o.applyOracles = false;
  o.skipExpectations = true;
  o.collectState = true;
  o.noDataBatchBeforeFirstBatchOfRun = true;
  o.faultPlan = sim::FaultPlan{};
  for (int64_t b = 0; b < kBoundaries; ++b)
    o.faultPlan->faults.push_back(
        sim::CrashFault{std::string(faults::kCommitsAfterWrite), b, -1, 1, b % 2 == 1 ? kDowntime : 0});
  ScenarioRunResult restarted = runScenario(sc, o);
  o.faultPlan = sim::FaultPlan{};
  for (const sim::DowntimeFault& d : downtimeWithoutRestarts(restarted.trace)) o.faultPlan->faults.push_back(d);
  ScenarioRunResult paused = runScenario(sc, o);
  for (auto* run : {&restarted, &paused})
    if (!run->passed())
      return Status::FailedPrecondition(fmt::format(
          "the run {} failed:\n{}", run == &restarted ? "restarted after each batch" : "without the restarts",
          run->report()));
  RestartRuns out;
  out.restartedSink = std::move(restarted.sinkRows);
  out.pausedSink = std::move(paused.sinkRows);
  out.restartedState = std::move(restarted.committedState);
  out.pausedState = std::move(paused.committedState);
  out.restarts = restarted.restarts;
  return out;
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.restartRuns = [&run]() -> Result<RestartRuns> {
    run.r.oracleRuns += 2;
    return restartRuns(run.sc, run.quiet);
  };
}

}  // namespace unit_restart_equivalence

Oracle restartEquivalenceOracle() {
  Oracle o;
  o.name = "restart_equivalence";
  o.needs = "the same case restarted after each batch (with and without downtime) and down as long without restarts: "
           "sink and committed state";
  o.check = unit_restart_equivalence::check;
  o.example = "restart_equivalence";
  o.prepare = unit_restart_equivalence::prepare;
  return o;
}

}  // namespace streamsim::harness
