// HyperLogLog++ after Spark's HyperLogLogPlusPlusHelper.scala and XXH64.java / hash.scala
// (InterpretedHashFunction.hash) (hyperloglog.h).
#include "streamsim/ops/hyperloglog.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "byte_order.h"
#include "ops/hyperloglog_data.h"

namespace streamsim::ops {
namespace {

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kP3 = 0x165667B19E3779F9ull;
constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kP5 = 0x27D4EB2F165667C5ull;

uint64_t fmix(uint64_t h) {
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

using detail::loadLittle32;
using detail::loadLittle64;

uint64_t round64(uint64_t acc, uint64_t k) { return std::rotl(acc + k * kP2, 31) * kP1; }

// Java's Arrays.binarySearch(double[], key): the index of a match, else -(insertion point) - 1.
// The tables are not strictly ascending everywhere, so the search's exact steps matter.
int64_t javaBinarySearch(std::span<const double> a, double key) {
  int64_t low = 0;
  int64_t high = static_cast<int64_t>(a.size()) - 1;
  while (low <= high) {
    int64_t mid = static_cast<int64_t>(static_cast<uint64_t>(low + high) >> 1);
    double v = a[static_cast<size_t>(mid)];
    if (v < key) {
      low = mid + 1;
    } else if (v > key) {
      high = mid - 1;
    } else {
      int64_t vb = std::bit_cast<int64_t>(v), kb = std::bit_cast<int64_t>(key);
      if (vb == kb) return mid;
      if (vb < kb) low = mid + 1;
      else high = mid - 1;
    }
  }
  return -(low + 1);
}

// Java's Math.round(double): floor(x + 0.5) computed exactly.
int64_t javaRound(double x) {
  if (std::isnan(x)) return 0;
  double f = std::floor(x);
  if (x - f >= 0.5) f += 1.0;
  if (f >= 9.2233720368547758e18) return INT64_MAX;
  if (f <= -9.2233720368547758e18) return INT64_MIN;
  return static_cast<int64_t>(f);
}

}  // namespace

uint64_t xxhash64Bytes(std::string_view data, uint64_t seed) {
  const char* p = data.data();
  const char* end = p + data.size();
  uint64_t h;
  if (data.size() >= 32) {
    uint64_t v1 = seed + kP1 + kP2, v2 = seed + kP2, v3 = seed, v4 = seed - kP1;
    const char* limit = end - 32;
    do {
      v1 = round64(v1, loadLittle64(p));
      v2 = round64(v2, loadLittle64(p + 8));
      v3 = round64(v3, loadLittle64(p + 16));
      v4 = round64(v4, loadLittle64(p + 24));
      p += 32;
    } while (p <= limit);
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    for (uint64_t v : {v1, v2, v3, v4}) {
      h ^= round64(0, v);
      h = h * kP1 + kP4;
    }
  } else {
    h = seed + kP5;
  }
  h += data.size();
  while (p + 8 <= end) {
    h ^= round64(0, loadLittle64(p));
    h = std::rotl(h, 27) * kP1 + kP4;
    p += 8;
  }
  if (p + 4 <= end) {
    h ^= uint64_t{loadLittle32(p)} * kP1;
    h = std::rotl(h, 23) * kP2 + kP3;
    p += 4;
  }
  while (p < end) {
    h ^= uint64_t{static_cast<unsigned char>(*p)} * kP5;
    h = std::rotl(h, 11) * kP1;
    ++p;
  }
  return fmix(h);
}

uint64_t xxhash64Int(int32_t v, uint64_t seed) {
  uint64_t h = seed + kP5 + 4;
  h ^= uint64_t{static_cast<uint32_t>(v)} * kP1;
  h = std::rotl(h, 23) * kP2 + kP3;
  return fmix(h);
}

uint64_t xxhash64Long(int64_t v, uint64_t seed) {
  uint64_t h = seed + kP5 + 8;
  h ^= round64(0, static_cast<uint64_t>(v));
  h = std::rotl(h, 27) * kP1 + kP4;
  return fmix(h);
}

uint64_t sparkXxHash64(const Value& v, uint64_t seed) {
  switch (v.type()) {
    case Type::kNull: return seed;
    case Type::kBoolean: return xxhash64Int(v.asBool() ? 1 : 0, seed);
    case Type::kInt: return xxhash64Int(static_cast<int32_t>(v.asLong()), seed);
    case Type::kLong: return xxhash64Long(v.asLong(), seed);
    // Spark's TimestampType holds microseconds.
    case Type::kTimestamp: return xxhash64Long(v.asLong() * 1000, seed);
    case Type::kDouble: {
      double d = v.asDouble();
      if (d == 0.0) return xxhash64Long(0, seed);  // -0.0 as 0.0
      if (std::isnan(d)) return xxhash64Long(0x7ff8000000000000LL, seed);  // doubleToLongBits
      return xxhash64Long(std::bit_cast<int64_t>(d), seed);
    }
    case Type::kString:
    case Type::kBinary: return xxhash64Bytes(v.asString(), seed);
    case Type::kDate: return xxhash64Int(static_cast<int32_t>(v.asLong()), seed);  // DateType: an int
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap: {
      // Struct fields, array elements, and a map's key then value per entry: items() order.
      uint64_t h = seed;
      for (const Value& item : v.items()) h = sparkXxHash64(item, h);
      return h;
    }
  }
  return seed;
}

Result<HyperLogLogPlusPlus> HyperLogLogPlusPlus::make(double relativeSD) {
  HyperLogLogPlusPlus h;
  double bits = std::ceil(2.0 * std::log(1.106 / relativeSD) / std::log(2.0));
  if (!(bits >= 4)) {
    return Status::InvalidArgument(
        "requirement failed: HLL++ requires at least 4 bits for addressing. Use a lower error, at most 39%.");
  }
  if (bits > 30) {
    return Status::InvalidArgument(fmt::format(
        "approx_count_distinct: relativeSD {} needs {} bits of registers; streamsim allows at most 30",
        relativeSD, bits));
  }
  h.p_ = static_cast<int>(bits);
  h.m_ = int64_t{1} << h.p_;
  double m = static_cast<double>(h.m_);
  switch (h.p_) {
    case 4: h.alphaM2_ = 0.673 * m * m; break;
    case 5: h.alphaM2_ = 0.697 * m * m; break;
    case 6: h.alphaM2_ = 0.709 * m * m; break;
    default: h.alphaM2_ = (0.7213 / (1.0 + 1.079 / m)) * m * m; break;
  }
  return h;
}

void HyperLogLogPlusPlus::update(std::vector<int64_t>& words, const Value& v) const {
  const uint64_t x = sparkXxHash64(v, 42);
  const int64_t idx = static_cast<int64_t>(x >> (64 - p_));
  const uint64_t w = (x << p_) | (uint64_t{1} << (p_ - 1));
  const uint64_t pw = static_cast<uint64_t>(std::countl_zero(w)) + 1;
  const int64_t wordOffset = idx / kRegistersPerWord;
  uint64_t word = static_cast<uint64_t>(words[static_cast<size_t>(wordOffset)]);
  const int shift = kRegisterSize * static_cast<int>(idx - wordOffset * kRegistersPerWord);
  const uint64_t mask = uint64_t{(1u << kRegisterSize) - 1} << shift;
  if (pw > ((word & mask) >> shift)) {
    words[static_cast<size_t>(wordOffset)] = static_cast<int64_t>((word & ~mask) | (pw << shift));
  }
}

void HyperLogLogPlusPlus::merge(std::vector<int64_t>& into, const std::vector<int64_t>& other) const {
  int64_t idx = 0;
  for (size_t w = 0; w < numWords(); ++w) {
    uint64_t a = static_cast<uint64_t>(into[w]), b = static_cast<uint64_t>(other[w]), word = 0;
    uint64_t mask = (1u << kRegisterSize) - 1;
    for (int i = 0; idx < m_ && i < kRegistersPerWord; ++i, ++idx) {
      word |= std::max(a & mask, b & mask);
      mask <<= kRegisterSize;
    }
    into[w] = static_cast<int64_t>(word);
  }
}

double HyperLogLogPlusPlus::estimateBias(double e) const {
  constexpr int64_t kK = 6;
  std::span<const double> estimates = hll_data::kRawEstimates[p_ - 4];
  const int64_t n = static_cast<int64_t>(estimates.size());
  int64_t nearest = javaBinarySearch(estimates, e);
  if (nearest < 0) nearest = -(nearest + 1);
  auto distance = [&](int64_t i) {
    double diff = e - estimates[static_cast<size_t>(i)];
    return diff * diff;
  };
  int64_t low = std::max<int64_t>(nearest - kK + 1, 0);
  int64_t high = std::min(low + kK, n);
  while (high < n && distance(high) < distance(low)) {
    ++low;
    ++high;
  }
  std::span<const double> biases = hll_data::kBiases[p_ - 4];
  double sum = 0.0;
  for (int64_t i = low; i < high; ++i) sum += biases[static_cast<size_t>(i)];
  return sum / static_cast<double>(high - low);
}

int64_t HyperLogLogPlusPlus::query(const std::vector<int64_t>& words) const {
  double zInverse = 0.0;
  double zeros = 0.0;
  int64_t idx = 0;
  for (size_t w = 0; w < numWords(); ++w) {
    uint64_t word = static_cast<uint64_t>(words[w]);
    int shift = 0;
    for (int i = 0; idx < m_ && i < kRegistersPerWord; ++i, ++idx, shift += kRegisterSize) {
      uint64_t reg = (word >> shift) & ((1u << kRegisterSize) - 1);
      zInverse += 1.0 / static_cast<double>(int64_t{1} << reg);
      if (reg == 0) zeros += 1.0;
    }
  }
  const double m = static_cast<double>(m_);
  const double e = alphaM2_ / zInverse;
  auto biasCorrected = [&] { return p_ < 19 && e < 5.0 * m ? e - estimateBias(e) : e; };
  double estimate;
  if (zeros > 0) {
    double h = m * std::log(m / zeros);
    estimate = (p_ < 19 && h <= hll_data::kThresholds[p_ - 4]) || e <= 2.5 * m ? h : biasCorrected();
  } else {
    estimate = biasCorrected();
  }
  return javaRound(estimate);
}

}  // namespace streamsim::ops
