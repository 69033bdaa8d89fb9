// The state store interface (DESIGN.md §3, SEMANTICS.md §2): a versioned, sorted key-value store
// per (operator, partition) with named column families. A store is loaded at version v (the
// state after v committed batches; version = batch id + 1 after batch N commits) and accumulates
// changes that commit() makes durable as version v+1, or abort() discards.
// Keys are compared bytewise; row keys use the order-preserving encoding of row_encoding.h so
// that scans visit keys in ascending key order. One store instance belongs to one task thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "streamsim/env.h"
#include "streamsim/status.h"

namespace streamsim {

struct StateStoreMetrics {
  int64_t numKeys = 0;         // rows across all column families after this version's changes
  int64_t numUpdated = 0;      // puts in this version
  int64_t numRemoved = 0;      // removes of existing keys in this version
};

// Visitor for scans: return false to stop.
using StateVisitor = std::function<bool(std::string_view key, std::string_view value)>;

class StateStore {
 public:
  virtual ~StateStore() = default;
  // The version this store was loaded at (0 = empty, before any batch).
  virtual int64_t version() const = 0;
  // Column families are created on first use; "default" always exists.
  virtual std::optional<std::string> get(std::string_view cf, std::string_view key) = 0;
  virtual void put(std::string_view cf, std::string_view key, std::string_view value) = 0;
  virtual void remove(std::string_view cf, std::string_view key) = 0;
  // put() only when `key` is absent from `cf`; returns whether it put (an existing key keeps its
  // value and is not counted as updated). A store may do it in one lookup (registerTimer).
  virtual bool putIfAbsent(std::string_view cf, std::string_view key, std::string_view value) {
    if (get(cf, key).has_value()) return false;
    put(cf, key, value);
    return true;
  }
  // Entries of `cf` with begin <= key < end in ascending key order; an empty `end` means no
  // upper bound. REQUIRES: the visitor does not modify the store.
  virtual void scan(std::string_view cf, std::string_view begin, std::string_view end,
                    const StateVisitor& visit) = 0;
  // Entries whose key starts with `prefix`, ascending.
  void scanPrefix(std::string_view cf, std::string_view prefix, const StateVisitor& visit);
  // Makes the changes durable as version()+1 (changelog file, and every K versions the
  // maintenance step: snapshot + old file cleanup; StateStoreOptions), written through the
  // engine's FileSystem. After commit the store must not be used.
  virtual Status commit() = 0;
  // Drops the changes. After abort the store must not be used.
  virtual void abort() = 0;
  virtual StateStoreMetrics metrics() const = 0;
  // All column family names that hold data, sorted.
  virtual std::vector<std::string> columnFamilies() = 0;
};

// Smallest string greater than every string starting with `prefix` ("" if none exists).
std::string prefixSuccessor(std::string_view prefix);

enum class StateStoreKind { kMemory, kRocksDB };
std::string_view stateStoreKindName(StateStoreKind k);
Result<StateStoreKind> parseStateStoreKind(std::string_view name);  // "memory" | "rocksdb"

struct StateStoreOptions {
  StateStoreKind kind = StateStoreKind::kMemory;
  // Maintenance runs at every version that is a multiple of snapshotEvery, on the commit path
  // (Spark runs it on a background thread; here it must be deterministic): it writes a full
  // snapshot when snapshotDue (state_files.h: the changelogs since the last one outweigh it)
  // and deletes the files no longer needed to load the last minVersionsToRetain versions
  // (deleteOldStateFiles). 0 = never (changelogs only, nothing deleted).
  int snapshotEvery = 10;
  // Spark's StateStoreConf.minVersionsToRetain; the query sets it from minBatchesToRetain.
  int minVersionsToRetain = 100;
  bool rocksdbInMemoryEnv = true;  // RocksDB working copy on RocksDB's in-memory Env
  std::string rocksdbLocalDir;     // used when rocksdbInMemoryEnv is false
};

// Opens stores for (checkpoint, operator, partition) at a version; files live under
// <checkpoint>/state/<operatorId>/<partition>/. May cache working copies between batches.
class StateStoreProvider {
 public:
  virtual ~StateStoreProvider() = default;
  // Loads `version`: the newest snapshot <= version plus the changelogs after it.
  // Corruption if a needed file is missing or torn; the message names the file.
  virtual Result<std::unique_ptr<StateStore>> open(const std::string& checkpointRoot,
                                                   int operatorId, int partition,
                                                   int64_t version) = 0;
  // The newest version for which the files to load it exist (0 if none).
  virtual Result<int64_t> latestVersion(const std::string& checkpointRoot, int operatorId,
                                        int partition) = 0;
};

std::unique_ptr<StateStoreProvider> makeStateStoreProvider(const Env& env,
                                                           const StateStoreOptions& options);

}  // namespace streamsim
