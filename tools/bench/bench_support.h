// What the workloads of `streamsim bench` share (bench.h, workload.h): a simulated world without
// faults or trace, the count workload's generated input and its engine run with the output
// checked, and figure formatting. Wall-clock timing lives in tools/, never in the engine.
// Single-threaded.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/limits.h"
#include "streamsim/env.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/state_store.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::bench {

using Clock = std::chrono::steady_clock;

constexpr TimeMs kStartMs = 1767225600000;  // 2026-01-01T00:00:00Z

uint64_t splitmix64(uint64_t x);
// 1.23M, 45.6k, 7.0
std::string human(double n);
// 250k, 1M, 1234
std::string count(int64_t n);

// A simulated world without faults or trace: the engine's own cost only.
struct World {
  sim::VirtualClock clock{kStartMs};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env;
  World() {
    env.clock = &clock;
    env.fs = &fs;
    env.ids = &ids;
  }
};

// Workloads 1, 2, 5 and 6: count per key over JSON-lines files {"key":"k0000001","value":N}.
struct CountInput {
  int64_t events = 0;
  int64_t keys = 0;
  int files = 0;
  std::vector<std::string> names;
  std::vector<std::string> contents;
  // Per file: rows the count processor emits (distinct keys in the file) and the sum of their
  // counts (the running count of each such key after the file).
  std::vector<int64_t> expectedRows;
  std::vector<int64_t> expectedCountSum;
  // Per file: the (key, running count) updates of that batch, for the raw RocksDB limit.
  std::vector<std::vector<std::pair<std::string, int64_t>>> updates;
};

std::string keyName(int64_t k);
CountInput makeCountInput(int64_t events, int64_t keys, int files, bool withUpdates);

// Counts rows and sums the "count" column of each batch (CountingSink), to check the output.
struct CountCheck {
  std::vector<int64_t> rows;
  std::vector<int64_t> countSum;
};
SinkFactory countingSink(std::shared_ptr<CountCheck> check);

struct EngineRun {
  double seconds = 0;
  int64_t batches = 0;
  std::string error;  // empty when the output checked out
};

// The count workload on the engine: one file a batch (maxFilesPerTrigger 1), the output checked
// against `in`'s expected figures. `factory` (default: the sync count processor) and `services`
// let workload 6 run async processors; `virtualMs` gets the virtual time the run took (outside
// calls' latency); with `checkCounts` false only the number of output rows per batch is checked.
EngineRun runCountEngine(const CountInput& in, StateStoreKind kind, ProcessorFactory factory = {},
                         ServiceDirectory* services = nullptr, int64_t* virtualMs = nullptr,
                         bool checkCounts = true);

// The input sizes of the count workloads: (small, big) events and files.
struct Sizes {
  int64_t smallEvents, bigEvents;
  int smallFiles, bigFiles;
};
Sizes countSizes(bool quick);

}  // namespace streamsim::bench
