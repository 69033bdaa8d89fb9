// Private to the memory working copy: one column family's rows (string key -> string value) in
// bytewise key order, as a sorted array of leaves of up to kLeafCap rows. A std::map descent at
// a million keys is ~20 dependent node loads, most of them cache misses (workload 1b). Here a
// lookup is a binary search over a dense array of (word, leaf) pairs, one over the leaf's
// words, and one load of the row: a handful of misses.
//
// Keys are compared by an 8-byte word taken after the bytes every key of the family shares
// (state keys share a type tag and more; timer keys the high bytes of the time), so a search
// compares words held in the arrays and reads a key only when words tie. When a new key shares
// less, every word is recomputed (the shared part only shrinks: rare, O(rows)).
//
// Invariants: leaves are non-empty and in key order; seps_[i].word is the word of leaves_[i]'s
// first key; every key starts with prefix_.
#pragma once

#include <algorithm>
#include <cstddef>  // offsetof
#include <cstdint>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "key_compare.h"
#include "short_copy.h"

namespace streamsim::detail {

class OrderedRows {
 public:
  // One allocation per row: a small header, then the key's bytes, then the value's (with room to
  // the end of the allocator's block, so a value that grows a little is overwritten in place).
  // Two std::pmr::strings were three allocations for a timer key longer than their inline buffer.
  class Row {
   public:
    std::string_view key() const { return {bytes(), keySize_}; }
    std::string_view value() const { return {bytes() + keySize_, valueSize_}; }

   private:
    friend class OrderedRows;
    Row(size_t keySize, size_t valueSize, size_t blockSize)
        : keySize_(keySize), valueSize_(valueSize), blockSize_(blockSize) {}
    char* bytes() { return reinterpret_cast<char*>(this + 1); }
    const char* bytes() const { return reinterpret_cast<const char*>(this + 1); }
    size_t valueCapacity() const { return blockSize_ - sizeof(Row) - keySize_; }

    size_t keySize_;
    size_t valueSize_;
    size_t blockSize_;  // what was allocated, header included
  };

