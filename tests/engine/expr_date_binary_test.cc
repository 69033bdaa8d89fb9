// DATE and BINARY in expressions, after Spark's Cast.scala (string / timestamp <-> date in the
// session zone, legacy-only casts, the analysis conditions of refused casts), datetimeExpressions
// .scala (ParseToDate, GetDateField, DateAdd / DateSub / DateDiff, CurrentDate) and
// stringExpressions.scala (Base64 with spark.sql.chunkBase64String.enabled, UnBase64 with Java's
// MIME decoder), with their documented examples.
#include <gtest/gtest.h>

#include "expr_test_util.h"
#include "streamsim/platform/platform.h"

namespace streamsim::expr {
namespace {

using test::conditionOf;
using test::evalOne;
using test::evalSql;
using test::legacy;

int64_t day(int64_t y, unsigned m, unsigned d) { return daysFromCivil(y, m, d); }

TEST(ExprDate, ToDateAndDateCasts) {
  EXPECT_EQ(evalOne("to_date('2009-07-30 04:17:52')"), Value::date(day(2009, 7, 30)));  // documented
  EXPECT_EQ(evalOne("to_date('2016-12-31', 'yyyy-MM-dd')"), Value::date(day(2016, 12, 31)));
  EXPECT_EQ(evalOne("to_date('31/12/2016 23:59', 'dd/MM/yyyy HH:mm')"), Value::date(day(2016, 12, 31)));
  EXPECT_EQ(evalOne("CAST('2026-3-8' AS DATE)"), Value::date(day(2026, 3, 8)));
  EXPECT_EQ(evalOne("CAST('2026-03-08T23:59:59' AS DATE)"), Value::date(day(2026, 3, 8)));
  EXPECT_EQ(evalOne("CAST('2026' AS DATE)"), Value::date(day(2026, 1, 1)));
  EXPECT_EQ(evalOne("CAST(DATE '2026-03-08' AS STRING)").asString(), "2026-03-08");
  EXPECT_EQ(evalOne("CAST(DATE '2026-03-08' AS TIMESTAMP)"), Value::timestamp(day(2026, 3, 8) * 86400000));
  EXPECT_EQ(evalOne("CAST(TIMESTAMP '2026-03-08 23:30:00Z' AS DATE)"), Value::date(day(2026, 3, 8)));
  // stringToDate refuses a day that does not exist: ANSI's CAST_INVALID_INPUT, legacy's null.
  EXPECT_EQ(conditionOf("CAST('2026-02-30' AS DATE)"), "CAST_INVALID_INPUT");
  EXPECT_TRUE(evalOne("CAST('2026-02-30' AS DATE)", legacy()).isNull());
  EXPECT_EQ(conditionOf("to_date('x')"), "CAST_INVALID_INPUT");
  auto typed = evalSql("DATE '2026-13-01'", makeSchema({}), {Row()});
  EXPECT_EQ(typed.status.condition(), "INVALID_TYPED_LITERAL");
  auto named = evalSql("to_date(s)", *parseSchema("s string"), {Row::fromNamed({{"s", Value("2026-01-02")}})});
  EXPECT_EQ(named.name, "to_date(s)");
  EXPECT_EQ(named.values.at(0), Value::date(day(2026, 1, 2)));
}

// Cast.typeCheckFailureMessage: a date is no number under ANSI (UNIX_DATE is suggested); legacy
// casts it to null.
TEST(ExprDate, RefusedCastsNameSparksSuggestion) {
  auto e = evalSql("CAST(DATE '2026-01-01' AS INT)", makeSchema({}), {Row()});
  EXPECT_EQ(e.status.condition(), "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION");
  EXPECT_EQ(e.status.parameter("functionNames"), "`UNIX_DATE`");
  EXPECT_TRUE(evalOne("CAST(DATE '2026-01-01' AS INT)", legacy()).isNull());
  auto bin = evalSql("CAST(1 AS BINARY)", makeSchema({}), {Row()});
  EXPECT_EQ(bin.status.condition(), "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION");
  EXPECT_EQ(evalOne("CAST(1 AS BINARY)", legacy()), Value::binary(std::string("\0\0\0\1", 4)));
  // No DECIMAL type: naming one is an analysis error, never a silent null.
  auto dec = evalSql("CAST(1 AS DECIMAL(10, 2))", makeSchema({}), {Row()});
  EXPECT_EQ(dec.status.condition(), "UNSUPPORTED_DATATYPE") << dec.status.message();
}

// GetDateField on a date (its own calendar), DateFormatClass on a date (its start in the zone).
TEST(ExprDate, DatePartsAndFormattingOfDates) {
  EXPECT_EQ(evalOne("year(DATE '2026-03-08')").asLong(), 2026);
  EXPECT_EQ(evalOne("month(DATE '2026-03-08')").asLong(), 3);
  EXPECT_EQ(evalOne("dayofmonth(DATE '2026-03-08')").asLong(), 8);
  EXPECT_EQ(evalOne("dayofweek(DATE '2026-03-08')").asLong(), 1);  // a Sunday
  EXPECT_EQ(evalOne("dayofyear(DATE '2026-03-08')").asLong(), 67);
  EXPECT_EQ(evalOne("quarter(DATE '2026-03-08')").asLong(), 1);
  EXPECT_EQ(evalOne("hour(DATE '2026-03-08')").asLong(), 0);
  EXPECT_EQ(evalOne("date_format(DATE '2026-03-08', 'yyyy/MM/dd HH:mm')").asString(), "2026/03/08 00:00");
  EXPECT_EQ(evalOne("date_add(DATE '2016-07-30', 1)"), Value::date(day(2016, 7, 31)));  // documented
  EXPECT_EQ(evalOne("date_sub('2016-07-30', 1)"), Value::date(day(2016, 7, 29)));
  EXPECT_EQ(evalOne("datediff('2009-07-31', '2009-07-30')").asLong(), 1);  // documented
  auto now = evalSql("current_date()", makeSchema({}), {Row()}, {}, day(2026, 5, 4) * 86400000 + 5000);
  ASSERT_TRUE(now.status.ok()) << now.status.toString();
  EXPECT_EQ(now.values[0], Value::date(day(2026, 5, 4)));
  EXPECT_EQ(evalSql("make_date(2026, 1, 1)", makeSchema({}), {Row()}).status.condition(), "UNSUPPORTED_FEATURE.DATE_TYPE");
}

// A date is its day in the session zone: 07:30Z on 2026-03-08 is still the 7th in Los Angeles,
// and the 8th starts at 08:00Z (PST).
TEST(ExprDate, DatesFollowTheSessionZone) {
  auto source = platform::newSystemTimeZones();
  SqlConf la;
  ASSERT_TRUE(la.set("spark.sql.session.timeZone", "America/Los_Angeles").ok());
  ASSERT_TRUE(la.resolveTimeZone(source.get()).ok());
  EXPECT_EQ(evalOne("CAST(TIMESTAMP '2026-03-08 07:30:00Z' AS DATE)", la), Value::date(day(2026, 3, 7)));
  EXPECT_EQ(evalOne("CAST(DATE '2026-03-08' AS TIMESTAMP)", la), Value::timestamp(day(2026, 3, 8) * 86400000 + 8 * 3600000));
  EXPECT_EQ(evalOne("year(TIMESTAMP '2027-01-01 07:00:00Z')", la).asLong(), 2026);
}

TEST(ExprBinary, Base64AndUnbase64AsJavasCodecs) {
  EXPECT_EQ(evalOne("base64('Spark SQL')").asString(), "U3BhcmsgU1FM");  // documented
  EXPECT_EQ(evalOne("base64(X'537061726b2053514c')").asString(), "U3BhcmsgU1FM");
  EXPECT_EQ(evalOne("unbase64('U3BhcmsgU1FM')"), Value::binary("Spark SQL"));
  EXPECT_EQ(evalOne("CAST(unbase64('U3BhcmsgU1FM') AS STRING)").asString(), "Spark SQL");
  // The MIME encoder breaks lines every 76 characters.
  std::string b64 = evalOne("base64(lpad('a', 60, 'a'))").asString();
  ASSERT_EQ(b64.size(), 82u);
  EXPECT_EQ(b64.substr(76, 2), "\r\n");
  EXPECT_EQ(evalOne("CAST(unbase64(base64(lpad('a', 60, 'a'))) AS STRING)").asString(), std::string(60, 'a'));
  // The MIME decoder skips what is not base64, and refuses a bad ending.
  EXPECT_EQ(evalOne("unbase64('QQ==')"), Value::binary("A"));
  EXPECT_EQ(evalOne("unbase64('Q Q\\n==')"), Value::binary("A"));
  auto bad = evalSql("unbase64('Q')", makeSchema({}), {Row()});
  EXPECT_EQ(bad.status.code(), Status::Code::kTaskFailed);
  EXPECT_NE(bad.status.message().find("Last unit does not have enough valid bits"), std::string::npos);
  EXPECT_NE(evalSql("unbase64('QQ=')", makeSchema({}), {Row()}).status.message().find("wrong 4-byte ending unit"), std::string::npos);
  EXPECT_TRUE(evalOne("base64(NULL)").isNull());
  EXPECT_EQ(conditionOf("base64(1)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
}

TEST(ExprBinary, BinaryValuesPrintAndSerialiseAsSpark) {
  EXPECT_EQ(Value::binary("Spa").toString(), "[53 70 61]");
  EXPECT_EQ(evalOne("to_json(named_struct('d', DATE '2026-01-02', 'b', X'41'))").asString(), R"({"d":"2026-01-02","b":"QQ=="})");
  EXPECT_EQ(evalOne("CAST(X'41' AS STRING)").asString(), "A");
  EXPECT_EQ(evalOne("CAST('A' AS BINARY)"), Value::binary("A"));
  EXPECT_EQ(Row::fromNamed({{"b", Value::binary("A")}, {"d", Value::date(day(2026, 1, 2))}}).toJson(), R"({"b":"QQ==","d":"2026-01-02"})");
}

}  // namespace
}  // namespace streamsim::expr
