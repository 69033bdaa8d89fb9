#include "visit_counter.h"

#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/harness/processor_tester.h"

using namespace streamsim;
using namespace streamsim::harness;

TEST(VisitCounter, CountsPerUserAndForgetsAfterAnHour) {
  ProcessorTester<visits::VisitCounter> t({.groupBy = {"user"}, .timeMode = TimeMode::kProcessingTime});
  Row visit{{"user", "ann"}};
  EXPECT_THAT(t.test("ann", {visit, visit}), EmitsRows({{{"user", "ann"}, {"visits", int64_t{2}}}}));
  ASSERT_THAT(t.restart(), IsOk());                     // only committed state survives
  EXPECT_THAT(t.setProcessingTime(60 * 60 * 1000), EmitsNothing());  // TTL: count expires
  EXPECT_THAT(t.test("ann", {visit}), EmitsRows({{{"user", "ann"}, {"visits", int64_t{1}}}}));
}
