// The Spark SQL expression parser and the analyzer's name resolution (expr/parser.h,
// expr/analyzer.h), against Spark's SqlBaseParser.g4 / SqlBaseLexer.g4 (precedence, literal
// typing), AstBuilder (BETWEEN, IS TRUE, <>), and Analyzer/QueryCompilationErrors conditions
// (UNRESOLVED_COLUMN.WITH_SUGGESTION, AMBIGUOUS_REFERENCE, UNRESOLVED_ROUTINE).
#include <gtest/gtest.h>

#include "expr_test_util.h"
#include "streamsim/expr/functions.h"

namespace streamsim::expr {
namespace {

using test::evalOne;
using test::evalSql;

TEST(ExprParser, LiteralTypingFollowsSparksLexer) {
  // SqlBaseLexer.g4: INTEGER_VALUE is INT, beyond INT a BIGINT; 1L BIGINT; 1.5D and exponents
  // DOUBLE; 1.5 is DECIMAL in Spark and DOUBLE in streamsim (no decimal type: parser.h).
  EXPECT_EQ(evalOne("1").type(), Type::kInt);
  EXPECT_EQ(evalOne("2147483648").type(), Type::kLong);
  EXPECT_EQ(evalOne("-2147483648").type(), Type::kInt);
  EXPECT_EQ(evalOne("1L").type(), Type::kLong);
  EXPECT_EQ(evalOne("1.5").type(), Type::kDouble);
  EXPECT_EQ(evalOne("1e3").asDouble(), 1000.0);
  EXPECT_EQ(evalOne("2D").type(), Type::kDouble);
  EXPECT_EQ(evalOne("'it''s'").asString(), "it's");
  EXPECT_EQ(evalOne("\"a\\tb\"").asString(), "a\tb");
  EXPECT_EQ(evalOne("'a' 'b'").asString(), "ab");
  EXPECT_TRUE(evalOne("NULL").isNull());
  EXPECT_EQ(evalOne("TRUE"), Value(true));
  EXPECT_EQ(evalOne("TIMESTAMP '2026-01-01 00:00:01'").asLong(), 1767225601000);
}

TEST(ExprParser, PrecedenceFollowsValueExpressionLevels) {
  EXPECT_EQ(evalOne("1 + 2 * 3").asLong(), 7);
  EXPECT_EQ(evalOne("(1 + 2) * 3").asLong(), 9);
  EXPECT_EQ(evalOne("10 - 4 - 3").asLong(), 3);  // left-associative
  EXPECT_EQ(evalOne("-2 * 3").asLong(), -6);
  EXPECT_EQ(evalOne("7 DIV 2").asLong(), 3);
  EXPECT_EQ(evalOne("7 % 4 + 1").asLong(), 4);
  // Comparison binds looser than arithmetic, NOT looser than comparison, AND than NOT, OR last.
  EXPECT_EQ(evalOne("1 + 1 = 2"), Value(true));
  EXPECT_EQ(evalOne("NOT 1 = 2"), Value(true));
  EXPECT_EQ(evalOne("true OR false AND false"), Value(true));
  EXPECT_EQ(evalOne("1 < 2 AND 2 BETWEEN 1 AND 3"), Value(true));
  EXPECT_EQ(evalOne("2 NOT BETWEEN 1 AND 3"), Value(false));
  EXPECT_EQ(evalOne("'a' || 'b' = 'ab'"), Value(true));
  EXPECT_EQ(evalOne("3 IN (1, 2, 3)"), Value(true));
  EXPECT_EQ(evalOne("3 NOT IN (1, 2)"), Value(true));
  EXPECT_EQ(evalOne("1 <> 2"), Value(true));
  EXPECT_EQ(evalOne("1 != 1"), Value(false));
  EXPECT_EQ(evalOne("NULL IS NULL"), Value(true));
  EXPECT_EQ(evalOne("1 IS NOT NULL"), Value(true));
  EXPECT_EQ(evalOne("NULL IS TRUE"), Value(false));
  EXPECT_EQ(evalOne("NULL IS DISTINCT FROM 1"), Value(true));
  EXPECT_EQ(evalOne("CAST('12' AS INT) + 1").asLong(), 13);
  EXPECT_EQ(evalOne("'12'::int * 2").asLong(), 24);
  EXPECT_EQ(evalOne("CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' ELSE 'c' END").asString(), "b");
  EXPECT_EQ(evalOne("CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END").asString(), "two");
  EXPECT_EQ(evalOne("array(1, 2, 3)[1]").asLong(), 2);
  EXPECT_EQ(evalOne("named_struct('a', 1, 'b', 'x').b").asString(), "x");
}

TEST(ExprParser, SyntaxErrorIsParseSyntaxErrorWithThePosition) {
  int pos = -1;
  auto r = parseExpression("a + * b", &pos);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().condition(), "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(r.status().parameters()[0], (std::pair<std::string, std::string>{"error", "'*'"}));
  EXPECT_EQ(pos, 4);
  r = parseExpression("f(a", &pos);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().parameters()[0].second, "end of input");
  EXPECT_EQ(pos, 3);
  r = parseExpression("'unterminated", &pos);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().condition(), "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(pos, 0);
  EXPECT_EQ(parseExpression("").status().condition(), "PARSE_EMPTY_STATEMENT");
  EXPECT_EQ(parseExpression("CAST(a AS notatype)").status().condition(), "UNSUPPORTED_DATATYPE");
}

TEST(ExprParser, AliasesAndBackquotedNames) {
  auto schema = *parseSchema("`my col` int, qty int, price double");
  Row row(schema, {Value(int32_t{1}), Value(int32_t{3}), Value(2.5)});
  auto e = evalSql("qty * price AS amount", schema, {row});
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.name, "amount");
  EXPECT_EQ(e.values[0], Value(7.5));
  e = evalSql("`my col` + 1 total", schema, {row});
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_EQ(e.name, "total");
  // Spark's generated names: (qty * price), upper(...), the column's own name.
  e = evalSql("qty * price", schema, {row});
  EXPECT_EQ(e.name, "(qty * price)");
  e = evalSql("QTY", schema, {row});
  EXPECT_EQ(e.name, "qty");
}

