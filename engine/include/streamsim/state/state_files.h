// The durable files of the state stores (DESIGN.md §3, SEMANTICS.md §2): a changelog per
// version and a snapshot every few versions under <checkpoint>/state/<op>/<partition>/, their
// one writer and one reader (format: docs/state-format.md §2), and loading a version from them.
// Both store kinds share this; `state` reads via readStateAt. Plain functions; no shared state.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"

namespace streamsim {

enum class StateFileKind { kChangelog, kSnapshot };

// One record of a state file: a put (value set) or a remove (a changelog tombstone).
struct StateRecordView {
  bool remove = false;
  std::string_view cf;
  std::string_view key;
  std::string_view value;  // empty for a remove
};
using StateRecordVisitor = std::function<void(const StateRecordView&)>;

// Builds the bytes of one state file. Records are written in the order given.
class StateFileWriter {
 public:
  StateFileWriter(StateFileKind kind, int64_t version);
  void put(std::string_view cf, std::string_view key, std::string_view value);
  void remove(std::string_view cf, std::string_view key);  // REQUIRES: kind is kChangelog
  // Room for `bytes` in all (a snapshot about as large as the last one grows without copies).
  void reserve(size_t bytes);
  // The complete file (header, records, footer with count and CRC-32). Call once.
  std::string finish();

 private:
  void record(char op, std::string_view cf, std::string_view key, std::string_view value);
  char* room(size_t bytes);  // where the next `bytes` go; advances size_
  StateFileKind kind_;
  // The file so far is data_[0, size_): data_ is resized ahead in doubling steps and records
  // are written into it in place (a record's own append was most of its cost: a timer batch
  // writes four short records per fired timer).
  std::string data_;
  size_t size_ = 0;
  uint64_t count_ = 0;
};

// Parses a state file and visits its records in order. Corruption naming `path` when the
// file is torn (no footer, short record, CRC mismatch) or is not the expected kind/version.
// The visitor is called only after the whole file has been checked.
Status parseStateFile(std::string_view data, const std::string& path, StateFileKind kind,
                      int64_t version, const StateRecordVisitor& visit);

// <root>/state/<op>/<partition>
std::string stateStoreDir(const std::string& checkpointRoot, int operatorId, int partition);
// "<v>.delta" (memory), "<v>.changelog" (rocksdb), "<v>.snapshot" (both).
std::string stateFileName(StateStoreKind kind, StateFileKind file, int64_t version);

// The newest version whose files exist in `dir` (snapshot, or a contiguous changelog chain
// from a snapshot or from version 0). 0 if none; an absent dir is version 0.
Result<int64_t> latestStateVersion(const Env& env, const std::string& dir, StateStoreKind kind);

// Replays version `version` of the store in `dir`: calls `reset` then visits the records of
// the newest readable snapshot <= version and of every changelog after it, in order.
// Version 0 visits nothing. Corruption naming the file when a needed file is missing or torn.
// A torn snapshot falls back to an older snapshot (or version 0) when the changelogs allow
// it; `env.trace` gets a "state_snapshot_skipped" event.
Status replayStateVersion(const Env& env, const std::string& dir, StateStoreKind kind,
                          int64_t version, const std::function<void()>& reset,
                          const StateRecordVisitor& visit);

// The state files of one store folder: version -> size in bytes, per kind of file.
struct StateFilesListing {
  std::map<int64_t, int64_t> changelogs;
  std::map<int64_t, int64_t> snapshots;
};
// Empty when `dir` does not exist.
Result<StateFilesListing> listStateFiles(const Env& env, const std::string& dir, StateStoreKind kind);

// Whether maintenance at `version` (whose changelog is in `files`) writes a snapshot: when there
// is none yet; when the changelogs after the newest snapshot hold records and at least as many
// record bytes as that snapshot does (so a load reads at most about twice a snapshot's bytes, and
// snapshots cost no more to write than the changelogs did); or when that chain has reached
// `maxChain` versions (bounds the files an unchanging state keeps). Decided from file sizes
// alone, so the same batches give the same files whatever restarts happened in between.
bool snapshotDue(const StateFilesListing& files, int64_t version, int64_t maxChain);

// State store maintenance's file cleanup (Spark's HDFSBackedStateStoreProvider.cleanup, which
// RocksDB's deleteOldVersions matches up to where it counts from): keeps what loading any
// version in [latestVersion - minVersionsToRetain, latestVersion] needs — the newest snapshot
// <= latestVersion - minVersionsToRetain and every file after it — and deletes the changelogs
// and snapshots older than that snapshot. Without such a snapshot nothing is deleted (the
// chain from version 0 is still needed). Returns the deleted paths, ascending by version.
Result<std::vector<std::string>> deleteOldStateFiles(const Env& env, const std::string& dir,
                                                     StateStoreKind kind, int64_t latestVersion,
                                                     int minVersionsToRetain);
// The same from a listing taken before (maintenance lists the folder once); `files` is updated.
Result<std::vector<std::string>> deleteOldStateFiles(const Env& env, const std::string& dir,
                                                     StateStoreKind kind, StateFilesListing& files,
                                                     int64_t latestVersion, int minVersionsToRetain);

// Column family -> (key, value) pairs in ascending key order (keys and values are the stored
// bytes; decoding them is the caller's job).
using StateDump = std::map<std::string, std::vector<std::pair<std::string, std::string>>>;

// The state of (op, partition) at `version` (= batch id + 1) read from the checkpoint's files,
// for `streamsim state CHECKPOINT --batch N` and for tests.
Result<StateDump> readStateAt(const Env& env, const std::string& checkpointRoot, int operatorId,
                              int partition, int64_t version, StateStoreKind kind);

}  // namespace streamsim
