// Hash partitioning of keyed rows (ops/partitioning.h).
#include "streamsim/ops/partitioning.h"

#include <algorithm>
#include <array>

#include "state/key_compare.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim::ops {

uint64_t stableHash64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;  // FNV prime
  }
  // fmix64: spreads the FNV state so that low bits (used by the modulo) depend on every byte.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

int partitionOf(std::string_view encodedKey, int numPartitions) {
  return static_cast<int>(stableHash64(encodedKey) % static_cast<uint64_t>(numPartitions));
}

std::string encodeKey(const Row& row, const std::vector<std::string>& cols) {
  std::string out;
  for (const auto& c : cols) encodeOrderedValue(row.get(c), out);
  return out;
}

std::string encodeKeyAt(const Row& row, const std::vector<int>& positions) {
  std::string out;
  for (int i : positions) encodeOrderedValue(static_cast<size_t>(i) < row.size() ? row[i] : Value(), out);
  return out;
}

namespace {

// A row of a partition's sort: 8 bytes of its key packed big-endian, and its input position.
struct Entry {
  uint64_t prefix;
  uint32_t index;
};

// Below this many rows a comparison sort is cheaper than the radix passes' counters.
constexpr size_t kRadixMin = 256;

// Sorts by prefix, stable (entries with equal prefixes keep their order): LSD radix, one byte
// a pass, skipping the bytes every entry shares. A comparison sort of a few thousand random
// prefixes mispredicts about every other branch.
void radixSortByPrefix(Entry* a, size_t n, std::vector<Entry>& scratch) {
  std::vector<std::array<uint32_t, 256>> counts(8);
  for (auto& c : counts) c.fill(0);
  for (size_t i = 0; i < n; ++i)
    for (int b = 0; b < 8; ++b) ++counts[static_cast<size_t>(b)][(a[i].prefix >> (8 * b)) & 0xFF];
  scratch.resize(n);
  Entry* src = a;
  Entry* dst = scratch.data();
  for (int b = 0; b < 8; ++b) {
    auto& c = counts[static_cast<size_t>(b)];
    if (c[(src[0].prefix >> (8 * b)) & 0xFF] == n) continue;  // one value: nothing to move
    uint32_t sum = 0;
    for (uint32_t& x : c) {
      uint32_t count = x;
      x = sum;
      sum += count;
    }
    for (size_t i = 0; i < n; ++i) dst[c[(src[i].prefix >> (8 * b)) & 0xFF]++] = src[i];
    std::swap(src, dst);
  }
  if (src != a) std::copy(src, src + n, a);
}

}  // namespace

