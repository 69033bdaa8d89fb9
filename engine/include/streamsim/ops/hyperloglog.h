// approx_count_distinct's sketch: HyperLogLog++ as Spark's HyperLogLogPlusPlusHelper
// (sql/catalyst/.../util/HyperLogLogPlusPlusHelper.scala) and HyperLogLogPlusPlus.scala build it,
// so that the same input and relative standard deviation give Spark's estimate:
// - precision p = ceil(2 * log2(1.106 / rsd)) (>= 4), m = 2^p registers of 6 bits, packed ten to
//   a 64-bit word (numWords = m / 10 + 1, as Spark's buffer MS[0..numWords)).
// - a value is hashed with Spark's XxHash64Function (seed 42): ints and booleans as hashInt,
//   longs as hashLong, timestamps as their microseconds (Spark's TimestampType), doubles as
//   hashLong of their bits (-0.0 as 0.0, NaN canonical), strings as their UTF-8 bytes, arrays /
//   structs / maps element by element with the running hash as the seed (nulls skipped).
// - the estimate: linear counting below the precision's threshold, else the raw estimate with
//   HLL++'s k-nearest-neighbour (k = 6) bias correction below 5m, rounded to a long.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::ops {

// XXH64 as Spark's XXH64.java (the standard algorithm; hashInt / hashLong are its 4- and 8-byte
// little-endian inputs).
uint64_t xxhash64Bytes(std::string_view data, uint64_t seed);
uint64_t xxhash64Int(int32_t v, uint64_t seed);
uint64_t xxhash64Long(int64_t v, uint64_t seed);
// Spark's InterpretedHashFunction.hash with XXH64 over a value of streamsim's types.
uint64_t sparkXxHash64(const Value& v, uint64_t seed);

class HyperLogLogPlusPlus {
 public:
  // InvalidArgument when rsd gives fewer than 4 bits (rsd > ~0.39), as Spark's require().
  static Result<HyperLogLogPlusPlus> make(double relativeSD);

  int precision() const { return p_; }
  size_t numWords() const { return static_cast<size_t>(m_ / kRegistersPerWord + 1); }
  // words.size() == numWords(). Null values are not added (the caller skips them).
  void update(std::vector<int64_t>& words, const Value& v) const;
  void merge(std::vector<int64_t>& into, const std::vector<int64_t>& other) const;
  int64_t query(const std::vector<int64_t>& words) const;

 private:
  static constexpr int kRegisterSize = 6;
  static constexpr int kRegistersPerWord = 64 / kRegisterSize;
  double estimateBias(double e) const;
  int p_ = 0;
  int64_t m_ = 0;
  double alphaM2_ = 0;
};

}  // namespace streamsim::ops
