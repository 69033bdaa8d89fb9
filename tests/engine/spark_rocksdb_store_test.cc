// Spark's RocksDB-backed state store files (spark_rocksdb_store.h, zip_reader.h,
// spark_rocksdb_rows.h), read from the checkpoints Spark itself wrote in
// tests/fixtures/spark-rocksdb (its README says which Spark test wrote each), and corrupted copies
// of them built here in a temp folder: every error names the file, and a changelog's the record
// offset.
#include "streamsim/checkpoint/spark_rocksdb_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/checkpoint/spark_rocksdb_rows.h"
#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/checkpoint/zip_reader.h"
#include "reliability/cli_test_support.h"
#include "streamsim/platform/platform.h"
#include "test_paths.h"

namespace streamsim {
namespace spark_rocksdb_store_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

namespace stdfs = std::filesystem;
using ::testing::HasSubstr;

const std::string kRocks = std::string(STREAMSIM_FIXTURES_DIR) + "/../spark-rocksdb";

// Java DataOutputStream pieces, to build changelogs.
std::string be32(int32_t v) {
  auto u = static_cast<uint32_t>(v);
  return {static_cast<char>(u >> 24), static_cast<char>(u >> 16), static_cast<char>(u >> 8), static_cast<char>(u)};
}
std::string utf(const std::string& s) {
  return std::string{static_cast<char>(s.size() >> 8), static_cast<char>(s.size() & 0xff)} + s;
}
std::string le32(uint32_t v) {
  return {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16), static_cast<char>(v >> 24)};
}
// `data` framed as lz4-java's LZ4BlockOutputStream does with an uncompressed (method RAW) block,
// then the end block.
std::string lz4Block(const std::string& data) {
  std::string out = "LZ4Block";
  out += '\x10';
  out += le32(static_cast<uint32_t>(data.size())) + le32(static_cast<uint32_t>(data.size()));
  out += le32(xxhash32(data, 0x9747b28c) & 0x0fffffffu) + data;
  out += std::string("LZ4Block") + '\x10' + le32(0) + le32(0) + le32(0);
  return out;
}

class SparkRocksDBStore : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!stdfs::exists(kRocks)) GTEST_SKIP() << kRocks << " is not there";
    fs_ = platform::newPosixFileSystem();
    env_.fs = fs_.get();
  }
  // A private copy of fixture folder `rel` (to corrupt), removed with the test.
  std::string copyOf(const std::string& rel) {
    tmp_ = std::make_unique<streamsim::testing::ScratchDir>("spark_rocksdb");
    stdfs::copy(kRocks + "/" + rel, tmp_->path(), stdfs::copy_options::recursive);
    return tmp_->path();
  }
  void write(const std::string& path, const std::string& data) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
  }
  std::string read(const std::string& path) { return *fs_->read(path); }
  Result<SparkRocksDBState> readVersion(const std::string& dir, int64_t version,
                                        std::optional<std::string> id = std::nullopt) {
    auto folder = listSparkRocksDBFolder(env_, dir);
    if (!folder.ok()) return folder.status();
    return readSparkRocksDBVersion(env_, *folder, version, id);
  }
  std::unique_ptr<FileSystem> fs_;
  Env env_;
  std::unique_ptr<streamsim::testing::ScratchDir> tmp_;
};

// The key bytes of an agg/dedup/join key row: the encoder version byte 0, then an UnsafeRow of
// one int field (null bits, the int in an 8-byte slot).
std::string intKey(int v) { return std::string(1, '\0') + std::string(8, '\0') + le32(static_cast<uint32_t>(v)) + le32(0); }

TEST(SparkRocksDBFileNames, VersionAndUniqueId) {
  // RocksDBFileManager.dfsBatchZipFile / dfsChangelogFile: "N.zip", "N_<id>.changelog".
  EXPECT_EQ(sparkRocksDBFileVersion("12.zip", ".zip"), std::make_pair(int64_t{12}, std::string()));
  EXPECT_EQ(sparkRocksDBFileVersion("3_1cdac062-90db-4c25-986c-68eecec0c062.changelog", ".changelog"),
            std::make_pair(int64_t{3}, std::string("1cdac062-90db-4c25-986c-68eecec0c062")));
  EXPECT_FALSE(sparkRocksDBFileVersion("x.zip", ".zip"));
  EXPECT_FALSE(sparkRocksDBFileVersion(".1.zip.crc", ".zip"));
  EXPECT_FALSE(sparkRocksDBFileVersion("1.delta", ".zip"));
}

