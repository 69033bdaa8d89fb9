// Stream–stream joins (ops/stream_stream_join.h), each test replaying one of Spark 4.1's
// StreamingJoinSuite (sql/core/src/test/scala/org/apache/spark/sql/streaming/StreamingJoinSuite.scala)
// on both state stores: rows, state figures (assertNumStateRows: total from the last batch,
// updated and dropped summed since the last check), restarts, and the analysis errors of
// UnsupportedOperationChecker.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/ops/stream_stream_join.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

constexpr DurationMs kSec = 1000;

class StreamStreamJoinTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  SchemaPtr leftSchema = *parseSchema("key long, leftTime timestamp, leftValue long");
  SchemaPtr rightSchema = *parseSchema("key long, rightTime timestamp, rightValue long");
  std::shared_ptr<MemoryStreamData> leftInput = std::make_shared<MemoryStreamData>(leftSchema);
  std::shared_ptr<MemoryStreamData> rightInput = std::make_shared<MemoryStreamData>(rightSchema);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>();
  std::unique_ptr<StreamingQuery> query;
  size_t seen_rows_ = 0;
  size_t checked_progress_ = 0;

  // Spark's test inputs: (key, seconds) with value key * 2 on the left, key * 3 on the right.
  Row leftRow(int64_t key, int64_t sec) {
    return Row(leftSchema, {Value(key), Value::timestamp(sec * kSec), Value(key * 2)});
  }
  Row rightRow(int64_t key, int64_t sec) {
    return Row(rightSchema, {Value(key), Value::timestamp(sec * kSec), Value(key * 3)});
  }

  StreamStreamJoinSpec spec(JoinType type, std::optional<StreamJoinRange> range = std::nullopt) {
    StreamStreamJoinSpec s;
    s.left = leftSchema;
    s.right = rightSchema;
    s.on = {"key"};
    s.type = type;
    s.range = std::move(range);
    return s;
  }

  Status start(const StreamStreamJoinSpec& s, std::optional<DurationMs> leftDelay, std::optional<DurationMs> rightDelay,
               OutputMode mode = OutputMode::kAppend) {
    DataFrame left = readStream(makeMemorySource(leftInput));
    if (leftDelay) left = left.withWatermark("leftTime", *leftDelay);
    DataFrame right = readStream(makeMemorySource(rightInput));
    if (rightDelay) right = right.withWatermark("rightTime", *rightDelay);
    DataStreamWriter w = left.join(right, s).writeStream();
    w.sink(makeMemorySink(output)).option("checkpointLocation", "/chk");
    w.option("spark.sql.shuffle.partitions", "3");
    w.option("stateStore", std::string(stateStoreKindName(GetParam())));
    w.outputMode(mode);
    query.reset();
    auto q = w.start(env);
    if (!q.ok()) return q.status();
    query = std::move(*q);
    checked_progress_ = 0;
    return Status::OK();
  }

  // AddData + CheckNewAnswer: the rows added since the last check, as (key, left s, right s)
  // with "null" for a null-padded side.
  std::vector<std::string> addAndRun(std::vector<Row> left, std::vector<Row> right) {
    if (!left.empty()) EXPECT_TRUE(leftInput->addData(std::move(left)).ok());
    if (!right.empty()) EXPECT_TRUE(rightInput->addData(std::move(right)).ok());
    clock.advance(1000);
    Status st = query->processAllAvailable();
    EXPECT_TRUE(st.ok()) << st.toString();
    std::vector<std::string> out;
    const auto& view = output->appendView();
    for (size_t i = seen_rows_; i < view.size(); ++i) {
      const Row& r = view[i];
      auto secs = [&](std::string_view c) {
        const Value& v = r.get(c);
        return v.isNull() ? std::string("null") : std::to_string(v.asLong() / kSec);
      };
      out.push_back(fmt::format("{},{},{}", r.get("key").toString(), secs("leftTime"),
                                r.has("rightTime") ? secs("rightTime") : "-"));
    }
    seen_rows_ = view.size();
    std::sort(out.begin(), out.end());
    return out;
  }

  // Spark's assertNumStateRows(total, updated, droppedByWatermark) (StateStoreMetricsTest): the
  // total of the last batch, updated and dropped summed over the batches since the last check.
  void expectStateRows(int64_t total, int64_t updated, int64_t dropped = 0) {
    const auto& progress = query->recentProgress();
    int64_t lastTotal = -1, sumUpdated = 0, sumDropped = 0;
    if (!progress.empty() && !progress.back().stateOperators.empty())
      lastTotal = progress.back().stateOperators[0].numRowsTotal;
    for (size_t i = checked_progress_; i < progress.size(); ++i) {
      if (progress[i].stateOperators.empty()) continue;
      sumUpdated += progress[i].stateOperators[0].numRowsUpdated;
      sumDropped += progress[i].stateOperators[0].numRowsDroppedByWatermark;
    }
    checked_progress_ = progress.size();
    EXPECT_EQ(lastTotal, total) << "numRowsTotal";
    EXPECT_EQ(sumUpdated, updated) << "numRowsUpdated";
    EXPECT_EQ(sumDropped, dropped) << "numRowsDroppedByWatermark";
  }

  using Rows = std::vector<std::string>;
};

