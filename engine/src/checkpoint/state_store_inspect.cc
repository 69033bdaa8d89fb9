// state_store_inspect.h. Which files a version needs follows Spark's RocksDB.load
// (loadWithoutCheckpointId: the newest N.zip <= version, then every N.changelog after it;
// loadWithCheckpointId: version_<id>.zip, else the lineage in version_<id>.changelog back to a
// snapshot it names) and SymmetricHashJoinStateManager.getStateStoreCheckpointIds (a join's four
// stores' ids in commits' stateUniqueIds, in the order left-keyToNumValues,
// left-keyWithIndexToValue, right-keyToNumValues, right-keyWithIndexToValue).
#include "checkpoint/state_store_inspect.h"

#include <cstdint>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/checkpoint/spark_rocksdb_store.h"
#include "streamsim/checkpoint/spark_state_store.h"

namespace streamsim {
namespace {

int joinStoreIndex(const std::string& store) {
  const char* names[] = {"left-keyToNumValues", "left-keyWithIndexToValue", "right-keyToNumValues",
                         "right-keyWithIndexToValue"};
  for (int i = 0; i < 4; ++i)
    if (store == names[i]) return i;
  return 0;
}

bool allDigits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

struct Inspector {
  const Env& env;
  CheckpointReport& report;
  // commits: batch id -> stateUniqueIds JSON (format v2).
  std::map<int64_t, nlohmann::json> ids;

  void add(DiagnosisKind kind, std::string message, std::vector<int64_t> batches, std::vector<std::string> paths) {
    report.diagnoses.push_back(Diagnosis{kind, std::move(message), std::move(batches), std::move(paths)});
  }

  void readLogs() {
    OffsetLog offsets(env, report.root);
    if (auto latest = offsets.getLatest(); latest.ok() && *latest) {
      const auto& conf = (*latest)->second.metadata.conf;
      if (auto it = conf.find("spark.sql.streaming.stateStore.providerClass"); it != conf.end())
        report.stateStoreProvider = it->second;
      if ((*latest)->second.metadata.hasConf) {
        auto it = conf.find("spark.sql.streaming.flatMapGroupsWithState.stateFormatVersion");
        report.flatMapGroupsWithStateFormatRecorded = it != conf.end();
        report.flatMapGroupsWithStateFormatVersion = it != conf.end() ? it->second : "1";
      }
      if (auto it = conf.find("spark.sql.streaming.stateStore.checkpointFormatVersion");
          it != conf.end() && it->second == "2")
        report.stateCheckpointFormatVersion = 2;
    }
    CommitLog commits(env, report.root);
    auto batches = commits.listBatchIds();
    if (!batches.ok()) return;
    for (int64_t b : *batches) {
      auto c = commits.get(b);
      if (!c.ok() || !*c || !(*c)->stateUniqueIdsJson) continue;  // unreadable ones: checkpoint_reader says
      auto parsed = nlohmann::json::parse(*(*c)->stateUniqueIdsJson, nullptr, false);
      // Spark 4.0 writes "stateUniqueIds":{} with format v1: ids only make it v2.
      if (!parsed.is_object() || parsed.empty()) continue;
      report.stateCheckpointFormatVersion = 2;
      ids[b] = std::move(parsed);
    }
  }

  // The id commits/<version - 1> records for this store, if any.
  std::optional<std::string> committedId(int64_t version, int op, int partition, int storeIndex) {
    auto it = ids.find(version - 1);
    if (it == ids.end() || !it->second.is_object()) return std::nullopt;
    auto o = it->second.find(std::to_string(op));
    if (o == it->second.end() || !o->is_array() || partition >= static_cast<int>(o->size())) return std::nullopt;
    const auto& stores = (*o)[static_cast<size_t>(partition)];
    if (!stores.is_array() || storeIndex >= static_cast<int>(stores.size()) || !stores[storeIndex].is_string())
      return std::nullopt;
    return stores[storeIndex].get<std::string>();
  }

  std::string rel(const std::string& path) const {
    return path.rfind(report.root + "/", 0) == 0 ? path.substr(report.root.size() + 1) : path;
  }

