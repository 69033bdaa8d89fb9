// The workloads of `streamsim bench` (DESIGN.md §8, docs/performance.md), one file each, in one
// table (workloads.cc) by id, as FoundationDB registers its workloads by name: a workload runs its
// engine figure and its limit in the same run and returns its table rows. Adding a workload: its
// file, its declaration here and its row in benchWorkloads() (docs/contributing.md).
// Single-threaded (workload 4 runs its seeds on one thread: the figure is per core).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/bench.h"

namespace streamsim::bench {

// What a workload is given and what it leaves for those after it.
struct BenchContext {
  bool quick = false;
  std::string selfExe;        // this binary (workload 5 measures a child process of it)
  int64_t fewKeys = 10'000;   // the key counts of workloads 1, 2 and 6
  int64_t manyKeys = 1'000'000;
  std::vector<std::string> only;  // the workloads selected (empty: all)
  // Figures of rows already run, by row id (workload 2's limit is workload 1's figure).
  std::map<std::string, double> figures;
  bool selected(const std::string& id) const;
  // What the runner hands its runs (workload 4p's Python loader; null: none).
  std::shared_ptr<const harness::RunRegistries> registries;
};

struct BenchWorkload {
  std::string id;    // "1" .. "8", "4p": what --only names
  std::string what;  // one line for --help and errors
  // Its rows; `ok` false when its output did not check out (the row's note says why).
  std::vector<BenchRow> (*run)(BenchContext& ctx, bool& ok);
};

// Every workload, in the order the table prints them.
const std::vector<BenchWorkload>& benchWorkloads();

// The workloads (workload_*.cc).
std::vector<BenchRow> throughputMemoryWorkload(BenchContext& ctx, bool& ok);   // 1: workload_count.cc
std::vector<BenchRow> throughputRocksDBWorkload(BenchContext& ctx, bool& ok);  // 2: workload_count.cc
std::vector<BenchRow> accelerationWorkload(BenchContext& ctx, bool& ok);       // 3
std::vector<BenchRow> sweepRateWorkload(BenchContext& ctx, bool& ok);          // 4
std::vector<BenchRow> pythonSweepRateWorkload(BenchContext& ctx, bool& ok);    // 4p: workload_sweep_python.cc
std::vector<BenchRow> memoryWorkload(BenchContext& ctx, bool& ok);             // 5
std::vector<BenchRow> asyncWorkload(BenchContext& ctx, bool& ok);              // 6
std::vector<BenchRow> realTimeWorkload(BenchContext& ctx, bool& ok);           // 7
std::vector<BenchRow> exprWorkload(BenchContext& ctx, bool& ok);               // 8: workload_expr.cc

// Workload 5's child process: workload 2 at `keys` keys, printing its peak RSS.
int rssChild(int64_t keys, int64_t events);

}  // namespace streamsim::bench
