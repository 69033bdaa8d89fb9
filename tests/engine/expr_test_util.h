// Helpers for the expression tests: evaluate a Spark SQL expression string over rows.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "streamsim/expr/analyzer.h"
#include "streamsim/expr/parser.h"

namespace streamsim::expr::test {

struct Evaluated {
  Status status;
  std::vector<Value> values;
  Field field;
  std::string name;
};

inline Evaluated evalOver(const Column& c, const SchemaPtr& schema, const std::vector<Row>& rows,
                          const SqlConf& conf = {}, TimeMs batchTs = 0) {
  Evaluated out;
  auto compiled = analyze(c, *schema, conf);
  if (!compiled.ok()) {
    out.status = compiled.status();
    return out;
  }
  out.field = compiled->field();
  out.name = compiled->name();
  std::vector<const Row*> ptrs;
  for (const auto& r : rows) ptrs.push_back(&r);
  EvalContext ctx{&conf, batchTs};
  out.status = compiled->evaluate(ptrs, ctx, out.values);
  return out;
}

inline Evaluated evalSql(const std::string& sql, const SchemaPtr& schema, const std::vector<Row>& rows,
                         const SqlConf& conf = {}, TimeMs batchTs = 0) {
  auto parsed = parseExpression(sql);
  if (!parsed.ok()) return Evaluated{parsed.status(), {}, {}, {}};
  return evalOver(*parsed, schema, rows, conf, batchTs);
}

// One literal-only expression's value; FAILs the test on an error.
inline Value evalOne(const std::string& sql, const SqlConf& conf = {}) {
  auto e = evalSql(sql, makeSchema({}), {Row()}, conf);
  EXPECT_TRUE(e.status.ok()) << sql << ": " << e.status.message();
  return e.values.empty() ? Value() : e.values[0];
}

// The condition of evaluating `sql` (empty when it succeeds).
inline std::string conditionOf(const std::string& sql, const SqlConf& conf = {}) {
  auto e = evalSql(sql, makeSchema({}), {Row()}, conf);
  return e.status.ok() ? std::string() : std::string(e.status.condition());
}

inline SqlConf legacy() {
  SqlConf c;
  c.ansi = false;
  return c;
}

}  // namespace streamsim::expr::test
