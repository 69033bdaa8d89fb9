// Stateless operators built on expressions (expr/analyzer.h), as Spark's Dataset methods plan
// them: select / selectExpr (Project, with `*` and one generator: explode, explode_outer,
// posexplode, posexplode_outer -> Generate), where / filter (Filter), withColumn (Project
// replacing or appending a column), withColumnRenamed and drop (no-ops for an absent name, as in
// Spark). Rows carry their schema, so expressions are analysed against the first batch's rows of
// each input shape and the compiled form is reused while the shape repeats; an analysis error
// fails that batch. Operators belong to one query run; not thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "streamsim/expr/column.h"
#include "streamsim/operator.h"

namespace streamsim {

std::unique_ptr<Operator> makeProjectOperator(std::vector<expr::Column> columns, std::string description = "select");
std::unique_ptr<Operator> makeWhereOperator(expr::Column condition);
std::unique_ptr<Operator> makeWithColumnOperator(std::string name, expr::Column value);
// Dataset.withColumns: every value analysed against the input; a name that matches an input
// column replaces it in place, the others are appended in order.
std::unique_ptr<Operator> makeWithColumnsOperator(std::vector<std::string> names, std::vector<expr::Column> values);
std::unique_ptr<Operator> makeWithColumnRenamedOperator(std::string existing, std::string newName);
std::unique_ptr<Operator> makeWithColumnsRenamedOperator(std::vector<std::pair<std::string, std::string>> renames);
// The projections behind withColumns / withColumnsRenamed / drop for an input schema (the
// scenario language's static checks use them to know the output columns).
std::vector<expr::Column> withColumnsProjection(const Schema& input, const std::vector<std::string>& names,
                                                const std::vector<expr::Column>& values, const expr::SqlConf& conf);
std::vector<expr::Column> renameProjection(const Schema& input, const std::vector<std::pair<std::string, std::string>>& renames,
                                           const expr::SqlConf& conf);
std::vector<expr::Column> dropProjection(const Schema& input, const std::vector<std::string>& names, const expr::SqlConf& conf);
std::unique_ptr<Operator> makeDropOperator(std::vector<std::string> columns);

// Spark's Union of streams (Dataset.union: by position): the output takes the first input's
// names; each column's type is widened over the inputs as WidenSetOperationTypes does (ANSI or
// legacy string promotion by conf.ansi); a column count that differs is NUM_COLUMNS_MISMATCH, types
// with no wider type INCOMPATIBLE_COLUMN_TYPE (CheckAnalysis), with Spark's parameters.
Result<Schema> unionByPositionSchema(const std::vector<Schema>& inputs, const expr::SqlConf& conf);
// Reshapes every row onto `output` by position (renamed, cast: an ANSI cast error fails the batch).
std::unique_ptr<Operator> makeUnionByPositionOperator(Schema output);

// The output schema a projection gives `input` (for the scenario language's static checks):
// each column's name and type; a generator adds its columns (col / key, value / pos, col).
Result<std::vector<Field>> projectedFields(const std::vector<expr::Column>& columns, const Schema& input,
                                           const expr::SqlConf& conf, int* errorIndex = nullptr,
                                           int* errorPos = nullptr);

}  // namespace streamsim
