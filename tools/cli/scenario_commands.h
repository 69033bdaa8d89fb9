// `streamsim run`, `sweep`, `replay` (a seed, or a checkpoint + landing folder) and `merge` (of
// sweep --json shard reports): scenario files through the harness's scenario runner.
// The sweep runs seeds on --jobs threads, each seed a fresh simulated world.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "streamsim/harness/checkpoint_replay.h"

namespace streamsim::cli {

struct RunArgs {
  std::string program = "streamsim";  // argv[0]: the reproduce lines name it
  std::vector<std::string> files;
  uint64_t seed = 0;
  bool update = false;
  std::string keep;  // --keep DIR: the simulated files written here (a folder per file if several)
};

struct SweepArgs {
  std::string program = "streamsim";
  std::string path;
  std::string stateStore;  // memory | rocksdb: overrides every scenario's query.stateStore
  int seeds = 0;  // 0: the file's sweep.seeds
  uint64_t firstSeed = 0;
  int jobs = 1;
  std::string shard;  // "i/n"
  std::string junit;
  std::string json;
  bool noProgress = false;
};

struct ReplayArgs {
  std::string program = "streamsim";
  std::string file;  // a scenario file, or a standard workload's name (count, dedup, ...)
  uint64_t seed = 0;
  std::string plan;
  std::string files;       // workloads: the landing files taking part ("0,3", "none")
  std::string stateStore;  // memory | rocksdb (default: the scenario's / memory)
  bool trace = false;
  std::string keep;  // --keep DIR
};

struct MergeArgs {
  std::vector<std::string> files;
  std::string json;
};

int runCommand(const RunArgs& args, std::ostream& out, std::ostream& err);
int sweepCommand(const SweepArgs& args, std::ostream& out, std::ostream& err);
int replayCommand(const ReplayArgs& args, std::ostream& out, std::ostream& err);
// `replay --checkpoint DIR --landing DIR ...`: harness::replayCheckpoint, printed per batch.
int checkpointReplayCommand(const harness::CheckpointReplayOptions& options, std::ostream& out,
                            std::ostream& err);
// `merge a.json b.json [--json out]`: the union of shard reports; every (file, seed) must appear
// once (2 otherwise); 1 when a seed failed (its replay command is printed), else 0.
int mergeCommand(const MergeArgs& args, std::ostream& out, std::ostream& err);

// "2/4" -> {2, 4}; false when malformed or i >= n.
bool parseShard(const std::string& text, int& index, int& count);
// Seeds [first, first+n) that belong to shard i of n (seed % n == i).
std::vector<uint64_t> shardSeeds(uint64_t first, int n, int shardIndex, int shardCount);

}  // namespace streamsim::cli
