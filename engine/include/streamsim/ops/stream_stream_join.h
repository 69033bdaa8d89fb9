// Stream–stream joins (SEMANTICS.md §4 "Joins"), as Spark 4.1's StreamingSymmetricHashJoinExec
// (sql/core/.../streaming/operators/stateful/join/StreamingSymmetricHashJoinExec.scala):
// `left.join(right, usingColumns, joinType)` with an optional event-time range between the two
// sides' watermarked columns. Each side's rows are kept in state per join key
// (ops/stream_join_state.h: Spark's keyToNumValues and keyWithIndexToValue stores, state format
// 2 with the `matched` flag); a new row of one side is joined with the other side's state, the
// left side's rows going first so that rows of one batch meet once. State is evicted by the
// state watermark StreamingSymmetricHashJoinHelper.getStateWatermarkPredicates derives
// (joinStateWatermarks below); outer joins emit a null-padded row when an unmatched row is
// evicted. Joins Spark's UnsupportedOperationChecker refuses fail start() with its messages
// (checkStreamStreamJoin).
//
// The plan: the join's node has the two sides as inputs, each with its own operators
// (DataFrame::join: per-row expressions, withWatermark, ...), the left's rows first; the batch
// hands the operator how many rows each input gave (BatchContext::sourceRowCounts). The older
// flat form, one node over all sources with only withWatermark before the join, counts the
// sources' rows instead (leftSources of them are the left side). Each returned Operator belongs
// to one query run and is driven by one thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/operator.h"
#include "streamsim/ops/stream_static_join.h"

namespace streamsim {

// The join condition's event-time range: rightColumn + lower <= leftColumn <= rightColumn + upper
// (a strict bound is `<`), either bound optional. Spark's
// `expr("l.t >= r.t - interval 10 minutes AND l.t <= r.t + interval 5 minutes")` is
// {l.t, r.t, -10m, 5m}.
struct StreamJoinRange {
  std::string leftColumn;
  std::string rightColumn;
  std::optional<DurationMs> lower;
  std::optional<DurationMs> upper;
  bool lowerStrict = false;
  bool upperStrict = false;
};

struct StreamStreamJoinSpec {
  SchemaPtr left;   // the left side's rows (as the side's own operators leave them)
  SchemaPtr right;  // the right side's
  std::vector<std::string> on;  // equal columns of both sides (Spark's usingColumns)
  // A condition join (`leftKey = rightKey AND ...`): rightOn[i] is the right side's column equal
  // to the left's on[i], and the output is every left column then every right column (Spark's
  // output for a join condition). Empty: a using join on `on`.
  std::vector<std::string> rightOn;
  JoinType type = JoinType::kInner;
  std::optional<StreamJoinRange> range;
  // The first leftSources inputs of the join's node are the left side, the rest the right
  // (DataFrame::join: 1, the left side's input; the flat form: the left side's sources).
  int leftSources = 1;
  // The right side's key columns (rightOn, or `on` for a using join).
  const std::vector<std::string>& rightKeys() const { return rightOn.empty() ? on : rightOn; }
};

// What evicts each side's state (StreamingSymmetricHashJoinHelper.getStateWatermarkPredicates):
// a join column that is a watermarked column (keyColumn: rows whose key value <= the watermark
// go, on both sides), or a side's own watermarked column against the bound the range gives it
// (Spark's StreamingJoinHelper.getStateValueWatermark: the left side keeps rows newer than
// watermark + lower, minus 1 ms for a non-strict bound; the right side those newer than
// watermark - upper, minus 1 ms for a non-strict bound).
struct StreamJoinEviction {
  std::optional<int> keyColumn;          // index into `on`
  std::optional<std::string> leftValueColumn;   // the left side's watermarked column
  std::optional<DurationMs> leftOffset;  // left rows with column <= watermark + leftOffset go
  std::optional<std::string> rightValueColumn;
  std::optional<DurationMs> rightOffset;
  bool evictsLeft() const { return keyColumn.has_value() || leftOffset.has_value(); }
  bool evictsRight() const { return keyColumn.has_value() || rightOffset.has_value(); }
};
// `watermarked` lists the columns a withWatermark upstream names (either side's).
StreamJoinEviction streamJoinEviction(const StreamStreamJoinSpec& spec,
                                      const std::vector<std::string>& watermarked);

// Spark's analysis of the join (UnsupportedOperationChecker, _LEGACY_ERROR_TEMP_3102): only the
// Append output mode; no left anti join; outer and semi joins need a watermark in the join keys
// or a range that bounds the other side's state. Also checks the columns: `on` and the range's
// in their sides' schemas, the range's types timestamps. InvalidArgument with Spark's text.
Status checkStreamStreamJoin(const StreamStreamJoinSpec& spec,
                             const std::vector<std::string>& watermarked, OutputMode mode);

// The output columns: the join columns (a using join's: the left's, the right's in a right
// outer join, whichever is not null in a full outer join), the left's others, the right's
// others (left semi: the left's only); a condition join (rightOn): every left column, then every
// right column. The side that may be null-padded is nullable.
Result<std::vector<Field>> streamStreamJoinFields(const StreamStreamJoinSpec& spec);

std::unique_ptr<Operator> makeStreamStreamJoin(StreamStreamJoinSpec spec);

}  // namespace streamsim
