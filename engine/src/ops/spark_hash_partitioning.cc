// Spark's hash partitioning (ops/spark_hash_partitioning.h).
#include "streamsim/ops/spark_hash_partitioning.h"

#include <bit>
#include <cstring>

namespace streamsim::ops {
namespace {

constexpr uint32_t kC1 = 0xcc9e2d51u;
constexpr uint32_t kC2 = 0x1b873593u;

uint32_t mixK1(uint32_t k1) { return std::rotl(k1 * kC1, 15) * kC2; }
uint32_t mixH1(uint32_t h1, uint32_t k1) { return std::rotl(h1 ^ k1, 13) * 5 + 0xe6546b64u; }
int32_t fmix(uint32_t h1, uint32_t length) {
  h1 ^= length;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6bu;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35u;
  h1 ^= h1 >> 16;
  return static_cast<int32_t>(h1);
}

int32_t hashValue(const Value& v, int32_t seed) {
  switch (v.type()) {
    case Type::kNull: return seed;
    case Type::kBoolean: return sparkMurmur3HashInt(v.asBool() ? 1 : 0, seed);
    case Type::kInt: return sparkMurmur3HashInt(static_cast<int32_t>(v.asLong()), seed);
    case Type::kLong: return sparkMurmur3HashLong(v.asLong(), seed);
    case Type::kTimestamp: return sparkMurmur3HashLong(v.asLong() * 1000, seed);
    case Type::kDouble: {
      double d = v.asDouble();
      if (d == 0.0) return sparkMurmur3HashLong(0, seed);  // -0.0 and 0.0
      int64_t bits = d != d ? int64_t{0x7ff8000000000000} : std::bit_cast<int64_t>(d);  // doubleToLongBits
      return sparkMurmur3HashLong(bits, seed);
    }
    case Type::kString: return sparkMurmur3HashBytes(v.asString(), seed);
    // A date is an Int inside Spark (its day count), a binary an Array[Byte] hashed as its bytes
    // (catalyst/expressions/hash.scala Murmur3Hash.hash: `case i: Int`, `case a: Array[Byte]`).
    case Type::kDate: return sparkMurmur3HashInt(static_cast<int32_t>(v.asLong()), seed);
    case Type::kBinary: return sparkMurmur3HashBytes(v.asString(), seed);
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap: {
      int32_t h = seed;
      for (const Value& item : v.items()) h = hashValue(item, h);  // a map's keys and values interleaved
      return h;
    }
  }
  return seed;
}

}  // namespace

int32_t sparkMurmur3HashInt(int32_t v, int32_t seed) {
  return fmix(mixH1(static_cast<uint32_t>(seed), mixK1(static_cast<uint32_t>(v))), 4);
}

int32_t sparkMurmur3HashLong(int64_t v, int32_t seed) {
  const auto bits = static_cast<uint64_t>(v);
  uint32_t h1 = mixH1(static_cast<uint32_t>(seed), mixK1(static_cast<uint32_t>(bits)));
  h1 = mixH1(h1, mixK1(static_cast<uint32_t>(bits >> 32)));
  return fmix(h1, 8);
}

int32_t sparkMurmur3HashBytes(std::string_view bytes, int32_t seed) {
  const size_t aligned = bytes.size() - bytes.size() % 4;
  auto h1 = static_cast<uint32_t>(seed);
  for (size_t i = 0; i < aligned; i += 4) {
    uint32_t word = 0;  // Platform.getInt: little-endian
    for (int b = 3; b >= 0; --b) word = (word << 8) | static_cast<unsigned char>(bytes[i + static_cast<size_t>(b)]);
    h1 = mixH1(h1, mixK1(word));
  }
  for (size_t i = aligned; i < bytes.size(); ++i) {
    // Platform.getByte: a signed byte, sign-extended to the int mixed in.
    auto halfWord = static_cast<uint32_t>(static_cast<int32_t>(static_cast<signed char>(bytes[i])));
    h1 = mixH1(h1, mixK1(halfWord));
  }
  return fmix(h1, static_cast<uint32_t>(bytes.size()));
}

int32_t sparkMurmur3Hash(const std::vector<Value>& keys, int32_t seed) {
  int32_t h = seed;
  for (const Value& k : keys) h = hashValue(k, h);
  return h;
}

int sparkHashPartition(const std::vector<Value>& keys, int numPartitions) {
  const int32_t h = sparkMurmur3Hash(keys, 42);
  const int p = h % numPartitions;  // Pmod
  return p < 0 ? p + numPartitions : p;
}

}  // namespace streamsim::ops
