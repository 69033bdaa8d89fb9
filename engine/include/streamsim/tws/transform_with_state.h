// The transformWithState operator (SEMANTICS.md §6, TWS/TransformWithStateExec.scala): groups
// rows by key, hash-partitions them into shufflePartitions tasks, and runs a StatefulProcessor
// per partition with its own state store version per batch. The operator belongs to one query
// run; not thread-safe. State layout in the store: docs/processors.md "State layout".
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/operator.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {

struct TransformWithStateSpec {
  std::vector<std::string> groupBy;
  // A fresh processor for every partition task (and every retry of one).
  ProcessorFactory processorFactory;
  std::string processorName = "processor";  // for messages and the trace
  TimeMode timeMode = TimeMode::kNone;
  // Append or Update; unset = the query's output mode. Complete is rejected.
  std::optional<OutputMode> outputMode;
  // Output column carrying event time: emitted rows must be later than the late watermark.
  std::optional<std::string> eventTimeColumnName;
  // EventTime mode: the input column whose late rows are dropped; unset = the watermarked
  // column upstream (OperatorStartContext::eventTimeColumn).
  std::optional<std::string> inputEventTimeColumn;
  // Initial state rows (processor must be a StatefulProcessorWithInitialState), grouped by
  // initialStateGroupBy (unset = groupBy); used in batch 0 only.
  std::optional<std::vector<Row>> initialState;
  std::optional<std::vector<std::string>> initialStateGroupBy;
};

std::unique_ptr<Operator> makeTransformWithState(TransformWithStateSpec spec);

// The partition of a grouping key (a stable FNV-1a hash of its order-preserving encoding);
// the same on every run and platform.
int twsPartitionOf(const Row& key, int numPartitions);

}  // namespace streamsim
