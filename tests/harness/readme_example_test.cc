// The README's example, compiled so it stays true: a user's processor and its unit test.
#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/harness/processor_tester.h"

using namespace streamsim;
using namespace streamsim::harness;

// Counts rows per user; a user silent for an hour starts again from zero (TTL).
class VisitCounter : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    count_ = handle.getValueState<int64_t>("count", TTLConfig{60 * 60 * 1000});
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t total = (count_.exists() ? count_.get() : 0) + static_cast<int64_t>(rows.size());
    count_.update(total);
    out.emit({{"user", key[0]}, {"visits", total}});
  }

 private:
  ValueState<int64_t> count_;
};

TEST(VisitCounter, CountsPerUserAndForgetsAfterAnHour) {
  ProcessorTester<VisitCounter> t({.groupBy = {"user"}, .timeMode = TimeMode::kProcessingTime});
  Row visit{{"user", "ann"}};
  EXPECT_THAT(t.test("ann", {visit, visit}), EmitsRows({{{"user", "ann"}, {"visits", int64_t{2}}}}));
  EXPECT_THAT(t.test("ann", {visit}), EmitsRows({{{"user", "ann"}, {"visits", int64_t{3}}}}));
  ASSERT_THAT(t.restart(), IsOk());                     // only committed state survives
  EXPECT_THAT(t.setProcessingTime(60 * 60 * 1000), EmitsNothing());  // TTL: count expires
  EXPECT_THAT(t.test("ann", {visit}), EmitsRows({{{"user", "ann"}, {"visits", int64_t{1}}}}));
}
