// The state store shared by both kinds (DESIGN.md §3): versioning, metrics, the provider's
// cache of working copies, and durability through changelog + snapshot files (state_files.h)
// written with the engine's FileSystem. The working copy itself is in memory_state_store.cc /
// rocksdb_state_store.cc. Format and re-run policy: docs/state-format.md.
#include "streamsim/state/state_store.h"
#include "streamsim/trace_events.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "state/key_compare.h"
#include "state/pending_changes.h"
#include "state/working_copy.h"
#include "streamsim/fault_points.h"
#include "streamsim/state/state_files.h"

namespace streamsim {

std::string prefixSuccessor(std::string_view prefix) {
  std::string out(prefix);
  while (!out.empty() && static_cast<uint8_t>(out.back()) == 0xFF) out.pop_back();
  if (!out.empty()) out.back() = static_cast<char>(static_cast<uint8_t>(out.back()) + 1);
  return out;
}

void StateStore::scanPrefix(std::string_view cf, std::string_view prefix, const StateVisitor& visit) {
  scan(cf, prefix, prefixSuccessor(prefix), visit);
}

std::string_view stateStoreKindName(StateStoreKind k) {
  return k == StateStoreKind::kMemory ? "memory" : "rocksdb";
}

Result<StateStoreKind> parseStateStoreKind(std::string_view name) {
  if (name == "memory") return StateStoreKind::kMemory;
  if (name == "rocksdb" || name == "RocksDB") return StateStoreKind::kRocksDB;
  return Status::InvalidArgument(
      fmt::format("unknown state store kind '{}'; expected 'memory' or 'rocksdb'", name));
}

namespace {

using detail::PendingFamily;
using detail::WorkingCopy;

// The provider's working copy of one (checkpoint, operator, partition).
struct CacheEntry {
  std::unique_ptr<WorkingCopy> wc;
  int64_t version = -1;  // the committed version the working copy holds; -1 = must reload
  int64_t numKeys = 0;   // rows in the working copy
  bool inUse = false;    // a store is open on it
  // The state files in the store's folder as this provider last listed and then wrote/deleted
  // them (the provider is the folder's only writer while the query runs), so maintenance needs
  // no listing per run. nullopt: list at the next maintenance (after a reload or a failure).
  std::optional<StateFilesListing> files;
};

// Writes a state file for a version. A file left by an earlier attempt of the same batch (a
// re-run after a crash or a task failure) is kept when it is byte-identical; otherwise — torn,
// or different content — it is replaced by this attempt's file, as Spark overwrites the state
// files of a re-run batch. The replacement is traced ("state_file_replaced").
Status writeStateFile(const Env& env, const std::string& path, const std::string& data,
                      StateFileKind kind, int64_t version, const FaultContext& ctx) {
  if (env.fs->exists(path)) {
    Result<std::string> existing = env.fs->read(path);
    if (existing.ok() && *existing == data) return Status::OK();
    bool parses = existing.ok() &&
                  parseStateFile(*existing, path, kind, version, [](const StateRecordView&) {}).ok();
    if (env.trace != nullptr)
      TraceEvent(events::kStateFileReplaced)
          .add("path", path)
          .add("reason", parses ? "content differs" : "torn")
          .emit(env.trace);
    STREAMSIM_RETURN_IF_ERROR(env.fs->remove(path));
  }
  return writeFileAtomically(env, path, data, ctx);
}

class VersionedStateStore final : public StateStore {
 public:
  VersionedStateStore(const Env& env, const StateStoreOptions& options, StateStoreKind kind,
                      std::string dir, int operatorId, int partition, int64_t version,
                      std::shared_ptr<CacheEntry> entry)
      : env_(env), options_(options), kind_(kind), dir_(std::move(dir)), operator_id_(operatorId),
        partition_(partition), version_(version), entry_(std::move(entry)) {}

  ~VersionedStateStore() override {
    if (!done_) release(/*valid=*/false);  // unwound by a crash or dropped: discard changes
  }

  int64_t version() const override { return version_; }

  std::optional<std::string> get(std::string_view cf, std::string_view key) override {
    assert(!done_);
    std::optional<std::string> value = entry_->wc->get(cf, key);
    // A read is mostly followed by a write of the same key: remember whether it exists, so
    // the write need not ask the working copy again (a second lookup; a Get on RocksDB).
    last_read_.valid = true;
    last_read_.cf.assign(cf);
    last_read_.key.assign(key);
    last_read_.exists = value.has_value();
    return value;
  }

  void put(std::string_view cf, std::string_view key, std::string_view value) override {
    assert(!done_);
    bool isNew;
    if (last_read_.valid && detail::bytewiseEqual(last_read_.key, key) &&
        detail::bytewiseEqual(last_read_.cf, cf)) {
      isNew = !last_read_.exists;
      entry_->wc->put(cf, key, value);
      last_read_.exists = true;
    } else {
      isNew = entry_->wc->putNew(cf, key, value);
    }
    if (isNew) ++entry_->numKeys;
    pending_.family(cf).put(key, value);
    ++num_updated_;
  }