// StreamingJoinSuite: "stream stream inner join on non-time column", restarts included.
TEST_P(StreamStreamJoinTest, InnerJoinOnNonTimeColumnKeepsBothSidesAcrossRestarts) {
  ASSERT_TRUE(start(spec(JoinType::kInner), std::nullopt, std::nullopt).ok());
  EXPECT_EQ(addAndRun({leftRow(1, 0)}, {}), Rows{});
  EXPECT_EQ(addAndRun({}, {rightRow(1, 0), rightRow(10, 0)}), Rows{"1,0,0"});
  EXPECT_EQ(addAndRun({leftRow(10, 0)}, {}), Rows{"10,0,0"});
  EXPECT_EQ(addAndRun({}, {rightRow(1, 0)}), Rows{"1,0,0"});
  ASSERT_TRUE(start(spec(JoinType::kInner), std::nullopt, std::nullopt).ok());  // StopStream, StartStream
  EXPECT_EQ(addAndRun({leftRow(1, 0)}, {}), (Rows{"1,0,0", "1,0,0"}));
  ASSERT_TRUE(start(spec(JoinType::kInner), std::nullopt, std::nullopt).ok());
  EXPECT_EQ(addAndRun({leftRow(100, 0)}, {rightRow(100, 0)}), Rows{"100,0,0"});
  const Row r = output->appendView().back();
  EXPECT_EQ(r.schema()->toDDL(), "key long, leftTime timestamp, leftValue long, rightTime timestamp, rightValue long");
  EXPECT_EQ(r.get("leftValue").asLong(), 200);
  EXPECT_EQ(r.get("rightValue").asLong(), 300);
}

// StreamingJoinSuite: "stream stream inner join with time range - with watermark - two side
// conditions": leftTime BETWEEN rightTime - 10s AND rightTime + 5s, watermarks 20s and 30s.
TEST_P(StreamStreamJoinTest, InnerJoinWithTimeRangeEvictsByStateValueWatermark) {
  StreamJoinRange range{"leftTime", "rightTime", -10 * kSec, 5 * kSec};
  ASSERT_TRUE(start(spec(JoinType::kInner, range), 20 * kSec, 30 * kSec).ok());
  EXPECT_EQ(addAndRun({leftRow(1, 20)}, {}), Rows{});
  EXPECT_EQ(addAndRun({}, {rightRow(1, 14), rightRow(1, 15), rightRow(1, 25), rightRow(1, 26), rightRow(1, 30),
                           rightRow(1, 31)}),
            (Rows{"1,20,15", "1,20,25", "1,20,26", "1,20,30"}));
  expectStateRows(7, 7);
  EXPECT_EQ(addAndRun({}, {rightRow(1, 60)}), Rows{});
  EXPECT_EQ(addAndRun({leftRow(1, 49), leftRow(1, 50), leftRow(1, 65), leftRow(1, 66)}, {}),
            (Rows{"1,50,60", "1,65,60"}));
  // Watermark min(66 - 20, 60 - 30) = 30: the right state drops rightTime <= 24 (14 and 15).
  expectStateRows(10, 5);
  EXPECT_EQ(addAndRun({leftRow(1, 30), leftRow(1, 31)}, {}), (Rows{"1,31,26", "1,31,30", "1,31,31"}));
  expectStateRows(11, 1, 1);  // 30 is late
  EXPECT_EQ(addAndRun({}, {rightRow(1, 80)}), Rows{});
  // Watermark 46: left drops leftTime <= 35 (20, 31), right rightTime <= 40 (25, 26, 30, 31).
  expectStateRows(6, 1);
  EXPECT_EQ(addAndRun({}, {rightRow(1, 46), rightRow(1, 50)}), (Rows{"1,49,50", "1,50,50"}));
  expectStateRows(7, 1, 1);
}

