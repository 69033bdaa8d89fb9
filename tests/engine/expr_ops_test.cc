// The expression operators (ops/expr_ops.h) and DataFrame's select/selectExpr/where/withColumn/
// withColumnRenamed/drop, as Spark's Project, Generate and Filter behave: generated names,
// withColumn replacing in place, generators with the other columns repeated, the batch timestamp,
// SQL settings from the writer's options.
#include <gtest/gtest.h>

#include "streamsim/expr/functions.h"
#include "streamsim/ops/expr_ops.h"
#include "streamsim/query.h"

namespace streamsim {
namespace {

using functions::col;
using functions::expr;
using functions::lit;

Result<std::vector<Row>> run(std::unique_ptr<Operator> op, std::vector<Row> rows, expr::SqlConf conf = {},
                             TimeMs batchTs = 0) {
  OperatorStartContext sctx;
  sctx.sqlConf = conf;
  STREAMSIM_RETURN_IF_ERROR(op->start(sctx));
  BatchContext ctx;
  ctx.batchTimestampMs = batchTs;
  return op->process(std::move(rows), ctx);
}

SchemaPtr orders() { return *parseSchema("id string, qty int, price double, tags array<string>"); }

Row order(const char* id, int qty, double price, std::vector<Value> tags) {
  return Row(orders(), {Value(id), Value(int32_t{qty}), Value(price), Value::arrayOf(std::move(tags))});
}

TEST(ExprOps, SelectWithExpressionsNamesColumnsAsSpark) {
  auto out = run(makeProjectOperator({col("id"), col("qty") * col("price"), expr("upper(id) AS up")}),
                 {order("a", 2, 1.5, {})});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const Row& r = (*out)[0];
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r.schema()->field(1).name, "(qty * price)");
  EXPECT_EQ(r.get("(qty * price)"), Value(3.0));
  EXPECT_EQ(r.get("up"), Value("A"));
}

TEST(ExprOps, StarAndStructStarExpand) {
  auto out = run(makeProjectOperator({col("*"), lit(Value(int32_t{1})).alias("one")}), {order("a", 2, 1.5, {})});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].size(), 5u);
  auto s = *parseSchema("e struct<x: int, y: string>");
  Row r(s, {Value::structOf(s->field(0).nested, {Value(int32_t{1}), Value("b")})});
  out = run(makeProjectOperator({expr("e.*")}), {r});
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)[0].get("y"), Value("b"));
}

TEST(ExprOps, WhereKeepsOnlyTrueRows) {
  auto out = run(makeWhereOperator(expr("qty > 1 AND price IS NOT NULL")),
                 {order("a", 2, 1.5, {}), order("b", 1, 1.0, {}),
                  Row(orders(), {Value("c"), Value(int32_t{5}), Value(), Value()})});
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].get("id"), Value("a"));
  auto bad = run(makeWhereOperator(expr("qty + 1")), {order("a", 2, 1.5, {})});
  EXPECT_EQ(bad.status().condition(), "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN");
}

TEST(ExprOps, WithColumnReplacesInPlaceOrAppends) {
  auto out = run(makeWithColumnOperator("QTY", expr("qty * 10")), {order("a", 2, 1.5, {})});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].schema()->field(1).name, "QTY");
  EXPECT_EQ((*out)[0][1], Value(int32_t{20}));
  out = run(makeWithColumnsOperator({"total", "qty"}, {expr("qty * price"), expr("qty + 1")}), {order("a", 2, 1.5, {})});
  ASSERT_TRUE(out.ok());
  // withColumns analyses every value against the input: total uses the old qty.
  EXPECT_EQ((*out)[0].get("total"), Value(3.0));
  EXPECT_EQ((*out)[0].get("qty"), Value(int32_t{3}));
  out = run(makeWithColumnRenamedOperator("price", "unit_price"), {order("a", 2, 1.5, {})});
  EXPECT_EQ((*out)[0].schema()->field(2).name, "unit_price");
  out = run(makeWithColumnRenamedOperator("absent", "x"), {order("a", 2, 1.5, {})});
  EXPECT_EQ((*out)[0].schema()->toDDL(), orders()->toDDL());  // Spark: a no-op
  out = run(makeDropOperator({"tags", "absent"}), {order("a", 2, 1.5, {})});
  EXPECT_EQ((*out)[0].size(), 3u);
}

TEST(ExprOps, ExplodeRepeatsTheOtherColumnsOuterKeepsEmptyRows) {
  std::vector<Row> in = {order("a", 1, 1, {Value("x"), Value("y")}), order("b", 1, 1, {})};
  auto out = run(makeProjectOperator({col("id"), expr("explode(tags) AS tag")}), in);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[1].get("tag"), Value("y"));
  EXPECT_EQ((*out)[1].get("id"), Value("a"));
  out = run(makeProjectOperator({expr("posexplode_outer(tags)"), col("id")}), in);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 3u);
  EXPECT_EQ((*out)[0].schema()->field(0).name, "pos");
  EXPECT_EQ((*out)[0].schema()->field(1).name, "col");
  EXPECT_TRUE((*out)[2].get("col").isNull());
  EXPECT_EQ((*out)[2].get("id"), Value("b"));
  auto m = *parseSchema("m map<string, int>");
  auto mv = Value::mapOf({{Value("k"), Value(int32_t{1})}});
  out = run(makeProjectOperator({expr("explode(m)")}), {Row(m, {*mv})});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].get("key"), Value("k"));
  EXPECT_EQ((*out)[0].get("value"), Value(int32_t{1}));
  auto two = run(makeProjectOperator({expr("explode(tags)"), expr("explode(tags)")}), in);
  EXPECT_EQ(two.status().condition(), "UNSUPPORTED_GENERATOR.MULTI_GENERATOR");
}

