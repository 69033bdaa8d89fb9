// Spark's RocksDB-backed state store files (spark_rocksdb_store.h). The formats, from Spark 4.1's
// RocksDBFileManager (file names, the zip, RocksDBCheckpointMetadata), StateStoreChangelog.scala
// (changelog readers v1..v4, RecordType bytes, the lineage header) and RocksDB.scala
// (loadWithoutCheckpointId / loadWithCheckpointId / replayChangelog; the StringAppendOperator
// merge): docs/checkpoint-format.md "Spark's RocksDB state store files".
#include "streamsim/checkpoint/spark_rocksdb_store.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/iterator.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>

#include "checkpoint/java_data_input.h"
#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/checkpoint/zip_reader.h"

namespace streamsim {
namespace {

using nlohmann::json;

// RocksDB.scala sets `new StringAppendOperator()` (rocksdbjni's default delimiter ','): a merge
// appends "," + operand to the value there is, or is the operand when there is none.
void appendMerged(std::string& existing, bool had, std::string_view operand) {
  if (had) existing += ',';
  existing.append(operand);
}

class StringAppendOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* out, rocksdb::Logger* /*logger*/) const override {
    out->clear();
    if (existing != nullptr) out->assign(existing->data(), existing->size());
    appendMerged(*out, existing != nullptr, std::string_view(value.data(), value.size()));
    return true;
  }
  const char* Name() const override { return "StringAppendOperator"; }
};

std::string dirOf(const std::string& path) { return parentPath(path); }

bool isUuidLike(std::string_view id) {
  return !id.empty() && id.find_first_not_of("0123456789abcdefABCDEF-") == std::string_view::npos;
}

}  // namespace

std::optional<std::pair<int64_t, std::string>> sparkRocksDBFileVersion(std::string_view name,
                                                                       std::string_view suffix) {
  if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) return std::nullopt;
  std::string_view stem = name.substr(0, name.size() - suffix.size());
  std::string_view id;
  if (size_t us = stem.find('_'); us != std::string_view::npos) {
    id = stem.substr(us + 1);
    stem = stem.substr(0, us);
    if (!isUuidLike(id)) return std::nullopt;
  }
  if (stem.empty() || stem.size() > 18 || stem.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return std::make_pair(std::stoll(std::string(stem)), std::string(id));
}

bool SparkRocksDBFolder::uniqueIds() const {
  for (const auto* files : {&snapshots, &changelogs})
    for (const auto& f : *files)
      if (!f.uniqueId.empty()) return true;
  return false;
}

namespace {
const SparkRocksDBFile* findFile(const std::vector<SparkRocksDBFile>& files, int64_t version,
                                 const std::string& id) {
  for (const auto& f : files)
    if (f.version == version && f.uniqueId == id) return &f;
  return nullptr;
}
}  // namespace

const SparkRocksDBFile* SparkRocksDBFolder::snapshot(int64_t version, const std::string& id) const {
  return findFile(snapshots, version, id);
}
const SparkRocksDBFile* SparkRocksDBFolder::changelog(int64_t version, const std::string& id) const {
  return findFile(changelogs, version, id);
}

Result<SparkRocksDBFolder> listSparkRocksDBFolder(const Env& env, const std::string& dir) {
  SparkRocksDBFolder out;
  out.dir = dir;
  STREAMSIM_ASSIGN_OR_RETURN(auto files, env.fs->list(dir));
  for (const auto& f : files) {
    if (f.isDir) continue;
    std::string name = baseName(f.path);
    if (auto v = sparkRocksDBFileVersion(name, ".zip")) out.snapshots.push_back({v->first, v->second, f.path});
    if (auto v = sparkRocksDBFileVersion(name, ".changelog"))
      out.changelogs.push_back({v->first, v->second, f.path});
  }
  auto byVersion = [](const SparkRocksDBFile& a, const SparkRocksDBFile& b) {
    return std::tie(a.version, a.uniqueId) < std::tie(b.version, b.uniqueId);
  };
  std::sort(out.snapshots.begin(), out.snapshots.end(), byVersion);
  std::sort(out.changelogs.begin(), out.changelogs.end(), byVersion);
  return out;
}

