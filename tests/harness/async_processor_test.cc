// Async processors (seed 000, async_processor.h): every awaited state and timer operation on
// both state stores through ProcessorTester, whenAll and async sequences, outside services in
// virtual time, concurrency of keys under a planned context switch, state-operation errors that
// fail the task without reaching the processor's code, and the sync <-> async switch on one
// checkpoint.
#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "streamsim/harness/actions.h"
#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/harness/processor_tester.h"
#include "streamsim/processors/async.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/sim/planned_scheduler.h"
#include "streamsim/sim/random.h"
#include "streamsim/sim/simulated_service.h"
#include "streamsim/tws/transform_with_state.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace async_processor_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

using ::testing::HasSubstr;

Row click() { return Row{{"value", "x"}}; }

template <class T>
std::string joined(const std::vector<T>& v) {
  std::string out;
  for (const T& x : v) out += (out.empty() ? "" : ",") + fmt::format("{}", x);
  return out;
}

// Every awaited operation, in order, written to one log column.
class AllOpsProcessor : public AsyncStatefulProcessor {
 public:
  Task<> init(AsyncStatefulProcessorHandle& handle) override {
    handle_ = &handle;
    v_ = handle.getValueState<int64_t>("v");
    l_ = handle.getListState<int64_t>("l");
    m_ = handle.getMapState<std::string, int64_t>("m");
    co_return;
  }

  Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    // (Each co_await on a line of its own: GCC 12 cannot keep a temporary array — a format
    // string literal, an initializer list — in a coroutine frame across a suspension.)
    std::vector<std::string> log;
    auto add = [&](std::string s) { log.push_back(std::move(s)); };
    auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
    // ValueState
    bool b = co_await v_.exists();
    add("v.exists=" + flag(b));
    std::optional<int64_t> opt = co_await v_.getOption();
    add("v.getOption=" + flag(opt.has_value()));
    int64_t n = co_await v_.get();
    add("v.get=" + std::to_string(n));
    co_await v_.update(5);
    b = co_await v_.exists();
    n = co_await v_.get();
    add("v.exists=" + flag(b) + " v.get=" + std::to_string(n));
    co_await v_.clear();
    b = co_await v_.exists();
    add("v.exists=" + flag(b));
    // ListState
    b = co_await l_.exists();
    add("l.exists=" + flag(b));
    // (Lists built before the await: an initializer list's backing array cannot live across
    // a suspension in GCC 12 either.)
    std::vector<int64_t> first = {1, 2}, more = {4, 5};
    co_await l_.put(first);
    co_await l_.appendValue(3);
    co_await l_.appendList(more);
    {
      auto seq = l_.get();
      std::vector<int64_t> items;
      while (auto x = co_await seq.next()) items.push_back(*x);
      add("l.get=" + joined(items));
    }
    std::vector<int64_t> all = co_await l_.get().toVector();
    add("l.toVector=" + joined(all));
    co_await l_.clear();
    b = co_await l_.exists();
    add("l.exists=" + flag(b));
    co_await l_.appendValue(9);
    // MapState
    b = co_await m_.exists();
    add("m.exists=" + flag(b));
    co_await m_.updateValue("b", 2);
    co_await m_.updateValue("a", 1);
    std::optional<int64_t> va = co_await m_.getValue("a");
    std::optional<int64_t> vz = co_await m_.getValue("z");
    add("m.getValue(a)=" + std::to_string(*va) + " m.getValue(z)=" + flag(vz.has_value()));
    b = co_await m_.containsKey("b");
    add("m.containsKey(b)=" + flag(b));
    {
      std::vector<std::string> entries;
      auto it = m_.iterator();
      while (auto e = co_await it.next()) entries.push_back(e->first + "=" + std::to_string(e->second));
      add("m.iterator=" + joined(entries));
    }
    std::vector<std::string> keys = co_await m_.keys().toVector();
    add("m.keys=" + joined(keys));
    std::vector<int64_t> values = co_await m_.values().toVector();
    add("m.values=" + joined(values));
    co_await m_.removeKey("a");
    keys = co_await m_.keys().toVector();
    add("m.keys=" + joined(keys));
    co_await m_.clear();
    b = co_await m_.exists();
    add("m.exists=" + flag(b));
    co_await m_.updateValue("c", 3);
    // Timers
    co_await handle_->registerTimer(1000);
    co_await handle_->registerTimer(2000);
    std::vector<TimeMs> timers = co_await handle_->listTimers().toVector();
    add("timers=" + joined(timers));
    co_await handle_->deleteTimer(1000);
    timers = co_await handle_->listTimers().toVector();
    add("timers=" + joined(timers));
    // whenAll of two reads
    std::vector<Task<int64_t>> reads;
    reads.push_back(readValue());
    reads.push_back(mapSize());
    std::vector<int64_t> gathered = co_await whenAll(std::move(reads));
    add("whenAll=" + joined(gathered));
    co_await v_.update(static_cast<int64_t>(rows.size()));
    out.emit(Row{{"key", key[0]}, {"log", joined(log)}});
  }

  Task<> handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo& info,
                            Output& out) override {
    std::vector<TimeMs> timers = co_await handle_->listTimers().toVector();
    out.emit(Row{{"key", key[0]}, {"fired", info.getExpiryTimeInMs()}, {"listed", joined(timers)}});
  }

 private:
  Task<int64_t> readValue() { co_return (co_await v_.getOption()).value_or(-1); }
  Task<int64_t> mapSize() { co_return static_cast<int64_t>((co_await m_.keys().toVector()).size()); }

  AsyncStatefulProcessorHandle* handle_ = nullptr;
  AsyncValueState<int64_t> v_;
  AsyncListState<int64_t> l_;
  AsyncMapState<std::string, int64_t> m_;
};

