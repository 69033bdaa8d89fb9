// State schema registry (state_schema.h). One writer (recordFile) and one reader (readLatest)
// of state/<op>/_stateSchema/<n>.json; format in docs/state-format.md §3.
#include "streamsim/state/state_schema.h"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checkpoint/json_util.h"
#include "streamsim/spark_errors.h"
#include "streamsim/value.h"

namespace streamsim {
namespace {

constexpr int kFormatVersion = 1;

std::string schemaDir(const std::string& root, int operatorId) {
  return joinPath(joinPath(joinPath(root, "state"), std::to_string(operatorId)), "_stateSchema");
}

// "<n>.json" -> n, else -1.
int64_t fileNumber(std::string_view name) {
  if (!name.ends_with(".json") || name.size() <= 5) return -1;
  std::string_view digits = name.substr(0, name.size() - 5);
  int64_t n = -1;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || p != digits.data() + digits.size()) return -1;
  return n;
}

struct Recorded {
  int64_t number = -1;  // -1: nothing recorded
  std::string path;
  std::vector<StateVariableSchema> variables;
  std::optional<StateOperatorSchema> op;
};

std::string columnList(const std::vector<std::string>& cols) {
  std::string out = "[";
  for (size_t i = 0; i < cols.size(); ++i) out += (i ? ", " : "") + cols[i];
  return out + "]";
}

Result<Recorded> readLatest(const Env& env, const std::string& root, int operatorId) {
  Recorded out;
  std::string dir = schemaDir(root, operatorId);
  if (!env.fs->exists(dir)) return out;
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, env.fs->list(dir));
  bool isDir = false;
  for (const FileInfo& f : entries) {
    int64_t n = fileNumber(baseName(f.path));
    if (n > out.number) {
      out.number = n;
      out.path = f.path;
      isDir = f.isDir;
    }
  }
  if (out.number < 0) return out;
  auto bad = [&](std::string_view why) {
    return Status::Corruption(fmt::format("{}: bad state schema file: {}", out.path, why));
  };
  // A folder named as the latest record was skipped before: the query started as if nothing
  // had been recorded (malformed_inputs_test).
  if (isDir) return bad("a folder where the file belongs");
  STREAMSIM_ASSIGN_OR_RETURN(std::string text, env.fs->read(out.path));
  // A key written twice is refused, as in every checkpoint file (detail::parseJsonAt).
  STREAMSIM_ASSIGN_OR_RETURN(detail::OJson j, detail::parseJsonAt(text, out.path, 1, "a state schema record"));
  if (!j.is_object()) return bad("not a JSON object");
  // An integer first: a number past int (1e23) read as one is undefined behaviour.
  auto version = j.find("formatVersion");
  if (version == j.end() || !version->is_number_integer() || *version != kFormatVersion)
    return bad(fmt::format("unknown formatVersion {} (this build reads {})",
                           j.contains("formatVersion") ? j["formatVersion"].dump() : "(none)", kFormatVersion));
  if (!j.contains("stateVariables") || !j["stateVariables"].is_array()) return bad("no stateVariables array");
  for (const auto& v : j["stateVariables"]) {
    if (!v.is_object() || !v.contains("name") || !v["name"].is_string() || !v.contains("keySchema") ||
        !v["keySchema"].is_string() || !v.contains("valueSchema") || !v["valueSchema"].is_string() ||
        !v.contains("ttlEnabled") || !v["ttlEnabled"].is_boolean())
      return bad(fmt::format("state variable entry {} needs string name, keySchema, valueSchema and boolean ttlEnabled",
                             v.dump()));
    if (v.contains("kind") && !v["kind"].is_string())
      return bad(fmt::format("state variable entry {}: kind must be a string", v.dump()));
    out.variables.push_back({v["name"].get<std::string>(), v["keySchema"].get<std::string>(),
                             v["valueSchema"].get<std::string>(), v["ttlEnabled"].get<bool>(),
                             v.value("kind", std::string())});
  }
  if (j.contains("operator")) {
    const auto& o = j["operator"];
    if (!o.is_object() || !o.contains("name") || !o["name"].is_string() || !o.contains("keyColumns") ||
        !o["keyColumns"].is_array() || !o.contains("details") || !o["details"].is_string())
      return bad("operator needs a string name, a keyColumns array and string details");
    StateOperatorSchema op;
    op.operatorName = o["name"].get<std::string>();
    for (const auto& c : o["keyColumns"]) {
      if (!c.is_string()) return bad("operator keyColumns must be strings");
      op.keyColumns.push_back(c.get<std::string>());
    }
    op.details = o["details"].get<std::string>();
    if (o.contains("properties")) {
      if (!o["properties"].is_object()) return bad("operator properties must be an object");
      for (const auto& [k, v] : o["properties"].items()) {
        if (!v.is_string()) return bad("operator properties must be strings");
        op.properties.emplace_back(k, v.get<std::string>());
      }
    }
    if (o.contains("keySchema")) {
      if (!o["keySchema"].is_string()) return bad("operator keySchema must be a string");
      op.keySchema = o["keySchema"].get<std::string>();
    }
    if (o.contains("valueSchema")) {
      if (!o["valueSchema"].is_string()) return bad("operator valueSchema must be a string");
      op.valueSchema = o["valueSchema"].get<std::string>();
    }
    out.op = std::move(op);
  }
  return out;
}

