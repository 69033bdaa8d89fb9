// Operator metadata of a stateful operator (Spark state/OperatorStateMetadata.scala):
// v1 at `state/<op>/_metadata/metadata`, v2 at `state/<op>/_metadata/v2/<batchId>`; for
// transformWithState, v2's operatorPropertiesJson lists the state variables. One writer, one
// reader. Borrows the Env; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/env.h"

namespace streamsim {

struct StateStoreMetadataInfo {
  std::string storeName = "default";
  int numColsPrefixKey = 0;
  int numPartitions = 0;
  std::string stateSchemaFilePath;  // v2 only; empty in v1
};

struct StateVariableMetadata {
  std::string stateName;
  std::string stateVariableType;  // "ValueState", "ListState", "MapState", "TimerState"
  bool ttlEnabled = false;
};

struct OperatorMetadata {
  int version = 1;  // the file's "v<N>" header
  int64_t operatorId = 0;
  std::string operatorName;  // e.g. "transformWithStateExec", "stateStoreSave", "dedupe"
  std::vector<StateStoreMetadataInfo> stateStores;
  // v2: the raw operatorPropertiesJson string and, when it holds them, its parsed fields.
  std::string operatorPropertiesJson;
  std::optional<std::string> timeMode;
  std::optional<std::string> outputMode;
  std::vector<StateVariableMetadata> stateVariables;
  std::string rawJson;  // the JSON line as read (empty when built in memory)
  std::optional<int64_t> batchId;  // v2: the batch id the file is named after
  std::string path;                // the file read (empty when built in memory)
};

// Writes Spark's layout: "v1\n{...}" or "v2\n{...}" (stateSchemaFilePath and
// operatorPropertiesJson only in v2).
std::string serializeOperatorMetadata(const OperatorMetadata& m);
Result<OperatorMetadata> parseOperatorMetadata(std::string_view text,
                                               const std::string& pathForErrors);

// "<checkpoint>/state/<op>/_metadata/metadata" and ".../_metadata/v2/<batchId>".
std::string operatorMetadataV1Path(const std::string& checkpointRoot, int64_t operatorId);
std::string operatorMetadataV2Path(const std::string& checkpointRoot, int64_t operatorId,
                                   int64_t batchId);

// The newest metadata of operator folder `state/<op>`: the highest v2 batch file if any, else
// v1; nullopt if neither exists.
Result<std::optional<OperatorMetadata>> readOperatorMetadata(const Env& env,
                                                             const std::string& checkpointRoot,
                                                             int64_t operatorId);
// Every operator under `<root>/state/`, by ascending operator id (folders without metadata are
// skipped). Empty if there is no state folder.
Result<std::vector<OperatorMetadata>> readAllOperatorMetadata(const Env& env,
                                                              const std::string& checkpointRoot);

}  // namespace streamsim
