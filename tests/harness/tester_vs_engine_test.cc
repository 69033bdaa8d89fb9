// The ProcessorTester and the engine agree: RapidCheck feeds the same rows and times to a
// ProcessorTester and to a one-partition query (memory source, memory sink, virtual clock) and
// compares the rows of every step and, at the end, every state variable and timer of every key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
// RapidCheck's Shrinkable trips a GCC -O2 false positive (-Wmaybe-uninitialized) when
// instantiated here.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/harness/processor_tester.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness {
namespace tester_vs_engine_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

// Uses every state type, TTL and timers: per input row appends its value to a list (TTL 20 s),
// counts rows in a value (TTL 15 s), counts values in a map; each batch with input re-registers a
// timer 10 s ahead (deleting the previous one); the timer emits what the key still holds.
class Mixed : public StatefulProcessor {
 public:
  explicit Mixed(DurationMs countTtl = 15'000) : count_ttl_(countTtl) {}
  void init(StatefulProcessorHandle& h) override {
    count_ = h.getValueState<int64_t>("count", TTLConfig{count_ttl_});
    values_ = h.getListState<int64_t>("values", TTLConfig{20'000});
    seen_ = h.getMapState<int64_t, int64_t>("seen");
    timer_ = h.getValueState<int64_t>("timer");
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    int64_t n = count_.get();
    for (const Row& r : rows) {
      int64_t v = r.get("v").asLong();
      ++n;
      values_.appendValue(v);
      seen_.updateValue(v, seen_.getValue(v).value_or(0) + 1);
    }
    count_.update(n);
    if (timer_.exists()) getHandle().deleteTimer(timer_.get());
    timer_.update(tv.getCurrentProcessingTimeInMs() + 10'000);
    getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 10'000);
    out.emit(Row{{"key", key[0]}, {"count", n}, {"values", int64_t(values_.get().size())},
                 {"distinct", int64_t(seen_.keys().size())}});
  }
  void handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo& info,
                          Output& out) override {
    timer_.clear();
    out.emit(Row{{"key", key[0]}, {"fired", info.getExpiryTimeInMs()},
                 {"at", tv.getCurrentProcessingTimeInMs()}, {"count_alive", count_.exists()},
                 {"values", int64_t(values_.get().size())}});
  }

 private:
  DurationMs count_ttl_;
  ValueState<int64_t> count_;
  ListState<int64_t> values_;
  MapState<int64_t, int64_t> seen_;
  ValueState<int64_t> timer_;
};

const std::vector<std::string> kKeys = {"a", "b", "c"};

struct Step {
  bool advance = false;
  DurationMs by = 0;       // advance
  int key = 0;             // input: index into kKeys
  std::vector<int> values; // input: one row per value
};

std::string show(const Step& s) {
  if (s.advance) return "advance " + std::to_string(s.by);
  std::string out = "input " + kKeys[static_cast<size_t>(s.key)] + " [";
  for (int v : s.values) out += std::to_string(v) + " ";
  return out + "]";
}

TransformWithStateSpec mixedSpec() {
  TransformWithStateSpec spec;
  spec.groupBy = {"key"};
  spec.processorFactory = [] { return std::make_unique<Mixed>(); };
  spec.processorName = "mixed";
  spec.timeMode = TimeMode::kProcessingTime;
  return spec;
}

TesterOptions mixedOptions() {
  TesterOptions o;
  o.groupBy = {"key"};
  o.timeMode = TimeMode::kProcessingTime;
  o.outputMode = OutputMode::kUpdate;
  return o;
}

#define AGREE_CHECK(cond, what)                                              \
  do {                                                                       \
    if (!(cond)) return log + "FAILED: " + (what) + " (" #cond ")\n";       \
  } while (0)

// Runs the steps on both sides; returns "" when they agree, else a log ending in the difference.
// `testerTtl` is the count TTL on the tester's side (the engine always uses 15 s): a different
// value must make the check fail.
std::string checkAgree(const std::vector<Step>& steps, DurationMs testerTtl = 15'000) {
  std::string log;
  ProcessorTester<Mixed> tester([testerTtl] { return std::make_unique<Mixed>(testerTtl); },
                                mixedOptions());

  SimEnv sim;
  auto input = std::make_shared<MemoryStreamData>();
  auto sink = std::make_shared<MemorySinkData>();
  auto writer = readStream(makeMemorySource(input))
                    .transform([] { return makeTransformWithState(mixedSpec()); })
                    .writeStream();
  writer.sink(makeMemorySink(sink))
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", "/chk")
      .option("spark.sql.shuffle.partitions", "1");
  AGREE_CHECK(sim.start(writer).ok(), "start the query");

  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    log += "step " + std::to_string(i) + ": " + show(s) + "\n";
    Result<std::vector<Row>> expected = std::vector<Row>{};
    if (s.advance) {
      sim.clock().advance(s.by);
      expected = tester.setProcessingTime(sim.clock().nowMs());
    } else {
      std::vector<Row> rows;
      for (int v : s.values)
        rows.push_back(Row{{"key", kKeys[static_cast<size_t>(s.key)]}, {"v", int64_t{v}}});
      AGREE_CHECK(input->addData(rows).ok(), "addData");
      expected = tester.test(kKeys[static_cast<size_t>(s.key)], rows);
    }
    AGREE_CHECK(expected.ok(), "tester: " + expected.status().toString());
    auto before = sink->latestBatchId();
    auto ran = sim.query()->triggerOnce();
    AGREE_CHECK(ran.ok(), "engine: " + ran.status().toString());
    std::vector<Row> actual;
    auto after = sink->latestBatchId();
    if (after && (!before || *after > *before)) actual = *sink->batch(*after);
    RowDiff d = diffRows(expected.value(), actual, RowOrder::kInOrder);
    AGREE_CHECK(d.equal, "rows differ (expected = tester, actual = engine):\n" + d.report);
  }

  // Final state: the tester's own against a tester attached to the query's checkpoint.
  TesterOptions attached = mixedOptions();
  attached.fileSystem = &sim.fs();
  attached.checkpointRoot = "/chk";
  attached.firstBatchId = sim.query()->nextBatchId();
  attached.processingTimeMs = tester.processingTime();
  ProcessorTester<Mixed> engineState(attached);
  for (const std::string& key : kKeys) {
    for (const char* var : {"count", "values", "seen", "timer"}) {
      auto mine = tester.peekRaw(key, var);
      auto theirs = engineState.peekRaw(key, var);
      std::string where = "final state of " + key + "." + var;
      AGREE_CHECK(mine.ok(), where + ": tester: " + mine.status().toString());
      AGREE_CHECK(theirs.ok(), where + ": engine: " + theirs.status().toString());
      AGREE_CHECK(mine->value == theirs->value, where);
      AGREE_CHECK(mine->list == theirs->list, where);
      AGREE_CHECK(mine->entries == theirs->entries, where);
    }
    auto t1 = tester.listTimers(key);
    auto t2 = engineState.listTimers(key);
    AGREE_CHECK(t1.ok() && t2.ok() && t1.value() == t2.value(), "timers of " + key);
  }
  return "";
}

rc::Gen<Step> genStep() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange<int64_t>(0, 25'000),
                   [](int64_t by) {
                     Step s;
                     s.advance = true;
                     s.by = by;
                     return s;
                   }),
      rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 3),
                                 rc::gen::resize(4, rc::gen::nonEmpty(
                                                        rc::gen::container<std::vector<int>>(
                                                            rc::gen::inRange(0, 5))))),
                   [](const std::pair<int, std::vector<int>>& p) {
                     Step s;
                     s.key = p.first;
                     s.values = p.second;
                     return s;
                   }));
}