// StreamingJoinSuite: "stream stream inner join with time range - with watermark - one side
// condition": leftTime < rightTime - 5s (a strict upper bound), both watermarks 10s.
TEST_P(StreamStreamJoinTest, InnerJoinWithOneSideConditionEvictsOnlyTheRightSide) {
  StreamJoinRange range{"leftTime", "rightTime", std::nullopt, -5 * kSec};
  range.upperStrict = true;
  ASSERT_TRUE(start(spec(JoinType::kInner, range), 10 * kSec, 10 * kSec).ok());
  EXPECT_EQ(addAndRun({leftRow(1, 5)}, {}), Rows{});
  EXPECT_EQ(addAndRun({}, {rightRow(1, 11)}), Rows{"1,5,11"});
  EXPECT_EQ(addAndRun({}, {rightRow(1, 10)}), Rows{});
  expectStateRows(3, 3);
  EXPECT_EQ(addAndRun({leftRow(1, 3), leftRow(1, 30)}, {}), (Rows{"1,3,10", "1,3,11"}));
  expectStateRows(5, 2);
  EXPECT_EQ(addAndRun({}, {rightRow(0, 30)}), Rows{});
  expectStateRows(4, 1);  // watermark 20: right rows with rightTime <= 25 go
  EXPECT_EQ(addAndRun({}, {rightRow(1, 20), rightRow(1, 21), rightRow(1, 28)}),
            (Rows{"1,3,21", "1,3,28", "1,5,21", "1,5,28"}));
  expectStateRows(5, 1, 1);
  EXPECT_EQ(addAndRun({leftRow(1, 20), leftRow(1, 21)}, {}), Rows{"1,21,28"});
  expectStateRows(6, 1, 1);
}

// StreamingOuterJoinSuite: "left outer early state exclusion on left" in spirit (not its exact rows): an unmatched
// left row is emitted with nulls when the state watermark evicts it, a matched one never is.
TEST_P(StreamStreamJoinTest, LeftOuterEmitsUnmatchedLeftRowsWhenEvicted) {
  StreamJoinRange range{"leftTime", "rightTime", -5 * kSec, 5 * kSec};
  ASSERT_TRUE(start(spec(JoinType::kLeftOuter, range), 10 * kSec, 10 * kSec).ok());
  EXPECT_EQ(addAndRun({leftRow(1, 10), leftRow(2, 10)}, {rightRow(1, 12)}), Rows{"1,10,12"});
  // Watermark 50 - 10 = 40: left rows with leftTime <= 40 - 5 - 1 go; key 2 never matched.
  EXPECT_EQ(addAndRun({leftRow(3, 50)}, {rightRow(3, 50)}), (Rows{"2,10,null", "3,50,50"}));
  ASSERT_TRUE(start(spec(JoinType::kLeftOuter, range), 10 * kSec, 10 * kSec).ok());
  EXPECT_EQ(addAndRun({leftRow(4, 60)}, {rightRow(9, 100)}), Rows{});
  // The left side holds the watermark at 60 - 10 = 50, which evicts nothing of 4 (60 > 44).
  // Watermark 90 after both sides move: 4 goes unmatched, 9 stays matched.
  EXPECT_EQ(addAndRun({leftRow(9, 100)}, {rightRow(9, 101)}), (Rows{"4,60,null", "9,100,100", "9,100,101"}));
}

TEST_P(StreamStreamJoinTest, RightOuterAndFullOuterPadTheOtherSide) {
  StreamJoinRange range{"leftTime", "rightTime", -5 * kSec, 5 * kSec};
  ASSERT_TRUE(start(spec(JoinType::kFullOuter, range), 10 * kSec, 10 * kSec).ok());
  EXPECT_EQ(addAndRun({leftRow(1, 10), leftRow(2, 10)}, {rightRow(1, 12), rightRow(3, 11)}), Rows{"1,10,12"});
  EXPECT_EQ(addAndRun({leftRow(5, 60)}, {rightRow(5, 60)}), (Rows{"2,10,null", "3,null,11", "5,60,60"}));
  const Row padded = output->appendView()[1];
  EXPECT_TRUE(padded.schema()->field(padded.schema()->indexOf("leftValue")).nullable);
}

