// The reference oracle (issue 13 §1, oracles/reference.h) and state_bound per key (oracles/logic.h):
// each catches a planted processor bug WITHOUT any expected rows — a misunderstanding of TTL
// (appendValue expected to refresh a list's older elements), handleInputRows calls counted as
// rows, a ListState that grows without bound for a key — and stays quiet for the correct
// processor under a sweep's faults, in scenarios and in generated workloads. The planted
// processors and references are registered here, in this test binary only.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/generated_sweep_support.h"
#include "harness/scenario_test_support.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

constexpr DurationMs kTtl = 5'000;

// The TTL misunderstanding: the user keeps the items a key received in a ListState with a 5 s
// TTL and expects each appendValue to refresh the TTL of the older elements (so that a key that
// keeps receiving input within 5 s keeps all its items). Spark stamps only the appended element:
// the older ones expire 5 s after the batch that appended them.
class AppendExpectsRefresh final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override { items_ = h.getListState<std::string>("items", TTLConfig{kTtl}); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (const Row& r : rows) items_.appendValue(r.get("item").toString());
    out.emit(processors::withKey(key, "items", Value(static_cast<int64_t>(items_.get().size()))));
  }

 private:
  ListState<std::string> items_;
};

// What the user meant, written correctly: put() restamps every element (a key with input keeps
// all its items for another 5 s).
class PutRestampsAll final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override { items_ = h.getListState<std::string>("items", TTLConfig{kTtl}); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    std::vector<std::string> all = items_.get();
    for (const Row& r : rows) all.push_back(r.get("item").toString());
    items_.put(all);
    out.emit(processors::withKey(key, "items", Value(static_cast<int64_t>(all.size()))));
  }

 private:
  ListState<std::string> items_;
};

// Counts handleInputRows calls as if they were rows.
class CallsAsRows final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override { n_ = h.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    n_.update(n_.getOption().value_or(0) + 1);
    out.emit(processors::withKey(key, "count", Value(n_.get())));
  }

 private:
  ValueState<int64_t> n_;
};

// A count that also remembers every row it saw in a ListState it never trims: its state grows
// without bound for a busy key (its output is right).
class LeakyHistoryCount final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override {
    n_ = h.getValueState<int64_t>("count");
    history_ = h.getListState<std::string>("history");
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t n = n_.getOption().value_or(0);
    for (const Row& r : rows) {
      history_.appendValue(r.toJson());
      ++n;
    }
    n_.update(n);
    out.emit(processors::withKey(key, "count", Value(n)));
  }

 private:
  ValueState<int64_t> n_;
  ListState<std::string> history_;
};

// The user's meaning of the list processors: every item a key received stays (its input comes
// within the TTL), {key, items: number received}.
std::vector<Row> itemsReceived(const ReferenceInput& in) {
  std::map<std::string, int64_t> n;
  for (const Row& r : in.rows) ++n[r.get("key").toString()];
  std::vector<Row> out;
  for (const auto& [k, c] : n) out.push_back(Row{{"key", k}, {"items", c}});
  return out;
}

// A key's items 3 s apart: the first one is 6 s old at the third batch (over the 5 s TTL unless
// the second batch restamped it). No expected rows.
std::string itemsScenario(const std::string& processor, const std::string& oracles) {
  return R"(
name: items per key without expected rows
query:
  source: {kind: memory, schema: "key string, item string"}
  operators:
    - groupBy: [key]
      transformWithState: {processor: )" + processor + R"(, outputMode: update, timeMode: ProcessingTime}
  sink: {kind: memory}
  outputMode: update
  shufflePartitions: 2
steps:
  - add_rows: [{key: a, item: x1}, {key: b, item: y1}]
  - run: 1
  - advance: 3s
  - add_rows: [{key: a, item: x2}, {key: b, item: y2}]
  - run: 1
  - advance: 3s
  - add_rows: [{key: a, item: x3}]
  - run: 1
oracles: )" + oracles + R"(
sweep: {crash_points: all, max_crashes: 2}
)";
}

// Three keys over three batches. No expected rows.
std::string countScenario(const std::string& processor, const std::string& oracles) {
  return R"(
name: count without expected rows
query:
  source: {kind: memory, schema: "key string"}
  operators:
    - groupBy: [key]
      transformWithState: {processor: )" + processor + R"(, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
  shufflePartitions: 2
steps:
  - add_rows: [{key: a}, {key: a}, {key: b}]
  - run: 1
  - add_rows: [{key: a}, {key: c}]
  - run: 1
  - add_rows: [{key: b}, {key: b}, {key: c}, {key: a}, {key: a}]
  - run: 1
oracles: )" + oracles + R"(
sweep: {crash_points: all, max_crashes: 2}
)";
}

TEST(Reference, TheTtlMisunderstandingIsCaughtWithoutExpectedRows) {
  // The engine expires the first item as Spark does (the ttl oracle agrees); the reference says
  // what the user meant.
  auto r = runScenario(load(itemsScenario("test_append_expects_refresh", "[ttl, {reference: test_items_received}]")));
  ASSERT_EQ(violated(r), std::vector<std::string>{"reference"}) << r.report();
  EXPECT_EQ(r.violations[0].key, R"({key="a", items=3})") << r.report();
  EXPECT_NE(r.violations[0].message.find("1 missing, 1 unexpected"), std::string::npos) << r.report();
  EXPECT_NE(r.violations[0].message.find(R"({key="a", items=2})"), std::string::npos) << r.report();
}

