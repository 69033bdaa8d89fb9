// The harness's run API (DESIGN.md §5d: the library never calls its own CLI): scenario files found,
// loaded, run and swept by functions that return structured results and the text a person reads.
// `streamsim run`/`sweep` (tools/cli) and `streamsim.run`/`sweep` (python/) are thin callers: the
// CLI adds its terminal (colours, a progress bar) and its output files, Python converts the values.
// Thread-safe as the runs are; nothing here reads the environment or writes a file.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/status.h"

namespace streamsim::harness {

// The most worker threads or processes a sweep takes (the CLI's --jobs, Python's jobs=).
inline constexpr int kMaxSweepJobs = 256;

// The scenario files `paths` name: a file as given, a folder as every *.yaml under it
// (recursively, sorted). InvalidArgument for a path that does not exist or a folder without one.
Result<std::vector<std::string>> findScenarioFiles(const std::vector<std::string>& paths);

// Every file loaded, each handed `registries` (Scenario::registries: what the caller's runs use,
// run/registries.h). InvalidArgument whose message holds every error of every file, one per line,
// control characters shown (shownForTerminal).
Result<std::vector<Scenario>> loadScenarios(const std::vector<std::string>& files,
                                            std::shared_ptr<const RunRegistries> registries = nullptr);

// One scenario run as `streamsim run` reports it: "PASS file (N batches, C crashes, trace H)", or
// "FAIL file: name (...)" with the report and a reproduce line naming `program`. `pass` and
// `fail` are the verdict words (the CLI colours them on a terminal).
std::string runVerdictText(const Scenario& sc, const ScenarioRunResult& r, const std::string& program,
                           uint64_t seed, const std::string& pass = "PASS", const std::string& fail = "FAIL");

// A sweep as `streamsim sweep FILE|DIR` and streamsim.sweep ask for it.
struct SweepRequest {
  std::vector<std::string> paths;
  int seeds = 0;  // per scenario; 0: each file's sweep.seeds
  uint64_t firstSeed = 0;
  int jobs = 1;
  int shardIndex = 0;
  int shardCount = 1;
  std::string stateStore;  // memory | rocksdb: every scenario's store replaced ("" keeps them)
  std::string downtime;    // MIN..MAX: every scenario's sweep.downtime replaced ("" keeps them)
  std::string program = "streamsim";  // the program its replay lines name
  // The streamsim CLI to start as worker processes (`sweep-worker`) when Python processors make
  // threads share one GIL; empty: threads only.
  std::string workerExe;
  // Called after each seed (serialised), as ScenarioSweepOptions::progress.
  std::function<void(const ScenarioSeedOutcome& seed, size_t done, size_t total, size_t failures)> progress;
  // Called once with the scenarios as they will be swept, before the first seed (their index is
  // ScenarioSeedOutcome::scenario); they live until sweepPaths returns.
  std::function<void(const std::vector<Scenario>& scenarios)> loaded;
  // What the caller hands the runs (run/registries.h), set on every scenario loaded.
  std::shared_ptr<const RunRegistries> registries;
};

struct SweepResult {
  std::vector<Scenario> scenarios;  // as swept (their stores and downtime replaced)
  ScenarioSweepReport report;
  // Notes for the person running it that are not results (real-time scenarios keeping their
  // store under --state-store), one per line.
  std::string notes;
  int shardIndex = 0;
  int shardCount = 1;
};

// The request's store and downtime over every scenario (a sweep worker process applies them to
// the files its parent names). `notes` (optional) gets what SweepResult::notes says.
Status prepareScenarios(std::vector<Scenario>& scenarios, const SweepRequest& request, std::string* notes);

// Checks the request as the CLI checks its options (jobs 1..kMaxSweepJobs, seeds >= 0, seeds not
// past 2^64 - 1, a shard i/n with i < n, a known store, a downtime range), finds and loads the
// files and sweeps them. InvalidArgument, saying which, for any bad part.
Result<SweepResult> sweepPaths(const SweepRequest& request);

// What a sweep prints: for each file, a block per failing seed (the first in full), its PASS/FAIL
// line with the faults that fired, then the TOTAL line. Input data with control characters shown.
struct SweepSummary {
  std::string text;
  int failedSeeds = 0;
  int setupErrors = 0;  // seeds whose scenario could not run (bad input: exit 2)
  // `streamsim sweep`'s exit code (DESIGN.md §7): 2 for a scenario that could not run, else 1 for
  // a failed seed, else 0.
  int exitCode() const { return setupErrors > 0 ? 2 : failedSeeds > 0 ? 1 : 0; }
};
SweepSummary sweepSummary(const SweepResult& sweep);

// The `sweep --json` report (what `merge` reads back): the shard, a result per seed, the totals.
nlohmann::json sweepReportJson(const SweepResult& sweep);
// The `sweep --junit` report: a test suite per file, a test case per seed; well-formed XML for any
// byte in a message (xmlText).
std::string sweepJunitXml(const SweepResult& sweep);

}  // namespace streamsim::harness