Status recordFile(const Env& env, const std::string& root, int operatorId, int64_t number,
                  const std::vector<StateVariableSchema>& variables,
                  const std::optional<StateOperatorSchema>& op) {
  nlohmann::json vars = nlohmann::json::array();
  for (const auto& v : variables) {
    nlohmann::json e = {{"name", v.name}, {"keySchema", v.keySchema}, {"valueSchema", v.valueSchema},
                        {"ttlEnabled", v.ttlEnabled}};
    if (!v.kind.empty()) e["kind"] = v.kind;
    vars.push_back(std::move(e));
  }
  nlohmann::json j = {{"formatVersion", kFormatVersion}, {"operatorId", operatorId}, {"stateVariables", vars}};
  if (op) {
    j["operator"] = {{"name", op->operatorName}, {"keyColumns", op->keyColumns}, {"details", op->details}};
    if (!op->properties.empty()) {
      nlohmann::json props = nlohmann::json::object();
      for (const auto& [k, v] : op->properties) props[k] = v;
      j["operator"]["properties"] = std::move(props);
    }
    if (!op->keySchema.empty()) j["operator"]["keySchema"] = op->keySchema;
    if (!op->valueSchema.empty()) j["operator"]["valueSchema"] = op->valueSchema;
  }
  std::string path = joinPath(schemaDir(root, operatorId), fmt::format("{}.json", number));
  FaultContext ctx;
  ctx.operatorId = operatorId;
  return writeFileAtomically(env, path, j.dump() + "\n", ctx);
}

enum class Change { kSame, kEvolved };

