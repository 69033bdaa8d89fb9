// `streamsim bench` (DESIGN.md §8, docs/performance.md): the five workloads of issue 7 (and 6:
// async processors, issue 15), each
// printing its figure, its limit measured in the same run, the ratio, and how the figure scales
// between two input sizes. Wall-clock timing lives here (tools/), never in the engine or tests.
// Single-threaded (workload 4 runs its seeds on one thread: the figure is per core).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/harness/run/registries.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::bench {

struct BenchOptions {
  bool quick = false;  // small sizes: a smoke run of every workload in a few seconds
  bool json = false;   // one JSON object instead of the table
  // Only these workloads ("1".."5"); empty: all.
  std::vector<std::string> only;
  // A saved `bench --json` run: each figure's change against it is printed after the table.
  std::string compare;
  // Internal: run workload 2 at `rssChildKeys` keys in this process and print its peak RSS
  // (workload 5 re-executes the binary with this so the figure is that run's alone).
  std::optional<int64_t> rssChildKeys;
  int64_t rssChildEvents = 0;
  // What the runner hands its runs (harness/run/registries.h): workload 4p's Python loader.
  std::shared_ptr<const harness::RunRegistries> registries;
};

// One line of the table.
struct BenchRow {
  std::string id;         // "1a", "2b", ...
  std::string name;       // what ran
  std::string sizes;      // "250k -> 1M events"
  double figure = 0;      // at the big size
  std::string unit;       // "events/s", "x", "seeds/s", "MiB"
  std::string limitName;  // what the limit is ("" when none)
  double limit = 0;       // the limit at the big size, same unit
  double ratio = 0;       // figure / limit (memory: limit / figure is not used; see target)
  std::string target;     // ">= 50% of limit", "< 1024 MiB", ...
  bool met = false;
  // Per-unit cost at the big size / per-unit cost at the small size: 1.00 = linear,
  // below 1 = better than linear.
  double scaling = 0;
  double seconds = 0;  // wall time this row's measurements took
  std::string note;    // e.g. a check that failed
};

// Runs the selected workloads and prints the table (or JSON) to `out`. Returns the CLI exit
// code: 0 when every workload ran and its result checked out (targets missed are reported, not
// failed), 1 when a workload's output was wrong, 2 on bad options.
int benchCommand(const BenchOptions& options, const std::string& selfExe, std::ostream& out,
                 std::ostream& err);

}  // namespace streamsim::bench
