// Oracles on by default for a processor's logic (issue 40 item 5; docs/oracles.md "Oracles on by
// default and not checked"): the oracles a registered processor's promises turn on
// (oracles/promises.h) and partitioning (oracles/partitioning.h), each catching one of the four
// C++ bug classes in a scenario that names no oracle (scenarios/logic/buggy/), with the correct
// twins passing.
#include <algorithm>

#include <gtest/gtest.h>

#include "harness/scenario_test_support.h"
#include "streamsim/harness/oracles/not_checked.h"
#include "streamsim/harness/oracles/partitioning.h"
#include "streamsim/harness/oracles/promises.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/processors/builtin.h"

namespace streamsim::harness {
namespace promised_oracles_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::string countScenario(const std::string& operators, const std::string& outputMode = "update") {
  return R"(
name: count
query:
  source: {kind: memory, schema: "key string, t timestamp"}
  operators:
)" + operators + R"(
  sink: {kind: memory}
  outputMode: )" + outputMode + R"(
steps:
  - add_rows: [{key: a, t: "2026-01-01T00:00:00Z"}]
  - run: 1
)";
}

const char* kCount = "    - groupBy: [key]\n      transformWithState: {processor: count, outputMode: update, timeMode: None}\n";

TEST(PromisedOracles, TheCountsPromisesTurnOnBatchSplitAndItsReference) {
  Scenario sc = withPromisedOracles(load(countScenario(kCount)));
  EXPECT_TRUE(has(sc.oracles, "batch_split"));
  EXPECT_TRUE(has(sc.oracles, "reference"));
  EXPECT_EQ(sc.oracleArgs.text("reference", "name"), "count");
  // Listed as not checked no more: they are checked.
  for (const NotChecked& n : notCheckedOracles(load(countScenario(kCount))))
    EXPECT_TRUE(n.oracle != "batch_split" && n.oracle.find("reference") == std::string::npos) << n.oracle;
}

TEST(PromisedOracles, OnlyWhereTheQueryLetsThePromiseHold) {
  // A watermark: a cut changes which rows are late, so no batch_split; an operator before the
  // processor: the reference would read the source's rows, not the processor's input.
  Scenario wm = withPromisedOracles(load(countScenario("    - withWatermark: {column: t, delay: 5s}\n" + std::string(kCount))));
  EXPECT_FALSE(has(wm.oracles, "batch_split"));
  EXPECT_FALSE(has(wm.oracles, "reference"));
  Scenario append = withPromisedOracles(load(countScenario(
      "    - groupBy: [key]\n      transformWithState: {processor: count, outputMode: append, timeMode: None}\n", "append")));
  EXPECT_TRUE(append.oracles.empty());
  // A processor that promises nothing gets nothing.
  Scenario none = withPromisedOracles(load(countScenario(
      "    - groupBy: [key]\n      transformWithState: {processor: session_tracker, outputMode: update, timeMode: None}\n")));
  EXPECT_TRUE(none.oracles.empty());
  // The heartbeat's one timer per key.
  EXPECT_EQ(::streamsim::test::testProcessors()->promises("heartbeat")->timersPerKey, 1);
}

// A promise belongs to the processor its set added, not to its name in every program: a runner's
// own "count" that promised nothing gets no promised oracles (with the process-wide promise table
// keyed by name it got the example count's batch_split and {reference: count}).
TEST(PromisedOracles, APromiseIsTheSetsProcessorsNotEveryProcessorOfThatName) {
  auto own = std::make_shared<ProcessorSet>();
  own->add("count", processorFactoryOf<processors::SessionTrackerProcessor>());
  auto registries = std::make_shared<RunRegistries>();
  registries->processors = own;
  LoaderOptions lo;
  lo.registries = registries;
  ScenarioLoad l = parseScenario(countScenario(kCount), "own.yaml", lo);
  ASSERT_TRUE(l.ok()) << l.errorText();
  EXPECT_TRUE(withPromisedOracles(*l.scenario).oracles.empty());
  // Promised on its set, the same name gets them; a name added twice promises nothing.
  own->promise("count", {.splitInvariant = true});
  EXPECT_TRUE(has(withPromisedOracles(*l.scenario).oracles, "batch_split"));
  own->add("count", processorFactoryOf<processors::CountProcessor>());
  EXPECT_FALSE(own->promises("count").has_value());
}

