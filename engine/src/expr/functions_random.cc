// Random values and ids (catalyst/expressions/randomExpressions.scala, misc.scala Uuid,
// util/RandomUUIDGenerator.scala), reproducible from the simulation as Spark's are from a seed:
//   rand([seed]) / random([seed])  XORShiftRandom(seed + partitionIndex).nextDouble() per row
//   randn([seed])                  the same generator's nextGaussian() (java.util.Random's
//                                  polar method)
//   uuid()                         RandomUUIDGenerator(seed + partitionIndex): two nextLong()s of
//                                  commons-math3's MersenneTwister, version 4 / variant bits set
// The generator starts afresh for every batch (Spark initialises a Nondeterministic expression
// per partition of every batch's job), so rand(42) gives the same values in every batch and on a
// re-run. Without a seed Spark's analyzer (ResolveRandomSeed) draws one when the query is
// analysed, so unseeded rand() and uuid() change when the query restarts -- a batch re-run after
// a crash gets other values. streamsim takes that seed from the run (EvalContext::runSeed: the
// query run's id, itself drawn from the simulation's seeded ids) and the call's position.
// streamsim evaluates a batch's stateless stage as one partition: partitionIndex is 0.
// monotonically_increasing_id() is refused as UnsupportedOperationChecker refuses it in streaming.
#include <cmath>

#include <fmt/format.h>

#include "expr/bound.h"

