// checkpoint_state_rocksdb.h. The files are read by the engine (spark_rocksdb_store.h), the rows
// decoded by it (spark_rocksdb_rows.h); here the schema files that name them are found: Spark's
// operator metadata (state/<op>/_metadata, v1 or v2) and its schema file — `_stateSchema/<store>/…`
// (v3, column families) for transformWithState, else the store's `_metadata/schema` (v1/v2).
#include "checkpoint_state_rocksdb.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/checkpoint/spark_rocksdb_rows.h"
#include "streamsim/checkpoint/spark_rocksdb_store.h"

namespace streamsim::harness::detail {
namespace {

std::string relativeToRoot(const std::string& root, const std::string& path) {
  return path.rfind(root + "/", 0) == 0 ? path.substr(root.size() + 1) : path;
}

// The operator's schema file v3: the one operator metadata v2 names (by its file name, under this
// checkpoint's state/<op>/_stateSchema/<store>/, since the recorded path is where Spark ran), else
// the newest file there.
std::optional<std::string> schemaV3Path(const Env& env, const std::string& root, int op,
                                        const std::optional<OperatorMetadata>& meta) {
  const std::string dir = joinPath(joinPath(joinPath(root, "state"), std::to_string(op)), "_stateSchema/default");
  if (meta)
    for (const auto& s : meta->stateStores)
      if (!s.stateSchemaFilePath.empty()) {
        std::string path = joinPath(dir, baseName(s.stateSchemaFilePath));
        if (env.fs->exists(path)) return path;
      }
  auto files = env.fs->list(dir);
  if (!files.ok()) return std::nullopt;
  std::optional<std::string> newest;
  for (const auto& f : *files)
    if (!f.isDir && baseName(f.path)[0] != '.') newest = f.path;  // list() is sorted by path
  return newest;
}

// spark.sql.streaming.stateStore.encodingFormat as the newest offsets record it.
std::optional<std::string> recordedEncodingFormat(const Env& env, const std::string& root) {
  auto latest = OffsetLog(env, root).getLatest();
  if (!latest.ok() || !*latest) return std::nullopt;
  const auto& conf = (*latest)->second.metadata.conf;
  auto it = conf.find("spark.sql.streaming.stateStore.encodingFormat");
  if (it == conf.end()) return std::nullopt;
  return it->second;
}

}  // namespace

Result<std::optional<std::string>> committedUniqueId(const Env& env, const std::string& root, int op,
                                                     int partition, int storeIndex, int64_t version) {
  CommitLog commits(env, root);
  const std::string path = commits.batchPath(version - 1);
  STREAMSIM_ASSIGN_OR_RETURN(auto commit, commits.get(version - 1));
  if (!commit)
    return Status::NotFound(fmt::format("{} is not there: store version {} was never committed, so its "
                                        "unique id is unknown", path, version));
  if (!commit->stateUniqueIdsJson) return std::optional<std::string>();
  auto ids = nlohmann::json::parse(*commit->stateUniqueIdsJson, nullptr, false);
  if (!ids.is_object())
    return Status::Corruption(fmt::format("{}: stateUniqueIds is not a JSON object", path));
  // No entry for the operator (Spark 4.0 writes an empty {} with format v1): no id, as Spark's
  // stateUniqueIds.flatMap(_.get(operatorId)).
  auto opIds = ids.find(std::to_string(op));
  if (opIds == ids.end()) return std::optional<std::string>();
  const auto& parts = *opIds;
  if (!parts.is_array() || partition >= static_cast<int>(parts.size()) || !parts[partition].is_array() ||
      storeIndex >= static_cast<int>(parts[partition].size()) || !parts[partition][storeIndex].is_string())
    return Status::NotFound(fmt::format("{}: stateUniqueIds[\"{}\"] has no id for partition {} store {}",
                                        path, op, partition, storeIndex));
  return std::optional<std::string>(parts[partition][storeIndex].get<std::string>());
}

void readSparkRocksDBStore(const Env& env, const std::string& root, int op, const std::string& storeDir,
                           int storeIndex, int64_t version, const std::string& key, OperatorStores& o,
                           PartitionStore& p) {
  auto folder = listSparkRocksDBFolder(env, storeDir);
  if (!folder.ok()) {
    p.error = folder.status().message();
    return;
  }
  auto id = committedUniqueId(env, root, op, p.partition, storeIndex, version);
  if (!id.ok()) {
    p.error = fmt::format("cannot read version {}: {}", version, id.status().message());
    return;
  }
  if (!*id && folder->uniqueIds()) {
    p.error = fmt::format("cannot read version {}: the files carry unique ids (checkpoint format v2) but "
                          "commits/{} records no stateUniqueIds to choose among them", version, version - 1);
    return;
  }
  // The rows' encoding: spark.sql.streaming.stateStore.encodingFormat as the offsets record it
  // (OffsetSeqMetadata; absent before Spark 4.0: unsaferow).
  SparkRocksDBLayout layout;
  if (auto format = recordedEncodingFormat(env, root); format && *format != "unsaferow") {
    if (*format != "avro") {
      p.error = fmt::format("the state is {}-encoded (spark.sql.streaming.stateStore.encodingFormat in the "
                            "offsets): Spark writes unsaferow or avro", *format);
      return;
    }
    layout.encoding = SparkStateEncoding::kAvro;
  }
  auto state = readSparkRocksDBVersion(env, *folder, version, *id);
  if (!state.ok()) {
    p.error = fmt::format("cannot read version {}: {}", version, state.status().message());
    return;
  }
  for (const auto& f : state->filesRead) p.filesRead.push_back(baseName(f));

  // The layout: column families (the snapshot's mapping, named by the schema file v3) or one
  // schema for the whole store.
  auto meta = readOperatorMetadata(env, root, op);
  std::optional<OperatorMetadata> opMeta;
  if (meta.ok()) opMeta = *meta;
  if (opMeta)
    for (const auto& v : opMeta->stateVariables)
      if (v.stateVariableType == "ListState") layout.listFamilies.insert(v.stateName);
  const bool families = state->columnFamilyMapping && !state->columnFamilyMapping->empty();
  if (families) {
    for (const auto& [name, cfId] : *state->columnFamilyMapping) layout.familyById[cfId] = name;
    if (auto path = schemaV3Path(env, root, op, opMeta)) {
      auto data = env.fs->read(*path);
      auto schema = data.ok() ? parseSparkStateSchema(*data, *path) : Result<SparkStateSchema>(data.status());
      if (schema.ok()) {
        for (const auto& cf : schema->columnFamilies) layout.families[cf.name] = cf;
        o.schemaNote = fmt::format("schema v{} from {}", schema->formatVersion, relativeToRoot(root, *path));
      } else {
        o.schemaNote = fmt::format("schema unreadable ({}): fields guessed", schema.status().message());
      }
    } else {
      o.schemaNote = "no _stateSchema file: fields guessed, named _0, _1, …";
    }
  } else if (!state->rows.empty() && !state->columnFamilyMapping && opMeta && !opMeta->stateVariables.empty()) {
    // RocksDB.createColFamilyIfAbsent sets shouldForceSnapshot, and RocksDB.commit then uploads a
    // snapshot at once even with changelog checkpointing: every version whose changelog holds a
    // family's rows has a zip at or before it naming the family's id. Changelogs alone mean it is
    // lost, and the ids are not guessed from the order the processor declares its state in.
    std::string logs;
    for (const auto& f : state->filesRead) logs += (logs.empty() ? "" : ", ") + baseName(f);
    p.error = fmt::format("cannot decode version {}: transformWithState keys start with a column family id, "
                          "and only the snapshot zip names the ids (its metadata's columnFamilyMapping), but "
                          "no zip at or before version {} is here (read from changelogs alone: {}). Spark "
                          "uploads a snapshot in the commit that creates a column family (RocksDB.commit, "
                          "shouldForceSnapshot), so the store's first zip is missing, not yet to be written",
                          version, version, logs);
    return;
  } else {
    // The store's own _metadata/schema, else partition 0's (Spark writes it with partition 0).
    std::string partitionDir = parentPath(storeDir);
    std::string store = baseName(storeDir);
    bool joinStore = store.find_first_not_of("0123456789") != std::string::npos;  // e.g. left-keyToNumValues
    std::vector<std::string> candidates = {joinPath(storeDir, "_metadata/schema")};
    std::string opDir = joinStore ? parentPath(partitionDir) : partitionDir;
    candidates.push_back(joinStore ? joinPath(joinPath(joinPath(opDir, "0"), store), "_metadata/schema")
                                   : joinPath(joinPath(opDir, "0"), "_metadata/schema"));
    bool found = false;
    for (const auto& path : candidates) {
      if (!env.fs->exists(path)) continue;
      found = true;
      auto data = env.fs->read(path);
      auto schema = data.ok() ? parseSparkStateSchema(*data, path) : Result<SparkStateSchema>(data.status());
      if (schema.ok() && schema->formatVersion <= 2) {
        SparkColumnFamilySchema cf;
        cf.name = "default";
        cf.key = schema->key;
        cf.value = schema->value;
        layout.families["default"] = std::move(cf);
        o.schemaNote = fmt::format("schema v{} from {}", schema->formatVersion, relativeToRoot(root, path));
      } else {
        o.schemaNote = fmt::format("schema unreadable ({}): fields guessed",
                                   schema.ok() ? "not v1/v2" : schema.status().message());
      }
      break;
    }
    if (!found) o.schemaNote = "no _metadata/schema: fields guessed, named _0, _1, …";
    if (layout.encoding == SparkStateEncoding::kAvro && !state->rows.empty()) {
      p.error = fmt::format("version {}: Avro-encoded rows of a store without column families (schema file v1/v2): "
                            "their Avro schema ids are in no schema file read, so they are not decoded", version);
      return;
    }
  }
  if (layout.encoding == SparkStateEncoding::kAvro && o.schemaNote.find("Avro") == std::string::npos) {
    bool ids = false;
    for (const auto& [name, cf] : layout.families) ids = ids || cf.keySchemaId.has_value();
    o.schemaNote += ids ? "; rows Avro-encoded (with Spark 4.1's schema ids)" : "; rows Avro-encoded (Spark 4.0's, no schema ids)";
  }
  o.families = layout.families;
  for (const auto& [k, v] : state->rows) {
    auto row = decodeSparkRocksDBRow(layout, k, v);
    if (!row.ok()) {
      std::string hex;
      for (unsigned char c : k.substr(0, 32)) hex += fmt::format("{:02x}", c);
      p.error = fmt::format("version {}: the row with key 0x{}{} does not decode: {}", version, hex,
                            k.size() > 32 ? "…" : "", row.status().message());
      p.rows.clear();
      return;
    }
    if (!key.empty() && row->keyJson.find(key) == std::string::npos) continue;
    p.rows.push_back({families ? row->columnFamily : std::string(), std::move(row->keyJson),
                      std::move(row->valueJson)});
  }
}

}  // namespace streamsim::harness::detail
