// Carries a transformWithState operator's state, as Spark's RocksDB state store committed it after
// one batch, into the simulator's own state files, so `replay --checkpoint` can start from that
// batch (checkpoint_replay.h). The rows are read and decoded by the one state reader
// (readCheckpointState, checkpoint_state.h); here they are only re-laid in streamsim's layout
// (tws/state_layout.h) and written with the state files' one writer (state/state_files.h) into the
// simulated checkpoint. Plain functions, no shared state.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/env.h"
#include "streamsim/harness/checkpoint_state.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::harness {

struct ImportedSparkState {
  std::vector<StateVariableSchema> variables;  // as recorded in the simulated _stateSchema
  int64_t rows = 0;                            // state rows carried (values, list elements, map entries)
  int64_t timers = 0;                          // timers carried
  std::vector<std::string> filesRead;          // Spark's files the state was read from (relative)
};

// Reads operator 0's state after `batch` from the Spark checkpoint `checkpoint` (through `real`) and
// writes it as version batch + 1 of streamsim's `kind` store under `simCheckpoint` (through `sim`):
// every partition 0..numPartitions-1 gets a snapshot, each grouping key in the partition the
// engine's hash gives it (the simulator's partitioning is its own), after checking it was read from
// the partition Spark's HashPartitioning gives it (ops/spark_hash_partitioning.h; InvalidArgument
// naming the key and both partitions when not: it did not decode as Spark wrote it). `groupingKey` types the grouping columns as the replay's input has them. The state
// variables' schemas (Spark's schema file v3, kinds from operator metadata v2) are recorded in the
// simulated `_stateSchema`, so a processor that declares them otherwise is refused at start as
// Spark refuses it. ValueState, ListState and MapState with or without TTL (the expiry kept in each
// value, the TTL index rebuilt from it) and timers carry over. InvalidArgument naming the
// checkpoint file for a store that cannot be read or decoded, a column family that is not
// transformWithState's, or a field type the simulator has no value for.
Result<ImportedSparkState> importSparkTransformWithState(const Env& real, const std::string& checkpoint,
                                                          int64_t batch, const Schema& groupingKey,
                                                          int numPartitions, StateStoreKind kind,
                                                          const Env& sim, const std::string& simCheckpoint);

// The carrying half of importSparkTransformWithState: operator 0's rows as the state reader
// decoded them (`op`, with its column families' schemas) and its operator metadata, written as
// version batch + 1 under `simCheckpoint`. `checkpoint` only names the source in errors.
Result<ImportedSparkState> carrySparkTransformWithState(const OperatorStores& op, const OperatorMetadata& meta,
                                                         const std::string& checkpoint, int64_t batch,
                                                         const Schema& groupingKey, int numPartitions,
                                                         StateStoreKind kind, const Env& sim,
                                                         const std::string& simCheckpoint);

}  // namespace streamsim::harness
