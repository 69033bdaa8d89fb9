// The seed documents' example processors (counter, initial state, session tracker, heartbeat
// timer, TTL cache), each tested twice: alone with ProcessorTester, and in a query with
// StreamTest actions — as the seed examples run them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/harness/actions.h"
#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/harness/processor_tester.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness {
namespace {

using processors::CounterWithInitialState;
using processors::CountProcessor;
using processors::HeartbeatProcessor;
using processors::SessionTrackerProcessor;
using processors::SimpleCounterProcessor;
using processors::TtlCacheProcessor;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

template <class P>
OperatorFactory tws(std::vector<std::string> groupBy, TimeMode mode = TimeMode::kNone,
                    std::optional<std::vector<Row>> initialState = std::nullopt) {
  return [=] {
    TransformWithStateSpec spec;
    spec.groupBy = groupBy;
    spec.processorFactory = [] { return std::make_unique<P>(); };
    spec.timeMode = mode;
    spec.outputMode = OutputMode::kUpdate;
    spec.initialState = initialState;
    return makeTransformWithState(spec);
  };
}

TestQuery queryOver(std::shared_ptr<MemoryStreamData> input, OperatorFactory op,
                    Trigger trigger = Trigger::Default()) {
  return memoryQuery(readStream(makeMemorySource(std::move(input)))
                         .transform(std::move(op))
                         .writeStream()
                         .outputMode(OutputMode::kUpdate)
                         .trigger(trigger)
                         .option("checkpointLocation", "/chk")
                         .option("spark.sql.shuffle.partitions", "1"));
}

// ---- counter (count processor, and the seed's SimpleCounterProcessor) ----

TEST(SeedCounter, Tester) {
  ProcessorTester<CountProcessor> tester({.groupBy = {"action"}});
  EXPECT_THAT(tester.test("open", {Row{{"t", 1}}, Row{{"t", 2}}}),
              EmitsRows({Row{{"action", "open"}, {"count", 2}}}));
  EXPECT_THAT(tester.test("open", {Row{{"t", 3}}}), EmitsRows({Row{{"action", "open"}, {"count", 3}}}));
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("open", "count")), 3);
}

TEST(SeedCounter, SimpleCounterProcessorTester) {
  // The seed's processor: the list gets [120, 20] + [111] + [120, 20] per batch; the map's
  // "user_key" accumulates count + previous value.
  ProcessorTester<SimpleCounterProcessor> tester({.groupBy = {"id"}});
  EXPECT_THAT(tester.test("k", {Row{{"value", "a"}}, Row{{"value", "b"}}}),
              EmitsRows({Row{{"id", "k"}, {"countAsString", "2"}}}));
  EXPECT_THAT(valueOrFail(tester.peekListState<int32_t>("k", "listState")),
              ElementsAre(120, 20, 111, 120, 20));
  EXPECT_THAT(tester.test("k", {Row{{"value", "c"}}}),
              EmitsRows({Row{{"id", "k"}, {"countAsString", "3"}}}));
  EXPECT_EQ(valueOrFail(tester.peekValueState<int32_t>("k", "valueState")), 3);
  EXPECT_THAT((valueOrFail(tester.peekMapState<std::string, int32_t>("k", "mapState"))),
              ElementsAre(Pair("user_key", 5)));
}

TEST(SeedCounter, Query) {
  auto actions = std::make_shared<MemoryStreamData>();
  TestQuery q = queryOver(actions, tws<CountProcessor>({"action"}));
  EXPECT_THAT(testStream(q,
                         AddData{actions, {Row{{"action", "open"}}, Row{{"action", "close"}},
                                           Row{{"action", "open"}}}},
                         CheckNewAnswer{{Row{{"action", "close"}, {"count", 1}},
                                         Row{{"action", "open"}, {"count", 2}}}},
                         Crash{"commits.before_write"},
                         AddData{actions, {Row{{"action", "open"}}}},
                         RunBatches{1},
                         Restart{},
                         CheckNewAnswer{{Row{{"action", "open"}, {"count", 3}}}},
                         CheckCheckpoint{.offsets = std::vector<int64_t>{0, 1},
                                         .commits = std::vector<int64_t>{0, 1}}),
              IsOk());
}

// ---- initial state (the seed's CounterWithInitialState: x seeded with 10, two rows -> 12) ----

TEST(SeedInitialState, Tester) {
  ProcessorTester<CounterWithInitialState> tester(
      {.groupBy = {"id"}, .initialState = std::vector<Row>{Row{{"id", "x"}, {"count", 10}}}});
  EXPECT_THAT(tester.test("x", {Row{{"value", "a"}}, Row{{"value", "b"}}}),
              EmitsRows({Row{{"id", "x"}, {"count", 12}}}));
  EXPECT_THAT(tester.test("y", {Row{{"value", "c"}}}), EmitsRows({Row{{"id", "y"}, {"count", 1}}}));
  ASSERT_THAT(tester.restart(), IsOk());  // initial state is batch 0 only: no re-seeding
  EXPECT_THAT(tester.test("x", {Row{{"value", "d"}}}), EmitsRows({Row{{"id", "x"}, {"count", 13}}}));
}

