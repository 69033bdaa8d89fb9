// What a checkpoint's state stores hold after one batch, read from its files (`streamsim state`):
// streamsim's own state files (state_files.h; transformWithState's rows decoded by the one layout,
// tws/state_layout.h, with the kinds the operator's _stateSchema records) and Spark's HDFS-backed
// store (spark_state_store.h, named by _metadata/schema) and RocksDB-backed store
// (spark_rocksdb_store.h, named by _metadata/schema or _stateSchema v3). Read-only through the Env; plain
// functions, no shared state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/env.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"

namespace streamsim::harness {

// The stateful operators under <root>/state and the partition folders of each, ascending
// (folders not named by an id are left out; an operator without partitions has an empty list).
// Empty when there is no state/ folder.
Result<std::map<int, std::vector<int>>> listStateStores(const Env& env, const std::string& root);

// The state store the checkpoint's batches ran on, as offsets file `offsetsFile` records it
// (spark.sql.streaming.stateStore.providerClass); nullopt when it records none.
Result<std::optional<StateStoreKind>> recordedStateStore(const Env& env, const std::string& offsetsFile);

struct CheckpointStateOptions {
  int64_t batch = -1;    // -1: the newest committed batch, else the newest planned one
  int operatorId = -1;   // -1: every operator
  std::string key;       // only rows of this grouping key ("" : all)
};

// One store row as text. streamsim's stores: its column family, the key ("u1", "(a, b)", a map
// entry "u1 / k") and the value ("3", "[x (TTL, expires …)]", "timer at …"); bytes that follow
// no layout in hex ("0x…"). Spark's stores: key and value are JSON texts; the column family is
// the state variable's name (RocksDB with column families: transformWithState), else empty.
struct StoreRow {
  std::string columnFamily;
  std::string key;
  std::string value;
};

struct PartitionStore {
  int partition = 0;
  // A store folder under the partition's (a stream-stream join's left-keyToNumValues, …); empty
  // for the partition folder's own store.
  std::string store;
  std::optional<StateFolderFormat> format;  // nullopt: the folder could not be listed (`error`)
  std::vector<std::string> tempFiles;       // leftover temp files, relative to the checkpoint
  std::vector<std::string> filesRead;       // Spark's store: the files the version was read from
  std::vector<std::string> warnings;        // e.g. a torn snapshot read around
  std::vector<StoreRow> rows;               // the rows matching the key, in store order
  std::optional<std::string> error;         // why the partition could not be read
};

struct OperatorStores {
  int operatorId = 0;
  std::vector<PartitionStore> partitions;  // ascending
  // Spark's store: where the field names come from ("schema v2 from state/0/0/_metadata/schema",
  // or why they are guessed); empty otherwise.
  std::string schemaNote;
  // Spark's RocksDB store: the schema of each column family its rows were decoded by (schema file
  // v3; a store without families: its one schema under "default") — the field types a replay
  // needs to carry the rows into the simulator (spark_state_import.h).
  std::map<std::string, SparkColumnFamilySchema> families;
  std::set<std::string> formats() const;  // stateFolderFormatName of each listed partition
};

struct CheckpointState {
  std::string root;
  int64_t batch = 0;
  bool latestCommitted = false;  // the batch was chosen as the newest committed one
  int64_t storeVersion = 0;      // batch + 1 (SEMANTICS.md §2)
  std::vector<OperatorStores> operators;
  bool anyPartitionFailed() const;
};

// The state of every operator (or options.operatorId) and partition of checkpoint `root` after
// batch options.batch. InvalidArgument with a message for the user when there is no state/
// folder, the batch is out of range or no batch can be told, and when no operator matches;
// a partition that cannot be read is reported in its `error`, not as a failure.
Result<CheckpointState> readCheckpointState(const Env& env, const std::string& root,
                                            const CheckpointStateOptions& options);

}  // namespace streamsim::harness
