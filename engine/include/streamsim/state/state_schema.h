// State schema registry (DESIGN.md §3, SEMANTICS.md §2): the schemas of an operator's state
// variables, recorded under <checkpoint>/state/<op>/_stateSchema/<n>.json and checked on every
// (re)start so an incompatible change is a clear error and an added nullable field evolves.
// Format: docs/state-format.md §3. Plain functions over the Env; no shared state.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

// One state variable (a transformWithState ValueState/ListState/MapState, or an operator's
// own state such as dedup keys or window aggregates). Schemas are Spark DDL strings.
struct StateVariableSchema {
  std::string name;
  std::string keySchema;    // e.g. "device string"
  std::string valueSchema;  // e.g. "count long"
  bool ttlEnabled = false;
  // "value" | "list" | "map" for transformWithState variables, "" for an operator's own state.
  // Recorded only when set; changing it is incompatible.
  std::string kind = "";
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

// The operator-level part of a state schema record, compared exactly on restart (no evolution):
// which operator owns state/<op>/, the columns its state is keyed by (types are not known before
// the first row, so keys are recorded by column name) and anything else that must not change
// (window spec, aggregates, time mode).
struct StateOperatorSchema {
  std::string operatorName;             // Spark's short name: dedupe, stateStoreSave, ...
  std::vector<std::string> keyColumns;
  std::string details;
  // Spark's operator properties checked on restart ({"timeMode", "NoTime"}, {"outputMode",
  // "Update"}): a changed value is STATE_STORE_INVALID_CONFIG_AFTER_RESTART (configName, oldConfig,
  // newConfig); one the record does not have yet is recorded, not checked.
  std::vector<std::pair<std::string, std::string>> properties;
  // The key columns with their types ("device string, zone int"): "" until the first batch with
  // input recorded it (checkAndRecordStateKeySchema); kept by every later version file.
  std::string keySchema;
  // The value's types where Spark checks them on restart (the window aggregation's buffers:
  // "count long NOT NULL, sum long"), recorded and kept as keySchema; "" for the others.
  std::string valueSchema;
  friend bool operator==(const StateOperatorSchema&, const StateOperatorSchema&) = default;
};

// As above, and first compares `op` with the operator record of the latest file (when it has
// one): another operator name, other key columns or other details are FailedPrecondition naming
// `what` (e.g. "dropDuplicates"), the checkpoint, the recorded file and both values. The
// operator record is written into every new version file.
Status checkAndRecordStateSchema(const Env& env, const std::string& checkpointRoot, int operatorId,
                                 const StateOperatorSchema& op,
                                 const std::vector<StateVariableSchema>& variables,
                                 std::string_view what);

// The key's (and value's) types, known from the first input rows of a run (`keySchema`: the key
// columns in order, typed by their values; `valueSchema`: given by an operator whose value schema
// Spark checks). Nothing recorded for the operator yet (no operator record) → OK. No key types
// recorded (or no value types, when given) → written into the next version file. Recorded →
// compared as Spark's StateSchemaCompatibilityChecker compares them (the types in order, names
// ignored; the key's names are the operator record's keyColumns, checked at start): a key field
// of another type, or another count of fields, is STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE
// (storedKeySchema, newKeySchema), then the same for the value is
// STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE (storedValueSchema, newValueSchema); both as Spark's
// StructType text. Nested fields are compared by their outer type (struct/array/map): an element
// type is not always known from rows (an empty array).
Status checkAndRecordStateKeySchema(const Env& env, const std::string& checkpointRoot, int operatorId,
                                    const Schema& keySchema, std::string_view what,
                                    const std::optional<Schema>& valueSchema = std::nullopt);

// The schemas recorded last for `operatorId` (empty when none were recorded).
Result<std::vector<StateVariableSchema>> readStateSchema(const Env& env,
                                                         const std::string& checkpointRoot,
                                                         int operatorId);
// The operator record of the latest file (nullopt when none was recorded).
Result<std::optional<StateOperatorSchema>> readStateOperatorSchema(const Env& env,
                                                                   const std::string& checkpointRoot,
                                                                   int operatorId);

}  // namespace streamsim
