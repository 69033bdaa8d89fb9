// The in-memory working copy: one std::map per column family (DESIGN.md §3), its nodes and
// strings from one SizeClassPool (size_class_pool.h).
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory_resource>
#include <string>

#include "state/key_compare.h"
#include "state/size_class_pool.h"
#include "state/working_copy.h"

namespace streamsim::detail {
namespace {

class MemoryWorkingCopy final : public WorkingCopy {
 public:
  std::optional<std::string> get(std::string_view cf, std::string_view key) override {
    Family* fam = find(cf);
    if (fam == nullptr) return std::nullopt;
    Rows& rows = fam->rows;
    auto it = rows.lower_bound(key);
    // A read is mostly followed by a write of the same key (read-modify-write of a value):
    // the position is kept so that write needs no second descent.
    probe_rows_ = &rows;
    probe_key_.assign(key);
    probe_pos_ = it;
    if (it == rows.end() || std::string_view(it->first) != key) return std::nullopt;
    return std::string(it->second);
  }

  void put(std::string_view cf, std::string_view key, std::string_view value) override {
    putNew(cf, key, value);
  }

  bool putNew(std::string_view cf, std::string_view key, std::string_view value) override {
    bool isNew = false;
    Family* fam = find(cf);
    if (fam == nullptr) fam = add(cf);
    Rows& rows = fam->rows;
    // One descent at most: lower_bound (or the probe of a get of this key just before) is both
    // the lookup and the insertion hint. A key after the last one (a timer re-armed later than
    // every other, in the by-time family) needs no descent either.
    Rows::iterator it;
    if (probe_rows_ == &rows && probe_key_ == key) {
      it = probe_pos_;
    } else if (!rows.empty() && bytewiseLess(std::prev(rows.end())->first, key)) {
      it = rows.end();
    } else {
      it = rows.lower_bound(key);
    }
    if (it != rows.end() && std::string_view(it->first) == key) {
      it->second.assign(value);
    } else {
      it = rows.emplace_hint(it, std::piecewise_construct, std::forward_as_tuple(key),
                             std::forward_as_tuple(value));
      isNew = true;
    }
    // The probe stays valid: it now names the key's own node.
    probe_rows_ = &rows;
    probe_key_.assign(key);
    probe_pos_ = it;
    return isNew;
  }

  void remove(std::string_view cf, std::string_view key) override { removeExisting(cf, key); }

  bool removeExisting(std::string_view cf, std::string_view key) override {
    Family* found = find(cf);
    if (found == nullptr) return false;
    Family& fam = *found;
    // Removes come in key order (expired timers, a handler's old timer per key in key order):
    // the row after the last one removed is mostly the next to go, found without a descent.
    Rows::iterator it;
    if (fam.hasAfterErase && fam.afterErase != fam.rows.end() && fam.afterErase->first == key) {
      it = fam.afterErase;
    } else {
      it = fam.rows.find(key);
      if (it == fam.rows.end()) return false;
    }
    probe_rows_ = nullptr;  // the probe may name the erased node
    fam.afterErase = fam.rows.erase(it);
    fam.hasAfterErase = true;
    if (fam.rows.empty()) drop(fam);
    return true;
  }

  void scan(std::string_view cf, std::string_view begin, std::string_view end,
            const StateVisitor& visit) override {
    const Family* fam = find(cf);
    if (fam == nullptr) return;
    const Rows& rows = fam->rows;
    for (auto it = rows.lower_bound(begin); it != rows.end(); ++it) {
      if (!end.empty() && std::string_view(it->first) >= end) break;
      if (!visit(it->first, it->second)) break;
    }
  }

  void scanAll(const WorkingCopyVisitor& visit) override {
    for (const auto& fam : cfs_)
      for (const auto& [k, v] : fam->rows)
        if (!visit(fam->name, k, v)) return;
  }

  std::vector<std::string> columnFamilies() override {
    std::vector<std::string> out;
    for (const auto& fam : cfs_) out.push_back(fam->name);
    return out;
  }

  Status clear() override {
    probe_rows_ = nullptr;
    cfs_.clear();
    return Status::OK();
  }

  int64_t countKeys() override {
    int64_t n = 0;
    for (const auto& fam : cfs_) n += static_cast<int64_t>(fam->rows.size());
    return n;
  }

 private:
  using Rows = std::pmr::map<std::pmr::string, std::pmr::string, BytewiseLess>;  // key_compare.h
  struct Family {
    Family(std::string_view n, SizeClassPool* pool) : name(n), rows(pool) {}
    std::string name;
    Rows rows;
    // The row after the last one removed (valid: only removeExisting erases single rows, and
    // it resets this; clear() drops the families).
    Rows::iterator afterErase;
    bool hasAfterErase = false;
  };
  // A handful of families, looked up by name on every access: a linear search by name beats a
  // map's compares. Sorted by name (scanAll, columnFamilies); empty families are erased.
  Family* find(std::string_view cf) const {
    for (const auto& f : cfs_)
      if (f->name == cf) return f.get();
    return nullptr;
  }
  Family* add(std::string_view cf) {
    auto at = std::lower_bound(cfs_.begin(), cfs_.end(), cf,
                               [](const auto& f, std::string_view n) { return f->name < n; });
    return cfs_.insert(at, std::make_unique<Family>(cf, &pool_))->get();
  }
  void drop(const Family& fam) {
    std::erase_if(cfs_, [&fam](const auto& f) { return f.get() == &fam; });
  }

  SizeClassPool pool_;  // declared before the families: outlives their rows
  std::vector<std::unique_ptr<Family>> cfs_;
  // The last key looked up: its family (null: none), and its lower_bound there. Insertions
  // never move a std::map position; erasures and clear() reset the probe.
  Rows* probe_rows_ = nullptr;
  std::string probe_key_;
  Rows::iterator probe_pos_;
};

}  // namespace

std::unique_ptr<WorkingCopy> makeMemoryWorkingCopy() { return std::make_unique<MemoryWorkingCopy>(); }

}  // namespace streamsim::detail