TEST(ExprAnalyzer, ColumnsResolveCaseInsensitivelyByDefault) {
  auto schema = *parseSchema("Amount int, s struct<Inner: string>");
  Row row(schema, {Value(int32_t{5}), Value::structOf(schema->field(1).nested, {Value("x")})});
  EXPECT_EQ(evalSql("amount", schema, {row}).values[0].asLong(), 5);
  EXPECT_EQ(evalSql("s.inner", schema, {row}).values[0].asString(), "x");
  SqlConf sensitive;
  sensitive.caseSensitive = true;
  EXPECT_EQ(evalSql("amount", schema, {row}, sensitive).status.condition(), "UNRESOLVED_COLUMN.WITH_SUGGESTION");
}

TEST(ExprAnalyzer, UnresolvedColumnSuggestsByLevenshteinDistance) {
  auto schema = *parseSchema("amount int, qty int, price double");
  auto e = evalSql("amout + 1", schema, {});
  ASSERT_EQ(e.status.condition(), "UNRESOLVED_COLUMN.WITH_SUGGESTION");
  EXPECT_EQ(e.status.parameters()[0].second, "`amout`");
  EXPECT_EQ(e.status.parameters()[1].second, "`amount`, `qty`, `price`");
  EXPECT_NE(e.status.message().find("A column, variable, or function parameter with name `amout` cannot be resolved"), std::string::npos)
      << e.status.message();
}

TEST(ExprAnalyzer, AmbiguousReferenceNamesEveryMatch) {
  auto schema = makeSchema({Field{"a", Type::kInt, true, nullptr}, Field{"A", Type::kLong, true, nullptr}});
  auto e = evalSql("a", schema, {});
  ASSERT_EQ(e.status.condition(), "AMBIGUOUS_REFERENCE");
  EXPECT_EQ(e.status.parameters()[1].second, "[`a`, `A`]");
}

TEST(ExprAnalyzer, UnknownFunctionIsUnresolvedRoutineNeverANull) {
  auto e = evalSql("no_such_fn(1)", makeSchema({}), {Row()});
  ASSERT_EQ(e.status.condition(), "UNRESOLVED_ROUTINE");
  EXPECT_EQ(e.status.parameters()[0].second, "`no_such_fn`");
}

TEST(ExprAnalyzer, ColumnApiBuildsTheSameTreeAsTheParser) {
  using functions::col;
  using functions::lit;
  using functions::upper;
  using functions::when;
  auto schema = *parseSchema("qty int, price double, name string");
  Row row(schema, {Value(int32_t{2}), Value(1.5), Value("ab")});
  auto e = test::evalOver((col("qty") * col("price")).alias("amount"), schema, {row});
  ASSERT_TRUE(e.status.ok());
  EXPECT_EQ(e.name, "amount");
  EXPECT_EQ(e.values[0], Value(3.0));
  e = test::evalOver(upper(col("name")), schema, {row});
  EXPECT_EQ(e.values[0], Value("AB"));
  EXPECT_EQ(e.name, "upper(name)");
  e = test::evalOver(when(col("qty") > lit(Value(int32_t{1})), lit(Value("big"))).otherwise(lit(Value("small"))), schema, {row});
  EXPECT_EQ(e.values[0], Value("big"));
  e = test::evalOver(col("qty").isin({lit(Value(int32_t{1})), lit(Value(int32_t{2}))}), schema, {row});
  EXPECT_EQ(e.values[0], Value(true));
  e = test::evalOver(functions::expr("qty +"), schema, {row});
  EXPECT_EQ(e.status.condition(), "PARSE_SYNTAX_ERROR");
  e = test::evalOver(col("qty").cast("string"), schema, {row});
  EXPECT_EQ(e.values[0], Value("2"));
}

}  // namespace
}  // namespace streamsim::expr
