// The Parquet writer and reader (engine/include/streamsim/io/parquet.h), checked against the
// Apache Parquet format spec (apache/parquet-format README.md "File format" and "Nested
// Encoding", Encodings.md, LogicalTypes.md) and against files other writers wrote
// (tests/fixtures/parquet/: apache/parquet-testing's data/, see its README.md there).
#include "streamsim/io/parquet.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_paths.h"

namespace streamsim {
namespace {

std::string fixture(const std::string& name) {
  std::string path = std::string(STREAMSIM_SOURCE_DIR) + "/tests/fixtures/parquet/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ParquetContents read(const std::string& name) {
  std::string bytes = fixture(name);
  auto r = readParquet(bytes, name);
  EXPECT_TRUE(r.ok()) << r.status().toString();
  return r.ok() ? *r : ParquetContents{};
}

std::vector<Value> column(const ParquetContents& c, std::string_view name) {
  std::vector<Value> out;
  for (const Row& r : c.rows) out.push_back(r.get(name));
  return out;
}

SchemaPtr schemaOf(std::string_view ddl) {
  auto s = parseSchema(ddl);
  EXPECT_TRUE(s.ok()) << s.status().toString();
  return *s;
}

Value arr(std::vector<Value> v) { return Value::arrayOf(std::move(v)); }

std::vector<Row> roundTrip(const SchemaPtr& schema, const std::vector<Row>& rows, ParquetCodec codec) {
  auto bytes = writeParquet(*schema, rows, codec);
  EXPECT_TRUE(bytes.ok()) << bytes.status().toString();
  if (!bytes.ok()) return {};
  EXPECT_EQ(bytes->substr(0, 4), "PAR1");
  EXPECT_EQ(bytes->substr(bytes->size() - 4), "PAR1");
  auto back = readParquet(*bytes, "roundtrip.parquet");
  EXPECT_TRUE(back.ok()) << back.status().toString();
  if (!back.ok()) return {};
  EXPECT_EQ(back->schema->toDDL(), schema->toDDL());
  return back->rows;
}

// --- files other writers wrote ----------------------------------------------------------------

// parquet-testing alltypes_plain.parquet (Impala; PLAIN, uncompressed, INT96 timestamps,
// BYTE_ARRAY without a STRING annotation: Spark reads binary unless binaryAsString).
TEST(ParquetReadFixtures, AlltypesPlainFromImpala) {
  ParquetContents c = read("alltypes_plain.parquet");
  ASSERT_EQ(c.rows.size(), 8u);
  EXPECT_EQ(c.schema->toDDL(),
            "id int, bool_col boolean, tinyint_col int, smallint_col int, int_col int, bigint_col long, "
            "float_col double, double_col double, date_string_col binary, string_col binary, timestamp_col timestamp");
  std::vector<Value> ids;
  for (int v : {4, 5, 6, 7, 2, 3, 0, 1}) ids.emplace_back(int32_t{v});
  EXPECT_EQ(column(c, "id"), ids);
  EXPECT_EQ(column(c, "bool_col")[0], Value(true));
  EXPECT_EQ(column(c, "bool_col")[1], Value(false));
  EXPECT_EQ(column(c, "bigint_col")[1], Value(int64_t{10}));
  EXPECT_EQ(column(c, "float_col")[1], Value(static_cast<double>(1.1f)));  // FLOAT widened
  EXPECT_EQ(column(c, "double_col")[1], Value(10.1));
  EXPECT_EQ(column(c, "date_string_col")[0], Value::binary("03/01/09"));
  EXPECT_EQ(column(c, "date_string_col")[6], Value::binary("01/01/09"));
  EXPECT_EQ(column(c, "string_col")[1], Value::binary("1"));
  // INT96: 2009-03-01T00:00:00 and 00:01:00 (the Julian day and the nanoseconds of the day).
  EXPECT_EQ(column(c, "timestamp_col")[0], Value::timestamp(1235865600000));
  EXPECT_EQ(column(c, "timestamp_col")[1], Value::timestamp(1235865660000));
}

// The same rows SNAPPY-compressed (its 2 rows are ids 6 and 7).
TEST(ParquetReadFixtures, AlltypesPlainSnappy) {
  ParquetContents c = read("alltypes_plain.snappy.parquet");
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_EQ(column(c, "id"), (std::vector<Value>{int32_t{6}, int32_t{7}}));
  EXPECT_EQ(column(c, "date_string_col")[0], Value::binary("04/01/09"));
  EXPECT_EQ(column(c, "double_col")[1], Value(10.1));
}

// PLAIN_DICTIONARY pages: a dictionary page, then RLE/bit-packed indices (Encodings.md).
TEST(ParquetReadFixtures, AlltypesDictionary) {
  ParquetContents c = read("alltypes_dictionary.parquet");
  ASSERT_EQ(c.rows.size(), 2u);
  EXPECT_EQ(column(c, "id"), (std::vector<Value>{int32_t{0}, int32_t{1}}));
  EXPECT_EQ(column(c, "bigint_col"), (std::vector<Value>{int64_t{0}, int64_t{10}}));
  EXPECT_EQ(column(c, "string_col"), (std::vector<Value>{Value::binary("0"), Value::binary("1")}));
}

// Written by Spark 3.4.3 (parquet-mr 1.13.1): INT96 timestamps, one null (int96_from_spark.md
// gives the values as microseconds; the engine keeps milliseconds).
TEST(ParquetReadFixtures, Int96FromSpark) {
  ParquetContents c = read("int96_from_spark.parquet");
  EXPECT_NE(c.createdBy.find("parquet-mr"), std::string::npos);
  ASSERT_EQ(c.rows.size(), 6u);
  EXPECT_EQ(c.schema->toDDL(), "a timestamp");
  EXPECT_EQ(column(c, "a"), (std::vector<Value>{Value::timestamp(1704141296123), Value::timestamp(1704070800000),
                                                Value::timestamp(253402225200000), Value::timestamp(1735599600000),
                                                Value(), Value::timestamp(9089380393200000)}));
}

// Spark's INT96 conversion wraps (DateTimeUtils.toJulianDay/fromJulianDay): the year 290000
// written by streamsim reads back, as Spark's own file does.
TEST(ParquetRoundTrip, Int96TimestampsAtTheEdgesOfTheRange) {
  auto schema = schemaOf("t timestamp");
  std::vector<Row> rows;
  for (int64_t ms : {int64_t{9089380393200000}, int64_t{-62135596800000}, int64_t{0}, int64_t{-1}})
    rows.emplace_back(schema, std::vector<Value>{Value::timestamp(ms)});
  std::vector<Row> back = roundTrip(schema, rows, ParquetCodec::kSnappy);
  ASSERT_EQ(back.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back[i][0], rows[i][0]) << i;
}

// The legacy two-level list (LogicalTypes.md backward-compatibility rules): [[1, 2], [3, 4]]
// (old_list_structure.md, parquet-java 1.14.3).
TEST(ParquetReadFixtures, OldTwoLevelListStructure) {
  ParquetContents c = read("old_list_structure.parquet");
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0][0], arr({arr({int32_t{1}, int32_t{2}}), arr({int32_t{3}, int32_t{4}})}));
}