const char* kAllOpsLog =
    "v.exists=false,v.getOption=false,v.get=0,v.exists=true v.get=5,v.exists=false,"
    "l.exists=false,l.get=1,2,3,4,5,l.toVector=1,2,3,4,5,l.exists=false,"
    "m.exists=false,m.getValue(a)=1 m.getValue(z)=false,m.containsKey(b)=true,"
    "m.iterator=a=1,b=2,m.keys=a,b,m.values=1,2,m.keys=b,m.exists=false,"
    "timers=1000,2000,timers=2000,whenAll=-1,1";

class AsyncOnBothStores : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  TesterOptions options() const {
    TesterOptions o;
    o.timeMode = TimeMode::kProcessingTime;
    o.stateStore.kind = GetParam();
    return o;
  }
};

TEST_P(AsyncOnBothStores, EveryAwaitedOperationActsOnTheKeysState) {
  ProcessorTester<AllOpsProcessor> tester(options());
  EXPECT_THAT(tester.test("a", {click(), click()}),
              EmitsRows({Row{{"key", "a"}, {"log", kAllOpsLog}}}));
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("a", "v")), std::optional<int64_t>(2));
  EXPECT_EQ(valueOrFail(tester.peekListState<int64_t>("a", "l")), std::vector<int64_t>{9});
  EXPECT_EQ((valueOrFail(tester.peekMapState<std::string, int64_t>("a", "m"))),
            (std::vector<std::pair<std::string, int64_t>>{{"c", 3}}));
  EXPECT_EQ(valueOrFail(tester.listTimers("a")), std::vector<TimeMs>{2000});
  // Another key sees none of it.
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("b", "v")), std::nullopt);
  // The timer fires (listTimers in its handler includes it) and is gone afterwards.
  EXPECT_THAT(tester.setProcessingTime(2000),
              EmitsRows({Row{{"key", "a"}, {"fired", int64_t{2000}}, {"listed", "2000"}}}));
  EXPECT_EQ(valueOrFail(tester.listTimers("a")), std::vector<TimeMs>{});
  // State survives a restart.
  ASSERT_THAT(tester.restart(), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("a", "v")), std::optional<int64_t>(2));
}

INSTANTIATE_TEST_SUITE_P(Stores, AsyncOnBothStores,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) {
                           return info.param == StateStoreKind::kMemory ? std::string("memory")
                                                                        : std::string("rocksdb");
                         });