  explicit OrderedRows(std::pmr::memory_resource* mr) : mr_(mr) {}
  OrderedRows(const OrderedRows&) = delete;
  OrderedRows& operator=(const OrderedRows&) = delete;
  ~OrderedRows() {
    for (const Sep& s : seps_) {
      for (int j = 0; j < s.leaf->n; ++j) freeRow(s.leaf->rows[j]);
      delete s.leaf;
    }
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The row with this key, or null.
  // Remembers where it looked (lastSeekOf): a read is mostly followed by a write of the same key.
  Row* find(std::string_view key) {
    Pos p;
    lastValid_ = false;
    if (!seek(key, p)) return nullptr;
    const Leaf* leaf = leafAt(p.leaf);
    last_ = p;
    lastValid_ = true;
    lastHit_ = p.slot < leaf->n && leaf->words[p.slot] == p.word && bytewiseEqual(leaf->rows[p.slot]->key(), key);
    if (lastHit_) return leaf->rows[p.slot];
    // A miss keeps its own copy of the key (a hit compares against its row's): with no row to
    // compare, the next put must know it is this key.
    lastKey_.assign(key);
    // A miss is mostly followed by the put of this key, which shifts the rows after it.
    for (int j = p.slot; j < leaf->n; j += 8) __builtin_prefetch(leaf->rows + j, 1);
    return nullptr;
  }

  // Inserts or overwrites; true if the key was absent.
  bool put(std::string_view key, std::string_view value) { return insert(key, value, true); }

  // Inserts only if the key is absent (a timer armed again is left as it is); true if it was.
  bool putIfAbsent(std::string_view key, std::string_view value) {
    return insert(key, value, false);
  }

  // Removes the key; true if it was there.
  bool erase(std::string_view key) {
    Pos p;
    if (!seek(key, p)) return false;
    Leaf* leaf = leafAt(p.leaf);
    if (p.slot == leaf->n || leaf->words[p.slot] != p.word || !bytewiseEqual(leaf->rows[p.slot]->key(), key))
      return false;
    lastValid_ = false;
    freeRow(leaf->rows[p.slot]);
    std::copy(leaf->words + p.slot + 1, leaf->words + leaf->n, leaf->words + p.slot);
    std::copy(leaf->rows + p.slot + 1, leaf->rows + leaf->n, leaf->rows + p.slot);
    --leaf->n;
    --size_;
    if (leaf->n == 0) {
      delete leaf;
      seps_.erase(seps_.begin() + static_cast<ptrdiff_t>(p.leaf));
      // The erase hint now names the leaf after: expired timers go in key order.
    } else if (p.slot == 0) {
      seps_[p.leaf].word = leaf->words[0];
    }
    eraseHint_ = p.leaf;
    return true;
  }

  // Calls visit(key, value) from the first key >= begin in key order until it returns false.
  template <typename Visit>
  void scanFrom(std::string_view begin, Visit&& visit) const {
    size_t i = 0;
    int j = 0;
    if (!begin.empty() && size_ > 0) {
      Pos p;  // a key without the shared prefix lands on the begin or the end
      const_cast<OrderedRows*>(this)->seek(begin, p, /*hint=*/false);
      i = p.leaf;
      j = p.slot;
    }
    for (; i < seps_.size(); ++i, j = 0) {
      const Leaf* leaf = seps_[i].leaf;
      for (; j < leaf->n; ++j)
        if (!visit(leaf->rows[j]->key(), leaf->rows[j]->value())) return;
    }
  }

  static constexpr int kLeafCap = 64;

 private:
  struct Leaf {
    int n = 0;
    uint64_t words[kLeafCap];
    Row* rows[kLeafCap];
  };
  struct Sep {
    uint64_t word;  // of the leaf's first key
    Leaf* leaf;
  };
  // A lower bound: the key's place is slot `slot` of leaf `leaf` (slot == n: after its last row,
  // and before the next leaf's first).
  struct Pos {
    size_t leaf = 0;
    int slot = 0;
    uint64_t word = 0;
  };

  // put() and putIfAbsent(): true if the key was absent (and is now there).
  bool insert(std::string_view key, std::string_view value, bool overwrite) {
    Pos p;
    if (size_ == 0) {
      prefix_.assign(key);  // everything is shared with no other key yet
      seps_.insert(seps_.begin(), Sep{0, new Leaf});
    } else if (!lastSeekOf(key, p) && !seek(key, p)) {
      prefix_.resize(sharedPrefix(key));
      rewordAll();
      seek(key, p);
    }
    Leaf* leaf = leafAt(p.leaf);
    if (p.slot < leaf->n && leaf->words[p.slot] == p.word && bytewiseEqual(leaf->rows[p.slot]->key(), key)) {
      if (overwrite) setValue(leaf->rows[p.slot], value);
      return false;
    }
    insertAt(p, key, value);
    return true;
  }

  Leaf* leafAt(size_t i) const { return seps_[i].leaf; }

  uint64_t wordOf(std::string_view key) const {
    const size_t at = prefix_.size(), rest = key.size() - at;
    return rest >= 8 ? bigEndianWord(key.data() + at) : bigEndianTail(key.data() + at, rest);
  }

  size_t sharedPrefix(std::string_view key) const {
    const size_t n = std::min(key.size(), prefix_.size());
    size_t i = 0;
    while (i < n && key[i] == prefix_[i]) ++i;
    return i;
  }

  void rewordAll() {
    lastValid_ = false;
    for (Sep& s : seps_) {
      for (int j = 0; j < s.leaf->n; ++j) s.leaf->words[j] = wordOf(s.leaf->rows[j]->key());
      s.word = s.leaf->words[0];
    }
  }

  // Finds the lower bound of `key` in a non-empty set. False if the key does not start with the
  // shared prefix (then `p` is the begin or the end, and the key is not there).
  bool seek(std::string_view key, Pos& p, bool hint = true) {
    if (key.size() < prefix_.size() || bytewiseCompare(key.substr(0, prefix_.size()), prefix_) != 0) {
      if (size_ == 0 || bytewiseLess(key, prefix_)) {
        p = Pos{};
      } else {
        p = Pos{seps_.size() - 1, leafAt(seps_.size() - 1)->n, 0};
      }
      return false;
    }
    if (size_ == 0) {
      p = Pos{};
      return false;
    }
    p.word = wordOf(key);
    p.leaf = hint && covers(accessHint_, key, p.word)  ? accessHint_
             : hint && covers(eraseHint_, key, p.word) ? eraseHint_
                                                       : findLeaf(key, p.word);
    // The first row not before (word, key); a key is read only where words tie (timers armed
    // for one time tie on all of them). Timers are armed after the last row and expire from
    // the first: both ends are tried before the search.
    const Leaf* leaf = leafAt(p.leaf);
    // The leaf's count and words are ~9 cache lines, mostly cold at a million keys: fetched
    // together rather than one miss after another as the binary search reaches them.
    for (size_t line = 0; line < offsetof(Leaf, rows); line += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(leaf) + line);
    const uint64_t w = p.word;
    const auto before = [&](int j) {  // row j sorts before key
      return leaf->words[j] != w ? leaf->words[j] < w : bytewiseLess(leaf->rows[j]->key(), key);
    };
    if (leaf->n == 0 || !before(0)) {
      p.slot = 0;
    } else if (before(leaf->n - 1)) {
      p.slot = leaf->n;
    } else {
      p.slot = static_cast<int>(std::partition_point(leaf->words + 1, leaf->words + leaf->n - 1,
                                                     [&](const uint64_t& x) { return before(static_cast<int>(&x - leaf->words)); }) -
                                leaf->words);
    }
    if (hint) accessHint_ = p.leaf;
    return true;
  }

  // The position the last find() found for this same key, if no row moved since.
  bool lastSeekOf(std::string_view key, Pos& p) const {
    if (!lastValid_) return false;
    const std::string_view last = lastHit_ ? leafAt(last_.leaf)->rows[last_.slot]->key()
                                           : std::string_view(lastKey_);
    if (!bytewiseEqual(last, key)) return false;
    p = last_;
    return true;
  }

  // Whether `key` belongs in leaf i: not before its first key (unless it is the first leaf),
  // and before the next leaf's first key.
  bool covers(size_t i, std::string_view key, uint64_t w) const {
    if (i >= seps_.size()) return false;
    if (i > 0 && sepLess(key, w, i)) return false;
    return i + 1 == seps_.size() || sepLess(key, w, i + 1);
  }
  // key < the first key of leaf i.
  bool sepLess(std::string_view key, uint64_t w, size_t i) const {
    if (w != seps_[i].word) return w < seps_[i].word;
    return bytewiseLess(key, leafAt(i)->rows[0]->key());
  }

  // The last leaf whose first key is <= key, or the first leaf.
  size_t findLeaf(std::string_view key, uint64_t w) const {
    // The first leaf starting after key, by word and, where words tie, by its first key.
    const auto it = std::partition_point(seps_.begin(), seps_.end(), [&](const Sep& s) {
      return s.word != w ? s.word < w : !bytewiseLess(key, s.leaf->rows[0]->key());
    });
    const size_t i = static_cast<size_t>(it - seps_.begin());
    return i == 0 ? 0 : i - 1;
  }

  void insertAt(Pos p, std::string_view key, std::string_view value) {
    lastValid_ = false;
    Leaf* leaf = leafAt(p.leaf);
    if (leaf->n == kLeafCap) {
      Leaf* right = new Leaf;
      // Appending past the last leaf (timers are armed in time order): start a new leaf rather
      // than leave two half-full ones.
      const int keep = p.slot == kLeafCap && p.leaf + 1 == seps_.size() ? kLeafCap : kLeafCap / 2;
      right->n = kLeafCap - keep;
      std::copy(leaf->words + keep, leaf->words + kLeafCap, right->words);
      std::copy(leaf->rows + keep, leaf->rows + kLeafCap, right->rows);
      leaf->n = keep;
      if (right->n > 0) {
        seps_.insert(seps_.begin() + static_cast<ptrdiff_t>(p.leaf) + 1, Sep{right->words[0], right});
      }
      if (p.slot > keep || (keep == kLeafCap && p.slot == kLeafCap)) {
        if (right->n == 0) seps_.insert(seps_.begin() + static_cast<ptrdiff_t>(p.leaf) + 1, Sep{p.word, right});
        p.slot -= keep;
        ++p.leaf;
        leaf = right;
      } else if (right->n == 0) {
        delete right;
      }
    }
    Row* row = newRow(key, value);
    std::copy_backward(leaf->words + p.slot, leaf->words + leaf->n, leaf->words + leaf->n + 1);
    std::copy_backward(leaf->rows + p.slot, leaf->rows + leaf->n, leaf->rows + leaf->n + 1);
    leaf->words[p.slot] = p.word;
    leaf->rows[p.slot] = row;
    ++leaf->n;
    ++size_;
    if (p.slot == 0) seps_[p.leaf].word = p.word;
    accessHint_ = p.leaf;
  }

  Row* newRow(std::string_view key, std::string_view value) {
    // Rounded up to the allocator's 16-byte grain: the rest is the value's room to grow.
    const size_t block = (sizeof(Row) + key.size() + value.size() + 15) & ~size_t{15};
    Row* row = new (mr_->allocate(block, alignof(Row))) Row(key.size(), value.size(), block);
    copyShort(row->bytes(), key.data(), key.size());
    copyShort(row->bytes() + key.size(), value.data(), value.size());
    return row;
  }

  // Overwrites the value in place where it fits, else moves the row to a block that holds it
  // (the leaf's pointer is the only one to it).
  void setValue(Row*& row, std::string_view value) {
    if (value.size() <= row->valueCapacity()) {
      char* to = row->bytes() + row->keySize_;
      const size_t n = value.size();
      if (value.data() + n <= to || to + n <= value.data()) {
        copyShort(to, value.data(), n);
      } else if (n > 0) {
        std::memmove(to, value.data(), n);  // a view into this very row
      }
      row->valueSize_ = value.size();
      return;
    }
    Row* bigger = newRow(row->key(), value);
    freeRow(row);
    row = bigger;
  }

  void freeRow(Row* r) {
    const size_t block = r->blockSize_;
    r->~Row();
    mr_->deallocate(r, block, alignof(Row));
  }

  std::pmr::memory_resource* mr_;
  std::vector<Sep> seps_;
  std::string prefix_;  // shared by every key
  size_t size_ = 0;
  // Leaves of the last access and the last erase: a read is mostly followed by a write of the
  // same key; timers are armed at the end and expire from the front. Checked before a search.
  size_t accessHint_ = 0;
  size_t eraseHint_ = 0;
  // What the last find() found: its position, and whether its row holds the key (else lastKey_
  // is a copy of it); invalid once a row is added or removed.
  Pos last_;
  std::string lastKey_;
  bool lastHit_ = false;
  bool lastValid_ = false;
};

}  // namespace streamsim::detail
