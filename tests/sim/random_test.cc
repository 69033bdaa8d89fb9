// Random: reproducible, splittable, streams independent of each other's draws.
#include "streamsim/sim/random.h"

#include <algorithm>
#include <numeric>
#include <set>

#include <gtest/gtest.h>

namespace streamsim::sim {
namespace {

std::vector<uint64_t> draws(Random r, int n) {
  std::vector<uint64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(r.next());
  return out;
}

TEST(RandomTest, SameSeedSameSequence) {
  EXPECT_EQ(draws(Random(42), 100), draws(Random(42), 100));
  EXPECT_NE(draws(Random(42), 10), draws(Random(43), 10));
}

TEST(RandomTest, KnownValuesStayStable) {
  // Pins the generator (xoshiro256** seeded by SplitMix64) and the split derivation: changing
  // either silently would change the run of every recorded seed.
  Random r(0);
  EXPECT_EQ(r.next(), 0x99ec5f36cb75f2b4ULL);
  EXPECT_EQ(r.next(), 0xbf6e1f784956452aULL);
  EXPECT_EQ(Random(0).split("faults").next(), 0xdd887aae636ce2b6ULL);
  EXPECT_EQ(mix64(0x9e3779b97f4a7c15ULL), 0xe220a8397b1dcdafULL);  // SplitMix64's first output
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
}

TEST(RandomTest, ExtraDrawOnOneStreamDoesNotShiftAnother) {
  Random root(7);
  Random workload = root.split("workload");
  Random faults = root.split("faults");
  std::vector<uint64_t> expected = draws(faults, 20);

  Random root2(7);
  Random workload2 = root2.split("workload");
  workload2.next();  // one extra draw on the workload stream
  (void)root2.next();  // and on the root itself
  Random faults2 = root2.split("faults");
  EXPECT_EQ(draws(faults2, 20), expected);
  EXPECT_NE(draws(workload, 5), draws(workload2, 5));
}

TEST(RandomTest, SplitDependsOnNameAndSeedOnly) {
  Random root(99);
  Random a = root.split("names");
  for (int i = 0; i < 10; ++i) root.next();
  EXPECT_EQ(draws(root.split("names"), 10), draws(a, 10));
  EXPECT_NE(draws(root.split("names"), 10), draws(root.split("scheduling"), 10));
  EXPECT_NE(draws(Random(1).split("x"), 10), draws(Random(2).split("x"), 10));
  // Nested splits are distinct from their parent and from a flat name.
  EXPECT_NE(draws(root.split("a").split("b"), 5), draws(root.split("a"), 5));
  EXPECT_NE(draws(root.split("a").split("b"), 5), draws(root.split("b"), 5));
}

TEST(RandomTest, UniformIntStaysInRangeAndCoversIt) {
  Random r(5);
  std::set<int64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    int64_t v = r.uniformInt(-3, 3);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_EQ(r.uniformInt(4, 4), 4);
  // Full range does not hang or crash.
  (void)r.uniformInt(INT64_MIN, INT64_MAX);
}

TEST(RandomTest, BernoulliAndDoubleBehave) {
  Random r(11);
  int hits = 0;
  for (int i = 0; i < 10000; ++i) hits += r.bernoulli(0.3) ? 1 : 0;
  EXPECT_GT(hits, 2700);
  EXPECT_LT(hits, 3300);
  for (int i = 0; i < 100; ++i) {
    EXPECT_FALSE(r.bernoulli(0));
    EXPECT_TRUE(r.bernoulli(1));
    double d = r.uniformDouble();
    EXPECT_GE(d, 0.0);
    EXPECT_LT(d, 1.0);
  }
}

TEST(RandomTest, ShuffleIsAPermutationAndReproducible) {
  std::vector<int> v(50);
  std::iota(v.begin(), v.end(), 0);
  std::vector<int> a = v, b = v;
  Random r1(3), r2(3);
  r1.shuffle(a);
  r2.shuffle(b);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, v);
  std::sort(a.begin(), a.end());
  EXPECT_EQ(a, v);
  Random r3(3);
  std::vector<std::string> names = {"x", "y", "z"};
  std::set<std::string> picked;
  for (int i = 0; i < 100; ++i) picked.insert(r3.pick(names));
  EXPECT_EQ(picked.size(), 3u);
}

}  // namespace
}  // namespace streamsim::sim