TEST(AsyncProcessor, AsyncCountEmitsWhatTheSyncCountEmits) {
  ProcessorTester<processors::AsyncCountProcessor> async;
  ProcessorTester<processors::CountProcessor> sync;
  for (const char* key : {"a", "b", "a", "a"}) {
    auto a = async.test(key, {click(), click()});
    auto s = sync.test(key, {click(), click()});
    ASSERT_THAT(a, IsOk());
    ASSERT_THAT(s, IsOk());
    EXPECT_EQ(a.value(), s.value());
  }
  EXPECT_EQ(valueOrFail(async.peekValueState<int64_t>("a", "count")), std::optional<int64_t>(6));
}

TEST(AsyncProcessor, RegistryCreatesAsyncProcessors) {
  auto tester = makeRegistryTester(*::streamsim::test::testProcessors(), "async_count", {.groupBy = {"action"}});
  ASSERT_THAT(tester, IsOk());
  EXPECT_THAT((*tester)->test("Open", {Row{{"time", int64_t{1}}}}),
              EmitsRows({Row{{"action", "Open"}, {"count", int64_t{1}}}}));
}

// Catches everything around its awaits: it must still never see a state-operation error.
int g_observed_errors = 0;
class CatchingProcessor : public AsyncStatefulProcessor {
 public:
  Task<> init(AsyncStatefulProcessorHandle& handle) override {
    count_ = handle.getValueState<int64_t>("count");
    list_ = handle.getListState<int64_t>("list");
    co_return;
  }
  Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t total = 0;
    try {
      total = (co_await count_.getOption()).value_or(0) + static_cast<int64_t>(rows.size());
      if (key[0].asString() == "empty") co_await list_.put({});  // EMPTY_LIST: a broken rule
      co_await count_.update(total);
    } catch (...) {
      ++g_observed_errors;
    }
    out.emit(Row{{"word", key[0]}, {"count", total}});
  }

 private:
  AsyncValueState<int64_t> count_;
  AsyncListState<int64_t> list_;
};

TEST(AsyncProcessor, ABrokenRuleInAStateOperationFailsTheBatchAndNeverReachesTheCode) {
  g_observed_errors = 0;
  ProcessorTester<CatchingProcessor> tester;
  EXPECT_THAT(tester.test("empty", {click()}), FailsWith("EMPTY_LIST"));
  EXPECT_EQ(g_observed_errors, 0);
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("empty", "count")), std::nullopt);
}

TEST(AsyncProcessor, AwaitingOutsideTheEngineIsAClearError) {
  processors::AsyncCountProcessor p;
  Output out;
  Row key{{"key", "a"}};
  std::vector<Row> rows;
  Task<> t = p.handleInputRows(key, RowRange(rows), TimerValues(0, 0), out);
  t.handle().resume();  // runs until the first await, which needs the engine
  ASSERT_TRUE(t.done());
  EXPECT_THROW(t.result(), std::logic_error);
}

// The runtime a coroutine runs under is its promise's (no process-wide slot): a Task a handler
// awaits inherits the handler's, but one it resumes by hand was started by no runtime, and its
// first state operation is the clear error even while the handler itself runs under one.
class HandResumingProcessor : public AsyncStatefulProcessor {
 public:
  Task<> init(AsyncStatefulProcessorHandle& handle) override {
    count_ = handle.getValueState<int64_t>("count");
    co_return;
  }
  Task<> handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    Task<int64_t> byHand = readCount();
    byHand.handle().resume();  // outside the runtime's knowledge: runs to its first await
    const bool refused = byHand.done() && threw(byHand);
    const int64_t awaited = co_await readCount();  // awaited: inherits this handler's runtime
    out.emit(Row{{"key", key[0]}, {"refused", refused}, {"awaited", awaited}});
  }

 private:
  Task<int64_t> readCount() { co_return co_await count_.get(); }
  static bool threw(Task<int64_t>& t) {
    try {
      t.result();
    } catch (const std::logic_error&) {
      return true;
    }
    return false;
  }
  AsyncValueState<int64_t> count_;
};

