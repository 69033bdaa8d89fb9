// Everything the scenario harness knows about a query's operators, in one place (operators.cc):
// each operator's parse (YAML -> its OperatorSpec alternative, refusing at its line what the
// engine would refuse when the query starts) and its apply (the spec onto a DataFrame). The
// loader (parseQuery) and the runner (Runner::writerFor) both go through these two functions.
// Not for several threads (one ParseContext each).
#pragma once

#include <optional>
#include <vector>

#include "scenario/parse_context.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/query.h"

namespace streamsim::harness::detail {

// One entry of `operators:`; `columns` (the operator's input, when known) becomes its output.
OperatorSpec parseOperator(ParseContext& pc, const YAML::Node& n,
                           std::optional<std::vector<Field>>& columns);
// The expression operators (expr_operators.cc): true when `n` is one (select with expressions,
// selectExpr, where/filter, withColumn(s), withColumn(s)Renamed, drop, explode), parsed into
// `spec`; expressions are parsed here and, when `columns` is known, analysed against it, errors
// at the expression's line and column. `columns` becomes the operator's output.
bool parseExprOperator(ParseContext& pc, const YAML::Node& n, std::optional<std::vector<Field>>& columns,
                       OperatorSpec& spec);
Result<DataFrame> applyExprOp(DataFrame df, const ExprOp& op);
// `groupBy:` + `agg:` in the expression form (an item that is not a plain name, or an agg item
// that is a function call string): parsed, planned (ops/expr_aggregation.h) and, when `columns`
// is known, its derived columns analysed; errors at the item's line and column. nullopt when
// `n` is the plain form.
std::optional<WindowAggregationOp> parseExprAggregation(ParseContext& pc, const YAML::Node& n,
                                                        const std::optional<std::vector<Field>>& columns);
Result<DataFrame> applyExprAggregation(DataFrame df, const WindowAggregationOp& op);
// `df` with the operator `op` applied (an error names the operator and its line); a pandas
// processor's input comes as DataFrames of at most `pandasChunkRows` rows (0: Spark's default).
// `hooks` (a scenario a C++ program built, scenario_hooks.h): the wrapper of the stateful operator.
// `registries`: what the run was handed (a Python processor's loader, run/registries.h).
Result<DataFrame> applyOperator(DataFrame df, const OperatorSpec& op, int64_t pandasChunkRows = 0,
                                const ScenarioHooks* hooks = nullptr, const RunRegistries* registries = nullptr);
// A stream-stream join's rules that need the whole query (the withWatermark operators before it,
// the output mode): only withWatermark before the join, and Spark's analysis errors
// (checkStreamStreamJoin), each at its operator's line.
void checkStreamJoins(ParseContext& pc, const QuerySpec& q);

}  // namespace streamsim::harness::detail
