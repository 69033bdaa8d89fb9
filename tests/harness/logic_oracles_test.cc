// The oracles for a processor's own logic (issue 13; oracles/logic.h, docs/oracles.md): each
// catches a planted bug of the kind real transformWithState users write WITHOUT any expected
// rows in the scenario, and stays quiet for the correct processor and for every scenario of
// scenarios/. The planted processors are registered here, in this test binary only.
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "harness/scenario_test_support.h"
#include <nlohmann/json.hpp>

#include "streamsim/harness/foreach_writers.h"
#include "streamsim/harness/oracles/logic.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

Scenario load(const std::string& yaml) { return harness::load(yaml, "logic.yaml"); }

// A heartbeat that registers a timer per input batch without deleting the previous one: its
// timers pile up and each fires a "missing" row (the correct one is the built-in heartbeat).
class LeakyHeartbeat final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row&, RowRange, const TimerValues& tv, Output&) override {
    getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 10'000);
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo&,
                          Output& out) override {
    out.emit(Row{{"device", key[0]}, {"status", "missing"}});
  }
};

// Counts handleInputRows calls as if they were rows (one call per key per batch assumed to be
// one row).
class CallsAsRows final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override { n_ = h.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    n_.update(n_.get() + 1);
    out.emit(Row{{"key", key[0]}, {"count", n_.get()}});
  }

 private:
  ValueState<int64_t> n_;
};

// Counts rows in a process-wide cache instead of its state: right in a fresh process, wrong
// in any run after another.
class StaticCacheCount final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    static std::map<std::string, int64_t> cache;
    int64_t& n = cache[key[0].toString()];
    n += static_cast<int64_t>(rows.size());
    out.emit(Row{{"key", key[0]}, {"count", n}});
  }
};

// Keeps the running count in a member carried from one key to the next in a task.
class MemberAcrossKeys final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override { n_ = h.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    carried_ += static_cast<int64_t>(rows.size());
    n_.update(carried_);
    out.emit(Row{{"key", key[0]}, {"count", carried_}});
  }

 private:
  ValueState<int64_t> n_;
  int64_t carried_ = 0;
};

// A user's ForeachWriter that applies every row it is given, whatever the epoch: a batch re-run
// after a crash is applied twice.
class AppendingWriter final : public ForeachWriter {
 public:
  bool open(int64_t, int64_t) override { return true; }
  void process(const Row&) override {}
  void close(const Status&) override {}
};

// Spark's idempotent-writer recipe: remembers the (partition, epoch) pairs it completed and
// declines them when a batch is re-run.
class IdempotentWriter final : public ForeachWriter {
 public:
  bool open(int64_t partition, int64_t epoch) override {
    current_ = {partition, epoch};
    return done_.count(current_) == 0;
  }
  void process(const Row&) override {}
  void close(const Status& error) override {
    if (error.ok()) done_.insert(current_);
  }

 private:
  std::set<std::pair<int64_t, int64_t>> done_;
  std::pair<int64_t, int64_t> current_;
};

// A heartbeat-shaped scenario: two devices, input 3 s apart, then silence. No expected rows.
std::string heartbeatScenario(const std::string& processor, const std::string& oracles) {
  return R"(
name: heartbeat without expected rows
query:
  source: {kind: memory, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: )" + processor + R"(, outputMode: update, timeMode: ProcessingTime}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{device: d1}, {device: d2}]
  - run: 1
  - advance: 3s
  - add_rows: [{device: d1}]
  - run: 1
  - advance: 20s
  - run: 1
oracles: )" + oracles + "\n";
}

// A count-shaped scenario: three keys over three batches. No expected rows.
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
  shufflePartitions: 1
steps:
  - add_rows: [{key: a}, {key: a}, {key: b}]
  - run: 1
  - add_rows: [{key: a}, {key: c}]
  - run: 1
  - add_rows: [{key: b}, {key: b}, {key: c}]
  - run: 1