TEST(AsyncProcessor, ATaskResumedByHandInsideAHandlerHasNoRuntimeAnAwaitedOneInheritsIt) {
  ProcessorTester<HandResumingProcessor> tester;
  EXPECT_THAT(tester.test("a", {click()}),
              EmitsRows({Row{{"key", "a"}, {"refused", true}, {"awaited", int64_t{0}}}}));
}

// --- queries: concurrency of keys, planned switches, injected state-operation failures ---

using processors::RacyCountProcessor;

template <class P>
struct AsyncQuery {
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>();
  TestQuery query = memoryQuery(readStream(makeMemorySource(input))
                                    .transform([] {
                                      TransformWithStateSpec spec;
                                      spec.groupBy = {"word"};
                                      spec.processorFactory = [] {
                                        return asStatefulProcessor(std::make_unique<P>());
                                      };
                                      spec.processorName = "p";
                                      return makeTransformWithState(spec);
                                    })
                                    .writeStream()
                                    .outputMode(OutputMode::kUpdate)
                                    .option("checkpointLocation", "/chk")
                                    .option("taskRetries", "3")
                                    .option("spark.sql.shuffle.partitions", "1"));
};

Row word(const char* w) { return Row{{"word", w}}; }
Row count(const char* w, int64_t n) { return Row{{"word", w}, {"count", n}}; }

// Whether one line of the run's trace holds every one of `parts`.
bool traced(SimEnv& sim, std::initializer_list<std::string_view> parts) {
  for (const std::string& line : sim.trace().lines())
    if (std::all_of(parts.begin(), parts.end(),
                    [&](std::string_view p) { return line.find(p) != std::string::npos; }))
      return true;
  return false;
}

sim::FaultPlan oneSwitch() {
  sim::FaultPlan plan;
  plan.faults.push_back(sim::SwitchFault{0, 0, 0, 1});
  return plan;
}

TEST(AsyncQuery, WithoutSwitchesTheRacyProcessorCountsRight) {
  AsyncQuery<RacyCountProcessor> q;
  EXPECT_THAT(testStream(q.query, AddData{q.input, {word("a"), word("a"), word("b")}},
                         CheckAnswer{{count("a", 2), count("b", 1)}}),
              IsOk());
}

TEST(AsyncQuery, OneSwitchCorruptsTheSharedMemberAndTheTraceNamesIt) {
  AsyncQuery<RacyCountProcessor> q;
  SimEnvOptions withSwitch;
  withSwitch.faultPlan = oneSwitch();
  SimEnv sim(withSwitch);
  // Key a suspended at its first get; key b started and overwrote the member; a resumed.
  EXPECT_THAT(testStream(sim, q.query, AddData{q.input, {word("a"), word("a"), word("b")}},
                         CheckAnswer{{count("a", 1), count("b", 1)}}),
              IsOk());
  EXPECT_TRUE(traced(sim, {"\"tws.switch\"", "\"key\":{\"word\":\"b\"}",
                           "ValueState 'count'.getOption()"}));
}

TEST(AsyncQuery, TheSameSwitchLeavesACorrectProcessorCorrect) {
  AsyncQuery<processors::AsyncCountProcessor> q;
  SimEnvOptions withSwitch;
  withSwitch.faultPlan = oneSwitch();
  SimEnv sim(withSwitch);
  EXPECT_THAT(testStream(sim, q.query, AddData{q.input, {word("a"), word("a"), word("b")}},
                         CheckAnswer{{Row{{"word", "a"}, {"count", int64_t{2}}},
                                      Row{{"word", "b"}, {"count", int64_t{1}}}}}),
              IsOk());
}

