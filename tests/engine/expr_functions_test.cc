// Time, JSON and collection functions (expr/analyzer.h) against Spark's documented examples and
// edge cases: datetimeExpressions.scala (session time zone, patterns, the batch timestamp),
// jsonExpressions.scala (from_json modes, to_json, get_json_object), collectionOperations.scala
// and complexTypeExtractors.scala (element_at, a[i], size, array_contains, map_keys/values).
#include <gtest/gtest.h>

#include "expr_test_util.h"

namespace streamsim::expr {
namespace {

using test::conditionOf;
using test::evalOne;
using test::evalSql;
using test::legacy;

constexpr TimeMs kT0 = 1767225600000;  // 2026-01-01T00:00:00Z, a Thursday

SqlConf zone(const char* z) {
  SqlConf c;
  EXPECT_TRUE(c.set("spark.sql.session.timeZone", z).ok());
  return c;
}

TEST(ExprTime, CurrentTimestampIsTheBatchTimestamp) {
  auto e = evalSql("current_timestamp()", makeSchema({}), {Row(), Row()}, {}, kT0 + 5);
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.values[0], Value::timestamp(kT0 + 5));
  EXPECT_EQ(e.values[1], Value::timestamp(kT0 + 5));
  EXPECT_EQ(evalSql("now()", makeSchema({}), {Row()}, {}, kT0).values[0], Value::timestamp(kT0));
  EXPECT_EQ(evalSql("current_timestamp", makeSchema({}), {Row()}, {}, kT0).values[0], Value::timestamp(kT0));
  EXPECT_EQ(evalSql("unix_timestamp()", makeSchema({}), {Row()}, {}, kT0).values[0], Value(kT0 / 1000));
}

TEST(ExprTime, ToTimestampWithAndWithoutAPattern) {
  EXPECT_EQ(evalOne("to_timestamp('2026-01-01 00:00:00')"), Value::timestamp(kT0));
  EXPECT_EQ(evalOne("to_timestamp('01/02/2026 13:05', 'MM/dd/yyyy HH:mm')"), Value::timestamp(kT0 + 86400000 + 13 * 3600000 + 5 * 60000));
  EXPECT_EQ(evalOne("to_timestamp('2026-01-01T00:00:00.123+01:00', \"yyyy-MM-dd'T'HH:mm:ss.SSSXXX\")"),
            Value::timestamp(kT0 + 123 - 3600000));
  // A text that does not fit: Spark's CANNOT_PARSE_TIMESTAMP under ANSI, a null otherwise; without
  // a pattern the function is a cast (CAST_INVALID_INPUT).
  EXPECT_EQ(conditionOf("to_timestamp('2026-13-01', 'yyyy-MM-dd')"), "CANNOT_PARSE_TIMESTAMP");
  EXPECT_TRUE(evalOne("to_timestamp('2026-13-01', 'yyyy-MM-dd')", legacy()).isNull());
  EXPECT_EQ(conditionOf("to_timestamp('nope')"), "CAST_INVALID_INPUT");
  EXPECT_TRUE(evalOne("to_timestamp(NULL)").isNull());
  // The session zone reads a text without a zone.
  EXPECT_EQ(evalOne("to_timestamp('2026-01-01 08:00:00')", zone("+08:00")), Value::timestamp(kT0));
  EXPECT_EQ(evalOne("to_timestamp('2026-01-01 08:00', 'yyyy-MM-dd HH:mm')", zone("+08:00")), Value::timestamp(kT0));
}

TEST(ExprTime, FormattingAndFieldsInTheSessionZone) {
  EXPECT_EQ(evalOne("date_format(TIMESTAMP '2026-01-01 00:00:00Z', 'yyyy-MM-dd HH:mm')").asString(), "2026-01-01 00:00");
  EXPECT_EQ(evalOne("date_format(TIMESTAMP '2026-01-01 00:00:00Z', 'yyyy-MM-dd HH:mm')", zone("-05:00")).asString(),
            "2025-12-31 19:00");
  EXPECT_EQ(evalOne("date_format(TIMESTAMP '2026-03-04 05:06:07.089Z', 'EEE d MMM yy hh:mm:ss.SSS a')").asString(),
            "Wed 4 Mar 26 05:06:07.089 AM");
  EXPECT_EQ(evalOne("from_unixtime(0)").asString(), "1970-01-01 00:00:00");
  EXPECT_EQ(evalOne("from_unixtime(0)", zone("+01:00")).asString(), "1970-01-01 01:00:00");
  EXPECT_EQ(evalOne("unix_timestamp('1970-01-01 00:00:10')").asLong(), 10);
  EXPECT_EQ(evalOne("unix_timestamp('1970-01-01 01:00:10')", zone("+01:00")).asLong(), 10);
  EXPECT_EQ(evalOne("year(TIMESTAMP '2026-01-01 00:00:00Z')").asLong(), 2026);
  EXPECT_EQ(evalOne("year(TIMESTAMP '2026-01-01 00:00:00Z')", zone("-01:00")).asLong(), 2025);
  EXPECT_EQ(evalOne("month(TIMESTAMP '2026-03-04 05:06:07Z')").asLong(), 3);
  EXPECT_EQ(evalOne("dayofmonth(TIMESTAMP '2026-03-04 05:06:07Z')").asLong(), 4);
  EXPECT_EQ(evalOne("dayofweek(TIMESTAMP '2026-01-01 00:00:00Z')").asLong(), 5);  // Thursday; 1 = Sunday
  EXPECT_EQ(evalOne("hour(TIMESTAMP '2026-03-04 05:06:07Z')").asLong(), 5);
  EXPECT_EQ(evalOne("minute(TIMESTAMP '2026-03-04 05:06:07Z')").asLong(), 6);
  EXPECT_EQ(evalOne("second(TIMESTAMP '2026-03-04 05:06:07Z')").asLong(), 7);
  EXPECT_EQ(evalOne("quarter(TIMESTAMP '2026-08-04 05:06:07Z')").asLong(), 3);
  EXPECT_EQ(evalOne("hour('2026-03-04 05:06:07')").asLong(), 5);  // a string is cast
}

TEST(ExprTime, DateTruncEpochConversionsAndIntervals) {
  EXPECT_EQ(evalOne("date_trunc('HOUR', TIMESTAMP '2026-01-01 10:35:10Z')"), Value::timestamp(kT0 + 10 * 3600000));
  EXPECT_EQ(evalOne("date_trunc('month', TIMESTAMP '2026-03-04 10:35:10Z')").asLong(), 1772323200000);
  EXPECT_EQ(evalOne("date_trunc('WEEK', TIMESTAMP '2026-01-01 10:35:10Z')"), Value::timestamp(kT0 - 3 * 86400000));
  EXPECT_EQ(evalOne("date_trunc('DAY', TIMESTAMP '2026-01-01 02:00:00Z')", zone("+08:00")), Value::timestamp(kT0 - 8 * 3600000));
  EXPECT_TRUE(evalOne("date_trunc('fortnight', TIMESTAMP '2026-01-01 00:00:00Z')").isNull());
  EXPECT_EQ(evalOne("timestamp_seconds(1767225600)"), Value::timestamp(kT0));
  EXPECT_EQ(evalOne("timestamp_seconds(1.5)"), Value::timestamp(1500));
  EXPECT_EQ(evalOne("timestamp_millis(1767225600000)"), Value::timestamp(kT0));
  EXPECT_EQ(evalOne("unix_millis(TIMESTAMP '2026-01-01 00:00:00Z')").asLong(), kT0);
  EXPECT_EQ(evalOne("TIMESTAMP '2026-01-01 00:00:00Z' + INTERVAL '10' MINUTE"), Value::timestamp(kT0 + 600000));
  EXPECT_EQ(evalOne("TIMESTAMP '2026-01-01 00:00:00Z' - INTERVAL 1 HOUR 30 MINUTES"), Value::timestamp(kT0 - 5400000));
  // DATE is a type (expr_date_binary_test.cc); a date function streamsim lacks is refused by name.
  EXPECT_EQ(evalOne("to_date('2026-01-01')"), Value::date(20454));
  EXPECT_EQ(conditionOf("last_day('2026-01-01')"), "UNSUPPORTED_FEATURE.DATE_TYPE");
}

TEST(ExprJson, FromJsonPermissiveGivesAStructOfNullsForAMalformedRecord) {
  auto schema = *parseSchema("value string");
  std::vector<Row> rows = {Row(schema, {Value("{\"id\": \"a\", \"n\": 3}")}), Row(schema, {Value("oops")}),
                           Row(schema, {Value()})};
  auto e = evalSql("from_json(value, 'id STRING, n INT')", schema, rows);
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.field.type, Type::kStruct);
  EXPECT_EQ(e.values[0].items()[0], Value("a"));
  EXPECT_EQ(e.values[0].items()[1], Value(int32_t{3}));
  ASSERT_EQ(e.values[1].type(), Type::kStruct);
  EXPECT_TRUE(e.values[1].items()[0].isNull());
  EXPECT_TRUE(e.values[2].isNull());
  // The corrupt record column takes the raw text.
  e = evalSql("from_json(value, 'id STRING, _corrupt_record STRING')", schema, {rows[1]});
  EXPECT_EQ(e.values[0].items()[1], Value("oops"));
  // Partial results (JacksonParser, FailureSafeParser): the fields that cast are kept.
  e = evalSql("from_json(value, 'id STRING, n INT')", schema, {Row(schema, {Value("{\"id\": \"a\", \"n\": \"x\"}")})});
  EXPECT_EQ(e.values[0].items()[0], Value("a"));
  EXPECT_TRUE(e.values[0].items()[1].isNull());
  e = evalSql("from_json(value, 'STRUCT<id: STRING>').id", schema, {rows[0]});
  EXPECT_EQ(e.values[0], Value("a"));
}

