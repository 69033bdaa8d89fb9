// Windowed aggregation (ops/window_aggregation.h; SEMANTICS.md §4): window assignment, the three
// output modes, late data, eviction and restarts, on both state store kinds.
#include "streamsim/ops/window_aggregation.h"

#include <gtest/gtest.h>

#include "ops_test_driver.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"

namespace streamsim {
namespace {

using harness::FailsWithCondition;
using testing::kMinute;
using testing::kT0;
using testing::OpDriver;
using testing::sorted;

constexpr TimeMs kNoon = kT0 + 12 * 60 * kMinute;  // 2026-01-01T12:00:00Z
TimeMs at(int hour, int minute) { return kT0 + (hour * 60 + minute) * kMinute; }

Row reading(std::string device, TimeMs t, Value v = Value(int64_t{1})) {
  return Row::fromNamed({{"device", Value(std::move(device))}, {"t", Value::timestamp(t)}, {"v", std::move(v)}});
}

Row windowRow(std::string device, TimeMs start, TimeMs end, int64_t count) {
  return Row::fromNamed({{"device", Value(std::move(device))},
                         {"window_start", Value::timestamp(start)},
                         {"window_end", Value::timestamp(end)},
                         {"count", Value(count)}});
}

WindowAggregationSpec countPerDevice(DurationMs window, DurationMs slide = 0) {
  WindowAggregationSpec s;
  s.groupBy = {"device"};
  s.window = TimeWindow{"t", window, slide, 0};
  s.aggregates = {Aggregate::count()};
  return s;
}

std::vector<std::pair<TimeMs, TimeMs>> windows(TimeMs t, DurationMs w, DurationMs slide = 0,
                                               DurationMs start = 0) {
  return assignWindows(t, TimeWindow{"t", w, slide, start});
}

TEST(WindowAssignment, TumblingWindowsAreAlignedToTheEpochPlusStartTime) {
  using W = std::vector<std::pair<TimeMs, TimeMs>>;
  EXPECT_EQ(windows(12 * kMinute, 10 * kMinute), (W{{10 * kMinute, 20 * kMinute}}));
  EXPECT_EQ(windows(10 * kMinute, 10 * kMinute), (W{{10 * kMinute, 20 * kMinute}}));  // start inclusive
  EXPECT_EQ(windows(20 * kMinute - 1, 10 * kMinute), (W{{10 * kMinute, 20 * kMinute}}));  // end exclusive
  EXPECT_EQ(windows(-1, 10 * kMinute), (W{{-10 * kMinute, 0}}));  // before the epoch
  EXPECT_EQ(windows(12 * kMinute, 10 * kMinute, 0, 3 * kMinute), (W{{3 * kMinute, 13 * kMinute}}));
}

TEST(WindowAssignment, SlidingWindowsAreEveryWindowThatContainsTheTime) {
  using W = std::vector<std::pair<TimeMs, TimeMs>>;
  EXPECT_EQ(windows(12 * kMinute, 10 * kMinute, 5 * kMinute),
            (W{{5 * kMinute, 15 * kMinute}, {10 * kMinute, 20 * kMinute}}));
  // Slide not dividing the window: 10m every 3m.
  EXPECT_EQ(windows(10 * kMinute, 10 * kMinute, 3 * kMinute),
            (W{{3 * kMinute, 13 * kMinute}, {6 * kMinute, 16 * kMinute}, {9 * kMinute, 19 * kMinute}}));
  EXPECT_EQ(windows(0, 10 * kMinute, 3 * kMinute).size(), 4u);  // -9, -6, -3, 0
  for (TimeMs t : {TimeMs{-7}, TimeMs{0}, TimeMs{123456789}}) {
    for (auto [s, e] : windows(t, 10 * kMinute, 3 * kMinute)) {
      EXPECT_LE(s, t);
      EXPECT_LT(t, e);
      EXPECT_EQ(e - s, 10 * kMinute);
      EXPECT_EQ(((s % (3 * kMinute)) + 3 * kMinute) % (3 * kMinute), 0);
    }
  }
}

TEST(WindowAssignment, BadSpecsAreRejectedWithAReason) {
  auto spec = countPerDevice(10 * kMinute, 20 * kMinute);
  EXPECT_EQ(validateWindowAggregation(spec).code(), Status::Code::kInvalidArgument);
  spec = countPerDevice(0);
  EXPECT_EQ(validateWindowAggregation(spec).code(), Status::Code::kInvalidArgument);
  spec = countPerDevice(10 * kMinute);
  spec.aggregates.push_back(Aggregate::sum(""));
  EXPECT_NE(validateWindowAggregation(spec).message().find("needs a column"), std::string::npos);
  spec = countPerDevice(10 * kMinute);
  spec.aggregates.push_back(Aggregate::countOf("v", "count"));
  EXPECT_NE(validateWindowAggregation(spec).message().find("twice"), std::string::npos);
  EXPECT_TRUE(validateWindowAggregation(countPerDevice(10 * kMinute, 5 * kMinute)).ok());
}

class WindowAggTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  OpDriver::Config config(OutputMode mode, std::string wmColumn = "t",
                          DurationMs delay = 10 * kMinute) {
    OpDriver::Config c;
    c.kind = GetParam();
    c.mode = mode;
    c.eventTimeColumn = std::move(wmColumn);
    c.delay = delay;
    return c;
  }
  static OpDriver::Factory agg(WindowAggregationSpec spec) {
    return [spec] { return makeWindowAggregation(spec); };
  }
};

TEST_P(WindowAggTest, AppendNeedsAWatermarkOnTheWindowColumn) {
  OpDriver none(agg(countPerDevice(10 * kMinute)), config(OutputMode::kAppend, ""));
  Status st = none.start();
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(st.message().find("withWatermark(\"t\""), std::string::npos) << st.message();
  OpDriver other(agg(countPerDevice(10 * kMinute)), config(OutputMode::kAppend, "arrival"));
  EXPECT_EQ(other.start().code(), Status::Code::kFailedPrecondition);
  OpDriver update(agg(countPerDevice(10 * kMinute)), config(OutputMode::kUpdate, ""));
  EXPECT_TRUE(update.start().ok());
}

// The seed lab example: 10-minute windows, 10-minute watermark. A window is emitted once, after
// the watermark passes its end; a 5-minute-late event is counted, a 40-minute-late one dropped.
TEST_P(WindowAggTest, AppendEmitsEachWindowOnceAfterTheWatermarkPassesItsEnd) {
  OpDriver d(agg(countPerDevice(10 * kMinute)), config(OutputMode::kAppend));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({reading("d1", at(12, 2)), reading("d1", at(12, 7)), reading("d2", at(12, 8))});
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  EXPECT_TRUE(b0->empty());
  EXPECT_EQ(d.lastProgress().numRowsTotal, 2);
  EXPECT_EQ(d.lastProgress().operatorName, "stateStoreSave");
  auto b1 = d.run({reading("d1", at(12, 15)), reading("d1", at(12, 21))});  // watermark -> 12:11
  ASSERT_TRUE(b1.ok());
  EXPECT_TRUE(b1->empty()) << "the watermark was 11:58 in batch 1: nothing is final yet";
  EXPECT_EQ(d.evictionWatermark(), at(12, 11));
  // 12:16 is 5 minutes behind the newest event (12:21): counted. 11:41 is 40 minutes behind:
  // its window [11:40, 11:50) ends before the watermark (11:58): dropped.
  auto b2 = d.run({reading("d1", at(12, 16)), reading("d1", at(11, 41))});
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ(sorted(*b2), sorted({windowRow("d1", kNoon, at(12, 10), 2),
                                 windowRow("d2", kNoon, at(12, 10), 1)}));
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
  EXPECT_EQ(d.lastProgress().numRowsRemoved, 2);
  EXPECT_EQ(d.lastProgress().numRowsTotal, 2);  // [12:10,12:20) and [12:20,12:30) of d1
  // Watermark unchanged (12:11): nothing more, and no no-data batch is wanted.
  EXPECT_FALSE(d.wantsNoDataBatch());
  auto b3 = d.run({reading("d1", at(12, 35))});  // watermark -> 12:25
  ASSERT_TRUE(b3.ok());
  EXPECT_TRUE(b3->empty());
  EXPECT_TRUE(d.wantsNoDataBatch());
  auto b4 = d.run({});
  ASSERT_TRUE(b4.ok());
  EXPECT_EQ(*b4, (std::vector<Row>{windowRow("d1", at(12, 10), at(12, 20), 2)}));
  // Emitted windows are gone: a later event for [12:00, 12:10) is late, never re-emitted.
  auto b5 = d.run({reading("d1", at(12, 5))});
  ASSERT_TRUE(b5.ok());
  EXPECT_TRUE(b5->empty());
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
}

TEST_P(WindowAggTest, UpdateEmitsChangedWindowsAndEvictsPastTheWatermark) {
  OpDriver d(agg(countPerDevice(10 * kMinute)), config(OutputMode::kUpdate));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({reading("d1", at(12, 2)), reading("d2", at(12, 3))});
  ASSERT_TRUE(b0.ok());
  EXPECT_EQ(sorted(*b0), sorted({windowRow("d1", kNoon, at(12, 10), 1),
                                 windowRow("d2", kNoon, at(12, 10), 1)}));
  auto b1 = d.run({reading("d1", at(12, 4)), reading("d1", at(12, 25))});  // wm -> 12:15
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(sorted(*b1), sorted({windowRow("d1", kNoon, at(12, 10), 2),
                                 windowRow("d1", at(12, 20), at(12, 30), 1)}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 3);
  // Batch 2 evicts with 12:15: both [12:00,12:10) windows go, after this batch's updates.
  EXPECT_TRUE(d.wantsNoDataBatch());
  auto b2 = d.run({reading("d1", at(12, 26))});
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ(*b2, (std::vector<Row>{windowRow("d1", at(12, 20), at(12, 30), 2)}));
  EXPECT_EQ(d.lastProgress().numRowsRemoved, 2);
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);
  // Late for [12:00,12:10) (end <= 12:15) is dropped, not re-created.
  auto b3 = d.run({reading("d2", at(12, 9))});
  ASSERT_TRUE(b3.ok());
  EXPECT_TRUE(b3->empty());
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
}

TEST_P(WindowAggTest, UpdateWithoutWatermarkKeepsEverything) {
  OpDriver d(agg(countPerDevice(10 * kMinute)), config(OutputMode::kUpdate, ""));
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({reading("d1", at(1, 0))}).ok());
  ASSERT_TRUE(d.run({reading("d1", at(9, 0))}).ok());
  auto out = d.run({reading("d1", at(1, 1))});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, (std::vector<Row>{windowRow("d1", at(1, 0), at(1, 10), 2)}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 2);
  EXPECT_FALSE(d.wantsNoDataBatch());
}

