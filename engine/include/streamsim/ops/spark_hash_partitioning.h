// Spark's hash partitioning of keyed rows, the placement a real Spark checkpoint's state has:
// HashPartitioning.partitionIdExpression (catalyst plans/physical/partitioning.scala) is
// pmod(Murmur3Hash(keys, seed 42), numPartitions), the Murmur3Hash folding each key column into the
// running hash (InterpretedHashFunction.hash in catalyst expressions/hash.scala: a null leaves it,
// boolean/int as hashInt, long and timestamp (microseconds) as hashLong, a double by its
// doubleToLongBits (-0.0 as 0), a string by its UTF-8 bytes (hashUnsafeBytes), struct fields,
// array elements and map keys and values one after another), over Murmur3_x86_32 of
// common/unsafe (hashInt, hashLong, hashUnsafeBytes — its legacy tail: each trailing byte mixed
// on its own). The simulator's own partitioning is ops/partitioning.h; this one is for checking
// and placing Spark's state. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "streamsim/value.h"

namespace streamsim::ops {

int32_t sparkMurmur3HashInt(int32_t v, int32_t seed);
int32_t sparkMurmur3HashLong(int64_t v, int32_t seed);
int32_t sparkMurmur3HashBytes(std::string_view bytes, int32_t seed);

// Murmur3Hash(keys, seed): each value folded in, typed by its Value type (kInt as Spark's
// IntegerType, kLong as LongType, kTimestamp — milliseconds here — as TimestampType's
// microseconds).
int32_t sparkMurmur3Hash(const std::vector<Value>& keys, int32_t seed = 42);

// The partition Spark's HashPartitioning gives `keys` among `numPartitions`. REQUIRES: > 0.
int sparkHashPartition(const std::vector<Value>& keys, int numPartitions);

}  // namespace streamsim::ops
