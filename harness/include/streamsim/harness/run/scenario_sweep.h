// Scenario files under seeded fault plans (DESIGN.md §5, `streamsim sweep`/`replay`): the plan of a
// seed, the run of a seed, the shrink of a failing seed (run/shrink.h, keeping the failure's
// kind), the reproduce line, the sweep over scenarios × seeds on the worker pool (run/pool.h) and
// its totals. The CLI only parses arguments and prints these. Thread-safe (values only).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/harness/run/shrink.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/sim/fault_plan.h"

namespace streamsim::harness {

// What the fault-free run of a scenario reached: the (point, batch) pairs it passed and how
// often, and the scheduling choices of its async tasks. Generated plans aim their crashes and
// context switches at these, so that a seed's faults fire.
sim::Reach scenarioReach(const Scenario& scenario);

// The generated fault plan of `seed` (the scenario's `sweep:` knobs), aimed at `reach`: no faults
// when the fault-free run reached no fault point and no scheduling choice (a query that fails
// when it starts, say).
sim::FaultPlan scenarioPlan(const Scenario& scenario, uint64_t seed, const sim::Reach& reach);
// One seed's run under `plan` (oracles applied). With `keepFs` (run/replay --keep DIR) the run's
// simulated filesystem is copied there under `keepDir` when it ends.
ScenarioRunResult runScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  FileSystem* keepFs = nullptr, const std::string& keepDir = {});
// The seeds a sweep runs of `scenario`: `seeds` when positive, else its `sweep.seeds` (default 100).
int sweepSeeds(const Scenario& scenario, int seeds);
// The kind of a failure: its failed expectations (file:line), its violated oracles, an error.
FailureKind failureKind(const ScenarioRunResult& r);

struct ScenarioShrunk {
  sim::FaultPlan plan;
  size_t originalFaults = 0;
  int runs = 0;
  ScenarioRunResult result;  // the minimal case's run (what its replay line shows)
  std::string summary() const;  // "1 fault (of 3), 12 shrink runs"
};
// Shrinks a failing seed's plan while the failure keeps its kind.
ScenarioShrunk shrinkScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  const ScenarioRunResult& failing, int maxRuns = 200);

// `<program> replay FILE --seed S [--state-store X] --plan '<json>'` (a shell-quoted line the
// CLI accepts).
std::string scenarioReplayLine(const std::string& program, const std::string& file, uint64_t seed,
                               const sim::FaultPlan& plan, const std::string& stateStore = "");

struct ScenarioSeedOutcome {
  size_t scenario = 0;  // index into the sweep's scenarios
  uint64_t seed = 0;
  bool passed = true;
  bool setupError = false;
  std::string traceHash;
  std::string plan;   // JSON
  std::string report;
  FailureKind kind;
  std::optional<ScenarioShrunk> shrunk;
  std::string replay;  // the reproduce line (of the shrunk plan when shrunk)
  FaultAccount faults;
  int64_t crashes = 0;
  int64_t restarts = 0;
  DurationMs downtimeMs = 0;  // the driver down after the plan's crashes (virtual time)
  int oracleChecks = 0;
  int violations = 0;  // of the seed's run
  // Why its expectations gave way to the reference with the same restarts (ScenarioRunResult::
  // judgedAgainstRestartReference); empty when they did not.
  std::string judgedAgainstRestartReference;
  double seconds = 0;  // wall time of the seed (its run and shrink)
  nlohmann::json toJson(const Scenario& sc) const;
  // What a sweep's worker process sends back (with the seed's run count): everything above; of
  // the shrunk run only its traceHash.
  nlohmann::json toWire(int runs) const;
  static Result<ScenarioSeedOutcome> fromWire(const nlohmann::json& wire, int& runs);
};

struct ScenarioSweepOptions {
  int seeds = 0;  // per scenario; 0: each file's sweep.seeds (default 100)
  uint64_t firstSeed = 0;
  int jobs = 1;
  int shardIndex = 0;
  int shardCount = 1;
  bool shrink = true;
  int shrinkMaxRuns = 200;
  std::string program = "streamsim";  // the program the reproduce lines name (argv[0])
  std::string stateStore;  // set when the scenarios' store was overridden (the lines say so)
  // The command of a worker process (argv; `streamsim sweep-worker ...`): with jobs > 1, a sweep
  // of scenarios with a Python processor runs its seeds in such processes (run/pool.h), one
  // interpreter having one GIL. Empty: threads.
  std::vector<std::string> workerCommand;
  // Called after each seed (serialised): the seed's outcome, seeds done, total, failures.
  std::function<void(const ScenarioSeedOutcome& seed, size_t done, size_t total, size_t failures)> progress;
};

// Totals of a sweep: the line it ends with.
struct SweepTotals {
  size_t scenarios = 0, seeds = 0, runs = 0, failed = 0, violations = 0, oracleChecks = 0;
  size_t seedsWithFaults = 0;       // seeds whose plan had a fault the injector executes
  size_t seedsWhoseFaultsFired = 0; // seeds where one of them fired
  size_t judgedAgainstRestartReference = 0;  // seeds judged against the reference with the same restarts
  size_t seedsWithDowntime = 0;  // seeds whose crashes left the driver down (virtual time)
  DurationMs downtimeMs = 0;     // their downtime in all
  int64_t restarts = 0, crashes = 0;
  std::map<std::string, int64_t> firedByKind;   // "crash" -> n
  std::map<std::string, int64_t> firedByPoint;  // "offsets.after_write" -> n
  double seconds = 0;
  // "TOTAL 32 scenarios, 6400 seeds, 12345 runs: 0 failed, 0 violations, 9000 oracle checks;
  //  faults fired 7000 (crash 6000, task_failure 1000; offsets.after_write 900, ...), fired in
  //  96.1% of seeds, 6000 crashes, 7000 restarts, downtime in 3100 seeds (9.1 d); judged against
  //  the restart reference: 3; 61.2 s"
  std::string line() const;
  nlohmann::json toJson() const;
};

struct ScenarioSweepReport {
  std::vector<ScenarioSeedOutcome> outcomes;  // (scenario, seed) order
  SweepTotals totals;
};

ScenarioSweepReport sweepScenarios(const std::vector<Scenario>& scenarios, const ScenarioSweepOptions& options);

// Whether a scenario runs a Python processor (in its query or a restart's).
bool scenarioRunsPython(const Scenario& scenario);
// A worker process's answer to one request "<scenario index> <seed>" of sweepScenarios: the
// seed's outcome as one JSON line (toWire). `reach`: the reach of the scenarios seen so far.
std::string serveSweepRequest(const std::vector<Scenario>& scenarios, const ScenarioSweepOptions& options,
                              std::map<size_t, sim::Reach>& reach,
                              const std::string& request);

}  // namespace streamsim::harness
