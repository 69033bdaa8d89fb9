#include "streamsim/sim/random.h"

namespace streamsim::sim {
namespace {
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t fnv1a64(std::string_view bytes, uint64_t basis) {
  uint64_t h = basis;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

Random::Random(uint64_t seed) : seed_(seed) {
  uint64_t x = seed;
  for (uint64_t& s : s_) {
    x += 0x9e3779b97f4a7c15ULL;
    s = mix64(x);
  }
  // xoshiro must not start from all zeros; SplitMix64 outputs never are all zero in practice,
  // but make it impossible.
  if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;
}

Random Random::split(std::string_view streamName) const {
  // Depends on the seed only (never on the current position): fnv(name) keyed by the seed.
  uint64_t h = fnv1a64(streamName, 0xcbf29ce484222325ULL ^ mix64(seed_ + 0x632be59bd9b4e019ULL));
  return Random(mix64(h ^ rotl(seed_, 17)));
}

uint64_t Random::next() {
  uint64_t result = rotl(s_[1] * 5, 7) * 9;
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

int64_t Random::uniformInt(int64_t lo, int64_t hi) {
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  if (span == ~uint64_t{0}) return static_cast<int64_t>(next());
  uint64_t n = span + 1;
  // Rejection sampling: accept only draws below the largest multiple of n.
  uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % n);
  uint64_t r;
  do {
    r = next();
  } while (r >= limit);
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + r % n);
}

size_t Random::index(size_t n) { return static_cast<size_t>(uniformInt(0, static_cast<int64_t>(n) - 1)); }

double Random::uniformDouble() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

bool Random::bernoulli(double p) {
  double u = uniformDouble();
  if (p <= 0) return false;
  if (p >= 1) return true;
  return u < p;
}

}  // namespace streamsim::sim
