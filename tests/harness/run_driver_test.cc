// The run core's driver (harness/run/driver.h): the supervisor recovers a plan's crash wherever it
// fires (also during the first start or a restart's recovery), a scenario's own armed crash leaves
// the driver down even when a plan crash hits the same point, one restart limit per run, and an
// armed crash that never fires fails the scenario at its step.
#include "streamsim/harness/run/driver.h"

#include <gtest/gtest.h>

#include "harness/scenario_test_support.h"

#include "streamsim/fault_points.h"
#include "streamsim/harness/scenario_runner.h"

namespace streamsim::harness {
namespace {

ScenarioRunResult runWith(const Scenario& sc, std::vector<sim::Fault> faults, uint64_t seed = 1) {
  ScenarioRunOptions o;
  o.seed = seed;
  o.faultPlan = sim::FaultPlan{seed, std::move(faults)};
  return runScenario(sc, o);
}

// Bug: `streamsim sweep scenarios/crash/offsets_after_write_reruns_batch.yaml --seeds 300` failed
// at seed 234: its plan crashed at log.mid_write while FileSink::start wrote the sink's log in the
// first start, and the harness did not recover a crash during a start ("the query did not start").
TEST(RunDriver, PlanCrashDuringFirstStartIsRecovered) {
  Scenario sc = loadFile("scenarios/crash/offsets_after_write_reruns_batch.yaml");
  ScenarioRunResult r = runWith(sc, {sim::CrashFault{std::string(faults::kLogMidWrite), -1, -1, 1}});
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_GE(r.crashes, 2) << "the plan's crash in the start and the scenario's own";
  ASSERT_FALSE(r.faults.fired.empty());
  EXPECT_EQ(r.faults.fired.front().point, faults::kLogMidWrite);
  EXPECT_TRUE(r.faults.fired.front().planned);
}

// The same during a restart's recovery: the scenario's `restart` step starts again, and the plan
// crashes at the second log write pass (after the crash armed by the step left the driver down).
TEST(RunDriver, PlanCrashDuringARestartsRecoveryIsRecovered) {
  Scenario sc = loadFile("scenarios/crash/offsets_after_write_reruns_batch.yaml");
  int failed = 0;
  for (int64_t nth = 1; nth <= 6; ++nth) {
    ScenarioRunResult r = runWith(sc, {sim::CrashFault{std::string(faults::kLogMidWrite), -1, -1, nth}});
    if (!r.passed()) ++failed;
    EXPECT_TRUE(r.passed()) << "crash at log.mid_write pass " << nth << "\n" << r.report();
  }
  EXPECT_EQ(failed, 0);
}

// Bug: a plan crash at the point of a scenario's own *later* `crash: {at: P}` step was taken for
// the step's crash (the runner collected every step's point up front) and the driver was left down:
// a correct scenario failed 10 of 200 seeds.
constexpr const char* kLaterArmedCrash = R"(
name: the scenario's own crash in batch 1, a plan crash at the same point in batch 0
query:
  source: {kind: files, path: /landing, format: json,
           schema: "event_id string, device string, event_time timestamp"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: files, path: /out, format: json}
  outputMode: update
  checkpoint: /chk
steps:
  - put: {path: /landing/a.json, rows: [{event_id: e1, device: d1, event_time: "2026-01-01T00:00:00Z"}]}
  - run: {batches: 1}
  - put: {path: /landing/b.json, rows: [{event_id: e2, device: d1, event_time: "2026-01-01T00:00:01Z"}]}
  - crash: {at: offsets.after_write}
  - run: {batches: 1}
  - expect:
      checkpoint: {offsets: [0, 1], commits: [0]}
  - restart: {}
  - run: available
  - expect:
      sink: [{device: d1, count: 2}]
      checkpoint: {offsets: [0, 1], commits: [0, 1]}
)";

TEST(RunDriver, PlanCrashAtALaterStepsPointIsNotTheStepsCrash) {
  Scenario sc = load(kLaterArmedCrash);
  ASSERT_TRUE(runScenario(sc).passed()) << runScenario(sc).report();
  ScenarioRunResult r = runWith(sc, {sim::CrashFault{std::string(faults::kOffsetsAfterWrite), 0, -1, 1}});
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_EQ(r.crashes, 2);
}

// A plan crash at the very pass the step's crash fires on: one crash, the step's (driver down).
TEST(RunDriver, PlanCrashAtTheStepsOwnPassIsTheStepsCrash) {
  Scenario sc = load(kLaterArmedCrash);
  ScenarioRunResult r = runWith(sc, {sim::CrashFault{std::string(faults::kOffsetsAfterWrite), 1, -1, 1}});
  EXPECT_TRUE(r.passed()) << r.report();
  EXPECT_EQ(r.crashes, 1);
  ASSERT_EQ(r.faults.planFired.size(), 1u);
  EXPECT_EQ(r.faults.planFired[0], 1) << "the plan's crash coincided with the step's: it fired";
}

TEST(RunDriver, AnArmedCrashThatNeverFiresFailsTheScenarioAtItsStep) {
  // No cleanSource option: the query never passes source.mid_clean.
  std::string yaml = kLaterArmedCrash;
  yaml = yaml.substr(0, yaml.find("steps:")) + R"(steps:
  - put: {path: /landing/a.json, rows: [{event_id: e1, device: d1, event_time: "2026-01-01T00:00:00Z"}]}
  - crash: {at: source.mid_clean}
  - run: available
  - expect:
      sink: [{device: d1, count: 1}]
)";
  Scenario sc = load(yaml);
  ScenarioRunResult r = runScenario(sc);
  ASSERT_FALSE(r.passed());
  ASSERT_EQ(r.failures.size(), 1u) << r.report();
  EXPECT_EQ(r.failures[0].where.line, 14) << r.report();  // the crash step
  EXPECT_NE(r.report().find("the crash armed at source.mid_clean never fired"), std::string::npos) << r.report();
}

