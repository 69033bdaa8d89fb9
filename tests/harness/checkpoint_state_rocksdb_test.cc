// readCheckpointState on the checkpoints Spark wrote with its RocksDB-backed state store
// (tests/fixtures/spark-rocksdb; its README says which Spark test wrote each): every committed
// batch of each, the decoded keys and values asserted against what the generating query (quoted
// from Spark's test suites below) leaves in state after that batch. Partitions are Spark's hash
// partitioning of the key, so rows are compared as the union over partitions.
#include "streamsim/harness/checkpoint_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "reliability/cli_test_support.h"
#include "streamsim/platform/platform.h"
#include "test_paths.h"

namespace streamsim::harness {
namespace {

namespace stdfs = std::filesystem;
using ::testing::HasSubstr;

const std::string kRocks = std::string(STREAMSIM_FIXTURES_DIR) + "/../spark-rocksdb";

class SparkRocksDBState : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!stdfs::exists(kRocks)) GTEST_SKIP() << kRocks << " is not there";
    fs_ = platform::newPosixFileSystem();
    env_.fs = fs_.get();
  }
  Result<CheckpointState> stateAt(const std::string& root, int64_t batch) {
    CheckpointStateOptions o;
    o.batch = batch;
    return readCheckpointState(env_, root, o);
  }
  // A private copy of fixture folder `rel` (to corrupt), removed with the test.
  std::string copyOf(const std::string& rel) {
    tmp_ = std::make_unique<streamsim::testing::ScratchDir>("spark_rocksdb_state");
    stdfs::copy(kRocks + "/" + rel, tmp_->path(), stdfs::copy_options::recursive);
    return tmp_->path();
  }
  std::unique_ptr<FileSystem> fs_;
  Env env_;
  std::unique_ptr<streamsim::testing::ScratchDir> tmp_;
};

// "[store ][family ]key = value" of every row, every partition; and no partition failed.
std::multiset<std::string> rowsOf(const CheckpointState& s) {
  std::multiset<std::string> out;
  for (const auto& op : s.operators)
    for (const auto& p : op.partitions) {
      EXPECT_FALSE(p.error) << "partition " << p.partition << " " << p.store << ": " << *p.error;
      for (const auto& r : p.rows)
        out.insert((p.store.empty() ? "" : p.store + " ") + (r.columnFamily.empty() ? "" : r.columnFamily + " ") +
                   r.key + " = " + r.value);
    }
  return out;
}

// StateDataSourceReadSuite.testSnapshotOnAggregateState: groupBy("_1").count() over the batches
// {1,2,3}, {2,3,4}, {3,4,5}, {4,5,6}; the fixture README's known answer after batch 3.
TEST_F(SparkRocksDBState, AggregationCountsAtEveryBatch) {
  const std::vector<std::map<int, int>> expected = {
      {{1, 1}, {2, 1}, {3, 1}},
      {{1, 1}, {2, 2}, {3, 2}, {4, 1}},
      {{1, 1}, {2, 2}, {3, 3}, {4, 2}, {5, 1}},
      {{1, 1}, {2, 2}, {3, 3}, {4, 3}, {5, 2}, {6, 1}},
  };
  for (int64_t batch = 0; batch < 4; ++batch) {
    auto s = stateAt(kRocks + "/agg-changelog-4.0", batch);
    ASSERT_TRUE(s.ok()) << s.status().message();
    std::multiset<std::string> want;
    for (auto [k, n] : expected[static_cast<size_t>(batch)])
      want.insert(fmt::format(R"({{"_1":{}}} = {{"count":{}}})", k, n));
    EXPECT_EQ(rowsOf(*s), want) << "after batch " << batch;
    EXPECT_THAT(s->operators[0].schemaNote, HasSubstr("state/0/0/_metadata/schema"));
  }
}

// StateDataSourceReadSuite.testSnapshotOnDeduplicateState (checkpoint format v2, Spark 4.1):
// dropDuplicates("_1") over the same batches keeps every key seen: 1..3, 1..4, 1..5, 1..6.
// The value is Spark's empty row (one null field "__dummy__" of type void).
TEST_F(SparkRocksDBState, DedupKeysAtEveryBatchWithUniqueIds) {
  for (int64_t batch = 0; batch < 4; ++batch) {
    auto s = stateAt(kRocks + "/ckptv2-dedup-4.1", batch);
    ASSERT_TRUE(s.ok()) << s.status().message();
    std::multiset<std::string> want;
    for (int k = 1; k <= 3 + batch; ++k) want.insert(fmt::format(R"({{"_1":{}}} = {{"__dummy__":null}})", k));
    EXPECT_EQ(rowsOf(*s), want) << "after batch " << batch;
  }
}

