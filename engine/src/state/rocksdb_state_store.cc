// The RocksDB working copy (DESIGN.md §3): a real RocksDB instance per (operator, partition), on
// RocksDB's in-memory Env (simulation) or in a local directory. Column families are a key
// prefix — the order-preserving encoding of the family name (row_encoding.h) — as Spark's
// RocksDB provider does with its virtual column families, so one iteration visits
// (family, key) in ascending order. RocksDB's WAL is off: durability is the checkpoint's
// changelog and snapshot files, written by state_store.cc.
#include <fmt/format.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>
#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include "state/working_copy.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim::detail {
namespace {

std::string familyPrefix(std::string_view cf) {
  std::string out;
  encodeOrderedValue(Value(cf), out);
  return out;
}

Status fromRocks(const rocksdb::Status& st, std::string_view what) {
  if (st.ok()) return Status::OK();
  return Status::IOError(fmt::format("RocksDB working copy: {}: {}", what, st.ToString()));
}

std::string_view view(const rocksdb::Slice& s) { return {s.data(), s.size()}; }

// The working copy's file system without OPTIONS files: RocksDB writes one at every open and
// parses it back to check it (a quarter of an open's cost), for reopening a database with the
// options it had — a working copy is never reopened. Refusing to create it is what RocksDB
// tolerates by design (fail_if_options_file_error is false: it logs and goes on).
class NoOptionsFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  using rocksdb::FileSystemWrapper::FileSystemWrapper;
  const char* Name() const override { return "StreamsimNoOptionsFileSystem"; }
  rocksdb::IOStatus NewWritableFile(const std::string& f, const rocksdb::FileOptions& options,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override {
    std::string_view name(f);
    name.remove_prefix(std::min(name.size(), name.find_last_of('/') + 1));
    if (name.starts_with("OPTIONS-"))
      return rocksdb::IOStatus::NotSupported("the working copy keeps no OPTIONS file");
    return target()->NewWritableFile(f, options, r, dbg);
  }
};

// `base` seen through NoOptionsFileSystem; keeps `base` alive.
std::shared_ptr<rocksdb::Env> withoutOptionsFiles(std::shared_ptr<rocksdb::Env> base) {
  auto fs = std::make_shared<NoOptionsFileSystem>(base->GetFileSystem());
  std::shared_ptr<rocksdb::Env> env(rocksdb::NewCompositeEnv(fs).release());
  return std::shared_ptr<rocksdb::Env>(env.get(), [env, base](rocksdb::Env*) {});
}

// Drops RocksDB's informational log lines.
class SilentLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

class RocksDBWorkingCopy final : public WorkingCopy {
 public:
  RocksDBWorkingCopy(std::shared_ptr<rocksdb::Env> env, std::string path)
      : env_(std::move(env)), path_(std::move(path)) {
    write_options_.disableWAL = true;
  }
  ~RocksDBWorkingCopy() override { close(/*destroy=*/true); }

  Status openFresh() {
    close(/*destroy=*/true);
    rocksdb::DB* db = nullptr;
    created_ = true;
    STREAMSIM_RETURN_IF_ERROR(fromRocks(rocksdb::DB::Open(options(), path_, &db), "open " + path_));
    db_.reset(db);
    status_ = Status::OK();
    written_ = false;
    return Status::OK();
  }

  std::optional<std::string> get(std::string_view cf, std::string_view key) override {
    std::string value;
    rocksdb::Status st = db_->Get(read_options_, dbKey(cf, key), &value);
    if (st.IsNotFound()) return std::nullopt;
    note(st, "get");
    if (!st.ok()) return std::nullopt;
    return value;
  }

  void put(std::string_view cf, std::string_view key, std::string_view value) override {
    written_ = true;
    note(db_->Put(write_options_, dbKey(cf, key), rocksdb::Slice(value.data(), value.size())),
         "put");
  }

  void remove(std::string_view cf, std::string_view key) override {
    written_ = true;
    note(db_->Delete(write_options_, dbKey(cf, key)), "delete");
  }

