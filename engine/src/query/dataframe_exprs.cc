// DataFrame's expression operators (query.h): each a factory of an ops/expr_ops.h operator.
#include "streamsim/expr/functions.h"
#include "streamsim/ops/expr_ops.h"
#include "streamsim/query.h"

namespace streamsim {

DataFrame DataFrame::select(std::vector<expr::Column> columns) const {
  return transform([columns] { return makeProjectOperator(columns, "select"); });
}

DataFrame DataFrame::selectExpr(std::vector<std::string> expressions) const {
  std::vector<expr::Column> cols;
  for (const auto& e : expressions) cols.push_back(functions::expr(e));
  return transform([cols] { return makeProjectOperator(cols, "selectExpr"); });
}

DataFrame DataFrame::where(expr::Column condition) const {
  return transform([condition] { return makeWhereOperator(condition); });
}

DataFrame DataFrame::where(std::string_view condition) const { return where(functions::expr(condition)); }

DataFrame DataFrame::withColumn(std::string name, expr::Column value) const {
  return transform([name, value] { return makeWithColumnOperator(name, value); });
}

DataFrame DataFrame::withColumnRenamed(std::string existing, std::string newName) const {
  return transform([existing, newName] { return makeWithColumnRenamedOperator(existing, newName); });
}

DataFrame DataFrame::drop(std::vector<std::string> columns) const {
  return transform([columns] { return makeDropOperator(columns); });
}

}  // namespace streamsim
