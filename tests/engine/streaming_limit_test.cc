// DataFrame::limit on a stream (ops/streaming_limit.h), after Spark 4.1's StreamingGlobalLimitExec
// (sql/core/.../streaming/operators/stateful/streamingLimits.scala), SparkStrategies'
// StreamingGlobalLimitStrategy and UnsupportedOperationChecker's refusal in Update mode; the
// shapes of StreamSuite's "streaming limit" tests, on both state stores.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

class StreamingLimitTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  SchemaPtr schema = *parseSchema("k string, n long");
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>(schema);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>();

  Row row(const std::string& k, int64_t n) { return Row(schema, {Value(k), Value(n)}); }
  Result<std::unique_ptr<StreamingQuery>> start(const DataFrame& df, OutputMode mode = OutputMode::kAppend) {
    DataStreamWriter w = df.writeStream();
    w.sink(makeMemorySink(output)).option("checkpointLocation", "/chk").outputMode(mode);
    w.option("spark.sql.shuffle.partitions", "3");
    w.option("stateStore", std::string(stateStoreKindName(GetParam())));
    return w.start(env);
  }
  std::vector<int64_t> sinkN() const {
    std::vector<int64_t> out;
    for (const Row& r : output->appendView()) out.push_back(r.get("n").asLong());
    return out;
  }
  void add(std::vector<Row> rows, StreamingQuery& q) {
    ASSERT_TRUE(input->addData(std::move(rows)).ok());
    Status st = q.processAllAvailable();
    ASSERT_TRUE(st.ok()) << st.toString();
  }
};

TEST_P(StreamingLimitTest, AppendPassesRowsUntilTheCountInStateReachesTheLimitAcrossRestarts) {
  DataFrame df = readStream(makeMemorySource(input)).where("n > 0").limit(3);
  {
    auto q = start(df);
    ASSERT_TRUE(q.ok()) << q.status().toString();
    add({row("a", 1), row("b", 0), row("c", 2)}, **q);
    EXPECT_THAT(sinkN(), ::testing::ElementsAre(1, 2));
  }
  auto q = start(df);  // the count (2) comes back from the state store
  ASSERT_TRUE(q.ok()) << q.status().toString();
  add({row("d", 3), row("e", 4)}, **q);
  add({row("f", 5)}, **q);
  EXPECT_THAT(sinkN(), ::testing::ElementsAre(1, 2, 3));
  // AllTuples: one store, partition 0's, whatever spark.sql.shuffle.partitions says.
  auto dirs = fs.list("/chk/state/0");
  ASSERT_TRUE(dirs.ok()) << dirs.status().toString() << ::testing::PrintToString(fs.list("/chk").value());
  std::vector<std::string> names;
  for (const auto& f : *dirs) names.push_back(f.path);
  EXPECT_THAT(names, ::testing::Contains(::testing::EndsWith("/0"))) << ::testing::PrintToString(names);
  EXPECT_THAT(names, ::testing::Not(::testing::Contains(::testing::EndsWith("/1"))));
  const QueryProgress* p = (*q)->lastProgress();
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->stateOperators.size(), 1u);
  EXPECT_EQ(p->stateOperators[0].operatorName, "globalLimit");
  EXPECT_EQ(p->stateOperators[0].numRowsTotal, 1);
  EXPECT_EQ(p->stateOperators[0].numShufflePartitions, 1);
}

TEST_P(StreamingLimitTest, ARestartMayChangeTheLimitTheCountGoesOn) {
  {
    auto q = start(readStream(makeMemorySource(input)).limit(1));
    ASSERT_TRUE(q.ok()) << q.status().toString();
    add({row("a", 1), row("b", 2)}, **q);
  }
  auto q = start(readStream(makeMemorySource(input)).limit(3));
  ASSERT_TRUE(q.ok()) << q.status().toString();
  add({row("c", 3), row("d", 4), row("e", 5)}, **q);
  EXPECT_THAT(sinkN(), ::testing::ElementsAre(1, 3, 4));
}

TEST_P(StreamingLimitTest, UpdateModeIsUnsupportedOperationCheckersError) {
  auto q = start(readStream(makeMemorySource(input)).limit(2), OutputMode::kUpdate);
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().condition(), "_LEGACY_ERROR_TEMP_3102");
  EXPECT_THAT(q.status().message(),
              ::testing::HasSubstr("Limits are not supported on streaming DataFrames/Datasets in Update output mode"));
}

TEST_P(StreamingLimitTest, CompleteModeLimitBeforeTheAggregationIsStateful) {
  // streamingDf.limit(2).groupBy().count() in Complete mode: only the first two rows ever count.
  auto q = start(readStream(makeMemorySource(input)).limit(2).groupBy(std::vector<std::string>{}).count(),
                 OutputMode::kComplete);
  ASSERT_TRUE(q.ok()) << q.status().toString();
  add({row("a", 1)}, **q);
  add({row("b", 2), row("c", 3)}, **q);
  std::vector<Row> last = output->appendView();
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last.back()[0].asLong(), 2);
  EXPECT_TRUE(fs.exists("/chk/state/0/0"));  // the limit's count: state/0, the aggregation state/1
  EXPECT_TRUE(fs.exists("/chk/state/1"));
}

TEST_P(StreamingLimitTest, CompleteModeLimitAfterTheAggregationLimitsEachBatchsResultWithoutState) {
  auto q = start(readStream(makeMemorySource(input)).groupBy({"k"}).count().limit(1), OutputMode::kComplete);
  ASSERT_TRUE(q.ok()) << q.status().toString();
  add({row("a", 1), row("b", 2)}, **q);
  const QueryProgress* p = (*q)->lastProgress();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->numOutputRows, 1);
  add({row("c", 3)}, **q);
  EXPECT_EQ((*q)->lastProgress()->numOutputRows, 1);
  ASSERT_EQ((*q)->lastProgress()->stateOperators.size(), 1u);  // the aggregation's only
  EXPECT_FALSE(fs.exists("/chk/state/1"));
}

TEST_P(StreamingLimitTest, ANegativeLimitIsRefused) {
  auto q = start(readStream(makeMemorySource(input)).limit(-1));
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().condition(), "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE");
}

INSTANTIATE_TEST_SUITE_P(Stores, StreamingLimitTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