namespace streamsim::expr {
namespace {

uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// scala.util.hashing.MurmurHash3.bytesHash (whole 4-byte blocks only: the seed bytes are 8).
uint32_t murmurBytes8(const uint8_t* data, uint32_t seed) {
  uint32_t h = seed;
  for (int i = 0; i < 8; i += 4) {
    uint32_t k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (static_cast<uint32_t>(data[i + 3]) << 24);
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    k *= 0x1b873593u;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  h ^= 8u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// org.apache.spark.util.random.XORShiftRandom over java.util.Random's nextDouble / nextGaussian.
class XorShiftRandom {
 public:
  explicit XorShiftRandom(int64_t init) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(init) >> (56 - 8 * i));  // big endian
    uint32_t low = murmurBytes8(bytes, 0x3c074a61u);
    uint32_t high = murmurBytes8(bytes, low);
    seed_ = (static_cast<uint64_t>(high) << 32) | low;
  }
  int32_t next(int bits) {
    uint64_t s = seed_ ^ (seed_ << 21);
    s ^= s >> 35;
    s ^= s << 4;
    seed_ = s;
    return static_cast<int32_t>(s & ((uint64_t{1} << bits) - 1));
  }
  double nextDouble() {
    int64_t hi = static_cast<int64_t>(next(26)) << 27;
    return static_cast<double>(hi + next(27)) * 0x1.0p-53;
  }
  double nextGaussian() {
    if (have_next_) {
      have_next_ = false;
      return next_gaussian_;
    }
    double v1, v2, s;
    do {
      v1 = 2 * nextDouble() - 1;
      v2 = 2 * nextDouble() - 1;
      s = v1 * v1 + v2 * v2;
    } while (s >= 1 || s == 0);
    double multiplier = std::sqrt(-2 * std::log(s) / s);
    next_gaussian_ = v2 * multiplier;
    have_next_ = true;
    return v1 * multiplier;
  }

 private:
  uint64_t seed_ = 0;
  bool have_next_ = false;
  double next_gaussian_ = 0;
};

// org.apache.commons.math3.random.MersenneTwister(long seed): MT19937 seeded by init_by_array
// with {high 32 bits, low 32 bits}; nextLong() = next(32) << 32 | next(32).
class MersenneTwister {
 public:
  explicit MersenneTwister(int64_t seed) {
    uint32_t key[2] = {static_cast<uint32_t>(static_cast<uint64_t>(seed) >> 32), static_cast<uint32_t>(seed)};
    initGenrand(19650218u);
    int i = 1, j = 0;
    for (int k = std::max(kN, 2); k != 0; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<uint32_t>(j);
      ++i;
      ++j;
      if (i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
      if (j >= 2) j = 0;
    }
    for (int k = kN - 1; k != 0; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
      ++i;
      if (i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
    }
    mt_[0] = 0x80000000u;
  }
  uint32_t next32() {
    if (mti_ >= kN) {
      static constexpr uint32_t kMag01[2] = {0u, 0x9908b0dfu};
      int k = 0;
      for (; k < kN - kM; ++k) {
        uint32_t y = (mt_[k] & 0x80000000u) | (mt_[k + 1] & 0x7fffffffu);
        mt_[k] = mt_[k + kM] ^ (y >> 1) ^ kMag01[y & 1u];
      }
      for (; k < kN - 1; ++k) {
        uint32_t y = (mt_[k] & 0x80000000u) | (mt_[k + 1] & 0x7fffffffu);
        mt_[k] = mt_[k + (kM - kN)] ^ (y >> 1) ^ kMag01[y & 1u];
      }
      uint32_t y = (mt_[kN - 1] & 0x80000000u) | (mt_[0] & 0x7fffffffu);
      mt_[kN - 1] = mt_[kM - 1] ^ (y >> 1) ^ kMag01[y & 1u];
      mti_ = 0;
    }
    uint32_t y = mt_[mti_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }
  int64_t nextLong() {
    uint64_t high = static_cast<uint64_t>(next32()) << 32;
    return static_cast<int64_t>(high | next32());
  }

 private:
  static constexpr int kN = 624;
  static constexpr int kM = 397;
  void initGenrand(uint32_t s) {
    mt_[0] = s;
    for (mti_ = 1; mti_ < kN; ++mti_) mt_[mti_] = 1812433253u * (mt_[mti_ - 1] ^ (mt_[mti_ - 1] >> 30)) + static_cast<uint32_t>(mti_);
  }
  uint32_t mt_[kN];
  int mti_ = kN + 1;
};

std::string uuidText(int64_t most, int64_t least) {
  auto m = static_cast<uint64_t>(most);
  auto l = static_cast<uint64_t>(least);
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", m >> 32, (m >> 16) & 0xffff, m & 0xffff, l >> 48,
                     l & 0xffffffffffffull);
}

enum class RandomKind { kRand, kRandn, kUuid };

class RandomNode final : public Bound {
 public:
  RandomNode(RandomKind kind, std::optional<int64_t> seed, int64_t salt) : kind_(kind), seed_(seed), salt_(salt) {}
  Status eval(const Batch& b, std::vector<Value>& out) const override {
    out.resize(b.size());
    // ResolveRandomSeed's draw: the run's seed mixed with the call's position (two calls differ).
    int64_t seed = seed_ ? *seed_ : static_cast<int64_t>(static_cast<uint64_t>(b.ctx->runSeed) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(salt_));
    const int64_t partitionIndex = 0;
    if (kind_ == RandomKind::kUuid) {
      MersenneTwister mt(seed + partitionIndex);
      for (size_t r = 0; r < b.size(); ++r) {
        int64_t most = static_cast<int64_t>((static_cast<uint64_t>(mt.nextLong()) & 0xFFFFFFFFFFFF0FFFull) | 0x0000000000004000ull);
        int64_t least = static_cast<int64_t>((static_cast<uint64_t>(mt.nextLong()) | 0x8000000000000000ull) & 0xBFFFFFFFFFFFFFFFull);
        out[r] = Value(uuidText(most, least));
      }
      return Status::OK();
    }
    XorShiftRandom rng(seed + partitionIndex);
    for (size_t r = 0; r < b.size(); ++r) out[r] = Value(kind_ == RandomKind::kRand ? rng.nextDouble() : rng.nextGaussian());
    return Status::OK();
  }

 private:
  RandomKind kind_;
  std::optional<int64_t> seed_;
  int64_t salt_;
};

FunctionBuilder randomFunction(RandomKind kind, std::string name) {
  return [kind, name](FunctionCall& c) -> Result<BoundPtr> {
    STREAMSIM_RETURN_IF_ERROR(checkArgCount(c, 0, kind == RandomKind::kUuid ? 0 : 1));
    std::optional<int64_t> seed;
    std::string sql = name + "()";
    if (!c.args.empty()) {
      Type t = c.args[0]->type.type;
      if (t != Type::kInt && t != Type::kLong && t != Type::kNull) return unexpectedInputType(c, 0, "(\"INT\" or \"BIGINT\")");
      // Rand.seed: a foldable INT or BIGINT; NULL is 0.
      STREAMSIM_ASSIGN_OR_RETURN(Value v, constantArg(c, 0, "seed"));
      seed = v.isNull() ? 0 : v.asLong();
      sql = fmt::format("{}({})", name, c.args[0]->sql);
    }
    auto node = std::make_shared<RandomNode>(kind, seed, c.pos);
    node->type = kind == RandomKind::kUuid ? typeField(Type::kString, false) : typeField(Type::kDouble, false);
    node->sql = sql;
    node->autoName = sql;
    return BoundPtr(node);
  };
}

Result<BoundPtr> refuseMonotonicallyIncreasingId(FunctionCall&) {
  // UnsupportedOperationChecker.checkUnsupportedExpressions.
  return sparkError(Status::Code::kInvalidArgument, "_LEGACY_ERROR_TEMP_3102",
                    {{"msg", "Expression(s): monotonically_increasing_id() is not supported with streaming DataFrames/Datasets"}});
}

}  // namespace

void addRandomFunctions(FunctionTable& t) {
  t.emplace_back("rand", randomFunction(RandomKind::kRand, "rand"));
  t.emplace_back("random", randomFunction(RandomKind::kRand, "random"));
  t.emplace_back("randn", randomFunction(RandomKind::kRandn, "randn"));
  t.emplace_back("uuid", randomFunction(RandomKind::kUuid, "uuid"));
  t.emplace_back("monotonically_increasing_id", refuseMonotonicallyIncreasingId);
}

}  // namespace streamsim::expr
