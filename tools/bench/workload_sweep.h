// What workloads 4 and 4p share (workload_sweep.cc, workload_sweep_python.cc): the standard crash
// scenario, its sweep on one thread and its plain fault-free runs, each timed.
#pragma once

#include <cstdint>
#include <string>

#include "streamsim/harness/sweep.h"

namespace streamsim::bench {

// The count processor over 20 files of 50 events, two files landing per 1 s trigger (about 10
// batches), up to two crashes at any fault point with torn writes (harness::defaultFaultKnobs).
harness::WorkloadConfig standardCrashWorkload();

struct SweepRun {
  double seconds = 0;
  int failures = 0;
  std::string error;
};

// `seeds` seeds from `firstSeed` swept on one thread with every oracle that fits the workload,
// each seed checked against its own fault-free reference run, a determinism re-run every 10th.
SweepRun runSweep(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed);

// The limit: plain fault-free runs of the same workload, one a seed (the engine and the
// simulation alone: no fault plan, no reference run, no oracles).
SweepRun runPlain(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed);

}  // namespace streamsim::bench
