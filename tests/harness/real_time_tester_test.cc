// ProcessorTester's real-time flag (TesterOptions::realTimeMode, PySpark's TwsTester
// realTimeMode): handleInputRows once per input row, against the micro-batch default of one call
// per key and batch. call_counter counts its calls (scenarios/processors/src/real_time_processors.cc).
#include <gtest/gtest.h>

#include "streamsim/harness/processor_tester.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

std::vector<Row> threeRows() {
  return {Row{{"value", "x"}}, Row{{"value", "y"}}, Row{{"value", "z"}}};
}

int64_t intOf(const Row& r, const char* column) { return r.get(column).asLong(); }

TEST(RealTimeTester, OneCallPerRowInRealTimeMode) {
  auto tester = makeRegistryTester(*::streamsim::test::testProcessors(), "call_counter", {.realTimeMode = true});
  ASSERT_TRUE(tester.ok()) << tester.status().message();
  auto out = (*tester)->test("a", threeRows());
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 3u);  // one output per call
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(intOf((*out)[i], "calls"), i + 1);
    EXPECT_EQ(intOf((*out)[i], "rows"), i + 1);
  }
  EXPECT_EQ((*tester)->peekValueState<int64_t>("a", "calls")->value_or(-1), 3);
  EXPECT_EQ((*tester)->nextBatchId(), 3);  // each row its own batch
}

TEST(RealTimeTester, OneCallPerKeyAndBatchInMicroBatchMode) {
  auto tester = makeRegistryTester(*::streamsim::test::testProcessors(), "call_counter", {});
  ASSERT_TRUE(tester.ok()) << tester.status().message();
  auto out = (*tester)->test("a", threeRows());
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ(intOf((*out)[0], "calls"), 1);
  EXPECT_EQ(intOf((*out)[0], "rows"), 3);
  EXPECT_EQ((*tester)->nextBatchId(), 1);
}

TEST(RealTimeTester, NoRowsRunNoBatchInRealTimeMode) {
  auto tester = makeRegistryTester(*::streamsim::test::testProcessors(), "call_counter", {.realTimeMode = true});
  ASSERT_TRUE(tester.ok()) << tester.status().message();
  auto out = (*tester)->test("a", {});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_TRUE(out->empty());
  EXPECT_EQ((*tester)->nextBatchId(), 0);
}

// A timer that a row makes due fires after that row's call, before the next row is handled.
TEST(RealTimeTester, ADueTimerFiresBetweenRows) {
  TesterOptions o{.timeMode = TimeMode::kProcessingTime, .realTimeMode = true,
                  .processingTimeMs = 10'000};
  auto tester = makeRegistryTester(*::streamsim::test::testProcessors(), "late_timer", o);
  ASSERT_TRUE(tester.ok()) << tester.status().message();
  auto out = (*tester)->test("a", {Row{{"value", Value::timestamp(5'000)}},
                                   Row{{"value", Value::timestamp(50'000)}}});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 1u);  // the 5 s timer fired; the 50 s one is pending
  EXPECT_EQ((*out)[0].get("due"), Value::timestamp(5'000));
  auto timers = (*tester)->listTimers("a");
  ASSERT_TRUE(timers.ok());
  EXPECT_EQ(*timers, std::vector<TimeMs>{50'000});
}

}  // namespace
}  // namespace streamsim::harness
