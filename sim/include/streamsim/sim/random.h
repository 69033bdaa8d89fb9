// A small deterministic, splittable random source for simulation (DESIGN.md §2). Every random
// choice of a run comes from named streams split from the run seed, so one extra draw in one
// stream never shifts another. xoshiro256** seeded through SplitMix64; all distributions are
// our own (std:: distributions differ between standard libraries). Never std::random_device.
// A Random is a plain value: copy it to fork a stream; not thread-safe (one per thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace streamsim::sim {

class Random {
 public:
  explicit Random(uint64_t seed);

  // A stream that depends only on this stream's identity (its seed and the names it was split
  // with) and `streamName` — not on how many values were drawn from this stream. Splitting
  // with the same name twice gives the same stream. Nested splits ("faults" then "torn") work.
  Random split(std::string_view streamName) const;

  // The seed this stream was built from (for reports and replay).
  uint64_t seed() const { return seed_; }

  // 64 uniformly random bits.
  uint64_t next();
  // Uniform integer in [lo, hi] (both inclusive), unbiased. REQUIRES: lo <= hi.
  int64_t uniformInt(int64_t lo, int64_t hi);
  // Uniform index in [0, n). REQUIRES: n > 0.
  size_t index(size_t n);
  // Uniform double in [0, 1) with 53 random bits.
  double uniformDouble();
  // True with probability p (p <= 0: never, p >= 1: always; draws one value either way).
  bool bernoulli(double p);

  // A uniformly chosen element. REQUIRES: !v.empty().
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[index(v.size())];
  }
  // Fisher–Yates shuffle in place.
  template <typename T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) {
      size_t j = index(i);
      std::swap(v[i - 1], v[j]);
    }
  }

  // UniformRandomBitGenerator, for algorithms that need one (not for std:: distributions).
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~uint64_t{0}; }
  result_type operator()() { return next(); }

 private:
  uint64_t seed_;
  uint64_t s_[4];
};

// SplitMix64 finaliser: a good 64-bit mixing function (also used to derive seeds).
uint64_t mix64(uint64_t x);
// FNV-1a 64 over bytes (stable across platforms and runs).
uint64_t fnv1a64(std::string_view bytes, uint64_t basis = 0xcbf29ce484222325ULL);

}  // namespace streamsim::sim