// A gate one key's handler waits at and a later key's handler opens: a wait that no amount of
// virtual time ends (a Python asyncio.Lock held in `self` across keys is one). The waiter is made
// ready as its own call (AsyncRuntime::postFor).
class GateProcessor : public AsyncStatefulProcessor {
 public:
  Task<> init(AsyncStatefulProcessorHandle&) override { co_return; }
  Task<> handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    if (key[0] == Value("a")) {
      co_await GateWait{this};
    } else {
      open_ = true;
      streamsim::detail::AsyncRuntime& rt = co_await streamsim::detail::CurrentRuntime{};
      for (auto [call, h] : waiters_) rt.postFor(call, h);
      waiters_.clear();
    }
    out.emit(Row{{"word", key[0]}, {"count", int64_t{1}}});
  }

 private:
  struct GateWait {
    GateProcessor* p;
    bool await_ready() const { return p->open_; }
    template <class P>
    void await_suspend(std::coroutine_handle<P> h) {
      p->waiters_.emplace_back(streamsim::detail::runtimeOf(h).currentCall(), h);
    }
    void await_resume() const {}
  };
  bool open_ = false;
  std::vector<std::pair<size_t, std::coroutine_handle<>>> waiters_;
};

// Regression (bug scheduler_waits_for_what_no_time_brings): where the sequential run waits and
// nothing it waits for comes with time, a scheduler's "wait" ran the clock on an empty queue; the
// next other call runs instead, and the trace names that switch.
TEST(AsyncQuery, AWaitThatNoTimeEndsRunsTheNextKeyInstead) {
  AsyncQuery<GateProcessor> q;
  SimEnv sim;
  sim.recordSchedulingChoices();  // a scheduler without switches: at a wait it answers "wait"
  EXPECT_THAT(testStream(sim, q.query, AddData{q.input, {word("a"), word("b")}},
                         CheckAnswer{{count("a", 1), count("b", 1)}}),
              IsOk());
  EXPECT_TRUE(traced(sim, {"\"tws.switch\"", "\"instead_at\":\"wait\"", "\"key\":{\"word\":\"b\"}"}));
}

TEST(AsyncQuery, AFailedStateOperationFailsTheTaskWhichIsRetriedAndTheCodeNeverSeesIt) {
  g_observed_errors = 0;
  AsyncQuery<CatchingProcessor> q;
  sim::FaultPlan plan;
  plan.faults.push_back(sim::TaskFailureFault{"async.state_op", 0, -1, 1});
  SimEnvOptions withFailure;
  withFailure.faultPlan = plan;
  SimEnv sim(withFailure);
  EXPECT_THAT(testStream(sim, q.query, AddData{q.input, {word("a"), word("a"), word("b")}},
                         CheckAnswer{{count("a", 2), count("b", 1)}}),
              IsOk());
  EXPECT_EQ(g_observed_errors, 0);
  ASSERT_EQ(sim.injector().injected().size(), 1u);
  EXPECT_EQ(sim.injector().injected()[0].kind, "task_failure");
}

TEST(AsyncQuery, SyncAndAsyncCountShareOneCheckpoint) {
  auto input = std::make_shared<MemoryStreamData>();
  auto writerWith = [&](bool async) {
    return readStream(makeMemorySource(input))
        .transform([async] {
          TransformWithStateSpec spec;
          spec.groupBy = {"key"};
          spec.processorFactory = [async]() -> std::unique_ptr<StatefulProcessor> {
            if (async) return asStatefulProcessor(std::make_unique<processors::AsyncCountProcessor>());
            return std::make_unique<processors::CountProcessor>();
          };
          return makeTransformWithState(spec);
        })
        .writeStream()
        .outputMode(OutputMode::kUpdate)
        .option("checkpointLocation", "/chk");
  };
  SimEnv sim;
  auto sink = std::make_shared<MemorySinkData>();  // one sink for the three runs
  // sync -> async -> sync, each run continuing the counts of the one before.
  for (int run = 0; run < 3; ++run) {
    TestQuery q = memoryQuery(writerWith(run == 1), sink);
    EXPECT_THAT(testStream(sim, q, AddData{input, {Row{{"key", "k"}}}},
                           CheckLastBatch{{Row{{"key", "k"}, {"count", int64_t{run + 1}}}}},
                           StopStream{}),
                IsOk())
        << "run " << run;
  }
}

// --- outside services: gather overlaps the waits in virtual time ---

using processors::ScoreProcessor;

Task<double> fetch(const AsyncService& svc, int64_t id) {
  ServiceResponse resp = co_await svc.call(std::to_string(id));
  if (!resp.status.ok()) throw std::runtime_error(resp.status.message());
  co_return std::stod(resp.body);
}

