// Workload 4 (workload.h): sweep rate — seeds per second per core of the standard crash scenario
// with every oracle, against plain fault-free runs of the same workload.
#include "bench/workload.h"

#include <fmt/format.h>

#include "bench/bench_support.h"
#include "bench/workload_sweep.h"

namespace streamsim::bench {
// The standard crash scenario (issue 7): the count processor over 20 files of 50 events, two
// files landing per 1 s trigger (about 10 batches), up to two crashes at any fault point with
// torn writes (harness::defaultFaultKnobs), every oracle that fits the count workload, each
// seed checked against its own fault-free reference run, and a determinism re-run every 10th.
harness::WorkloadConfig standardCrashWorkload() {
  harness::WorkloadConfig c = harness::standardWorkload(harness::WorkloadKind::kCount);
  c.name = "bench-count";
  c.spec.events = 1000;
  c.spec.eventsPerFile = 50;
  c.spec.arrivalInterval = 500;
  c.knobs.files = 20;
  c.knobs.batches = 10 + c.drainMs / c.triggerInterval;
  return c;
}

SweepRun runSweep(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed) {
  SweepRun run;
  harness::SweepOptions o;
  o.seeds = seeds;
  o.firstSeed = firstSeed;
  o.jobs = 1;
  o.determinismEvery = 10;
  auto t0 = Clock::now();
  harness::SweepReport report = harness::sweepWorkload(config, o);
  run.seconds = secondsSince(t0);
  run.failures = report.failures();
  if (run.failures > 0) {
    std::string summary = report.summary();
    run.error = summary.substr(0, summary.find('\n'));
  }
  return run;
}

// The limit of workload 4: plain fault-free runs of the same workload, one a seed (the engine and
// the simulation alone: no fault plan, no reference run, no oracles).
SweepRun runPlain(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed) {
  SweepRun run;
  auto t0 = Clock::now();
  for (int i = 0; i < seeds; ++i) {
    harness::RunCase c;
    c.seed = firstSeed + static_cast<uint64_t>(i);
    c.plan.seed = c.seed;
    harness::RunResult r = harness::simulate(config, c);
    if (!r.error.ok() && run.error.empty()) {
      ++run.failures;
      run.error = fmt::format("seed {}: {}", c.seed, r.error.toString());
    }
  }
  run.seconds = secondsSince(t0);
  return run;
}

std::vector<BenchRow> sweepRateWorkload(BenchContext& ctx, bool& ok) {
  const bool quick = ctx.quick;
  auto t0 = Clock::now();
  BenchRow r;
  r.id = "4";
  r.name = "sweep rate, standard crash scenario (1 thread)";
  r.unit = "seeds/s/core";
  r.limitName = "plain runs";
  r.target = ">= 1000, >= 50%";  // issue 38 (was 40%, issue 20)
  harness::WorkloadConfig config = standardCrashWorkload();
  const int small = quick ? 5 : 50, big = quick ? 20 : 200;
  SweepRun s = runSweep(config, small, 0);
  SweepRun b = runSweep(config, big, 1'000'000);
  SweepRun plain = runPlain(config, big, 1'000'000);
  r.sizes = fmt::format("{}->{} seeds", small, big);
  r.figure = b.seconds > 0 ? big / b.seconds : 0;
  double smallFigure = s.seconds > 0 ? small / s.seconds : 0;
  r.limit = plain.seconds > 0 ? big / plain.seconds : 0;
  r.ratio = r.limit > 0 ? r.figure / r.limit : 0;
  r.met = r.figure >= 1000 && r.ratio >= 0.5;
  r.scaling = r.figure > 0 ? smallFigure / r.figure : 0;
  if (s.failures + b.failures + plain.failures > 0) {
    ok = false;
    r.note = fmt::format("{} seeds failed; {}", s.failures + b.failures + plain.failures,
                         !s.error.empty() ? s.error : !b.error.empty() ? b.error : plain.error);
  }
  r.seconds = secondsSince(t0);
  return {r};
}

}  // namespace streamsim::bench
