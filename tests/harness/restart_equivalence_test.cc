// restart_equivalence (issue 13 §1, oracles/logic.h): stopping and restarting at batch boundaries,
// with and without downtime, changes nothing in the reader's view or the committed state. It
// catches, without expected rows, a processor whose output depends on the query run (its count
// scoped to getQueryInfo().runId, which a restart changes), and passes for the built-in processors
// and the scenarios.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "harness/generated_sweep_support.h"
#include "harness/scenario_test_support.h"
#include "streamsim/harness/oracles/not_checked.h"
#include "streamsim/harness/oracles/promises.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/tws/processor_registry.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

// Counts per key, but scopes the count to the query run: a count stored under another run id is
// dropped (as if a restarted query were a new one). Right in any run without a restart; after a
// restart (a new run id, as in Spark) it counts from 0 again. (A member would not do: an instance
// lives one batch, as Spark's deserialised processor does.)
class RunScopedCount final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override {
    n_ = h.getValueState<int64_t>("count");
    run_ = h.getValueState<std::string>("run");
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    const std::string runId = getHandle().getQueryInfo().runId;
    int64_t n = run_.exists() && run_.get() == runId && n_.exists() ? n_.get() : 0;
    n += static_cast<int64_t>(rows.size());
    n_.update(n);
    run_.update(runId);
    out.emit(Row{{"key", key[0]}, {"count", n}});
  }

 private:
  ValueState<int64_t> n_;
  ValueState<std::string> run_;
};

std::string counting(const std::string& processor) {
  return R"(name: counts without expected rows
query:
  source: {kind: memory, schema: "key string"}
  operators:
    - groupBy: [key]
      transformWithState: {processor: )" + processor + R"(, outputMode: update}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{key: a}, {key: b}]
  - run: available
  - add_rows: [{key: a}]
  - run: available
  - add_rows: [{key: a}, {key: b}]
  - run: available
oracles: [restart_equivalence]
)";
}

TEST(RestartEquivalence, CatchesACountScopedToTheQueryRunWithoutExpectedRows) {
  ScenarioRunResult r = runScenario(load(counting("test_run_scoped_count")));
  ASSERT_EQ(r.violations.size(), 1u) << r.report();
  EXPECT_EQ(r.violations[0].oracle, "restart_equivalence");
  EXPECT_NE(r.violations[0].message.find("changed the reader's view"), std::string::npos) << r.violations[0].message;
  // The same processor passes exactly_once: its fault-free reference has the same bug.
  Scenario sc = load(counting("test_run_scoped_count"));
  sc.oracles = {"exactly_once"};
  EXPECT_TRUE(runScenario(sc).passed());
}

TEST(RestartEquivalence, TheBuiltInCountPasses) {
  Scenario sc = load(counting("count"));
  ScenarioRunResult r = runScenario(sc);
  EXPECT_TRUE(r.passed()) << r.report();
  // restart_equivalence, the oracles every plain run gets (oracles/not_checked.h) and those the
  // count promises (oracles/promises.h: batch_split, {reference: count}).
  const int promised = static_cast<int>(withPromisedOracles(sc).oracles.size() - sc.oracles.size());
  EXPECT_EQ(promised, 2);
  EXPECT_EQ(r.oracleChecks, 1 + static_cast<int>(defaultOracles(sc, false).size()) + promised);
}

// Every scenario of the library with the oracle added passes it (the scenarios whose plain run
// passes; the real-time ones restart at their commits too).
TEST(RestartEquivalence, PassesForEveryScenarioInTheLibrary) {
  int checked = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(STREAMSIM_SOURCE_DIR) + "/scenarios")) {
    if (e.path().extension() != ".yaml") continue;
    auto sc = loadScenario(e.path().string(), ::streamsim::test::testLoader());
    if (!sc.ok()) continue;
    ScenarioRunResult plain = runScenario(*sc);
    if (!plain.passed()) continue;  // scenarios that show a refusal, or need their own options
    sc->oracles = {"restart_equivalence"};
    ScenarioRunResult r = runScenario(*sc);
    ++checked;
    for (const auto& v : r.violations) ADD_FAILURE() << e.path().string() << ":\n" << v.toString();
  }
  EXPECT_GE(checked, 50);
}

// Generated workloads (issue 13 §1 "usable in generated sweeps"): the seed's input restarted after
// each committed batch (every other restart after 5 s down while files land) against it down as
// long without restarting. The built-in count and heartbeat pass; the run-scoped count is caught.
TEST(RestartEquivalence, GeneratedWorkloads) {
  for (WorkloadKind kind : {WorkloadKind::kCount, WorkloadKind::kHeartbeat}) {
    WorkloadConfig c = ::streamsim::test::testWorkload(kind);
    c.oracles = {"restart_equivalence", "exactly_once"};
    for (uint64_t s = 0; s < 8; ++s) {
      ScenarioRunResult r = testing::seedRun(c, s);
      ASSERT_TRUE(r.passed()) << c.name << " seed " << s << ":\n" << r.report();
      // Both named oracles among the scenario's defaults, restart_equivalence's two runs among its runs.
      EXPECT_GE(r.oracleChecks, 2);
      EXPECT_GE(r.oracleRuns, 2);
    }
  }
  WorkloadConfig buggy = ::streamsim::test::testWorkload(WorkloadKind::kCustom);
  buggy.name = "run_scoped_count";
  buggy.processor = [] { return std::make_unique<RunScopedCount>(); };
  buggy.outputSchema = "key string, count long";
  buggy.oracles = {"restart_equivalence"};
  ScenarioRunResult r = testing::seedRun(buggy, 3);
  ASSERT_EQ(r.violations.size(), 1u) << r.report();
  EXPECT_EQ(r.violations[0].oracle, "restart_equivalence");
  EXPECT_NE(r.violations[0].message.find("changed the reader's view"), std::string::npos) << r.violations[0].message;
}

}  // namespace
}  // namespace streamsim::harness

// This file's processors, handed to its runs next to the example ones (test_registries.h).
void streamsim::test::addTestProcessors(ProcessorSet& set) {
  set.add("test_run_scoped_count", processorFactoryOf<harness::RunScopedCount>());
}