TEST_P(WindowAggTest, CompleteEmitsAllWindowsEveryBatchAndDropsNothing) {
  OpDriver d(agg(countPerDevice(10 * kMinute)), config(OutputMode::kComplete));
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({reading("d1", at(12, 2)), reading("d1", at(13, 2))}).ok());  // wm -> 12:52
  auto b1 = d.run({reading("d2", at(12, 5))});
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(sorted(*b1), sorted({windowRow("d1", kNoon, at(12, 10), 1),
                                 windowRow("d1", at(13, 0), at(13, 10), 1),
                                 windowRow("d2", kNoon, at(12, 10), 1)}));
  // Far behind the watermark, still aggregated in Complete mode; nothing is ever evicted.
  auto b2 = d.run({reading("d1", at(12, 3))});
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ(sorted(*b2), sorted({windowRow("d1", kNoon, at(12, 10), 2),
                                 windowRow("d1", at(13, 0), at(13, 10), 1),
                                 windowRow("d2", kNoon, at(12, 10), 1)}));
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 0);
  EXPECT_EQ(d.lastProgress().numRowsRemoved, 0);
  EXPECT_FALSE(d.wantsNoDataBatch());
}

TEST_P(WindowAggTest, SlidingWindowsDropOnlyTheLateWindowsOfARow) {
  OpDriver d(agg(countPerDevice(10 * kMinute, 5 * kMinute)), config(OutputMode::kUpdate));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({reading("d1", at(12, 7))});
  ASSERT_TRUE(b0.ok());
  EXPECT_EQ(sorted(*b0), sorted({windowRow("d1", kNoon, at(12, 10), 1),
                                 windowRow("d1", at(12, 5), at(12, 15), 1)}));
  ASSERT_TRUE(d.run({reading("d1", at(12, 20))}).ok());  // wm -> 12:10
  // The batch that evicts with 12:10 still filters late rows with the previous watermark.
  ASSERT_TRUE(d.wantsNoDataBatch());
  ASSERT_TRUE(d.run({}).ok());
  ASSERT_EQ(d.lateWatermark(), at(12, 10));
  // 12:08 falls in [12:00,12:10) — late (end <= 12:10) — and [12:05,12:15) — not late.
  auto b2 = d.run({reading("d1", at(12, 8))});
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ(*b2, (std::vector<Row>{windowRow("d1", at(12, 5), at(12, 15), 2)}));
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
}