// pyarrow's three-level lists with null elements and a null list.
TEST(ParquetReadFixtures, ListColumnsFromPyarrow) {
  ParquetContents c = read("list_columns.parquet");
  EXPECT_EQ(c.schema->toDDL(), "int64_list array<long>, utf8_list array<string>");
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0][0], arr({int64_t{1}, int64_t{2}, int64_t{3}}));
  EXPECT_EQ(c.rows[0][1], arr({"abc", "efg", "hij"}));
  EXPECT_EQ(c.rows[1][0], arr({Value(), int64_t{1}}));
  EXPECT_EQ(c.rows[1][1], Value());
}

// Data pages v2 (levels not compressed, values SNAPPY): a null FLOAT whose values part is
// empty, which must not be handed to Snappy (parquet-testing README).
TEST(ParquetReadFixtures, DataPageV2EmptySnappyValues) {
  ParquetContents c = read("datapage_v2_empty_datapage.snappy.parquet");
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.schema->field(0).type, Type::kDouble);
  EXPECT_EQ(c.rows[0][0], Value());
}

// datapage_v2.snappy.parquet's column b is DELTA_BINARY_PACKED: refused, naming the column.
TEST(ParquetReadFixtures, UnreadEncodingNamesTheColumn) {
  std::string bytes = fixture("datapage_v2.snappy.parquet");
  auto r = readParquet(bytes, "datapage_v2.snappy.parquet");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "datapage_v2.snappy.parquet: offset 104: column 'b' is encoded DELTA_BINARY_PACKED, which streamsim's "
            "Parquet reader does not read (PLAIN, dictionaries, RLE booleans; docs/python.md)");
}