// Whether `now` may replace `before` for one variable.
Result<Change> compareVariable(int operatorId, const std::string& file, const StateVariableSchema& before,
                               const StateVariableSchema& now, const Schema& nowKey, const Schema& nowValue) {
  auto reject = [&](std::string_view what, std::string_view beforeText, std::string_view nowText,
                    std::string_view rule) {
    return Status::FailedPrecondition(fmt::format(
        "incompatible state schema for operator {}, state variable '{}': {} was '{}' (recorded in {}), now '{}'; {}",
        operatorId, now.name, what, beforeText, file, nowText, rule));
  };
  if (before == now) return Change::kSame;
  auto oldKey = Schema::parseDDL(before.keySchema);
  auto oldValue = Schema::parseDDL(before.valueSchema);
  if (!oldKey.ok() || !oldValue.ok())
    return Status::Corruption(fmt::format("{}: bad state schema file: state variable '{}' has a malformed schema: {}",
                                          file, before.name,
                                          (!oldKey.ok() ? oldKey.status() : oldValue.status()).message()));
  // Spark's conditions (StateSchemaCompatibilityChecker, TransformWithStateVariableUtils); the
  // schemas are named by their DDL, the kinds as Spark's StateVariableType.
  auto withCondition = [](Status st, std::string condition, ErrorParams params) {
    return st.withCondition(std::move(condition), std::move(params));
  };
  auto sparkKind = [](const std::string& k) -> std::string {
    return k == "value" ? "ValueState" : k == "list" ? "ListState" : k == "map" ? "MapState" : k;
  };
  if (before.kind != now.kind)
    return withCondition(reject("kind", before.kind.empty() ? "(none)" : before.kind,
                                now.kind.empty() ? "(none)" : now.kind,
                                "a state variable cannot change between value, list and map state"),
                         "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE",
                         {{"stateVarName", now.name}, {"oldType", sparkKind(before.kind)},
                          {"newType", sparkKind(now.kind)}});
  // Spark names both schemas by StructType.toString (StateSchemaCompatibilityChecker).
  auto structText = [](const std::string& ddl) -> std::string {
    auto parsed = Schema::parseDDL(ddl);
    return parsed.ok() && !parsed->fields().empty() ? sparkStructTypeString(*parsed) : ddl;
  };
  if (!(*oldKey == nowKey))
    return withCondition(reject("key schema", before.keySchema, now.keySchema,
                                "the key schema of a state variable cannot change"),
                         "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                         {{"storedKeySchema", structText(before.keySchema)}, {"newKeySchema", structText(now.keySchema)}});
  // A transformWithState variable (it has a kind) evolves its value schema as Spark's Avro
  // encoding allows; other operators' value schemas must stay compatible.
  const bool evolving = !now.kind.empty();
  auto valueRejected = [&](Status st) {
    if (evolving)
      return withCondition(std::move(st), "STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION",
                           {{"oldValueSchema", structText(before.valueSchema)}, {"newValueSchema", structText(now.valueSchema)}});
    return withCondition(std::move(st), "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                         {{"storedValueSchema", structText(before.valueSchema)}, {"newValueSchema", structText(now.valueSchema)}});
  };
  if (before.ttlEnabled != now.ttlEnabled)
    return valueRejected(reject("TTL", before.ttlEnabled ? "enabled" : "disabled",
                                now.ttlEnabled ? "enabled" : "disabled",
                                "TTL cannot be switched on or off for existing state (it changes the "
                                "stored value's schema)"));
  const auto& oldFields = oldValue->fields();
  const auto& newFields = nowValue.fields();
  constexpr std::string_view kRule = "only appending nullable fields to a value schema is allowed";
  if (newFields.size() < oldFields.size())
    return valueRejected(reject("value schema", before.valueSchema, now.valueSchema, kRule));
  for (size_t i = 0; i < oldFields.size(); ++i)
    if (!(oldFields[i] == newFields[i]))
      return valueRejected(reject("value schema", before.valueSchema, now.valueSchema, kRule));
  for (size_t i = oldFields.size(); i < newFields.size(); ++i)
    if (!newFields[i].nullable)
      return valueRejected(reject("value schema", before.valueSchema, now.valueSchema, kRule));
  return Change::kEvolved;  // also when only the DDL spelling differs ("bigint" vs "long")
}

}  // namespace

namespace {

Status checkOperator(const Recorded& recorded, const std::string& root, int operatorId,
                     const StateOperatorSchema& now, std::string_view what) {
  if (!recorded.op) return Status::OK();
  const StateOperatorSchema& old = *recorded.op;
  // Spark compares the operators with the state metadata first (IncrementalExecution's
  // checkOperatorValidWithMetadata, on the first batch of a restart): both parameters list
  // `(OperatorId: N -> OperatorName: name)` pairs; streamsim checks one operator at a time, so
  // they name this operator (Spark's lists for a query with one stateful operator).
  if (old.operatorName != now.operatorName) {
    auto pair = [&](const std::string& name) {
      return fmt::format("(OperatorId: {} -> OperatorName: {})", operatorId, name);
    };
    return sparkError(Status::Code::kFailedPrecondition,
                      "STREAMING_STATEFUL_OPERATOR_NOT_MATCH_IN_STATE_METADATA",
                      {{"OpsInMetadataSeq", pair(old.operatorName)}, {"OpsInCurBatchSeq", pair(now.operatorName)}},
                      fmt::format("{}: state/{} in checkpoint {} recorded in {}; restore the old query "
                                  "or use a new checkpoint location",
                                  what, operatorId, root, recorded.path));
  }
  // Then the operator's properties (timeMode, outputMode; TransformWithStateVariableUtils).
  for (const auto& [name, value] : now.properties) {
    for (const auto& [oldName, oldValue] : old.properties) {
      if (oldName != name || oldValue == value) continue;
      return sparkError(Status::Code::kFailedPrecondition, "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
                        {{"configName", name}, {"oldConfig", oldValue}, {"newConfig", value}},
                        fmt::format("{}: state/{} in checkpoint {} recorded in {}", what, operatorId,
                                    root, recorded.path));
    }
  }
  // The grouping columns are the state's key schema (StateSchemaCompatibilityChecker), which
  // Spark compares by the fields' types, ignoring their names: a renamed column of the same type
  // restarts. streamsim knows the types only from rows (checkAndRecordStateKeySchema compares
  // them, names ignored, at the run's first batch with input); here, before any row, it refuses
  // what no types can make compatible: another number of columns. `*` (dropDuplicates() keyed
  // by every column) counts its columns from the rows.
  auto allColumns = [](const std::vector<std::string>& cols) {
    return std::find(cols.begin(), cols.end(), "*") != cols.end();
  };
  if (old.keyColumns.size() != now.keyColumns.size() && !allColumns(old.keyColumns) &&
      !allColumns(now.keyColumns))
    return sparkError(Status::Code::kFailedPrecondition, "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                      {{"storedKeySchema", columnList(old.keyColumns)},
                       {"newKeySchema", columnList(now.keyColumns)}},
                      fmt::format("{}: the state in checkpoint {} (recorded in {}) is keyed by {} "
                                  "grouping column(s), the query now by {}: restore the old columns "
                                  "or use a new checkpoint location",
                                  what, root, recorded.path, old.keyColumns.size(), now.keyColumns.size()));
  if (old.details != now.details)
    return Status::FailedPrecondition(fmt::format(
        "{}: the state in checkpoint {} was written for '{}' (recorded in {}), but the query now "
        "asks for '{}'; this state cannot be reused: restore the old definition or use a new "
        "checkpoint location",
        what, root, old.details, recorded.path, now.details));
  return Status::OK();
}

Status checkAndRecord(const Env& env, const std::string& checkpointRoot, int operatorId,
                      const std::optional<StateOperatorSchema>& op,
                      const std::vector<StateVariableSchema>& variables, std::string_view what) {
  std::set<std::string> names;
  std::vector<std::pair<Schema, Schema>> parsed;
  for (const auto& v : variables) {
    if (!names.insert(v.name).second)
      return Status::InvalidArgument(
          fmt::format("state variable '{}' of operator {} is declared twice", v.name, operatorId));
    auto key = Schema::parseDDL(v.keySchema);
    if (!key.ok()) return key.status().withContext(fmt::format("key schema of state variable '{}'", v.name));
    auto value = Schema::parseDDL(v.valueSchema);
    if (!value.ok()) return value.status().withContext(fmt::format("value schema of state variable '{}'", v.name));
    parsed.emplace_back(std::move(*key), std::move(*value));
  }
  STREAMSIM_ASSIGN_OR_RETURN(Recorded recorded, readLatest(env, checkpointRoot, operatorId));
  if (recorded.number < 0) return recordFile(env, checkpointRoot, operatorId, 0, variables, op);
  if (op) STREAMSIM_RETURN_IF_ERROR(checkOperator(recorded, checkpointRoot, operatorId, *op, what));

  bool changed = op.has_value() && (!recorded.op.has_value() || recorded.op->properties != op->properties);
  for (size_t i = 0; i < variables.size(); ++i) {
    const StateVariableSchema* before = nullptr;
    for (const auto& r : recorded.variables)
      if (r.name == variables[i].name) before = &r;
    if (before == nullptr) {
      changed = true;  // a new state variable
      continue;
    }
    STREAMSIM_ASSIGN_OR_RETURN(Change c, compareVariable(operatorId, recorded.path, *before, variables[i],
                                                         parsed[i].first, parsed[i].second));
    if (c == Change::kEvolved) changed = true;
  }
  if (!changed) return Status::OK();
  std::vector<StateVariableSchema> merged = variables;
  for (const auto& r : recorded.variables)
    if (!names.count(r.name)) merged.push_back(r);
  std::optional<StateOperatorSchema> mergedOp = op ? op : recorded.op;
  // The row types come later (checkAndRecordStateKeySchema); a start keeps the recorded ones.
  if (mergedOp && mergedOp->keySchema.empty() && recorded.op) mergedOp->keySchema = recorded.op->keySchema;
  if (mergedOp && mergedOp->valueSchema.empty() && recorded.op) mergedOp->valueSchema = recorded.op->valueSchema;
  return recordFile(env, checkpointRoot, operatorId, recorded.number + 1, merged, mergedOp);
}

}  // namespace

