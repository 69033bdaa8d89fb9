// A query plan whose inputs carry their own operators (query.h DataFrame::join / unionAll,
// streaming_query.cc's plan nodes): each side of a stream-stream join and each input of a union
// runs its own per-row chain and withWatermark before the join or union, as Spark's plan has the
// join's / union's children (StreamingSymmetricHashJoinExec's left and right, UnionExec's
// children). Watermarks of several withWatermark operators combine as Spark's WatermarkTracker
// (sql/core/.../streaming/runtime/WatermarkTracker.scala) and the policy a checkpoint recorded wins
// (OffsetSeqMetadata.setSessionConf, sql/core/.../streaming/checkpointing/OffsetSeq.scala).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/expr/functions.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/ops/expr_ops.h"
#include "streamsim/ops/stream_stream_join.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

class PlanInputsTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  // Kafka-like sides: the event as JSON text, parsed by each side's own chain.
  SchemaPtr raw = *parseSchema("value string");
  std::shared_ptr<MemoryStreamData> clicks = std::make_shared<MemoryStreamData>(raw);
  std::shared_ptr<MemoryStreamData> views = std::make_shared<MemoryStreamData>(raw);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>();

  Row json(const std::string& text) { return Row(raw, {Value(text)}); }

  // clicks: from_json -> e.* -> where -> withWatermark; views: from_json with another schema,
  // renamed columns -> withWatermark. Spark's StreamingJoinSuite shapes, one parse per side.
  DataFrame clickSide() const {
    return readStream(makeMemorySource(clicks))
        .selectExpr({"from_json(value, 'ad long, clickTime timestamp, user string') AS e"})
        .selectExpr({"e.*"})
        .where("user <> 'bot'")
        .withWatermark("clickTime", 10'000);
  }
  DataFrame viewSide() const {
    return readStream(makeMemorySource(views))
        .selectExpr({"from_json(value, 'id long, ts timestamp') AS e"})
        .selectExpr({"e.id AS ad", "e.ts AS viewTime"})
        .withWatermark("viewTime", 10'000);
  }
  StreamStreamJoinSpec joinSpec(JoinType type) const {
    StreamStreamJoinSpec s;
    s.left = *parseSchema("ad long, clickTime timestamp, user string");
    s.right = *parseSchema("ad long, viewTime timestamp");
    s.on = {"ad"};
    s.type = type;
    // viewTime <= clickTime <= viewTime + 1 minute
    s.range = StreamJoinRange{"clickTime", "viewTime", 0, 60'000, false, false};
    return s;
  }
  Result<std::unique_ptr<StreamingQuery>> start(const DataFrame& df, const std::string& chk,
                                                std::vector<std::pair<std::string, std::string>> opts = {}) {
    DataStreamWriter w = df.writeStream();
    w.sink(makeMemorySink(output)).option("checkpointLocation", chk);
    w.option("spark.sql.shuffle.partitions", "2");
    w.option("stateStore", std::string(stateStoreKindName(GetParam())));
    for (const auto& [k, v] : opts) w.option(k, v);
    return w.start(env);
  }
  std::vector<std::string> rows() const {
    std::vector<std::string> out;
    for (const Row& r : output->appendView()) out.push_back(r.toString());
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST_P(PlanInputsTest, JoinOfSidesEachParsedFilteredAndWatermarkedByItsOwnChain) {
  DataFrame df = clickSide().join(viewSide(), joinSpec(JoinType::kInner));
  auto q = start(df, "/chk");
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE(views->addData({json(R"({"id":1,"ts":"2023-11-14T22:13:20Z"})"),
                              json(R"({"id":2,"ts":"2023-11-14T22:13:20Z"})")}).ok());
  ASSERT_TRUE(clicks->addData({json(R"({"ad":1,"clickTime":"2023-11-14T22:13:50Z","user":"u1"})"),
                               json(R"({"ad":2,"clickTime":"2023-11-14T22:13:30Z","user":"bot"})"),
                               json(R"({"ad":2,"clickTime":"2023-11-14T22:16:00Z","user":"u2"})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok()) << (*q)->exception().toString();
  // The join's output: the left side's columns, then the right's (a using join: ad once). The
  // bot's click was dropped by the left side's where only; u2's click is out of the range.
  const std::vector<Row> got = output->appendView();
  ASSERT_EQ(got.size(), 1u);
  const Row& r = got[0];
  EXPECT_EQ(r.schema()->toDDL(), "ad long, clickTime timestamp, user string, viewTime timestamp");
  EXPECT_EQ(r[2].asString(), "u1");
  // Each side's watermark is its own withWatermark's: min(22:16:00 - 10s, 22:13:20 - 10s).
  EXPECT_EQ((*q)->currentWatermark(), 1'700'000'000'000 - 10'000);
  // The join is the plan's only stateful operator: state/0 (the sides' expressions hold none).
  EXPECT_TRUE(fs.exists("/chk/state/0/0"));
  EXPECT_FALSE(fs.exists("/chk/state/1"));
}

TEST_P(PlanInputsTest, TransformedJoinResumesFromItsCheckpoint) {
  DataFrame df = clickSide().join(viewSide(), joinSpec(JoinType::kInner));
  {
    auto q = start(df, "/chk");
    ASSERT_TRUE(q.ok()) << q.status().toString();
    ASSERT_TRUE(views->addData({json(R"({"id":7,"ts":"2023-11-14T22:13:20Z"})")}).ok());
    ASSERT_TRUE((*q)->processAllAvailable().ok());
    EXPECT_TRUE(output->appendView().empty());
  }
  auto q = start(df, "/chk");  // a restart: the right side's row is in the join's state
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE(clicks->addData({json(R"({"ad":7,"clickTime":"2023-11-14T22:13:40Z","user":"u"})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok()) << (*q)->exception().toString();
  const std::vector<Row> got = output->appendView();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0][0].asLong(), 7);
}

TEST_P(PlanInputsTest, LeftOuterJoinOfTransformedSidesEmitsUnmatchedRowsWhenTheirWatermarksPass) {
  DataFrame df = clickSide().join(viewSide(), joinSpec(JoinType::kLeftOuter));
  auto q = start(df, "/chk");
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE(clicks->addData({json(R"({"ad":5,"clickTime":"2023-11-14T22:13:20Z","user":"a"})")}).ok());
  ASSERT_TRUE(views->addData({json(R"({"id":9,"ts":"2023-11-14T22:13:20Z"})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok());
  EXPECT_TRUE(output->appendView().empty());
  // Both sides move past the click + its range: it is emitted null-padded.
  ASSERT_TRUE(clicks->addData({json(R"({"ad":6,"clickTime":"2023-11-14T22:20:00Z","user":"b"})")}).ok());
  ASSERT_TRUE(views->addData({json(R"({"id":9,"ts":"2023-11-14T22:20:00Z"})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok()) << (*q)->exception().toString();
  const std::vector<Row> got = output->appendView();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0][0].asLong(), 5);
  EXPECT_TRUE(got[0][3].isNull());
}

TEST_P(PlanInputsTest, UnionOfInputsWithDifferentChainsCastsToTheFirstSidesColumns) {
  // Two topics, each parsed with its own schema into (id, amount); the union widens INT to BIGINT.
  DataFrame a = readStream(makeMemorySource(clicks))
                    .selectExpr({"from_json(value, 'id string, amount int') AS e"})
                    .selectExpr({"e.id", "e.amount"});
  DataFrame b = readStream(makeMemorySource(views))
                    .selectExpr({"from_json(value, 'order_id string, total bigint') AS e"})
                    .selectExpr({"e.order_id AS id", "e.total AS amount"})
                    .where("amount > 10");
  Schema out = *unionByPositionSchema(
      std::vector<Schema>{**parseSchema("id string, amount int"), **parseSchema("id string, amount bigint")},
      expr::SqlConf{});
  auto q = start(a.unionAll(b, out), "/chk");
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE(clicks->addData({json(R"({"id":"a1","amount":3})")}).ok());
  ASSERT_TRUE(views->addData({json(R"({"order_id":"b1","total":30})"), json(R"({"order_id":"b2","total":5})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok()) << (*q)->exception().toString();
  const std::vector<Row> got = output->appendView();
  ASSERT_EQ(got.size(), 2u);
  for (const Row& r : got) EXPECT_EQ(r.schema()->toDDL(), "id string, amount long");
  EXPECT_THAT(rows(), ::testing::ElementsAre(::testing::HasSubstr("a1"), ::testing::HasSubstr("b1")));
}

TEST_P(PlanInputsTest, UnionWithAWatermarkOnEachSideTakesTheMinAndCountsAQuietSideAsZero) {
  auto side = [&](std::shared_ptr<MemoryStreamData> data) {
    return readStream(makeMemorySource(std::move(data)))
        .selectExpr({"from_json(value, 't timestamp') AS e"})
        .selectExpr({"e.t"})
        .withWatermark("t", 1'000);
  };
  auto q = start(side(clicks).unionAll(side(views)), "/chk");
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE(clicks->addData({json(R"({"t":"2023-11-14T22:13:30Z"})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok());
  // WatermarkTracker: the side without data yet counts as 0, so min stays 0.
  EXPECT_EQ((*q)->currentWatermark(), 0);
  ASSERT_TRUE(views->addData({json(R"({"t":"2023-11-14T22:13:25Z"})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok());
  EXPECT_EQ((*q)->currentWatermark(), 1'700'000'005'000 - 1'000);
}

TEST_P(PlanInputsTest, TheWatermarkPolicyTheCheckpointRecordedWinsOnRestart) {
  auto side = [&](std::shared_ptr<MemoryStreamData> data) {
    return readStream(makeMemorySource(std::move(data)))
        .selectExpr({"from_json(value, 't timestamp') AS e"})
        .selectExpr({"e.t"})
        .withWatermark("t", 0);
  };
  DataFrame df = side(clicks).unionAll(side(views));
  {
    auto q = start(df, "/chk", {{"spark.sql.streaming.multipleWatermarkPolicy", "max"}});
    ASSERT_TRUE(q.ok()) << q.status().toString();
    ASSERT_TRUE(clicks->addData({json(R"({"t":"2023-11-14T22:13:30Z"})")}).ok());
    ASSERT_TRUE((*q)->processAllAvailable().ok());
    EXPECT_EQ((*q)->currentWatermark(), 1'700'000'010'000);
  }
  // Restarted with min asked for: the checkpoint's max goes on (a quiet side does not hold it back).
  auto q = start(df, "/chk", {{"spark.sql.streaming.multipleWatermarkPolicy", "min"}});
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE(clicks->addData({json(R"({"t":"2023-11-14T22:13:40Z"})")}).ok());
  ASSERT_TRUE((*q)->processAllAvailable().ok());
  EXPECT_EQ((*q)->currentWatermark(), 1'700'000'020'000);
  OffsetLog log(env, "/chk");
  auto latest = log.get(1);
  ASSERT_TRUE(latest.ok() && latest->has_value());
  EXPECT_EQ((*latest)->metadata.conf.at("spark.sql.streaming.multipleWatermarkPolicy"), "max");
}

INSTANTIATE_TEST_SUITE_P(Stores, PlanInputsTest, ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
