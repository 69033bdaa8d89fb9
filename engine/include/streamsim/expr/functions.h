// Spark's functions (pyspark.sql.functions / org.apache.spark.sql.functions) as Column builders.
// Each builds a call node by Spark's SQL function name; whether the name exists and its argument
// types fit is decided when the expression is analysed (an unknown name is Spark's
// UNRESOLVED_ROUTINE). The supported set: docs/scenarios.md "Expressions".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "streamsim/expr/column.h"

namespace streamsim::functions {

using expr::Column;

Column col(std::string name);
inline Column column(std::string name) { return col(std::move(name)); }
Column lit(Value v);
// A Spark SQL expression string (expr/parser.h); a syntax error surfaces when it is analysed
// (PARSE_SYNTAX_ERROR).
Column expr(std::string_view sql);
// Any function by its Spark SQL name: callFunction("upper", {col("a")}).
Column callFunction(std::string name, std::vector<Column> args);

Column when(Column condition, Column value);
Column coalesce(std::vector<Column> cols);
Column element_at(Column c, Column key);
Column struct_(std::vector<Column> cols);
Column array(std::vector<Column> cols);
Column create_map(std::vector<Column> cols);

Column abs(Column c);
Column pmod(Column a, Column b);
Column pow(Column a, Column b);
Column round(Column c, int scale = 0);
Column bround(Column c, int scale = 0);
Column floor(Column c);
Column ceil(Column c);
Column greatest(std::vector<Column> cols);
Column least(std::vector<Column> cols);
Column sqrt(Column c);
Column exp(Column c);
Column log(Column c);
Column log1p(Column c);

Column concat(std::vector<Column> cols);
Column concat_ws(std::string sep, std::vector<Column> cols);
Column upper(Column c);
Column lower(Column c);
Column length(Column c);
Column trim(Column c);
Column substring(Column c, int pos, int len);
Column split(Column c, std::string pattern);
Column regexp_extract(Column c, std::string pattern, int idx);
Column regexp_replace(Column c, std::string pattern, std::string replacement);

Column current_timestamp();
Column to_timestamp(Column c);
Column to_timestamp(Column c, std::string format);
Column date_format(Column c, std::string format);
Column unix_timestamp(Column c);
Column from_unixtime(Column c);
Column timestamp_seconds(Column c);
Column timestamp_millis(Column c);
Column hour(Column c);
Column year(Column c);

Column from_json(Column c, std::string ddlSchema);
Column to_json(Column c);
Column get_json_object(Column c, std::string path);

Column size(Column c);
Column array_contains(Column c, Column v);
Column map_keys(Column c);
Column map_values(Column c);

// Aggregate functions, for groupBy(...).agg(Column...) (ops/expr_aggregation.h). count(col("*"))
// is count(*).
Column count(Column c);
Column sum(Column c);
Column avg(Column c);
inline Column mean(Column c) { return avg(std::move(c)); }
Column min(Column c);
Column max(Column c);
Column first(Column c, bool ignoreNulls = false);
Column last(Column c, bool ignoreNulls = false);
Column collect_list(Column c);
Column collect_set(Column c);
Column approx_count_distinct(Column c, double rsd = 0.05);
// Grouping expressions: window(timeColumn, '10 minutes'[, slide[, start]]) and
// session_window(timeColumn, '5 minutes'), durations as Spark's interval strings.
Column window(Column timeColumn, std::string windowDuration, std::string slideDuration = "", std::string startTime = "");
Column session_window(Column timeColumn, std::string gapDuration);

}  // namespace streamsim::functions
