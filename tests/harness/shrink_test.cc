// The one shrinker (run/shrink.h): a failing case shrinks to the smallest one whose re-run keeps
// the failure's kind; a re-run failing another way does not count. Both sweeps (scenario sweeps
// and the pytest job sweep, python/native/job_sweep.cc) go through this one call with their own
// re-run; the kind rule is the shrinker's, not each caller's.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "streamsim/harness/run/shrink.h"

namespace streamsim::harness {
namespace {

sim::FaultPlan planOf(std::initializer_list<int64_t> batches) {
  sim::FaultPlan plan;
  for (int64_t b : batches) plan.faults.push_back(sim::CrashFault{"offsets.after_write", b, -1, 1, 0});
  return plan;
}

bool hasCrashAt(const ShrinkCase& c, int64_t batch) {
  return std::any_of(c.plan.faults.begin(), c.plan.faults.end(), [batch](const sim::Fault& f) {
    const auto* crash = std::get_if<sim::CrashFault>(&f);
    return crash != nullptr && crash->batch == batch;
  });
}

FailureKind kindOf(const std::string& key) {
  FailureKind k;
  k.keys.insert(key);
  return k;
}

TEST(Shrink, AFailureShrinksToTheFaultItNeedsKeepingItsKind) {
  // Fails ("oracle exactly_once") whenever the crash at batch 3 is in the plan.
  int runs = 0;
  ShrinkResult r = shrinkFailure(
      ShrinkCase{planOf({1, 3, 5}), std::nullopt}, kindOf("oracle exactly_once"),
      [&runs](const ShrinkCase& c) {
        ++runs;
        return hasCrashAt(c, 3) ? kindOf("oracle exactly_once") : FailureKind{};
      },
      100);
  ASSERT_EQ(r.minimal.plan.faults.size(), 1u);
  EXPECT_TRUE(hasCrashAt(r.minimal, 3));
  EXPECT_EQ(r.runs, runs);
}

TEST(Shrink, ARerunFailingAnotherWayIsNotTheSameFailure) {
  // Without the crash at batch 5 the case still fails, but another way (an error): the shrinker
  // keeps the crash at batch 5, which the original failure's kind needs.
  ShrinkResult r = shrinkFailure(
      ShrinkCase{planOf({1, 5}), std::nullopt}, kindOf("expect a.yaml:12"),
      [](const ShrinkCase& c) { return hasCrashAt(c, 5) ? kindOf("expect a.yaml:12") : kindOf("error"); }, 100);
  ASSERT_EQ(r.minimal.plan.faults.size(), 1u);
  EXPECT_TRUE(hasCrashAt(r.minimal, 5));
}

TEST(Shrink, TheRerunLimitStopsTheSearch) {
  // No smaller case fails: without the limit every candidate would be re-run.
  ShrinkResult r = shrinkFailure(ShrinkCase{planOf({1, 2, 3, 4}), std::nullopt}, kindOf("error"),
                                 [](const ShrinkCase&) { return FailureKind{}; }, 2);
  EXPECT_EQ(r.runs, 2);
  EXPECT_EQ(r.minimal.plan.faults.size(), 4u);
}

}  // namespace
}  // namespace streamsim::harness