// OffsetSeqLogSuite's checkpoint-version-4.0.0-tws-unsaferow: one ValueState `countState` of a
// string key and a long (the _stateSchema v3 file), as TransformWithStateSuite's
// RunningCountStatefulProcessor keeps it (count + 1 per batch a key has input, cleared at 3).
// Spark's suites do not give this checkpoint's MemoryStream input, so the expected rows are the
// ones its files hold — key "a" counted in batch 0 (1.zip of partition 0), then "a" and "b" in
// batch 1 (2.changelog of partitions 0 and 1) — and agree with that processor: counts below 3.
// Its twin checkpoint-version-4.0.0-tws-avro ran the same query with
// spark.sql.streaming.stateStore.encodingFormat=avro in its offsets, so holds the same rows, read
// from Spark 4.0's Avro bytes (spark_avro_rows_test.cc has the byte-level cases).
TEST_F(SparkRocksDBState, TransformWithStateValueStateByName) {
  for (const std::string fixture : {"tws-valuestate-unsaferow-4.0", "tws-valuestate-avro-4.0"}) {
    SCOPED_TRACE(fixture);
    auto s0 = stateAt(kRocks + "/" + fixture, 0);
    ASSERT_TRUE(s0.ok()) << s0.status().message();
    EXPECT_EQ(rowsOf(*s0), (std::multiset<std::string>{R"(countState {"value":"a"} = {"value":1})"}));
    EXPECT_THAT(s0->operators[0].schemaNote, HasSubstr("_stateSchema/default/0_"));
    const bool avro = fixture.find("avro") != std::string::npos;
    EXPECT_EQ(s0->operators[0].schemaNote.find("rows Avro-encoded (Spark 4.0's, no schema ids)") != std::string::npos,
              avro);
    auto s1 = stateAt(kRocks + "/" + fixture, 1);
    ASSERT_TRUE(s1.ok()) << s1.status().message();
    EXPECT_EQ(rowsOf(*s1), (std::multiset<std::string>{R"(countState {"value":"a"} = {"value":2})",
                                                       R"(countState {"value":"b"} = {"value":1})"}));
  }
}

// A transformWithState store whose snapshot is gone: its changelogs replay, but only a zip's
// metadata names the column family ids its keys start with, and Spark writes that zip in the
// very commit that creates a family (RocksDB.commit: shouldForceSnapshot), so changelogs alone
// mean a lost file — said so, never decoded with guessed ids nor shown as empty.
TEST_F(SparkRocksDBState, TransformWithStateFromChangelogsAloneNamesTheLostSnapshot) {
  std::string root = copyOf("tws-valuestate-unsaferow-4.0");
  stdfs::remove(root + "/state/0/0/1.zip");
  auto s = stateAt(root, 1);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const auto& p0 = s->operators[0].partitions[0];
  ASSERT_TRUE(p0.error.has_value());
  EXPECT_THAT(*p0.error, HasSubstr("no zip at or before version 2 is here (read from changelogs alone: "
                                   "1.changelog, 2.changelog)"));
  EXPECT_THAT(*p0.error, HasSubstr("shouldForceSnapshot"));
  EXPECT_TRUE(p0.rows.empty());
  // The other partitions still read.
  ASSERT_FALSE(s->operators[0].partitions[1].error.has_value());
  EXPECT_EQ(s->operators[0].partitions[1].rows.size(), 1u);
}

// An encoding Spark does not write is named, never read as UnsafeRows.
TEST_F(SparkRocksDBState, UnknownEncodingFormatIsNamed) {
  std::string root = copyOf("tws-valuestate-avro-4.0");
  for (const char* batch : {"0", "1"}) {
    std::string path = root + "/offsets/" + batch;
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("\"avro\""), 6, "\"prot\"");
    std::ofstream(path, std::ios::trunc) << text;
    stdfs::remove(root + "/offsets/." + batch + ".crc");
  }
  auto s = stateAt(root, 1);
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_TRUE(s->operators[0].partitions[0].error.has_value());
  EXPECT_THAT(*s->operators[0].partitions[0].error, HasSubstr("the state is prot-encoded"));
}

