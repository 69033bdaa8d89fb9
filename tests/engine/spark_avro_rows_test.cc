// Spark's Avro-encoded RocksDB state rows (spark.sql.streaming.stateStore.encodingFormat=avro):
// Spark 4.0's golden checkpoint read as it is, and Spark 4.1's frames built byte by byte from its
// source rules — RocksDBStateEncoder.scala's AvroStateEncoder (encodeKey, encodeRemainingKey,
// encodeValue, encodePrefixKeyForRangeScan, encodeWithStateSchemaId, prependVersionByte),
// PrefixKeyScanStateEncoder / RangeKeyScanStateEncoder / MultiValuedStateEncoder (the frames around
// them), StateStoreColumnFamilySchemaUtils.convertForRangeScan, and sql/avro SchemaConverters.
// toAvroTypeWithDefaults (every field a union of null first and its type) — with Avro's binary
// encoding (zig-zag varints, length-prefixed strings, a union as its branch index).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "streamsim/checkpoint/spark_rocksdb_rows.h"
#include "streamsim/checkpoint/spark_rocksdb_store.h"
#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/platform/platform.h"
#include "test_paths.h"

namespace streamsim {
namespace {

namespace stdfs = std::filesystem;
using ::testing::HasSubstr;

const std::string kAvro = std::string(STREAMSIM_FIXTURES_DIR) + "/../spark-rocksdb/tws-valuestate-avro-4.0";

std::string le16(int v) { return {static_cast<char>(v & 0xff), static_cast<char>((v >> 8) & 0xff)}; }
std::string le32(uint32_t v) {
  return {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16), static_cast<char>(v >> 24)};
}
std::string be64(int64_t v) {
  std::string out;
  for (int i = 7; i >= 0; --i) out += static_cast<char>(static_cast<uint64_t>(v) >> (8 * i));
  return out;
}
// Avro binary pieces.
std::string avroLong(int64_t v) {
  auto z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  std::string out;
  while (z >= 0x80) {
    out += static_cast<char>((z & 0x7f) | 0x80);
    z >>= 7;
  }
  return out + static_cast<char>(z);
}
std::string avroBytes(const std::string& b) { return avroLong(static_cast<int64_t>(b.size())) + b; }
const std::string kSome = avroLong(1);  // a toAvroTypeWithDefaults union's value branch (null is 0)
const std::string kNone = avroLong(0);

// AvroStateEncoder's frames (Spark 4.1): the version byte 0, the 2-byte schema id (Platform.putShort:
// little-endian on Spark's platforms), the Avro record.
std::string withId(int id, const std::string& avro) { return std::string(1, '\0') + le16(id) + avro; }

SparkColumnFamilySchema family(const std::string& name, std::vector<SparkField> key, std::vector<SparkField> value,
                               const std::string& encoder = "NoPrefixKeyStateEncoderSpec") {
  SparkColumnFamilySchema cf;
  cf.name = name;
  cf.key = std::move(key);
  cf.value = std::move(value);
  cf.keyEncoder = encoder;
  cf.keySchemaId = 0;
  cf.valueSchemaId = 0;
  return cf;
}

SparkRocksDBLayout avroLayout(const SparkColumnFamilySchema& cf, int id = 1) {
  SparkRocksDBLayout layout;
  layout.encoding = SparkStateEncoding::kAvro;
  layout.familyById[id] = cf.name;
  layout.families[cf.name] = cf;
  return layout;
}

// Spark 4.0's golden checkpoint checkpoint-version-4.0.0-tws-avro (OffsetSeqLogSuite): the same
// query as its -tws-unsaferow twin, so the same rows — "a" counted in batch 0, "a" and "b" in
// batch 1. Its schema file v3 carries no schema ids, and no id is in its bytes: key
// [cf id 1][00][00 02 61] is the version byte, then toAvroType's union of string first (branch 0)
// and "a"; value [02] is Avro alone, the non-nullable long 1.
TEST(SparkAvroRows, Spark40GoldenCheckpointReadsAsItsUnsafeRowTwin) {
  if (!stdfs::exists(kAvro)) GTEST_SKIP() << kAvro << " is not there";
  auto fs = platform::newPosixFileSystem();
  Env env;
  env.fs = fs.get();
  const std::string schemaPath = kAvro + "/state/0/_stateSchema/default/0_6b12d3c5-57e6-4001-8321-3ae63d6be7a0";
  auto schema = parseSparkStateSchema(*fs->read(schemaPath), schemaPath);
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  ASSERT_EQ(schema->columnFamilies.size(), 1u);
  EXPECT_FALSE(schema->columnFamilies[0].keySchemaId.has_value());
  SparkRocksDBLayout layout;
  layout.encoding = SparkStateEncoding::kAvro;
  layout.families["countState"] = schema->columnFamilies[0];
  const std::vector<std::pair<int, std::vector<std::string>>> expected[] = {
      {{0, {R"({"value":"a"}={"value":1})"}}, {1, {}}},
      {{0, {R"({"value":"a"}={"value":2})"}}, {1, {R"({"value":"b"}={"value":1})"}}},
  };
  for (int64_t version = 1; version <= 2; ++version) {
    for (const auto& [partition, rows] : expected[version - 1]) {
      auto folder = listSparkRocksDBFolder(env, kAvro + "/state/0/" + std::to_string(partition));
      ASSERT_TRUE(folder.ok());
      auto state = readSparkRocksDBVersion(env, *folder, version, std::nullopt);
      ASSERT_TRUE(state.ok()) << state.status().message();
      ASSERT_TRUE(state->columnFamilyMapping.has_value());
      layout.familyById = {{state->columnFamilyMapping->at("countState"), "countState"}};
      std::vector<std::string> got;
      for (const auto& [k, v] : state->rows) {
        auto row = decodeSparkRocksDBRow(layout, k, v);
        std::string hex;
        for (unsigned char c : k + "|" + v) hex += fmt::format("{:02x}", c);
        ASSERT_TRUE(row.ok()) << row.status().message() << " (key|value 0x" << hex << ")";
        EXPECT_EQ(row->columnFamily, "countState");
        got.push_back(row->keyJson + "=" + row->valueJson);
      }
      EXPECT_EQ(got, rows) << "partition " << partition << " version " << version;
    }
  }
}

// A ValueState row of Spark 4.1: key {value: string}, value {count: long, seen: boolean}.
TEST(SparkAvroRows, Spark41KeyAndValueWithSchemaIds) {
  auto cf = family("countState", {{"value", "\"string\"", true}},
                   {{"count", "\"long\"", false}, {"seen", "\"boolean\"", true}});
  cf.keySchemaId = 0;
  cf.valueSchemaId = 3;
  auto layout = avroLayout(cf);
  const std::string key = le16(1) + withId(0, kSome + avroBytes("a"));
  const std::string value = withId(3, kSome + avroLong(-42) + kNone);
  auto row = decodeSparkRocksDBRow(layout, key, value);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->keyJson, R"({"value":"a"})");
  EXPECT_EQ(row->valueJson, R"({"count":-42,"seen":null})");