Task<> fetchAll(const AsyncService& svc, bool gather, int n, std::vector<double>& out) {
  if (gather) {
    std::vector<Task<double>> calls;
    for (int i = 0; i < n; ++i) calls.push_back(fetch(svc, i));
    out = co_await whenAll(std::move(calls));
  } else {
    for (int i = 0; i < n; ++i) out.push_back(co_await fetch(svc, i));
  }
}

TEST(AsyncRuntime, GatheredCallsOverlapInVirtualTime) {
  auto run = [](bool gather) {
    sim::VirtualClock clock(0);
    sim::SimulatedServices services({{.name = "scoring", .minLatencyMs = 10, .maxLatencyMs = 10}}, 1);
    Env env;
    env.clock = &clock;
    env.services = &services;
    AsyncService svc("scoring", 0);
    std::vector<double> scores;
    streamsim::detail::runToCompletion(&env, fetchAll(svc, gather, 8, scores));
    return std::make_pair(scores, clock.nowMs());
  };
  auto [gathered, gatherTime] = run(true);
  auto [sequential, sequentialTime] = run(false);
  EXPECT_EQ(gathered, sequential);  // the same replies in the same order
  ASSERT_EQ(gathered.size(), 8u);
  EXPECT_EQ(gatherTime, 10);
  EXPECT_EQ(sequentialTime, 80);
}

TEST(AsyncRuntime, ATimeoutAndAnUnknownServiceAreAnswers) {
  sim::VirtualClock clock(0);
  sim::SimulatedServices services(
      {{.name = "slow", .minLatencyMs = 50, .maxLatencyMs = 50}}, 1);
  Env env;
  env.clock = &clock;
  env.services = &services;
  ServiceResponse timedOut, missing;
  auto body = [&]() -> Task<> {
    timedOut = co_await AsyncService("slow", 20).call("r");
    missing = co_await AsyncService("nope", 0).call("r");
  };
  streamsim::detail::runToCompletion(&env, body());
  EXPECT_TRUE(timedOut.timedOut);
  EXPECT_THAT(timedOut.status.message(), HasSubstr("did not answer within 20 ms"));
  EXPECT_EQ(missing.status.code(), Status::Code::kNotFound);
  EXPECT_EQ(clock.nowMs(), 20);
}

TEST(AsyncProcessor, TheScoringProcessorStoresTheBestScoreGatheredOrNot) {
  sim::SimulatedServices services({{.name = "scoring", .minLatencyMs = 5, .maxLatencyMs = 15}}, 7);
  std::vector<Row> rows;
  for (int i = 0; i < 5; ++i) rows.push_back(Row{{"event_id", int64_t{i}}});
  std::optional<std::vector<Row>> first;
  for (bool gather : {true, false}) {
    TesterOptions o;
    o.services = &services;
    ProcessorTester<ScoreProcessor> tester(
        [gather] { return std::make_unique<ScoreProcessor>(gather); }, o);
    auto out = tester.test("u", rows);
    ASSERT_THAT(out, IsOk());
    ASSERT_EQ(out.value().size(), 1u);
    if (!first) first = out.value();
    EXPECT_EQ(out.value(), *first);
    EXPECT_EQ(valueOrFail(tester.peekValueState<double>("u", "last_score")),
              std::optional<double>(out.value()[0].get("score").asDouble()));
  }
}

TEST(SwitchFaults, RoundTripThroughJsonAndComeFromTheirOwnStream) {
  sim::FaultPlan plan;
  plan.seed = 3;
  plan.faults.push_back(sim::SwitchFault{2, 1, 5, 2});
  auto back = sim::FaultPlan::fromJson(plan.toJson());
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, plan);
  EXPECT_EQ(sim::describe(plan.faults[0]), "switch at batch 2 partition 1 step 5 (candidate 2)");
  EXPECT_THAT(sim::FaultPlan::fromJson(R"({"faults":[{"type":"switch","batch":0,"partition":0,"step":0,"pick":0}]})"),
              FailsWith("pick must be >= 1"));
  // Turning switches on adds switches and leaves every other fault of the seed as it was.
  sim::FaultKnobs knobs;
  knobs.taskFailureProbability = 0.2;
  sim::FaultPlan without = sim::generateFaultPlan(sim::Random(11), knobs);
  knobs.switchProbability = 0.5;
  sim::FaultPlan with = sim::generateFaultPlan(sim::Random(11), knobs);
  EXPECT_FALSE(with.switches().empty());
  std::vector<sim::Fault> others;
  for (const sim::Fault& f : with.faults)
    if (!std::holds_alternative<sim::SwitchFault>(f)) others.push_back(f);
  EXPECT_EQ(others, without.faults);
}

