#include "streamsim/io/memory_source.h"

#include <gtest/gtest.h>

namespace streamsim {
namespace {

SourceContext ctx(bool availableNow = false) {
  SourceContext c;
  c.availableNow = availableNow;
  return c;
}

TEST(MemorySource, OffsetsCountRowsAndBatchesReturnRowsBetweenOffsets) {
  auto data = std::make_shared<MemoryStreamData>();
  MemorySource src(data);
  ASSERT_TRUE(src.restore(ctx(), std::nullopt).ok());
  auto none = src.latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  ASSERT_TRUE(data->addData({Row{{"k", "a"}}, Row{{"k", "b"}}}).ok());
  auto end1 = src.latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(end1.ok());
  EXPECT_EQ(**end1, R"({"offset":2})");
  auto rows = src.getBatch(ctx(), std::nullopt, **end1);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[1].get("k"), Value("b"));

  ASSERT_TRUE(data->addData({Row{{"k", "c"}}}).ok());
  auto end2 = src.latestOffset(ctx(), *end1);
  ASSERT_TRUE(end2.ok());
  EXPECT_EQ(**end2, R"({"offset":3})");
  auto more = src.getBatch(ctx(), *end1, **end2);
  ASSERT_TRUE(more.ok());
  ASSERT_EQ(more->size(), 1u);
  EXPECT_EQ((*more)[0].get("k"), Value("c"));
  // Nothing new: the same offset back.
  auto same = src.latestOffset(ctx(), *end2);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(**same, **end2);
}

TEST(MemorySource, DataOutlivesTheSourceAcrossARestart) {
  auto data = std::make_shared<MemoryStreamData>();
  ASSERT_TRUE(data->addData({Row{{"k", "a"}}, Row{{"k", "b"}}}).ok());
  std::string end;
  {
    auto factory = makeMemorySource(data);
    auto src = factory();
    end = **src->latestOffset(ctx(), std::nullopt);
  }
  auto src = makeMemorySource(data)();
  ASSERT_TRUE(src->restore(ctx(), std::nullopt).ok());
  auto rerun = src->getBatch(ctx(), std::nullopt, end);  // re-run after a crash
  ASSERT_TRUE(rerun.ok());
  EXPECT_EQ(rerun->size(), 2u);
}

TEST(MemorySource, RestoreRejectsACommittedOffsetBeyondTheData) {
  auto data = std::make_shared<MemoryStreamData>();
  MemorySource src(data);
  Status st = src.restore(ctx(), std::string(R"({"offset":5})"));
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_FALSE(src.restore(ctx(), std::string("garbage")).ok());
}

TEST(MemorySource, SchemaCastsAddedRowsAndRejectsUnknownColumns) {
  auto data = std::make_shared<MemoryStreamData>(*parseSchema("k string, t timestamp, n long"));
  ASSERT_TRUE(data->addData({Row{{"k", "a"}, {"t", "2026-01-01T00:00:00Z"}}}).ok());
  const Row& r = data->rows()[0];
  EXPECT_EQ(r.get("t").type(), Type::kTimestamp);
  EXPECT_TRUE(r.get("n").isNull());
  EXPECT_EQ(data->addData({Row{{"k", "a"}, {"x", int64_t{1}}}}).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(data->addData({Row{{"t", "not a time"}}}).code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(data->size(), 1);
}

TEST(MemorySource, AvailableNowStopsAtTheRowsOfTheFirstPlanning) {
  auto data = std::make_shared<MemoryStreamData>();
  ASSERT_TRUE(data->addData({Row{{"k", "a"}}}).ok());
  MemorySource src(data);
  auto end = src.latestOffset(ctx(true), std::nullopt);
  ASSERT_TRUE(data->addData({Row{{"k", "b"}}}).ok());
  auto again = src.latestOffset(ctx(true), *end);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(**again, R"({"offset":1})");
}

TEST(MemorySource, ParsesOffsets) {
  EXPECT_EQ(*parseMemoryOffset(R"({"offset":7})", "x"), 7);
  EXPECT_EQ(*parseMemoryOffset("7", "x"), 7);
  EXPECT_FALSE(parseMemoryOffset(R"({"logOffset":7})", "x").ok());
}

}  // namespace
}  // namespace streamsim