TEST(Reference, TheProcessorThatRestampsPassesUnderFaults) {
  Scenario sc = load(itemsScenario("test_put_restamps_all", "[ttl, {reference: test_items_received}, exactly_once]"));
  auto r = runScenario(sc);
  EXPECT_TRUE(r.passed()) << r.report();
  expectSweepPasses(sc, 40);
}

TEST(Reference, CallsCountedAsRowsAreCaughtWithoutExpectedRows) {
  auto r = runScenario(load(countScenario("test_ref_calls_as_rows", "[{reference: count}]")));
  ASSERT_EQ(violated(r), std::vector<std::string>{"reference"}) << r.report();
  // exactly_once compares with the same buggy processor's fault-free run: it sees nothing.
  EXPECT_TRUE(runScenario(load(countScenario("test_ref_calls_as_rows", "[exactly_once]"))).passed());
}

TEST(Reference, TheBuiltInCountAndSimpleCounterPassWithTheirReferencesUnderFaults) {
  Scenario count = load(countScenario("count", "[{reference: count}, exactly_once]"));
  EXPECT_TRUE(runScenario(count).passed()) << runScenario(count).report();
  expectSweepPasses(count, 40);
  Scenario simple = load(countScenario("simple_counter", "[{reference: simple_counter}]"));
  EXPECT_TRUE(runScenario(simple).passed()) << runScenario(simple).report();
  expectSweepPasses(simple, 20);
}

TEST(Reference, AnUnknownReferenceIsAnErrorAtItsLine) {
  ScenarioLoad l = parseScenario(countScenario("count", "[{reference: nope}]"), "ref.yaml", ::streamsim::test::testLoader());
  ASSERT_EQ(l.errors.size(), 1u) << l.errorText();
  EXPECT_EQ(l.errors[0].where.line, 18);
  EXPECT_NE(l.errors[0].message.find("unknown reference 'nope'; registered: count, simple_counter, test_items_received"),
            std::string::npos)
      << l.errors[0].message;
  ScenarioLoad bare = parseScenario(countScenario("count", "[reference]"), "ref.yaml", ::streamsim::test::testLoader());
  ASSERT_EQ(bare.errors.size(), 1u) << bare.errorText();
  EXPECT_NE(bare.errors[0].message.find("write {reference: NAME}"), std::string::npos) << bare.errorText();
}

// Generated workloads: the count workload (200 events, duplicates, late rows, landing faults,
// crashes with downtime) with the count reference over what the file source delivered.
TEST(Reference, TheCountWorkloadPassesWithItsReferenceInAGeneratedSweep) {
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  c.oracleArgs.set("reference", "function", *ReferenceSet().function("count"));
  c.oracleArgs.set("reference", "name", std::string("count"));
  int withDowntime = 0;
  for (uint64_t s = 0; s < 40; ++s) {
    ScenarioRunResult r = testing::seedRun(c, s);
    ASSERT_TRUE(r.passed()) << "seed " << s << ":\n" << r.report();
    EXPECT_GE(r.oracleChecks, 2);
    if (r.downtimeMs > 0) ++withDowntime;
  }
  EXPECT_GT(withDowntime, 0);
}

TEST(Reference, CallsCountedAsRowsAreCaughtInAGeneratedWorkload) {
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCustom);
  c.name = "calls_as_rows";
  c.processor = [] { return std::make_unique<CallsAsRows>(); };
  c.outputSchema = "key string, count long";
  c.oracleArgs.set("reference", "function", *ReferenceSet().function("count"));
  c.oracleArgs.set("reference", "name", std::string("count"));
  c.oracles = {"exactly_once", "reference"};
  ScenarioRunResult r = testing::seedRun(c, 1);
  ASSERT_EQ(r.violations.size(), 1u) << r.report();
  EXPECT_EQ(r.violations[0].oracle, "reference");
}

// batch_split under a sweep: the other cut is drawn from the seed's stream "batch_cut" and named
// in the violation (the replay line's --seed reproduces it); the built-in count passes every cut.
TEST(BatchSplitPerSeed, TheCutVariesBySeedAndTheViolationNamesIt) {
  Scenario buggy = load(countScenario("test_ref_calls_as_rows", "[batch_split]"));
  Scenario count = load(countScenario("count", "[batch_split]"));
  std::set<std::string> cuts;
  int caught = 0;
  for (uint64_t s = 1; s <= 12; ++s) {
    auto r = runScenarioSeed(buggy, s, sim::FaultPlan{});
    for (const auto& v : r.violations) {
      ASSERT_EQ(v.oracle, "batch_split");
      EXPECT_NE(v.message.find(fmt::format("(the cut of seed {})", s)), std::string::npos) << v.message;
      cuts.insert(v.message.substr(v.message.find("the other batching: ")));
      ++caught;
    }
    auto again = runScenarioSeed(buggy, s, sim::FaultPlan{});
    EXPECT_EQ(again.violations.size(), r.violations.size()) << "seed " << s;  // the same cut
    EXPECT_TRUE(runScenarioSeed(count, s, sim::FaultPlan{}).passed()) << "seed " << s;
  }
  EXPECT_GE(caught, 3);
  EXPECT_GE(cuts.size(), 2u);
}