// Files with nested groups, maps and repeated fields from Impala, parquet-mr and pyarrow all
// read without an error, every row of the schema's width.
TEST(ParquetReadFixtures, NestedFilesOfOtherWritersRead) {
  for (const char* name : {"nested_lists.snappy.parquet", "nullable.impala.parquet", "nulls.snappy.parquet",
                           "repeated_no_annotation.parquet", "rle_boolean_encoding.parquet"}) {
    ParquetContents c = read(name);
    EXPECT_FALSE(c.rows.empty()) << name;
    for (const Row& r : c.rows) EXPECT_EQ(r.size(), c.schema->size()) << name;
  }
}

// GZIP pages (Compression.md: GZIP is RFC 1952; one gzip member per page): a file the parquet
// sink wrote with compression=gzip (tests/fixtures/parquet/README.md), read back with its values.
TEST(ParquetReadFixtures, GzipPagesFromTheSinksGzipCodec) {
  std::string bytes = fixture("gzip_from_streamsim.gz.parquet");
  size_t members = 0;
  for (size_t at = bytes.find("\x1f\x8b\x08"); at != std::string::npos; at = bytes.find("\x1f\x8b\x08", at + 1)) ++members;
  EXPECT_EQ(members, 3u);  // one data page per column
  auto r = readParquet(bytes, "gzip_from_streamsim.gz.parquet");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->schema->toDDL(), "k string, n long, xs array<int>");
  ASSERT_EQ(r->rows.size(), 3u);
  EXPECT_EQ(r->rows[0].values(), (std::vector<Value>{"a", int64_t{1}, arr({int32_t{1}, Value(), int32_t{3}})}));
  EXPECT_EQ(r->rows[1].values(), (std::vector<Value>{Value(), int64_t{-5}, arr({})}));
  EXPECT_EQ(r->rows[2].values(), (std::vector<Value>{"c", Value(), Value()}));
}

