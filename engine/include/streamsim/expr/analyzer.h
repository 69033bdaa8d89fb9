// Analysis and evaluation of expressions (Spark's Analyzer + the expressions' eval): a Column is
// resolved against an input Schema (column names by spark.sql.caseSensitive, struct fields,
// functions by name, Spark's type coercion) into a CompiledExpr that evaluates a batch of rows
// column at a time. Errors are Spark's conditions (spark_errors.h): UNRESOLVED_COLUMN,
// AMBIGUOUS_REFERENCE, UNRESOLVED_ROUTINE, DATATYPE_MISMATCH at analysis; CAST_INVALID_INPUT,
// DIVIDE_BY_ZERO, ARITHMETIC_OVERFLOW, ... at evaluation (ANSI mode). A CompiledExpr is
// immutable and may be evaluated from several threads.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "streamsim/expr/column.h"
#include "streamsim/expr/sql_conf.h"
#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim::expr {

// What one evaluation may read besides the rows: the settings and the batch's timestamp
// (current_timestamp() / now(), fixed for the whole batch as Spark's micro-batch plans it).
struct EvalContext {
  const SqlConf* conf = nullptr;
  TimeMs batchTimestampMs = 0;
  // The query run's random seed (runSeedOf(run id)): unseeded rand() / randn() / uuid() start
  // from it, as Spark's from the seed its analyzer drew when the query started.
  int64_t runSeed = 0;
};
// The random seed of a query run: a stable hash of its run id.
int64_t runSeedOf(std::string_view runId);

class Bound;  // src/expr/bound.h

class CompiledExpr {
 public:
  CompiledExpr() = default;
  explicit CompiledExpr(std::shared_ptr<const Bound> bound, std::string name);
  // The output column: the alias, the column's own name, or Spark's generated name for the
  // expression ("(qty * price)", "upper(name)").
  const std::string& name() const { return name_; }
  // The result type (Field::type / nested) and whether it may be null.
  const Field& field() const;
  // Evaluates over `rows` (all of the schema this was analysed against): out[i] for rows[i].
  Status evaluate(std::span<const Row* const> rows, const EvalContext& ctx,
                  std::vector<Value>& out) const;
  // The expression as Spark's SQL text (toPrettySQL), for messages.
  std::string sql() const;

 private:
  std::shared_ptr<const Bound> bound_;
  std::string name_;
  Field field_;
};

// One expression; `*` is refused here (only a select list expands it). On error *errorPos
// (when given) is the offset of the failing node in the parsed text (-1: unknown).
Result<CompiledExpr> analyze(const Column& column, const Schema& input, const SqlConf& conf);
Result<CompiledExpr> analyze(const Column& column, const Schema& input, const SqlConf& conf, int* errorPos);
// A select list: `*` (and `s.*` of a struct) expands to the input's columns.
Result<std::vector<CompiledExpr>> analyzeSelect(const std::vector<Column>& columns,
                                                const Schema& input, const SqlConf& conf);
// The same, telling which column failed and where in its text.
Result<std::vector<CompiledExpr>> analyzeSelect(const std::vector<Column>& columns,
                                                const Schema& input, const SqlConf& conf,
                                                int* errorIndex, int* errorPos);

// Spark's name resolution of one column name against `input` (-1 when absent), for the
// operators that take column names (drop, withColumnRenamed): case-insensitive unless
// conf.caseSensitive; several matches are AMBIGUOUS_REFERENCE.
Result<int> resolveColumnIndex(std::string_view name, const Schema& input, const SqlConf& conf);

}  // namespace streamsim::expr
