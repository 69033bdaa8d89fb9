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
    auto it = seek(*fam, key);
    fam->finger = it;  // a read is mostly followed by a write of the same key
    if (it == fam->rows.end() || !bytewiseEqual(it->first, key)) return std::nullopt;
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
    // One descent at most: the lower bound is both the lookup and the insertion hint.
    auto it = seek(*fam, key);
    if (it != rows.end() && bytewiseEqual(it->first, key)) {
      it->second.assign(value);
    } else {
      it = rows.emplace_hint(it, std::piecewise_construct, std::forward_as_tuple(key),
                             std::forward_as_tuple(value));
      isNew = true;
    }
    fam->finger = it;
    return isNew;
  }

  void remove(std::string_view cf, std::string_view key) override { removeExisting(cf, key); }

  bool removeExisting(std::string_view cf, std::string_view key) override {
    Family* found = find(cf);
    if (found == nullptr) return false;
    Family& fam = *found;
    auto it = seek(fam, key);
    if (it == fam.rows.end() || !bytewiseEqual(it->first, key)) {
      fam.finger = it;
      return false;
    }
    fam.finger = fam.afterErase = fam.rows.erase(it);
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
    Family(std::string_view n, SizeClassPool* pool)
        : name(n), rows(pool), finger(rows.end()), afterErase(rows.end()) {}
    std::string name;
    Rows rows;
    // The position of the last access and the row after the last one erased (nodes, or end()):
    // only removeExisting erases single rows, and it moves both to the row after. Insertions
    // never move a position.
    Rows::iterator finger;
    Rows::iterator afterErase;
  };

  // Rows::lower_bound(key), found near the last access or the last erase when it can be: a
  // read is mostly followed by a write of the same key; a re-armed timer is put right after the
  // old one it replaces (by key) or after every other (by time); expired timers are removed in
  // key order (the next to go is the row after the last removed). Only a few nodes are tried
  // before a descent, which at a million keys is twenty compares and as many cache misses.
  static Rows::iterator seek(Family& fam, std::string_view key) {
    Rows& rows = fam.rows;
    Rows::iterator it;
    if (near(rows, fam.finger, key, it) || near(rows, fam.afterErase, key, it)) return it;
    if (!rows.empty() && bytewiseLess(std::prev(rows.end())->first, key)) return rows.end();
    return rows.lower_bound(key);
  }
  // Whether lower_bound(key) is within kFingerSteps rows of `from` (then in `out`).
  static bool near(Rows& rows, Rows::iterator from, std::string_view key, Rows::iterator& out) {
    auto it = from;
    const int c = it == rows.end() ? 1 : bytewiseCompare(it->first, key);
    if (c == 0) {
      out = it;
      return true;
    }
    if (c > 0) {  // key before `from`: walk back while the previous row is not before it
      for (int step = 0; step < kFingerSteps; ++step) {
        if (it == rows.begin()) break;
        const auto prev = std::prev(it);
        const int d = bytewiseCompare(prev->first, key);
        if (d < 0) break;
        it = prev;
        if (d == 0) break;
        if (step + 1 == kFingerSteps) return false;
      }
      out = it;
      return true;
    }
    for (int step = 0; step < kFingerSteps; ++step) {  // key after `from`: walk forward
      ++it;
      if (it == rows.end() || bytewiseCompare(it->first, key) >= 0) {
        out = it;
        return true;
      }
    }
    return false;
  }
  static constexpr int kFingerSteps = 2;

  // A handful of families, looked up by name on every access: a linear search by name beats a
  // map's compares. Sorted by name (scanAll, columnFamilies); empty families are erased.
  Family* find(std::string_view cf) const {
    for (const auto& f : cfs_)
      if (bytewiseEqual(f->name, cf)) return f.get();
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
};

}  // namespace

std::unique_ptr<WorkingCopy> makeMemoryWorkingCopy() { return std::make_unique<MemoryWorkingCopy>(); }

}  // namespace streamsim::detail