TEST_F(SparkRocksDBStore, ZipEntriesAreInflatedAndChecked) {
  std::string path = kRocks + "/tws-valuestate-unsaferow-4.0/state/0/0/1.zip";
  auto entries = readZipArchive(read(path), path);
  ASSERT_TRUE(entries.ok()) << entries.status().message();
  EXPECT_THAT(*entries, ::testing::Contains(::testing::Key("metadata")));
  EXPECT_THAT(*entries, ::testing::Contains(::testing::Key("CURRENT")));
  EXPECT_EQ(entries->at("CURRENT"), "MANIFEST-000005\n");
  EXPECT_THAT(entries->at("metadata"), HasSubstr("\"columnFamilyMapping\":{\"countState\":1}"));
  // A zip cut short has no end record.
  std::string raw = read(path);
  auto torn = readZipArchive(std::string_view(raw).substr(0, raw.size() / 2), path);
  ASSERT_FALSE(torn.ok());
  EXPECT_THAT(torn.status().message(), HasSubstr(path));
}

TEST_F(SparkRocksDBStore, ChangelogV1HasNoHeaderAndEndsWithMinusOne) {
  // agg-changelog-4.0 (Spark 4.0, changelog format v1), partition 1, batch 0 wrote 1.changelog.
  auto log = readSparkChangelog(env_, kRocks + "/agg-changelog-4.0/state/0/1/1.changelog");
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->formatVersion, 1);
  EXPECT_TRUE(log->lineage.empty());
  ASSERT_FALSE(log->records.empty());
  EXPECT_EQ(log->records[0].type, SparkChangelogRecord::Type::kPut);
  EXPECT_EQ(log->records[0].offset, 0u);  // no header: the first record starts the stream
}

TEST_F(SparkRocksDBStore, ChangelogV2HasARecordTypeByte) {
  // tws-valuestate-unsaferow-4.0: transformWithState with column families writes format v2.
  auto log = readSparkChangelog(env_, kRocks + "/tws-valuestate-unsaferow-4.0/state/0/0/1.changelog");
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->formatVersion, 2);
  ASSERT_FALSE(log->records.empty());
  EXPECT_EQ(log->records[0].offset, 4u);  // after writeUTF("v2")
  // Every key starts with countState's column family id 1 (2 bytes, little-endian).
  for (const auto& r : log->records) EXPECT_EQ(r.key.substr(0, 2), std::string("\x01\x00", 2));
}

TEST_F(SparkRocksDBStore, ChangelogV3CarriesTheLineage) {
  // ckptv2-dedup-4.1 (checkpoint format v2): 3_<id>.changelog of partition 3 names versions 2..2
  // back to the snapshot 2_<id>.zip, whose id commits/1 records for partition 3.
  auto log = readSparkChangelog(
      env_, kRocks + "/ckptv2-dedup-4.1/state/0/3/3_1cdac062-90db-4c25-986c-68eecec0c062.changelog");
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->formatVersion, 3);
  ASSERT_EQ(log->lineage.size(), 1u);
  EXPECT_EQ(log->lineage[0], std::make_pair(int64_t{2}, std::string("67f09fbd-c2af-4bf6-a1d0-8bca968ac2e6")));
}

TEST_F(SparkRocksDBStore, SnapshotPlusChangelogs) {
  // agg-changelog-4.0 partition 4: version 3 = 2.zip + 3.changelog. The README's known answer
  // after batch 2 for this partition's keys (2 and 6): 2 -> 2; 6 first arrives in batch 3.
  auto state = readVersion(kRocks + "/agg-changelog-4.0/state/0/4", 3);
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->snapshotVersion, 2);
  ASSERT_EQ(state->filesRead.size(), 2u);
  EXPECT_THAT(state->filesRead[1], HasSubstr("3.changelog"));
  ASSERT_TRUE(state->rows.count(intKey(2)));
  EXPECT_FALSE(state->rows.count(intKey(6)));
}