  // A value written under another schema id than the schema file read records.
  auto evolved = decodeSparkRocksDBRow(layout, key, withId(4, kSome + avroLong(1) + kNone));
  ASSERT_FALSE(evolved.ok());
  EXPECT_THAT(evolved.status().message(), HasSubstr("value schema id 4"));
  EXPECT_THAT(evolved.status().message(), HasSubstr("records id 3 for countState's value"));

  // Bytes that do not match the schema: the record ends inside the long; a bad union branch.
  auto cut = decodeSparkRocksDBRow(layout, key, withId(3, kSome + "\x80"));
  ASSERT_FALSE(cut.ok());
  EXPECT_THAT(cut.status().message(), HasSubstr("value of countState (value) does not match its schema"));
  EXPECT_THAT(cut.status().message(), HasSubstr("a varint runs past the end"));
  auto branch = decodeSparkRocksDBRow(layout, key, withId(3, avroLong(2) + avroLong(1) + kNone));
  ASSERT_FALSE(branch.ok());
  EXPECT_THAT(branch.status().message(), HasSubstr("count: union branch 2"));
  auto extra = decodeSparkRocksDBRow(layout, key, value + "z");
  ASSERT_FALSE(extra.ok());
  EXPECT_THAT(extra.status().message(), HasSubstr("1 bytes left after the record of 2 field(s)"));
  auto noVersion = decodeSparkRocksDBRow(layout, key, "\x05" + value.substr(1));
  ASSERT_FALSE(noVersion.ok());
  EXPECT_THAT(noVersion.status().message(), HasSubstr("encoder version byte 5"));
}

// Nested types as toAvroTypeWithDefaults writes them: a struct field a union with null of a record
// whose fields are unions again; an array a union of its blocks, primitive items bare; a map the
// same with string keys; a decimal a fixed of minBytesForPrecision bytes; a date an int of days.
TEST(SparkAvroRows, Spark41NestedTypes) {
  auto cf = family("s", {{"k", "\"integer\"", false}},
                   {{"p", R"({"type":"struct","fields":[{"name":"x","type":"double","nullable":true}]})", true},
                    {"xs", R"({"type":"array","elementType":"long","containsNull":true})", true},
                    {"m", R"({"type":"map","keyType":"string","valueType":"string","valueContainsNull":true})", true},
                    {"d", "\"decimal(5,2)\"", true},
                    {"day", "\"date\"", true}});
  auto layout = avroLayout(cf);
  std::string dbl = be64(0);  // 1.5 little-endian
  double v = 1.5;
  std::memcpy(dbl.data(), &v, 8);
  const std::string value = withId(0, kSome + kSome + dbl +                                   // p = {x: 1.5}
                                           kSome + avroLong(2) + avroLong(7) + avroLong(-8) + avroLong(0) +  // xs
                                           kSome + avroLong(1) + avroBytes("a") + avroBytes("b") + avroLong(0) +  // m
                                           kSome + std::string("\xff\xfe\x0c", 3) +  // -500 unscaled: -5.00
                                           kSome + avroLong(1));                     // 1970-01-02
  auto row = decodeSparkRocksDBRow(layout, le16(1) + withId(0, kSome + avroLong(3)), value);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->keyJson, R"({"k":3})");
  EXPECT_EQ(row->valueJson, R"({"d":"-5.00","day":"1970-01-02","m":{"a":"b"},"p":{"x":1.5},"xs":[7,-8]})");
}