Result<RocksDBSnapshotMetadata> parseRocksDBSnapshotMetadata(std::string_view text, const std::string& path) {
  size_t nl = text.find('\n');
  std::string_view header = text.substr(0, nl);
  if (nl == std::string_view::npos || header != "v1")
    return Status::Corruption(fmt::format("{}: expected the line \"v1\" and then RocksDBCheckpointMetadata "
                                          "JSON; starts with \"{}\"", path, header.substr(0, 20)));
  json j = json::parse(text.substr(nl + 1), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object())
    return Status::Corruption(fmt::format("{}: line 2 is not a JSON object", path));
  RocksDBSnapshotMetadata m;
  auto files = [&](const char* field, const char* dfsField,
                   std::vector<RocksDBSnapshotMetadata::File>& out) -> Status {
    if (!j.contains(field) || j[field].is_null()) return Status::OK();
    if (!j[field].is_array())
      return Status::Corruption(fmt::format("{}: \"{}\" must be an array", path, field));
    for (const auto& f : j[field]) {
      if (!f.is_object() || !f.contains("localFileName") || !f.contains(dfsField) ||
          !f["localFileName"].is_string() || !f[dfsField].is_string())
        return Status::Corruption(fmt::format("{}: an entry of \"{}\" lacks localFileName or {}: {}", path,
                                              field, dfsField, f.dump()));
      std::string local = f["localFileName"].get<std::string>(), dfs = f[dfsField].get<std::string>();
      // Names only: a path in them would read outside the store folder.
      if (local.find('/') != std::string::npos || dfs.find('/') != std::string::npos || dfs.empty() ||
          local.empty() || local[0] == '.' || dfs[0] == '.')
        return Status::Corruption(fmt::format("{}: \"{}\" names a file with a path: {}", path, field, f.dump()));
      out.push_back({local, dfs, f.value("sizeBytes", int64_t{0})});
    }
    return Status::OK();
  };
  STREAMSIM_RETURN_IF_ERROR(files("sstFiles", "dfsSstFileName", m.sstFiles));
  STREAMSIM_RETURN_IF_ERROR(files("logFiles", "dfsLogFileName", m.logFiles));
  if (j.contains("numKeys") && j["numKeys"].is_number_integer()) m.numKeys = j["numKeys"].get<int64_t>();
  if (j.contains("columnFamilyMapping") && j["columnFamilyMapping"].is_object()) {
    std::map<std::string, int> mapping;
    for (const auto& [name, id] : j["columnFamilyMapping"].items()) {
      if (!id.is_number_integer())
        return Status::Corruption(fmt::format("{}: columnFamilyMapping[\"{}\"] is not a number", path, name));
      mapping[name] = id.get<int>();
    }
    m.columnFamilyMapping = std::move(mapping);
  }
  return m;
}

