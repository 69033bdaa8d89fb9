// groupBy(...).agg(...) with expressions (Spark's Dataset.groupBy(Column*).agg(Column*), the
// scenario language's `groupBy: ["window(ts, '10 minutes')", user]` + `agg: ["count(*) AS n"]`):
// planned onto the one streaming aggregation operator (ops/window_aggregation.h), as Spark's
// planner turns an Aggregate into a projection of the grouping and argument expressions and
// StateStoreSaveExec. Grouping items: a column; `window(time, duration[, slide[, start]])`
// (TimeWindow.scala; durations as Spark's interval strings, '10 minutes'); `session_window(time,
// gap)` (SessionWindow.scala; a literal gap); any other expression (a projected column named
// by its SQL text, or its alias). Aggregate items: count(*) / count(x), sum, avg / mean, min,
// max, first / last (x[, ignoreNulls]), collect_list, collect_set, approx_count_distinct(x[, rsd])
// (HyperLogLogPlusPlus.scala), each with an optional alias;
// output names are Spark's (count(1), sum(x), avg(x), ...). count(DISTINCT x) and every other
// distinct aggregate are refused as UnsupportedOperationChecker refuses them in streaming
// (_LEGACY_ERROR_TEMP_3102). Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "streamsim/expr/column.h"
#include "streamsim/ops/window_aggregation.h"

namespace streamsim {

struct AggregationPlan {
  // Columns derived before the aggregation (Dataset.withColumns): non-column grouping
  // expressions and aggregate arguments; empty when every item is a plain column.
  std::vector<std::string> projectNames;
  std::vector<expr::Column> projectValues;
  WindowAggregationSpec spec;
  // When an agg item is an expression over aggregates (sum(x) + 1, count(*) * 2 AS c: Spark's
  // Aggregate resultExpressions), the projection of the aggregation's output that gives the
  // items: the grouping and window columns, then each item named by its alias or its SQL text
  // ("(sum(x) + 1)"); empty when every item is an aggregate call. Equal aggregate calls share one
  // aggregate; a column outside the aggregates must be a grouping column (MISSING_AGGREGATION),
  // an aggregate inside an aggregate is NESTED_AGGREGATE_FUNCTION.
  std::vector<expr::Column> resultColumns;
};

// On error, *errorItem (when given) is the failing item's index: grouping items first, then the
// aggregates (groupBy.size() + i).
Result<AggregationPlan> planAggregation(const std::vector<expr::Column>& groupBy,
                                        const std::vector<expr::Column>& aggregates,
                                        int* errorItem = nullptr);

}  // namespace streamsim