TEST(SeedInitialState, QueryWithAvailableNow) {
  auto source = std::make_shared<MemoryStreamData>();
  TestQuery q = queryOver(source,
                          tws<CounterWithInitialState>({"id"}, TimeMode::kNone,
                                                       std::vector<Row>{Row{{"id", "x"}, {"count", 10}}}),
                          Trigger::AvailableNow());
  EXPECT_THAT(testStream(q,
                         AddData{source, {Row{{"id", "x"}, {"value", "a"}},
                                          Row{{"id", "x"}, {"value", "b"}}}},
                         ProcessAllAvailable{},
                         CheckAnswer{{Row{{"id", "x"}, {"count", 12}}}, RowOrder::kAnyOrder, false}),
              IsOk());
}

// ---- session tracker (MapState keyed by session_id, grouped by user_id; emits nothing) ----

TEST(SeedSessionTracker, Tester) {
  ProcessorTester<SessionTrackerProcessor> tester({.groupBy = {"user_id"}});
  EXPECT_THAT(tester.test("u1", {Row{{"session_id", "s1"}}, Row{{"session_id", "s2"}}}),
              EmitsNothing());
  EXPECT_THAT(tester.test("u1", {Row{{"session_id", "s1"}}}), EmitsNothing());
  EXPECT_THAT((valueOrFail(tester.peekMapState<std::string, int64_t>("u1", "sessions"))),
              ElementsAre(Pair("s1", 2), Pair("s2", 1)));
  EXPECT_THAT((valueOrFail(tester.peekMapState<std::string, int64_t>("u2", "sessions"))), IsEmpty());
}

TEST(SeedSessionTracker, QueryStateSurvivesACrashMidPartition) {
  auto events = std::make_shared<MemoryStreamData>();
  TestQuery q = queryOver(events, tws<SessionTrackerProcessor>({"user_id"}));
  auto sessionsOfU1 = [](std::vector<std::pair<std::string, int64_t>> expected) {
    return AssertOnQuery{
        [expected](StreamTestContext& ctx) -> Status {
          // A tester attached to the query's checkpoint reads the committed state.
          // The query's output mode: a different one is a restart Spark rejects
          // (STATE_STORE_INVALID_CONFIG_AFTER_RESTART).
          TesterOptions o{.groupBy = {"user_id"}, .outputMode = OutputMode::kUpdate};
          o.fileSystem = &ctx.sim.fs();
          o.checkpointRoot = "/chk";
          o.firstBatchId = ctx.running()->nextBatchId();
          ProcessorTester<SessionTrackerProcessor> state(o);
          STREAMSIM_ASSIGN_OR_RETURN(auto got,
                                     (state.peekMapState<std::string, int64_t>("u1", "sessions")));
          if (got != expected) return Status::FailedPrecondition("sessions of u1 differ");
          return Status::OK();
        },
        "sessions of u1"};
  };
  EXPECT_THAT(testStream(q,
                         AddData{events, {Row{{"user_id", "u1"}, {"session_id", "s1"}}}},
                         ProcessAllAvailable{},
                         Crash{"task.mid_partition"},
                         AddData{events, {Row{{"user_id", "u1"}, {"session_id", "s1"}},
                                          Row{{"user_id", "u1"}, {"session_id", "s2"}},
                                          Row{{"user_id", "u2"}, {"session_id", "s9"}}}},
                         RunBatches{1},
                         Restart{},
                         ProcessAllAvailable{},
                         sessionsOfU1({{"s1", 2}, {"s2", 1}}),
                         CheckAnswer{{}, RowOrder::kAnyOrder, false}),
              IsOk());
}

// ---- heartbeat timer (processing-time timer reset by every row; fires when a sensor is quiet) ----

