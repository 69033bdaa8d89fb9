// `streamsim run`, `sweep`, `replay` (a seed, or a checkpoint + landing folder) and `merge` (of
// sweep --json shard reports): scenario files through the harness's scenario runner.
// The sweep runs seeds on --jobs threads, each seed a fresh simulated world.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/harness/checkpoint_replay.h"
#include "streamsim/harness/run/api.h"
#include "streamsim/harness/run/python_workload.h"

namespace streamsim::cli {

struct RunArgs {
  std::string program = "streamsim";  // argv[0]: the reproduce lines name it
  std::vector<std::string> files;
  uint64_t seed = 0;
  bool update = false;
  std::string keep;  // --keep DIR: the simulated files written here (a folder per file if several)
  bool replace = false;  // --replace: empty a --keep folder streamsim kept before
  std::string html;  // --html FILE: the run's page (a folder of pages if several files)
  // What this runner hands its runs (harness/run/registries.h; runCli's caller built it).
  std::shared_ptr<const harness::RunRegistries> registries;
};

struct SweepArgs {
  std::string program = "streamsim";
  std::string path;
  std::string stateStore;  // memory | rocksdb: overrides every scenario's query.stateStore
  std::string downtime;    // MIN..MAX: overrides every scenario's sweep.downtime
  int seeds = 0;  // 0: the file's sweep.seeds
  uint64_t firstSeed = 0;
  int jobs = 1;
  std::string shard;  // "i/n"
  std::string junit;
  std::string json;
  std::string html;  // --html FILE: the sweep's page, and its failing seeds' pages beside it
  bool noProgress = false;
  // The streamsim CLI to start as worker processes (`sweep-worker`) when Python processors make
  // threads share one GIL; empty: threads only.
  std::string workerExe;
  // What this runner hands its runs (harness/run/registries.h; runCli's caller built it).
  std::shared_ptr<const harness::RunRegistries> registries;
};

// `streamsim sweep-worker` (internal): a sweep's worker process. Loads `files` (in this order: the
// parent's scenario indexes), answers "<scenario index> <seed>" lines on stdin with the seed's
// outcome (harness::serveSweepRequest) on stdout; anything else printing to stdout (a processor's
// print()) goes to stderr.
struct SweepWorkerArgs {
  std::string program = "streamsim";
  std::string stateStore;
  std::string downtime;  // the parent's --downtime
  std::vector<std::string> files;
  // What this runner hands its runs (harness/run/registries.h; runCli's caller built it).
  std::shared_ptr<const harness::RunRegistries> registries;
};
int sweepWorkerCommand(const SweepWorkerArgs& args, std::ostream& err);

// `streamsim hash-seed-worker` (internal): the hash_seed oracle's other process. Its Python starts
// with `hashSeed` (PYTHONHASHSEED); it answers each "SEED FILE" line (or "SEED", for the `file` it
// was started with, if any) with the seed's fault-free final sink of that scenario file
// (harness::variantSink, harness::hashSeedAnswer). A sweep keeps one per hash seed for all its
// files (harness::sinkUnderHashSeed).
struct HashSeedWorkerArgs {
  uint32_t hashSeed = 0;
  std::string file;  // optional
  // What this runner hands its runs (harness/run/registries.h; runCli's caller built it).
  std::shared_ptr<const harness::RunRegistries> registries;
};
int hashSeedWorkerCommand(const HashSeedWorkerArgs& args, std::ostream& err);

// `streamsim workload-worker` (internal): a worker process of streamsim.sweep_processor(...,
// jobs > 1). Rebuilds the generated scenario of a Python processor file
// (harness/run/python_workload.h) and answers "0 <seed>" lines on stdin with the seed's outcome
// (harness::serveSweepRequest).
struct WorkloadWorkerArgs {
  harness::PythonWorkloadSpec spec;
  std::string program = "streamsim";  // the program its seeds' replay lines name (argv[0])
};
int workloadWorkerCommand(const WorkloadWorkerArgs& args, std::ostream& err);

struct ReplayArgs {
  std::string program = "streamsim";
  // A scenario file, or a workload (harness::isWorkloadName: count, dedup, ..., a registered
  // processor, file.py:Class).
  std::string file;
  uint64_t seed = 0;
  std::string plan;
  std::string files;       // workloads: the landing files taking part ("0,3", "none")
  // Workloads: what a generated workload's replay line says besides `file` (its
  // `workload`) and `stateStore`: --output-schema, --time-mode, --oracle, --determinism, --batch-split.
  harness::WorkloadReplayArgs workload;
  std::string stateStore;  // memory | rocksdb (default: the scenario's / memory)
  std::optional<uint32_t> hashSeed;  // the hash_seed oracle's other hash seed (default: the seed's)
  bool trace = false;
  std::string keep;  // --keep DIR
  bool replace = false;  // --replace: empty a --keep folder streamsim kept before
  std::string html;  // --html FILE: the replayed run's page
  // What this runner hands its runs (harness/run/registries.h; runCli's caller built it).
  std::shared_ptr<const harness::RunRegistries> registries;
};

struct MergeArgs {
  std::vector<std::string> files;
  std::string json;
};

// The most worker threads or processes a sweep runs (--jobs, streamsim.sweep(jobs=...)).
inline constexpr int kMaxJobs = harness::kMaxSweepJobs;

int runCommand(const RunArgs& args, std::ostream& out, std::ostream& err);
int sweepCommand(const SweepArgs& args, std::ostream& out, std::ostream& err);
int replayCommand(const ReplayArgs& args, std::ostream& out, std::ostream& err);
// `replay --checkpoint DIR --landing DIR ...`: harness::replayCheckpoint, printed per batch.
int checkpointReplayCommand(const harness::CheckpointReplayOptions& options, std::ostream& out,
                            std::ostream& err);
// `merge a.json b.json [--json out]`: the union of shard reports; every (file, seed) must appear
// once (2 otherwise); 1 when a seed failed (its replay command is printed), else 0.
int mergeCommand(const MergeArgs& args, std::ostream& out, std::ostream& err);
// Reads `sweep --json` reports (shards) into one {"merged": [files], "results": [...] in (file, seed)
// order, "totals" of a single report}; false (the file and what is wrong on err) for a report that
// can't be read, a result that is not a sweep result or a (file, seed) in two reports.
bool readSweepReports(const std::vector<std::string>& files, std::string_view command, nlohmann::json& merged,
                      std::ostream& err);
// Writes `text` to `path`; false (why, on err, naming `command`) for a folder or a failed write.
bool writeReport(const std::string& path, const std::string& text, std::string_view command, std::ostream& err);

// "2/4" -> {2, 4}; false when malformed or i >= n.
bool parseShard(const std::string& text, int& index, int& count);

}  // namespace streamsim::cli