PartitionedGroups groupEncodedRows(std::string keys, const std::vector<uint32_t>& keyEnds,
                                   std::vector<Row> rows, int numPartitions) {
  // Row positions are bucketed by partition (a counting sort into one array), then each bucket
  // is sorted by (key, position): equal keys become runs in input order, without a tree node
  // and a vector per key. 8 key bytes, packed big-endian, decide most comparisons without
  // touching the keys; the keys stay in one buffer (no string per row).
  const size_t n = rows.size();
  const size_t parts = static_cast<size_t>(numPartitions);
  PartitionedGroups out(numPartitions);
  out.keys = std::make_unique<const std::string>(std::move(keys));
  const char* base = out.keys->data();
  auto keyAt = [&](uint32_t i) {
    const uint32_t begin = i == 0 ? 0 : keyEnds[i - 1];
    return std::string_view(base + begin, keyEnds[i] - begin);
  };
  // Bytes every key of the batch starts with (the type tag, a shared leading run of digits)
  // decide nothing: the packed prefix is taken after them.
  size_t skip = 0;
  if (n > 0) {
    const std::string_view firstKey = keyAt(0);
    skip = firstKey.size();
    for (size_t i = 1; i < n && skip > 0; ++i) {
      std::string_view k = keyAt(static_cast<uint32_t>(i));
      size_t m = std::min(skip, k.size()), j = 0;
      while (j + 8 <= m && detail::bigEndianWord(k.data() + j) == detail::bigEndianWord(firstKey.data() + j)) j += 8;
      while (j < m && k[j] == firstKey[j]) ++j;
      skip = j;
    }
  }
  std::vector<uint32_t> partOf(n);
  std::vector<size_t> bucketEnd(parts + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    partOf[i] = static_cast<uint32_t>(partitionOf(keyAt(static_cast<uint32_t>(i)), numPartitions));
    ++bucketEnd[partOf[i] + 1];
  }
  for (size_t p = 0; p < parts; ++p) bucketEnd[p + 1] += bucketEnd[p];
  std::vector<Entry> entries(n);
  {
    std::vector<size_t> next(bucketEnd.begin(), bucketEnd.end() - 1);
    for (size_t i = 0; i < n; ++i) {
      std::string_view k = keyAt(static_cast<uint32_t>(i)).substr(skip);
      entries[next[partOf[i]]++] =
          Entry{k.size() >= 8 ? detail::bigEndianWord(k.data()) : detail::bigEndianTail(k.data(), k.size()),
                static_cast<uint32_t>(i)};
    }
  }
  // Equal prefixes: a key that ends within them is a prefix of the other (its zero padding
  // matched zero bytes), so the shorter sorts first; longer keys are decided by the bytes after.
  const size_t decided = skip + 8;
  auto compareRest = [&](uint32_t x, uint32_t y) {
    std::string_view a = keyAt(x), b = keyAt(y);
    if (a.size() <= decided || b.size() <= decided)
      return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
    return detail::bytewiseCompare(a.substr(decided), b.substr(decided));
  };
  auto sameKey = [&](uint32_t x, uint32_t y) { return keyAt(x) == keyAt(y); };
  std::vector<Entry> scratch;
  out.rows.reserve(n);  // reserved up front: the groups' spans point into it while it fills
  for (size_t p = 0; p < parts; ++p) {
    auto first = entries.begin() + static_cast<std::ptrdiff_t>(bucketEnd[p]);
    auto last = entries.begin() + static_cast<std::ptrdiff_t>(bucketEnd[p + 1]);
    auto byKeyThenIndex = [&](const Entry& x, const Entry& y) {
      if (x.prefix != y.prefix) return x.prefix < y.prefix;
      int c = compareRest(x.index, y.index);
      return c != 0 ? c < 0 : x.index < y.index;
    };
    const size_t size = static_cast<size_t>(last - first);
    if (size < kRadixMin) {
      std::sort(first, last, byKeyThenIndex);
    } else {
      radixSortByPrefix(&*first, size, scratch);
      // Equal prefixes are in index order now; a run of them holding different keys (rare
      // after the shared bytes are skipped) is sorted by the rest of the key.
      for (auto i = first; i != last;) {
        auto j = i + 1;
        bool oneKey = true;
        while (j != last && j->prefix == i->prefix) {
          oneKey = oneKey && sameKey(j->index, i->index);
          ++j;
        }
        if (!oneKey) std::sort(i, j, byKeyThenIndex);
        i = j;
      }
    }
    std::vector<KeyGroup>& groups = out.partitions[p];
    groups.reserve(static_cast<size_t>(last - first));
    for (auto i = first; i != last;) {
      auto j = i + 1;
      while (j != last && j->prefix == i->prefix && sameKey(j->index, i->index)) ++j;
      const size_t start = out.rows.size();
      for (auto k = i; k != j; ++k) out.rows.push_back(std::move(rows[k->index]));
      groups.push_back(KeyGroup{keyAt(i->index),
                                std::span<const Row>(out.rows.data() + start, out.rows.size() - start)});
      i = j;
    }
  }
  return out;
}

PartitionedGroups groupByPartitionAndKey(std::vector<std::pair<std::string, Row>> keyed,
                                         int numPartitions) {
  std::string keys;
  std::vector<uint32_t> ends;
  std::vector<Row> rows;
  ends.reserve(keyed.size());
  rows.reserve(keyed.size());
  for (auto& [key, row] : keyed) {
    keys.append(key);
    ends.push_back(static_cast<uint32_t>(keys.size()));
    rows.push_back(std::move(row));
  }
  return groupEncodedRows(std::move(keys), ends, std::move(rows), numPartitions);
}

PartitionedGroups partitionRows(std::vector<Row> rows, const std::vector<std::string>& keyCols,
                                int numPartitions) {
  std::vector<std::pair<std::string, Row>> keyed;
  keyed.reserve(rows.size());
  for (auto& r : rows) {
    std::string k = encodeKey(r, keyCols);
    keyed.emplace_back(std::move(k), std::move(r));
  }
  return groupByPartitionAndKey(std::move(keyed), numPartitions);
}

}  // namespace streamsim::ops