// A join condition `leftKey = rightKey AND ...` (StreamingJoinSuite's expr joins): every column
// of both sides, the keys included, and a right outer join pads the left's.
TEST_P(StreamStreamJoinTest, ConditionJoinKeepsBothSidesKeyColumns) {
  leftSchema = *parseSchema("leftKey long, leftTime timestamp, leftValue long");
  rightSchema = *parseSchema("rightKey long, rightTime timestamp, rightValue long");
  leftInput = std::make_shared<MemoryStreamData>(leftSchema);
  rightInput = std::make_shared<MemoryStreamData>(rightSchema);
  StreamStreamJoinSpec s = spec(JoinType::kRightOuter, StreamJoinRange{"leftTime", "rightTime", -5 * kSec, 5 * kSec});
  s.on = {"leftKey"};
  s.rightOn = {"rightKey"};
  ASSERT_TRUE(start(s, 10 * kSec, 10 * kSec).ok());
  ASSERT_TRUE(leftInput->addData({leftRow(1, 10)}).ok());
  ASSERT_TRUE(rightInput->addData({rightRow(1, 12), rightRow(2, 12)}).ok());
  ASSERT_TRUE(query->processAllAvailable().ok());
  ASSERT_EQ(output->appendView().size(), 1u);
  const Row r = output->appendView()[0];
  EXPECT_EQ(r.schema()->toDDL(),
            "leftKey long, leftTime timestamp, leftValue long, rightKey long, rightTime timestamp, rightValue long");
  EXPECT_EQ(r.get("leftKey").asLong(), 1);
  EXPECT_EQ(r.get("rightKey").asLong(), 1);
  ASSERT_TRUE(leftInput->addData({leftRow(3, 60)}).ok());
  ASSERT_TRUE(rightInput->addData({rightRow(3, 60)}).ok());
  ASSERT_TRUE(query->processAllAvailable().ok());
  // Watermark 50: right rows with rightTime <= 50 - 5 - 1 go; 2 never matched.
  std::vector<std::string> rows;
  for (const Row& row : output->appendView()) rows.push_back(row.toString());
  EXPECT_THAT(rows, ::testing::Contains(
                        "leftKey=null, leftTime=null, leftValue=null, rightKey=2, rightTime=1970-01-01T00:00:12Z, "
                        "rightValue=6"));
  EXPECT_EQ(rows.size(), 3u);
}

TEST_P(StreamStreamJoinTest, SparksAnalysisErrorsFailStart) {
  Status st = start(spec(JoinType::kInner), std::nullopt, std::nullopt, OutputMode::kUpdate);
  EXPECT_THAT(st.message(), ::testing::HasSubstr(
                                "Join between two streaming DataFrames/Datasets is not supported in Update output "
                                "mode, only in Append output mode"));
  st = start(spec(JoinType::kLeftAnti), 10 * kSec, 10 * kSec);
  EXPECT_THAT(st.message(),
              ::testing::HasSubstr("LeftAnti joins with a streaming DataFrame/Dataset on the right are not supported"));
  st = start(spec(JoinType::kLeftOuter), 10 * kSec, 10 * kSec);  // no range, no watermark in the keys
  EXPECT_THAT(st.message(), ::testing::HasSubstr(
                                "Stream-stream LeftOuter join between two streaming DataFrame/Datasets is not "
                                "supported without a watermark in the join keys, or a watermark on the nullable "
                                "side and an appropriate range condition"));
  // A range bounding the left side's state, but the right (nullable) side has no watermark.
  st = start(spec(JoinType::kLeftOuter, StreamJoinRange{"leftTime", "rightTime", -5 * kSec, 5 * kSec}), 10 * kSec,
             std::nullopt);
  EXPECT_THAT(st.message(), ::testing::HasSubstr("Stream-stream LeftOuter join"));
}

// StreamingSymmetricHashJoinHelper.getStateWatermarkPredicates with catalyst's
// StreamingJoinHelper: the offsets each side's state watermark gets.
TEST(StreamJoinEvictionTest, FollowsSparksStateWatermarkArithmetic) {
  StreamStreamJoinSpec s;
  s.left = *parseSchema("key long, lt timestamp");
  s.right = *parseSchema("key long, rt timestamp");
  s.on = {"key"};
  s.range = StreamJoinRange{"lt", "rt", -10 * kSec, 5 * kSec};
  StreamJoinEviction e = streamJoinEviction(s, {"lt", "rt"});
  ASSERT_TRUE(e.leftOffset && e.rightOffset);
  EXPECT_EQ(*e.leftOffset, -10 * kSec - 1);  // lt >= rt - 10s: (wm - 10s) - 1 for <=
  EXPECT_EQ(*e.rightOffset, -5 * kSec - 1);  // lt <= rt + 5s: rt >= lt - 5s
  s.range->lowerStrict = s.range->upperStrict = true;
  e = streamJoinEviction(s, {"lt", "rt"});
  EXPECT_EQ(*e.leftOffset, -10 * kSec);
  EXPECT_EQ(*e.rightOffset, -5 * kSec);
  // Only one side watermarked: no value watermark on either side.
  e = streamJoinEviction(s, {"lt"});
  EXPECT_FALSE(e.leftOffset || e.rightOffset);
  // A watermarked join column evicts by key on both sides.
  s.on = {"key", "lt"};
  s.right = *parseSchema("key long, lt timestamp, rt timestamp");
  e = streamJoinEviction(s, {"lt"});
  ASSERT_TRUE(e.keyColumn);
  EXPECT_EQ(*e.keyColumn, 1);
}

INSTANTIATE_TEST_SUITE_P(Stores, StreamStreamJoinTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