// Regression: reading each SST file on its own (SstFileReader) shows a key a newer SST deleted.
// Join partition 2's right-keyToNumValues 4.zip holds 000008 (keys 4 and 10) and 000009 (the
// tombstone of key 4: the right side drops rows at or below the watermark 5 s, batch 2); only
// the snapshot opened as the database it was hides key 4.
TEST_F(SparkRocksDBStore, TombstoneInANewerSstHidesTheOlderKey) {
  auto snap = readRocksDBSnapshot(env_, kRocks + "/join1-4stores-4.0/state/0/2/right-keyToNumValues/4.zip");
  ASSERT_TRUE(snap.ok()) << snap.status().message();
  EXPECT_EQ(snap->metadata.sstFiles.size(), 2u);
  EXPECT_EQ(snap->rows.size(), 1u);
  EXPECT_TRUE(snap->rows.count(intKey(10)));
  EXPECT_FALSE(snap->rows.count(intKey(4)));
}

TEST_F(SparkRocksDBStore, UniqueIdsResolvedThroughTheLineage) {
  // Version 3 of partition 3 (commits/2 names 1cdac062…): no 3_<id>.zip, so its changelog's
  // lineage leads to 2_67f09fbd….zip, then 3_1cdac062….changelog is replayed.
  const std::string dir = kRocks + "/ckptv2-dedup-4.1/state/0/3";
  auto state = readVersion(dir, 3, std::string("1cdac062-90db-4c25-986c-68eecec0c062"));
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->snapshotVersion, 2);
  ASSERT_EQ(state->filesRead.size(), 2u);
  EXPECT_THAT(state->filesRead[0], HasSubstr("2_67f09fbd-c2af-4bf6-a1d0-8bca968ac2e6.zip"));
  EXPECT_THAT(state->filesRead[1], HasSubstr("3_1cdac062-90db-4c25-986c-68eecec0c062.changelog"));
  // An id no file carries is named, not read around.
  auto missing = readVersion(dir, 3, std::string("00000000-0000-0000-0000-000000000000"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("00000000-0000-0000-0000-000000000000"));
  EXPECT_THAT(missing.status().message(), HasSubstr(dir));
}

// ---- Corrupted copies ---------------------------------------------------------------------

TEST_F(SparkRocksDBStore, TruncatedLz4BlockNamesTheChangelog) {
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  std::string path = dir + "/3.changelog";
  std::string raw = read(path);
  write(path, raw.substr(0, raw.size() - 25));  // into the data block: the end block is gone
  auto state = readVersion(dir, 3);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr(path));
  EXPECT_THAT(state.status().message(), HasSubstr("LZ4Block"));
}

// A changelog of two blocks whose second is cut short: the error names the file, the block, and
// the record the cut falls in, with its byte offset in the decompressed stream.
TEST_F(SparkRocksDBStore, TruncatedLz4BlockNamesTheRecordItCuts) {
  // [v2][put k=3 bytes v=2 bytes] in block 0; [put k=1 v=9 …][EOF] in block 1, cut inside.
  std::string first = utf("v2") + '\x01' + be32(3) + "abc" + be32(2) + "xy";
  std::string second = std::string(1, '\x01') + be32(1) + "k" + be32(9) + "123456789" + '\x00';
  auto block = [](const std::string& data) {
    return std::string("LZ4Block") + '\x10' + le32(static_cast<uint32_t>(data.size())) +
           le32(static_cast<uint32_t>(data.size())) + le32(xxhash32(data, 0x9747b28c) & 0x0fffffffu) + data;
  };
  std::string stream = block(first) + block(second);
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  write(dir + "/3.changelog", stream.substr(0, stream.size() - 6));
  auto state = readVersion(dir, 3);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr(dir + "/3.changelog: block 1: bad LZ4Block header"));
  EXPECT_THAT(state.status().message(),
              HasSubstr("the 18 bytes decompressed before it end inside record 1 at byte 18 of the decompressed "
                        "stream: ends inside its record type (no EOF record)"));
}