  void checkStore(const std::string& dir, int op, int partition, int storeIndex) {
    // Spark's RocksDB store only (streamsim's own RocksDB store writes N.changelog too, with N.snapshot).
    auto kind = classifyStateFolder(env, dir);
    if (!kind.ok() || kind->format != StateFolderFormat::kSparkRocksDB) return;
    auto folder = listSparkRocksDBFolder(env, dir);
    if (!folder.ok() || (folder->snapshots.empty() && folder->changelogs.empty())) return;
    if (!report.latestCommitId) return;
    const int64_t latest = *report.latestCommitId + 1;  // the newest committed store version
    if (!folder->uniqueIds()) {
      // Format v1: the newest committed version must load: its snapshot, then each changelog.
      int64_t base = 0;
      for (const auto& s : folder->snapshots)
        if (s.uniqueId.empty() && s.version <= latest) base = s.version;
      std::vector<std::string> missing;
      for (int64_t v = base + 1; v <= latest; ++v)
        if (!folder->changelog(v, "")) missing.push_back(fmt::format("{}.changelog", v));
      if (!missing.empty())
        add(DiagnosisKind::kMissingStateFile,
            fmt::format("{}: store version {} (batch {}, the latest committed) needs {} after {}, which {} not "
                        "there: a restart fails to load this state", rel(dir), latest, latest - 1,
                        fmt::join(missing, ", "), base > 0 ? fmt::format("snapshot {}.zip", base) : "no snapshot",
                        missing.size() == 1 ? "is" : "are"),
            {latest - 1}, {dir});
      return;
    }
    // Format v2: each committed version's id must have its file; files of other ids are orphans.
    std::set<std::pair<int64_t, std::string>> named;
    int64_t oldest = INT64_MAX;
    for (const auto* files : {&folder->snapshots, &folder->changelogs})
      for (const auto& f : *files) oldest = std::min(oldest, f.version);
    for (int64_t v = oldest; v <= latest; ++v) {
      auto id = committedId(v, op, partition, storeIndex);
      if (!id) continue;
      named.insert({v, *id});
      if (!folder->snapshot(v, *id) && !folder->changelog(v, *id))
        add(DiagnosisKind::kMissingStateFile,
            fmt::format("{}: commits/{} names unique id {} for store version {}, but neither {}_{}.zip nor "
                        "{}_{}.changelog is there", rel(dir), v - 1, *id, v, v, *id, v, *id),
            {v - 1}, {dir});
    }
    for (const auto* files : {&folder->snapshots, &folder->changelogs})
      for (const auto& f : *files) {
        if (f.uniqueId.empty() || named.count({f.version, f.uniqueId})) continue;
        bool committed = committedId(f.version, op, partition, storeIndex).has_value();
        add(DiagnosisKind::kOrphanedStateFile,
            fmt::format("{}: no commit names unique id {} for store version {} ({}): {}; Spark never "
                        "loads it", rel(f.path), f.uniqueId, f.version,
                        committed ? fmt::format("commits/{} names another", f.version - 1)
                                  : fmt::format("batch {} is not committed", f.version - 1),
                        committed ? "a task attempt that did not commit wrote it" : "written by a batch that did not commit"),
            {f.version - 1}, {f.path});
      }
  }

  void run() {
    readLogs();
    const std::string stateDir = joinPath(report.root, "state");
    for (const OperatorMetadata& op : report.operators) {
      const std::string opDir = joinPath(stateDir, std::to_string(op.operatorId));
      auto parts = env.fs->list(opDir);
      if (!parts.ok()) continue;
      for (const FileInfo& p : *parts) {
        std::string name = baseName(p.path);
        if (!p.isDir || !allDigits(name) || name.size() > 9) continue;
        int partition = std::stoi(name);
        checkStore(p.path, static_cast<int>(op.operatorId), partition, 0);
        auto stores = env.fs->list(p.path);
        if (!stores.ok()) continue;
        for (const FileInfo& s : *stores) {
          std::string store = baseName(s.path);
          if (s.isDir && (store == "left-keyToNumValues" || store == "left-keyWithIndexToValue" ||
                          store == "right-keyToNumValues" || store == "right-keyWithIndexToValue"))
            checkStore(s.path, static_cast<int>(op.operatorId), partition, joinStoreIndex(store));
        }
      }
    }
  }
};

}  // namespace

void inspectStateStores(const Env& env, CheckpointReport& report) { Inspector{env, report, {}}.run(); }

}  // namespace streamsim
