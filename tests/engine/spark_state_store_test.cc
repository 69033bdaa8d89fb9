// Spark's own HDFS-backed state store files, read from the real-world checkpoints in
// fixtures/spark-real (spark_state_store.h): LZ4Block frames with their xxhash32, the
// length-prefixed UnsafeRow records, and the _metadata/schema file.
#include "streamsim/checkpoint/spark_state_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "streamsim/platform/platform.h"
#include "test_paths.h"

namespace streamsim {
namespace {

const std::string kReal = std::string(STREAMSIM_FIXTURES_DIR) + "/../spark-real";

class SparkStateStore : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kReal)) GTEST_SKIP() << kReal << " is not there";
    fs_ = platform::newPosixFileSystem();
    env_.fs = fs_.get();
  }
  std::string read(const std::string& path) { return *fs_->read(path); }
  std::unique_ptr<FileSystem> fs_;
  Env env_;
};

TEST(Xxhash32, KnownValues) {
  // XXH32 reference values (xxhash's own test vectors).
  EXPECT_EQ(xxhash32("", 0), 0x02cc5d05u);
  EXPECT_EQ(xxhash32("a", 0), 0x550d7456u);
  EXPECT_EQ(xxhash32("abc", 0), 0x32d153ffu);
  EXPECT_EQ(xxhash32("Nobody inspects the spammish repetition", 0), 0xe2293b2fu);
}

TEST_F(SparkStateStore, DecodesLz4BlockFramesAndChecksTheirChecksum) {
  std::string path = kReal + "/agg-hdfs-lz4-1-partition/state/0/0/1.delta";
  std::string raw = read(path);
  auto data = decodeLz4BlockStream(raw, path);
  ASSERT_TRUE(data.ok()) << data.status().message();
  EXPECT_EQ(data->size(), 44u);  // one record (4 + 16 + 4 + 16) and the -1 end marker
  // A flipped byte of compressed data fails the xxhash32 check (or the decompression).
  std::string bad = raw;
  bad[30] ^= 0x01;
  auto broken = decodeLz4BlockStream(bad, path);
  ASSERT_FALSE(broken.ok());
  EXPECT_THAT(broken.status().message(), ::testing::HasSubstr(path));
  // Cut short: no end block.
  auto torn = decodeLz4BlockStream(std::string_view(raw).substr(0, raw.size() - 21), path);
  ASSERT_FALSE(torn.ok());
  EXPECT_THAT(torn.status().message(), ::testing::HasSubstr("without its end block"));
}

TEST_F(SparkStateStore, ReadsTheSchemaFileV2) {
  std::string path = kReal + "/agg-hdfs-lz4-1-partition/state/0/0/_metadata/schema";
  auto schema = parseSparkStateSchema(read(path), path);
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  EXPECT_EQ(schema->formatVersion, 2);
  ASSERT_EQ(schema->key.size(), 1u);
  EXPECT_EQ(schema->key[0].name, "key");
  ASSERT_EQ(schema->value.size(), 1u);
  EXPECT_EQ(schema->value[0].name, "value");
  EXPECT_EQ(schema->value[0].typeJson, "\"long\"");
  EXPECT_FALSE(parseSparkStateSchema("junk", "x").ok());
}

TEST_F(SparkStateStore, AggregationStateWithItsSchema) {
  std::string dir = kReal + "/agg-hdfs-lz4-1-partition/state/0/0";
  auto folder = classifyStateFolder(env_, dir);
  ASSERT_TRUE(folder.ok());
  EXPECT_EQ(folder->format, StateFolderFormat::kSparkHdfs);
  EXPECT_EQ(folder->deltas.size(), 2u);
  auto schema = parseSparkStateSchema(read(dir + "/_metadata/schema"), dir);
  ASSERT_TRUE(schema.ok());
  for (int64_t version : {1, 2}) {  // batch 1 (version 2) changed nothing: the same row
    auto state = readSparkStateVersion(env_, *folder, version);
    ASSERT_TRUE(state.ok()) << state.status().message();
    ASSERT_EQ(state->rows.size(), 1u);
    const auto& [k, v] = *state->rows.begin();
    EXPECT_EQ(unsafeRowToJson(k, &schema->key), R"({"key":null})");
    EXPECT_EQ(unsafeRowToJson(v, &schema->value), R"({"value":100000})");
  }
}

TEST_F(SparkStateStore, SchemalessSpark22RowsAreGuessedFieldByField) {
  // Spark 2.2 wrote no _metadata/schema: key (window struct, string), value with the key's
  // columns, an epoch-seconds long, two doubles and two counts.
  std::string dir = kReal + "/watermark-agg-200-partitions-uncommitted/state/0/83";
  auto folder = classifyStateFolder(env_, dir);
  ASSERT_TRUE(folder.ok());
  EXPECT_EQ(folder->format, StateFolderFormat::kSparkHdfs);
  auto state = readSparkStateVersion(env_, *folder, 1);
  ASSERT_TRUE(state.ok()) << state.status().message();
  ASSERT_EQ(state->rows.size(), 1u);
  const auto& [k, v] = *state->rows.begin();
  EXPECT_EQ(unsafeRowToJson(k, nullptr),
            R"({"_0":{"_0":1500463790000000,"_1":1500463820000000},"_1":"FB"})");
  EXPECT_EQ(unsafeRowToJson(v, nullptr),
            R"({"_0":{"_0":1500463790000000,"_1":1500463820000000},"_1":"FB","_2":1500463799,)"
            R"("_3":96.0,"_4":96.0,"_5":9,"_6":9})");
}

TEST_F(SparkStateStore, NamesTheLeftoverTempFile) {
  auto folder = classifyStateFolder(env_, kReal + "/watermark-agg-200-partitions-uncommitted/state/0/110");
  ASSERT_TRUE(folder.ok());
  ASSERT_EQ(folder->tempFiles.size(), 1u);
  EXPECT_THAT(folder->tempFiles[0], ::testing::EndsWith("temp--7387588417774979664"));
}

TEST_F(SparkStateStore, AMissingDeltaIsNamed) {
  auto folder = classifyStateFolder(env_, kReal + "/agg-hdfs-lz4-1-partition/state/0/0");
  ASSERT_TRUE(folder.ok());
  auto state = readSparkStateVersion(env_, *folder, 3);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), ::testing::HasSubstr("3.delta"));
}

}  // namespace
}  // namespace streamsim
