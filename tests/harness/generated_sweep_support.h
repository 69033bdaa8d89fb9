// Sweeps of generated workloads in tests, through the one scenario sweep (harness::sweepGenerated):
// a sweep, the first failing seed of a range (swept a seed at a time, so that the seeds after it
// are not run), one seed's run, and whether a seed or a run violated an oracle.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "streamsim/harness/run/generated_scenario.h"
#include "test_registries.h"

namespace streamsim::harness::testing {

// The sweep of `seeds` seeds of `config` (from `firstSeed`); a failed sweep call fails the test.
inline SweepResult sweepOf(const WorkloadConfig& config, int seeds, const RunOptions& run = {}, bool shrink = false,
                           int jobs = 1, uint64_t firstSeed = 0) {
  ScenarioSweepOptions o;
  o.seeds = seeds;
  o.firstSeed = firstSeed;
  o.jobs = jobs;
  o.shrink = shrink;
  auto r = sweepGenerated(config, o, run);
  EXPECT_TRUE(r.ok()) << r.status().toString();
  return r.ok() ? std::move(*r) : SweepResult{};
}

// The sweep of the first failing seed among seeds 0..maxSeeds-1 (shrunk with at most
// `shrinkMaxRuns` runs when `shrink`); nullopt when none fails.
inline std::optional<SweepResult> firstFailingSeed(const WorkloadConfig& config, int maxSeeds,
                                                   const RunOptions& run = {}, bool shrink = true,
                                                   int shrinkMaxRuns = 200) {
  for (int s = 0; s < maxSeeds; ++s) {
    ScenarioSweepOptions o;
    o.seeds = 1;
    o.firstSeed = static_cast<uint64_t>(s);
    o.shrink = shrink;
    o.shrinkMaxRuns = shrinkMaxRuns;
    auto r = sweepGenerated(config, o, run);
    if (!r.ok()) {
      ADD_FAILURE() << r.status().toString();
      return std::nullopt;
    }
    if (r->report.totals.failed > 0) return std::move(*r);
  }
  return std::nullopt;
}

// One seed of `config` as its sweep runs it (runGeneratedSeed: the seed's plan, oracles applied).
inline ScenarioRunResult seedRun(const WorkloadConfig& config, uint64_t seed, const RunOptions& run = {}) {
  auto r = runGeneratedSeed(config, seed, run);
  EXPECT_TRUE(r.ok()) << r.status().toString();
  if (!r.ok()) {
    ScenarioRunResult bad;
    bad.setupError = r.status();
    return bad;
  }
  return std::move(r->result);
}

inline bool violated(const ScenarioSeedOutcome& seed, const std::string& oracle) {
  return seed.kind.keys.count("oracle " + oracle) > 0;
}

inline bool violated(const std::vector<Violation>& violations, const std::string& oracle) {
  for (const auto& v : violations)
    if (v.oracle == oracle) return true;
  return false;
}

}  // namespace streamsim::harness::testing
