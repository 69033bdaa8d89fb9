// Hash partitioning of keyed rows (ops/partitioning.h).
#include "streamsim/ops/partitioning.h"

#include <map>

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

PartitionedGroups groupByPartitionAndKey(std::vector<std::pair<std::string, Row>> keyed,
                                         int numPartitions) {
  std::vector<std::map<std::string, std::vector<Row>>> byKey(
      static_cast<size_t>(numPartitions));
  for (auto& [key, row] : keyed) {
    int p = partitionOf(key, numPartitions);
    byKey[static_cast<size_t>(p)][key].push_back(std::move(row));
  }
  PartitionedGroups out(static_cast<size_t>(numPartitions));
  for (size_t p = 0; p < byKey.size(); ++p) {
    out[p].reserve(byKey[p].size());
    for (auto& [key, rows] : byKey[p]) out[p].push_back(KeyGroup{key, std::move(rows)});
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
