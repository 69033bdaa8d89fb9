// Private to the state stores: the changes a store made in the version it has open, per column
// family, and their net change per key for the changelog (state_store.cc).
//
// A family's log keeps its keys and values in one byte buffer (offsets in a vector of changes):
// a timer batch makes four changes per fired timer with keys longer than std::string's inline
// buffer, and a std::string pair per change was two allocations and two frees each.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "state/key_compare.h"
#include "state/short_copy.h"

namespace streamsim::detail {

class PendingFamily {
 public:
  explicit PendingFamily(std::string_view cf) : cf_(cf) {}

  const std::string& cf() const { return cf_; }
  void put(std::string_view key, std::string_view value) { add(key, value, false); }
  void remove(std::string_view key) { add(key, {}, true); }

  // Reduces the log to the last change of each key, in ascending bytewise key order (what the
  // changelog holds). Call once, before visiting.
  void net();
  size_t size() const { return order_.size(); }
  // The log's key and value bytes and its changes (a changelog's size is about their sum).
  size_t loggedBytes() const { return size_; }
  size_t loggedChanges() const { return changes_.size(); }
  // The i-th net change (after net()): key, value, and whether it is a remove.
  std::string_view key(size_t i) const { return keyOf(changes_[order_[i]]); }
  std::string_view value(size_t i) const { return valueOf(changes_[order_[i]]); }
  bool isRemove(size_t i) const { return changes_[order_[i]].remove; }

 private:
  struct Change {
    size_t at;  // key bytes at bytes_[at], the value's right after them
    uint32_t keySize;
    uint32_t valueSize;
    bool remove;
  };
  void add(std::string_view key, std::string_view value, bool remove) {
    changes_.push_back(Change{size_, static_cast<uint32_t>(key.size()), static_cast<uint32_t>(value.size()), remove});
    const size_t n = key.size() + value.size();
    if (capacity_ - size_ < n) grow(n);
    copyShort(bytes_.get() + size_, key.data(), key.size());
    copyShort(bytes_.get() + size_ + key.size(), value.data(), value.size());
    size_ += n;
  }
  void grow(size_t n) {
    capacity_ = std::max(2 * capacity_, std::max(size_ + n, size_t{4096}));
    std::unique_ptr<char[]> bigger(new char[capacity_]);
    if (size_ > 0) std::memcpy(bigger.get(), bytes_.get(), size_);
    bytes_ = std::move(bigger);
  }
  std::string_view keyOf(const Change& c) const { return {bytes_.get() + c.at, c.keySize}; }
  std::string_view valueOf(const Change& c) const {
    return {bytes_.get() + c.at + c.keySize, c.valueSize};
  }
  // Positions of changes_ in key order, a key's changes in the order they were made; when it
  // sets `netted`, only the last change of each key (what net() keeps).
  std::vector<uint32_t> keyOrder(bool& netted) const;

  std::string cf_;
  // The log's bytes (not a std::string: its append is a call into the C library's memcpy, which
  // short_copy.h avoids for short keys and values).
  std::unique_ptr<char[]> bytes_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::vector<Change> changes_;  // in the order they were made
  std::vector<uint32_t> order_;  // after net(): positions of the net changes, by key
};

// The families a store changed, found by name without a map lookup per change (a timer handler
// alternates between the two timer families).
class PendingChanges {
 public:
  PendingFamily& family(std::string_view cf) {
    for (const auto& f : families_)
      if (bytewiseEqual(f->cf(), cf)) return *f;
    families_.push_back(std::make_unique<PendingFamily>(cf));
    return *families_.back();
  }
  // Nets every family and orders the families by name: the changelog is in (cf, key) order.
  void net();
  const std::vector<std::unique_ptr<PendingFamily>>& families() const { return families_; }

 private:
  std::vector<std::unique_ptr<PendingFamily>> families_;
};

}  // namespace streamsim::detail
