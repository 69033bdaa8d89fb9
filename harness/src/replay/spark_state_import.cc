// spark_state_import.h. The shapes of Spark's transformWithState rows, from Spark 4.1's
// TransformWithStateKeyValueRowSchemaUtils (StateTypesEncoderUtils.scala): a ValueState/ListState
// key is the grouping key's fields; a MapState key is {key: <grouping key>, userKey: <user key>}
// (getCompositeKeySchema); a value with TTL is {value: <value>, ttlExpirationMs: long}
// (getValueSchemaWithTTL); a timer of TimerStateImpl's `$procTimers_keyToTimestamp` /
// `$eventTimers_keyToTimestamp` family is {key: <grouping key>, expiryTimestampMs: long}
// (TimerKeyEncoder.schemaForKeyRow). The secondary indexes (`_timestampToKey`, `$ttl_*`, `$min_*`,
// `$count_*`) are derived from those rows in Spark, and rebuilt from them here in streamsim's layout.
#include "streamsim/harness/spark_state_import.h"

#include <map>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/harness/checkpoint_state.h"
#include "streamsim/ops/partitioning.h"
#include "streamsim/ops/spark_hash_partitioning.h"
#include "streamsim/state/row_encoding.h"
#include "streamsim/state/state_files.h"
#include "streamsim/tws/state_layout.h"

namespace streamsim::harness {
namespace {

using nlohmann::json;
namespace sl = state_layout;

// A Spark type (its JSON) as the simulator's DDL type, for the types state values carry over with.
std::optional<std::string> ddlType(const std::string& typeJson) {
  json t = json::parse(typeJson, nullptr, false);
  if (!t.is_string()) return std::nullopt;
  const std::string name = t.get<std::string>();
  if (name == "long") return "long";
  if (name == "integer") return "int";
  if (name == "string") return "string";
  if (name == "double") return "double";
  if (name == "boolean") return "boolean";
  return std::nullopt;
}

const SparkField* fieldNamed(const std::vector<SparkField>& fields, std::string_view name) {
  for (const auto& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

// Where the rows of one column family came from, for errors.
struct Origin {
  std::string checkpoint;
  int partition = -1;  // -1: the operator's schema, not one partition's rows
  std::string family;
  std::string where() const {
    if (partition < 0) return fmt::format("{}/state/0 column family {}", checkpoint, family);
    return fmt::format("{}/state/0/{} column family {}", checkpoint, partition, family);
  }
};

// One decoded JSON value of Spark type `typeJson` as a Value.
Result<Value> toValue(const json& v, const SparkField& field, const Origin& o) {
  auto type = ddlType(field.typeJson);
  if (!type)
    return Status::InvalidArgument(fmt::format(
        "{}: field {} has Spark type {}; a replay carries state fields of type long, integer, string, "
        "double and boolean only", o.where(), field.name, field.typeJson));
  if (v.is_null()) return Value();
  if (*type == "long" && v.is_number_integer()) return Value(v.get<int64_t>());
  if (*type == "int" && v.is_number_integer()) return Value(static_cast<int32_t>(v.get<int64_t>()));
  if (*type == "string" && v.is_string()) return Value(v.get<std::string>());
  if (*type == "double" && v.is_number()) return Value(v.get<double>());
  if (*type == "boolean" && v.is_boolean()) return Value(v.get<bool>());
  return Status::InvalidArgument(fmt::format("{}: field {} holds {} where its schema says {}", o.where(),
                                             field.name, v.dump(), field.typeJson));
}

// The fields of a decoded row object in schema order, each encoded as an ordered value (the
// simulator's codec bytes of a struct value: its columns one after another).
Result<std::string> encodeFields(const json& obj, const std::vector<SparkField>& fields, const Origin& o) {
  if (!obj.is_object())
    return Status::InvalidArgument(fmt::format("{}: expected a row, got {}", o.where(), obj.dump()));
  std::string out;
  for (const auto& f : fields) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, toValue(obj.contains(f.name) ? obj[f.name] : json(), f, o));
    encodeOrderedValue(v, out);
  }
  return out;
}

// The grouping key as the replay's input types it (so it encodes as the engine keys input rows).
Result<std::string> encodeGroupingKey(const json& obj, const std::vector<SparkField>& fields,
                                      const Schema& groupingKey, const Origin& o) {
  if (!obj.is_object() || fields.size() != groupingKey.size())
    return Status::InvalidArgument(fmt::format(
        "{}: the state's grouping key has {} field(s) ({}) but the replay groups by {} column(s) ({})",
        o.where(), fields.size(), obj.dump(), groupingKey.size(), groupingKey.toDDL()));
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, toValue(obj.contains(fields[i].name) ? obj[fields[i].name] : json(),
                                                fields[i], o));
    auto typed = v.isNull() ? Result<Value>(v) : v.castTo(groupingKey.field(i));
    if (!typed.ok())
      return Status::InvalidArgument(fmt::format(
          "{}: grouping key field {} = {} is not a value of the replay's column {}: {}", o.where(),
          fields[i].name, v.toString(), groupingKey.field(i).name, typed.status().message()));
    encodeOrderedValue(*typed, out);
  }
  return out;
}