Result<SparkChangelog> parseSparkChangelog(std::string_view data, const std::string& path) {
  detail::JavaDataInput in{data};
  SparkChangelog out;
  // StateStoreChangelogReaderFactory: readUTF; "v<N>" is format N, anything else (v1 has no
  // header: its first bytes are a key length) is format 1.
  {
    detail::JavaDataInput peek{data};
    std::string first;
    if (peek.readUtf(first) && first.size() >= 2 && first[0] == 'v' &&
        first.find_first_not_of("0123456789", 1) == std::string::npos && first.size() <= 6) {
      int v = std::stoi(first.substr(1));
      if (v < 1 || v > 4)
        return Status::FailedPrecondition(fmt::format("{}: changelog format \"{}\": Spark 4.1 writes v1 to v4 "
                                                      "(StateStoreChangelog.scala); this one is not read",
                                                      path, first));
      if (v >= 2) {
        out.formatVersion = v;
        in.pos = peek.pos;
      }
    }
  }
  if (out.formatVersion >= 3) {  // the lineage: JSON [{"version":N,"checkpointUniqueId":"…"}]
    std::string text;
    size_t at = in.pos;
    if (!in.readUtf(text))
      return Status::Corruption(fmt::format("{}: byte {}: changelog v{} ends before its lineage", path, at,
                                            out.formatVersion));
    json j = json::parse(text, nullptr, false);
    if (!j.is_array())
      return Status::Corruption(fmt::format("{}: byte {}: the lineage is not a JSON array: {}", path, at,
                                            text.substr(0, 80)));
    for (const auto& item : j) {
      if (!item.is_object() || !item.contains("version") || !item["version"].is_number_integer() ||
          !item.contains("checkpointUniqueId") || !item["checkpointUniqueId"].is_string())
        return Status::Corruption(fmt::format("{}: byte {}: a lineage item is not {{\"version\":N,"
                                              "\"checkpointUniqueId\":\"…\"}}: {}", path, at, item.dump()));
      out.lineage.emplace_back(item["version"].get<int64_t>(), item["checkpointUniqueId"].get<std::string>());
    }
  }
  const bool typed = out.formatVersion == 2 || out.formatVersion == 4;  // a record-type byte
  for (size_t n = 0;; ++n) {
    SparkChangelogRecord r;
    r.offset = in.pos;
    auto cut = [&](const char* what) {
      return Status::Corruption(fmt::format("{}: record {} at byte {} of the decompressed stream: ends "
                                            "inside its {} (changelog v{}; a write cut short?)", path, n,
                                            r.offset, what, out.formatVersion));
    };
    if (typed) {
      uint8_t type = 0;
      if (!in.readByte(type)) return cut("record type (no EOF record)");
      if (type == 0x00) break;  // EOF_RECORD
      if (type == 0x01) r.type = SparkChangelogRecord::Type::kPut;
      else if (type == 0x10) r.type = SparkChangelogRecord::Type::kDelete;
      else if (type == 0x11) r.type = SparkChangelogRecord::Type::kMerge;
      else
        return Status::Corruption(fmt::format("{}: record {} at byte {} of the decompressed stream: record "
                                              "type 0x{:02x} is none of Spark's (0x00 EOF, 0x01 put, 0x10 "
                                              "delete, 0x11 merge)", path, n, r.offset, type));
    }
    int32_t keySize = 0;
    if (!in.readInt(keySize)) return cut(typed ? "key length" : "key length (no -1 end marker)");
    if (!typed && keySize == -1) break;  // v1/v3: a -1 key length ends the file
    if (keySize < 0)
      return Status::Corruption(fmt::format("{}: record {} at byte {} of the decompressed stream: key size {}",
                                            path, n, r.offset, keySize));
    if (!in.readBytes(static_cast<size_t>(keySize), r.key)) return cut("key");
    int32_t valueSize = 0;
    if (!in.readInt(valueSize)) return cut("value length");
    if (typed && r.type == SparkChangelogRecord::Type::kDelete) {
      if (valueSize != -1)
        return Status::Corruption(fmt::format("{}: record {} at byte {} of the decompressed stream: a delete "
                                              "record's value size is {}, not -1", path, n, r.offset, valueSize));
    } else if (valueSize < 0) {
      if (typed)
        return Status::Corruption(fmt::format("{}: record {} at byte {} of the decompressed stream: value "
                                              "size {}", path, n, r.offset, valueSize));
      r.type = SparkChangelogRecord::Type::kDelete;  // v1/v3: a negative value size is a deletion
    } else if (!in.readBytes(static_cast<size_t>(valueSize), r.value)) {
      return cut("value");
    }
    out.records.push_back(std::move(r));
  }
  return out;
}

Result<SparkChangelog> readSparkChangelog(const Env& env, const std::string& path) {
  STREAMSIM_ASSIGN_OR_RETURN(std::string raw, env.fs->read(path));
  std::string before;
  auto data = decodeLz4BlockStream(raw, path, &before);
  if (!data.ok()) {
    // Name the record the bad block cuts: the records of the blocks before it read up to there.
    auto partial = parseSparkChangelog(before, path);
    if (partial.ok()) return data.status();  // cannot happen: a stream cut before its end marker
    std::string cut(partial.status().message());
    if (cut.rfind(path + ": ", 0) == 0) cut = cut.substr(path.size() + 2);
    return Status::Corruption(fmt::format("{}; the {} bytes decompressed before it end inside {}", data.status().message(),
                                          before.size(), cut));
  }
  return parseSparkChangelog(*data, path);
}

namespace {

Status fromRocks(const rocksdb::Status& st, const std::string& what) {
  if (st.ok()) return Status::OK();
  return Status::Corruption(fmt::format("{}: RocksDB: {}", what, st.ToString()));
}

}  // namespace

