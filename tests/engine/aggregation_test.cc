// Streaming aggregation beyond time windows (ops/window_aggregation.h, ops/expr_aggregation.h):
// window-less and global aggregation, session windows with Spark's merge rules, the aggregate
// functions first / last / collect_list / collect_set, ANSI sum overflow, and the planning of
// groupBy(...).agg(...) with expressions -- on both state stores, across restarts.
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include <gtest/gtest.h>

#include "ops_test_driver.h"
#include "streamsim/expr/functions.h"
#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/ops/expr_aggregation.h"
#include "streamsim/ops/window_aggregation.h"

namespace streamsim {
namespace {

using harness::FailsWithCondition;
using testing::kMinute;
using testing::kT0;
using testing::OpDriver;
using testing::sorted;

TimeMs at(int hour, int minute) { return kT0 + (hour * 60 + minute) * kMinute; }

Row reading(std::string device, TimeMs t, Value v = Value(int64_t{1})) {
  return Row::fromNamed({{"device", Value(std::move(device))}, {"t", Value::timestamp(t)}, {"v", std::move(v)}});
}

Value window(TimeMs start, TimeMs end) {
  return Value::structOf(makeSchema({Field{"start", Type::kTimestamp, true, nullptr}, Field{"end", Type::kTimestamp, true, nullptr}}),
                         {Value::timestamp(start), Value::timestamp(end)});
}

Row sessionRow(std::string device, TimeMs start, TimeMs end, int64_t count) {
  return Row::fromNamed({{"device", Value(std::move(device))}, {"session_window", window(start, end)}, {"count", Value(count)}});
}

class AggregationTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  OpDriver::Config config(OutputMode mode, std::string wmColumn = "t", DurationMs delay = 10 * kMinute) {
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
  static WindowAggregationSpec global(std::vector<Aggregate> aggs, std::vector<std::string> groupBy = {}) {
    WindowAggregationSpec s;
    s.kind = WindowKind::kNone;
    s.groupBy = std::move(groupBy);
    s.aggregates = std::move(aggs);
    return s;
  }
  static WindowAggregationSpec sessions(DurationMs gap) {
    WindowAggregationSpec s;
    s.kind = WindowKind::kSession;
    s.groupBy = {"device"};
    s.window.timeColumn = "t";
    s.sessionGap = gap;
    s.windowColumn = "session_window";
    s.windowPosition = 1;
    s.aggregates = {Aggregate::count("count")};
    return s;
  }
};

// Spark's window-less streaming aggregation (StateStoreSaveExec with an empty key, e.g.
// df.groupBy().count()): one group, Update emits it when it changed, Complete every batch.
TEST_P(AggregationTest, GlobalAggregationKeepsOneGroupAcrossBatchesAndRestarts) {
  auto spec = global({Aggregate::count(), Aggregate::sum("v", "total")});
  OpDriver d(agg(spec), config(OutputMode::kUpdate, ""));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({reading("d1", at(1, 0)), reading("d2", at(1, 1), Value(int64_t{5}))});
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  EXPECT_EQ(*b0, (std::vector<Row>{Row::fromNamed({{"count", Value(int64_t{2})}, {"total", Value(int64_t{6})}})}));
  ASSERT_TRUE(d.start().ok());  // a restart reads the committed group back
  auto b1 = d.run({reading("d3", at(9, 0), Value())});
  ASSERT_TRUE(b1.ok()) << b1.status().toString();
  EXPECT_EQ(*b1, (std::vector<Row>{Row::fromNamed({{"count", Value(int64_t{3})}, {"total", Value(int64_t{6})}})}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);
  auto b2 = d.run({});
  ASSERT_TRUE(b2.ok());
  EXPECT_TRUE(b2->empty()) << "Update: an unchanged group is not emitted";
}

// UnsupportedOperationChecker: Append needs a watermarked grouping expression; a window-less
// aggregation has none unless it groups by the watermarked column itself.
TEST_P(AggregationTest, AppendNeedsTheWatermarkedColumnAmongTheGroupingColumns) {
  OpDriver none(agg(global({Aggregate::count()}, {"device"})), config(OutputMode::kAppend));
  EXPECT_THAT(none.start(), FailsWithCondition("STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
                                               {{"outputMode", "append"}, {"operation", "streaming aggregations without watermark"}}));
  // groupBy(t) with the watermark on t: a key is final once t <= the watermark.
  OpDriver d(agg(global({Aggregate::count()}, {"t"})), config(OutputMode::kAppend));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({reading("d1", at(1, 0)), reading("d2", at(1, 0)), reading("d1", at(1, 30))});
  ASSERT_TRUE(b0.ok());
  EXPECT_TRUE(b0->empty());
  ASSERT_TRUE(d.wantsNoDataBatch());  // the watermark moved to 01:20
  auto b1 = d.run({});
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(*b1, (std::vector<Row>{Row::fromNamed({{"t", Value::timestamp(at(1, 0))}, {"count", Value(int64_t{2})}})}));
  auto late = d.run({reading("d3", at(1, 0))});
  ASSERT_TRUE(late.ok());
  EXPECT_TRUE(late->empty());
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
}

// First.scala / Last.scala (buffers value + valueSet; nulls taken unless ignoreNulls),
// collect.scala (non-null values; an array, never null), Sum.scala (ANSI overflow).
TEST_P(AggregationTest, FirstLastAndCollectFollowSparksNullRules) {
  Aggregate firstAll{AggregateFunction::kFirst, "v", "f", false};
  Aggregate firstSet{AggregateFunction::kFirst, "v", "f_nn", true};
  Aggregate lastAll{AggregateFunction::kLast, "v", "l", false};
  Aggregate lastSet{AggregateFunction::kLast, "v", "l_nn", true};
  Aggregate list{AggregateFunction::kCollectList, "v", "xs", false};
  Aggregate set{AggregateFunction::kCollectSet, "v", "s", false};
  OpDriver d(agg(global({firstAll, firstSet, lastAll, lastSet, list, set})), config(OutputMode::kUpdate, ""));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({reading("a", at(1, 0), Value()), reading("a", at(1, 0), Value(int64_t{2})),
                   reading("a", at(1, 0), Value(int64_t{2})), reading("a", at(1, 0), Value(int64_t{1}))});
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  ASSERT_EQ(b0->size(), 1u);
  const Row& r = (*b0)[0];
  EXPECT_TRUE(r.get("f").isNull()) << "first without ignoreNulls takes the first row's null";
  EXPECT_EQ(r.get("f_nn"), Value(int64_t{2}));
  EXPECT_EQ(r.get("l"), Value(int64_t{1}));
  EXPECT_EQ(r.get("xs"), Value::arrayOf({Value(int64_t{2}), Value(int64_t{2}), Value(int64_t{1})}));
  EXPECT_EQ(r.get("s"), Value::arrayOf({Value(int64_t{2}), Value(int64_t{1})}));
  ASSERT_TRUE(d.start().ok());
  auto b1 = d.run({reading("a", at(1, 0), Value(int64_t{7})), reading("a", at(1, 0), Value())});
  ASSERT_TRUE(b1.ok()) << b1.status().toString();
  const Row& r1 = (*b1)[0];
  EXPECT_TRUE(r1.get("f").isNull()) << "first stays the first, across batches";
  EXPECT_TRUE(r1.get("l").isNull()) << "last without ignoreNulls takes the last row's null";
  EXPECT_EQ(r1.get("l_nn"), Value(int64_t{7}));
  EXPECT_EQ(r1.get("s"), Value::arrayOf({Value(int64_t{2}), Value(int64_t{1}), Value(int64_t{7})}));
}

TEST_P(AggregationTest, AnsiSumOverflowFailsTheBatchAndLegacyWraps) {
  auto spec = global({Aggregate::sum("v", "total")});
  OpDriver ansi(agg(spec), config(OutputMode::kUpdate, ""));
  ASSERT_TRUE(ansi.start().ok());
  int64_t big = std::numeric_limits<int64_t>::max();
  auto bad = ansi.run({reading("a", at(1, 0), Value(big)), reading("a", at(1, 0), Value(int64_t{1}))});
  EXPECT_THAT(bad.status(), FailsWithCondition("ARITHMETIC_OVERFLOW", {{"message", "long overflow"}}));
  auto c = config(OutputMode::kUpdate, "");
  c.ansi = false;
  OpDriver legacy(agg(spec), c);
  ASSERT_TRUE(legacy.start().ok());
  auto wrapped = legacy.run({reading("a", at(1, 0), Value(big)), reading("a", at(1, 0), Value(int64_t{1}))});
  ASSERT_TRUE(wrapped.ok());
  EXPECT_EQ((*wrapped)[0].get("total"), Value(std::numeric_limits<int64_t>::min()));
}

// HyperLogLogPlusPlus.scala in streaming aggregation: the sketch's words are the state
// (StateStoreSaveExec's MS[i] longs), so batches and restarts add to one sketch: the estimate
// after three batches with restarts between them is the one-batch estimate of the same values,
// and a distinct value seen again does not count twice. Nulls are not counted.
TEST_P(AggregationTest, ApproxCountDistinctKeepsItsSketchAcrossBatchesAndRestarts) {
  Aggregate approx{AggregateFunction::kApproxCountDistinct, "v", "n", false};
  Aggregate coarse{AggregateFunction::kApproxCountDistinct, "v", "n_coarse", false, 0.2};
  auto spec = global({approx, coarse}, {"device"});
  auto rowsFor = [](int from, int to) {
    std::vector<Row> rows;
    for (int i = from; i < to; ++i) rows.push_back(reading("d", at(1, 0), Value(int64_t{i})));
    rows.push_back(reading("d", at(1, 0), Value()));
    return rows;
  };
  OpDriver once(agg(spec), config(OutputMode::kUpdate, ""));
  ASSERT_TRUE(once.start().ok());
  auto all = once.run(rowsFor(0, 3000));
  ASSERT_TRUE(all.ok()) << all.status().toString();
  ASSERT_EQ(all->size(), 1u);
  OpDriver split(agg(spec), config(OutputMode::kUpdate, ""));
  std::optional<Row> last;
  for (auto [from, to] : {std::pair{0, 1200}, std::pair{800, 2500}, std::pair{2000, 3000}}) {
    ASSERT_TRUE(split.start().ok());
    auto out = split.run(rowsFor(from, to));
    ASSERT_TRUE(out.ok()) << out.status().toString();
    ASSERT_EQ(out->size(), 1u);
    last = (*out)[0];
  }
  EXPECT_EQ(last->get("n"), (*all)[0].get("n"));
  EXPECT_EQ(last->get("n_coarse"), (*all)[0].get("n_coarse"));
  // Within 3 standard errors of 3000 (1.04 / sqrt(512) and 1.04 / sqrt(64)).
  EXPECT_NEAR(static_cast<double>(last->get("n").asLong()), 3000.0, 3000 * 3 * 1.04 / std::sqrt(512.0));
  EXPECT_NEAR(static_cast<double>(last->get("n_coarse").asLong()), 3000.0, 3000 * 3 * 1.04 / 8.0);
  OpDriver small(agg(spec), config(OutputMode::kUpdate, ""));
  ASSERT_TRUE(small.start().ok());
  auto few = small.run({reading("d", at(1, 0), Value(int64_t{1})), reading("d", at(1, 0), Value(int64_t{1})),
                        reading("d", at(1, 0), Value(int64_t{2})), reading("d", at(1, 0), Value())});
  ASSERT_TRUE(few.ok());
  EXPECT_EQ((*few)[0].get("n"), Value(int64_t{2}));
  auto bad = spec;
  bad.aggregates[0].relativeSD = 0.4;  // HLL++ needs at least 4 bits
  EXPECT_EQ(validateWindowAggregation(bad).code(), Status::Code::kInvalidArgument);
}

// SessionWindow.scala: each row opens [t, t + gap); MergingSessionsIterator merges a session that
// starts at or before the current one's end. Sessions merge across batches with the stored ones
// (SessionWindowStateStoreRestoreExec), and close in Append once the watermark passes their end.
TEST_P(AggregationTest, SessionWindowsMergeWithinAndAcrossBatchesAndCloseAtTheWatermark) {
  OpDriver d(agg(sessions(5 * kMinute)), config(OutputMode::kAppend));
  ASSERT_TRUE(d.start().ok());
  // d1: 12:00 and 12:05 touch ([12:00,12:05) and [12:05,12:10)): one session; 12:20 its own.
  auto b0 = d.run({reading("d1", at(12, 0)), reading("d1", at(12, 20)), reading("d1", at(12, 5)), reading("d2", at(12, 1))});
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  EXPECT_TRUE(b0->empty());
  EXPECT_EQ(d.lastProgress().numRowsTotal, 3);
  ASSERT_TRUE(d.start().ok());  // restart between batches
  // 12:13 alone would be its own session [12:13,12:18); 12:17 stretches it to [12:22), which
  // overlaps the stored [12:20,12:25): all merge into [12:13,12:25) (count 3). Batch 1 evicts
  // with batch 0's watermark (12:20 - 10m = 12:10): d1's [12:00,12:10) and d2's [12:01,12:06)
  // close and are emitted once.
  auto b1 = d.run({reading("d1", at(12, 13)), reading("d1", at(12, 17))});
  ASSERT_TRUE(b1.ok()) << b1.status().toString();
  EXPECT_EQ(sorted(*b1), sorted({sessionRow("d1", at(12, 0), at(12, 10), 2), sessionRow("d2", at(12, 1), at(12, 6), 1)}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);
  EXPECT_FALSE(d.wantsNoDataBatch()) << "the watermark did not move (12:17 < 12:20)";
  ASSERT_TRUE(d.start().ok());
  auto b3 = d.run({reading("d1", at(12, 50))});  // watermark -> 12:40
  ASSERT_TRUE(b3.ok());
  EXPECT_TRUE(b3->empty());
  auto b4 = d.run({reading("d1", at(12, 2))});  // [12:02,12:07) ends before 12:40: late
  ASSERT_TRUE(b4.ok());
  EXPECT_EQ(*b4, (std::vector<Row>{sessionRow("d1", at(12, 13), at(12, 25), 3)}));
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
}

TEST_P(AggregationTest, SessionWindowsRefuseUpdateModeAsSparkDoes) {
  OpDriver d(agg(sessions(5 * kMinute)), config(OutputMode::kUpdate));
  EXPECT_THAT(d.start(), FailsWithCondition("STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
                                            {{"outputMode", "update"}, {"operation", "session window streaming aggregations"}}));
  auto spec = sessions(0);
  OpDriver zero(agg(spec), config(OutputMode::kComplete));
  EXPECT_EQ(zero.start().code(), Status::Code::kInvalidArgument);
}

// A restart before every batch gives the uninterrupted run's output (sessions, complete and
// append; window-less).
TEST_P(AggregationTest, RestartsBeforeEveryBatchChangeNothing) {
  std::vector<std::vector<Row>> batches = {
      {reading("d1", at(12, 2)), reading("d2", at(12, 4)), reading("d1", at(12, 9))},
      {reading("d1", at(12, 13)), reading("d1", at(12, 27))},
      {},
      {reading("d2", at(12, 3)), reading("d2", at(12, 31)), reading("d1", at(12, 48))},
      {},
      {reading("d3", at(13, 30)), reading("d1", at(12, 50))},
      {},
  };
  std::vector<std::pair<WindowAggregationSpec, OutputMode>> cases = {
      {sessions(5 * kMinute), OutputMode::kAppend},
      {sessions(5 * kMinute), OutputMode::kComplete},
      {global({Aggregate::count(), Aggregate{AggregateFunction::kCollectList, "t", "ts", false}}, {"device"}), OutputMode::kUpdate},
  };
  for (auto& [spec, mode] : cases) {
    SCOPED_TRACE(std::string(outputModeName(mode)));
    spec.aggregates.push_back(Aggregate{AggregateFunction::kLast, "v", "last_v", false});
    OpDriver ref(agg(spec), config(mode));
    OpDriver restarted(agg(spec), config(mode));
    ASSERT_TRUE(ref.start().ok());
    for (size_t b = 0; b < batches.size(); ++b) {
      SCOPED_TRACE("batch " + std::to_string(b));
      ASSERT_TRUE(restarted.start().ok());
      auto want = ref.run(batches[b]);
      auto got = restarted.run(batches[b]);
      ASSERT_TRUE(want.ok() && got.ok()) << want.status().toString() << got.status().toString();
      EXPECT_EQ(*got, *want);
      EXPECT_EQ(restarted.lastProgress().numRowsTotal, ref.lastProgress().numRowsTotal);
    }
  }
}

// One batch of `rows` (default: three readings) through a query of `build` (over the memory
// source) in Update mode on the test's store: the sink's update view by `key`.
std::vector<Row> runQueryApi(StateStoreKind store, const std::function<DataFrame(DataFrame)>& build,
                             std::vector<Row> rows = {}, std::vector<std::string> key = {"device"}) {
  sim::VirtualClock clock(kT0);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(3);
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  auto input = std::make_shared<MemoryStreamData>();
  auto output = std::make_shared<MemorySinkData>();
  DataFrame df = build(readStream([input] { return std::make_unique<MemorySource>(input); }));
  auto started = df.writeStream()
                     .sink(makeMemorySink(output))
                     .outputMode(OutputMode::kUpdate)
                     .option("checkpointLocation", "/chk")
                     .option("stateStore", std::string(stateStoreKindName(store)))
                     .start(env);
  EXPECT_TRUE(started.ok()) << started.status().toString();
  if (!started.ok()) return {};
  if (rows.empty())
    rows = {reading("d1", at(1, 0)), reading("d1", at(1, 1), Value(int64_t{4})), reading("d2", at(1, 2))};
  EXPECT_TRUE(input->addData(rows).ok());
  EXPECT_TRUE((*started)->processAllAvailable().ok()) << (*started)->exception().toString();
  return sorted(output->updateView(key));
}

// The C++ API: groupBy(cols).agg(...) without a window is the window-less aggregation (it was
// refused as "streamsim aggregates only by event-time window").
TEST_P(AggregationTest, GroupByAggWithoutAWindowThroughTheQueryApi) {
  auto rows = runQueryApi(GetParam(), [](DataFrame df) {
    return df.groupBy({"device"}).agg({Aggregate::count(), Aggregate::sum("v", "total")});
  });
  EXPECT_EQ(rows, sorted({Row::fromNamed({{"device", Value("d1")}, {"count", Value(int64_t{2})}, {"total", Value(int64_t{5})}}),
                          Row::fromNamed({{"device", Value("d2")}, {"count", Value(int64_t{1})}, {"total", Value(int64_t{1})}})}));
}

// Grouping by a double key puts every NaN (any payload) in one group and -0.0 with 0.0, and max
// takes NaN as the largest double: Spark normalises floating keys (catalyst/optimizer/
// NormalizeFloatingNumbers.scala) and orders NaN last (catalyst/util/SQLOrderingUtil.scala).
TEST_P(AggregationTest, DoubleKeysGroupEveryNaNTogetherAndMaxTakesNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto row = [](double k, double v) { return Row::fromNamed({{"k", Value(k)}, {"v", Value(v)}}); };
  auto rows = runQueryApi(GetParam(), [](DataFrame df) {
    return df.groupBy({"k"}).agg({Aggregate::count(), Aggregate::max("v", "top")});
  }, {row(nan, 1.0), row(-nan, 2.0), row(-0.0, nan), row(0.0, 3.0)}, {"k"});
  ASSERT_EQ(rows.size(), 2u) << ::testing::PrintToString(rows);
  EXPECT_EQ(rows[0].get("k"), Value(0.0));
  EXPECT_EQ(rows[0].get("count"), Value(int64_t{2}));
  EXPECT_TRUE(std::isnan(rows[0].get("top").asDouble()));
  EXPECT_TRUE(std::isnan(rows[1].get("k").asDouble()));
  EXPECT_EQ(rows[1].get("count"), Value(int64_t{2}));
  EXPECT_EQ(rows[1].get("top"), Value(2.0));
}

// Spark's groupBy(Column*).agg(Column*) with aggregates inside expressions (Aggregate's
// resultExpressions): sum(v) + 1 and count(*) * 2 AS c read the aggregates planned once each,
// the grouping column may appear outside them; approx_count_distinct through the Column API.
TEST_P(AggregationTest, AggregateExpressionsThroughTheColumnApi) {
  using namespace functions;  // NOLINT
  auto rows = runQueryApi(GetParam(), [](DataFrame df) {
    return df.groupBy(std::vector<expr::Column>{col("device")})
        .agg({sum(col("v")) + lit(Value(int32_t{1})), (count(col("*")) * lit(Value(int32_t{2}))).alias("c"),
              sum(col("v")), approx_count_distinct(col("v")).alias("kinds"),
              concat({col("device"), lit(Value(":")), max(col("v")).cast("string")}).alias("label")});
  });
  ASSERT_EQ(rows.size(), 2u);
  const Row& d1 = rows[0];
  EXPECT_EQ(d1.schema()->toDDL(), "device string, (sum(v) + 1) long, c long, sum(v) long, kinds long, label string");
  EXPECT_EQ(d1.get("(sum(v) + 1)"), Value(int64_t{6}));
  EXPECT_EQ(d1.get("c"), Value(int64_t{4}));
  EXPECT_EQ(d1.get("sum(v)"), Value(int64_t{5}));
  EXPECT_EQ(d1.get("kinds"), Value(int64_t{2}));
  EXPECT_EQ(d1.get("label"), Value("d1:4"));
  EXPECT_EQ(rows[1].get("c"), Value(int64_t{2}));
}

INSTANTIATE_TEST_SUITE_P(Stores, AggregationTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

// ops/expr_aggregation.h: the grouping and aggregate expressions planned onto the operator.
Result<AggregationPlan> plan(std::vector<std::string> keys, std::vector<std::string> aggs, int* failed = nullptr) {
  std::vector<expr::Column> k, a;
  for (const auto& s : keys) k.push_back(functions::expr(s));
  for (const auto& s : aggs) a.push_back(functions::expr(s));
  return planAggregation(k, a, failed);
}

TEST(ExprAggregationPlan, WindowAndSessionWindowExpressionsBecomeTheOperatorsWindow) {
  auto p = plan({"window(ts, '10 minutes', '5 minutes')", "user"}, {"count(*)", "sum(amount) AS total", "mean(amount)"});
  ASSERT_TRUE(p.ok()) << p.status().toString();
  EXPECT_EQ(p->spec.kind, WindowKind::kTime);
  EXPECT_EQ(p->spec.window.timeColumn, "ts");
  EXPECT_EQ(p->spec.window.windowDuration, 10 * kMinute);
  EXPECT_EQ(p->spec.window.slideDuration, 5 * kMinute);
  EXPECT_EQ(p->spec.windowColumn, "window");
  EXPECT_EQ(p->spec.windowPosition, 0u);
  EXPECT_EQ(p->spec.groupBy, (std::vector<std::string>{"user"}));
  ASSERT_EQ(p->spec.aggregates.size(), 3u);
  EXPECT_EQ(p->spec.aggregates[0].resolvedName(), "count(1)");  // Spark's name for count(*)
  EXPECT_EQ(p->spec.aggregates[1].resolvedName(), "total");
  EXPECT_EQ(p->spec.aggregates[2].resolvedName(), "avg(amount)");  // mean is avg
  EXPECT_TRUE(p->projectNames.empty());

  auto s = plan({"user", "session_window(ts, '5 minutes') AS s"}, {"count(user)"});
  ASSERT_TRUE(s.ok()) << s.status().toString();
  EXPECT_EQ(s->spec.kind, WindowKind::kSession);
  EXPECT_EQ(s->spec.sessionGap, 5 * kMinute);
  EXPECT_EQ(s->spec.windowColumn, "s");
  EXPECT_EQ(s->spec.windowPosition, 1u);
  EXPECT_EQ(s->spec.aggregates[0].resolvedName(), "count(user)");
}

// HyperLogLogPlusPlus.scala: approx_count_distinct(x[, relativeSD]) keeps its name without the
// rsd, which must be a double literal (validateDoubleLiteral: _LEGACY_ERROR_TEMP_1104).
TEST(ExprAggregationPlan, ApproxCountDistinctTakesADoubleLiteralRsd) {
  auto p = plan({"user"}, {"approx_count_distinct(item)", "approx_count_distinct(item, 0.01) AS fine"});
  ASSERT_TRUE(p.ok()) << p.status().toString();
  EXPECT_EQ(p->spec.aggregates[0].function, AggregateFunction::kApproxCountDistinct);
  EXPECT_EQ(p->spec.aggregates[0].resolvedName(), "approx_count_distinct(item)");
  EXPECT_DOUBLE_EQ(p->spec.aggregates[0].relativeSD, 0.05);
  EXPECT_DOUBLE_EQ(p->spec.aggregates[1].relativeSD, 0.01);
  auto named = plan({"user"}, {"approx_count_distinct(item, 0.1)"});
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->spec.aggregates[0].resolvedName(), "approx_count_distinct(item)");
  EXPECT_THAT(plan({"user"}, {"approx_count_distinct(item, 'x')"}).status(), FailsWithCondition("_LEGACY_ERROR_TEMP_1104"));
  EXPECT_EQ(plan({"user"}, {"approx_count_distinct(item, 0.5)"}).status().code(), Status::Code::kInvalidArgument);
}

TEST(ExprAggregationPlan, ExpressionArgumentsAndKeysAreDerivedColumnsBeforeTheAggregation) {
  auto p = plan({"upper(user)"}, {"sum(qty * price)", "first(x, true)"});
  ASSERT_TRUE(p.ok()) << p.status().toString();
  EXPECT_EQ(p->spec.kind, WindowKind::kNone);
  EXPECT_EQ(p->projectNames, (std::vector<std::string>{"upper(user)", "(qty * price)"}));
  EXPECT_EQ(p->spec.groupBy, (std::vector<std::string>{"upper(user)"}));
  EXPECT_EQ(p->spec.aggregates[0].column, "(qty * price)");
  EXPECT_EQ(p->spec.aggregates[0].resolvedName(), "sum((qty * price))");
  EXPECT_TRUE(p->spec.aggregates[1].ignoreNulls);
}

// CheckAnalysis: a column outside the aggregates must be grouped (MISSING_AGGREGATION); an
// aggregate in an aggregate is NESTED_AGGREGATE_FUNCTION; equal aggregates are planned once.
TEST(ExprAggregationPlan, AggregatesInsideExpressionsFollowSparksAggregateRules) {
  auto p = plan({"user"}, {"sum(x) + 1", "count(*) * 2 AS c", "sum(x)", "concat(user, max(x))"});
  ASSERT_TRUE(p.ok()) << p.status().toString();
  ASSERT_EQ(p->spec.aggregates.size(), 3u) << "sum(x) is planned once";
  EXPECT_EQ(p->spec.aggregates[0].resolvedName(), "sum(x)");
  EXPECT_EQ(p->spec.aggregates[1].resolvedName(), "count(1)");
  EXPECT_EQ(p->spec.aggregates[2].resolvedName(), "max(x)");
  ASSERT_EQ(p->resultColumns.size(), 5u);
  EXPECT_NE(p->resultColumns[1].toString().find(" AS (sum(x) + 1)"), std::string::npos) << p->resultColumns[1].toString();
  auto unnamed = plan({"user"}, {"count(*) * 2"});
  ASSERT_TRUE(unnamed.ok());
  EXPECT_NE(unnamed->resultColumns[1].toString().find(" AS (count(1) * 2)"), std::string::npos) << "Spark's name";
  int failed = -1;
  EXPECT_THAT(plan({"user"}, {"count(*)", "sum(x) + y"}, &failed).status(),
              FailsWithCondition("MISSING_AGGREGATION", {{"expression", "\"y\""}, {"expressionAnyValue", "\"any_value(y)\""}}));
  EXPECT_EQ(failed, 2);
  EXPECT_THAT(plan({"user"}, {"sum(count(x))"}).status(), FailsWithCondition("NESTED_AGGREGATE_FUNCTION"));
  auto plain = plan({"user"}, {"count(*)", "max(x)"});
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->resultColumns.empty()) << "aggregate calls alone need no projection";
}

// UnsupportedOperationChecker.checkForStreaming refuses distinct aggregates in streaming.
TEST(ExprAggregationPlan, DistinctAggregatesAreRefusedAsSparkRefusesThem) {
  int failed = -1;
  auto p = plan({"user"}, {"count(*)", "count(DISTINCT item)"}, &failed);
  EXPECT_THAT(p.status(), FailsWithCondition("_LEGACY_ERROR_TEMP_3102",
                                             {{"msg", "Distinct aggregations are not supported on streaming DataFrames/Datasets. "
                                                      "Consider using approx_count_distinct() instead."}}));
  EXPECT_EQ(failed, 2);
  auto two = plan({"window(ts, '1 minute')", "session_window(ts, '1 minute')"}, {"count(*)"}, &failed);
  EXPECT_THAT(two.status(), FailsWithCondition("_LEGACY_ERROR_TEMP_3102"));
  EXPECT_EQ(failed, 1);
  auto notAgg = plan({"user"}, {"upper(user)"}, &failed);
  EXPECT_EQ(notAgg.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(notAgg.status().message().find("not an aggregate expression"), std::string::npos);
  auto badDuration = plan({"window(ts, ts)"}, {"count(*)"}, &failed);
  EXPECT_NE(badDuration.status().message().find("interval string"), std::string::npos);
}

}  // namespace
}  // namespace streamsim
