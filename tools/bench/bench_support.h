// What the workloads of `streamsim bench` share (bench.h, workload.h): the count workload of the
// harness (run/count_workload.h: its plain world, input and checked engine run) under the names
// the workloads use, the input sizes, and figure formatting. Wall-clock timing lives in tools/
// and the harness's run figures, never in the engine.
// Single-threaded.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/limits.h"
#include "streamsim/harness/run/count_workload.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::bench {

using Clock = std::chrono::steady_clock;

constexpr TimeMs kStartMs = harness::kCountWorkloadStartMs;  // 2026-01-01T00:00:00Z

// 1.23M, 45.6k, 7.0
std::string human(double n);
// 250k, 1M, 1234
std::string count(int64_t n);

// The count workload and its plain world live in the harness (run/count_workload.h), which the
// Python bench runs too.
using World = harness::PlainWorld;
using harness::CountCheck;
using harness::CountInput;
using harness::countingSink;
using harness::makeCountInput;
using harness::splitmix64;
using EngineRun = harness::CountRun;
using harness::runCountEngine;
// The example count processor, which the count workload runs unless a row brings its own.
inline ProcessorFactory exampleCount() { return processorFactoryOf<processors::CountProcessor>(); }
inline std::string keyName(int64_t k) { return harness::countKeyName(k); }

// The input sizes of the count workloads: (small, big) events and files.
struct Sizes {
  int64_t smallEvents, bigEvents;
  int smallFiles, bigFiles;
};
Sizes countSizes(bool quick);

}  // namespace streamsim::bench
