// Random scenarios (issue 40 §1, run/random_scenario.h): scenario files with random steps —
// armed crashes, crashes between batches, stops, restarts, downtime by hand — over the built-in
// correct processors on both state stores, swept under generated fault plans. Every seed must
// pass: a failure is a false alarm (docs/faults.md "A plan's faults and the scenario's own steps").
//
// The property runs RC's default 100 scenarios x 2 seeds here. The long run (docs/testing.md):
//   STREAMSIM_RANDOM_SCENARIO_SEEDS=10 RC_PARAMS="max_success=10000" \
//     build/tests/harness_tests --gtest_filter='RandomScenarios.ACorrect*'
// prints "random scenarios: S scenarios, N scenario-seeds, 0 failed". A failing scenario's YAML is
// saved to the temp folder under the name its replay line gives.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "streamsim/harness/run/random_scenario.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario_runner.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

int seedsPerScenario() {
  const char* v = std::getenv("STREAMSIM_RANDOM_SCENARIO_SEEDS");
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : 2;
}

// STREAMSIM_RANDOM_SCENARIO_PLAN_DOWNTIME=0: no `downtime:` knob (the plans' crashes restart at
// once; docs/faults.md "False alarms the random scenarios found").
RandomScenarioOptions optionsFromEnv() {
  RandomScenarioOptions o;
  const char* v = std::getenv("STREAMSIM_RANDOM_SCENARIO_PLAN_DOWNTIME");
  o.planDowntime = v == nullptr || std::string(v) != "0";
  o.registries = ::streamsim::test::testRegistries();
  return o;
}

TEST(RandomScenarios, AreScenarioFilesThatLoadAndUseEveryStep) {
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    const std::string yaml = randomScenarioYaml(seed);
    ASSERT_EQ(yaml, randomScenarioYaml(seed)) << "not a function of the seed";
    auto sc = randomScenario(seed, "", {.registries = ::streamsim::test::testRegistries()});
    ASSERT_TRUE(sc.ok()) << sc.status().toString();
    EXPECT_EQ(sc->file, fmt::format("random-scenario-{}.yaml", seed));
    for (const char* what : {"processor: count,", "processor: async_count,", "processor: session_tracker,",
                             "processor: heartbeat,", "processor: ttl_cache,", "processor: list_ttl,",
                             "stateStore: rocksdb", "stateStore: memory", "kind: files, path: /landing",
                             "sink: {kind: files", "crash: {at:", "crash: now", "stop: {}", "restart: {}",
                             "restart: {after:", "advance:", "torn_writes: true", "task_failures:",
                             "downtime: 0..", "switches:", "batch_split", "{reference: count}",
                             "{timer_bound: 1}"})
      if (yaml.find(what) != std::string::npos) seen.insert(what);
  }
  EXPECT_EQ(seen.size(), 23u) << fmt::format("seen only: {}", fmt::join(seen, " | "));
}

// The property: a random scenario over a correct processor whose plain run passes passes every seed
// of its sweep. Each case is a new scenario (RapidCheck draws its seed; no shrinking of the seed:
// the sweep shrinks the failing seed's plan).
TEST(RandomScenarios, ACorrectProcessorPassesEverySeed) {
  const int seeds = seedsPerScenario();
  const RandomScenarioOptions options = optionsFromEnv();
  int64_t scenarios = 0, discarded = 0;
  const bool ok = rc::check("random scenarios over correct processors pass every seed", [&] {
    const uint64_t seed = *rc::gen::noShrink(rc::gen::inRange<uint64_t>(0, UINT64_MAX));
    const std::string saved =
        (std::filesystem::temp_directory_path() / fmt::format("streamsim-random-scenario-{}.yaml", seed)).string();
    auto failure = checkRandomScenario(seed, seeds, saved, options);
    // A scenario whose plain run fails (an armed crash its next `run: 1` does not reach because
    // that run re-runs a logged batch, a step on a query a crash left down) is not a user's
    // passing scenario: the property is about what plan faults add to a pass.
    if (failure && !failure->sweepSeed) {
      ++discarded;
      RC_DISCARD("the plain run fails");
    }
    ++scenarios;
    if (failure) {
      std::ofstream(saved) << failure->yaml;
      RC_FAIL(failure->toString());
    }
  });
  EXPECT_TRUE(ok);
  std::printf("random scenarios: %lld scenarios, %lld scenario-seeds, %s (%lld more discarded: their plain run fails)\n",
              static_cast<long long>(scenarios), static_cast<long long>(scenarios * seeds), ok ? "0 failed" : "FAILED",
              static_cast<long long>(discarded));
}

// False alarms the property found, each replayed exactly as its failure printed it.
ScenarioRunResult replayFound(const std::string& file, uint64_t seed, const char* plan) {
  auto sc = loadScenario(std::string(test_paths::sourceDir()) + "/tests/harness/random_scenarios/" + file, ::streamsim::test::testLoader());
  EXPECT_TRUE(sc.ok()) << sc.status().toString();
  auto p = sim::FaultPlan::fromJson(plan);
  EXPECT_TRUE(p.ok()) << p.status().toString();
  return runScenarioSeed(*sc, seed, *p);
}

// The reference repeats a plan crash's downtime as a crash at the pass where the step's armed crash
// fires: the merged crash, left down, keeps that downtime (run/driver.h leftDown).
TEST(RandomScenarioFalseAlarms, APlanCrashsDowntimeMergedIntoAnArmedCrashIsKept) {
  auto r = replayFound("plan_downtime_meets_armed_crash.yaml", 4,
                       R"({"seed":4,"faults":[{"type":"crash","point":"source.after_log_write","batch":1,"downtime":6650}]})");
  EXPECT_TRUE(r.passed()) << r.report();
}

// The reference repeats a plan crash's downtime after the re-run batch commits; a step's armed
// crash in that re-run and a step's `advance` before its commit let the reference commit it 10 s
// later than the run crashed, so the reference's downtime is a duration (sim::DowntimeFault), not
// "until the run's restart time" (which left the reference's clock 10 s behind: a heartbeat's
// last_seen differed, an exactly_once false alarm).
TEST(RandomScenarioFalseAlarms, PlanDowntimeThenAStepCrashInTheRerunIsTheSameDurationInTheReference) {
  auto r = replayFound("plan_downtime_then_step_crash_in_rerun.yaml", 14,
                       R"({"seed":14,"faults":[{"type":"crash","point":"state.after_commit","batch":0,"partition":0,"downtime":28397},)"
                       R"({"type":"crash","point":"state.before_commit","batch":1,"partition":0,"downtime":28397}]})");
  EXPECT_TRUE(r.passed()) << r.report();
}

}  // namespace
}  // namespace streamsim::harness
