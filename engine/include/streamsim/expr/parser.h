// The one parser of Spark SQL expression strings (selectExpr, expr(), string filters, the
// scenario language), following Spark's SqlBaseParser.g4 / SqlBaseLexer.g4 for the subset
// docs/scenarios.md "Expressions" lists: literals with Spark's typing, operators and their
// precedence, CASE WHEN, CAST / TRY_CAST / ::, IS [NOT] NULL, [NOT] IN, [NOT] LIKE / RLIKE,
// [NOT] BETWEEN, function calls, AS aliases, `backquoted` names, a.b fields, a[i] subscripts.
// A syntax error is Spark's PARSE_SYNTAX_ERROR (parameters error and hint) with its position.
//
// Literal typing differs from Spark in one place: streamsim has no DECIMAL, so 1.5 and 1.5BD
// are doubles (Spark: DECIMAL(2,1)); 1S and 1Y are ints (Spark: SMALLINT, TINYINT).
// Pure functions; thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "streamsim/expr/column.h"

namespace streamsim::expr {

// One named expression: `expr [AS] alias`. On error, *errorPos (when given) is the 0-based
// offset of the offending token in `sql`.
Result<Column> parseExpression(std::string_view sql, int* errorPos = nullptr);
// A column name as col() takes it: a.b.c, `a.b`.c (backquotes keep dots).
Result<std::vector<std::string>> parseColumnName(std::string_view name);
// A Spark data type: int, bigint, string, timestamp, array<int>, struct<a: int>, map<string,int>.
Result<Field> parseDataType(std::string_view type);

}  // namespace streamsim::expr