TEST_P(WindowAggTest, AggregatesFollowSparksNullAndTypeRules) {
  WindowAggregationSpec spec;
  spec.groupBy = {"device"};
  spec.window = TimeWindow{"t", 10 * kMinute, 0, 0};
  spec.aggregates = {Aggregate::count(),      Aggregate::countOf("v"), Aggregate::sum("v"),
                     Aggregate::min("v"),     Aggregate::max("v"),     Aggregate::avg("v"),
                     Aggregate::sum("x", "total_x")};
  OpDriver d(agg(spec), config(OutputMode::kUpdate));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({reading("d1", at(12, 1), Value(int64_t{4})), reading("d1", at(12, 2), Value()),
                   reading("d1", at(12, 3), Value(int64_t{-2}))});
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  ASSERT_EQ(b0->size(), 1u);
  const Row& r = (*b0)[0];
  EXPECT_EQ(r.get("count"), Value(int64_t{3}));
  EXPECT_EQ(r.get("count_v"), Value(int64_t{2}));
  EXPECT_EQ(r.get("sum_v"), Value(int64_t{2}));
  EXPECT_EQ(r.get("sum_v").type(), Type::kLong);
  EXPECT_EQ(r.get("min_v"), Value(int64_t{-2}));
  EXPECT_EQ(r.get("max_v"), Value(int64_t{4}));
  EXPECT_EQ(r.get("avg_v"), Value(1.0));
  EXPECT_TRUE(r.has("total_x"));
  EXPECT_TRUE(r.get("total_x").isNull());  // no non-null x at all
  EXPECT_EQ(r.get("window_start").type(), Type::kTimestamp);
  // A double turns the sum into a double; the state carries over between batches.
  auto b1 = d.run({reading("d1", at(12, 4), Value(0.5))});
  ASSERT_TRUE(b1.ok()) << b1.status().toString();
  ASSERT_EQ(b1->size(), 1u);
  EXPECT_EQ((*b1)[0].get("sum_v"), Value(2.5));
  EXPECT_EQ((*b1)[0].get("sum_v").type(), Type::kDouble);
  EXPECT_EQ((*b1)[0].get("avg_v"), Value(2.5 / 3));
  EXPECT_EQ((*b1)[0].get("min_v"), Value(int64_t{-2}));
  // A non-numeric value for sum is an error naming the aggregate and the row.
  auto bad = d.run({reading("d1", at(12, 5), Value("abc"))});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("sum(v)"), std::string::npos) << bad.status().message();
}

