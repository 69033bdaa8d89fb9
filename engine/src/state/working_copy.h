// Private to the state stores: the working copy behind a StateStore (a std::map per column
// family, or a RocksDB instance). Versioning, metrics, changelogs and snapshots live in the
// shared store code (state_store.cc); a working copy only holds the current rows.
// Owned by the provider's cache entry; used by one task at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"

namespace streamsim::detail {

// Visits (cf, key, value) in ascending (cf, key) order; return false to stop. A reference to
// the caller's callable (a pointer and a plain function pointer), valid for the call it is
// passed to: a snapshot visits every row, and std::function's dispatch was a cost per row.
class WorkingCopyVisitor {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, WorkingCopyVisitor>)
  WorkingCopyVisitor(F&& f)  // NOLINT: converts from any callable, as std::function does
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, std::string_view cf, std::string_view key, std::string_view value) {
          return static_cast<bool>((*static_cast<std::remove_reference_t<F>*>(o))(cf, key, value));
        }) {}
  bool operator()(std::string_view cf, std::string_view key, std::string_view value) const {
    return call_(object_, cf, key, value);
  }

 private:
  void* object_;
  bool (*call_)(void*, std::string_view, std::string_view, std::string_view);
};

class WorkingCopy {
 public:
  virtual ~WorkingCopy() = default;
  virtual std::optional<std::string> get(std::string_view cf, std::string_view key) = 0;
  virtual void put(std::string_view cf, std::string_view key, std::string_view value) = 0;
  virtual void remove(std::string_view cf, std::string_view key) = 0;
  // put() that also tells whether the key was absent before (the store counts its keys with it):
  // a working copy that can learn it in the same lookup overrides these.
  virtual bool putNew(std::string_view cf, std::string_view key, std::string_view value) {
    bool isNew = !get(cf, key).has_value();
    put(cf, key, value);
    return isNew;
  }
  // put() only when the key is absent; returns whether it put.
  virtual bool putIfAbsent(std::string_view cf, std::string_view key, std::string_view value) {
    if (get(cf, key).has_value()) return false;
    put(cf, key, value);
    return true;
  }
  // remove() that tells whether the key was there.
  virtual bool removeExisting(std::string_view cf, std::string_view key) {
    if (!get(cf, key).has_value()) return false;
    remove(cf, key);
    return true;
  }
  virtual void scan(std::string_view cf, std::string_view begin, std::string_view end,
                    const StateVisitor& visit) = 0;
  virtual void scanAll(const WorkingCopyVisitor& visit) = 0;
  virtual std::vector<std::string> columnFamilies() = 0;
  // Drops every row.
  virtual Status clear() = 0;
  // The first error of a put/remove (they cannot return one); checked before commit.
  virtual Status status() { return Status::OK(); }
  // Number of rows across column families (may iterate: called after a load only).
  virtual int64_t countKeys() = 0;
};

std::unique_ptr<WorkingCopy> makeMemoryWorkingCopy();

// Owns what the RocksDB working copies of one provider share (the in-memory Env).
class RocksDBContext {
 public:
  virtual ~RocksDBContext() = default;
  // A fresh, empty RocksDB working copy for (op, partition).
  virtual Result<std::unique_ptr<WorkingCopy>> open(int operatorId, int partition) = 0;
};
Result<std::shared_ptr<RocksDBContext>> makeRocksDBContext(const Env& env,
                                                           const StateStoreOptions& options);

}  // namespace streamsim::detail
