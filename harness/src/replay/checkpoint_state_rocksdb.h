// checkpoint_state.cc's reader of Spark's RocksDB-backed stores (checkpoint_state.h): one store
// folder at one version, its rows decoded and named by the operator's schema files. Private to
// the harness; plain functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "streamsim/env.h"
#include "streamsim/harness/checkpoint_state.h"
#include "streamsim/status.h"

namespace streamsim::harness::detail {

// The unique id checkpoint format v2 records for (op, partition, store index) at store version
// `version` (commits/<version - 1>'s stateUniqueIds); nullopt when that commit records none
// (format v1). NotFound/Corruption naming the commit file when it is missing or malformed.
Result<std::optional<std::string>> committedUniqueId(const Env& env, const std::string& root, int op,
                                                     int partition, int storeIndex, int64_t version);

// Reads the store folder `storeDir` (state/<op>/<part>[/<store>]) at `version` into `p`: its rows
// (those whose key JSON contains `key`, when given), the files read, or `p.error`.
void readSparkRocksDBStore(const Env& env, const std::string& root, int op, const std::string& storeDir,
                           int storeIndex, int64_t version, const std::string& key, OperatorStores& o,
                           PartitionStore& p);

}  // namespace streamsim::harness::detail