Result<RocksDBSnapshot> readRocksDBSnapshot(const Env& env, const std::string& zipPath) {
  STREAMSIM_ASSIGN_OR_RETURN(std::string raw, env.fs->read(zipPath));
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, readZipArchive(raw, zipPath));
  auto meta = entries.find("metadata");
  if (meta == entries.end())
    return Status::Corruption(fmt::format("{}: the snapshot zip has no \"metadata\" entry (RocksDBFileManager "
                                          "writes one naming its SST files); it holds: {}", zipPath,
                                          [&] {
                                            std::string names;
                                            for (const auto& [n, _] : entries) names += (names.empty() ? "" : ", ") + n;
                                            return names.empty() ? std::string("nothing") : names;
                                          }()));
  RocksDBSnapshot out;
  STREAMSIM_ASSIGN_OR_RETURN(out.metadata, parseRocksDBSnapshotMetadata(meta->second, zipPath + " (metadata)"));
  // A RocksDB Env in memory for this read only: the zip's files and the SSTs under their local
  // names, as RocksDBFileManager.loadCheckpointFromDfs lays them out in Spark's working folder.
  std::unique_ptr<rocksdb::Env> mem(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  const std::string db = "/snapshot";
  STREAMSIM_RETURN_IF_ERROR(fromRocks(mem->CreateDirIfMissing(db), zipPath));
  for (const auto& [name, bytes] : entries) {
    if (name == "metadata" || name.find('/') != std::string::npos || name.empty() || name[0] == '.') continue;
    STREAMSIM_RETURN_IF_ERROR(fromRocks(rocksdb::WriteStringToFile(mem.get(), bytes, db + "/" + name), zipPath));
  }
  const std::string storeDir = dirOf(zipPath);
  rocksdb::Options options;
  options.env = mem.get();
  options.merge_operator = std::make_shared<StringAppendOperator>();
  // One read, no background work: no file-opening threads, no periodic statistics timer.
  options.max_file_opening_threads = 1;
  options.stats_dump_period_sec = 0;
  options.stats_persist_period_sec = 0;
  for (const auto& [files, subdir] : {std::pair{&out.metadata.sstFiles, "SSTs"}, std::pair{&out.metadata.logFiles, "logs"}}) {
    for (const auto& f : *files) {
      std::string path = joinPath(joinPath(storeDir, subdir), f.dfsFileName);
      if (!env.fs->exists(path))
        return Status::NotFound(fmt::format("{}: {} names {} (its {}), which is not in {}/", zipPath,
                                            "metadata", f.dfsFileName, f.localFileName, subdir));
      STREAMSIM_ASSIGN_OR_RETURN(std::string bytes, env.fs->read(path));
      if (f.sizeBytes > 0 && static_cast<int64_t>(bytes.size()) != f.sizeBytes)
        return Status::Corruption(fmt::format("{}: {} bytes, but {} records {} (cut short or replaced?)", path,
                                              bytes.size(), zipPath, f.sizeBytes));
      std::string local = db + "/" + f.localFileName;
      STREAMSIM_RETURN_IF_ERROR(fromRocks(rocksdb::WriteStringToFile(mem.get(), bytes, local), path));
      if (std::string_view(subdir) == "SSTs") {
        rocksdb::SstFileReader reader(options);
        STREAMSIM_RETURN_IF_ERROR(fromRocks(reader.Open(local), path + " (SST file)"));
        STREAMSIM_RETURN_IF_ERROR(fromRocks(reader.VerifyChecksum(), path + " (SST file)"));
      }
    }
  }
  rocksdb::DB* raw_db = nullptr;
  STREAMSIM_RETURN_IF_ERROR(fromRocks(rocksdb::DB::OpenForReadOnly(options, db, &raw_db),
                                      fmt::format("{}: opening the snapshot", zipPath)));
  std::unique_ptr<rocksdb::DB> opened(raw_db);
  std::unique_ptr<rocksdb::Iterator> it(opened->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next())
    out.rows.emplace(it->key().ToString(), it->value().ToString());
  STREAMSIM_RETURN_IF_ERROR(fromRocks(it->status(), fmt::format("{}: reading the snapshot", zipPath)));
  it.reset();
  (void)opened->Close();
  return out;
}

