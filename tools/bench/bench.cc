// `streamsim bench` (bench.h): the workloads of workload.h, one file each, run from one table.
#include "bench/bench.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "bench/bench_support.h"
#include "bench/report.h"
#include "bench/workload.h"

namespace streamsim::bench {

bool BenchContext::selected(const std::string& id) const {
  return only.empty() || std::find(only.begin(), only.end(), id) != only.end();
}

const std::vector<BenchWorkload>& benchWorkloads() {
  static const std::vector<BenchWorkload> kWorkloads = {
      {"1", "throughput, memory state (1a, 1b)", throughputMemoryWorkload},
      {"2", "throughput, RocksDB state (2a, 2b)", throughputRocksDBWorkload},
      {"3", "time acceleration, a simulated day", accelerationWorkload},
      {"4", "sweep rate, standard crash scenario", sweepRateWorkload},
      {"4p", "sweep rate, the same with the seed's Python count processor", pythonSweepRateWorkload},
      {"5", "peak RSS of workload 2", memoryWorkload},
      {"6", "async processors", asyncWorkload},
      {"7", "real-time mode", realTimeWorkload},
      {"8", "expressions: from_json, where, select, count per key", exprWorkload},
  };
  return kWorkloads;
}

int benchCommand(const BenchOptions& options, const std::string& selfExe, std::ostream& out,
                 std::ostream& err) {
  if (options.rssChildKeys) return rssChild(*options.rssChildKeys, options.rssChildEvents);
  std::vector<std::string> ids;
  for (const BenchWorkload& w : benchWorkloads()) ids.push_back(w.id);
  for (const std::string& w : options.only) {
    if (std::find(ids.begin(), ids.end(), w) == ids.end()) {
      err << fmt::format("streamsim bench: --only '{}': expected a workload id: {}\n", w, fmt::join(ids, ", "));
      return 2;
    }
  }
  std::optional<SavedRun> saved;
  if (!options.compare.empty()) {
    auto read = readSavedRun(options.compare);
    if (!read.ok()) {
      err << "streamsim bench: " << read.status().message() << "\n";
      return 2;
    }
    saved = std::move(*read);
  }
  auto t0 = Clock::now();
  bool ok = true;
  const bool quick = options.quick;
  BenchContext ctx;
  ctx.quick = quick;
  ctx.selfExe = selfExe;
  ctx.fewKeys = quick ? 1'000 : 10'000;
  ctx.manyKeys = quick ? 20'000 : 1'000'000;
  ctx.only = options.only;
  ctx.registries = options.registries;
  std::vector<BenchRow> rows;
  for (const BenchWorkload& w : benchWorkloads()) {
    if (!ctx.selected(w.id)) continue;
    for (BenchRow& r : w.run(ctx, ok)) rows.push_back(std::move(r));
  }
  double total = secondsSince(t0);
  if (options.json)
    out << toJson(rows, quick, total).dump(2) << "\n";
  else
    printTable(rows, quick, total, out);
  if (saved && !options.json) printComparison(rows, *saved, quick, options.compare, out);
  if (!ok) err << "streamsim bench: a workload's output did not check out (see its note)\n";
  return ok ? 0 : 1;
}

}  // namespace streamsim::bench
