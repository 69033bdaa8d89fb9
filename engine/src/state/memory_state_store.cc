// The in-memory working copy: one std::map per column family (DESIGN.md §3).
#include <map>

#include "state/working_copy.h"

namespace streamsim::detail {
namespace {

class MemoryWorkingCopy final : public WorkingCopy {
 public:
  std::optional<std::string> get(std::string_view cf, std::string_view key) override {
    auto c = cfs_.find(cf);
    if (c == cfs_.end()) return std::nullopt;
    auto it = c->second.find(key);
    if (it == c->second.end()) return std::nullopt;
    return it->second;
  }

  void put(std::string_view cf, std::string_view key, std::string_view value) override {
    putNew(cf, key, value);
  }

  bool putNew(std::string_view cf, std::string_view key, std::string_view value) override {
    auto c = cfs_.find(cf);
    if (c == cfs_.end()) c = cfs_.emplace(std::string(cf), Rows{}).first;
    Rows& rows = c->second;
    // One descent: lower_bound is both the lookup and the insertion hint.
    auto it = rows.lower_bound(key);
    if (it != rows.end() && std::string_view(it->first) == key) {
      it->second.assign(value);
      return false;
    }
    rows.emplace_hint(it, std::string(key), std::string(value));
    return true;
  }

  void remove(std::string_view cf, std::string_view key) override { removeExisting(cf, key); }

  bool removeExisting(std::string_view cf, std::string_view key) override {
    auto c = cfs_.find(cf);
    if (c == cfs_.end()) return false;
    auto it = c->second.find(key);
    if (it == c->second.end()) return false;
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
    cfs_.clear();
    return Status::OK();
  }

  int64_t countKeys() override {
    int64_t n = 0;
    for (const auto& [cf, rows] : cfs_) n += static_cast<int64_t>(rows.size());
    return n;
  }

 private:
  using Rows = std::map<std::string, std::string, std::less<>>;
  std::map<std::string, Rows, std::less<>> cfs_;  // empty families are erased
};

}  // namespace

std::unique_ptr<WorkingCopy> makeMemoryWorkingCopy() { return std::make_unique<MemoryWorkingCopy>(); }

}  // namespace streamsim::detail