// MapState (PrefixKeyScanStateEncoderSpec, numColsPrefixKey 1): [4-byte length][version byte +
// Avro prefix, no schema id][version byte + schema id + Avro of the remaining columns]; and
// ListState values (MultiValuedStateEncoder): [4-byte length][version + id + Avro] joined by ','.
TEST(SparkAvroRows, Spark41MapKeysAndListValues) {
  auto cf = family("m", {{"key", R"({"type":"struct","fields":[{"name":"value","type":"string","nullable":true}]})", true},
                         {"userKey", R"({"type":"struct","fields":[{"name":"value","type":"long","nullable":true}]})", true}},
                   {{"value", "\"long\"", true}}, "PrefixKeyScanStateEncoderSpec");
  cf.numColsPrefixKey = 1;
  auto layout = avroLayout(cf, 2);
  const std::string prefix = std::string(1, '\0') + kSome + kSome + avroBytes("g");
  const std::string key = le16(2) + le32(static_cast<uint32_t>(prefix.size())) + prefix +
                          withId(0, kSome + kSome + avroLong(11));
  auto row = decodeSparkRocksDBRow(layout, key, withId(0, kSome + avroLong(5)));
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->keyJson, R"({"key":{"value":"g"},"userKey":{"value":11}})");
  EXPECT_EQ(row->valueJson, R"({"value":5})");

  auto list = family("l", {{"value", "\"string\"", true}}, {{"value", "\"long\"", true}});
  auto listLayout = avroLayout(list, 3);
  listLayout.listFamilies.insert("l");
  auto element = [](int64_t v) {
    std::string e = withId(0, kSome + avroLong(v));
    return le32(static_cast<uint32_t>(e.size())) + e;
  };
  auto listRow = decodeSparkRocksDBRow(listLayout, le16(3) + withId(0, kSome + avroBytes("k")),
                                       element(1) + "," + element(300));
  ASSERT_TRUE(listRow.ok()) << listRow.status().message();
  EXPECT_EQ(listRow->valueJson, R"([{"value":1},{"value":300}])");
}

// Timers ($procTimers_keyToTimestamp: RangeKeyScanStateEncoderSpec over {key, expiryTimestampMs},
// ordering ordinal 1) and a TTL index: the ordering columns as an Avro record of (marker, value)
// pairs, each a union of null and bytes; then the remaining columns with the schema id.
TEST(SparkAvroRows, Spark41RangeScanKeys) {
  auto cf = family("$procTimers_keyToTimestamp",
                   {{"key", R"({"type":"struct","fields":[{"name":"value","type":"string","nullable":true}]})", true},
                    {"expiryTimestampMs", "\"long\"", false}},
                   {}, "RangeKeyScanStateEncoderSpec");
  cf.orderingOrdinals = {1};
  auto layout = avroLayout(cf, 4);
  auto timerKey = [&](char marker, int64_t at, const std::string& user) {
    const std::string prefix = std::string(1, '\0') + kSome + avroBytes(std::string(1, marker)) + kSome + avroBytes(be64(at));
    return le16(4) + le32(static_cast<uint32_t>(prefix.size())) + prefix + withId(0, kSome + kSome + avroBytes(user));
  };
  const std::string emptyValue = withId(0, "");
  auto row = decodeSparkRocksDBRow(layout, timerKey('\x01', 1700000000123, "a"), emptyValue);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->keyJson, R"({"expiryTimestampMs":1700000000123,"key":{"value":"a"}})");
  auto negative = decodeSparkRocksDBRow(layout, timerKey('\x00', -5, "b"), emptyValue);
  ASSERT_TRUE(negative.ok()) << negative.status().message();
  EXPECT_EQ(negative->keyJson, R"({"expiryTimestampMs":-5,"key":{"value":"b"}})");
  auto bad = decodeSparkRocksDBRow(layout, timerKey('\x07', 1, "c"), emptyValue);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("marker 0x07"));

  // Spark 4.0's layout (no schema ids) of a range-scan key is not guessed at.
  cf.keySchemaId.reset();
  cf.valueSchemaId.reset();
  auto old = avroLayout(cf, 4);
  auto refused = decodeSparkRocksDBRow(old, timerKey('\x01', 1, "a"), emptyValue);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(), HasSubstr("Spark 4.0's Avro encoding of a range-scan key is not read"));
}

}  // namespace
}  // namespace streamsim
