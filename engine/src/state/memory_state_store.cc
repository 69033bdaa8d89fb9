// The in-memory working copy: one std::map per column family (DESIGN.md §3).
#include <cstdint>
#include <cstring>
#include <map>

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
  // Bytewise key order (std::string's), compared 8 bytes at a time as big-endian words without
  // a call to memcmp: timer keys share their first 8 bytes (the time) and often the grouping
  // key's encoding header after it, so a compare from the start repeated those bytes each time.
  struct KeyLess {
    using is_transparent = void;
    static uint64_t word(const char* p) {
      uint64_t x;
      std::memcpy(&x, p, 8);
      return __builtin_bswap64(x);
    }
    static uint64_t tail(const char* p, size_t n) {  // n < 8 bytes, zero-padded on the right
      uint64_t x = 0;
      for (size_t i = 0; i < n; ++i) x |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (56 - 8 * i);
      return x;
    }
    bool operator()(std::string_view a, std::string_view b) const {
      size_t n = a.size() < b.size() ? a.size() : b.size();
      size_t i = 0;
      for (; i + 8 <= n; i += 8) {
        uint64_t wa = word(a.data() + i), wb = word(b.data() + i);
        if (wa != wb) return wa < wb;
      }
      uint64_t ta = tail(a.data() + i, n - i), tb = tail(b.data() + i, n - i);
      if (ta != tb) return ta < tb;
      return a.size() < b.size();  // one is a prefix of the other
    }
  };
  using Rows = std::map<std::string, std::string, KeyLess>;
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