// The grouping key was decoded as Spark wrote it only if Spark's HashPartitioning puts it in the
// partition it was read from (pmod(Murmur3Hash(key, 42), numPartitions); the key's types as
// Spark's schema gives them).
Status checkSparkPartition(const json& obj, const std::vector<SparkField>& fields, int partition,
                           int numSparkPartitions, const Origin& o) {
  if (numSparkPartitions <= 0 || !obj.is_object()) return Status::OK();
  std::vector<Value> key;
  for (const auto& f : fields) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, toValue(obj.contains(f.name) ? obj[f.name] : json(), f, o));
    key.push_back(std::move(v));
  }
  const int spark = ops::sparkHashPartition(key, numSparkPartitions);
  if (spark != partition)
    return Status::InvalidArgument(fmt::format(
        "{}: grouping key {} is in partition {}, but Spark's hash partitioning (Murmur3 of the key, seed 42, "
        "pmod {}) puts it in partition {}: the key does not read as Spark wrote it, or the store belongs to "
        "another query", o.where(), obj.dump(), partition, numSparkPartitions, spark));
  return Status::OK();
}

std::string ddlOf(const std::vector<SparkField>& fields, const Origin& o, Status& error) {
  std::string ddl;
  for (const auto& f : fields) {
    auto t = ddlType(f.typeJson);
    if (!t && error.ok())
      error = Status::InvalidArgument(fmt::format(
          "{}: field {} has Spark type {}; a replay carries state fields of type long, integer, string, "
          "double and boolean only", o.where(), f.name, f.typeJson));
    ddl += fmt::format("{}{} {}", ddl.empty() ? "" : ", ", f.name, t.value_or("?"));
  }
  return ddl;
}

// What Spark's schema says one state variable's rows hold.
struct VariableShape {
  StateVariableSchema schema;  // as recorded for the simulator
  sl::VariableKind kind = sl::VariableKind::kValue;
  std::vector<SparkField> groupingFields;
  std::vector<SparkField> userKeyFields;  // MapState
  std::vector<SparkField> valueFields;    // without the TTL wrapper
  bool ttl = false;
};

