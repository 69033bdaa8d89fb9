// Streaming aggregation (SEMANTICS.md §4, DESIGN.md §3): groupBy(cols[, window(time, duration,
// slide) | session_window(time, gap)]).agg(count, sum, avg, min, max, first, last, collect_list,
// collect_set) in Append, Update or Complete mode, with its state in one store per shuffle
// partition; without a window it is Spark's window-less ("global" when there are no columns either)
// streaming aggregation. Each Operator belongs to one query run and is driven
// by one thread; the spec structs are plain values.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "streamsim/operator.h"
#include "streamsim/time.h"

namespace streamsim {

enum class AggregateFunction {
  kCount, kSum, kMin, kMax, kAvg, kFirst, kLast, kCollectList, kCollectSet, kApproxCountDistinct
};

// One aggregate (Spark's rules: src/ops/aggregate_buffers.cc). Null inputs are ignored (count(*)
// counts rows); sum/min/max of no non-null value is null; avg is a double (null when nothing was
// averaged); count is a long; sum is a long over integral inputs and a double over doubles (ANSI:
// a long overflow fails the batch with ARITHMETIC_OVERFLOW); min/max keep the input type;
// first/last take the first/last row's value (null included unless ignoreNulls); collect_list /
// collect_set are arrays of the non-null values; approx_count_distinct is a long, HyperLogLog++'s
// estimate of the distinct non-null values with Spark's sketch (ops/hyperloglog.h).
struct Aggregate {
  AggregateFunction function = AggregateFunction::kCount;
  std::string column;      // empty only for count(*)
  std::string outputName;  // empty: "count" for count(*), else "<fn>_<column>" (sum_x, avg_x)
  bool ignoreNulls = false;  // first / last
  double relativeSD = 0.05;  // approx_count_distinct's maximum relative standard deviation

  static Aggregate count(std::string as = "") { return {AggregateFunction::kCount, "", std::move(as)}; }
  static Aggregate countOf(std::string col, std::string as = "") {
    return {AggregateFunction::kCount, std::move(col), std::move(as)};
  }
  static Aggregate sum(std::string col, std::string as = "") {
    return {AggregateFunction::kSum, std::move(col), std::move(as)};
  }
  static Aggregate min(std::string col, std::string as = "") {
    return {AggregateFunction::kMin, std::move(col), std::move(as)};
  }
  static Aggregate max(std::string col, std::string as = "") {
    return {AggregateFunction::kMax, std::move(col), std::move(as)};
  }
  static Aggregate avg(std::string col, std::string as = "") {
    return {AggregateFunction::kAvg, std::move(col), std::move(as)};
  }
  std::string resolvedName() const;
};

// window(timeColumn, windowDuration, slideDuration, startTime) as Spark's functions.window.
// slideDuration 0 means a tumbling window (slide = window).
struct TimeWindow {
  std::string timeColumn;
  DurationMs windowDuration = 0;
  DurationMs slideDuration = 0;
  DurationMs startTime = 0;  // offset of window starts from the epoch; |startTime| < slide
};

// kTime: window(); kSession: session_window(window.timeColumn, sessionGap) (SessionWindow.scala:
// each row opens [t, t + gap); sessions of one group that overlap or touch merge, as
// MergingSessionsIterator merges a session starting at or before the current one's end);
// kNone: no window (groupBy columns only, or none: one global group).
enum class WindowKind { kTime, kSession, kNone };

struct WindowAggregationSpec {
  std::vector<std::string> groupBy;  // besides the window; may be empty
  TimeWindow window;                 // kTime; kSession uses window.timeColumn
  std::vector<Aggregate> aggregates;
  WindowKind kind = WindowKind::kTime;
  DurationMs sessionGap = 0;  // kSession
  // How the window is output: empty = `window_start`, `window_end` after the groupBy columns
  // (streamsim's flattened form); a name = Spark's struct<start: timestamp, end: timestamp>
  // column (`window`, `session_window` or the alias) placed before groupBy[windowPosition].
  std::string windowColumn;
  size_t windowPosition = 0;
};

// Checks the spec: durations > 0, slide <= window, |startTime| < slide, gap > 0, a column for
// every aggregate but count(*), distinct output names, an approx_count_distinct relativeSD that
// gives HLL++ at least 4 bits. InvalidArgument says what is wrong.
Status validateWindowAggregation(const WindowAggregationSpec& spec);

// The windows [start, end) that contain `t`, by ascending start: Spark's assignment, every
// start = t - floorMod(t - startTime, slide) - k * slide (k >= 0) with start <= t < start + window.
std::vector<std::pair<TimeMs, TimeMs>> assignWindows(TimeMs t, const TimeWindow& window);

// The operator. Output rows: the groupBy columns, then `window_start` and `window_end`
// (or the window struct column, see windowColumn; nothing for kNone)
// (timestamps; Spark's `window` struct column flattened: window.start, window.end), then one
// column per aggregate in spec order.
// - Append (needs a watermark on window.timeColumn, else start() fails): a window is emitted
//   once, in the batch whose eviction watermark >= its end, and then evicted.
// - Update: the windows changed in this batch are emitted; with a watermark on the time
//   column, windows with end <= the eviction watermark are evicted afterwards.
// - Complete: every window, every batch; nothing is dropped or evicted.
// Late data (Append/Update with the watermark on the time column): each window a row falls in
// is dropped when window end <= the late watermark. numRowsDroppedByWatermark counts dropped
// (key, window) groups per partition, as Spark counts rows after partial aggregation.
// Rows with a null time column belong to no window and are skipped.
// Without a window, the watermark works on a groupBy column that is the watermarked event time
// (Append needs one: UnsupportedOperationChecker); a key is final when that value <= the
// watermark. Session windows refuse Update mode (Spark's STREAMING_OUTPUT_MODE.
// UNSUPPORTED_OPERATION "session window streaming aggregations"), and a row whose session
// [t, t + gap) ends at or before the late watermark is late.
// The output mode is the query's (OperatorStartContext::outputMode).
std::unique_ptr<Operator> makeWindowAggregation(WindowAggregationSpec spec);

}  // namespace streamsim
