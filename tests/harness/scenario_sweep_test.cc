// Scenario sweeps (harness/run/scenario_sweep.h): every failure kind shrinks keeping its kind —
// an oracle-only failure too (the CLI used to print "N faults (of N)" for those) —, the shrunk
// plan's replay reproduces the printed trace hash, and generated plans aim at places the
// fault-free run reaches, so that nearly every seed's fault fires.
#include "streamsim/harness/run/scenario_sweep.h"

#include <gtest/gtest.h>

#include "harness/scenario_test_support.h"
#include "streamsim/harness/run/generated_scenario.h"

namespace streamsim::harness {
namespace {

Scenario load(const std::string& yaml) { return harness::load(yaml, "sweep_test.yaml"); }

// A foreach writer that does not dedupe re-run epochs (the foreach sink is at least once): no
// expectation can see it, only exactly_once does, after a plan's crash re-runs a batch.
constexpr const char* kForeachNoDedupe = R"(
name: a foreach writer without dedupe, caught only by exactly_once
query:
  source: {kind: files, path: /landing, format: json,
           schema: "event_id string, device string, event_time timestamp"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: foreach}
  outputMode: update
  shufflePartitions: 2
steps:
  - put: {path: /landing/a.json, rows: [{event_id: e1, device: d1, event_time: "2026-01-01T00:00:00Z"}]}
  - run: 1
  - put: {path: /landing/b.json, rows: [{event_id: e2, device: d2, event_time: "2026-01-01T00:01:00Z"}]}
  - run: 1
  - put: {path: /landing/c.json, rows: [{event_id: e3, device: d1, event_time: "2026-01-01T00:02:00Z"}]}
  - run: available
  - expect:
      checkpoint: {commits: [0, 1, 2]}
oracles: [exactly_once]
sweep: {crash_points: all, max_crashes: 3}
)";

TEST(ScenarioSweep, AnOracleOnlyFailureShrinksToAtMostTwoFaultsKeepingItsKind) {
  Scenario sc = load(kForeachNoDedupe);
  ScenarioSweepOptions o;
  o.seeds = 40;
  o.program = "my_runner";
  ScenarioSweepReport report = sweepScenarios({sc}, o);
  int failing = 0;
  for (const auto& out : report.outcomes) {
    if (out.passed) continue;
    ++failing;
    EXPECT_EQ(out.kind.toString(), "oracle exactly_once") << out.report;
    ASSERT_TRUE(out.shrunk.has_value());
    EXPECT_LE(out.shrunk->plan.faults.size(), 2u) << out.shrunk->summary();
    EXPECT_LT(out.shrunk->plan.faults.size(), out.shrunk->originalFaults + 1);
    // The minimal case fails the same way, and its replay line names the program.
    EXPECT_TRUE(failureKind(out.shrunk->result).sharedWith(out.kind)) << out.shrunk->result.report();
    EXPECT_EQ(out.replay.rfind("my_runner replay sweep_test.yaml --seed " + std::to_string(out.seed), 0), 0u)
        << out.replay;
    ScenarioRunResult again = runScenarioSeed(sc, out.seed, out.shrunk->plan);
    EXPECT_EQ(again.traceHash, out.shrunk->result.traceHash);
  }
  EXPECT_GT(failing, 5) << "the plans' crashes re-run batches: the writer sees rows twice";
  EXPECT_EQ(report.totals.failed, static_cast<size_t>(failing));
}

// The one encoding of a seed's outcome (ScenarioSeedOutcome::toJson/fromJson): the --json
// report's result and a worker process's answer. What it writes reads back to the same outcome —
// failing and passing seeds, a shrunk plan, a generated workload's kept files and why it has no
// replay line — so workers and reports cannot drift apart.
void expectRoundTrip(const Scenario& sc, const ScenarioSeedOutcome& out) {
  const nlohmann::json j = out.toJson(sc);
  auto back = ScenarioSeedOutcome::fromJson(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back.ok()) << back.status().toString() << "\n" << j.dump();
  EXPECT_EQ(back->toJson(sc), j);
  EXPECT_EQ(back->passed, out.passed);
  EXPECT_EQ(back->kind.keys, out.kind.keys);
  EXPECT_EQ(back->report, out.report);
  EXPECT_EQ(back->replay, out.replay);
  EXPECT_EQ(back->noReplay, out.noReplay);
  EXPECT_EQ(back->faults.fired.size(), out.faults.fired.size());
  EXPECT_EQ(back->faults.executablePlanned(), out.faults.executablePlanned());
  EXPECT_EQ(back->runs, out.runs);
  ASSERT_EQ(back->shrunk.has_value(), out.shrunk.has_value());
  if (!out.shrunk) return;
  EXPECT_EQ(back->shrunk->plan, out.shrunk->plan);
  EXPECT_EQ(back->shrunk->originalFaults, out.shrunk->originalFaults);
  EXPECT_EQ(back->shrunk->files, out.shrunk->files);
  EXPECT_EQ(back->shrunk->originalFiles, out.shrunk->originalFiles);
  EXPECT_EQ(back->shrunk->runs, out.shrunk->runs);
  EXPECT_EQ(back->shrunk->summary(), out.shrunk->summary());
  EXPECT_EQ(back->shrunk->result.traceHash, out.shrunk->result.traceHash);
}

TEST(ScenarioSweep, OneOutcomeEncodingReadsBackWhatItWrote) {
  Scenario sc = load(kForeachNoDedupe);
  ScenarioSweepOptions o;
  o.seeds = 12;
  ScenarioSweepReport report = sweepScenarios({sc}, o);
  size_t failing = 0;
  for (const auto& out : report.outcomes) {
    failing += out.passed ? 0 : 1;
    expectRoundTrip(sc, out);
  }
  EXPECT_GT(failing, 0u);
  EXPECT_LT(failing, report.outcomes.size());

  // A generated workload's failing seed: shrunk files kept, no replay line (a C++ reference).
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  c.spec.events = 40;
  c.oracleArgs.set("reference", "function", ReferenceFunction([](const ReferenceInput&) { return std::vector<Row>{}; }));
  auto gen = generatedScenario(c, 0);
  ASSERT_TRUE(gen.ok());
  o.seeds = 1;
  ScenarioSweepReport one = sweepScenarios({*gen}, o);
  ASSERT_EQ(one.outcomes.size(), 1u);
  ASSERT_TRUE(one.outcomes[0].shrunk && one.outcomes[0].shrunk->files);
  ASSERT_FALSE(one.outcomes[0].noReplay.empty());
  expectRoundTrip(*gen, one.outcomes[0]);
}

TEST(ScenarioSweep, AnExpectationFailureShrinksKeepingItsPlace) {
  Scenario sc = loadFile("scenarios/seeds/counter_a3_b2.yaml");
  for (auto& step : sc.steps)
    if (auto* e = std::get_if<ExpectStep>(&step.step); e && e->sink) (*e->sink)[0].fields[1].second = Value(int64_t{4});
  ScenarioSweepOptions o;
  o.seeds = 3;
  ScenarioSweepReport report = sweepScenarios({sc}, o);
  ASSERT_EQ(report.outcomes.size(), 3u);
  for (const auto& out : report.outcomes) {
    ASSERT_FALSE(out.passed);
    EXPECT_EQ(out.kind.keys.size(), 1u) << out.kind.toString();
    EXPECT_EQ(out.kind.keys.begin()->rfind("expect ", 0), 0u) << out.kind.toString();
    ASSERT_TRUE(out.shrunk.has_value());
    EXPECT_EQ(out.shrunk->plan.faults.size(), 0u) << "the failure needs no fault";
  }
}

// Regression (issue 40, run_step_failure_reported_as_an_expectation): a `run` step whose batch
// failed was reported as "expect FILE:LINE", so it read as an expectation failure. The failure's
// kind names the step the file wrote.
TEST(ScenarioSweep, RunStepFailureReportedAsAnExpectationNamesTheRunStep) {
  Scenario sc = load(R"yaml(
name: a malformed number fails the batch under ANSI mode (Cast.scala)
query:
  source: {kind: memory, schema: "id string, qty string"}
  operators:
    - withColumn: {n: "CAST(qty AS INT)"}
  sink: {kind: memory}
  outputMode: append
steps:
  - add_rows: [{id: a, qty: "12x"}]
  - run: available
  - expect:
      sink: []
)yaml");
  ScenarioSweepOptions o;
  o.seeds = 2;
  ScenarioSweepReport report = sweepScenarios({sc}, o);
  ASSERT_EQ(report.outcomes.size(), 2u);
  for (const auto& out : report.outcomes) {
    ASSERT_FALSE(out.passed);
    EXPECT_EQ(out.kind.toString(), "run sweep_test.yaml:11") << out.kind.toString();
  }
}

// With the default knobs 36% of seeds carried no crash and short scenarios aimed most crashes at
// batches the run never reached; plans now aim at the fault-free run's (point, batch) pairs.
TEST(ScenarioSweep, NearlyEverySeedsFaultFires) {
  for (const char* f : {"scenarios/crash/offsets_after_write_reruns_batch.yaml", "scenarios/lab/03_two_files_one_batch.yaml",
                        "scenarios/files/clean_source_archive.yaml"}) {
    Scenario sc = loadFile(f);
    ScenarioSweepOptions o;
    o.seeds = 100;
    o.shrink = false;
    ScenarioSweepReport report = sweepScenarios({sc}, o);
    EXPECT_EQ(report.totals.failed, 0u) << f << "\n" << report.totals.line();
    EXPECT_EQ(report.totals.seeds, 100u);
    EXPECT_GE(report.totals.seedsWhoseFaultsFired, 95u) << f << "\n" << report.totals.line();
    EXPECT_GT(report.totals.firedByKind["crash"], 0) << report.totals.line();
    EXPECT_NE(report.totals.line().find("TOTAL PASS"), std::string::npos) << report.totals.line();
    for (const auto& out : report.outcomes)
      EXPECT_EQ(out.faults.planFired.size(), out.faults.plan.faults.size());
  }
}

// Context switches aim at the scheduling choices the fault-free run met: before, they drew steps
// in [0, switch_steps) of every (batch, partition), and 51 of this scenario's 170 planned faults
// in its first 40 seeds never fired (sync_async_switch_one_checkpoint.yaml, whose tasks have one
// key each and so no choice at all, planned 268 switches that could never fire). A switch taken
// can move the later steps, so not every one fires.
TEST(ScenarioSweep, SwitchesAimAtTheSchedulingChoicesOfTheFaultFreeRun) {
  EXPECT_TRUE(scenarioReach(loadFile("scenarios/async/sync_async_switch_one_checkpoint.yaml")).switches.empty());
  Scenario sc = loadFile("scenarios/async/count_events_open_close.yaml");
  EXPECT_FALSE(scenarioReach(sc).switches.empty());
  // The crash points it was measured with: a crash before offsets/0 re-plans batch 0 over twenty
  // files (the scenario sweeps every point since), which moves the scheduling choices its switches
  // aimed at; this test measures the aim, not the crashes.
  ASSERT_TRUE(sc.sweep.has_value());
  sc.sweep->crashPoints = {"offsets.after_write", "task.mid_partition", "state.before_commit", "state.after_commit",
                           "sink.after_metadata", "commits.before_write", "commits.after_write", "async.state_op"};
  ScenarioSweepOptions o;
  o.seeds = 40;
  o.shrink = false;
  ScenarioSweepReport report = sweepScenarios({sc}, o);
  EXPECT_EQ(report.totals.failed, 0u) << report.totals.line();
  size_t planned = 0, unfired = 0;
  for (const auto& out : report.outcomes) {
    for (size_t i = 0; i < out.faults.plan.faults.size(); ++i) {
      if (!std::holds_alternative<sim::SwitchFault>(out.faults.plan.faults[i])) continue;
      ++planned;
      unfired += out.faults.planFired[i] == 0;
    }
  }
  EXPECT_GT(planned, 40u);
  EXPECT_LE(unfired * 20, planned) << unfired << " of " << planned << " planned switches did not fire";
}

// A query Spark refuses when it starts passes no fault point: its seeds plan no fault (they drew
// crashes at random before, which never fired), and the totals say how many seeds had one.
TEST(ScenarioSweep, AScenarioThatReachesNoFaultPointPlansNoFault) {
  Scenario sc = loadFile("scenarios/realtime/unsupported/file_sink.yaml");
  EXPECT_TRUE(scenarioReach(sc).crashes.empty());
  ScenarioSweepOptions o;
  o.seeds = 20;
  o.shrink = false;
  ScenarioSweepReport report = sweepScenarios({sc}, o);
  EXPECT_EQ(report.totals.failed, 0u) << report.totals.line();
  EXPECT_EQ(report.totals.seedsWithFaults, 0u) << report.totals.line();
  for (const auto& out : report.outcomes) EXPECT_TRUE(out.faults.plan.faults.empty()) << out.plan;
  EXPECT_NE(report.totals.line().find("(0.0% of the 0 with a planned fault)"), std::string::npos)
      << report.totals.line();
}

}  // namespace
}  // namespace streamsim::harness