TEST_F(SparkRocksDBStore, RecordCutShortNamesTheFileAndOffset) {
  // A v2 changelog whose second record ends inside its value: [v2][put k=3 bytes v=2 bytes][put …
  std::string records = utf("v2") + '\x01' + be32(3) + "abc" + be32(2) + "xy" + '\x01' + be32(1) + "k" + be32(9) + "zz";
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  write(dir + "/3.changelog", lz4Block(records));
  auto state = readVersion(dir, 3);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr(dir + "/3.changelog"));
  EXPECT_THAT(state.status().message(), HasSubstr("record 1 at byte 18"));
  EXPECT_THAT(state.status().message(), HasSubstr("ends inside its value"));
}

TEST_F(SparkRocksDBStore, UnknownRecordTypeNamesTheOffset) {
  std::string records = utf("v2") + '\x07' + be32(1) + "k";
  auto log = parseSparkChangelog(records, "x/1.changelog");
  ASSERT_FALSE(log.ok());
  EXPECT_THAT(log.status().message(), HasSubstr("x/1.changelog: record 0 at byte 4"));
  EXPECT_THAT(log.status().message(), HasSubstr("record type 0x07"));
}

TEST_F(SparkRocksDBStore, UnknownChangelogVersionIsSaid) {
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  write(dir + "/3.changelog", lz4Block(utf("v9") + std::string(1, '\0')));
  auto state = readVersion(dir, 3);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr(dir + "/3.changelog"));
  EXPECT_THAT(state.status().message(), HasSubstr("changelog format \"v9\""));
}

TEST_F(SparkRocksDBStore, ZipWithoutMetadataIsSaid) {
  // The entry renamed in place (same length: the CRC still holds): "metadata" -> "metadatx".
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  std::string zip = read(dir + "/2.zip");
  for (size_t pos = zip.find("metadata"); pos != std::string::npos; pos = zip.find("metadata", pos + 1)) zip[pos + 7] = 'x';
  write(dir + "/2.zip", zip);
  auto state = readVersion(dir, 2);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr(dir + "/2.zip"));
  EXPECT_THAT(state.status().message(), HasSubstr("no \"metadata\" entry"));
}

TEST_F(SparkRocksDBStore, SstMissingFromSstsIsNamed) {
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  const std::string sst = "000008-0f086ebd-c188-4508-97d3-9282313b0a97.sst";
  stdfs::remove(dir + "/SSTs/" + sst);
  auto state = readVersion(dir, 2);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr(sst));
  EXPECT_THAT(state.status().message(), HasSubstr(dir + "/2.zip"));
  EXPECT_THAT(state.status().message(), HasSubstr("not in SSTs/"));
}

TEST_F(SparkRocksDBStore, DamagedSstIsNamed) {
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  const std::string sst = dir + "/SSTs/000008-0f086ebd-c188-4508-97d3-9282313b0a97.sst";
  std::string bytes = read(sst);
  bytes[bytes.size() / 3] ^= 0x40;
  write(sst, bytes);
  auto state = readVersion(dir, 2);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr(sst));
}

TEST_F(SparkRocksDBStore, MissingChangelogIsNamed) {
  std::string dir = copyOf("agg-changelog-4.0/state/0/4");
  stdfs::remove(dir + "/3.changelog");
  auto state = readVersion(dir, 3);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(state.status().message(), HasSubstr("needs 3.changelog"));
}

