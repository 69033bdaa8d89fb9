#include "streamsim/io/json_rows.h"

#include <cmath>

#include <gtest/gtest.h>

namespace streamsim {
namespace {

SchemaPtr schemaOf(std::string_view ddl) {
  auto s = parseSchema(ddl);
  EXPECT_TRUE(s.ok()) << s.status().toString();
  return *s;
}

TEST(JsonRows, ParsesTypedColumnsAndIgnoresUnknownKeys) {
  auto schema = schemaOf("id string, n long, i int, d double, b boolean, t timestamp");
  auto rows = parseJsonLines(
      R"({"id":"a","n":5,"i":7,"d":1.5,"b":true,"t":"2026-01-01T00:00:00Z","extra":[1,2]})"
      "\n",
      schema);
  ASSERT_TRUE(rows.ok()) << rows.status().toString();
  ASSERT_EQ(rows->size(), 1u);
  const Row& r = (*rows)[0];
  EXPECT_EQ(r.get("id"), Value("a"));
  EXPECT_EQ(r.get("n").type(), Type::kLong);
  EXPECT_EQ(r.get("n").asLong(), 5);
  EXPECT_EQ(r.get("i").type(), Type::kInt);
  EXPECT_EQ(r.get("d").asDouble(), 1.5);
  EXPECT_TRUE(r.get("b").asBool());
  EXPECT_EQ(r.get("t").type(), Type::kTimestamp);
  EXPECT_EQ(r.get("t").asLong(), *parseTimestamp("2026-01-01T00:00:00Z"));
}

TEST(JsonRows, NumericTimestampIsEpochSecondsLikeSpark) {
  auto rows = parseJsonLines(R"({"t":1700000000})", schemaOf("t timestamp"));
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0].get("t").asLong(), int64_t{1700000000} * 1000);
}

TEST(JsonRows, MissingAndNullKeysAreNull) {
  auto rows = parseJsonLines(R"({"a":null})", schemaOf("a long, b string"));
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE((*rows)[0].get("a").isNull());
  EXPECT_TRUE((*rows)[0].get("b").isNull());
}

TEST(JsonRows, NonStringTokensInStringColumnKeepTheirJsonText) {
  auto rows = parseJsonLines(R"({"s":{"x":[1, 2.50, "q"],"y":null}, "n":3})", schemaOf("s string, n string"));
  ASSERT_TRUE(rows.ok()) << rows.status().toString();
  EXPECT_EQ((*rows)[0].get("s"), Value(R"({"x":[1,2.50,"q"],"y":null})"));
  EXPECT_EQ((*rows)[0].get("n"), Value("3"));
}

TEST(JsonRows, BlankLinesAndCrlfAreSkipped) {
  auto rows = parseJsonLines("{\"a\":1}\r\n\n   \n{\"a\":2}", schemaOf("a long"));
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[1].get("a").asLong(), 2);
}

TEST(JsonRows, PermissiveGivesNullsAndTheRawLineInCorruptRecord) {
  auto schema = schemaOf("a long, _corrupt_record string");
  auto rows = parseJsonLines("{\"a\":1}\n{\"a\":\"x\"}\n{broken\n", schema);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_TRUE((*rows)[0].get("_corrupt_record").isNull());
  EXPECT_TRUE((*rows)[1].get("a").isNull());
  EXPECT_EQ((*rows)[1].get("_corrupt_record"), Value("{\"a\":\"x\"}"));
  EXPECT_EQ((*rows)[2].get("_corrupt_record"), Value("{broken"));
}

TEST(JsonRows, PermissiveWithoutCorruptColumnGivesAllNullRow) {
  auto rows = parseJsonLines("[1,2]\n", schemaOf("a long"));
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_TRUE((*rows)[0].get("a").isNull());
}

TEST(JsonRows, DropMalformedDropsBadLines) {
  JsonReadOptions opts;
  opts.mode = ParseMode::kDropMalformed;
  JsonParseStats stats;
  auto parser = JsonRowParser::make(schemaOf("a int"), opts);
  ASSERT_TRUE(parser.ok());
  std::vector<Row> out;
  ASSERT_TRUE(parser->parseLines("{\"a\":1}\n{\"a\":1.5}\n{\"a\":99999999999}\n7\n{\"a\":4}", "f", out, &stats).ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].get("a").asLong(), 4);
  EXPECT_EQ(stats.malformed, 3);
  EXPECT_EQ(stats.lines, 5);
}

TEST(JsonRows, FailFastNamesFileLineAndContent) {
  JsonReadOptions opts;
  opts.mode = ParseMode::kFailFast;
  auto rows = parseJsonLines("{\"t\":\"2026-01-01T00:00:00Z\"}\n\n{\"t\":\"yesterday\"}\n",
                             schemaOf("t timestamp"), opts, "/landing/a.json");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), Status::Code::kInvalidArgument);
  const std::string& m = rows.status().message();
  EXPECT_NE(m.find("/landing/a.json:3"), std::string::npos) << m;
  EXPECT_NE(m.find("{\"t\":\"yesterday\"}"), std::string::npos) << m;
  EXPECT_NE(m.find("FAILFAST"), std::string::npos) << m;
}

TEST(JsonRows, CorruptRecordColumnMustBeString) {
  auto p = JsonRowParser::make(schemaOf("a long, _corrupt_record long"));
  EXPECT_FALSE(p.ok());
}

TEST(JsonRows, ModeNamesParseCaseInsensitively) {
  EXPECT_EQ(*parseParseMode("failFast"), ParseMode::kFailFast);
  EXPECT_EQ(*parseParseMode("DROPMALFORMED"), ParseMode::kDropMalformed);
  EXPECT_FALSE(parseParseMode("lenient").ok());
}

TEST(JsonRows, DoubleAcceptsNonNumericStrings) {
  auto rows = parseJsonLines(R"({"d":"NaN"})" "\n" R"({"d":"-Infinity"})", schemaOf("d double"));
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(std::isnan((*rows)[0].get("d").asDouble()));
  EXPECT_TRUE(std::isinf((*rows)[1].get("d").asDouble()));
}

TEST(JsonRows, WriteThenReadRoundTrips) {
  auto schema = schemaOf("id string, n long, t timestamp, d double");
  std::vector<Row> rows{Row(schema, {Value("a\"b"), Value(int64_t{3}), Value::timestamp(1500), Value(2.25)}),
                        Row(schema, {Value("c"), Value(), Value::timestamp(0), Value(0.5)})};
  std::string text = toJsonLines(rows);
  auto back = parseJsonLines(text, schema);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0], rows[0]);
  EXPECT_EQ((*back)[1], rows[1]);
}

}  // namespace
}  // namespace streamsim