  bool putIfAbsent(std::string_view cf, std::string_view key, std::string_view value) override {
    assert(!done_);
    // Without last_read_ (a get through the store copied family and key into it first); it
    // may say this key is absent, and a put after this one would count it twice.
    last_read_.valid = false;
    if (!entry_->wc->putIfAbsent(cf, key, value)) return false;
    ++entry_->numKeys;
    pending_.family(cf).put(key, value);
    ++num_updated_;
    return true;
  }

  void remove(std::string_view cf, std::string_view key) override {
    assert(!done_);
    last_read_.valid = false;
    if (!entry_->wc->removeExisting(cf, key)) return;
    --entry_->numKeys;
    ++num_removed_;
    pending_.family(cf).remove(key);
  }

  void scan(std::string_view cf, std::string_view begin, std::string_view end,
            const StateVisitor& visit) override {
    assert(!done_);
    entry_->wc->scan(cf, begin, end, visit);
  }

  Status commit() override {
    assert(!done_);
    const int64_t next = version_ + 1;
    FaultContext ctx{version_, partition_, operator_id_, dir_};
    Status st = entry_->wc->status();
    pending_.net();
    if (st.ok()) st = writeFiles(next, ctx);
    if (!st.ok()) {
      release(/*valid=*/false);
      return st.withContext(fmt::format("committing state version {} of operator {} partition {}",
                                        next, operator_id_, partition_));
    }
    entry_->version = next;
    int64_t numKeys = metrics().numKeys;
    release(/*valid=*/true);
    if (env_.trace != nullptr)
      TraceEvent(events::kStateCommit)
          .add("operator", operator_id_)
          .add("partition", partition_)
          .add("version", next)
          .add("keys", numKeys)
          .emit(env_.trace);
    return passFaultPoint(env_, faults::kStateAfterCommit, ctx);
  }

  void abort() override {
    if (!done_) release(/*valid=*/false);
  }

  StateStoreMetrics metrics() const override {
    return StateStoreMetrics{entry_->numKeys, num_updated_, num_removed_};
  }

  std::vector<std::string> columnFamilies() override { return entry_->wc->columnFamilies(); }

 private:
  Status writeFiles(int64_t next, const FaultContext& ctx) {
    STREAMSIM_RETURN_IF_ERROR(passFaultPoint(env_, faults::kStateBeforeCommit, ctx));
    STREAMSIM_RETURN_IF_ERROR(env_.fs->mkdirs(dir_));
    // The changelog holds the net change of each touched key, in (cf, key) order, so a re-run
    // that makes the same changes writes the same bytes whatever order it made them in.
    StateFileWriter changelog(StateFileKind::kChangelog, next);
    size_t estimate = 64;  // header and footer; a record adds an op byte and three short lengths
    for (const auto& f : pending_.families())
      estimate += f->loggedBytes() + f->loggedChanges() * (f->cf().size() + 8);
    changelog.reserve(estimate);
    for (const auto& family : pending_.families()) {
      const PendingFamily& f = *family;
      for (size_t i = 0; i < f.size(); ++i) {
        if (f.isRemove(i)) {
          changelog.remove(f.cf(), f.key(i));
        } else {
          changelog.put(f.cf(), f.key(i), f.value(i));
        }
      }
    }
    std::string data = changelog.finish();
    const auto size = static_cast<int64_t>(data.size());
    STREAMSIM_RETURN_IF_ERROR(
        writeStateFile(env_, joinPath(dir_, stateFileName(kind_, StateFileKind::kChangelog, next)),
                       data, StateFileKind::kChangelog, next, ctx));
    if (entry_->files) entry_->files->changelogs[next] = size;
    if (options_.snapshotEvery > 0 && next % options_.snapshotEvery == 0)
      STREAMSIM_RETURN_IF_ERROR(maintain(next, ctx));
    return Status::OK();
  }

  // Spark's maintenance task (doMaintenance: snapshot, then cleanup), run at a fixed version
  // interval so that the files present after any batch are a function of the batches alone.
  // The snapshot is written only when snapshotDue says the changelogs since the last one
  // outweigh it (docs/state-format.md "Maintenance"); one folder listing serves both steps.
  Status maintain(int64_t next, const FaultContext& ctx) {
    if (!entry_->files) {
      STREAMSIM_ASSIGN_OR_RETURN(entry_->files, listStateFiles(env_, dir_, kind_));
    }
    StateFilesListing& files = *entry_->files;
    const int64_t maxChain = int64_t{kMaxChainInMaintenanceRuns} * options_.snapshotEvery;
    if (snapshotDue(files, next, maxChain)) {
      StateFileWriter snapshot(StateFileKind::kSnapshot, next);
      if (!files.snapshots.empty()) {
        const auto last = static_cast<size_t>(files.snapshots.rbegin()->second);
        snapshot.reserve(last + last / 8);
      }
      entry_->wc->scanAll([&](std::string_view cf, std::string_view key, std::string_view value) {
        snapshot.put(cf, key, value);
        return true;
      });
      std::string data = snapshot.finish();
      const auto size = static_cast<int64_t>(data.size());
      STREAMSIM_RETURN_IF_ERROR(
          writeStateFile(env_, joinPath(dir_, stateFileName(kind_, StateFileKind::kSnapshot, next)),
                         data, StateFileKind::kSnapshot, next, ctx));
      files.snapshots[next] = size;
    }
    STREAMSIM_ASSIGN_OR_RETURN(
        std::vector<std::string> deleted,
        deleteOldStateFiles(env_, dir_, kind_, files, next, options_.minVersionsToRetain));
    if (env_.trace != nullptr && !deleted.empty())
      TraceEvent(events::kStateFilesDeleted)
          .add("operator", operator_id_)
          .add("partition", partition_)
          .add("version", next)
          .add("count", deleted.size())
          .emit(env_.trace);
    return Status::OK();
  }