TEST(SeedHeartbeat, Tester) {
  ProcessorTester<HeartbeatProcessor> tester(
      {.groupBy = {"sensor"}, .timeMode = TimeMode::kProcessingTime});
  EXPECT_THAT(tester.test("s1", {Row{{"reading", 20.5}}}), EmitsNothing());
  EXPECT_THAT(tester.setProcessingTime(6'000), EmitsNothing());
  EXPECT_THAT(tester.test("s1", {Row{{"reading", 21.0}}}), EmitsNothing());  // resets to 16 s
  EXPECT_THAT(valueOrFail(tester.listTimers("s1")), ElementsAre(16'000));
  EXPECT_THAT(tester.setProcessingTime(15'999), EmitsNothing());
  EXPECT_THAT(tester.setProcessingTime(16'000),
              EmitsRows({Row{{"sensor", "s1"}, {"status", "missing"}, {"last_seen", int64_t{6'000}}}}));
  EXPECT_THAT(tester.setProcessingTime(60'000), EmitsNothing());  // fired once
}

// The README example (docs/testing.md), kept compiling.
TEST(DocsExample, ReportsASensorThatWentQuiet) {
  ProcessorTester<HeartbeatProcessor> tester(
      {.groupBy = {"sensor"}, .timeMode = TimeMode::kProcessingTime});
  EXPECT_THAT(tester.test("s1", {Row{{"reading", 20.5}}}), EmitsNothing());
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("s1", "last_seen")), 0);
  EXPECT_THAT(valueOrFail(tester.listTimers("s1")), ElementsAre(10'000));
  EXPECT_THAT(tester.setProcessingTime(9'999), EmitsNothing());
  EXPECT_THAT(tester.setProcessingTime(10'000),
              EmitsRows({Row{{"sensor", "s1"}, {"status", "missing"}, {"last_seen", int64_t{0}}}}));
  ASSERT_THAT(tester.restart(), IsOk());                 // committed state survives
  EXPECT_THAT(tester.test("s1", {Row{{"reading", 21.0}}}), EmitsNothing());
}

TEST(SeedHeartbeat, QueryTimerFiresOnceAcrossACrash) {
  auto readings = std::make_shared<MemoryStreamData>();
  TestQuery q = queryOver(readings, tws<HeartbeatProcessor>({"sensor"}, TimeMode::kProcessingTime),
                          Trigger::ProcessingTime(1'000));
  Row missing{{"sensor", "s1"}, {"status", "missing"}, {"last_seen", int64_t{0}}};
  EXPECT_THAT(testStream(q,
                         AddData{readings, {Row{{"sensor", "s1"}, {"reading", 20.5}}}},
                         RunBatches{1},
                         AdvanceClock{10'000},
                         Crash{"commits.before_write"},
                         RunBatches{1},  // the timer fires, then the driver crashes
                         Restart{},
                         RunBatches{1},  // the batch is re-run: the timer fires again, once
                         CheckAnswer{{missing}, RowOrder::kAnyOrder, false},
                         AdvanceClock{30'000},
                         RunBatches{2},
                         CheckAnswer{{missing}, RowOrder::kAnyOrder, false}),
              IsOk());
}

// ---- TTL cache (ValueState with a 60 s TTL) ----

TEST(SeedTtlCache, Tester) {
  ProcessorTester<TtlCacheProcessor> tester(
      {.groupBy = {"key"}, .timeMode = TimeMode::kProcessingTime});
  EXPECT_THAT(tester.test("k", {Row{{"value", "v1"}}}),
              EmitsRows({Row{{"key", "k"}, {"value", "v1"}, {"previous", Value()}}}));
  ASSERT_THAT(tester.setProcessingTime(30'000), IsOk());
  EXPECT_THAT(tester.test("k", {Row{{"value", "v2"}}}),  // the update restamps: expires at 90 s
              EmitsRows({Row{{"key", "k"}, {"value", "v2"}, {"previous", "v1"}}}));
  ASSERT_THAT(tester.setProcessingTime(89'999), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<std::string>("k", "value")), "v2");
  ASSERT_THAT(tester.setProcessingTime(90'000), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<std::string>("k", "value")), std::nullopt);
  EXPECT_THAT(tester.test("k", {Row{{"value", "v3"}}}),
              EmitsRows({Row{{"key", "k"}, {"value", "v3"}, {"previous", Value()}}}));
}

TEST(SeedTtlCache, Query) {
  auto puts = std::make_shared<MemoryStreamData>();
  TestQuery q = queryOver(puts, tws<TtlCacheProcessor>({"key"}, TimeMode::kProcessingTime));
  EXPECT_THAT(testStream(q,
                         AddData{puts, {Row{{"key", "k"}, {"value", "v1"}}}},
                         CheckLastBatch{{Row{{"key", "k"}, {"value", "v1"}, {"previous", Value()}}}},
                         AdvanceClock{59'999},
                         AddData{puts, {Row{{"key", "k"}, {"value", "v2"}}}},
                         CheckLastBatch{{Row{{"key", "k"}, {"value", "v2"}, {"previous", "v1"}}}},
                         AdvanceClock{60'000},
                         AddData{puts, {Row{{"key", "k"}, {"value", "v3"}}}},
                         CheckLastBatch{{Row{{"key", "k"}, {"value", "v3"}, {"previous", Value()}}}}),
              IsOk());
}

}  // namespace
}  // namespace streamsim::harness
