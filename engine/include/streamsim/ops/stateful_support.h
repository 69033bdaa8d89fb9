// Shared machinery of the built-in stateful operators (dedup, windowed aggregation): one task per
// shuffle partition against that partition's state store (open at batchId, commit -> batchId+1,
// task.mid_partition fault point, task retries), progress figures, and the record of an
// operator's state layout under state/<op>/ that a restart is checked against.
// Called from one query thread; nothing here is shared between queries.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "streamsim/operator.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::ops {

// What one partition task produced. Discarded when the attempt fails.
struct TaskOutput {
  std::vector<Row> rows;
  int64_t droppedByWatermark = 0;
  // The state figures of the partition when the operator counts them itself (a stream-stream
  // join counts buffered rows, not store entries); unset: the store's metrics.
  std::optional<StateStoreMetrics> figures;
};

// Passes task.mid_partition; a task calls it once, about half way through its keys.
using MidwayFn = std::function<Status()>;
// The body of one partition task: reads and writes `store`, appends to `out`. REQUIRES: does not
// commit or abort the store (the runner does).
using PartitionTask =
    std::function<Status(int partition, StateStore& store, TaskOutput& out, const MidwayFn& midway)>;

// Runs `task` for every partition in [0, ctx.shufflePartitions), in partition order, each on its
// store opened at version ctx.batchId and committed as ctx.batchId+1 (also when it had no rows:
// every version must exist for the next batch to load). A failed attempt (non-OK status from
// the task, the fault hook or the store) aborts the store and is retried up to ctx.taskRetries
// times; then its Status is returned with the batch, operator and partition in front.
// Returns the rows of all partitions in partition order and pushes one StateOperatorProgress
// (rows total / updated / removed from the store metrics, rows dropped by watermark) onto
// ctx.stateProgress. Simulated crashes (exceptions) pass through untouched.
//
// Real-time mode (ctx.realTimeStores set): the stores stay open across the batch's calls (one
// attempt each, opened at ctx.batchId on first use; committed by the batch, not here), a failed
// task fails the batch (no retry: the batch re-runs from the last committed offsets), the
// mid-partition point is not passed, and the row figures come from the final call.
Result<std::vector<Row>> runPartitionTasks(BatchContext& ctx, int operatorId,
                                           std::string_view operatorName,
                                           const PartitionTask& task);

// The state stores a real-time batch keeps open from its first record to its end.
class RealTimeStateStores {
 public:
  // The store of (operator, partition), opened at ctx.batchId the first time (with the
  // task_attempt trace event the oracles key attempts on).
  Result<StateStore*> get(BatchContext& ctx, int operatorId, int partition);
  // Commits every open store, in (operator, partition) order; then none is open.
  Status commitAll();
  // Aborts every open store (a failed or crashed batch); then none is open.
  void abortAll();
  // Destroyed without abort (a crash unwinding through the batch), as a crashed task's store.

 private:
  std::map<std::pair<int, int>, std::unique_ptr<StateStore>> stores_;
};

// The layout of an operator's state, checked and recorded on every start (SEMANTICS.md §2):
// through state/state_schema.h (the one writer and reader of state/<op>/_stateSchema/<n>.json):
// the operator record (name, key columns, details) must not change; the state variables follow
// that header's evolution rules (a value schema may append nullable fields, new variables may
// be added). state/<op>/_metadata/metadata is Spark's operator metadata v1 (written once through
// checkpoint/operator_metadata.h) so `inspect` reads our checkpoints like Spark's.
struct StateLayout {
  std::string operatorName;             // Spark's short name: dedupe, stateStoreSave, ...
  std::vector<std::string> keyColumns;  // the columns the state is keyed by
  std::string details;                  // anything else that must not change (window spec, ...)
  std::vector<std::pair<std::string, std::string>> properties;  // StateOperatorSchema::properties
  std::string keySchema;    // StateOperatorSchema::keySchema ("" when not known yet)
  std::string valueSchema;  // StateOperatorSchema::valueSchema ("" when not known or not checked)
  std::vector<StateVariableSchema> variables;
};

// FailedPrecondition naming the old and the new layout (and, for a state variable, its name and
// both schemas) when a restart changed it incompatibly; Corruption naming the file when the record
// cannot be parsed. `what` names the operator for the user ("dropDuplicates").
Status checkOrRecordStateLayout(const OperatorStartContext& ctx, const StateLayout& layout,
                                std::string_view what);

// The key columns' types, each from its first non-null value in `rows`; nullopt while a column
// has none (no rows, or only nulls) and for no key columns.
std::optional<Schema> keyTypesOf(const std::vector<Row>& rows, const std::vector<std::string>& keyColumns);

// The typed part of an operator's state schema (StateOperatorSchema::keySchema / valueSchema),
// which streamsim learns from input rows (it has no plan schema): the key's fields and, for an
// operator whose value schema Spark checks, the value's.
struct StateRowTypes {
  Schema key;
  std::optional<Schema> value;  // nullopt: the value schema is not checked (dedupe)
};
// The types `rows` tell, or nullopt while some are unknown (no rows, only nulls).
using StateRowTypesFn = std::function<std::optional<StateRowTypes>(const std::vector<Row>&)>;

// An operator's state schema record and its restart check, in two steps (Spark checks its state
// schema when it plans a run's first batch; streamsim knows the types only from rows):
// - start(): a checkpoint with this operator's record has its layout checked now
//   (checkOrRecordStateLayout); one without gets it from the first batch, with the row types
//   when that batch has input, so a fresh checkpoint's record is one version file;
// - beforeBatch(): the first batch of a run whose rows give every type records them (a record
//   without them gets them as the next version) or compares them with the recorded ones
//   (checkAndRecordStateKeySchema: STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE,
//   STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE), once a run.
// One per operator instance; used by transformWithState, dropDuplicates and window aggregation.
class StateSchemaRecord {
 public:
  Status start(const OperatorStartContext& ctx, StateLayout layout, StateRowTypesFn types,
               std::string_view what);
  // REQUIRES: start() returned OK. Call with the batch's input before it touches the state.
  Status beforeBatch(const BatchContext& ctx, const std::vector<Row>& input);

 private:
  StateRowTypesFn types_;
  std::string what_;
  int operator_id_ = 0;
  bool types_checked_ = false;  // this run recorded or compared the row types
  // A fresh checkpoint's layout, recorded by the first batch (with the types it tells).
  std::optional<StateLayout> pending_layout_;
  OperatorStartContext start_ctx_;
};

// "[a, b]"
std::string formatColumnList(const std::vector<std::string>& cols);

}  // namespace streamsim::ops