TEST(ExprOps, CurrentTimestampIsTheBatchTimestampAndConfApplies) {
  auto out = run(makeProjectOperator({expr("current_timestamp() AS t")}), {order("a", 1, 1, {})}, {}, 1234);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].get("t"), Value::timestamp(1234));
  auto bad = run(makeProjectOperator({expr("CAST(id AS INT)")}), {order("a", 1, 1, {})});
  EXPECT_EQ(bad.status().condition(), "CAST_INVALID_INPUT");
  expr::SqlConf legacy;
  ASSERT_TRUE(legacy.set("spark.sql.ansi.enabled", "false").ok());
  out = run(makeProjectOperator({expr("CAST(id AS INT) AS n")}), {order("a", 1, 1, {})}, legacy);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE((*out)[0].get("n").isNull());
}

TEST(ExprOps, AParseErrorFailsStartAndANameErrorTheBatch) {
  auto op = makeProjectOperator({expr("qty +")});
  EXPECT_EQ(op->start(OperatorStartContext{}).condition(), "PARSE_SYNTAX_ERROR");
  auto out = run(makeProjectOperator({expr("qtty")}), {order("a", 1, 1, {})});
  EXPECT_EQ(out.status().condition(), "UNRESOLVED_COLUMN.WITH_SUGGESTION");
}

TEST(ExprOps, ProjectedFieldsGiveTheOutputSchemaStatically) {
  int idx = -1, pos = -1;
  auto f = projectedFields({expr("id"), expr("explode(tags) AS tag"), expr("qty * 2 AS q2")}, *orders(), {}, &idx, &pos);
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_EQ(f->size(), 3u);
  EXPECT_EQ((*f)[1].name, "tag");
  EXPECT_EQ((*f)[2].type, Type::kInt);
  f = projectedFields({expr("id"), expr("qty + nope")}, *orders(), {}, &idx, &pos);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(idx, 1);
  EXPECT_EQ(pos, 6);
}

}  // namespace
}  // namespace streamsim

namespace streamsim {
namespace {

// The C++ example of docs/scenarios.md "Expressions", built as written (one operator per call).
TEST(ExprOps, TheDocumentedDataFrameExampleBuilds) {
  using namespace functions;  // NOLINT: as the example reads
  auto df = readStream(SourceFactory{})
                .select({from_json(col("value"), "id STRING, qty INT, price DOUBLE").alias("e")})
                .selectExpr({"e.*"})
                .withColumn("amount", col("qty") * col("price"))
                .where(col("amount") > lit(0.0))
                .drop({"price"});
  EXPECT_EQ(df.operators().size(), 5u);
  auto op = df.operators()[3]();
  EXPECT_EQ(op->name().rfind("where((amount > ", 0), 0u) << op->name();
}

// Dataset.union (CheckAnalysis, WidenSetOperationTypes): by position, the first input's names,
// types widened (ANSI: INT with BIGINT is BIGINT, STRING with INT is BIGINT; legacy: STRING),
// NUM_COLUMNS_MISMATCH and INCOMPATIBLE_COLUMN_TYPE with Spark's parameters. A row cast to the
// widened type keeps the output's name (regression: it was named "CAST(amount AS BIGINT)").
TEST(ExprOps, UnionIsByPositionWithSparksWideningAndConditions) {
  auto a = *parseSchema("device string, amount int");
  auto b = *parseSchema("device_id string, n bigint");
  auto u = unionByPositionSchema({*a, *b}, {});
  ASSERT_TRUE(u.ok()) << u.status().toString();
  EXPECT_EQ(u->toDDL(), "device string, amount long");
  auto s = *parseSchema("x string, y string");
  EXPECT_EQ(unionByPositionSchema({*a, *s}, {})->toDDL(), "device string, amount long");
  EXPECT_EQ(unionByPositionSchema({*a, *s}, expr::SqlConf{.ansi = false})->toDDL(), "device string, amount string");
  auto c = *parseSchema("device string");
  EXPECT_EQ(unionByPositionSchema({*a, *c}, {}).status().condition(), "NUM_COLUMNS_MISMATCH");
  EXPECT_EQ(unionByPositionSchema({*a, *c}, {}).status().parameters(),
            (ErrorParams{{"operator", "UNION"}, {"firstNumColumns", "2"}, {"invalidOrdinalNum", "second"}, {"invalidNumColumns", "1"}}));
  auto m = *parseSchema("device string, amount array<int>");
  EXPECT_EQ(unionByPositionSchema({*a, *m}, {}).status().condition(), "INCOMPATIBLE_COLUMN_TYPE");
  auto out = run(makeUnionByPositionOperator(*u), {Row(a, {Value("d1"), Value(int32_t{5})}), Row(b, {Value("d2"), Value(int64_t{7})})});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  for (const Row& r : *out) EXPECT_EQ(r.schema()->toDDL(), "device string, amount long");
  EXPECT_EQ((*out)[0].get("amount"), Value(int64_t{5}));
  EXPECT_EQ((*out)[1].get("device"), Value("d2"));
}

}  // namespace
}  // namespace streamsim