Result<VariableShape> shapeOf(const StateVariableMetadata& v, const SparkColumnFamilySchema& cf, const Origin& o) {
  VariableShape s;
  s.ttl = v.ttlEnabled;
  if (v.stateVariableType == "ValueState") s.kind = sl::VariableKind::kValue;
  else if (v.stateVariableType == "ListState") s.kind = sl::VariableKind::kList;
  else if (v.stateVariableType == "MapState") s.kind = sl::VariableKind::kMap;
  else
    return Status::InvalidArgument(fmt::format("{}: state variable {} of type {} (expected ValueState, ListState "
                                               "or MapState)", o.where(), v.stateName, v.stateVariableType));
  if (s.kind == sl::VariableKind::kMap) {
    const SparkField* key = fieldNamed(cf.key, "key");
    const SparkField* userKey = fieldNamed(cf.key, "userKey");
    if (key == nullptr || userKey == nullptr)
      return Status::InvalidArgument(fmt::format("{}: a MapState key schema is {{key, userKey}} (Spark's "
                                                 "getCompositeKeySchema); the schema file has other fields",
                                                 o.where()));
    s.groupingFields = sparkStructFields(key->typeJson);
    s.userKeyFields = sparkStructFields(userKey->typeJson);
  } else {
    s.groupingFields = cf.key;
  }
  s.valueFields = cf.value;
  if (s.ttl) {
    const SparkField* value = fieldNamed(cf.value, "value");
    if (value == nullptr || fieldNamed(cf.value, "ttlExpirationMs") == nullptr)
      return Status::InvalidArgument(fmt::format("{}: a value with TTL is {{value, ttlExpirationMs}} (Spark's "
                                                 "getValueSchemaWithTTL); the schema file has other fields",
                                                 o.where()));
    s.valueFields = sparkStructFields(value->typeJson);
  }
  Status error;
  s.schema.name = v.stateName;
  s.schema.kind = std::string(sl::variableKindName(s.kind));
  s.schema.ttlEnabled = s.ttl;
  s.schema.valueSchema = ddlOf(s.valueFields, o, error);
  if (s.kind == sl::VariableKind::kMap) s.schema.keySchema = ddlOf(s.userKeyFields, o, error);
  if (!error.ok()) return error;
  return s;
}

// One stored value's payload and expiry.
Result<std::pair<std::string, std::optional<TimeMs>>> payloadOf(const json& value, const VariableShape& s,
                                                                const Origin& o) {
  if (!s.ttl) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string p, encodeFields(value, s.valueFields, o));
    return std::make_pair(std::move(p), std::optional<TimeMs>());
  }
  if (!value.is_object() || !value.contains("value") || !value.contains("ttlExpirationMs") ||
      !value["ttlExpirationMs"].is_number_integer())
    return Status::InvalidArgument(fmt::format("{}: expected {{value, ttlExpirationMs}}, got {}", o.where(), value.dump()));
  STREAMSIM_ASSIGN_OR_RETURN(std::string p, encodeFields(value["value"], s.valueFields, o));
  return std::make_pair(std::move(p), std::optional<TimeMs>(value["ttlExpirationMs"].get<int64_t>()));
}

using Family = std::map<std::string, std::string>;  // key -> value
using PartitionRows = std::map<std::string, Family>;  // column family -> rows

}  // namespace

Result<ImportedSparkState> importSparkTransformWithState(const Env& real, const std::string& checkpoint,
                                                          int64_t batch, const Schema& groupingKey,
                                                          int numPartitions, StateStoreKind kind,
                                                          const Env& sim, const std::string& simCheckpoint) {
  CheckpointStateOptions options;
  options.batch = batch;
  options.operatorId = 0;
  STREAMSIM_ASSIGN_OR_RETURN(CheckpointState state, readCheckpointState(real, checkpoint, options));
  STREAMSIM_ASSIGN_OR_RETURN(auto meta, readOperatorMetadata(real, checkpoint, 0));
  if (!meta || meta->operatorName != "transformWithStateExec")
    return Status::InvalidArgument(fmt::format(
        "{}/state/0: operator 0 is {}, not transformWithState: a replay continues a transformWithState query",
        checkpoint, meta ? meta->operatorName : std::string("not named (no operator metadata)")));
  return carrySparkTransformWithState(state.operators.front(), *meta, checkpoint, batch, groupingKey, numPartitions,
                                      kind, sim, simCheckpoint);
}