  void scan(std::string_view cf, std::string_view begin, std::string_view end,
            const StateVisitor& visit) override {
    std::string prefix = familyPrefix(cf);
    std::string upper = end.empty() ? std::string() : prefix + std::string(end);
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    for (it->Seek(prefix + std::string(begin)); it->Valid(); it->Next()) {
      std::string_view k = view(it->key());
      if (!k.starts_with(prefix)) break;
      if (!upper.empty() && k >= upper) break;
      k.remove_prefix(prefix.size());
      if (!visit(k, view(it->value()))) break;
    }
    note(it->status(), "scan");
  }

  void scanAll(const WorkingCopyVisitor& visit) override {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::string_view k = view(it->key());
      Result<Value> cf = decodeOrderedValue(k);  // advances k past the family prefix
      if (!cf.ok() || cf->type() != Type::kString) {
        note(rocksdb::Status::Corruption("bad column family prefix"), "scan");
        return;
      }
      if (!visit(cf->asString(), k, view(it->value()))) break;
    }
    note(it->status(), "scan");
  }

  std::vector<std::string> columnFamilies() override {
    std::vector<std::string> out;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    it->SeekToFirst();
    while (it->Valid()) {
      std::string_view k = view(it->key());
      Result<Value> cf = decodeOrderedValue(k);
      if (!cf.ok() || cf->type() != Type::kString) break;
      out.push_back(cf->asString());
      // Jump past every key of this family: its prefix's successor.
      std::string next = familyPrefix(cf->asString());
      next.back() = static_cast<char>(next.back() + 1);  // the terminator 0x01 -> 0x02
      it->Seek(next);
    }
    return out;
  }

  // A database opened fresh and not written since is empty already: a partition's first load of a
  // version (RocksDBContext::open, then the replay's clear) opens one database, not two — about
  // a third of a RocksDB seed's instructions were opening and destroying working copies.
  Status clear() override {
    if (db_ != nullptr && !written_ && status_.ok()) return Status::OK();
    return openFresh();
  }

  Status status() override { return status_; }

  int64_t countKeys() override {
    int64_t n = 0;
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    return n;
  }

 private:
  rocksdb::Options options() const {
    rocksdb::Options o;
    o.create_if_missing = true;
    o.error_if_exists = true;
    o.env = env_.get();
    o.write_buffer_size = 4 << 20;
    o.max_open_files = 64;
    o.keep_log_file_num = 1;
    // Opening a database is on the path of every restart and every partition's first batch.
    // RocksDB would open table files with 16 threads (max_file_opening_threads) — started even
    // when there are no files — and start a timer thread for periodic statistics: for a working
    // copy of a few keys that is most of the cost of a run (a sweep was 60x slower than on the
    // memory store). One thread, no periodic work.
    o.max_file_opening_threads = 1;
    o.stats_dump_period_sec = 0;
    o.stats_persist_period_sec = 0;
    // Nobody reads the working copy's info LOG, and it is never flushed before it is dropped.
    o.info_log = std::make_shared<SilentLogger>();
    o.avoid_flush_during_shutdown = true;
    // In-place updates lock a stripe of the memtable per key; one thread writes (see below), so
    // one lock does instead of RocksDB's 10,000 (each created and destroyed with every memtable).
    o.inplace_update_num_locks = 1;
    // Most gets of a new key's state miss: bloom filters in the memtable and the table files
    // answer those without searching the skip list or reading a block. The memtable's filter is
    // allocated and zeroed each time a working copy opens (every restart and every partition's
    // first batch): 0.02 of the write buffer (84 KB) rather than 0.1 (420 KB, 17.6% of a small
    // Python sweep's instructions) still gives ~8 bits a key when a 4 MiB memtable is full of
    // workload 2's short rows (docs/performance.md).
    o.memtable_prefix_bloom_size_ratio = 0.02;
    // A state update mostly overwrites a value of the same size (a count, a timestamp): updated
    // in the memtable's entry rather than inserted as a new version beside it. This working copy
    // takes no snapshots and holds no iterator across a write, which in-place updates require;
    // it also needs memtable writes from one thread (ours are).
    o.inplace_update_support = true;
    o.allow_concurrent_memtable_write = false;
    o.memtable_whole_key_filtering = true;
    rocksdb::BlockBasedTableOptions table;
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    return o;
  }