RC_GTEST_PROP(TesterVsEngine, SameRowsAndSameFinalState, ()) {
  auto steps = *rc::gen::resize(30, rc::gen::container<std::vector<Step>>(genStep()));
  std::string err = checkAgree(steps);
  RC_LOG() << err;
  RC_ASSERT(err.empty());
}

// A fixed case that walks through TTL expiry and timers, kept as a plain regression test.
TEST(TesterVsEngine, TtlAndTimersWalkthrough) {
  std::vector<Step> steps;
  auto in = [&](int key, std::vector<int> v) {
    Step s;
    s.key = key;
    s.values = std::move(v);
    steps.push_back(s);
  };
  auto adv = [&](DurationMs by) {
    Step s;
    s.advance = true;
    s.by = by;
    steps.push_back(s);
  };
  in(0, {1, 2});
  adv(5'000);
  in(1, {3});
  adv(5'000);   // a's timer at 10 s fires
  adv(5'000);   // t = 15 s: a's count expires now (expiresAt = 0 + 15 s, inclusive)
  in(0, {1});   // so the count restarts at 1
  adv(21'000);  // everything of a and b expired; timers fired
  in(2, {4, 4, 4});
  EXPECT_EQ(checkAgree(steps), "");
  // The check can fail: a tester whose processor keeps the count 1 ms longer disagrees.
  EXPECT_THAT(checkAgree(steps, 15'001), ::testing::HasSubstr("FAILED"));
}

// Breaks a handle rule (appendList({}): EMPTY_LIST), catches the error and carries on, emitting
// its row as if nothing happened.
class SwallowsEmptyList : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override { list_ = h.getListState<int64_t>("list"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    try {
      list_.appendList({});
    } catch (const StatefulProcessorError&) {
      // The bug: the processor carries on after a rule error.
    }
    out.emit(Row{{"key", key[0]}, {"rows", int64_t(rows.size())}});
  }

 private:
  ListState<int64_t> list_;
};

// Regression (issue 13): the tester's state adapters did not record a broken rule, so a
// processor that caught EMPTY_LIST passed test() while the same processor failed its task in a
// query. Both must fail, naming the rule.
TEST(TesterVsEngine, ASwallowedRuleErrorFailsTheTesterAsItFailsTheQuery) {
  ProcessorTester<SwallowsEmptyList> tester;
  auto tested = tester.test("a", {Row{{"v", int64_t{1}}}});
  ASSERT_FALSE(tested.ok());
  EXPECT_THAT(tested.status().toString(), ::testing::HasSubstr("ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE"));
  EXPECT_EQ(tester.nextBatchId(), 0);  // the batch was not committed

  SimEnv sim;
  auto input = std::make_shared<MemoryStreamData>();
  auto sink = std::make_shared<MemorySinkData>();
  auto writer = readStream(makeMemorySource(input))
                    .transform([] {
                      TransformWithStateSpec spec;
                      spec.groupBy = {"key"};
                      spec.processorFactory = [] { return std::make_unique<SwallowsEmptyList>(); };
                      spec.processorName = "swallows_empty_list";
                      return makeTransformWithState(std::move(spec));
                    })
                    .writeStream();
  writer.sink(makeMemorySink(sink))
      .outputMode(OutputMode::kAppend)
      .option("checkpointLocation", "/chk")
      .option("spark.sql.shuffle.partitions", "1");
  ASSERT_TRUE(sim.start(writer).ok());
  ASSERT_TRUE(input->addData({Row{{"key", "a"}, {"v", int64_t{1}}}}).ok());
  auto ran = sim.query()->triggerOnce();
  ASSERT_FALSE(ran.ok());
  EXPECT_THAT(ran.status().toString(), ::testing::HasSubstr("ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE"));
  // The same code and message on both sides.
  EXPECT_EQ(tested.status().code(), ran.status().code());
  EXPECT_EQ(tested.status().condition(), ran.status().condition());
}

}  // namespace
}  // namespace tester_vs_engine_test
}  // namespace streamsim::harness