TEST(ExprJson, FromJsonFailFastAndUnsupportedModes) {
  auto schema = *parseSchema("value string");
  auto e = evalSql("from_json(value, 'id STRING', map('mode', 'FAILFAST'))", schema, {Row(schema, {Value("oops")})});
  ASSERT_EQ(e.status.condition(), "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION");
  EXPECT_EQ(e.status.parameters()[0].second, "oops");
  EXPECT_EQ(conditionOf("from_json('{}', 'id STRING', map('mode', 'DROPMALFORMED'))"), "PARSE_MODE_UNSUPPORTED");
  EXPECT_EQ(conditionOf("from_json('{}', 'id nosuchtype')"), "INVALID_SCHEMA.PARSE_ERROR");
}

// JsonToStructs is ExpectsInputTypes, not ImplicitCastInputTypes (jsonExpressions.scala): a
// Kafka source's BINARY value needs CAST(value AS STRING) first, as in every real Kafka job.
TEST(ExprJson, FromJsonOfBinaryIsATypeMismatchUntilCastToString) {
  auto schema = *parseSchema("value binary");
  std::vector<Row> rows = {Row(schema, {Value::binary("{\"id\": \"a\"}")})};
  auto e = evalSql("from_json(value, 'id STRING')", schema, rows);
  EXPECT_EQ(e.status.condition(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE") << e.status.toString();
  EXPECT_NE(std::string(e.status.message()).find("\"BINARY\""), std::string::npos) << e.status.toString();
  EXPECT_EQ(conditionOf("from_json(1, 'id STRING')"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  e = evalSql("from_json(CAST(value AS STRING), 'id STRING')", schema, rows);
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.values[0].items()[0], Value("a"));
}

TEST(ExprJson, ToJsonAndGetJsonObject) {
  EXPECT_EQ(evalOne("to_json(named_struct('a', 1, 'b', CAST(NULL AS STRING), 'c', array(1, 2)))").asString(),
            "{\"a\":1,\"c\":[1,2]}");
  EXPECT_EQ(evalOne("to_json(map('k', 1.5D))").asString(), "{\"k\":1.5}");
  EXPECT_EQ(evalOne("to_json(named_struct('t', TIMESTAMP '2026-01-01 00:00:00Z'))", zone("+01:00")).asString(),
            "{\"t\":\"2026-01-01T01:00:00.000+01:00\"}");
  EXPECT_EQ(conditionOf("to_json(1)"), "DATATYPE_MISMATCH.INVALID_JSON_SCHEMA");
  EXPECT_EQ(evalOne("get_json_object('{\"a\": {\"b\": [10, {\"c\": \"x\"}]}}', '$.a.b[1].c')").asString(), "x");
  EXPECT_EQ(evalOne("get_json_object('{\"a\": {\"b\": [10, 20]}}', '$.a.b')").asString(), "[10,20]");
  EXPECT_EQ(evalOne("get_json_object('{\"a\": 1}', \"$['a']\")").asString(), "1");
  EXPECT_TRUE(evalOne("get_json_object('{\"a\": 1}', '$.missing')").isNull());
  EXPECT_TRUE(evalOne("get_json_object('not json', '$.a')").isNull());
  EXPECT_TRUE(evalOne("get_json_object('{\"a\": 1}', 'a')").isNull());
}

TEST(ExprCollections, ConstructorsAndAccess) {
  EXPECT_EQ(evalOne("element_at(array(1, 2, 3), 1)").asLong(), 1);
  EXPECT_EQ(evalOne("element_at(array(1, 2, 3), -1)").asLong(), 3);
  EXPECT_EQ(conditionOf("element_at(array(1, 2, 3), 5)"), "INVALID_ARRAY_INDEX_IN_ELEMENT_AT");
  EXPECT_TRUE(evalOne("element_at(array(1, 2, 3), 5)", legacy()).isNull());
  EXPECT_EQ(conditionOf("element_at(array(1), 0)"), "INVALID_INDEX_OF_ZERO");
  EXPECT_EQ(conditionOf("array(1, 2)[2]"), "INVALID_ARRAY_INDEX");
  EXPECT_TRUE(evalOne("array(1, 2)[2]", legacy()).isNull());
  EXPECT_EQ(evalOne("element_at(map('a', 1, 'b', 2), 'b')").asLong(), 2);
  EXPECT_TRUE(evalOne("element_at(map('a', 1), 'z')").isNull());  // a missing key is null, ANSI or not
  EXPECT_EQ(evalOne("map('a', 1)['a']").asLong(), 1);
  EXPECT_EQ(conditionOf("map('a', 1, 'a', 2)"), "DUPLICATED_MAP_KEY");
  EXPECT_EQ(evalOne("size(array(1, 2))").asLong(), 2);
  EXPECT_EQ(evalOne("size(map('a', 1))").asLong(), 1);
  EXPECT_TRUE(evalOne("size(CAST(NULL AS ARRAY<INT>))").isNull());  // ANSI: sizeOfNull off
  EXPECT_EQ(evalOne("size(CAST(NULL AS ARRAY<INT>))", legacy()).asLong(), -1);
  EXPECT_EQ(evalOne("array_contains(array(1, 2), 2)"), Value(true));
  EXPECT_TRUE(evalOne("array_contains(array(1, NULL), 2)").isNull());
  EXPECT_EQ(evalOne("map_keys(map('a', 1, 'b', 2))").items()[1], Value("b"));
  EXPECT_EQ(evalOne("map_values(map('a', 1, 'b', 2))").items()[1].asLong(), 2);
  auto s = evalSql("struct(a, b + 1)", *parseSchema("a int, b int"), {Row(*parseSchema("a int, b int"), {Value(int32_t{1}), Value(int32_t{2})})});
  ASSERT_TRUE(s.status.ok()) << s.status.message();
  EXPECT_EQ(s.field.nested->field(0).name, "a");
  EXPECT_EQ(s.field.nested->field(1).name, "col2");
  EXPECT_EQ(conditionOf("explode(array(1)) + 1"), "UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS");
}

// from_json's options map carries JSONOptions' timestampFormat (keys case-insensitive, as
// JSONOptions' CaseInsensitiveMap): the pattern reads the field; a mismatch is malformed.
TEST(ExprJson, FromJsonReadsTimestampFormatOption) {
  auto schema = *parseSchema("value string");
  std::vector<Row> rows = {Row(schema, {Value("{\"t\": \"05/01/2026 13:45\"}")}),
                           Row(schema, {Value("{\"t\": \"2026-01-05T13:45:00Z\"}")})};
  auto e = evalSql("from_json(value, 't TIMESTAMP', map('TimestampFormat', 'dd/MM/yyyy HH:mm'))", schema, rows);
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.values[0].items()[0], Value::timestamp(1767620700000));
  EXPECT_TRUE(e.values[1].items()[0].isNull());  // PERMISSIVE: not the pattern, so null
  EXPECT_EQ(conditionOf("from_json('{}', 't TIMESTAMP', map('timestampFormat', 'yyyy-bb'))"),
            "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER");
}

}  // namespace
}  // namespace streamsim::expr

