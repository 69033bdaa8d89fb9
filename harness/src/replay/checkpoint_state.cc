// checkpoint_state.h: the state a checkpoint's stores hold after one batch, as `streamsim state`
// shows it. Decoding is the engine's: state_files.h / spark_state_store.h read the files,
// tws/state_layout.h decodes transformWithState's rows; here they are walked and put into text.
#include "streamsim/harness/checkpoint_state.h"

#include "checkpoint_state_rocksdb.h"

#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/state/state_files.h"
#include "streamsim/time.h"
#include "streamsim/trace_events.h"
#include "streamsim/tws/state_layout.h"
#include "streamsim/json_nesting.h"

namespace streamsim::harness {

namespace {

// The ids of the folders directly under `dir`: names all digits and at most INT_MAX (Spark's
// operator and partition ids are ints), ascending.
Result<std::vector<int>> idFolders(const Env& env, const std::string& dir) {
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, env.fs->list(dir));
  std::set<int> ids;
  for (const FileInfo& e : entries) {
    if (!e.isDir) continue;
    auto id = batchIdFromFileName(baseName(e.path), /*acceptCompact=*/false);
    if (id && *id <= std::numeric_limits<int>::max()) ids.insert(static_cast<int>(*id));
  }
  return std::vector<int>(ids.begin(), ids.end());
}

// Values as "v" or "(a, b)".
std::string joined(const std::vector<Value>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].toString();
  return values.size() == 1 ? out : "(" + out + ")";
}