TEST(PlannedScheduler, DeviatesOnlyAtItsStepsAndNeverPicksTheSequentialCandidate) {
  sim::PlannedScheduler s({sim::SwitchFault{0, 0, 1, 1}, sim::SwitchFault{0, 0, 2, 4}});
  std::vector<SchedulingCandidate> three(3);
  SchedulingPoint at{0, 0, 0, 0, "handleInputRows"};
  EXPECT_EQ(s.pick(at, three), 0u);
  at.step = 1;
  EXPECT_EQ(s.pick(at, three), 1u);
  at.step = 2;
  EXPECT_EQ(s.pick(at, three), 2u);  // 1 + (4 - 1) % 2
  at.partition = 1;
  EXPECT_EQ(s.pick(at, three), 0u);
  at.partition = 0;
  at.step = 1;
  at.sequentialWaits = true;
  EXPECT_EQ(s.pick(at, three), 0u);  // where the sequential run waits, candidate 0 is a deviation
  at.step = 7;
  EXPECT_EQ(s.pick(at, three), Scheduler::kWait);
  EXPECT_EQ(s.taken(), 3);
}

TEST(PlannedScheduler, RecordsEveryPlaceASwitchCouldBeTakenOnce) {
  sim::PlannedScheduler s({});
  std::vector<SchedulingCandidate> one(1), two(2);
  SchedulingPoint at;
  at.batch = 0;
  at.partition = 1;
  at.phase = "handleInputRows";
  EXPECT_EQ(s.pick(at, two), 0u);   // a choice: another key could run
  at.step = 1;
  EXPECT_EQ(s.pick(at, one), 0u);   // none: only the sequential candidate
  at.step = 2;
  at.sequentialWaits = true;
  EXPECT_EQ(s.pick(at, one), Scheduler::kWait);  // a choice: run it instead of waiting
  at.step = 0;
  at.sequentialWaits = false;
  EXPECT_EQ(s.pick(at, two), 0u);   // a re-run attempt meets the same choice
  EXPECT_EQ(s.taken(), 0);
  EXPECT_EQ(s.choices(), (std::vector<sim::SwitchTarget>{{0, 1, 0}, {0, 1, 2}}));
}

TEST(FaultPlanSwitches, AimAtTheChoicesOfTheFaultFreeRunWhenGiven) {
  sim::FaultKnobs knobs;
  knobs.maxCrashes = 0;
  knobs.switchProbability = 1;
  knobs.switchTargets = std::vector<sim::SwitchTarget>{{0, 0, 3}, {0, 0, 5}, {2, 1, 0}};
  for (uint64_t seed = 0; seed < 50; ++seed) {
    sim::FaultPlan p = sim::generateFaultPlan(sim::Random(seed), knobs);
    ASSERT_FALSE(p.switches().empty());
    for (const sim::SwitchFault& f : p.switches()) {
      sim::SwitchTarget at{f.batch, f.partition, f.step};
      EXPECT_NE(std::find(knobs.switchTargets->begin(), knobs.switchTargets->end(), at), knobs.switchTargets->end())
          << "seed " << seed << ": " << p.toJson();
    }
  }
  knobs.switchTargets = std::vector<sim::SwitchTarget>{};  // the run met no choice: no switch can fire
  EXPECT_TRUE(sim::generateFaultPlan(sim::Random(1), knobs).switches().empty());
}

}  // namespace
}  // namespace async_processor_test
}  // namespace streamsim::harness