TEST_P(WindowAggTest, ChangingTheAggregationFailsOnRestart) {
  OpDriver d(agg(countPerDevice(10 * kMinute)), config(OutputMode::kUpdate));
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({reading("d1", at(12, 1))}).ok());
  Status st = d.start(agg(countPerDevice(5 * kMinute)));
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition) << st.toString();
  auto spec = countPerDevice(10 * kMinute);
  spec.groupBy = {};
  st = d.start(agg(spec));
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(st.message().find("[device, window_start, window_end]"), std::string::npos) << st.message();
  EXPECT_TRUE(d.start(agg(countPerDevice(10 * kMinute))).ok());
}

// Spark's StateStoreSaveExec checks its key schema (the grouping columns, then the window
// struct) and, with spark.sql.streaming.stateStore.stateSchemaCheck at its default (true), its
// value schema (the aggregation buffers) when it plans a run's first batch: a grouping column of
// another type is STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE, an aggregated column whose buffer type
// changed STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE (both were accepted). streamsim learns the
// types from the rows: the run's first batch with input fails.
TEST_P(WindowAggTest, RestartWithChangedKeyOrValueTypeFails) {
  auto spec = countPerDevice(10 * kMinute);
  spec.aggregates.push_back(Aggregate::sum("v"));
  OpDriver d(agg(spec), config(OutputMode::kUpdate));
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({reading("d1", at(12, 1), Value())}).ok()) << "a null v tells no sum type";
  ASSERT_TRUE(d.run({reading("d1", at(12, 2), Value(int64_t{3}))}).ok());
  auto op = readStateOperatorSchema(d.env(), "/chk", 0);
  ASSERT_TRUE(op.ok() && op->has_value()) << op.status().toString();
  EXPECT_EQ((*op)->keySchema, "device string, window struct<start: timestamp, end: timestamp>");
  EXPECT_EQ((*op)->valueSchema, "count long NOT NULL, sum long");
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({reading("d1", at(12, 3), Value(int64_t{4}))}).ok());

  const std::string window =
      "StructField(window,StructType(StructField(start,TimestampType,true),StructField(end,TimestampType,true)),true)";
  ASSERT_TRUE(d.start().ok());
  auto device = d.run({Row::fromNamed({{"device", Value(int64_t{1})}, {"t", Value::timestamp(at(12, 4))},
                                       {"v", Value(int64_t{1})}})});
  EXPECT_THAT(device.status(),
              FailsWithCondition("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                                 {{"storedKeySchema", "StructType(StructField(device,StringType,true)," + window + ")"},
                                  {"newKeySchema", "StructType(StructField(device,LongType,true)," + window + ")"}}));
  ASSERT_TRUE(d.start().ok());
  auto value = d.run({reading("d1", at(12, 4), Value(0.5))});
  EXPECT_THAT(value.status(),
              FailsWithCondition("STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                                 {{"storedValueSchema", "StructType(StructField(count,LongType,false),StructField(sum,LongType,true))"},
                                  {"newValueSchema", "StructType(StructField(count,LongType,false),StructField(sum,DoubleType,true))"}}));
  ASSERT_TRUE(d.start().ok());
  auto same = d.run({reading("d1", at(12, 5), Value(int64_t{5}))});
  ASSERT_TRUE(same.ok()) << same.status().toString();
  ASSERT_EQ(same->size(), 1u);
  EXPECT_EQ((*same)[0].get("count"), Value(int64_t{4}));
  EXPECT_EQ((*same)[0].get("sum_v"), Value(int64_t{12}));

  // avg's buffers repeat count's name: the record names the second one after its aggregate, so
  // it reads back on the next run.
  OpDriver avg(agg([] {
                 auto s = countPerDevice(10 * kMinute);
                 s.aggregates.push_back(Aggregate::avg("v"));
                 return s;
               }()),
               config(OutputMode::kUpdate));
  ASSERT_TRUE(avg.start().ok());
  ASSERT_TRUE(avg.run({reading("d1", at(12, 1))}).ok());
  op = readStateOperatorSchema(avg.env(), "/chk", 0);
  ASSERT_TRUE(op.ok() && op->has_value()) << op.status().toString();
  EXPECT_EQ((*op)->valueSchema, "count long NOT NULL, sum double, count_avg_v long");
  ASSERT_TRUE(avg.start().ok());
  EXPECT_TRUE(avg.run({reading("d1", at(12, 2), Value(2.0))}).ok());
}

