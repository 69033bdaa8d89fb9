// Reads Spark's own RocksDB-backed state store files (RocksDBStateStoreProvider): the
// `state/<op>/<part>[/<store>]/` folder of a real Spark checkpoint — snapshots `N.zip` (the
// `metadata` naming the SST files kept beside in `SSTs/`, and RocksDB's CURRENT/MANIFEST/OPTIONS)
// and changelogs `N.changelog` (lz4-java LZ4Block framing, decoded by spark_state_store.h's one
// decoder, around a Java DataOutputStream of records: formats v1..v4), with checkpoint format v2's
// `N_<uniqueId>.zip` / `.changelog` resolved as Spark's RocksDB.loadWithCheckpointId does.
// Format and sources: docs/checkpoint-format.md "Spark's RocksDB state store files".
//
// How RocksDB reads the SST files without the engine touching the real filesystem: the files are
// read through the Env (env.fs), written into a RocksDB in-memory Env made for this one read, each
// SST opened and checksummed there with rocksdb::SstFileReader (so a bad one is named), and the
// snapshot then opened read-only as the database it was (DB::OpenForReadOnly over the zip's
// MANIFEST), as Spark itself restores it. Merging the SST files by hand would be wrong: a newer
// SST's tombstone must hide an older SST's key (the join fixture has one), which only the
// MANIFEST's levels and sequence numbers decide.
// Read-only; plain functions, no shared state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/status.h"

namespace streamsim {

// A state file named for a version, and (checkpoint format v2) a unique id: `N.zip`,
// `N_<uuid>.changelog`.
struct SparkRocksDBFile {
  int64_t version = 0;
  std::string uniqueId;  // empty in checkpoint format v1
  std::string path;
};

// The state files of one store folder, by version then id.
struct SparkRocksDBFolder {
  std::string dir;
  std::vector<SparkRocksDBFile> snapshots;   // N.zip, N_<id>.zip
  std::vector<SparkRocksDBFile> changelogs;  // N.changelog, N_<id>.changelog
  // Whether the files carry unique ids (checkpoint format v2).
  bool uniqueIds() const;
  const SparkRocksDBFile* snapshot(int64_t version, const std::string& id) const;
  const SparkRocksDBFile* changelog(int64_t version, const std::string& id) const;
};
// "N.zip" -> (N, ""), "N_<id>.changelog" -> (N, id); nullopt for any other name.
std::optional<std::pair<int64_t, std::string>> sparkRocksDBFileVersion(std::string_view name,
                                                                       std::string_view suffix);
Result<SparkRocksDBFolder> listSparkRocksDBFolder(const Env& env, const std::string& dir);

// The `metadata` entry of a snapshot zip (RocksDBCheckpointMetadata: a line "v1", then JSON).
struct RocksDBSnapshotMetadata {
  struct File {
    std::string localFileName;  // its name in RocksDB's folder ("000008.sst")
    std::string dfsFileName;    // its name in SSTs/ (or logs/) beside the zip
    int64_t sizeBytes = 0;
  };
  std::vector<File> sstFiles;
  std::vector<File> logFiles;
  int64_t numKeys = 0;
  // Virtual column families (transformWithState): name -> the 2-byte id every key starts with.
  std::optional<std::map<std::string, int>> columnFamilyMapping;
};
Result<RocksDBSnapshotMetadata> parseRocksDBSnapshotMetadata(std::string_view text,
                                                             const std::string& path);

// One record of a changelog; `offset` is where it starts in the decompressed stream.
struct SparkChangelogRecord {
  enum class Type { kPut, kDelete, kMerge };
  Type type = Type::kPut;
  std::string key;
  std::string value;  // empty for kDelete
  size_t offset = 0;
};
struct SparkChangelog {
  int formatVersion = 1;  // 1..4 (StateStoreChangelog.scala)
  // v3 and v4: the versions and unique ids from the last snapshot to this version - 1.
  std::vector<std::pair<int64_t, std::string>> lineage;
  std::vector<SparkChangelogRecord> records;
};
// The records of a changelog's decompressed bytes. Corruption naming `path`, the record and its
// byte offset in the decompressed stream; an unknown format version is FailedPrecondition.
Result<SparkChangelog> parseSparkChangelog(std::string_view data, const std::string& path);
// Reads, decompresses (LZ4Block) and parses the changelog file at `path`.
Result<SparkChangelog> readSparkChangelog(const Env& env, const std::string& path);

// The key/value rows of one store at a version: its snapshot, then its changelogs replayed.
struct SparkRocksDBState {
  int64_t version = 0;
  std::string uniqueId;          // the id the version was read for ("" in format v1)
  int64_t snapshotVersion = 0;   // the snapshot read (0: none, from the changelogs alone)
  std::vector<std::string> filesRead;  // zip and changelogs, oldest first
  std::optional<std::map<std::string, int>> columnFamilyMapping;  // from the snapshot read
  std::map<std::string, std::string> rows;  // raw RocksDB key -> value (merges applied)
};
// Version `version` of the store in `folder` (RocksDB.loadWithoutCheckpointId: the newest
// snapshot <= version, then each changelog after it). With `uniqueId` (checkpoint format v2,
// the id commits/<version - 1> names): RocksDB.loadWithCheckpointId — the snapshot
// `version_<id>.zip` if present, else the lineage in `version_<id>.changelog` back to a snapshot
// it names. NotFound naming the file or id when one is missing; Corruption naming the file
// (and record offset) when one does not read.
Result<SparkRocksDBState> readSparkRocksDBVersion(const Env& env, const SparkRocksDBFolder& folder,
                                                  int64_t version,
                                                  const std::optional<std::string>& uniqueId);

// The rows of a snapshot zip at `zipPath` (its SSTs looked up in `<dir of zip>/SSTs/`).
struct RocksDBSnapshot {
  RocksDBSnapshotMetadata metadata;
  std::map<std::string, std::string> rows;
};
Result<RocksDBSnapshot> readRocksDBSnapshot(const Env& env, const std::string& zipPath);

}  // namespace streamsim