TEST(PartitioningOracle, TheSeedsPartitionCountIsNeverTheConfiguredOne) {
  EXPECT_EQ(partitionsOf(0, 4), 1);
  EXPECT_EQ(partitionsOf(0, 1), 2);
  for (uint64_t s = 1; s < 200; ++s)
    for (int configured : {1, 2, 4, 6}) {
      const int n = partitionsOf(s, configured);
      EXPECT_NE(n, configured);
      EXPECT_GE(n, 1);
      EXPECT_LE(n, 6);
    }
}

TEST(PartitioningOracle, IsOnByDefaultForAProcessorInMicroBatchModeOnly) {
  EXPECT_TRUE(has(defaultOracles(load(countScenario(kCount)), false), "partitioning"));
  Scenario agg = load(R"(
name: no processor
query:
  source: {kind: memory, schema: "key string"}
  operators:
    - dropDuplicates: [key]
  sink: {kind: memory}
steps:
  - add_rows: [{key: a}]
  - run: 1
)");
  EXPECT_FALSE(has(defaultOracles(agg, false), "partitioning"));
}

// Issue 38: a scenario file is run twice for determinism on every seed (a memory or file sink);
// a generated workload's seed only where its config decided it (ScenarioHooks::decidesDeterminism,
// tests/harness/sweep_test.cc Sweep.DeterminismRunsOnTheSeedsTheConfigDecides).
TEST(DeterminismOracle, IsOnByDefaultForAScenarioFileOnEverySeed) {
  const Scenario sc = load(countScenario(kCount));
  EXPECT_TRUE(has(defaultOracles(sc, false), "determinism"));
  EXPECT_TRUE(has(defaultOracles(sc, true), "determinism"));
  EXPECT_TRUE(sc.hooks == nullptr || !sc.hooks->decidesDeterminism);
}

// The four classes, each in its buggy scenario (no oracle named): the plain run fails by the
// oracle the file's `# caught by:` line names; the correct twin passes its plain run and a sweep.
TEST(BugClassesByOraclesAlone, EachBuggyScenarioFailsItsPlainRunAndItsTwinPasses) {
  struct Case {
    const char* buggy;
    const char* oracle;
    const char* twin;
  };
  for (const Case& c : {Case{"scenarios/logic/buggy/timer_leak.yml", "timer_bound", "scenarios/logic/heartbeat_one_timer_per_key.yaml"},
                        Case{"scenarios/logic/buggy/member_across_keys.yml", "partitioning", "scenarios/logic/count_promises_kept.yaml"},
                        Case{"scenarios/logic/buggy/calls_counted_as_rows.yml", "batch_split", "scenarios/logic/count_promises_kept.yaml"},
                        Case{"scenarios/logic/buggy/ttl_append_expects_refresh.yml", "reference", "scenarios/logic/ttl_put_restamps_every_item.yaml"}}) {
    Scenario buggy = loadFile(c.buggy);
    EXPECT_TRUE(buggy.oracles.empty()) << c.buggy << ": names an oracle";
    ScenarioRunResult r = runScenario(buggy);
    EXPECT_TRUE(has(violated(r), c.oracle)) << c.buggy << ":\n" << r.report();
    Scenario twin = loadFile(c.twin);
    ScenarioRunResult t = runScenario(twin);
    EXPECT_TRUE(t.passed()) << c.twin << ":\n" << t.report();
    expectSweepPasses(twin, 10);
  }
}

}  // namespace
}  // namespace promised_oracles_test
}  // namespace streamsim::harness