// A type streamsim does not model is refused by name (UINT_64: Spark reads decimal(20, 0)).
TEST(ParquetReadFixtures, UnreadTypeNamesTheColumn) {
  std::string bytes = fixture("concatenated_gzip_members.parquet");
  auto r = readParquet(bytes, "concatenated_gzip_members.parquet");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(r.status().message().find("concatenated_gzip_members.parquet: column"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("unsigned 64-bit"), std::string::npos) << r.status().message();
}

// --- round trips ----------------------------------------------------------------------------

TEST(ParquetRoundTrip, FlatColumnsWithNullsBothCodecs) {
  auto schema = schemaOf("b boolean, i int, l long, d double, s string, bin binary, dt date, t timestamp, "
                         "req long NOT NULL");
  std::vector<Row> rows = {
      Row(schema, {true, int32_t{-7}, int64_t{1} << 40, 2.5, "héllo", Value::binary(std::string("\0\xff", 2)),
                   Value::date(19000), Value::timestamp(1704141296123), int64_t{1}}),
      Row(schema, {Value(), Value(), Value(), Value(), Value(), Value(), Value(), Value(), int64_t{2}}),
      Row(schema, {false, int32_t{0}, int64_t{-1}, -0.0, "", Value::binary(""), Value::date(-1),
                   Value::timestamp(-1), int64_t{3}}),  // before 1970: floor division
  };
  for (ParquetCodec codec : {ParquetCodec::kUncompressed, ParquetCodec::kSnappy, ParquetCodec::kGzip}) {
    std::vector<Row> back = roundTrip(schema, rows, codec);
    ASSERT_EQ(back.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back[i].values(), rows[i].values()) << i;
  }
}

// Regression: parquet_fuzz_nan_roundtrip (CI of stop 49, tests/fuzz/parquet_fuzz.cc): NaN doubles
// (any payload) read back equal to what was written, as Spark's SQL equality has it.
TEST(ParquetRoundTrip, NaNDoublesReadBackEqual) {
  auto schema = schemaOf("d double, n double");
  std::vector<Row> rows = {
      Row(schema, {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN()}),
      Row(schema, {std::numeric_limits<double>::infinity(), Value()}),
  };
  std::vector<Row> back = roundTrip(schema, rows, ParquetCodec::kSnappy);
  ASSERT_EQ(back.size(), rows.size());
  EXPECT_TRUE(std::isnan(back[0].values()[0].asDouble()));
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(back[i].values(), rows[i].values()) << i;
}

TEST(ParquetRoundTrip, NestedStructsListsMapsWithNullsAndEmpties) {
  auto schema = schemaOf("s struct<a: int, inner: struct<x: string, ys: array<long>>>, "
                         "xs array<array<int>>, m map<string, array<int>>, ls array<struct<k: string, v: int>>");
  auto inner = schema->field(0).nested->field(1).nested;
  auto sSchema = schema->field(0).nested;
  auto elem = schema->field(3).nested->field(0).nested;
  auto m = [](std::vector<std::pair<Value, Value>> e) { return *Value::mapOf(std::move(e)); };
  std::vector<Row> rows = {
      Row(schema, {Value::structOf(sSchema, {int32_t{1}, Value::structOf(inner, {"x", arr({int64_t{1}, Value()})})}),
                   arr({arr({int32_t{1}, int32_t{2}}), arr({}), Value(), arr({int32_t{3}})}),
                   m({{"a", arr({int32_t{1}})}, {"b", Value()}, {"c", arr({})}}),
                   arr({Value::structOf(elem, {"k", int32_t{1}}), Value(), Value::structOf(elem, {Value(), Value()})})}),
      Row(schema, {Value(), Value(), Value(), Value()}),
      Row(schema, {Value::structOf(sSchema, {Value(), Value()}), arr({}), m({}), arr({})}),
      Row(schema, {Value::structOf(sSchema, {int32_t{2}, Value::structOf(inner, {Value(), arr({})})}),
                   arr({Value()}), m({{"z", Value()}}), arr({Value()})}),
  };
  for (ParquetCodec codec : {ParquetCodec::kUncompressed, ParquetCodec::kSnappy, ParquetCodec::kGzip}) {
    std::vector<Row> back = roundTrip(schema, rows, codec);
    ASSERT_EQ(back.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
      EXPECT_EQ(back[i].values(), rows[i].values()) << i << ": " << back[i].toString() << " vs " << rows[i].toString();
  }
}

// Spark's standard layout (SparkToParquetSchemaConverter with writeLegacyFormat=false): the
// LIST group's repeated group "list" and its "element", the MAP's "key_value".
TEST(ParquetRoundTrip, WritesSparksStandardListAndMapLayout) {
  auto schema = schemaOf("xs array<int>, m map<string, int>");
  auto bytes = writeParquet(*schema, {Row(schema, {arr({int32_t{1}}), *Value::mapOf({{"k", int32_t{2}}})})});
  ASSERT_TRUE(bytes.ok());
  for (const char* name : {"spark_schema", "list", "element", "key_value", "key", "value"})
    EXPECT_NE(bytes->find(name), std::string::npos) << name;
}

TEST(ParquetRoundTrip, EmptyRowsWriteAFileWithNoRowGroup) {
  auto schema = schemaOf("a int");
  std::vector<Row> back = roundTrip(schema, {}, ParquetCodec::kSnappy);
  EXPECT_TRUE(back.empty());
}

TEST(ParquetWrite, NullInANonNullableColumnIsAnError) {
  auto schema = schemaOf("a int NOT NULL");
  auto bytes = writeParquet(*schema, {Row(schema, {Value()})});
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("column 'a' is not nullable"), std::string::npos) << bytes.status().message();
}

TEST(ParquetWrite, CodecNamesAreSparks) {
  EXPECT_EQ(*parseParquetCodec("SNAPPY"), ParquetCodec::kSnappy);
  EXPECT_EQ(*parseParquetCodec("none"), ParquetCodec::kUncompressed);
  EXPECT_EQ(*parseParquetCodec("uncompressed"), ParquetCodec::kUncompressed);
  EXPECT_EQ(*parseParquetCodec("GZIP"), ParquetCodec::kGzip);
  EXPECT_EQ(parquetCodecFileInfix(ParquetCodec::kGzip), ".gz");  // CompressionCodecName.GZIP's extension
  EXPECT_NE(parseParquetCodec("zstd").status().message().find("does not"), std::string::npos);
  EXPECT_NE(parseParquetCodec("foo").status().message().find("Codec [foo] is not available"), std::string::npos);
}

// --- bad files: an error naming the file, the offset and what was expected, never a crash ---

TEST(ParquetReadErrors, TruncatedFileNamesTheMissingMagic) {
  std::string bytes = fixture("alltypes_plain.parquet");
  auto r = readParquet(bytes.substr(0, bytes.size() - 10), "cut.parquet");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "cut.parquet: offset 1837: expected the Parquet magic \"PAR1\" at the end of the file (a truncated file?)");
  auto tiny = readParquet("PAR1", "tiny.parquet");
  ASSERT_FALSE(tiny.ok());
  EXPECT_NE(tiny.status().message().find("tiny.parquet: offset 0: expected the Parquet magic"), std::string::npos);
}

