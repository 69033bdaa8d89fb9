// User-defined functions (Spark's UDFs: a Python `udf` / `pandas_udf`, `spark.udf.register`):
// functions a query's caller supplies by name, resolved by the analyzer before the built-in ones
// (Spark's UDFRegistration registers a temporary function that replaces one of the same name)
// and evaluated a batch at a time by the caller's code. An immutable table a SqlConf points to
// (sql_conf.h), so every operator of a query sees the same functions; no process-wide state.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::expr {

struct UserFunction {
  // The name Spark shows for a call (the output column is "name(args)"); the table's key is the
  // name the SQL text calls it by.
  std::string displayName;
  Field result;  // the return type (name unused)
  // args[i][r]: argument i of row r (nulls included: a UDF sees them); fills out[0..rows).
  // A failure fails the evaluation (the task) with that Status.
  std::function<Status(const std::vector<std::vector<Value>>& args, size_t rows, std::vector<Value>& out)> eval;
};

class UserFunctions {
 public:
  // `name` is matched case-insensitively, as Spark's function registry.
  void add(std::string_view name, UserFunction f);
  const UserFunction* find(std::string_view name) const;
  bool empty() const { return functions_.empty(); }

 private:
  std::map<std::string, UserFunction> functions_;  // lower-case name ->
};

}  // namespace streamsim::expr