Result<ImportedSparkState> carrySparkTransformWithState(const OperatorStores& op, const OperatorMetadata& meta,
                                                         const std::string& checkpoint, int64_t batch,
                                                         const Schema& groupingKey, int numPartitions,
                                                         StateStoreKind kind, const Env& sim,
                                                         const std::string& simCheckpoint) {
  ImportedSparkState out;
  std::map<std::string, VariableShape> shapes;
  for (const auto& v : meta.stateVariables) {
    if (v.stateVariableType == "TimerState") continue;
    Origin o{checkpoint, -1, v.stateName};
    auto cf = op.families.find(v.stateName);
    if (cf == op.families.end())
      return Status::InvalidArgument(fmt::format(
          "{}/state/0/_stateSchema: no schema for state variable {} ({}): its rows cannot be typed",
          checkpoint, v.stateName, op.schemaNote));
    STREAMSIM_ASSIGN_OR_RETURN(VariableShape s, shapeOf(v, cf->second, o));
    out.variables.push_back(s.schema);
    shapes.emplace(v.stateName, std::move(s));
  }

  // The partitions Spark's state was written with (operator metadata's numPartitions, else the
  // partition folders there are).
  int numSparkPartitions = static_cast<int>(op.partitions.size());
  for (const auto& store : meta.stateStores)
    if (store.numPartitions > 0) numSparkPartitions = store.numPartitions;
  std::vector<PartitionRows> partitions(static_cast<size_t>(numPartitions));
  auto partitionOfKey = [&](const std::string& encodedKey) -> PartitionRows& {
    return partitions[static_cast<size_t>(ops::partitionOf(encodedKey, numPartitions))];
  };
  for (const PartitionStore& p : op.partitions) {
    if (p.error)
      return Status::InvalidArgument(fmt::format("{}/state/0/{}: {}", checkpoint, p.partition, *p.error));
    for (const auto& f : p.filesRead) out.filesRead.push_back(fmt::format("state/0/{}/{}", p.partition, f));
    for (const StoreRow& row : p.rows) {
      Origin o{checkpoint, p.partition, row.columnFamily};
      json key = json::parse(row.key, nullptr, false);
      json value = json::parse(row.value, nullptr, false);
      const bool keyToTimestamp =
          row.columnFamily == "$procTimers_keyToTimestamp" || row.columnFamily == "$eventTimers_keyToTimestamp";
      if (keyToTimestamp) {
        auto cf = op.families.find(row.columnFamily);
        const SparkField* keyField = cf == op.families.end() ? nullptr : fieldNamed(cf->second.key, "key");
        if (keyField == nullptr || !key.is_object() || !key.contains("expiryTimestampMs") ||
            !key["expiryTimestampMs"].is_number_integer())
          return Status::InvalidArgument(fmt::format("{}: a timer key is {{key, expiryTimestampMs}} (Spark's "
                                                     "TimerKeyEncoder), got {}", o.where(), row.key));
        STREAMSIM_RETURN_IF_ERROR(checkSparkPartition(key["key"], sparkStructFields(keyField->typeJson), p.partition,
                                                      numSparkPartitions, o));
        STREAMSIM_ASSIGN_OR_RETURN(std::string k, encodeGroupingKey(key["key"], sparkStructFields(keyField->typeJson),
                                                                    groupingKey, o));
        const TimeMs at = key["expiryTimestampMs"].get<int64_t>();
        PartitionRows& rows = partitionOfKey(k);
        rows[std::string(sl::kTimersByKeyCf)][k + sl::orderedTime(at)] = "";
        rows[std::string(sl::kTimersByTimeCf)][sl::orderedTime(at) + k] = "";
        ++out.timers;
        continue;
      }
      auto shape = shapes.find(row.columnFamily);
      if (shape == shapes.end()) {
        // Spark's own indexes, derived from the rows above and rebuilt from them below; the
        // default family of a transformWithState store holds nothing of the user's.
        const std::string& cf = row.columnFamily;
        if (cf == "$procTimers_timestampToKey" || cf == "$eventTimers_timestampToKey" || cf.rfind("$ttl_", 0) == 0 ||
            cf.rfind("$min_", 0) == 0 || cf.rfind("$count_", 0) == 0)
          continue;
        return Status::InvalidArgument(fmt::format(
            "{}: a column family that is neither a state variable the operator metadata names nor a timer or "
            "TTL index of transformWithState", o.where()));
      }
      const VariableShape& s = shape->second;
      if (s.kind == sl::VariableKind::kMap) {
        if (!key.is_object() || !key.contains("key") || !key.contains("userKey"))
          return Status::InvalidArgument(fmt::format("{}: a MapState key is {{key, userKey}}, got {}", o.where(), row.key));
        STREAMSIM_RETURN_IF_ERROR(checkSparkPartition(key["key"], s.groupingFields, p.partition, numSparkPartitions, o));
        STREAMSIM_ASSIGN_OR_RETURN(std::string k, encodeGroupingKey(key["key"], s.groupingFields, groupingKey, o));
        STREAMSIM_ASSIGN_OR_RETURN(std::string userKey, encodeFields(key["userKey"], s.userKeyFields, o));
        STREAMSIM_ASSIGN_OR_RETURN(auto payload, payloadOf(value, s, o));
        PartitionRows& rows = partitionOfKey(k);
        rows[s.schema.name][k + userKey] = sl::encodeEntry(payload.second, payload.first);
        if (payload.second) rows[sl::ttlIndexCf(s.schema.name)][sl::orderedTime(*payload.second) + k + userKey] = "";
        ++out.rows;
        continue;
      }
      STREAMSIM_RETURN_IF_ERROR(checkSparkPartition(key, s.groupingFields, p.partition, numSparkPartitions, o));
      STREAMSIM_ASSIGN_OR_RETURN(std::string k, encodeGroupingKey(key, s.groupingFields, groupingKey, o));
      PartitionRows& rows = partitionOfKey(k);
      if (s.kind == sl::VariableKind::kValue) {
        STREAMSIM_ASSIGN_OR_RETURN(auto payload, payloadOf(value, s, o));
        rows[s.schema.name][k] = sl::encodeEntry(payload.second, payload.first);
        if (payload.second) rows[sl::ttlIndexCf(s.schema.name)][sl::orderedTime(*payload.second) + k] = "";
        ++out.rows;
        continue;
      }
      if (!value.is_array())
        return Status::InvalidArgument(fmt::format("{}: a ListState value is a list, got {}", o.where(), row.value));
      std::vector<sl::ListElement> elements;
      for (const json& element : value) {
        STREAMSIM_ASSIGN_OR_RETURN(auto payload, payloadOf(element, s, o));
        if (payload.second) rows[sl::ttlIndexCf(s.schema.name)][sl::orderedTime(*payload.second) + k] = "";
        elements.push_back({payload.second, std::move(payload.first)});
        ++out.rows;
      }
      rows[s.schema.name][k] = sl::encodeList(elements);
    }
  }

  // The simulated checkpoint: the variables' schemas, then version batch + 1 of every partition.
  STREAMSIM_RETURN_IF_ERROR(checkAndRecordStateSchema(sim, simCheckpoint, 0, out.variables));
  const int64_t version = batch + 1;
  for (int p = 0; p < numPartitions; ++p) {
    StateFileWriter writer(StateFileKind::kSnapshot, version);
    for (const auto& [cf, rows] : partitions[static_cast<size_t>(p)])
      for (const auto& [k, v] : rows) writer.put(cf, k, v);
    const std::string dir = stateStoreDir(simCheckpoint, 0, p);
    STREAMSIM_RETURN_IF_ERROR(sim.fs->mkdirs(dir));
    const std::string path = joinPath(dir, stateFileName(kind, StateFileKind::kSnapshot, version));
    STREAMSIM_RETURN_IF_ERROR(sim.fs->write(path, writer.finish()));
    STREAMSIM_RETURN_IF_ERROR(sim.fs->sync(path));
  }
  return out;
}

}  // namespace streamsim::harness