// An order-preserving encoding as its values, anything else in hex.
std::string printable(std::string_view bytes) {
  if (auto values = state_layout::decodeValues(bytes); values.ok() && !values->empty()) return joined(*values);
  std::string out = "0x";
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

std::string withExpiry(const state_layout::DecodedRow::Item& item) {
  if (!item.expiresAt) return joined(item.values);
  return fmt::format("{} (TTL, expires {})", joined(item.values), formatTimestamp(*item.expiresAt));
}

// A store row as (key, value) text. transformWithState's rows are decoded by the layout with the
// kinds the operator's _stateSchema records (tws/state_layout.h); another operator's rows are
// order-preserving encodings (printable()); bytes that follow neither are shown in hex, said so.
std::pair<std::string, std::string> describeRow(const state_layout::OperatorLayout& layout,
                                                const std::string& cf, std::string_view k,
                                                std::string_view v) {
  using F = state_layout::DecodedRow::Family;
  auto row = state_layout::decodeRow(layout, cf, k, v);
  if (!row.ok()) {
    if (row.status().code() == Status::Code::kNotFound) return {printable(k), printable(v)};
    return {printable(k), fmt::format("{} (does not decode: {})", printable(v), row.status().message())};
  }
  std::string key = joined(row->groupingKey);
  if (!row->userKey.empty()) key += " / " + joined(row->userKey);
  switch (row->family) {
    case F::kTimersByKey:
    case F::kTimersByTime: return {key, "timer at " + formatTimestamp(*row->time)};
    case F::kTtlIndex: return {key, "expires " + formatTimestamp(*row->time)};
    case F::kVariable: break;
  }
  if (row->kind != state_layout::VariableKind::kList) return {key, withExpiry(row->items.at(0))};
  std::string list = "[";
  for (size_t i = 0; i < row->items.size(); ++i) list += (i ? ", " : "") + withExpiry(row->items[i]);
  return {key, list + "]"};
}

// --key: a grouping key's value (also in timer and TTL index rows, and map entries), matched
// against the stored key's values, else against its bytes.
bool keyMatches(std::string_view bytes, const std::string& keyText, const std::string& key) {
  if (key.empty() || keyText == key || keyText.rfind(key + " / ", 0) == 0) return true;
  auto values = state_layout::decodeValues(bytes);
  if (!values.ok()) return bytes.find(key) != std::string_view::npos;
  for (const auto& v : *values)
    if (v.toString() == key) return true;
  return false;
}

// Spark's _metadata/schema of an operator: the partition's own, else partition 0's (Spark 3.1+
// writes it with partition 0's store).
std::optional<std::pair<std::string, Result<SparkStateSchema>>> sparkSchemaFor(
    const Env& env, const std::string& root, int op, int partition, const std::string& store) {
  for (int p : {partition, 0}) {
    std::string path = stateStoreDir(root, op, p) + (store.empty() ? "" : "/" + store) + "/_metadata/schema";
    if (!env.fs->exists(path)) continue;
    auto data = env.fs->read(path);
    if (!data.ok()) return std::make_pair(path, Result<SparkStateSchema>(data.status()));
    return std::make_pair(path, parseSparkStateSchema(*data, path));
  }
  return std::nullopt;
}

std::string relativeTo(const std::string& root, const std::string& path) {
  return path.rfind(root + "/", 0) == 0 ? path.substr(root.size() + 1) : path;
}

// Why a folder of this format is not read; nullopt for the formats that are.
std::optional<std::string> unreadFormat(const StateFolderInfo& folder) {
  switch (folder.format) {
    case StateFolderFormat::kUnrecognised:
      return fmt::format("{} starts like no state file streamsim knows (streamsim's SSSTATE1, Spark's "
                         "LZ4Block, snappy, zstd or lzf): corrupt, torn or not a state file",
                         folder.detail);
    case StateFolderFormat::kSparkHdfsOtherCodec:
      return fmt::format("Spark's HDFS-backed state store compressed with {} "
                         "(spark.sql.streaming.stateStore.compression.codec): only lz4 is read yet",
                         folder.detail);
    default: return std::nullopt;
  }
}

// Spark's HDFS-backed store of one partition at `version`; the rows' key and value as JSON texts.
void readSparkPartition(const Env& env, const std::string& root, int op, const StateFolderInfo& folder,
                        int64_t version, const std::string& key, OperatorStores& out, PartitionStore& p) {
  auto schema = sparkSchemaFor(env, root, op, p.partition, p.store);
  const SparkStateSchema* sc = nullptr;
  if (schema && schema->second.ok()) {
    sc = &*schema->second;
    out.schemaNote = fmt::format("schema v{} from {}", sc->formatVersion, relativeTo(root, schema->first));
  } else if (schema) {
    out.schemaNote = fmt::format("schema unreadable ({}): fields guessed", schema->second.status().message());
  } else {
    out.schemaNote = "no _metadata/schema (Spark before 3.1 wrote none): fields guessed, named _0, _1, …";
  }
  auto state = readSparkStateVersion(env, folder, version);
  if (!state.ok()) {
    p.error = fmt::format("cannot read version {}: {}", version, state.status().message());
    return;
  }
  for (const auto& f : state->filesRead) p.filesRead.push_back(baseName(f));
  for (const auto& [k, v] : state->rows) {
    std::string kj = unsafeRowToJson(k, sc ? &sc->key : nullptr);
    if (!key.empty() && kj.find(key) == std::string::npos) continue;
    p.rows.push_back({"", std::move(kj), unsafeRowToJson(v, sc ? &sc->value : nullptr)});
  }
}

// streamsim's own files of one partition at `version`, written by the `kind` store.
void readStreamsimPartition(const Env& env, const std::string& root, int op,
                            const state_layout::OperatorLayout& layout, int64_t version,
                            StateStoreKind kind, const std::string& key, PartitionStore& p) {
  // A torn snapshot the store reads around (from older files) is said, not skipped silently.
  struct SkippedSnapshots : TraceSink {
    std::vector<std::string> notes;
    void event(std::string_view json) override {
      auto e = parseJsonBounded<nlohmann::json>(json);
      if (e.is_object() && e.value("event", "") == events::kStateSnapshotSkipped)
        notes.push_back(fmt::format("{} is unreadable ({}); read from older files instead",
                                    e.value("path", ""), e.value("error", "")));
    }
  } skipped;
  Env traced = env;
  traced.trace = &skipped;
  auto dump = readStateAt(traced, root, op, p.partition, version, kind);
  if (!dump.ok()) {
    p.error = fmt::format("cannot read: {}", dump.status().message());
    return;
  }
  p.warnings = std::move(skipped.notes);
  for (const auto& [cf, entries] : *dump) {
    for (const auto& [k, v] : entries) {
      auto [kt, vt] = describeRow(layout, cf, k, v);
      if (!keyMatches(k, kt, key)) continue;
      p.rows.push_back({cf, std::move(kt), std::move(vt)});
    }
  }
}

// The store folders under a partition folder: a stream-stream join keeps four
// (state/<op>/<part>/left-keyToNumValues, …); any other operator none (its store is the
// partition folder itself).
Result<std::vector<std::string>> storeFolders(const Env& env, const std::string& partitionDir) {
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, env.fs->list(partitionDir));
  std::vector<std::string> out;
  for (const FileInfo& e : entries) {
    std::string name = baseName(e.path);
    // SymmetricHashJoinStateManager.getStateStoreName: "<left|right>-<keyToNumValues|keyWithIndexToValue>";
    // any other folder (e.g. one named like a state file) is not a store.
    if (e.isDir && (name == "left-keyToNumValues" || name == "left-keyWithIndexToValue" ||
                    name == "right-keyToNumValues" || name == "right-keyWithIndexToValue"))
      out.push_back(name);
  }
  return out;
}