Status checkAndRecordStateSchema(const Env& env, const std::string& checkpointRoot, int operatorId,
                                 const std::vector<StateVariableSchema>& variables) {
  return checkAndRecord(env, checkpointRoot, operatorId, std::nullopt, variables, "state schema");
}

Status checkAndRecordStateSchema(const Env& env, const std::string& checkpointRoot, int operatorId,
                                 const StateOperatorSchema& op,
                                 const std::vector<StateVariableSchema>& variables,
                                 std::string_view what) {
  return checkAndRecord(env, checkpointRoot, operatorId, op, variables, what);
}

Status checkAndRecordStateKeySchema(const Env& env, const std::string& checkpointRoot, int operatorId,
                                    const Schema& keySchema, std::string_view what,
                                    const std::optional<Schema>& valueSchema) {
  STREAMSIM_ASSIGN_OR_RETURN(Recorded recorded, readLatest(env, checkpointRoot, operatorId));
  if (!recorded.op) return Status::OK();
  // Spark's schemasCompatible (DataType.equalsIgnoreNameAndCompatibleNullability): as many
  // fields, the same types in order (nested ones by their outer type), names ignored.
  auto compatible = [](const Schema& stored, const Schema& now) {
    if (stored.size() != now.size()) return false;
    for (size_t i = 0; i < now.size(); ++i)
      if (stored.field(i).type != now.field(i).type) return false;
    return true;
  };
  auto parseStored = [&](const std::string& ddl, std::string_view which) -> Result<Schema> {
    auto stored = Schema::parseDDL(ddl);
    if (!stored.ok())
      return Status::Corruption(fmt::format("{}: bad state schema file: operator {}: {}", recorded.path, which,
                                            stored.status().message()));
    return stored;
  };
  auto incompatible = [&](std::string_view condition, std::string_view storedParam, std::string_view newParam,
                          std::string_view part, const Schema& stored, const std::string& storedDDL,
                          const Schema& now) {
    return sparkError(Status::Code::kFailedPrecondition, std::string(condition),
                      {{std::string(storedParam), sparkStructTypeString(stored)},
                       {std::string(newParam), sparkStructTypeString(now)}},
                      fmt::format("{}: the state in checkpoint {} has the {} '{}' (recorded in {}), the "
                                  "input now gives '{}': restore the old types or use a new "
                                  "checkpoint location",
                                  what, checkpointRoot, part, storedDDL, recorded.path, now.toDDL()));
  };
  StateOperatorSchema op = *recorded.op;
  bool record = false;
  if (op.keySchema.empty()) {
    op.keySchema = keySchema.toDDL();
    record = true;
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(Schema stored, parseStored(op.keySchema, "keySchema"));
    if (!compatible(stored, keySchema))
      return incompatible("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE", "storedKeySchema", "newKeySchema", "key",
                          stored, op.keySchema, keySchema);
  }
  if (valueSchema && op.valueSchema.empty()) {
    op.valueSchema = valueSchema->toDDL();
    record = true;
  } else if (valueSchema) {
    STREAMSIM_ASSIGN_OR_RETURN(Schema stored, parseStored(op.valueSchema, "valueSchema"));
    if (!compatible(stored, *valueSchema))
      return incompatible("STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE", "storedValueSchema", "newValueSchema",
                          "value", stored, op.valueSchema, *valueSchema);
  }
  if (!record) return Status::OK();
  return recordFile(env, checkpointRoot, operatorId, recorded.number + 1, recorded.variables, op);
}

Result<std::optional<StateOperatorSchema>> readStateOperatorSchema(const Env& env,
                                                                   const std::string& checkpointRoot,
                                                                   int operatorId) {
  STREAMSIM_ASSIGN_OR_RETURN(Recorded recorded, readLatest(env, checkpointRoot, operatorId));
  return recorded.op;
}

Result<std::vector<StateVariableSchema>> readStateSchema(const Env& env, const std::string& checkpointRoot,
                                                         int operatorId) {
  STREAMSIM_ASSIGN_OR_RETURN(Recorded recorded, readLatest(env, checkpointRoot, operatorId));
  return recorded.variables;
}

}  // namespace streamsim