oracles: )" + oracles + "\n";
}

TEST(TimerBound, ATimerLeakIsCaughtWithoutExpectedRows) {
  auto r = runScenario(load(heartbeatScenario("test_leaky_heartbeat", "[{timer_bound: 1}]")));
  ASSERT_EQ(violated(r), std::vector<std::string>{"timer_bound"}) << r.report();
  EXPECT_EQ(r.violations[0].batch, 1);
  EXPECT_EQ(r.violations[0].key, R"({"device":"d1"})");
  EXPECT_NE(r.violations[0].message.find("2 pending timers"), std::string::npos) << r.report();
  EXPECT_EQ(r.violations[0].events.size(), 2u);  // the two registrations
}

TEST(TimerBound, TheBuiltInHeartbeatKeepsOneTimerPerKeyUnderFaults) {
  Scenario sc = load(heartbeatScenario("heartbeat", "[{timer_bound: 1}, timers]"));
  auto r = runScenario(sc);
  EXPECT_TRUE(r.passed()) << r.report();
  expectSweepPasses(sc, 30);
}

TEST(TimerBound, TheCheckCountsOnlyPendingTimers) {
  auto line = [](const char* ev, int64_t ts) {
    return fmt::format(R"({{"event":"{}","operator":0,"batch":0,"partition":0,"key":{{"k":"a"}},"ts":{}}})", ev, ts);
  };
  CommittedBatch b;
  b.batch = 0;
  for (auto [ev, ts] : std::vector<std::pair<const char*, int64_t>>{
           {"tws.timer_registered", 5}, {"tws.timer_registered", 6}, {"tws.timer_deleted", 5}}) {
    b.lines.push_back(line(ev, ts));
    b.events.push_back(nlohmann::json::parse(b.lines.back()));
  }
  EXPECT_FALSE(checkTimerBound({b}, 1).has_value());
  auto v = checkTimerBound({b}, 0);
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->key, R"({"k":"a"})");
}

TEST(BatchSplit, CallsCountedAsRowsAreCaughtWithoutExpectedRows) {
  auto r = runScenario(load(countScenario("test_calls_as_rows", "[batch_split]")));
  ASSERT_EQ(violated(r), std::vector<std::string>{"batch_split"}) << r.report();
}

TEST(BatchSplit, AMemberCarriedAcrossKeysIsCaughtWithoutExpectedRows) {
  auto r = runScenario(load(countScenario("test_member_across_keys", "[batch_split]")));
  // partitioning (on by default: one shuffle partition against two) sees it too.
  ASSERT_EQ(violated(r), (std::vector<std::string>{"batch_split", "partitioning"})) << r.report();
}

TEST(BatchSplit, TheBuiltInCountIsSplitInvariantUnderFaults) {
  Scenario sc = load(countScenario("count", "[batch_split, exactly_once]"));
  auto r = runScenario(sc);
  EXPECT_TRUE(r.passed()) << r.report();
  expectSweepPasses(sc, 30);
}

TEST(ProcessIsolation, AProcessWideCacheIsCaughtWithoutExpectedRows) {
  // determinism and partitioning, on by default, see the cache too: their second run starts from
  // the first's.
  const std::vector<std::string> both = {"determinism", "process_isolation", "partitioning"};
  auto r = runScenario(load(countScenario("test_static_cache_count", "[process_isolation]")));
  ASSERT_EQ(violated(r), both) << r.report();
  EXPECT_NE(r.violations[1].message.find("static or process-wide cache"), std::string::npos);
  // The oracle runs the other case itself: the same verdict on a second try (exact replay).
  auto again = runScenario(load(countScenario("test_static_cache_count", "[process_isolation]")));
  EXPECT_EQ(violated(again), both);
}