// The index of a store in commits' stateUniqueIds per partition: a join's four in
// SymmetricHashJoinStateManager.getStateStoreCheckpointIds' order; any other store is the only one.
int storeIndex(const std::string& store) {
  static constexpr std::string_view kJoinStores[] = {"left-keyToNumValues", "left-keyWithIndexToValue",
                                                     "right-keyToNumValues", "right-keyWithIndexToValue"};
  for (int i = 0; i < 4; ++i)
    if (store == kJoinStores[i]) return i;
  return 0;
}

}  // namespace

Result<std::map<int, std::vector<int>>> listStateStores(const Env& env, const std::string& root) {
  std::map<int, std::vector<int>> out;
  const std::string stateDir = joinPath(root, "state");
  if (!env.fs->exists(stateDir)) return out;
  STREAMSIM_ASSIGN_OR_RETURN(auto ops, idFolders(env, stateDir));
  for (int op : ops) {
    STREAMSIM_ASSIGN_OR_RETURN(out[op], idFolders(env, joinPath(stateDir, std::to_string(op))));
  }
  return out;
}

Result<std::optional<StateStoreKind>> recordedStateStore(const Env& env, const std::string& offsetsFile) {
  STREAMSIM_ASSIGN_OR_RETURN(std::string text, env.fs->read(offsetsFile));
  STREAMSIM_ASSIGN_OR_RETURN(OffsetSeq seq, OffsetLog::parse(text, offsetsFile));
  auto it = seq.metadata.conf.find("spark.sql.streaming.stateStore.providerClass");
  if (it == seq.metadata.conf.end()) return std::optional<StateStoreKind>();
  return std::optional<StateStoreKind>(it->second.find("RocksDB") != std::string::npos ? StateStoreKind::kRocksDB
                                                                                       : StateStoreKind::kMemory);
}

std::set<std::string> OperatorStores::formats() const {
  std::set<std::string> out;
  for (const auto& p : partitions)
    if (p.format) out.insert(std::string(stateFolderFormatName(*p.format)));
  return out;
}

bool CheckpointState::anyPartitionFailed() const {
  for (const auto& op : operators)
    for (const auto& p : op.partitions)
      if (p.error) return true;
  return false;
}

