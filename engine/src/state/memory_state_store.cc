// The in-memory working copy: one std::map per column family (DESIGN.md §3).
#include <cstdint>
#include <map>

#include "state/key_compare.h"
#include "state/working_copy.h"

namespace streamsim::detail {
namespace {

class MemoryWorkingCopy final : public WorkingCopy {
 public:
  std::optional<std::string> get(std::string_view cf, std::string_view key) override {
    auto c = cfs_.find(cf);
    if (c == cfs_.end()) return std::nullopt;
    Rows& rows = c->second;
    auto it = rows.lower_bound(key);
    // A read is mostly followed by a write of the same key (read-modify-write of a value):
    // the position is kept so that write needs no second descent.
    probe_rows_ = &rows;
    probe_key_.assign(key);
    probe_pos_ = it;
    if (it == rows.end() || std::string_view(it->first) != key) return std::nullopt;
    return it->second;
  }

  void put(std::string_view cf, std::string_view key, std::string_view value) override {
    putNew(cf, key, value);
  }

  bool putNew(std::string_view cf, std::string_view key, std::string_view value) override {
    bool isNew = false;
    auto c = cfs_.find(cf);
    if (c == cfs_.end()) c = cfs_.emplace(std::string(cf), Rows{}).first;
    Rows& rows = c->second;
    // One descent at most: lower_bound (or the probe of a get of this key just before) is both
    // the lookup and the insertion hint.
    auto it = probe_rows_ == &rows && probe_key_ == key ? probe_pos_ : rows.lower_bound(key);
    if (it != rows.end() && std::string_view(it->first) == key) {
      it->second.assign(value);
    } else {
      it = rows.emplace_hint(it, std::string(key), std::string(value));
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
    auto c = cfs_.find(cf);
    if (c == cfs_.end()) return false;
    auto it = c->second.find(key);
    if (it == c->second.end()) return false;
    probe_rows_ = nullptr;  // the probe may name the erased node
    c->second.erase(it);
    if (c->second.empty()) cfs_.erase(c);
    return true;
  }

  void scan(std::string_view cf, std::string_view begin, std::string_view end,
            const StateVisitor& visit) override {
    auto c = cfs_.find(cf);
    if (c == cfs_.end()) return;
    for (auto it = c->second.lower_bound(begin); it != c->second.end(); ++it) {
      if (!end.empty() && std::string_view(it->first) >= end) break;
      if (!visit(it->first, it->second)) break;
    }
  }

  void scanAll(const WorkingCopyVisitor& visit) override {
    for (const auto& [cf, rows] : cfs_)
      for (const auto& [k, v] : rows)
        if (!visit(cf, k, v)) return;
  }

  std::vector<std::string> columnFamilies() override {
    std::vector<std::string> out;
    for (const auto& [cf, rows] : cfs_) out.push_back(cf);
    return out;
  }

  Status clear() override {
    probe_rows_ = nullptr;
    cfs_.clear();
    return Status::OK();
  }

  int64_t countKeys() override {
    int64_t n = 0;
    for (const auto& [cf, rows] : cfs_) n += static_cast<int64_t>(rows.size());
    return n;
  }

 private:
  using Rows = std::map<std::string, std::string, BytewiseLess>;  // see key_compare.h
  std::map<std::string, Rows, std::less<>> cfs_;  // empty families are erased
  // The last key looked up: its family (null: none), and its lower_bound there. Insertions
  // never move a std::map position; erasures and clear() reset the probe.
  Rows* probe_rows_ = nullptr;
  std::string probe_key_;
  Rows::iterator probe_pos_;
};

}  // namespace

std::unique_ptr<WorkingCopy> makeMemoryWorkingCopy() { return std::make_unique<MemoryWorkingCopy>(); }

}  // namespace streamsim::detail