  // An unchanging state is snapshotted again after this many maintenance runs, so the
  // changelog chain retention must keep stays bounded.
  static constexpr int kMaxChainInMaintenanceRuns = 10;

  void release(bool valid) {
    done_ = true;
    entry_->inUse = false;
    if (!valid) {
      entry_->version = -1;  // the working copy holds uncommitted changes: reload
      entry_->files.reset();  // and a failed commit may have left files half done: list again
    }
  }


  Env env_;
  StateStoreOptions options_;
  StateStoreKind kind_;
  std::string dir_;
  int operator_id_;
  int partition_;
  int64_t version_;
  std::shared_ptr<CacheEntry> entry_;
  detail::PendingChanges pending_;  // this version's changes
  // The last get() and whether its key existed; puts keep it true, removes invalidate it.
  struct {
    bool valid = false;
    std::string cf, key;
    bool exists = false;
  } last_read_;
  int64_t num_updated_ = 0;
  int64_t num_removed_ = 0;
  bool done_ = false;
};

class VersionedStateStoreProvider final : public StateStoreProvider {
 public:
  VersionedStateStoreProvider(const Env& env, const StateStoreOptions& options)
      : env_(env), options_(options) {}

  Result<std::unique_ptr<StateStore>> open(const std::string& checkpointRoot, int operatorId,
                                           int partition, int64_t version) override {
    if (version < 0)
      return Status::InvalidArgument(fmt::format("state version {} is negative", version));
    std::shared_ptr<CacheEntry>& entry = cache_[{checkpointRoot, operatorId, partition}];
    if (entry == nullptr) entry = std::make_shared<CacheEntry>();
    if (entry->inUse)
      return Status::FailedPrecondition(fmt::format(
          "state store of operator {} partition {} in {} is already open; commit or abort it first",
          operatorId, partition, checkpointRoot));
    if (entry->wc == nullptr) {
      STREAMSIM_ASSIGN_OR_RETURN(entry->wc, newWorkingCopy(operatorId, partition));
    }
    std::string dir = stateStoreDir(checkpointRoot, operatorId, partition);
    if (entry->version != version) {
      entry->version = -1;
      entry->files.reset();
      WorkingCopy& wc = *entry->wc;
      Status clearStatus;
      STREAMSIM_RETURN_IF_ERROR(replayStateVersion(
          env_, dir, options_.kind, version,
          [&] {
            Status st = wc.clear();
            if (clearStatus.ok()) clearStatus = st;
          },
          [&](const StateRecordView& r) {
            if (r.remove) {
              wc.remove(r.cf, r.key);
            } else {
              wc.put(r.cf, r.key, r.value);
            }
          }));
      STREAMSIM_RETURN_IF_ERROR(clearStatus);
      entry->numKeys = wc.countKeys();
      entry->version = version;
    }
    entry->inUse = true;
    return std::unique_ptr<StateStore>(std::make_unique<VersionedStateStore>(
        env_, options_, options_.kind, std::move(dir), operatorId, partition, version, entry));
  }

  Result<int64_t> latestVersion(const std::string& checkpointRoot, int operatorId,
                                int partition) override {
    return latestStateVersion(env_, stateStoreDir(checkpointRoot, operatorId, partition), options_.kind);
  }

 private:
  Result<std::unique_ptr<WorkingCopy>> newWorkingCopy(int operatorId, int partition) {
    if (options_.kind == StateStoreKind::kMemory) return detail::makeMemoryWorkingCopy();
    if (rocksdb_ == nullptr) {
      STREAMSIM_ASSIGN_OR_RETURN(rocksdb_, detail::makeRocksDBContext(env_, options_));
    }
    return rocksdb_->open(operatorId, partition);
  }

  Env env_;
  StateStoreOptions options_;
  std::shared_ptr<detail::RocksDBContext> rocksdb_;  // declared before cache_: outlives the DBs
  std::map<std::tuple<std::string, int, int>, std::shared_ptr<CacheEntry>> cache_;
};

}  // namespace

std::unique_ptr<StateStoreProvider> makeStateStoreProvider(const Env& env,
                                                           const StateStoreOptions& options) {
  return std::make_unique<VersionedStateStoreProvider>(env, options);
}

}  // namespace streamsim