// A run with a restart (new provider, new operator) before every batch gives exactly the output
// of an uninterrupted run, in every mode.
TEST_P(WindowAggTest, RestartsContinueFromCommittedStateWithIdenticalResults) {
  std::vector<std::vector<Row>> batches = {
      {reading("d1", at(12, 2)), reading("d2", at(12, 4)), reading("d3", at(12, 9))},
      {reading("d1", at(12, 13)), reading("d1", at(12, 27))},
      {},
      {reading("d2", at(12, 3)), reading("d2", at(12, 31)), reading("d1", at(12, 48))},
      {},
      {reading("d3", at(13, 30)), reading("d1", at(12, 50))},
      {},
      {},
  };
  for (OutputMode mode : {OutputMode::kAppend, OutputMode::kUpdate, OutputMode::kComplete}) {
    SCOPED_TRACE(std::string(outputModeName(mode)));
    auto spec = countPerDevice(10 * kMinute, 5 * kMinute);
    spec.aggregates.push_back(Aggregate::avg("v"));
    OpDriver ref(agg(spec), config(mode));
    OpDriver restarted(agg(spec), config(mode));
    ASSERT_TRUE(ref.start().ok());
    for (size_t b = 0; b < batches.size(); ++b) {
      SCOPED_TRACE("batch " + std::to_string(b));
      ASSERT_TRUE(restarted.start().ok());
      auto want = ref.run(batches[b]);
      auto got = restarted.run(batches[b]);
      ASSERT_TRUE(want.ok() && got.ok());
      EXPECT_EQ(*got, *want);  // same rows in the same order
      EXPECT_EQ(restarted.lastProgress().numRowsTotal, ref.lastProgress().numRowsTotal);
      EXPECT_EQ(restarted.lastProgress().numRowsDroppedByWatermark,
                ref.lastProgress().numRowsDroppedByWatermark);
    }
  }
}