  void close(bool destroy) {
    if (db_ == nullptr) {
      // A path is this working copy's alone (RocksDBContextImpl::open): nothing to destroy before
      // its first open.
      if (destroy && created_) (void)rocksdb::DestroyDB(path_, options());
      return;
    }
    (void)db_->Close();
    db_.reset();
    if (destroy) (void)rocksdb::DestroyDB(path_, options());
  }

  // The RocksDB key of (cf, key): the family's prefix, then the key. Built in one buffer kept
  // across calls, the prefix encoded again only when the family changes (a processor mostly
  // works one family at a time): no allocation or encoding per access.
  rocksdb::Slice dbKey(std::string_view cf, std::string_view key) {
    if (!has_key_cf_ || cf != key_cf_) {
      has_key_cf_ = true;
      key_cf_.assign(cf);
      key_buf_ = familyPrefix(cf);
      key_prefix_len_ = key_buf_.size();
    }
    key_buf_.resize(key_prefix_len_);
    key_buf_.append(key);
    return rocksdb::Slice(key_buf_.data(), key_buf_.size());
  }

  void note(const rocksdb::Status& st, std::string_view what) {
    if (!st.ok() && status_.ok()) status_ = fromRocks(st, what);
  }

  std::shared_ptr<rocksdb::Env> env_;  // the in-memory Env or the local one, without OPTIONS files
  std::string path_;
  std::unique_ptr<rocksdb::DB> db_;
  bool created_ = false;  // a database was opened at path_ (destroy it when closing)
  bool written_ = false;  // a put or remove since the last openFresh
  rocksdb::WriteOptions write_options_;
  rocksdb::ReadOptions read_options_;
  bool has_key_cf_ = false;  // key_buf_ starts with the prefix of key_cf_
  std::string key_cf_;
  std::string key_buf_;      // dbKey()'s last key
  size_t key_prefix_len_ = 0;
  Status status_;
};

class RocksDBContextImpl final : public RocksDBContext {
 public:
  RocksDBContextImpl(std::shared_ptr<rocksdb::Env> env, std::string dir)
      : env_(std::move(env)), dir_(std::move(dir)) {}

  Result<std::unique_ptr<WorkingCopy>> open(int operatorId, int partition) override {
    std::string path = fmt::format("{}-op{}-part{}-{}", dir_, operatorId, partition, next_++);
    auto wc = std::make_unique<RocksDBWorkingCopy>(env_, path);
    STREAMSIM_RETURN_IF_ERROR(wc->openFresh());
    return std::unique_ptr<WorkingCopy>(std::move(wc));
  }

 private:
  std::shared_ptr<rocksdb::Env> env_;
  std::string dir_;
  int64_t next_ = 0;
};

}  // namespace

Result<std::shared_ptr<RocksDBContext>> makeRocksDBContext(const Env& env,
                                                           const StateStoreOptions& options) {
  if (options.rocksdbInMemoryEnv) {
    std::shared_ptr<rocksdb::Env> memEnv(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    return std::shared_ptr<RocksDBContext>(std::make_shared<RocksDBContextImpl>(
        withoutOptionsFiles(std::move(memEnv)), "/streamsim-state"));  // paths inside the MemEnv
  }
  if (options.rocksdbLocalDir.empty())
    return Status::InvalidArgument(
        "StateStoreOptions.rocksdbLocalDir must be set when rocksdbInMemoryEnv is false");
  // A unique folder per provider, so two queries (or a restarted one) never share a working copy.
  // (one folder level below rocksdbLocalDir, which must exist).
  std::string dir = joinPath(options.rocksdbLocalDir, fmt::format("streamsim-state-{}", env.ids->newUuid()));
  std::shared_ptr<rocksdb::Env> local(rocksdb::Env::Default(), [](rocksdb::Env*) {});  // static
  return std::shared_ptr<RocksDBContext>(
      std::make_shared<RocksDBContextImpl>(withoutOptionsFiles(std::move(local)), dir));
}

}  // namespace streamsim::detail
