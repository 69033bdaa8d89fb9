// The count workload (harness/run/count_workload.h), which `streamsim bench` workloads 1, 2, 5, 6
// and the Python bench (bench_count) run: its input knows the counts, and the engine run checks
// the processor's output against them — a right count passes, a wrong one is reported.
#include "streamsim/harness/run/count_workload.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness {
namespace {

TEST(CountWorkload, TheInputKnowsItsCounts) {
  CountInput in = makeCountInput(1000, 37, 4, /*withUpdates=*/true);
  ASSERT_EQ(in.contents.size(), 4u);
  ASSERT_EQ(in.names.size(), 4u);
  int64_t lines = 0;
  for (const std::string& c : in.contents) lines += std::count(c.begin(), c.end(), '\n');
  EXPECT_EQ(lines, 1000);
  // Each file's updates are its distinct keys with their running counts.
  for (size_t f = 0; f < 4; ++f) {
    EXPECT_EQ(static_cast<int64_t>(in.updates[f].size()), in.expectedRows[f]);
    int64_t sum = 0;
    for (const auto& [key, count] : in.updates[f]) sum += count;
    EXPECT_EQ(sum, in.expectedCountSum[f]);
  }
  // The last file's running counts add up to every event.
  EXPECT_LE(in.expectedRows.back(), 37);
  EXPECT_EQ(countKeyName(42), "k0000042");
}

TEST(CountWorkload, TheBuiltInCountPassesItsCheck) {
  CountWorkloadRun run = runCountWorkload(processorFactoryOf<processors::CountProcessor>(), 2000, 50, 5);
  EXPECT_EQ(run.error, "");
  EXPECT_EQ(run.contents.size(), 5u);
  CountRun rocks = runCountEngine(makeCountInput(2000, 50, 5, false), StateStoreKind::kRocksDB,
                                 processorFactoryOf<processors::CountProcessor>());
  EXPECT_EQ(rocks.error, "");
  EXPECT_EQ(rocks.batches, 5);
}

// A count processor that counts each key's rows twice (and emits twice): the check reports it.
class DoubleCount final : public processors::CountProcessor {
 public:
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timers, Output& out) override {
    CountProcessor::handleInputRows(key, rows, timers, out);
    CountProcessor::handleInputRows(key, rows, timers, out);
  }
};

TEST(CountWorkload, AWrongCountIsReported) {
  CountWorkloadRun run = runCountWorkload([] { return std::make_unique<DoubleCount>(); }, 500, 10, 2);
  EXPECT_NE(run.error.find("differs from the expected counts"), std::string::npos) << run.error;
}

}  // namespace
}  // namespace streamsim::harness
