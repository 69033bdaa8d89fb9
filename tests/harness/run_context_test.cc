// Registries with an owner (issue 33 item 3): a run is handed its processors -- the set its
// scenario was loaded with (RunRegistries::processors), or one given to the run
// (ScenarioRunOptions::processors) -- instead of finding them in a process-wide set; two runs with
// different processors in one process do not see each other's, and the process_isolation
// oracle's fresh run is such a context (ProcessorSet::fresh()).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "harness/scenario_test_support.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/processors/examples.h"
#include "test_paths.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness {
namespace {

// Emits one row per key: how many rows it saw, in a column named after its context (`column`).
class NamedCount final : public StatefulProcessor {
 public:
  explicit NamedCount(std::string column) : column_(std::move(column)) {}
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t n = 0;
    for (const Row& r : rows) {
      (void)r;
      ++n;
    }
    out.emit(processors::withKey(key, column_, Value(n)));
  }

 private:
  std::string column_;
};

std::shared_ptr<const ProcessorSet> contextWith(const std::string& name, const std::string& column) {
  auto p = std::make_shared<ProcessorSet>();
  p->add(name, [column] { return std::make_unique<NamedCount>(column); });
  return p;
}

// A scenario counting rows per key with the transformWithState `tws` (its processor part), loaded
// with `lo`.
Scenario scenarioWith(const std::string& tws, const LoaderOptions& lo) {
  ScenarioLoad l = parseScenario(R"(
name: run context
query:
  source: {kind: memory, schema: "key string"}
  operators:
    - groupBy: [key]
      transformWithState: {)" + tws + R"(, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{key: a}, {key: a}]
  - run: 1
)", "context.yaml", lo);
  EXPECT_TRUE(l.ok()) << l.errorText();
  return l.ok() ? *l.scenario : Scenario{};
}

// A scenario naming processor `name`, loaded as a program that knows it would load it.
Scenario scenarioNaming(const std::string& name) {
  LoaderOptions lo;
  lo.isProcessor = [](std::string_view) { return true; };
  return scenarioWith("processor: " + name, lo);
}

TEST(RunContext, TwoRunsWithDifferentProcessorsDoNotSeeEachOthers) {
  const Scenario onlyA = scenarioNaming("only_in_a");
  ScenarioRunOptions a;
  a.processors = contextWith("only_in_a", "in_a");
  ScenarioRunOptions b;
  b.processors = contextWith("only_in_b", "in_b");

  ScenarioRunResult inA = runScenario(onlyA, a);
  ASSERT_TRUE(inA.passed()) << inA.report();
  ASSERT_EQ(inA.sinkRows.size(), 1u);
  EXPECT_EQ(inA.sinkRows[0].get("in_a").asLong(), 2);

  ScenarioRunResult inB = runScenario(onlyA, b);
  EXPECT_FALSE(inB.passed());
  EXPECT_NE(inB.report().find("no stateful processor named 'only_in_a' is registered; known: only_in_b"),
            std::string::npos)
      << inB.report();
  // Nor does a run without a context: there is no process-wide set to fall back on.
  ScenarioRunResult none = runScenario(onlyA);
  EXPECT_FALSE(none.passed());
  EXPECT_NE(none.report().find("no stateful processor named 'only_in_a' is registered; known: "), std::string::npos)
      << none.report();
}

// A scenario's `processor: NAME` resolves in the processors of the RunRegistries it was loaded
// with: two scenarios loaded with different sets in one process each run their own, and a name
// the set lacks is a load error naming the set's processors.
TEST(RunContext, AScenarioRunsTheProcessorsItWasLoadedWith) {
  auto withSet = [](std::shared_ptr<const ProcessorSet> set) {
    auto r = std::make_shared<RunRegistries>();
    r->processors = std::move(set);
    LoaderOptions lo;
    lo.registries = std::move(r);
    return lo;
  };
  const Scenario a = scenarioWith("processor: tagged", withSet(contextWith("tagged", "in_a")));
  const Scenario b = scenarioWith("processor: tagged", withSet(contextWith("tagged", "in_b")));
  ScenarioRunResult ra = runScenario(a);
  ScenarioRunResult rb = runScenario(b);
  ASSERT_TRUE(ra.passed() && rb.passed()) << ra.report() << rb.report();
  EXPECT_TRUE(ra.sinkRows.at(0).has("in_a")) << ra.sinkRows.at(0).toJson();
  EXPECT_TRUE(rb.sinkRows.at(0).has("in_b")) << rb.sinkRows.at(0).toJson();

  ScenarioLoad unknown = parseScenario("name: x\nquery:\n  source: {kind: memory, schema: \"key string\"}\n"
                                       "  operators:\n    - groupBy: [key]\n"
                                       "      transformWithState: {processor: count, outputMode: update, timeMode: None}\n"
                                       "  sink: {kind: memory}\n  outputMode: update\nsteps: []\n",
                                       "unknown.yaml", withSet(contextWith("tagged", "in_a")));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.errorText().find("tagged"), std::string::npos) << unknown.errorText();
}

