// Spark-named operators on DataFrame (DESIGN.md §3): dropDuplicates,
// dropDuplicatesWithinWatermark, join with a static table, groupBy(...).transformWithState(...) and
// groupBy(...).window(...).agg(...). Declared as DataFrame members in query.h (which includes this
// header); GroupedData and the options live here. Values only: like DataFrame they hold factories,
// so they are cheap to copy and build fresh operators on every start(). Not thread-safe.
//
//   auto out = readStream(makeMemorySource(input))
//                  .withWatermark("t", 10'000)
//                  .groupBy({"user"})
//                  .transformWithState("count", TimeMode::kEventTime, OutputMode::kUpdate);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "streamsim/ops/stream_static_join.h"
#include "streamsim/ops/window_aggregation.h"
#include "streamsim/query.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim {

class ProcessorSet;  // tws/processor_registry.h

// Spark's TransformWithStateOptions-like extras of transformWithState.
struct TransformWithStateOptions {
  // Output column carrying event time: emitted rows must be later than the late watermark, and
  // operators downstream see the watermark on this column (Operator::outputEventTimeColumn).
  std::optional<std::string> eventTimeColumnName;
  // Initial state rows (batch 0 only), grouped by initialStateGroupBy (unset: the groupBy
  // columns); the processor must derive from StatefulProcessorWithInitialState.
  std::optional<std::vector<Row>> initialState;
  std::optional<std::vector<std::string>> initialStateGroupBy;
  // EventTime mode: the input column whose late rows are dropped (unset: the watermarked one).
  std::optional<std::string> inputEventTimeColumn;
  // For messages and the trace; unset: the registry name, or "processor".
  std::optional<std::string> processorName;
};

// The result of DataFrame::groupBy(cols).
class GroupedData {
 public:
  GroupedData(DataFrame df, std::vector<std::string> columns)
      : df_(std::move(df)), columns_(std::move(columns)) {}
  GroupedData(DataFrame df, std::vector<expr::Column> keys) : df_(std::move(df)), keys_(std::move(keys)) {}

  // Spark's groupBy(...).transformWithState(processor, timeMode, outputMode). Complete output
  // mode is rejected when the query starts (as every other rule of the operator).
  DataFrame transformWithState(ProcessorFactory processorFactory, TimeMode timeMode,
                               OutputMode outputMode, TransformWithStateOptions options = {}) const;
  // The processor added to `processors` as `registryName` (processor_registry.h); an unknown name
  // fails start() with NotFound listing the set's names.
  DataFrame transformWithState(const ProcessorSet& processors, const std::string& registryName, TimeMode timeMode,
                               OutputMode outputMode, TransformWithStateOptions options = {}) const;

  // Spark's groupBy(window(timeColumn, windowDuration, slideDuration, startTime), cols...):
  // slideDuration 0 = tumbling.
  GroupedData window(std::string timeColumn, DurationMs windowDuration, DurationMs slideDuration = 0,
                     DurationMs startTime = 0) const;
  // Spark's groupBy(session_window(timeColumn, gap), cols...) (SessionWindow.scala): the output's
  // window_start / window_end are each session's bounds.
  GroupedData sessionWindow(std::string timeColumn, DurationMs gap) const;
  // The streaming aggregation (ops/window_aggregation.h: count, sum, avg, min, max, first, last,
  // collect_list, collect_set) by the columns and the window; without window() / sessionWindow()
  // it is Spark's window-less aggregation (groupBy().agg(...): one global group).
  DataFrame agg(std::vector<Aggregate> aggregates) const;
  // Spark's agg(Column*) (ops/expr_aggregation.h): aggregate calls (count(*), sum(x),
  // approx_count_distinct(x), ...) and expressions over them and the grouping columns
  // (sum(x) + 1, (count(*) * 2).alias("c")), grouped by this groupBy's columns or expressions. A
  // planning error (not an aggregate, a distinct aggregate, MISSING_AGGREGATION, ...) fails
  // start(). Not combined with window() / sessionWindow(): group by a window(...) Column.
  DataFrame agg(std::vector<expr::Column> aggregates) const;
  DataFrame count() const { return agg({Aggregate::count()}); }

  const std::vector<std::string>& columns() const { return columns_; }

 private:
  DataFrame df_;
  std::vector<std::string> columns_;
  std::optional<std::vector<expr::Column>> keys_;  // groupBy(Column...)
  std::optional<TimeWindow> window_;
  std::optional<DurationMs> session_gap_;
};

}  // namespace streamsim
