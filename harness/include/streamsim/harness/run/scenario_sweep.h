// Scenario files under seeded fault plans (DESIGN.md §5, `streamsim sweep`/`replay`): the plan of a
// seed, the run of a seed, the shrink of a failing seed (run/shrink.h, keeping the failure's
// kind), the reproduce line, the sweep over scenarios × seeds on the worker pool (run/pool.h) and
// its totals. The CLI only parses arguments and prints these. Thread-safe (values only).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/harness/run/shrink.h"
#include "streamsim/harness/run/totals.h"
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
// `hashSeed`: the hash_seed oracle's other hash seed (replay --hash-seed; default the seed's).
ScenarioRunResult runScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  FileSystem* keepFs = nullptr, const std::string& keepDir = {},
                                  std::optional<uint32_t> hashSeed = std::nullopt);
// The seeds a sweep runs of `scenario`: `seeds` when positive, else its `sweep.seeds` (default 100).
int sweepSeeds(const Scenario& scenario, int seeds);
// The kind of a failure: its failed expectations (file:line), its violated oracles, an error.
FailureKind failureKind(const ScenarioRunResult& r);

// The scenario seed `seed` runs under `plan`: the scenario itself, or a generated workload's
// (ScenarioHooks::generate) rebuilt for the seed, its input reshaped by the plan's landing faults
// and limited to `files` (unset: all).
Result<Scenario> scenarioOfSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                const std::optional<std::vector<int64_t>>& files = std::nullopt);

struct ScenarioShrunk {
  sim::FaultPlan plan;
  size_t originalFaults = 0;
  // A generated workload's: the landing files the minimal case keeps, of how many.
  std::optional<std::vector<int64_t>> files;
  size_t originalFiles = 0;
  int runs = 0;
  ScenarioRunResult result;  // the minimal case's run (what its replay line shows)
  std::string summary() const;  // "1 fault (of 3), 2 files (of 20), 12 shrink runs"
};
// Shrinks a failing seed's plan while the failure keeps its kind (run/shrink.h's one search): its
// faults and, for a generated workload's scenario, its landing files (of `files`; unset: all).
ScenarioShrunk shrinkScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  const ScenarioRunResult& failing, int maxRuns = 200,
                                  const std::optional<std::vector<int64_t>>& files = std::nullopt);

// The one reproduce-line builder: `<program> replay TARGET --seed S<options> --plan '<json>'
// [--files 0,3|none]` (shell-quoted words the CLI accepts; `target` and `options` quoted already).
std::string replayLine(const std::string& program, const std::string& target, uint64_t seed,
                       const std::string& options, const sim::FaultPlan& plan,
                       const std::optional<std::vector<int64_t>>& files = std::nullopt);
// A scenario file's: `<program> replay FILE --seed S [--hash-seed H] [--state-store X] --plan '<json>'`;
// --hash-seed, the hash_seed oracle's, when `python` (hashSeedInReplayLine).
std::string scenarioReplayLine(const std::string& program, const std::string& file, uint64_t seed,
                               const sim::FaultPlan& plan, const std::string& stateStore = "",
                               bool python = false);
// Whether `sc`'s replay line names its hash seed: it runs Python under a runner that can start the
// hash_seed oracle's worker (RunRegistries::pythonCli).
bool hashSeedInReplayLine(const Scenario& sc);

// A seed of a scenario sweep: its account (run/totals.h: passed, faults, crashes, restarts,
// downtime, oracle checks, runs, wall time) and what the report prints of it.
struct ScenarioSeedOutcome : SeedAccount {
  size_t scenario = 0;  // index into the sweep's scenarios
  uint64_t seed = 0;
  bool setupError = false;
  std::string traceHash;
  std::string plan;   // JSON
  std::string report;
  FailureKind kind;
  std::optional<ScenarioShrunk> shrunk;
  std::string replay;  // the reproduce line (of the shrunk plan when shrunk), or empty and:
  std::string noReplay;  // why no line can rebuild it (a generated workload's test hooks)
  int violations = 0;  // of the seed's run
  // Why its expectations gave way to the reference with the same restarts (ScenarioRunResult::
  // judgedAgainstRestartReference); empty when they did not.
  std::string judgedAgainstRestartReference;
  // The one encoding of a seed's outcome: the --json report's result (what `merge` reads back)
  // and a sweep worker process's answer. fromJson restores every field but `scenario` (the
  // reader's index; the result names the file) and, of the shrunk run, only its traceHash.
  nlohmann::json toJson(const Scenario& sc) const;
  static Result<ScenarioSeedOutcome> fromJson(const nlohmann::json& result);
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
  // Worker processes the seeds' runs share (ScenarioRunOptions::keptWorkers); null: sweepScenarios
  // keeps its own for the sweep.
  std::shared_ptr<KeptWorkers> keptWorkers;
  // Called after each seed (serialised): the seed's outcome, seeds done, total, failures.
  std::function<void(const ScenarioSeedOutcome& seed, size_t done, size_t total, size_t failures)> progress;
};

struct ScenarioSweepReport {
  std::vector<ScenarioSeedOutcome> outcomes;  // (scenario, seed) order
  SweepTotals totals;
};

ScenarioSweepReport sweepScenarios(const std::vector<Scenario>& scenarios, const ScenarioSweepOptions& options);

// `merge` and `report` of shard reports (docs/scale-out.md): the `sweep --json` reports of a
// sweep's shards read into one report in (file, seed) order, with the totals rebuilt from their
// results through SweepTotals::add — the TOTAL line of the same sweep in one process (its wall
// time the shards' added up).
struct MergedSweepReports {
  // {"shard": {"index": 0, "count": 1}, "merged": [files], "results": [...], "totals": {...}}
  nlohmann::json report;
  SweepTotals totals;
  // Per file whose seeds have gaps (a shard's report not given): "FILE: seeds 1,3 are missing".
  std::vector<std::string> gaps;
};
// InvalidArgument naming the file for a report that cannot be read or is not a sweep report, a
// result that is not a sweep result, or a (file, seed) in two reports.
Result<MergedSweepReports> mergeSweepReports(const std::vector<std::string>& files);

// Whether a scenario runs a Python processor (in its query or a restart's).
bool scenarioRunsPython(const Scenario& scenario);
// A worker process's answer to one request "<scenario index> <seed>" of sweepScenarios: the
// seed's outcome as one JSON line (ScenarioSeedOutcome::toJson). `reach`: the reach of the scenarios seen so far.
std::string serveSweepRequest(const std::vector<Scenario>& scenarios, const ScenarioSweepOptions& options,
                              std::map<size_t, sim::Reach>& reach,
                              const std::string& request);

}  // namespace streamsim::harness