// Every prefix and every single-byte change of a real changelog and a real snapshot zip either
// reads or is refused with Corruption / FailedPrecondition: no crash, no hang, no huge allocation.
TEST_F(SparkRocksDBStore, DamagedBytesAreRefusedNeverACrash) {
  auto refusedOrOk = [](const Status& st) {
    return st.ok() || st.code() == Status::Code::kCorruption || st.code() == Status::Code::kFailedPrecondition;
  };
  std::string logPath = kRocks + "/tws-valuestate-unsaferow-4.0/state/0/0/2.changelog";
  auto data = decodeLz4BlockStream(read(logPath), logPath);
  ASSERT_TRUE(data.ok()) << data.status().message();
  for (size_t n = 0; n <= data->size(); ++n) {
    auto log = parseSparkChangelog(std::string_view(*data).substr(0, n), "c");
    EXPECT_TRUE(refusedOrOk(log.status())) << n << ": " << log.status().message();
    if (n < data->size()) EXPECT_FALSE(log.ok()) << "a changelog cut at byte " << n << " read as whole";
  }
  for (size_t i = 0; i < data->size(); ++i)
    for (unsigned char x : {0x01, 0x80, 0xff}) {
      std::string bad = *data;
      bad[i] = static_cast<char>(bad[i] ^ x);
      EXPECT_TRUE(refusedOrOk(parseSparkChangelog(bad, "c").status())) << i;
    }
  std::string zipPath = kRocks + "/agg-changelog-4.0/state/0/4/4.zip";
  std::string zip = read(zipPath);
  for (size_t n = 0; n < zip.size(); n += 7) {
    auto entries = readZipArchive(std::string_view(zip).substr(0, n), "z");
    EXPECT_TRUE(refusedOrOk(entries.status())) << n << ": " << entries.status().message();
  }
  for (size_t i = 0; i < zip.size(); i += 3) {
    std::string bad = zip;
    bad[i] = static_cast<char>(bad[i] ^ 0xff);
    auto entries = readZipArchive(bad, "z");
    EXPECT_TRUE(refusedOrOk(entries.status())) << i << ": " << entries.status().message();
  }
}

// ---- Rows -----------------------------------------------------------------------------------

TEST_F(SparkRocksDBStore, SchemaV3FromSpark40) {
  // Spark 4.0's v3 file has no schema ids before the key and value schemas (4.1's does).
  std::string path = kRocks +
      "/tws-valuestate-unsaferow-4.0/state/0/_stateSchema/default/0_2e8e6b52-e3c3-4184-b8ef-8d391b75d751";
  auto schema = parseSparkStateSchema(read(path), path);
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  EXPECT_EQ(schema->formatVersion, 3);
  ASSERT_EQ(schema->columnFamilies.size(), 1u);
  const auto& cf = schema->columnFamilies[0];
  EXPECT_EQ(cf.name, "countState");
  EXPECT_EQ(cf.keyEncoder, "NoPrefixKeyStateEncoderSpec");
  ASSERT_EQ(cf.key.size(), 1u);
  EXPECT_EQ(cf.key[0].name, "value");
  ASSERT_EQ(cf.value.size(), 1u);
  EXPECT_EQ(cf.value[0].typeJson, "\"long\"");
}

TEST_F(SparkRocksDBStore, ValueStateRowDecoded) {
  // Partition 0 of the tws fixture at version 1 (its snapshot): countState of key "a" is 1.
  auto state = readVersion(kRocks + "/tws-valuestate-unsaferow-4.0/state/0/0", 1);
  ASSERT_TRUE(state.ok()) << state.status().message();
  ASSERT_TRUE(state->columnFamilyMapping);
  SparkRocksDBLayout layout;
  layout.familyById[1] = "countState";
  SparkColumnFamilySchema cf;
  cf.name = "countState";
  cf.key = {{"value", "\"string\"", true}};
  cf.value = {{"value", "\"long\"", false}};
  cf.keyEncoder = "NoPrefixKeyStateEncoderSpec";
  layout.families["countState"] = cf;
  ASSERT_EQ(state->rows.size(), 1u);
  auto row = decodeSparkRocksDBRow(layout, state->rows.begin()->first, state->rows.begin()->second);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->columnFamily, "countState");
  EXPECT_EQ(row->keyJson, R"({"value":"a"})");
  EXPECT_EQ(row->valueJson, R"({"value":1})");
  // A schema that does not match the bytes: three longs where the row holds one.
  cf.value = {{"a", "\"long\"", false}, {"b", "\"long\"", false}, {"c", "\"long\"", false}};
  layout.families["countState"] = cf;
  auto bad = decodeSparkRocksDBRow(layout, state->rows.begin()->first, state->rows.begin()->second);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("value of countState does not match its schema"));
  // A string whose (offset, size) points outside the row.
  cf.value = {{"s", "\"string\"", false}};
  layout.families["countState"] = cf;
  std::string value = state->rows.begin()->second;
  value[1 + 8 + 4] = 0x40;  // the offset half of the word
  auto outside = decodeSparkRocksDBRow(layout, state->rows.begin()->first, value);
  ASSERT_FALSE(outside.ok());
  EXPECT_THAT(outside.status().message(), HasSubstr("lies outside"));
  // A family id the mapping does not name.
  layout.familyById.clear();
  layout.familyById[2] = "other";
  auto unknown = decodeSparkRocksDBRow(layout, state->rows.begin()->first, state->rows.begin()->second);
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("column family id 1"));
}

