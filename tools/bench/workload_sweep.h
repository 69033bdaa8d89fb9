// What workloads 4 and 4p share (workload_sweep.cc, workload_sweep_python.cc): the standard crash
// scenario, its sweep on one thread and its plain fault-free runs, each timed, and the row's
// figures from them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "bench/bench.h"
#include "streamsim/harness/run/workload_config.h"

namespace streamsim::bench {

// The count processor over 20 files of 50 events, two files landing per 1 s trigger (about 10
// batches), up to two crashes at any fault point with torn writes (harness::defaultFaultKnobs);
// the count processor from `registries` (the runner's).
harness::WorkloadConfig standardCrashWorkload(std::shared_ptr<const harness::RunRegistries> registries);

struct SweepRun {
  double seconds = 0;
  size_t runs = 0;  // simulated runs in all (the sweep report's totals: each seed's own, the oracles')
  int failures = 0;
  std::string error;
};

// `seeds` seeds from `firstSeed` of the workload's generated scenario swept on one thread
// (harness::sweepGenerated) with every oracle that fits the workload, each seed checked against
// its own fault-free reference run, a determinism re-run every 10th.
SweepRun runSweep(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed);

// The limit: plain fault-free runs of the same generated scenario, one a seed (the engine and
// the simulation alone: no fault plan, no reference run, no oracles).
SweepRun runPlain(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed);

// Rows 4 and 4p: the sweep of `small` seeds (from 0) and of `big` (from 1,000,000) against
// `big` plain runs: the row's sizes (with the big sweep's runs per seed), figure (seeds/s at the big size), limit, ratio and scaling;
// a failed seed or run is the row's note and clears `ok`. The caller sets `met`.
void measureSweepRate(BenchRow& row, const harness::WorkloadConfig& config, int small, int big, bool& ok);

}  // namespace streamsim::bench
