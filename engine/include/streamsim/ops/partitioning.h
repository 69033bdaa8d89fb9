// Hash partitioning of keyed rows for stateful operators (DESIGN.md §2, §3): a stable hash of the
// order-preserving key encoding picks a partition in [0, shufflePartitions); inside a partition
// keys are visited in ascending encoded-key order, rows of one key in input order.
// Pure functions over values; safe to call from several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/value.h"

namespace streamsim::ops {

// 64-bit FNV-1a over the bytes, then a murmur3 fmix64 finaliser. Stable across runs, platforms
// and releases: the partition a key lands in is part of a checkpoint's meaning.
uint64_t stableHash64(std::string_view bytes);

// The partition of an encoded key. REQUIRES: numPartitions > 0.
int partitionOf(std::string_view encodedKey, int numPartitions);

// The order-preserving encoding (row_encoding.h encodeOrderedValue) of `cols` of `row`,
// concatenated. A missing column encodes as null.
std::string encodeKey(const Row& row, const std::vector<std::string>& cols);
// The same with the columns given by position in the row's schema (looked up once per schema
// by a caller grouping many rows); a position past the row's end encodes as null.
std::string encodeKeyAt(const Row& row, const std::vector<int>& positions);

// All rows of one key in one partition: a range of the PartitionedGroups' rows (a vector per
// key was an allocation and a free per key and batch).
struct KeyGroup {
  std::string_view key;       // encoded key; points into PartitionedGroups::keys
  std::span<const Row> rows;  // input order; points into PartitionedGroups::rows
};

// Every partition's key groups, in ascending key order. Holds the keys and rows the groups point
// into, so it moves but does not copy.
struct PartitionedGroups {
  PartitionedGroups() = default;
  explicit PartitionedGroups(int numPartitions)
      : partitions(static_cast<size_t>(numPartitions)) {}
  PartitionedGroups(PartitionedGroups&&) = default;
  PartitionedGroups& operator=(PartitionedGroups&&) = default;
  PartitionedGroups(const PartitionedGroups&) = delete;
  PartitionedGroups& operator=(const PartitionedGroups&) = delete;

  size_t size() const { return partitions.size(); }
  const std::vector<KeyGroup>& operator[](size_t p) const { return partitions[p]; }

  // Every row's encoded key, concatenated. Behind a pointer: a moved string may carry its bytes
  // inline and leave the groups' views behind.
  std::unique_ptr<const std::string> keys;
  std::vector<Row> rows;  // partition by partition, key by key, each key's rows in input order
  std::vector<std::vector<KeyGroup>> partitions;
};

// Groups rows whose encoded keys are concatenated in `keys`: row i's key ends at keyEnds[i] (and
// starts where row i-1's ends). The result always has numPartitions entries (empty partitions
// included). REQUIRES: keyEnds.size() == rows.size(), ascending, the last == keys.size().
PartitionedGroups groupEncodedRows(std::string keys, const std::vector<uint32_t>& keyEnds,
                                   std::vector<Row> rows, int numPartitions);

// Groups (encodedKey, row) pairs by partition and key. The result always has numPartitions
// entries (empty partitions included).
PartitionedGroups groupByPartitionAndKey(std::vector<std::pair<std::string, Row>> keyed,
                                         int numPartitions);

// Convenience: keys each row by `keyCols` (encodeKey) and groups it.
PartitionedGroups partitionRows(std::vector<Row> rows, const std::vector<std::string>& keyCols,
                                int numPartitions);

}  // namespace streamsim::ops