TEST(SparkRocksDBRows, ListValuesAndPrefixKeys) {
  // MultiValuedStateEncoder: [4-byte length][version 0 + row] joined by ','; the row here one long.
  auto element = [](int64_t v) {
    std::string row = std::string(1, '\0') + std::string(8, '\0') + le32(static_cast<uint32_t>(v)) + le32(0);
    return le32(static_cast<uint32_t>(row.size())) + row;
  };
  SparkRocksDBLayout layout;
  SparkColumnFamilySchema cf;
  cf.name = "default";
  cf.key = {{"k", "\"long\"", false}, {"u", "\"long\"", false}};
  cf.value = {{"v", "\"long\"", false}};
  cf.keyEncoder = "PrefixKeyScanStateEncoderSpec";
  cf.numColsPrefixKey = 1;
  layout.families["default"] = cf;
  layout.listFamilies.insert("default");
  // PrefixKeyScanStateEncoder: [4-byte prefix length][version + row(k)][version + row(u)].
  std::string k = std::string(1, '\0') + std::string(8, '\0') + le32(7) + le32(0);
  std::string u = std::string(1, '\0') + std::string(8, '\0') + le32(9) + le32(0);
  auto row = decodeSparkRocksDBRow(layout, le32(static_cast<uint32_t>(k.size())) + k + u,
                                   element(1) + "," + element(2));
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->keyJson, R"({"k":7,"u":9})");
  EXPECT_EQ(row->valueJson, R"([{"v":1},{"v":2}])");
}

// RangeKeyScanStateEncoder (timers, TTL index): the ordering column as [marker][big-endian value]
// in a binary field of the prefix row; the other columns in a row after it.
TEST(SparkRocksDBRows, RangeScanKeys) {
  auto be64 = [](int64_t v) {
    std::string out;
    for (int i = 7; i >= 0; --i) out += static_cast<char>(static_cast<uint64_t>(v) >> (8 * i));
    return out;
  };
  auto rangeKey = [&](char marker, int64_t time, const std::string& user) {
    std::string binary = std::string(1, marker) + be64(time);                       // 9 bytes
    std::string prefixRow = std::string(8, '\0') + le32(9) + le32(16) + binary + std::string(7, '\0');
    std::string prefix = std::string(1, '\0') + prefixRow;
    std::string restRow = std::string(8, '\0') + le32(static_cast<uint32_t>(user.size())) + le32(16) + user +
                          std::string(8 - user.size(), '\0');
    return le32(static_cast<uint32_t>(prefix.size())) + prefix + std::string(1, '\0') + restRow;
  };
  SparkRocksDBLayout layout;
  SparkColumnFamilySchema cf;
  cf.name = "default";
  cf.key = {{"expiryTimestampMs", "\"long\"", false}, {"k", "\"string\"", true}};
  cf.value = {};
  cf.keyEncoder = "RangeKeyScanStateEncoderSpec";
  cf.orderingOrdinals = {0};
  layout.families["default"] = cf;
  std::string emptyValue = std::string(1, '\0');  // an empty row: the version byte only
  auto row = decodeSparkRocksDBRow(layout, rangeKey('\x01', 1700000000123, "u1"), emptyValue);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->keyJson, R"({"expiryTimestampMs":1700000000123,"k":"u1"})");
  auto negative = decodeSparkRocksDBRow(layout, rangeKey('\x00', -5, "u2"), emptyValue);
  ASSERT_TRUE(negative.ok()) << negative.status().message();
  EXPECT_EQ(negative->keyJson, R"({"expiryTimestampMs":-5,"k":"u2"})");
  auto bad = decodeSparkRocksDBRow(layout, rangeKey('\x07', 1, "u3"), emptyValue);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("marker 0x07"));
}

