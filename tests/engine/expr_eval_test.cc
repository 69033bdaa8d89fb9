// Evaluation semantics of operators, casts and number/string functions (expr/analyzer.h):
// null propagation, three-valued logic, ANSI errors with Spark's parameters and the legacy
// (spark.sql.ansi.enabled=false) nulls. Spark files followed: catalyst/expressions/
// arithmetic.scala, predicates.scala, Cast.scala, mathExpressions.scala, stringExpressions.scala,
// regexpExpressions.scala, conditionalExpressions.scala, nullExpressions.scala.
#include <cmath>

#include <gtest/gtest.h>

#include "expr_test_util.h"

namespace streamsim::expr {
namespace {

using test::conditionOf;
using test::evalOne;
using test::evalSql;
using test::legacy;

std::string param(const Status& st, const std::string& name) {
  for (const auto& [k, v] : st.parameters())
    if (k == name) return v;
  return "<none>";
}

TEST(ExprEval, NullPropagatesThroughOperatorsAndFunctions) {
  EXPECT_TRUE(evalOne("1 + NULL").isNull());
  EXPECT_TRUE(evalOne("NULL = NULL").isNull());
  EXPECT_EQ(evalOne("NULL <=> NULL"), Value(true));
  EXPECT_TRUE(evalOne("upper(NULL)").isNull());
  EXPECT_TRUE(evalOne("1 IN (2, NULL)").isNull());
  EXPECT_EQ(evalOne("1 IN (1, NULL)"), Value(true));
  EXPECT_EQ(evalOne("coalesce(NULL, NULL, 3)").asLong(), 3);
  EXPECT_EQ(evalOne("concat_ws('-', 'a', NULL, 'b')").asString(), "a-b");
  EXPECT_TRUE(evalOne("concat('a', NULL)").isNull());
}

TEST(ExprEval, ThreeValuedLogic) {
  EXPECT_EQ(evalOne("NULL AND false"), Value(false));
  EXPECT_TRUE(evalOne("NULL AND true").isNull());
  EXPECT_EQ(evalOne("NULL OR true"), Value(true));
  EXPECT_TRUE(evalOne("NULL OR false").isNull());
  EXPECT_TRUE(evalOne("NOT NULL").isNull());
}

TEST(ExprEval, ConditionsSkipTheBranchesTheyDoNotTake) {
  // Spark's And / CaseWhen / Coalesce evaluate lazily: 1/0 on a row that is not taken raises nothing.
  EXPECT_EQ(evalOne("false AND 1 / 0 > 0"), Value(false));
  EXPECT_EQ(evalOne("CASE WHEN true THEN 1 ELSE 1 DIV 0 END").asLong(), 1);
  EXPECT_EQ(evalOne("coalesce(1, 1 DIV 0)").asLong(), 1);
  auto schema = *parseSchema("d int");
  std::vector<Row> rows = {Row(schema, {Value(int32_t{0})}), Row(schema, {Value(int32_t{2})})};
  auto e = evalSql("CASE WHEN d = 0 THEN -1 ELSE 10 DIV d END", schema, rows);
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.values[0].asLong(), -1);
  EXPECT_EQ(e.values[1].asLong(), 5);
}

TEST(ExprEval, ArithmeticTypesFollowSparksCoercion) {
  EXPECT_EQ(evalOne("1 + 1").type(), Type::kInt);
  EXPECT_EQ(evalOne("1 + 1L").type(), Type::kLong);
  EXPECT_EQ(evalOne("1 + 1.5D").type(), Type::kDouble);
  EXPECT_EQ(evalOne("3 / 2"), Value(1.5));  // Divide is fractional: ints become doubles
  EXPECT_EQ(evalOne("7 DIV 2").type(), Type::kLong);
  EXPECT_EQ(evalOne("-7 % 3").asLong(), -1);
  EXPECT_EQ(evalOne("pmod(-7, 3)").asLong(), 2);
  // ANSI string promotion: a string with an integral becomes BIGINT (AnsiStringPromotionTypeCoercion).
  EXPECT_EQ(evalOne("'2' + 1"), Value(int64_t{3}));
  EXPECT_EQ(evalOne("'2' + 1", legacy()), Value(3.0));  // legacy PromoteStrings: double
  EXPECT_EQ(evalOne("'10' > 9"), Value(true));
}

TEST(ExprEval, AnsiOverflowIsArithmeticOverflowLegacyWraps) {
  auto e = evalSql("2147483647 + 1", makeSchema({}), {Row()});
  ASSERT_EQ(e.status.condition(), "ARITHMETIC_OVERFLOW");
  EXPECT_EQ(param(e.status, "message"), "integer overflow");
  EXPECT_EQ(param(e.status, "alternative"), " Use 'try_add' to tolerate overflow and return NULL instead.");
  EXPECT_EQ(param(e.status, "config"), "\"spark.sql.ansi.enabled\"");
  EXPECT_NE(e.status.message().find("integer overflow. Use 'try_add' to tolerate overflow and return NULL instead. "
                                    "If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error."),
            std::string::npos)
      << e.status.message();
  EXPECT_EQ(conditionOf("9223372036854775807L * 2"), "ARITHMETIC_OVERFLOW");
  EXPECT_EQ(evalOne("2147483647 + 1", legacy()).asLong(), -2147483648LL);
}

TEST(ExprEval, DivisionByZeroIsDivideByZeroUnderAnsiNullOtherwise) {
  for (const char* sql : {"1 / 0", "1 DIV 0", "1 % 0", "1.0D / 0", "pmod(1, 0)"}) {
    auto e = evalSql(sql, makeSchema({}), {Row()});
    EXPECT_EQ(e.status.condition(), "DIVIDE_BY_ZERO") << sql;
    EXPECT_EQ(param(e.status, "config"), "\"spark.sql.ansi.enabled\"");
    EXPECT_TRUE(evalOne(sql, legacy()).isNull()) << sql;
  }
}

TEST(ExprEval, CastInvalidInputCarriesSparksParameters) {
  auto e = evalSql("CAST('abc' AS INT)", makeSchema({}), {Row()});
  ASSERT_EQ(e.status.condition(), "CAST_INVALID_INPUT");
  EXPECT_EQ(param(e.status, "expression"), "'abc'");
  EXPECT_EQ(param(e.status, "sourceType"), "\"STRING\"");
  EXPECT_EQ(param(e.status, "targetType"), "\"INT\"");
  EXPECT_NE(e.status.message().find("The value 'abc' of the type \"STRING\" cannot be cast to \"INT\" because it is malformed."),
            std::string::npos);
  EXPECT_TRUE(evalOne("CAST('abc' AS INT)", legacy()).isNull());
  EXPECT_TRUE(evalOne("TRY_CAST('abc' AS INT)").isNull());
  // UTF8String.toIntExact refuses a fraction under ANSI; the legacy cast truncates it.
  EXPECT_EQ(conditionOf("CAST('1.5' AS INT)"), "CAST_INVALID_INPUT");
  EXPECT_EQ(evalOne("CAST('1.5' AS INT)", legacy()).asLong(), 1);
  EXPECT_EQ(evalOne("CAST(' 42 ' AS BIGINT)").asLong(), 42);
  EXPECT_EQ(conditionOf("CAST('x' AS TIMESTAMP)"), "CAST_INVALID_INPUT");
  EXPECT_EQ(conditionOf("CAST('maybe' AS BOOLEAN)"), "CAST_INVALID_INPUT");
  EXPECT_EQ(evalOne("CAST('yes' AS BOOLEAN)"), Value(true));
}

TEST(ExprEval, NarrowingCastsOverflow) {
  auto e = evalSql("CAST(3000000000L AS INT)", makeSchema({}), {Row()});
  ASSERT_EQ(e.status.condition(), "CAST_OVERFLOW");
  EXPECT_EQ(param(e.status, "value"), "3000000000L");
  EXPECT_EQ(evalOne("CAST(3000000000L AS INT)", legacy()).asLong(), -1294967296LL);
  EXPECT_EQ(conditionOf("CAST(1e20 AS BIGINT)"), "CAST_OVERFLOW");
  EXPECT_EQ(evalOne("CAST(1.9D AS INT)").asLong(), 1);
  EXPECT_EQ(evalOne("CAST(-1.9D AS INT)").asLong(), -1);
}

TEST(ExprEval, CastsToStringFollowSpark) {
  EXPECT_EQ(evalOne("CAST(1.0D AS STRING)").asString(), "1.0");
  EXPECT_EQ(evalOne("CAST(1e10 AS STRING)").asString(), "1.0E10");
  EXPECT_EQ(evalOne("CAST(0.0001D AS STRING)").asString(), "1.0E-4");
  EXPECT_EQ(evalOne("CAST(true AS STRING)").asString(), "true");
  EXPECT_EQ(evalOne("CAST(array(1, 2) AS STRING)").asString(), "[1, 2]");
  EXPECT_EQ(evalOne("CAST(TIMESTAMP '2026-01-02 03:04:05.5' AS STRING)").asString(), "2026-01-02 03:04:05.5");
  EXPECT_EQ(evalOne("CAST(TIMESTAMP '2026-01-01 00:00:00' AS BIGINT)").asLong(), 1767225600);
  EXPECT_EQ(evalOne("CAST(1767225600 AS TIMESTAMP)").asLong(), 1767225600000);
}

TEST(ExprEval, SessionTimeZoneShapesTimestampText) {
  SqlConf tz;
  ASSERT_TRUE(tz.set("spark.sql.session.timeZone", "+08:00").ok());
  // The same instant reads 8 hours later in +08:00; a text without a zone is in the session zone.
  EXPECT_EQ(evalOne("CAST(TIMESTAMP '2026-01-01 00:00:00Z' AS STRING)", tz).asString(), "2026-01-01 08:00:00");
  EXPECT_EQ(evalOne("CAST('2026-01-01 08:00:00' AS TIMESTAMP)", tz).asLong(), 1767225600000);
  EXPECT_EQ(evalOne("hour(TIMESTAMP '2026-01-01 00:00:00Z')", tz).asLong(), 8);
  // A region id is read from the Env's tz database when a query starts (time_zone_test.cc).
  ASSERT_TRUE(tz.set("spark.sql.session.timeZone", "America/Los_Angeles").ok());
  EXPECT_EQ(tz.resolveTimeZone(nullptr).condition(), "INVALID_CONF_VALUE.TIME_ZONE");
  EXPECT_EQ(tz.set("spark.sql.session.timeZone", "+25:00").condition(), "INVALID_CONF_VALUE.TIME_ZONE");
}

TEST(ExprEval, NumberFunctions) {
  EXPECT_EQ(evalOne("abs(-3)").asLong(), 3);
  EXPECT_EQ(conditionOf("abs(-2147483648)"), "ARITHMETIC_OVERFLOW");
  EXPECT_EQ(evalOne("round(2.5)"), Value(3.0));
  EXPECT_EQ(evalOne("bround(2.5)"), Value(2.0));
  EXPECT_EQ(evalOne("round(2.675, 2)"), Value(2.68));  // BigDecimal of the decimal string, HALF_UP
  EXPECT_EQ(evalOne("round(1234, -2)").asLong(), 1200);
  EXPECT_EQ(evalOne("floor(-1.5)"), Value(int64_t{-2}));
  EXPECT_EQ(evalOne("ceil(1.2)"), Value(int64_t{2}));
  EXPECT_EQ(evalOne("greatest(1, NULL, 3)").asLong(), 3);
  EXPECT_EQ(evalOne("least(2, 1L)"), Value(int64_t{1}));
  EXPECT_EQ(evalOne("pow(2, 10)"), Value(1024.0));
  EXPECT_EQ(evalOne("sqrt(16)"), Value(4.0));
  EXPECT_TRUE(evalOne("ln(0)").isNull());
  EXPECT_TRUE(evalOne("log1p(-1)").isNull());
  EXPECT_DOUBLE_EQ(evalOne("exp(0)").asDouble(), 1.0);
  EXPECT_DOUBLE_EQ(evalOne("log(2, 8)").asDouble(), 3.0);
  EXPECT_DOUBLE_EQ(evalOne("cos(0)").asDouble(), 1.0);
  EXPECT_DOUBLE_EQ(evalOne("sin(0)").asDouble(), 0.0);
}

TEST(ExprEval, StringFunctions) {
  EXPECT_EQ(evalOne("upper('abc')").asString(), "ABC");
  EXPECT_EQ(evalOne("lower('AbC')").asString(), "abc");
  EXPECT_EQ(evalOne("length('héllo')").asLong(), 5);
  EXPECT_EQ(evalOne("trim('  a b  ')").asString(), "a b");
  EXPECT_EQ(evalOne("ltrim('  a ')").asString(), "a ");
  EXPECT_EQ(evalOne("rtrim(' a  ')").asString(), " a");
  EXPECT_EQ(evalOne("lpad('7', 3, '0')").asString(), "007");
  EXPECT_EQ(evalOne("rpad('ab', 5, 'xy')").asString(), "abxyx");
  EXPECT_EQ(evalOne("lpad('hello', 2)").asString(), "he");
  EXPECT_EQ(evalOne("substring('Spark SQL', 5)").asString(), "k SQL");
  EXPECT_EQ(evalOne("substring('Spark SQL', -3)").asString(), "SQL");
  EXPECT_EQ(evalOne("substring('Spark SQL', 5, 1)").asString(), "k");
  EXPECT_EQ(evalOne("substr('Spark', 0, 2)").asString(), "Sp");
  EXPECT_EQ(evalOne("concat('a', 'b', 'c')").asString(), "abc");
  auto parts = evalOne("split('a,b,,c', ',')");
  ASSERT_EQ(parts.items().size(), 4u);
  EXPECT_EQ(parts.items()[2].asString(), "");
  EXPECT_EQ(evalOne("split('a1b2c', '[0-9]', 2)").items().size(), 2u);
  EXPECT_EQ(evalOne("regexp_extract('100-200', '(\\\\d+)-(\\\\d+)', 2)").asString(), "200");
  EXPECT_EQ(evalOne("regexp_extract('abc', '(x)', 1)").asString(), "");
  EXPECT_EQ(conditionOf("regexp_extract('abc', '(a)', 3)"), "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX");
  EXPECT_EQ(evalOne("regexp_replace('100-200', '(\\\\d+)', 'n$1')").asString(), "n100-n200");
  EXPECT_EQ(evalOne("'Spark' LIKE 'S%k'"), Value(true));
  EXPECT_EQ(evalOne("'Spark' LIKE 'S_ark'"), Value(true));
  EXPECT_EQ(evalOne("'a%b' LIKE 'a\\\\%b'"), Value(true));
  EXPECT_EQ(evalOne("'axb' LIKE 'a\\\\%b'"), Value(false));
  EXPECT_EQ(evalOne("'SPARK' ILIKE 'sp%'"), Value(true));
  EXPECT_EQ(evalOne("'abc123' RLIKE '[0-9]+'"), Value(true));
  EXPECT_EQ(evalOne("startswith('spark', 'sp')"), Value(true));
  EXPECT_EQ(evalOne("endswith('spark', 'rk')"), Value(true));
  EXPECT_EQ(evalOne("contains('spark', 'par')"), Value(true));
  EXPECT_EQ(evalOne("instr('spark', 'ar')").asLong(), 3);
}

TEST(ExprEval, ComparisonsOfDoublesTreatNaNAsSparkDoes) {
  EXPECT_EQ(evalOne("CAST('NaN' AS DOUBLE) = CAST('NaN' AS DOUBLE)"), Value(true));
  EXPECT_EQ(evalOne("CAST('NaN' AS DOUBLE) > 1e308"), Value(true));
  EXPECT_EQ(evalOne("0.0D = -0.0D"), Value(true));
}

TEST(ExprEval, DataTypeMismatchesAreAnalysisErrors) {
  EXPECT_EQ(conditionOf("array(1) + 1"), "DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES");
  EXPECT_EQ(conditionOf("CAST(array(1) AS INT)"), "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION");
  EXPECT_EQ(conditionOf("upper(1, 2)"), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
  EXPECT_EQ(conditionOf("CASE WHEN true THEN 1 ELSE array(1) END"), "DATATYPE_MISMATCH.DATA_DIFF_TYPES");
}

// isnan / nanvl (nullExpressions.scala IsNaN, NaNvl): isnan of null is false, not null; nanvl
// answers its second argument only for a NaN; integers are cast to DOUBLE.
TEST(ExprEval, IsNaNAndNaNvlAsSpark) {
  EXPECT_EQ(evalOne("isnan(CAST('NaN' AS DOUBLE))"), Value(true));
  EXPECT_EQ(evalOne("isnan(1)"), Value(false));
  EXPECT_EQ(evalOne("isnan(CAST(NULL AS DOUBLE))"), Value(false));
  EXPECT_EQ(evalOne("nanvl(CAST('NaN' AS DOUBLE), 2)"), Value(2.0));
  EXPECT_EQ(evalOne("nanvl(1.5D, 2)"), Value(1.5));
  EXPECT_TRUE(evalOne("nanvl(CAST(NULL AS DOUBLE), 2)").isNull());
  EXPECT_TRUE(evalOne("nanvl(CAST('NaN' AS DOUBLE), NULL)").isNull());
}

}  // namespace
}  // namespace streamsim::expr
