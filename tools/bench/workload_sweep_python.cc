// Workload 4p (workload.h): the sweep of workload 4's standard crash scenario with the seed's Python
// count processor (scenarios/seeds/python/processors/count.py) in place of the C++ one, against
// plain fault-free runs of the same Python workload (issue 38).
#include "bench/workload.h"

#include <filesystem>

#include <fmt/format.h>

#include "bench/bench_support.h"
#include "bench/workload_sweep.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"

#ifndef STREAMSIM_SEED_COUNT_PY
#define STREAMSIM_SEED_COUNT_PY ""
#endif

namespace streamsim::bench {

std::vector<BenchRow> pythonSweepRateWorkload(BenchContext& ctx, bool& ok) {
  const bool quick = ctx.quick;
  auto t0 = Clock::now();
  BenchRow r;
  r.id = "4p";
  r.name = "sweep rate, the same with the seed's Python count";
  r.unit = "seeds/s/core";
  r.limitName = "plain Python runs";
  r.target = ">= 40% of limit";
  const int small = quick ? 3 : 25, big = quick ? 10 : 100;
  r.sizes = fmt::format("{}->{} seeds", small, big);  // also when not run
  // The seed's processor file, where the build found it (tools/CMakeLists.txt).
  const std::string file = STREAMSIM_SEED_COUNT_PY;
  std::error_code ec;
  if (file.empty() || !std::filesystem::is_regular_file(file, ec)) {
    r.note = fmt::format("not run: the seed's count processor '{}' is not there (a build tree's bench runs it)", file);
    r.seconds = secondsSince(t0);
    return {r};
  }
  harness::WorkloadConfig config = standardCrashWorkload(ctx.registries);
  config.kind = harness::WorkloadKind::kCustom;
  config.processorRef = file + ":CountProcessor";
  config.name = config.processorRef;
  config.outputSchema = "action string, count long";  // the seed's Row(action=key[0], count=total)
  auto factory = harness::loadPythonProcessor(ctx.registries.get(), {file, "CountProcessor", config.outputSchema, false, {}});
  if (!factory.ok()) {
    // A runner built without Python (streamsim_add_runner without streamsim_python): reported.
    r.note = "not run: " + factory.status().message();
    r.seconds = secondsSince(t0);
    return {r};
  }
  config.processor = *factory;
  measureSweepRate(r, config, small, big, ok);
  r.met = r.ratio >= 0.4;
  r.seconds = secondsSince(t0);
  return {r};
}

}  // namespace streamsim::bench