TEST(ParquetReadErrors, EveryTruncationAndEveryFlippedByteFailsCleanly) {
  // Every prefix of a real file (with its tail kept, so the footer is found) and every single
  // byte changed: an error or a result, never a crash or a hang (run under ASan in CI).
  for (const char* name : {"alltypes_plain.snappy.parquet", "list_columns.parquet", "int96_from_spark.parquet"}) {
    std::string bytes = fixture(name);
    for (size_t cut = 0; cut < bytes.size(); cut += 7) {
      std::string broken = bytes.substr(0, cut) + bytes.substr(std::min(bytes.size(), cut + 13));
      auto r = readParquet(broken, name);
      if (!r.ok()) {
        EXPECT_NE(r.status().message().find(name), std::string::npos) << r.status().message();
      }
    }
    for (size_t i = 0; i < bytes.size(); ++i) {
      std::string broken = bytes;
      broken[i] = static_cast<char>(broken[i] ^ 0x5a);
      auto r = readParquet(broken, name);
      if (!r.ok()) {
        EXPECT_NE(r.status().message().find(name), std::string::npos) << r.status().message();
      }
    }
  }
}

TEST(ParquetReadErrors, GarbledFooterNamesItsOffset) {
  auto schema = schemaOf("a int");
  std::string bytes = *writeParquet(*schema, {Row(schema, {int32_t{5}})});
  // Replace the footer's first byte (the FileMetaData's first field header) with a bad type id.
  uint32_t len;
  std::memcpy(&len, bytes.data() + bytes.size() - 8, 4);
  size_t footer = bytes.size() - 8 - len;
  bytes[footer] = static_cast<char>(0x1d);  // field delta 1, type 13 (no such type)
  auto r = readParquet(bytes, "g.parquet");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            fmt::format("g.parquet: offset {}: expected a Thrift compact type id (1-12), found 13 (Thrift compact protocol)",
                        footer + 1));
}

}  // namespace
}  // namespace streamsim