// The seed lab example through the query API (readStream -> withWatermark -> window count ->
// memory sink, Append): the batch loop's watermarks and no-data batches drive the operator.
TEST_P(WindowAggTest, SeedLabExampleEndToEndThroughTheQueryApi) {
  sim::VirtualClock clock(kT0);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(3);
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  auto input = std::make_shared<MemoryStreamData>();
  auto output = std::make_shared<MemorySinkData>();
  auto spec = countPerDevice(10 * kMinute);
  DataFrame df = readStream([input] { return std::make_unique<MemorySource>(input); })
                     .withWatermark("t", 10 * kMinute)
                     .transform([spec] { return makeWindowAggregation(spec); });
  auto started = df.writeStream()
                     .sink(makeMemorySink(output))
                     .outputMode(OutputMode::kAppend)
                     .option("checkpointLocation", "/chk")
                     .option("stateStore", std::string(stateStoreKindName(GetParam())))
                     .start(env);
  ASSERT_TRUE(started.ok()) << started.status().toString();
  StreamingQuery& q = **started;
  ASSERT_TRUE(input->addData({reading("d1", at(12, 2)), reading("d1", at(12, 7)),
                              reading("d2", at(12, 8))}).ok());
  ASSERT_TRUE(q.processAllAvailable().ok()) << q.exception().toString();
  ASSERT_TRUE(input->addData({reading("d1", at(12, 15)), reading("d1", at(12, 21))}).ok());
  ASSERT_TRUE(q.processAllAvailable().ok()) << q.exception().toString();
  // The watermark moved to 12:11: the no-data batch that followed emitted [12:00, 12:10).
  EXPECT_EQ(sorted(output->appendView()), sorted({windowRow("d1", kNoon, at(12, 10), 2),
                                                  windowRow("d2", kNoon, at(12, 10), 1)}));
  ASSERT_TRUE(input->addData({reading("d1", at(12, 16)), reading("d1", at(11, 41))}).ok());
  ASSERT_TRUE(q.processAllAvailable().ok()) << q.exception().toString();
  EXPECT_EQ(sorted(output->appendView()), sorted({windowRow("d1", kNoon, at(12, 10), 2),
                                                  windowRow("d2", kNoon, at(12, 10), 1)}));
  int64_t dropped = 0;
  for (const QueryProgress& p : q.recentProgress()) dropped += p.numRowsDroppedByWatermark;
  EXPECT_EQ(dropped, 1);
  ASSERT_TRUE(input->addData({reading("d1", at(12, 35))}).ok());
  ASSERT_TRUE(q.processAllAvailable().ok()) << q.exception().toString();
  EXPECT_EQ(sorted(output->appendView()), sorted({windowRow("d1", kNoon, at(12, 10), 2),
                                                  windowRow("d2", kNoon, at(12, 10), 1),
                                                  windowRow("d1", at(12, 10), at(12, 20), 2)}));
}

INSTANTIATE_TEST_SUITE_P(Stores, WindowAggTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