// ---- inspect ----------------------------------------------------------------------------------

std::vector<std::string> diagnosesOf(const CheckpointReport& r, DiagnosisKind kind) {
  std::vector<std::string> out;
  for (const auto& d : r.diagnoses)
    if (d.kind == kind) out.push_back(d.message);
  return out;
}

TEST_F(SparkRocksDBStore, InspectNamesTheProviderAndFormat) {
  auto tws = inspectCheckpoint(env_, kRocks + "/tws-valuestate-unsaferow-4.0");
  ASSERT_TRUE(tws.ok()) << tws.status().message();
  EXPECT_EQ(tws->stateStoreProvider,
            "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider");
  EXPECT_EQ(tws->stateCheckpointFormatVersion, 1);  // commits v1, "stateUniqueIds":{}
  EXPECT_THAT(formatReport(*tws), HasSubstr("state store: org.apache.spark.sql.execution.streaming.state."
                                            "RocksDBStateStoreProvider (state checkpoint format v1)"));
  auto dedup = inspectCheckpoint(env_, kRocks + "/ckptv2-dedup-4.1");
  ASSERT_TRUE(dedup.ok()) << dedup.status().message();
  EXPECT_EQ(dedup->stateCheckpointFormatVersion, 2);  // commits v2 with stateUniqueIds
  EXPECT_TRUE(diagnosesOf(*dedup, DiagnosisKind::kMissingStateFile).empty());
  EXPECT_TRUE(diagnosesOf(*dedup, DiagnosisKind::kOrphanedStateFile).empty());
}

TEST_F(SparkRocksDBStore, InspectNamesMissingAndOrphanedStateFiles) {
  std::string root = copyOf("ckptv2-dedup-4.1");
  // Version 4 of partition 1 gone; a file of version 3 under an id no commit names.
  stdfs::remove(root + "/state/0/1/4_e2a4feae-a4e3-4183-b07b-db9b8e0794a5.zip");
  stdfs::remove(root + "/state/0/1/4_e2a4feae-a4e3-4183-b07b-db9b8e0794a5.changelog");
  stdfs::copy_file(root + "/state/0/2/3_ec14cef6-eadb-4493-962c-e108b5b8acae.changelog",
                   root + "/state/0/2/3_11111111-2222-3333-4444-555555555555.changelog");
  auto r = inspectCheckpoint(env_, root);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto missing = diagnosesOf(*r, DiagnosisKind::kMissingStateFile);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_THAT(missing[0], HasSubstr("state/0/1: commits/3 names unique id e2a4feae-a4e3-4183-b07b-db9b8e0794a5 "
                                    "for store version 4"));
  auto orphaned = diagnosesOf(*r, DiagnosisKind::kOrphanedStateFile);
  ASSERT_EQ(orphaned.size(), 1u);
  EXPECT_THAT(orphaned[0], HasSubstr("state/0/2/3_11111111-2222-3333-4444-555555555555.changelog: no commit "
                                     "names unique id 11111111-2222-3333-4444-555555555555"));
  EXPECT_THAT(orphaned[0], HasSubstr("commits/2 names another"));
}

TEST_F(SparkRocksDBStore, InspectNamesAMissingChangelogOfFormatV1) {
  std::string root = copyOf("agg-changelog-4.0");
  stdfs::remove(root + "/state/0/3/3.changelog");  // version 4 = 4.zip: fine; version 3 is not the latest
  stdfs::remove(root + "/state/0/3/4.zip");        // now the latest, 4, needs 2.zip + 3 + 4.changelog
  auto r = inspectCheckpoint(env_, root);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto missing = diagnosesOf(*r, DiagnosisKind::kMissingStateFile);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_THAT(missing[0], HasSubstr("state/0/3: store version 4 (batch 3, the latest committed) needs "
                                    "3.changelog after snapshot 2.zip"));
}

}  // namespace
}  // namespace spark_rocksdb_store_test
}  // namespace streamsim