// The Python loader is part of what a run is handed (RunRegistries on the Scenario, set by the
// loader's caller), not a process-wide hook: two scenarios loaded with different loaders in one
// process each run with their own, and one loaded without any says the runner has no Python.
Result<ProcessorFactory> loaderA(const PythonProcessorSpec&) {
  return ProcessorFactory([] { return std::make_unique<NamedCount>("by_loader_a"); });
}
Result<ProcessorFactory> loaderB(const PythonProcessorSpec&) {
  return ProcessorFactory([] { return std::make_unique<NamedCount>("by_loader_b"); });
}

Scenario pythonScenario(std::shared_ptr<const RunRegistries> registries) {
  LoaderOptions lo;
  lo.registries = std::move(registries);
  const std::string py = std::string(test_paths::sourceDir()) + "/scenarios/seeds/python/processors/count.py";
  return scenarioWith("python: " + py + ", class: CountProcessor", lo);
}

TEST(RunContext, ThePythonLoaderIsWhatTheRunWasHanded) {
  auto a = std::make_shared<RunRegistries>();
  a->pythonProcessors = &loaderA;
  auto b = std::make_shared<RunRegistries>();
  b->pythonProcessors = &loaderB;
  const Scenario withA = pythonScenario(a);
  const Scenario withB = pythonScenario(b);
  ScenarioRunResult ra = runScenario(withA);
  ScenarioRunResult rb = runScenario(withB);
  ASSERT_TRUE(ra.passed() && rb.passed()) << ra.report() << rb.report();
  EXPECT_TRUE(ra.sinkRows.at(0).has("by_loader_a")) << ra.sinkRows.at(0).toJson();
  EXPECT_TRUE(rb.sinkRows.at(0).has("by_loader_b")) << rb.sinkRows.at(0).toJson();

  ScenarioRunResult none = runScenario(pythonScenario(nullptr));
  EXPECT_FALSE(none.passed());
  EXPECT_NE(none.report().find("this runner was built without Python support"), std::string::npos) << none.report();
}

TEST(RunContext, TheSameNameInTwoContextsIsEachContextsOwn) {
  const Scenario sc = scenarioNaming("tagged");
  ScenarioRunOptions a;
  a.processors = contextWith("tagged", "in_a");
  ScenarioRunOptions b;
  b.processors = contextWith("tagged", "in_b");
  ScenarioRunResult ra = runScenario(sc, a);
  ScenarioRunResult rb = runScenario(sc, b);
  ASSERT_TRUE(ra.passed() && rb.passed()) << ra.report() << rb.report();
  EXPECT_TRUE(ra.sinkRows.at(0).has("in_a") && !ra.sinkRows.at(0).has("in_b")) << ra.sinkRows.at(0).toJson();
  EXPECT_TRUE(rb.sinkRows.at(0).has("in_b") && !rb.sinkRows.at(0).has("in_a")) << rb.sinkRows.at(0).toJson();
}

// ProcessorSet::fresh() holds every processor of the set, each factory made anew: a
// FactoryMaker's capture is not the set's.
TEST(RunContext, FreshFactoriesHoldEveryProcessorOfTheSet) {
  ProcessorSet set;
  registerExampleProcessors(set);
  auto makes = std::make_shared<int>(0);
  set.add("made", ProcessorFactoryMaker([makes] {
            ++*makes;
            return ProcessorFactory([] { return std::make_unique<NamedCount>("made"); });
          }));
  EXPECT_EQ(*makes, 1);
  const ProcessorSet fresh = set.fresh();
  EXPECT_EQ(*makes, 2);
  EXPECT_EQ(fresh.names(), set.names());
  EXPECT_TRUE(fresh.factory("count").ok());
  EXPECT_TRUE(fresh.factory("heartbeat", {{"timeout", "5s"}}).ok());
  EXPECT_FALSE(fresh.factory("nosuchprocessor").ok());
}

// The example processors are added by an explicit call into a set the caller owns (no static
// registrar of theirs). A name added twice to a set is refused when looked up.
TEST(RunContext, TheExampleProcessorsAreAddedToASetByAnExplicitCall) {
  ProcessorSet set;
  EXPECT_TRUE(set.names().empty());
  registerExampleProcessors(set);
  const std::vector<std::string> examples = set.names();
  for (const char* name : {"count", "heartbeat", "ttl_cache", "async_count", "rtm_list_ttl", "nested_history"})
    EXPECT_NE(std::find(examples.begin(), examples.end(), name), examples.end()) << name;
  auto heartbeat = set.paramNames("heartbeat");
  ASSERT_TRUE(heartbeat.ok()) << heartbeat.status().message();
  EXPECT_EQ(*heartbeat, std::vector<std::string>{"timeout"});
  EXPECT_TRUE(set.factory("heartbeat").ok());

  ProcessorSet other;
  EXPECT_FALSE(other.factory("count").ok());  // another set: nothing is shared
  set.add("count", processorFactoryOf<processors::CountProcessor>());
  auto twice = set.factory("count");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("'count' was added 2 times"), std::string::npos)
      << twice.status().message();
}

}  // namespace
}  // namespace streamsim::harness
