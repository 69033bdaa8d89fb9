// Hash partitioning of keyed rows (ops/partitioning.h).
#include "streamsim/ops/partitioning.h"

#include <algorithm>

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

PartitionedGroups groupByPartitionAndKey(std::vector<std::pair<std::string, Row>> keyed,
                                         int numPartitions) {
  // Row positions are bucketed by partition, then each bucket is sorted by (key, position):
  // equal keys become runs in input order, without a tree node and a vector per key. The first
  // 8 key bytes, packed big-endian, decide most comparisons without touching the strings.
  struct Entry {
    uint64_t prefix;
    uint32_t index;
  };
  auto prefixOf = [](std::string_view k) {
    uint64_t x = 0;
    for (size_t i = 0; i < 8; ++i)
      x = (x << 8) | (i < k.size() ? static_cast<uint8_t>(k[i]) : 0);
    return x;
  };
  const size_t parts = static_cast<size_t>(numPartitions);
  std::vector<std::vector<Entry>> buckets(parts);
  for (auto& b : buckets) b.reserve(keyed.size() / parts + 16);
  for (size_t i = 0; i < keyed.size(); ++i) {
    const std::string& key = keyed[i].first;
    buckets[static_cast<size_t>(partitionOf(key, numPartitions))].push_back(
        Entry{prefixOf(key), static_cast<uint32_t>(i)});
  }
  PartitionedGroups out(numPartitions);
  // Reserved up front: the groups' spans point into it while it fills.
  out.rows.reserve(keyed.size());
  for (size_t p = 0; p < parts; ++p) {
    std::vector<Entry>& b = buckets[p];
    std::sort(b.begin(), b.end(), [&](const Entry& x, const Entry& y) {
      if (x.prefix != y.prefix) return x.prefix < y.prefix;
      int c = keyed[x.index].first.compare(keyed[y.index].first);
      return c != 0 ? c < 0 : x.index < y.index;
    });
    for (size_t i = 0; i < b.size();) {
      const std::string& key = keyed[b[i].index].first;
      size_t j = i + 1;
      while (j < b.size() && b[j].prefix == b[i].prefix && keyed[b[j].index].first == key) ++j;
      const size_t first = out.rows.size();
      for (size_t k = i; k < j; ++k) out.rows.push_back(std::move(keyed[b[k].index].second));
      out.partitions[p].push_back(
          KeyGroup{std::move(keyed[b[i].index].first),
                   std::span<const Row>(out.rows.data() + first, j - i)});
      i = j;
    }
  }
  return out;
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