Result<SparkRocksDBState> readSparkRocksDBVersion(const Env& env, const SparkRocksDBFolder& folder,
                                                  int64_t version, const std::optional<std::string>& uniqueId) {
  SparkRocksDBState out;
  out.version = version;
  out.uniqueId = uniqueId.value_or("");
  // (version, id) of the snapshot to start from (0: none), then the changelogs to replay.
  std::pair<int64_t, std::string> base{0, ""};
  std::vector<std::pair<int64_t, std::string>> replay;
  if (version <= 0) return out;
  if (!uniqueId) {
    // RocksDBFileManager.getLatestSnapshotVersion: the newest N.zip with N <= version.
    for (const auto& s : folder.snapshots)
      if (s.uniqueId.empty() && s.version <= version) base = {s.version, ""};
    for (int64_t v = base.first + 1; v <= version; ++v) replay.emplace_back(v, "");
  } else if (folder.snapshot(version, *uniqueId)) {
    base = {version, *uniqueId};
  } else {
    const SparkRocksDBFile* log = folder.changelog(version, *uniqueId);
    if (log == nullptr)
      return Status::NotFound(fmt::format("{}: the commit log names unique id {} for version {}, but neither "
                                          "{}_{}.zip nor {}_{}.changelog is there (missing, or the files "
                                          "belong to another run)", folder.dir, *uniqueId, version, version,
                                          *uniqueId, version, *uniqueId));
    STREAMSIM_ASSIGN_OR_RETURN(SparkChangelog head, readSparkChangelog(env, log->path));
    if (head.formatVersion < 3)
      return Status::Corruption(fmt::format("{}: changelog v{} has no lineage, but its name carries a unique "
                                            "id (checkpoint format v2 writes v3 or v4)", log->path,
                                            head.formatVersion));
    auto lineage = head.lineage;
    lineage.emplace_back(version, *uniqueId);
    std::sort(lineage.begin(), lineage.end());
    // RocksDBFileManager.getLatestSnapshotVersionAndUniqueIdFromLineage: the newest zip the
    // lineage names; none is fine only when the lineage starts at version 1.
    bool found = false;
    for (const auto& item : lineage)
      if (folder.snapshot(item.first, item.second)) {
        base = item;
        found = true;
      }
    if (!found && lineage.front().first != 1) {
      std::string items;
      for (const auto& [v, id] : lineage) items += fmt::format("{}{}_{}", items.empty() ? "" : ", ", v, id);
      return Status::NotFound(fmt::format("{}: no snapshot for the lineage of version {} ({}): none of "
                                          "those versions has its <version>_<id>.zip here", folder.dir,
                                          version, items));
    }
    for (const auto& item : lineage)
      if (item.first > base.first) replay.push_back(item);
    for (size_t i = 0; i < replay.size(); ++i)
      if (replay[i].first != base.first + 1 + static_cast<int64_t>(i))
        return Status::Corruption(fmt::format("{}: the lineage in {} skips from version {} to {}", folder.dir,
                                              log->path, i == 0 ? base.first : replay[i - 1].first,
                                              replay[i].first));
  }
  if (base.first > 0) {
    const SparkRocksDBFile* zip = folder.snapshot(base.first, base.second);
    STREAMSIM_ASSIGN_OR_RETURN(RocksDBSnapshot snap, readRocksDBSnapshot(env, zip->path));
    out.snapshotVersion = base.first;
    out.rows = std::move(snap.rows);
    out.columnFamilyMapping = std::move(snap.metadata.columnFamilyMapping);
    out.filesRead.push_back(zip->path);
  }
  for (const auto& [v, id] : replay) {
    const SparkRocksDBFile* log = folder.changelog(v, id);
    if (log == nullptr) {
      if (!uniqueId && folder.snapshots.empty() && folder.changelogs.empty()) break;  // nothing written yet
      std::string name = id.empty() ? fmt::format("{}.changelog", v) : fmt::format("{}_{}.changelog", v, id);
      return Status::NotFound(fmt::format("{}: version {} needs {}, which is not there (snapshot {}, "
                                          "changelogs {})", folder.dir, version, name,
                                          base.first > 0 ? std::to_string(base.first) : std::string("none"),
                                          [&] {
                                            std::string vs;
                                            for (const auto& c : folder.changelogs)
                                              vs += (vs.empty() ? "" : ", ") + baseName(c.path);
                                            return vs.empty() ? std::string("none") : vs;
                                          }()));
    }
    STREAMSIM_ASSIGN_OR_RETURN(SparkChangelog changes, readSparkChangelog(env, log->path));
    // RocksDB.replayChangelog: put, delete, merge (StringAppendOperator) in file order.
    for (auto& r : changes.records) {
      switch (r.type) {
        case SparkChangelogRecord::Type::kPut: out.rows[r.key] = std::move(r.value); break;
        case SparkChangelogRecord::Type::kDelete: out.rows.erase(r.key); break;
        case SparkChangelogRecord::Type::kMerge: {
          auto it = out.rows.find(r.key);
          if (it == out.rows.end()) out.rows.emplace(r.key, std::move(r.value));
          else appendMerged(it->second, true, r.value);
          break;
        }
      }
    }
    out.filesRead.push_back(log->path);
  }
  return out;
}

}  // namespace streamsim