// StateDataSourceReadSuite.testSnapshotOnJoinState (StateDataSourceTestBase.getStreamStreamJoinQuery):
// left = (id, time id seconds), right = the same rows where id % 2 == 0, joined on leftId = rightId
// and rightTime within [leftTime, leftTime + 5 s]; watermark delay 5 s each side. Spark's optimizer
// infers `leftId % 2 == 0` for the left side from the join key (InferFiltersFromConstraints), so
// both sides keep only even ids, each matched. Batches: ids 1-5, 6-10, a no-data batch (watermark
// 5 s), 11-15, a no-data batch (watermark 9 s: the right side's max 14 s minus 5 s, the min
// policy). Eviction (StreamingJoinHelper.getStateValueWatermark: the condition solved for one
// side's time, minus 1 ms for a non-strict <= / >=; rows at or below it go): a right row once
// rightTime < watermark (rightTime >= leftTime), a left row once leftTime < watermark - 5 s
// (rightTime <= leftTime + 5 s).
TEST_F(SparkRocksDBState, JoinFourStoresAtEveryBatch) {
  auto evens = [](int from, int to) {
    std::vector<int> out;
    for (int i = from; i <= to; ++i)
      if (i % 2 == 0) out.push_back(i);
    return out;
  };
  struct Expect {
    std::vector<int> left, right;
  };
  const std::vector<Expect> expected = {
      {evens(1, 5), evens(1, 5)},    // batch 0
      {evens(1, 10), evens(1, 10)},  // batch 1
      {evens(1, 10), evens(6, 10)},  // batch 2: watermark 5 s evicts right 2, 4 (< 5 s)
      {evens(1, 15), evens(6, 15)},  // batch 3
      {evens(4, 15), evens(10, 15)}, // batch 4: watermark 9 s evicts left 2 (< 4 s), right 6, 8 (< 9 s)
  };
  for (int64_t batch = 0; batch < 5; ++batch) {
    auto s = stateAt(kRocks + "/join1-4stores-4.0", batch);
    ASSERT_TRUE(s.ok()) << s.status().message();
    std::multiset<std::string> want;
    const auto& e = expected[static_cast<size_t>(batch)];
    for (const auto& [side, keys] : {std::pair{std::string("left"), e.left}, std::pair{std::string("right"), e.right}})
      for (int id : keys) {
        want.insert(fmt::format(R"({}-keyToNumValues {{"field0":{}}} = {{"value":1}})", side, id));
        // The value row's fields (<side>Id, <side>Time, matched) as JSON object keys, sorted.
        std::string time = fmt::format(R"("{}Time":"1970-01-01T00:00:{:02}Z")", side, id);
        std::string idField = fmt::format(R"("{}Id":{})", side, id);
        want.insert(fmt::format(R"({}-keyWithIndexToValue {{"field0":{},"index":0}} = {{{}}})", side, id,
                                side == "left" ? idField + "," + time + R"(,"matched":true)"
                                               : R"("matched":true,)" + idField + "," + time));
      }
    EXPECT_EQ(rowsOf(*s), want) << "after batch " << batch;
  }
}

// Regression (issue 39): on a checkpoint-format-v2 checkpoint `state` said "5 partitions without
// rows" — the N_<uuid> files were not recognised. A store that cannot be read now says why.
TEST_F(SparkRocksDBState, UnreadableIsNeverEmpty) {
  std::string root = copyOf("ckptv2-dedup-4.1");
  for (const auto& f : stdfs::directory_iterator(root + "/state/0/1"))
    if (f.path().filename().string().rfind("4_", 0) == 0) stdfs::remove(f.path());  // version 4 of partition 1
  auto s = stateAt(root, 3);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const auto& p1 = s->operators[0].partitions[1];
  ASSERT_TRUE(p1.error);
  EXPECT_THAT(*p1.error, HasSubstr("e2a4feae-a4e3-4183-b07b-db9b8e0794a5"));  // commits/3's id for partition 1
  EXPECT_TRUE(p1.rows.empty());
  EXPECT_TRUE(s->anyPartitionFailed());
}

// A schema that does not match the bytes: agg's key schema replaced by one of three ints
// (SchemaV2Writer: "v2", then key and value JSON each as 1 chunk).
TEST_F(SparkRocksDBState, SchemaNotMatchingTheBytesIsSaid) {
  std::string root = copyOf("agg-changelog-4.0");
  auto utf = [](const std::string& s) { return std::string{static_cast<char>(s.size() >> 8), static_cast<char>(s.size())} + s; };
  std::string one = std::string("\0\0\0\1", 4);
  std::string key = R"({"type":"struct","fields":[{"name":"a","type":"integer","nullable":false,"metadata":{}},)"
                    R"({"name":"b","type":"integer","nullable":false,"metadata":{}},)"
                    R"({"name":"c","type":"integer","nullable":false,"metadata":{}}]})";
  std::string value = R"({"type":"struct","fields":[{"name":"count","type":"long","nullable":false,"metadata":{}}]})";
  std::ofstream(root + "/state/0/0/_metadata/schema", std::ios::binary | std::ios::trunc)
      << utf("v2") << one << utf(key) << one << utf(value);
  auto s = stateAt(root, 3);
  ASSERT_TRUE(s.ok()) << s.status().message();
  int failed = 0;
  for (const auto& p : s->operators[0].partitions)
    if (p.error) {
      ++failed;
      EXPECT_THAT(*p.error, HasSubstr("key does not match its schema"));
      EXPECT_THAT(*p.error, HasSubstr("3 fields"));
    }
  EXPECT_GT(failed, 0);
}

}  // namespace
}  // namespace streamsim::harness
