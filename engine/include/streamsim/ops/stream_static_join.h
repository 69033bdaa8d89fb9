// Stream–static joins (SEMANTICS.md §4, "Joins"): the stream joined with a static table on
// equal columns, as Spark's `stream.join(static, usingColumns, joinType)` with the stream on the
// left. Stateless: every batch (and, in real-time mode, every record) is joined with the same
// table, so crashes and re-runs give the same rows. Follows Spark's rules:
// - UnsupportedOperationChecker: inner, left outer, left semi and left anti joins are allowed
//   with a static table on the right; right outer and full outer are refused when the query
//   starts, with Spark's messages (_LEGACY_ERROR_TEMP_3102).
// - The analyzer's using-join output: the join columns first (the stream's values, in `on`
//   order), then the stream's other columns, then the table's other columns (nullable in a left
//   outer join). Left semi and left anti give the join columns and then the stream's others.
// - Equality on a null never holds: a stream row with a null join column matches nothing.
// Each returned Operator belongs to one query run and is driven by one thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/operator.h"

namespace streamsim {

enum class JoinType { kInner, kLeftOuter, kLeftSemi, kLeftAnti, kRightOuter, kFullOuter };

// Spark's join type names (JoinType.apply, case and '_' ignored): inner, cross, outer, full,
// fullouter, left, leftouter, right, rightouter, semi, leftsemi, anti, leftanti. InvalidArgument
// naming the supported ones otherwise. cross is taken as inner (with join columns it is one).
Result<JoinType> parseJoinType(std::string_view name);
std::string_view joinTypeName(JoinType type);  // Spark's: Inner, LeftOuter, ...

// OK for the join types a static right side allows; else Spark's UnsupportedOperationChecker
// error (InvalidArgument, condition _LEGACY_ERROR_TEMP_3102) for right and full outer joins.
Status checkStreamStaticJoinType(JoinType type);

// The right side: rows of one schema (Spark's static DataFrame, e.g. spark.createDataFrame).
struct StaticTable {
  SchemaPtr schema;
  std::vector<Row> rows;  // each in `schema`
};

// Where the join of stream rows of one schema with the table takes each output column from:
// the analyzer's using-join output order above. `problem` says what a failed `status` is about,
// so a caller can point at its own input (the scenario loader: `on` or the table's schema).
struct StreamStaticJoinShape {
  enum class Problem { kNone, kJoinColumn, kTableColumn };
  Status status;  // InvalidArgument when the join cannot be made
  Problem problem = Problem::kNone;
  std::vector<Field> fields;  // the output columns
  std::vector<int> streamKeys;  // indexes into the stream's schema, in `on` order
  std::vector<int> streamRest;  // the stream's other columns
  std::vector<int> tableKeys;   // indexes into the table's schema, in `on` order
  std::vector<int> tableRest;   // the table's other columns (none for semi and anti joins)
};
// Fails for a join column missing from either side or typed differently in the two, and for a
// non-join column on both sides (Spark keeps both, and any later use of the name is
// AMBIGUOUS_REFERENCE; streamsim rows cannot hold two columns of one name).
StreamStaticJoinShape streamStaticJoinShape(const Schema& stream, const Schema& table,
                                            const std::vector<std::string>& on, JoinType type);

// start() fails (InvalidArgument) for right and full outer joins, for a join column missing from
// the table, and for a non-join column in both sides (Spark keeps both and any later use of the
// name is AMBIGUOUS_REFERENCE; streamsim rows cannot hold two columns of one name). process()
// fails for a join column missing from a stream row, or of another type than the table's.
std::unique_ptr<Operator> makeStreamStaticJoin(StaticTable table, std::vector<std::string> on,
                                               JoinType type);

}  // namespace streamsim
