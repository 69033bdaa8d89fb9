// The in-memory working copy: one OrderedRows per column family (DESIGN.md §3), its rows and
// strings from one SizeClassPool (size_class_pool.h).
#include <algorithm>
#include <cstdint>
#include <memory_resource>
#include <string>

#include "state/key_compare.h"
#include "state/ordered_rows.h"
#include "state/size_class_pool.h"
#include "state/working_copy.h"

namespace streamsim::detail {
namespace {

class MemoryWorkingCopy final : public WorkingCopy {
 public:
  std::optional<std::string> get(std::string_view cf, std::string_view key) override {
    Family* fam = find(cf);
    if (fam == nullptr) return std::nullopt;
    const OrderedRows::Row* row = fam->rows.find(key);
    if (row == nullptr) return std::nullopt;
    return std::string(row->value());
  }

  void put(std::string_view cf, std::string_view key, std::string_view value) override {
    putNew(cf, key, value);
  }

  bool putNew(std::string_view cf, std::string_view key, std::string_view value) override {
    return findOrAdd(cf).rows.put(key, value);
  }

  bool putIfAbsent(std::string_view cf, std::string_view key, std::string_view value) override {
    return findOrAdd(cf).rows.putIfAbsent(key, value);
  }

  void remove(std::string_view cf, std::string_view key) override { removeExisting(cf, key); }

  bool removeExisting(std::string_view cf, std::string_view key) override {
    Family* fam = find(cf);
    if (fam == nullptr || !fam->rows.erase(key)) return false;
    if (fam->rows.empty()) drop(*fam);
    return true;
  }

  void scan(std::string_view cf, std::string_view begin, std::string_view end,
            const StateVisitor& visit) override {
    Family* fam = find(cf);
    if (fam == nullptr) return;
    fam->rows.scanFrom(begin, [&](std::string_view k, std::string_view v) {
      if (!end.empty() && k >= end) return false;
      return visit(k, v);
    });
  }

  void scanAll(const WorkingCopyVisitor& visit) override {
    for (const auto& fam : cfs_) {
      bool more = true;
      fam->rows.scanFrom({}, [&](std::string_view k, std::string_view v) {
        return more = visit(fam->name, k, v);
      });
      if (!more) return;
    }
  }

  std::vector<std::string> columnFamilies() override {
    std::vector<std::string> out;
    for (const auto& fam : cfs_) out.push_back(fam->name);
    return out;
  }

  Status clear() override {
    cfs_.clear();
    return Status::OK();
  }

  int64_t countKeys() override {
    int64_t n = 0;
    for (const auto& fam : cfs_) n += static_cast<int64_t>(fam->rows.size());
    return n;
  }

 private:
  struct Family {
    Family(std::string_view n, SizeClassPool* pool) : name(n), rows(pool) {}
    std::string name;
    OrderedRows rows;  // ordered_rows.h
  };

  // A handful of families, looked up by name on every access: a linear search by name beats a
  // map's compares. Sorted by name (scanAll, columnFamilies); empty families are erased.
  Family* find(std::string_view cf) const {
    for (const auto& f : cfs_)
      if (bytewiseEqual(f->name, cf)) return f.get();
    return nullptr;
  }
  Family& findOrAdd(std::string_view cf) {
    if (Family* fam = find(cf)) return *fam;
    auto at = std::lower_bound(cfs_.begin(), cfs_.end(), cf,
                               [](const auto& f, std::string_view n) { return f->name < n; });
    return **cfs_.insert(at, std::make_unique<Family>(cf, &pool_));
  }
  void drop(const Family& fam) {
    std::erase_if(cfs_, [&fam](const auto& f) { return f.get() == &fam; });
  }

  SizeClassPool pool_;  // declared before the families: outlives their rows
  std::vector<std::unique_ptr<Family>> cfs_;
};

}  // namespace

std::unique_ptr<WorkingCopy> makeMemoryWorkingCopy() { return std::make_unique<MemoryWorkingCopy>(); }

}  // namespace streamsim::detail
