// The count workload (DESIGN.md §8, docs/performance.md): a count per key over generated
// JSON-lines files {"key":"k0000001","value":N}, run on the engine in a simulated world without
// faults or trace, its output checked against the counts the generator knows. Bench workloads 1,
// 2, 5 and 6 (`streamsim bench`) and the Python bench (`streamsim._native.bench_count`) run it
// through runCountEngine / runCountWorkload. The wall time of the engine run is measured here
// (steady clock, as a sweep's seconds are); nothing of the run depends on it. Single-threaded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/state_store.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {

constexpr TimeMs kCountWorkloadStartMs = 1767225600000;  // 2026-01-01T00:00:00Z

// SplitMix64's finaliser: the workload's key of each event.
uint64_t splitmix64(uint64_t x);
// "k0000042"
std::string countKeyName(int64_t k);

// A simulated world without faults or trace: the engine's own cost only.
struct PlainWorld {
  sim::VirtualClock clock{kCountWorkloadStartMs};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env;
  PlainWorld() {
    env.clock = &clock;
    env.fs = &fs;
    env.ids = &ids;
  }
};

// The workload's input: `events` rows over `keys` keys in `files` files.
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
  // Per file (with `withUpdates`): the (key, running count) updates of that batch, sorted by key.
  std::vector<std::vector<std::pair<std::string, int64_t>>> updates;
};
CountInput makeCountInput(int64_t events, int64_t keys, int files, bool withUpdates);

// Counts rows and sums the "count" column of each batch, to check the output.
struct CountCheck {
  std::vector<int64_t> rows;
  std::vector<int64_t> countSum;
};
SinkFactory countingSink(std::shared_ptr<CountCheck> check);

struct CountRun {
  double seconds = 0;  // wall time of the engine run (from start to processAllAvailable)
  int64_t batches = 0;
  std::string error;   // empty when the output checked out
};

// The count workload on the engine: one file a batch (maxFilesPerTrigger 1), the output checked
// against `in`'s expected figures, counted by `factory`'s processor (the example count
// processor, or another that emits {key, count}); `services` let async processors run it; `virtualMs` gets the virtual time the run took (outside
// calls' latency); with `checkCounts` false only the number of output rows per batch is checked.
CountRun runCountEngine(const CountInput& in, StateStoreKind kind, ProcessorFactory factory,
                        ServiceDirectory* services = nullptr, int64_t* virtualMs = nullptr,
                        bool checkCounts = true);

// `events` events over `keys` keys in `files` files, counted on memory state by `processor`: the
// engine's events/s, an error when its output was wrong, and the
// files' bytes (for a limit measured over the same input).
struct CountWorkloadRun {
  double eventsPerSecond = 0;
  std::string error;
  std::vector<std::string> contents;
};
CountWorkloadRun runCountWorkload(const ProcessorFactory& processor, int64_t events, int64_t keys, int files);

}  // namespace streamsim::harness