TEST(BatchSplitPerSeed, GeneratedCountWorkloadPassesEveryCut) {
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  RunOptions o;
  o.batchSplit = true;
  for (uint64_t s = 0; s < 15; ++s) {
    ScenarioRunResult r = testing::seedRun(c, s, o);
    ASSERT_TRUE(r.passed()) << "seed " << s << ":\n" << r.report();
  }
  WorkloadConfig buggy = ::streamsim::test::testWorkload(WorkloadKind::kCustom);
  buggy.processor = [] { return std::make_unique<CallsAsRows>(); };
  buggy.outputSchema = "key string, count long";
  buggy.oracles = {"batch_split"};
  int caught = 0;
  for (uint64_t s = 0; s < 6; ++s) {
    ScenarioRunResult r = testing::seedRun(buggy, s, o);
    for (const auto& v : r.violations) {
      EXPECT_NE(v.message.find(fmt::format("(the cut of seed {})", s)), std::string::npos) << v.message;
      ++caught;
    }
  }
  EXPECT_GE(caught, 3);
}

TEST(StateBoundPerKey, AListThatGrowsForAKeyIsCaughtWithoutExpectedRows) {
  auto r = runScenario(load(countScenario("test_leaky_history_count", "[{state_bound: {per_key: 3}}, {reference: count}]")));
  ASSERT_EQ(violated(r), std::vector<std::string>{"state_bound"}) << r.report();
  EXPECT_EQ(r.violations[0].key, "operator 0 key [a]");
  EXPECT_NE(r.violations[0].message.find("6 state rows"), std::string::npos) << r.report();  // 5 + the count
}

TEST(StateBoundPerKey, TheBuiltInCountHoldsOneRowPerKeyUnderFaults) {
  Scenario sc = load(countScenario("count", "[{state_bound: {per_key: 1, total: 3}}]"));
  ASSERT_TRUE(sc.oracleArgs.integer("state_bound", "total") && sc.oracleArgs.integer("state_bound", "per_key"));
  EXPECT_TRUE(runScenario(sc).passed()) << runScenario(sc).report();
  expectSweepPasses(sc, 30);
}

TEST(StateBoundPerKey, GeneratedWorkloads) {
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  c.oracleArgs.set("state_bound", "per_key", int64_t{1});
  for (uint64_t s = 0; s < 20; ++s) {
    ScenarioRunResult r = testing::seedRun(c, s);
    ASSERT_TRUE(r.passed()) << "seed " << s << ":\n" << r.report();
  }
  WorkloadConfig leaky = ::streamsim::test::testWorkload(WorkloadKind::kCustom);
  leaky.processor = [] { return std::make_unique<LeakyHistoryCount>(); };
  leaky.outputSchema = "key string, count long";
  leaky.oracleArgs.set("state_bound", "per_key", int64_t{10});
  leaky.oracles = {"state_bound"};
  ScenarioRunResult r = testing::seedRun(leaky, 1);
  ASSERT_EQ(r.violations.size(), 1u) << r.report();
  EXPECT_EQ(r.violations[0].oracle, "state_bound");
}

TEST(StateBoundPerKey, BadShapesAreLoadErrors) {
  ScenarioLoad l = parseScenario(countScenario("count", "[{state_bound: {per_key: -1}}]"), "b.yaml", ::streamsim::test::testLoader());
  EXPECT_FALSE(l.ok());
  ScenarioLoad k = parseScenario(countScenario("count", "[{state_bound: {perkey: 1}}]"), "b.yaml", ::streamsim::test::testLoader());
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.errorText().find("perkey"), std::string::npos) << k.errorText();
  ScenarioLoad e = parseScenario(countScenario("count", "[{state_bound: {}}]"), "b.yaml", ::streamsim::test::testLoader());
  EXPECT_FALSE(e.ok());
}

}  // namespace
}  // namespace streamsim::harness

// This file's reference, handed to its runs (test_registries.h).
void streamsim::test::addTestRegistries(harness::RunRegistries& registries) {
  registries.references.add("test_items_received", harness::itemsReceived);
}

// This file's processors, handed to its runs next to the example ones (test_registries.h).
void streamsim::test::addTestProcessors(ProcessorSet& set) {
  set.add("test_append_expects_refresh", processorFactoryOf<harness::AppendExpectsRefresh>());
  set.add("test_put_restamps_all", processorFactoryOf<harness::PutRestampsAll>());
  set.add("test_ref_calls_as_rows", processorFactoryOf<harness::CallsAsRows>());
  set.add("test_leaky_history_count", processorFactoryOf<harness::LeakyHistoryCount>());
}
