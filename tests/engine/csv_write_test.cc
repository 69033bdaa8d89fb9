// The CSV and text writers (engine/src/io/csv_write.cc) as Spark 4.1 writes: UnivocityGenerator
// (sql/catalyst/.../csv/UnivocityGenerator.scala) with CSVOptions.asWriterSettings over
// univocity-parsers' CsvWriter, CSVFileFormat.supportDataType, TextFileFormat.verifySchema and
// TextOutputWriter; and what the CSV reader reads back.
#include <gtest/gtest.h>

#include "streamsim/io/csv_rows.h"

namespace streamsim {
namespace {

std::string csv(const std::string& ddl, const std::vector<std::vector<Value>>& rows,
                const std::map<std::string, std::string>& options = {}) {
  SchemaPtr schema = *parseSchema(ddl);
  std::vector<Row> in;
  for (const auto& r : rows) in.emplace_back(schema, r);
  auto w = CsvRowWriter::make(schema, options);
  EXPECT_TRUE(w.ok()) << w.status().toString();
  return w.ok() ? w->writeFile(in) : "";
}

TEST(CsvWrite, QuotingAsUnivocityWithSparksDefaults) {
  // A separator or line break quotes the value; a quote is escaped with the escape and quoted
  // (escapeQuotes); a backslash alone is written as it is, inside quotes it is escaped.
  EXPECT_EQ(csv("a string, b string", {{Value("x,y"), Value("plain")}}), "\"x,y\",plain\n");
  EXPECT_EQ(csv("a string", {{Value("say \"hi\"")}}), "\"say \\\"hi\\\"\"\n");
  EXPECT_EQ(csv("a string", {{Value("back\\slash")}}), "back\\slash\n");
  EXPECT_EQ(csv("a string", {{Value("a\\,b")}}), "\"a\\\\,b\"\n");
  EXPECT_EQ(csv("a string", {{Value("two\nlines")}}), "\"two\nlines\"\n");
  // A null is nothing, an empty string "" (emptyValue's default); values are trimmed.
  EXPECT_EQ(csv("a string, b string, c string", {{Value(), Value(""), Value("  padded  ")}}), ",\"\",padded\n");
  // univocity's comment character '#' quotes a first value starting with it.
  EXPECT_EQ(csv("a string, b string", {{Value("#tag"), Value("#tag")}}), "\"#tag\",#tag\n");
  // escapeQuotes=false: a quote inside a value does not quote it.
  EXPECT_EQ(csv("a string", {{Value("say \"hi\"")}}, {{"escapeQuotes", "false"}}), "say \"hi\"\n");
}

TEST(CsvWrite, OptionsHeaderSepNullValueQuoteAll) {
  EXPECT_EQ(csv("id string, n int", {{Value("a"), Value(int32_t{1})}, {Value("b"), Value()}},
                {{"header", "true"}, {"sep", ";"}, {"nullValue", "NULL"}}),
            "id;n\na;1\nb;NULL\n");
  EXPECT_EQ(csv("id string, n int", {{Value("a"), Value(int32_t{1})}}, {{"quoteAll", "true"}}), "\"a\",\"1\"\n");
  EXPECT_EQ(csv("a string", {{Value("it's")}}, {{"quote", "'"}}), "'it\\'s'\n");
  auto bad = CsvRowWriter::make(*parseSchema("a string"), {{"sep", "ab"}});
  EXPECT_FALSE(bad.ok());
  auto unknown = CsvRowWriter::make(*parseSchema("a string"), {{"multiLine", "true"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(std::string(unknown.status().message()).find("'multiLine' is not built"), std::string::npos);
}

TEST(CsvWrite, ValuesAsSparkConvertsThem) {
  EXPECT_EQ(csv("d double, t timestamp, b boolean, l long",
                {{Value(1.0), Value::timestamp(1767261600000), Value(true), Value(int64_t{7})},
                 {Value(1e20), Value::timestamp(1767261600250), Value(false), Value(int64_t{-1})}}),
            "1.0,2026-01-01T10:00:00.000Z,true,7\n1.0E20,2026-01-01T10:00:00.250Z,false,-1\n");
}

TEST(CsvWrite, NestedColumnsAreSparksUnsupportedDataType) {
  auto w = CsvRowWriter::make(*parseSchema("id string, tags array<string>"), {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().condition(), "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE");
  EXPECT_NE(std::string(w.status().message()).find("The CSV datasource doesn't support the column `tags`"),
            std::string::npos) << w.status().toString();
}

TEST(CsvWrite, WhatIsWrittenReadsBack) {
  SchemaPtr schema = *parseSchema("id string, note string, n int");
  std::vector<Row> rows = {Row(schema, {Value("a"), Value("x,\"y\""), Value(int32_t{1})}),
                           Row(schema, {Value("b"), Value(), Value(int32_t{2})})};
  std::map<std::string, std::string> options = {{"header", "true"}};
  auto w = CsvRowWriter::make(schema, options);
  ASSERT_TRUE(w.ok());
  auto p = CsvRowParser::make(schema, options, ParseMode::kFailFast, "_corrupt_record");
  ASSERT_TRUE(p.ok());
  std::vector<Row> back;
  ASSERT_TRUE(p->parseFile(w->writeFile(rows), "part.csv", back).ok());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].get("note"), Value("x,\"y\""));
  EXPECT_TRUE(back[1].get("note").isNull());
  EXPECT_EQ(back[1].get("n"), Value(int32_t{2}));
}

// CSVOptions' timestampFormat / dateFormat (Spark's datetime patterns) in the writer and the
// reader; UnivocityParser parses with the given format only (no fallback once it is set).
TEST(CsvWrite, TimestampAndDateFormatsWriteAndReadBack) {
  SchemaPtr schema = *parseSchema("t timestamp, d date");
  std::vector<Row> rows = {Row(schema, {Value::timestamp(1772600767089), Value::date(20516)})};  // 2026-03-04
  std::map<std::string, std::string> options = {{"timestampFormat", "dd/MM/yyyy HH:mm:ss.SSS"},
                                                {"dateFormat", "yyyyMMdd"}};
  auto w = CsvRowWriter::make(schema, options);
  ASSERT_TRUE(w.ok()) << w.status().toString();
  const std::string text = w->writeFile(rows);
  EXPECT_EQ(text, "04/03/2026 05:06:07.089,20260304\n");
  auto p = CsvRowParser::make(schema, options, ParseMode::kFailFast, "_corrupt_record");
  ASSERT_TRUE(p.ok()) << p.status().toString();
  std::vector<Row> back;
  ASSERT_TRUE(p->parseFile(text, "part.csv", back).ok());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].get("t"), Value::timestamp(1772600767089));
  EXPECT_EQ(back[0].get("d"), Value::date(20516));
  // Without the options: Spark's write defaults, and an ISO date reads back.
  auto plain = CsvRowWriter::make(schema, {});
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->writeFile(rows), "2026-03-04T05:06:07.089Z,2026-03-04\n");
  auto isoParser = CsvRowParser::make(schema, {}, ParseMode::kFailFast, "_corrupt_record");
  back.clear();
  ASSERT_TRUE(isoParser->parseFile("2026-03-04T05:06:07.089Z,2026-03-04\n", "p.csv", back).ok());
  EXPECT_EQ(back.at(0).get("d"), Value::date(20516));
  // Another form than the given format is malformed (FAILFAST fails).
  back.clear();
  EXPECT_FALSE(p->parseFile("2026-03-04T05:06:07.089Z,20260304\n", "p.csv", back).ok());
  // A letter Spark does not know is INVALID_DATETIME_PATTERN.
  auto bad = CsvRowWriter::make(schema, {{"timestampFormat", "yyyy-bb"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().toString().find("INVALID_DATETIME_PATTERN"), std::string::npos);
}

TEST(TextWrite, OneStringColumnAsLines) {
  SchemaPtr schema = *parseSchema("value string");
  EXPECT_TRUE(checkTextWriteSchema(*schema).ok());
  EXPECT_EQ(writeTextFile({Row(schema, {Value("a b")}), Row(schema, {Value()}), Row(schema, {Value("c")})}),
            "a b\n\nc\n");
  Status two = checkTextWriteSchema(**parseSchema("a string, b string"));
  EXPECT_EQ(two.condition(), "_LEGACY_ERROR_TEMP_1290");
  EXPECT_NE(std::string(two.message()).find("Text data source supports only a single column, and you have 2 columns."),
            std::string::npos);
  EXPECT_EQ(checkTextWriteSchema(**parseSchema("n int")).condition(), "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE");
}

}  // namespace
}  // namespace streamsim
