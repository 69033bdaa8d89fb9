// approx_count_distinct's HyperLogLog++ (streamsim/ops/hyperloglog.h) against Spark's own tests:
// XXH64Suite.java (the hash's known values), HyperLogLogPlusPlusSuite.scala (precision from the
// rsd, nulls, estimates within 3 standard errors, merging = one buffer, SPARK-32110 -0.0 / NaN),
// and HyperLogLogPlusPlus.scala's documented example.
#include "streamsim/ops/hyperloglog.h"

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace streamsim::ops {
namespace {

// XXH64Suite's buffer: 101 bytes of (seed >> 24) with seed = 2654435761, squared each step.
std::string xxh64SuiteBuffer() {
  std::string out(101, '\0');
  uint64_t seed = 2654435761ull;
  for (char& c : out) {
    c = static_cast<char>(static_cast<int64_t>(seed) >> 24);
    seed *= seed;
  }
  return out;
}

TEST(XxHash64, KnownValuesOfSparksXXH64Suite) {
  const uint64_t kPrime = 2654435761ull;
  const std::string buf = xxh64SuiteBuffer();
  EXPECT_EQ(xxhash64Int(0x4B1FFF9E, 0), 0x9256E58AA397AEF1ull);
  EXPECT_EQ(xxhash64Int(0x4B1FFF9E, kPrime), 0x09D5FFDFB928AB4Bull);
  EXPECT_EQ(xxhash64Long(static_cast<int64_t>(0xDD2F535E4B1FFF9Eull), 0), 0xF74CB1451B32B8CFull);
  EXPECT_EQ(xxhash64Long(static_cast<int64_t>(0xDD2F535E4B1FFF9Eull), kPrime), 0x9C44B77FBCC302C5ull);
  const std::pair<size_t, std::pair<uint64_t, uint64_t>> bytes[] = {
      {0, {0xEF46DB3751D8E999ull, 0xAC75FDA2929B17EFull}},  {1, {0x4FCE394CC88952D8ull, 0x739840CB819FA723ull}},
      {4, {0x9256E58AA397AEF1ull, 0x09D5FFDFB928AB4Bull}},  {8, {0xF74CB1451B32B8CFull, 0x9C44B77FBCC302C5ull}},
      {14, {0xCFFA8DB881BC3A3Dull, 0x5B9611585EFCC9CBull}}, {101, {0x0EAB543384F878ADull, 0xCAA65939306F1E21ull}}};
  for (const auto& [len, want] : bytes) {
    SCOPED_TRACE(len);
    EXPECT_EQ(xxhash64Bytes(std::string_view(buf).substr(0, len), 0), want.first);
    EXPECT_EQ(xxhash64Bytes(std::string_view(buf).substr(0, len), kPrime), want.second);
  }
}

// hash.scala: nested values fold their items with the running hash as the seed; nulls are
// skipped; a timestamp is hashed as Spark's microseconds; -0.0 as 0.0.
TEST(XxHash64, SparksValueHashingRules) {
  EXPECT_EQ(sparkXxHash64(Value(), 42), 42u);
  EXPECT_EQ(sparkXxHash64(Value(int32_t{7}), 42), xxhash64Int(7, 42));
  EXPECT_EQ(sparkXxHash64(Value(int64_t{7}), 42), xxhash64Long(7, 42));
  EXPECT_EQ(sparkXxHash64(Value(true), 42), xxhash64Int(1, 42));
  EXPECT_EQ(sparkXxHash64(Value::timestamp(1500), 42), xxhash64Long(1500000, 42));
  EXPECT_EQ(sparkXxHash64(Value(-0.0), 42), sparkXxHash64(Value(0.0), 42));
  EXPECT_EQ(sparkXxHash64(Value("abc"), 42), xxhash64Bytes("abc", 42));
  Value arr = Value::arrayOf({Value(int32_t{1}), Value(), Value(int32_t{2})});
  EXPECT_EQ(sparkXxHash64(arr, 42), xxhash64Int(2, xxhash64Int(1, 42)));
}

struct Sketch {
  HyperLogLogPlusPlus h;
  std::vector<int64_t> words;
  explicit Sketch(double rsd) : h(*HyperLogLogPlusPlus::make(rsd)), words(h.numWords(), 0) {}
  void add(const Value& v) { h.update(words, v); }
  int64_t estimate() const { return h.query(words); }
};

TEST(HyperLogLogPlusPlus, PrecisionFromTheRelativeSdAndItsLimit) {
  EXPECT_EQ(HyperLogLogPlusPlus::make(0.05)->precision(), 9);   // ceil(2 log2(1.106 / 0.05))
  EXPECT_EQ(HyperLogLogPlusPlus::make(0.05)->numWords(), 52u);  // 512 / 10 + 1
  EXPECT_EQ(HyperLogLogPlusPlus::make(0.01)->precision(), 14);
  EXPECT_EQ(HyperLogLogPlusPlus::make(0.39)->precision(), 4);
  auto tooCoarse = HyperLogLogPlusPlus::make(0.4);  // "test invalid parameter relativeSD"
  ASSERT_FALSE(tooCoarse.ok());
  EXPECT_NE(tooCoarse.status().message().find("at least 4 bits"), std::string::npos);
}

// The documented example: approx_count_distinct over 1, 1, 2, 2, 3 is 3; nothing added is 0.
TEST(HyperLogLogPlusPlus, DocumentedExampleAndEmpty) {
  Sketch s(0.05);
  EXPECT_EQ(s.estimate(), 0);
  for (int v : {1, 1, 2, 2, 3}) s.add(Value(int32_t{v}));
  EXPECT_EQ(s.estimate(), 3);
  Sketch zeros(0.05);  // SPARK-32110: 0.0 and -0.0 are one value; NaNs one value
  zeros.add(Value(0.0));
  zeros.add(Value(-0.0));
  zeros.add(Value(std::numeric_limits<double>::quiet_NaN()));
  zeros.add(Value(-std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(zeros.estimate(), 2);
}

// "deterministic cardinality estimation": within 3 standard errors (1.04 / sqrt(m)) for each rsd
// and cardinality -- through linear counting, the bias-corrected range and the raw estimate.
TEST(HyperLogLogPlusPlus, EstimatesWithinThreeStandardErrors) {
  for (double rsd : {0.1, 0.05, 0.025, 0.01}) {
    for (int n : {100, 500, 1000, 5000, 10000, 50000}) {
      SCOPED_TRACE(std::to_string(rsd) + " n=" + std::to_string(n));
      Sketch s(rsd);
      for (int i = 0; i < n * 3; ++i) s.add(Value(int32_t{i / 3}));
      double trueRsd = 1.04 / std::sqrt(static_cast<double>(int64_t{1} << s.h.precision()));
      double error = std::abs(static_cast<double>(s.estimate()) / n - 1.0);
      EXPECT_LT(error, 3 * trueRsd) << s.estimate();
    }
  }
}

// "merging HLL instances": two halves merged give the buffer of all values added in reverse.
TEST(HyperLogLogPlusPlus, MergedHalvesEqualOneBuffer) {
  Sketch lo(0.05), hi(0.05), all(0.05);
  for (int i = 0; i < 50000; ++i) lo.add(Value(int32_t{i}));
  for (int i = 50000; i < 100000; ++i) hi.add(Value(int32_t{i}));
  for (int i = 99999; i >= 0; --i) all.add(Value(int32_t{i}));
  lo.h.merge(lo.words, hi.words);
  EXPECT_EQ(lo.words, all.words);
  EXPECT_EQ(lo.estimate(), all.estimate());
}

}  // namespace
}  // namespace streamsim::ops
