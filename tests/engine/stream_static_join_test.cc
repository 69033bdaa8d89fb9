// Stream–static joins (ops/stream_static_join.h): Spark's using-join output, null keys, the join
// types a static right side allows, and restarts (the join is stateless).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

struct StreamStaticJoinTest : ::testing::Test {
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  SchemaPtr events = *parseSchema("device string, reading long");
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>(events);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>();
  // Two rows for d1 (both match), one for d2, none for d3, and a null device.
  StaticTable sites{*parseSchema("device string, site string"),
                    {Row(*parseSchema("device string, site string"), {Value("d1"), Value("paris")}),
                     Row(*parseSchema("device string, site string"), {Value("d1"), Value("lyon")}),
                     Row(*parseSchema("device string, site string"), {Value("d2"), Value("nice")}),
                     Row(*parseSchema("device string, site string"), {Value(), Value("nowhere")})}};

  Row event(Value device, int64_t reading) { return Row(events, {std::move(device), Value(reading)}); }

  Result<std::unique_ptr<StreamingQuery>> start(const std::string& how, std::string checkpoint = "/chk") {
    DataStreamWriter w = readStream(makeMemorySource(input)).join(sites, {"device"}, how).writeStream();
    w.sink(makeMemorySink(output)).option("checkpointLocation", checkpoint);
    return w.start(env);
  }

  // Each output row as "column=value,..." in the output's column order.
  std::vector<std::string> outputRows() {
    std::vector<std::string> out;
    for (const Row& r : output->appendView()) {
      std::string s;
      for (size_t i = 0; i < r.size(); ++i)
        s += (i ? "," : "") + r.schema()->field(i).name + "=" + r[i].toString();
      out.push_back(s);
    }
    return out;
  }

  void runOneBatch(const std::string& how, const std::string& checkpoint = "/chk") {
    ASSERT_TRUE(input->addData({event(Value("d1"), 1), event(Value("d2"), 2), event(Value("d3"), 3),
                                event(Value(), 4)}).ok());
    auto q = start(how, checkpoint);
    ASSERT_TRUE(q.ok()) << q.status().toString();
    ASSERT_TRUE((*q)->processAllAvailable().ok());
  }
};

TEST_F(StreamStaticJoinTest, InnerJoinGivesJoinColumnsThenStreamThenTableColumnsAndEveryMatch) {
  runOneBatch("inner");
  EXPECT_EQ(outputRows(), (std::vector<std::string>{"device=d1,reading=1,site=paris",
                                                     "device=d1,reading=1,site=lyon",
                                                     "device=d2,reading=2,site=nice"}));
}

TEST_F(StreamStaticJoinTest, LeftOuterKeepsUnmatchedStreamRowsWithNullTableColumns) {
  runOneBatch("left_outer");
  EXPECT_EQ(outputRows(), (std::vector<std::string>{
                              "device=d1,reading=1,site=paris", "device=d1,reading=1,site=lyon",
                              "device=d2,reading=2,site=nice", "device=d3,reading=3,site=null",
                              "device=null,reading=4,site=null"}));
  EXPECT_TRUE(output->appendView().front().schema()->field(2).nullable);
}

TEST_F(StreamStaticJoinTest, LeftSemiAndLeftAntiKeepOnlyTheStreamsColumns) {
  runOneBatch("semi");
  EXPECT_EQ(outputRows(), (std::vector<std::string>{"device=d1,reading=1", "device=d2,reading=2"}));
  output = std::make_shared<MemorySinkData>();
  input = std::make_shared<MemoryStreamData>(events);
  runOneBatch("left_anti", "/chk-anti");
  // A null key matches nothing, so anti keeps it (the null row of the table matches nothing too).
  EXPECT_EQ(outputRows(), (std::vector<std::string>{"device=d3,reading=3", "device=null,reading=4"}));
}

TEST_F(StreamStaticJoinTest, RightAndFullOuterWithAStaticRightSideFailToStartWithSparksMessage) {
  auto right = start("right_outer");
  ASSERT_FALSE(right.ok());
  EXPECT_EQ(right.status().condition(), "_LEGACY_ERROR_TEMP_3102");
  // The engine names the operator first.
  EXPECT_THAT(right.status().message(),
              ::testing::EndsWith("): RightOuter join with a streaming DataFrame/Dataset on the left "
                                  "and a static DataFrame/DataSet on the right not supported"));
  auto full = start("outer", "/chk2");
  ASSERT_FALSE(full.ok());
  EXPECT_THAT(full.status().message(),
              ::testing::EndsWith("): FullOuter joins with streaming DataFrames/Datasets on the left "
                                  "and a static DataFrame/Dataset on the right is not supported"));
}

TEST_F(StreamStaticJoinTest, AnUnknownJoinTypeFailsToStartNamingSparksNames) {
  auto q = start("sideways");
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.status().message().find("Unsupported join type 'sideways'"), std::string::npos)
      << q.status().message();
  EXPECT_NE(q.status().message().find("'left_anti'"), std::string::npos);
}

TEST_F(StreamStaticJoinTest, AJoinColumnOfAnotherTypeThanTheTablesFailsTheBatch) {
  sites = StaticTable{*parseSchema("device long, site string"), {}};
  ASSERT_TRUE(input->addData({event(Value("d1"), 1)}).ok());
  auto q = start("inner");
  ASSERT_TRUE(q.ok()) << q.status().toString();
  Status st = (*q)->processAllAvailable();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("column 'device' is \"STRING\" in the stream and \"BIGINT\""), std::string::npos)
      << st.message();
}

TEST_F(StreamStaticJoinTest, ARestartedQueryJoinsItsNextBatchesWithTheSameTable) {
  runOneBatch("inner");
  ASSERT_TRUE(input->addData({event(Value("d2"), 5)}).ok());
  auto q = start("inner");
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE((*q)->processAllAvailable().ok());
  EXPECT_EQ(outputRows().back(), "device=d2,reading=5,site=nice");
  EXPECT_EQ(outputRows().size(), 4u);
}

}  // namespace
}  // namespace streamsim