Result<CheckpointState> readCheckpointState(const Env& env, const std::string& root,
                                            const CheckpointStateOptions& options) {
  const std::string stateDir = joinPath(root, "state");
  auto stat = env.fs->stat(stateDir);
  if (!stat.ok() || !stat->isDir)
    return Status::InvalidArgument(fmt::format(
        "{} has no state/ folder; the query had no stateful operator, or this is not a checkpoint", root));
  // -1 (the default): the newest batch, below.
  if (options.batch < -1 || options.batch == std::numeric_limits<int64_t>::max())
    return Status::InvalidArgument(fmt::format(
        "--batch must be between 0 and {} (the store version is batch + 1); got {}",
        std::numeric_limits<int64_t>::max() - 1, options.batch));
  CheckpointState out;
  out.root = root;
  out.batch = options.batch;
  STREAMSIM_ASSIGN_OR_RETURN(auto committed, CommitLog(env, root).getLatestBatchId());
  STREAMSIM_ASSIGN_OR_RETURN(auto planned, OffsetLog(env, root).getLatestBatchId());
  if (out.batch == -1) {  // the newest committed batch (else the newest planned one)
    if (!committed && !planned)
      return Status::InvalidArgument(fmt::format(
          "{} has no commits/ or offsets/ to tell the latest batch; give --batch N", root));
    out.batch = committed ? *committed : *planned;
    out.latestCommitted = committed.has_value();
  }
  out.storeVersion = out.batch + 1;  // store version = batch id + 1 (SEMANTICS.md §2)
  // streamsim's own files are read as the store the batches ran on wrote them (the newest
  // offsets' record; the memory store when there is none), read once a partition needs it.
  std::optional<Result<StateStoreKind>> kind;
  auto storeKind = [&]() -> Result<StateStoreKind> {
    if (!kind) {
      if (!planned) {
        kind = StateStoreKind::kMemory;
      } else {
        auto recorded = recordedStateStore(env, OffsetLog(env, root).batchPath(*planned));
        kind = recorded.ok() ? Result<StateStoreKind>(recorded->value_or(StateStoreKind::kMemory))
                             : Result<StateStoreKind>(recorded.status());
      }
    }
    return *kind;
  };
  STREAMSIM_ASSIGN_OR_RETURN(auto stores, listStateStores(env, root));
  for (const auto& [op, partitions] : stores) {
    if ((options.operatorId >= 0 && op != options.operatorId) || partitions.empty()) continue;
    OperatorStores& o = out.operators.emplace_back();
    o.operatorId = op;
    auto layout = state_layout::readOperatorLayout(env, root, op);
    const state_layout::OperatorLayout noLayout;
    for (int partition : partitions) {
      const std::string partitionDir = stateStoreDir(root, op, partition);
      auto stores = storeFolders(env, partitionDir);
      std::vector<std::string> names = stores.ok() && !stores->empty() ? *stores : std::vector<std::string>{""};
      for (const std::string& store : names) {
        PartitionStore& p = o.partitions.emplace_back();
        p.partition = partition;
        p.store = store;
        if (!stores.ok()) {
          p.error = stores.status().message();
          continue;
        }
        const std::string dir = store.empty() ? partitionDir : joinPath(partitionDir, store);
        auto folder = classifyStateFolder(env, dir);
        if (!folder.ok()) {
          p.error = folder.status().message();
          continue;
        }
        p.format = folder->format;
        for (const auto& t : folder->tempFiles) p.tempFiles.push_back(relativeTo(root, t));
        if (auto why = unreadFormat(*folder)) {
          p.error = *why;
        } else if (folder->format == StateFolderFormat::kSparkRocksDB) {
          detail::readSparkRocksDBStore(env, root, op, dir, storeIndex(store), out.storeVersion, options.key, o, p);
        } else if (folder->format == StateFolderFormat::kSparkHdfs) {
          readSparkPartition(env, root, op, *folder, out.storeVersion, options.key, o, p);
        } else if (folder->format == StateFolderFormat::kStreamsim) {
          auto k = storeKind();
          if (!k.ok()) {
            p.error = fmt::format("cannot tell the state store that wrote it: {}", k.status().message());
            continue;
          }
          readStreamsimPartition(env, root, op, layout.ok() ? *layout : noLayout, out.storeVersion, *k,
                                 options.key, p);
        }
      }
    }
  }
  if (out.operators.empty())
    return Status::InvalidArgument(fmt::format(
        "no state for operator {} under {}",
        options.operatorId >= 0 ? std::to_string(options.operatorId) : std::string("(any)"), stateDir));
  return out;
}

}  // namespace streamsim::harness
