// State schema registry (DESIGN.md §3, SEMANTICS.md §2): the schemas of an operator's state
// variables, recorded under <checkpoint>/state/<op>/_stateSchema/<n>.json and checked on every
// (re)start so an incompatible change is a clear error and an added nullable field evolves.
// Format: docs/state-format.md §3. Plain functions over the Env; no shared state.
#pragma once

#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/status.h"

namespace streamsim {

// One state variable (a transformWithState ValueState/ListState/MapState, or an operator's
// own state such as dedup keys or window aggregates). Schemas are Spark DDL strings.
struct StateVariableSchema {
  std::string name;
  std::string keySchema;    // e.g. "device string"
  std::string valueSchema;  // e.g. "count long"
  bool ttlEnabled = false;
  friend bool operator==(const StateVariableSchema&, const StateVariableSchema&) = default;
};

// Compares `variables` with the schemas recorded for `operatorId` and records them:
// - nothing recorded yet: writes _stateSchema/0.json;
// - every variable the same: OK, nothing written;
// - compatible changes — a value schema that appends nullable fields, a new state variable —
//   OK, and the merged list is written as the next version file (<n+1>.json); variables
//   recorded before but not passed now are kept (their rows may still be in the store);
// - anything else (key schema changed, value field removed/renamed/retyped/reordered, an
//   appended non-nullable field, TTL switched on or off): FailedPrecondition naming the
//   operator, the state variable and both schemas.
// InvalidArgument for a malformed DDL or a duplicate name; Corruption naming the file for an
// unreadable recorded schema file.
Status checkAndRecordStateSchema(const Env& env, const std::string& checkpointRoot, int operatorId,
                                 const std::vector<StateVariableSchema>& variables);

// The schemas recorded last for `operatorId` (empty when none were recorded).
Result<std::vector<StateVariableSchema>> readStateSchema(const Env& env,
                                                         const std::string& checkpointRoot,
                                                         int operatorId);

}  // namespace streamsim