// Bug (issue 40, a false alarm): a plan crash before the point a scenario armed its own crash at
// (here offsets.before_write of the no-data batch that fires the timers) restarts the query, and
// Spark withholds that no-data batch after a restart: the armed crash never fired and 38 of 200
// seeds failed "the crash armed at offsets.after_write never fired". The rule (docs/faults.md
// "A plan's faults and the scenario's own steps"): it gives way when the run without the plan's
// faults fires it.
TEST(RunDriver, ArmedCrashAPlanCrashKeptTheQueryFromIsNotAFalseAlarm) {
  Scenario sc = loadFile("scenarios/timers/armed_crash_in_timer_batch_under_plan_crashes.yaml");
  ASSERT_TRUE(runScenario(sc).passed()) << runScenario(sc).report();
  ScenarioRunResult r = runWith(sc, {sim::CrashFault{std::string(faults::kOffsetsBeforeWrite), 2, -1, 1}});
  EXPECT_TRUE(r.passed()) << r.report();
  ASSERT_EQ(r.unfiredArmedCrashes.size(), 1u) << "the plan kept the query from the armed crash";
  EXPECT_NE(r.armedCrashesKeptByThePlan.find("the run without them fires"), std::string::npos)
      << r.armedCrashesKeptByThePlan;
}

// The rule keeps the check: an armed crash the query never passes even without the plan's faults
// still fails the scenario under a plan, at its step.
TEST(RunDriver, ArmedCrashThatNeverFiresFailsUnderAPlanToo) {
  std::string yaml = kLaterArmedCrash;
  yaml = yaml.substr(0, yaml.find("steps:")) + R"(steps:
  - put: {path: /landing/a.json, rows: [{event_id: e1, device: d1, event_time: "2026-01-01T00:00:00Z"}]}
  - crash: {at: source.mid_clean}
  - run: available
)";
  Scenario sc = load(yaml);
  ScenarioRunResult r = runWith(sc, {sim::CrashFault{std::string(faults::kOffsetsAfterWrite), 0, -1, 1}});
  ASSERT_FALSE(r.passed());
  ASSERT_EQ(r.failures.size(), 1u) << r.report();
  EXPECT_EQ(r.failures[0].where.line, 14) << r.report();
  EXPECT_NE(r.report().find("never fired"), std::string::npos) << r.report();
  EXPECT_NE(r.report().find("nor without the plan's faults"), std::string::npos) << r.report();
}

// One restart limit per run, and its error names it.
TEST(RunDriver, TheRestartLimitIsOnePerRunAndNamed) {
  Scenario sc = load(kLaterArmedCrash);
  std::vector<sim::Fault> crashes;
  for (int64_t i = 0; i < 120; ++i)
    crashes.push_back(sim::CrashFault{std::string(faults::kOffsetsBeforeWrite), -1, -1, i + 1});
  ScenarioRunResult r = runWith(sc, crashes);
  ASSERT_FALSE(r.passed());
  EXPECT_NE(r.report().find("restart limit"), std::string::npos) << r.report();
  EXPECT_NE(r.report().find("maxRestarts"), std::string::npos) << r.report();
}

}  // namespace
}  // namespace streamsim::harness