TEST(ProcessIsolation, TheBuiltInCountIsIsolatedUnderFaults) {
  Scenario sc = load(countScenario("count", "[process_isolation]"));
  auto r = runScenario(sc);
  EXPECT_TRUE(r.passed()) << r.report();
  expectSweepPasses(sc, 30);
}

// A count into a user's ForeachWriter, with a crash after the sink wrote batch 1 and before its
// commit (the batch is re-run with the same epoch). No expected rows.
std::string foreachScenario(const std::string& writer) {
  return R"(
name: a user's foreach writer under a crash
query:
  source: {kind: memory, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: foreach, writer: )" + writer + R"(}
  outputMode: update
  shufflePartitions: 2
steps:
  - add_rows: [{device: d1}]
  - run: 1
  - add_rows: [{device: d2}, {device: d3}]
  - crash: {at: commits.before_write, batch: 1}
  - run: 1
  - restart: {}
  - run: available
oracles: [exactly_once]
sweep: {crash_points: all, max_crashes: 2}
)";
}

TEST(ForeachWriter, ANonIdempotentUserWriterNamedInYamlIsCaughtByExactlyOnce) {
  auto r = runScenario(load(foreachScenario("test_appending_writer")));
  ASSERT_EQ(violated(r), std::vector<std::string>{"exactly_once"}) << r.report();
  EXPECT_NE(r.violations[0].message.find("duplicate"), std::string::npos) << r.report();
}

TEST(ForeachWriter, AnIdempotentUserWriterPassesUnderFaults) {
  Scenario sc = load(foreachScenario("test_idempotent_writer"));
  auto r = runScenario(sc);
  EXPECT_TRUE(r.passed()) << r.report();
  expectSweepPasses(sc, 30);
}

TEST(ForeachWriter, AnUnknownWriterIsAnErrorAtItsLine) {
  ScenarioLoad l = parseScenario(foreachScenario("no_such_writer"), "w.yaml", ::streamsim::test::testLoader());
  ASSERT_EQ(l.errors.size(), 1u) << l.errorText();
  EXPECT_EQ(l.errors[0].where.line, 8);
  EXPECT_NE(l.errors[0].message.find("no ForeachWriter named 'no_such_writer'"), std::string::npos);
  EXPECT_NE(l.errors[0].message.find("test_appending_writer"), std::string::npos);
}

// Every scenario of the library with process_isolation added passes (a plain run): no engine or
// built-in processor keeps data across runs.
TEST(ProcessIsolation, EveryLibraryScenarioPasses) {
  int checked = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(
           std::string(STREAMSIM_SOURCE_DIR) + "/scenarios")) {
    if (e.path().extension() != ".yaml" || e.path().string().find("/python/") != std::string::npos)
      continue;
    auto sc = loadScenario(e.path().string(), ::streamsim::test::testLoader());
    ASSERT_TRUE(sc.ok()) << e.path() << ": " << sc.status().message();
    sc->oracles = {"process_isolation"};
    auto r = runScenario(*sc);
    EXPECT_TRUE(violated(r).empty()) << e.path() << ":\n" << r.report();
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

}  // namespace
}  // namespace streamsim::harness

// This file's ForeachWriters, handed to its runs (test_registries.h).
void streamsim::test::addTestRegistries(harness::RunRegistries& registries) {
  registries.foreachWriters.add<harness::AppendingWriter>("test_appending_writer");
  registries.foreachWriters.add<harness::IdempotentWriter>("test_idempotent_writer");
}

// This file's processors, handed to its runs next to the example ones (test_registries.h).
void streamsim::test::addTestProcessors(ProcessorSet& set) {
  set.add("test_leaky_heartbeat", processorFactoryOf<harness::LeakyHeartbeat>());
  set.add("test_calls_as_rows", processorFactoryOf<harness::CallsAsRows>());
  set.add("test_static_cache_count", processorFactoryOf<harness::StaticCacheCount>());
  set.add("test_member_across_keys", processorFactoryOf<harness::MemberAcrossKeys>());
}
