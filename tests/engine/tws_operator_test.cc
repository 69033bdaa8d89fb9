// transformWithState operator rules (SEMANTICS.md §6), each test failing if its rule changes;
// every test runs on the memory and the RocksDB state store.
#include <gtest/gtest.h>

#include "streamsim/processors/builtin.h"
#include "streamsim/processors/examples.h"
#include "streamsim/sim/trace.h"
#include "streamsim/tws/processor_registry.h"
#include "tws_test_util.h"
#include "test_registries.h"

namespace streamsim {
namespace tws_operator_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

using testing::ScriptedProcessor;
using testing::scripted;
using testing::sorted;
using testing::TwsDriver;
using Hooks = ScriptedProcessor::Hooks;

Row in(const char* k, int64_t v = 0) { return Row{{"k", k}, {"v", v}}; }

class TwsTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  TransformWithStateSpec spec(std::shared_ptr<Hooks> hooks, TimeMode mode) {
    TransformWithStateSpec s;
    s.groupBy = {"k"};
    s.processorFactory = scripted(std::move(hooks));
    s.processorName = "scripted";
    s.timeMode = mode;
    return s;
  }
  TransformWithStateSpec named(const char* name, TimeMode mode = TimeMode::kNone) {
    TransformWithStateSpec s;
    s.groupBy = {"k"};
    auto f = ::streamsim::test::testProcessors()->factory(name);
    EXPECT_TRUE(f.ok()) << f.status().toString();
    s.processorFactory = *f;
    s.processorName = name;
    s.timeMode = mode;
    return s;
  }
};

// A processor that registers, on each input row, a timer at the row's "v", and on firing emits
// {k, fired: ts}.
std::shared_ptr<Hooks> timerHooks() {
  auto h = std::make_shared<Hooks>();
  h->input = [](ScriptedProcessor& p, const Row&, RowRange rows, const TimerValues&, Output&) {
    for (const Row& r : rows) p.getHandle().registerTimer(r.get("v").asLong());
  };
  h->timer = [](ScriptedProcessor& p, const Row& key, const TimerValues&,
                const ExpiredTimerInfo& info, Output& out) {
    std::vector<TimeMs> timers = p.getHandle().listTimers();
    bool listed = std::find(timers.begin(), timers.end(), info.getExpiryTimeInMs()) != timers.end();
    out.emit(Row{{"k", key[0]}, {"fired", info.getExpiryTimeInMs()}, {"listed", listed}});
  };
  return h;
}

TEST_P(TwsTest, CountProcessorGivesTheDocumentedCounts) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(named("count")).ok());
  auto out = d.run({in("a"), in("a"), in("a"), in("b"), in("b")}, 1000);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(sorted(*out), sorted({Row{{"k", "a"}, {"count", int64_t{3}}},
                                  Row{{"k", "b"}, {"count", int64_t{2}}}}));
  out = d.run({in("a")}, 2000);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"k", "a"}, {"count", int64_t{4}}})});
}

// What each handler call emits is output once, in call order (keys ascending, then timers),
// whatever the previous calls emitted: the operator reuses one Output buffer per task.
TEST_P(TwsTest, EachCallsRowsAreOutputOnceInCallOrder) {
  TwsDriver d(GetParam(), 1);
  auto h = timerHooks();
  auto base = h->input;
  h->input = [base](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues& tv,
                    Output& out) {
    base(p, key, rows, tv, out);
    EXPECT_TRUE(out.rows().empty());  // nothing left over from the previous key
    for (size_t i = 0; i < rows.size(); ++i)
      out.emit(Row{{"k", key[0]}, {"i", static_cast<int64_t>(i)}});
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  auto out = d.run({in("b", 100), in("a", 5000), in("c", 200), in("b", 5000), in("a", 5000)}, 1000);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  std::vector<std::string> got;
  for (const Row& r : *out) got.push_back(r.toString());
  EXPECT_EQ(got, (std::vector<std::string>{"k=a, i=0", "k=a, i=1", "k=b, i=0", "k=b, i=1", "k=c, i=0",
                                           "k=b, fired=100, listed=true",
                                           "k=c, fired=200, listed=true"}));
}

TEST_P(TwsTest, SimpleCounterGivesTheDocumentedCounts) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(named("simple_counter")).ok());
  auto out = d.run({in("a"), in("a"), in("a"), in("b"), in("b")}, 1000);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(sorted(*out), sorted({Row{{"id", "a"}, {"countAsString", "3"}},
                                  Row{{"id", "b"}, {"countAsString", "2"}}}));
}

TEST_P(TwsTest, InitialStateSeedsBatchZeroOnly) {
  TwsDriver d(GetParam());
  TransformWithStateSpec s = named("counter_with_initial_state");
  s.groupBy = {"id"};
  s.initialState = std::vector<Row>{Row{{"id", "x"}, {"count", int32_t{10}}},
                                    Row{{"id", "y"}, {"count", int32_t{5}}}};
  ASSERT_TRUE(d.start(s).ok());
  auto out = d.run({Row{{"id", "x"}, {"value", "a"}}, Row{{"id", "x"}, {"value", "b"}}}, 1000);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  // x: 10 + 2 rows = 12 (the documented result); y only in the initial state: no input call.
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"id", "x"}, {"count", int32_t{12}}})});
  out = d.run({Row{{"id", "x"}, {"value", "c"}}, Row{{"id", "y"}, {"value", "d"}}}, 2000);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(sorted(*out), sorted({Row{{"id", "x"}, {"count", int32_t{13}}},
                                  Row{{"id", "y"}, {"count", int32_t{6}}}}));
  // After a restart at batch 2 the initial state is not applied again.
  ASSERT_TRUE(d.restart().ok());
  out = d.run({Row{{"id", "x"}, {"value", "e"}}}, 3000);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"id", "x"}, {"count", int32_t{14}}})});
}

TEST_P(TwsTest, InitialStateRunsBeforeInput) {
  TwsDriver d(GetParam(), 1);
  auto h = std::make_shared<Hooks>();
  auto calls = std::make_shared<std::vector<std::string>>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("v");
  };
  h->initial = [calls](ScriptedProcessor&, const Row& key, const Row&, const TimerValues&, Output&) {
    calls->push_back("initial:" + key[0].toString());
  };
  h->input = [calls](ScriptedProcessor&, const Row& key, RowRange, const TimerValues&, Output&) {
    calls->push_back("input:" + key[0].toString());
  };
  TransformWithStateSpec s = spec(h, TimeMode::kNone);
  s.initialState = std::vector<Row>{Row{{"k", "b"}}, Row{{"k", "a"}}};
  ASSERT_TRUE(d.start(s).ok());
  ASSERT_TRUE(d.run({in("c"), in("a")}, 1).ok());
  EXPECT_EQ(*calls, (std::vector<std::string>{"initial:a", "initial:b", "input:a", "input:c"}));
}

TEST_P(TwsTest, TimerRegisteredTwiceFiresOnce) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(spec(timerHooks(), TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 500), in("a", 500)}, 100).ok());
  auto out = d.run({}, 600);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->size(), 1u);
  EXPECT_EQ(d.progress().numTimersFired, 1);
  out = d.run({}, 700);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->empty()) << "a fired timer is deleted";
}

TEST_P(TwsTest, ProcessingTimeTimerFiringIsInclusive) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(spec(timerHooks(), TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 1000)}, 100).ok());
  auto out = d.run({}, 999);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->empty()) << "never early";
  out = d.run({}, 1000);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].get("fired").asLong(), 1000);
  EXPECT_TRUE((*out)[0].get("listed").asBool()) << "listTimers includes the firing timer";
}

TEST_P(TwsTest, EventTimeTimerFiresAtEvictionWatermark) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(spec(timerHooks(), TimeMode::kEventTime)).ok());
  ASSERT_TRUE(d.run({Row{{"k", "a"}, {"v", int64_t{1000}}, {"t", int64_t{5000}}}}, 1, 0, 0).ok());
  auto out = d.run({}, 99999, 0, 999);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->empty()) << "processing time does not fire event-time timers";
  out = d.run({}, 99999, 999, 1000);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->size(), 1u);
}

TEST_P(TwsTest, TimersFireInTimestampThenKeyOrderAfterAllInput) {
  TwsDriver d(GetParam(), 1);
  auto h = timerHooks();
  auto log = std::make_shared<std::vector<std::string>>();
  auto base = h->input;
  h->input = [base, log](ScriptedProcessor& p, const Row& key, RowRange rows,
                         const TimerValues& tv, Output& out) {
    log->push_back("input:" + key[0].toString());
    base(p, key, rows, tv, out);
  };
  auto baseTimer = h->timer;
  h->timer = [baseTimer, log](ScriptedProcessor& p, const Row& key, const TimerValues& tv,
                              const ExpiredTimerInfo& info, Output& out) {
    log->push_back(fmt::format("timer:{}@{}", key[0].toString(), info.getExpiryTimeInMs()));
    baseTimer(p, key, tv, info, out);
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  // Timers in the past of this batch fire in this batch, after every handleInputRows.
  ASSERT_TRUE(d.run({in("c", 100), in("a", 300), in("b", 100), in("a", 100)}, 1000).ok());
  EXPECT_EQ(*log, (std::vector<std::string>{"input:a", "input:b", "input:c", "timer:a@100",
                                            "timer:b@100", "timer:c@100", "timer:a@300"}));
}

TEST_P(TwsTest, TimersFireForKeysWithoutInput) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(spec(timerHooks(), TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 5000), in("b", 5000)}, 100).ok());
  auto out = d.run({in("c", 99999)}, 5000);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(sorted(*out), sorted({Row{{"k", "a"}, {"fired", int64_t{5000}}, {"listed", true}},
                                  Row{{"k", "b"}, {"fired", int64_t{5000}}, {"listed", true}}}));
}

// SPARK-56566: a timer at or below the previous batch's timestamp must still fire.
TEST_P(TwsTest, TimerRegisteredInThePastFromATimerHandlerFiresNextBatch) {
  TwsDriver d(GetParam());
  auto h = timerHooks();
  h->timer = [](ScriptedProcessor& p, const Row& key, const TimerValues& tv,
                const ExpiredTimerInfo& info, Output& out) {
    out.emit(Row{{"k", key[0]}, {"fired", info.getExpiryTimeInMs()}});
    if (info.getExpiryTimeInMs() == 1000) p.getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() - 500);
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 1000)}, 100).ok());
  auto out = d.run({}, 2000);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"k", "a"}, {"fired", int64_t{1000}}})});
  out = d.run({}, 3000);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"k", "a"}, {"fired", int64_t{1500}}})});
}

TEST_P(TwsTest, DeletedTimerDoesNotFireAndClearingStateKeepsTimers) {
  TwsDriver d(GetParam());
  auto h = timerHooks();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("v");
  };
  auto base = h->input;
  h->input = [base](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues& tv,
                    Output& out) {
    base(p, key, rows, tv, out);
    p.value.update(1);
    p.value.clear();
    if (key[0].asString() == "b") p.getHandle().deleteTimer(700);
    p.getHandle().deleteTimer(123456);  // deleting a missing timer is a no-op
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 700), in("b", 700)}, 100).ok());
  auto out = d.run({}, 800);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"k", "a"}, {"fired", int64_t{700}}, {"listed", true}})});
}

TEST_P(TwsTest, ATimerDeletedByAnEarlierHandlerOfTheSameScanDoesNotFire) {
  TwsDriver d(GetParam());
  auto h = timerHooks();
  auto base = h->timer;
  // Firing 500 deletes the key's other due timer (600); a timer registered in the scan (550,
  // also due) is not part of it either: it fires in the next batch.
  h->timer = [base](ScriptedProcessor& p, const Row& key, const TimerValues& tv,
                    const ExpiredTimerInfo& info, Output& out) {
    base(p, key, tv, info, out);
    if (info.getExpiryTimeInMs() == 500) {
      p.getHandle().deleteTimer(600);
      p.getHandle().registerTimer(550);
    }
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 500), in("a", 600), in("b", 600)}, 100).ok());
  auto out = d.run({}, 1000);
  ASSERT_TRUE(out.ok());
  std::vector<std::string> fired;  // partitions run in order: sort across them
  for (const Row& r : *out) fired.push_back(r.get("k").asString() + std::to_string(r.get("fired").asLong()));
  std::sort(fired.begin(), fired.end());
  EXPECT_EQ(fired, (std::vector<std::string>{"a500", "b600"}));  // b's 600 still fires
  EXPECT_EQ(d.progress().numTimersFired, 2);
  out = d.run({}, 1100);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].get("fired").asLong(), 550);
}

TEST_P(TwsTest, TimerCallsBreakHandleRules) {
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor&, StatefulProcessorHandle& handle) { handle.registerTimer(5); };
    Status st = d.start(spec(h, TimeMode::kProcessingTime));
    EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
    EXPECT_EQ(st.condition(), "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE")
        << st.toString();
    EXPECT_EQ(st.parameter("handleState"), "PRE_INIT");
  }
  {
    TwsDriver d(GetParam());
    ASSERT_TRUE(d.start(spec(timerHooks(), TimeMode::kNone)).ok());
    auto out = d.run({in("a", 5)}, 1);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status().condition(), "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE");
    EXPECT_NE(out.status().message().find("handleInputRows"), std::string::npos);
  }
}

TEST_P(TwsTest, StateVariablesOnlyInInitAndOncePerName) {
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      // The processor swallows the error: the task must still fail.
      try {
        p.value = p.getHandle().getValueState<int64_t>("late");
      } catch (const StatefulProcessorError&) {
      }
    };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    auto out = d.run({in("a")}, 1);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.status().condition(), "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE")
        << out.status().toString();
    EXPECT_EQ(out.status().parameter("operationType"), "get_value_state");
  }
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.value = handle.getValueState<int64_t>("x");
      p.list = handle.getListState<int64_t>("x");
    };
    Status st = d.start(spec(h, TimeMode::kNone));
    EXPECT_EQ(st.condition(), "STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED") << st.toString();
  }
}

TEST_P(TwsTest, TtlNeedsProcessingTimeAndPositiveDuration) {
  for (TimeMode mode : {TimeMode::kNone, TimeMode::kEventTime}) {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.value = handle.getValueState<int64_t>("v", TTLConfig{1000});
    };
    Status st = d.start(spec(h, mode));
    EXPECT_EQ(st.condition(), "STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL") << st.toString();
  }
  TwsDriver d(GetParam());
  auto h = std::make_shared<Hooks>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("v", TTLConfig{-1});  // 0 is no TTL (TTLConfig.NONE)
  };
  Status st = d.start(spec(h, TimeMode::kProcessingTime));
  EXPECT_EQ(st.condition(), "STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE") << st.toString();
}

TEST_P(TwsTest, ListAndMapRejectEmptyAndNull) {
  struct Case {
    const char* rule;
    std::function<void(ScriptedProcessor&)> op;
  };
  std::vector<Case> cases = {
      {"ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE", [](ScriptedProcessor& p) { p.list.put({}); }},
      {"ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE", [](ScriptedProcessor& p) { p.list.appendList({}); }},
      {"STATE_VARIABLE_NOT_INITIALISED", [](ScriptedProcessor&) { ValueState<int64_t>().get(); }},
  };
  for (const Case& c : cases) {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.list = handle.getListState<int64_t>("l");
    };
    auto op = c.op;
    h->input = [op](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) { op(p); };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    auto out = d.run({in("a")}, 1);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.status().message().find(c.rule), std::string::npos) << out.status().toString();
  }
  // Null Row elements and map keys/values.
  TwsDriver d(GetParam());
  auto h = std::make_shared<Hooks>();
  auto rowList = std::make_shared<ListState<Row>>();
  auto rowMap = std::make_shared<MapState<Row, Row>>();
  h->init = [rowList, rowMap](ScriptedProcessor&, StatefulProcessorHandle& handle) {
    *rowList = handle.getListState<Row>("rl", rowCodec("x long"));
    *rowMap = handle.getMapState<Row, Row>("rm", rowCodec("k string"), rowCodec("x long"));
  };
  h->input = [rowList, rowMap](ScriptedProcessor&, const Row&, RowRange, const TimerValues&,
                               Output& out) {
    for (auto& f : std::vector<std::function<void()>>{
             [&] { rowList->put({Row{{"x", int64_t{1}}}, Row()}); },
             [&] { rowMap->updateValue(Row(), Row{{"x", int64_t{1}}}); },
             [&] { rowMap->updateValue(Row{{"k", "a"}}, Row()); }}) {
      try {
        f();
      } catch (const StatefulProcessorError& e) {
        out.emit(Row{{"rule", e.rule()}});
      }
    }
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
  auto out = d.run({in("a")}, 1);
  ASSERT_FALSE(out.ok()) << "a caught violation still fails the task";
  EXPECT_EQ(out.status().condition(), "ILLEGAL_STATE_STORE_VALUE.NULL_VALUE") << out.status().toString();
  EXPECT_EQ(out.status().parameter("stateName"), "rl");
}

TEST_P(TwsTest, CompleteOutputModeIsRejected) {
  TwsDriver d(GetParam());
  TransformWithStateSpec s = named("count");
  s.outputMode = OutputMode::kComplete;
  Status st = d.start(s);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(st.message().find("Complete"), std::string::npos);
}

TEST_P(TwsTest, EventTimeDropsLateRowsAndRejectsLateOutput) {
  TwsDriver d(GetParam());
  TransformWithStateSpec s = named("count", TimeMode::kEventTime);
  ASSERT_TRUE(d.start(s).ok());
  auto out = d.run({Row{{"k", "a"}, {"t", int64_t{100}}}, Row{{"k", "a"}, {"t", int64_t{101}}},
                    Row{{"k", "b"}, {"t", int64_t{50}}}},
                   1, /*late*/ 100, /*evict*/ 100);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"k", "a"}, {"count", int64_t{1}}})});
  EXPECT_EQ(d.progress().numRowsDroppedByWatermark, 2);

  TwsDriver d2(GetParam());
  auto h = std::make_shared<Hooks>();
  h->input = [](ScriptedProcessor&, const Row& key, RowRange, const TimerValues&, Output& out) {
    out.emit(Row{{"k", key[0]}, {"out_t", int64_t{10}}});
  };
  TransformWithStateSpec s2 = spec(h, TimeMode::kEventTime);
  s2.eventTimeColumnName = "out_t";
  ASSERT_TRUE(d2.start(s2).ok());
  auto bad = d2.run({Row{{"k", "a"}, {"t", int64_t{500}}}}, 1, 100, 100);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("watermark"), std::string::npos);
}

TEST_P(TwsTest, ProcessorExceptionFailsTheTaskNamingBatchPartitionKeyAndMethod) {
  TwsDriver d(GetParam());
  auto h = std::make_shared<Hooks>();
  h->input = [](ScriptedProcessor&, const Row& key, RowRange, const TimerValues&, Output&) {
    if (key[0].asString() == "boom") throw std::runtime_error("kaput");
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
  auto out = d.run({in("boom")}, 1);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), Status::Code::kTaskFailed);
  const std::string& m = out.status().message();
  int p = twsPartitionOf(Row{{"k", "boom"}}, d.partitions());
  for (std::string part : {std::string("handleInputRows"), std::string("kaput"),
                           std::string("batch 0"), fmt::format("partition {}", p),
                           std::string("\"k\":\"boom\"")})
    EXPECT_NE(m.find(part), std::string::npos) << part << " missing in: " << m;
}

TEST_P(TwsTest, TaskRetryStartsFromTheLastCommittedVersion) {
  TwsDriver d(GetParam(), 1);
  auto attempts = std::make_shared<int>(0);
  auto h = std::make_shared<Hooks>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("count");
  };
  h->input = [attempts](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues&,
                        Output& out) {
    p.value.update(p.value.get() + static_cast<int64_t>(rows.size()));
    if (key[0].asString() == "z" && (*attempts)++ == 0) throw std::runtime_error("flaky");
    out.emit(Row{{"k", key[0]}, {"count", p.value.get()}});
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
  ASSERT_TRUE(d.run({in("a")}, 1).ok());
  d.setTaskRetries(1);
  auto out = d.run({in("a"), in("z")}, 2);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(*attempts, 2);
  EXPECT_EQ(sorted(*out), sorted({Row{{"k", "a"}, {"count", int64_t{2}}},
                                  Row{{"k", "z"}, {"count", int64_t{1}}}}))
      << "the failed attempt's writes were aborted";
}

TEST_P(TwsTest, RestartReadsCommittedStateAndTimers) {
  TwsDriver d(GetParam());
  auto h = timerHooks();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("count");
  };
  auto base = h->input;
  h->input = [base](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues& tv,
                    Output& out) {
    base(p, key, rows, tv, out);
    p.value.update(p.value.get() + static_cast<int64_t>(rows.size()));
    out.emit(Row{{"k", key[0]}, {"count", p.value.get()}});
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 5000), in("b", 6000)}, 1).ok());
  ASSERT_TRUE(d.run({in("a", 5000)}, 2).ok());
  ASSERT_TRUE(d.restart().ok());
  auto out = d.run({in("a", 5000), in("b", 6000)}, 5500);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(sorted(*out), sorted({Row{{"k", "a"}, {"count", int64_t{3}}},
                                  Row{{"k", "b"}, {"count", int64_t{2}}},
                                  Row{{"k", "a"}, {"fired", int64_t{5000}}, {"listed", true}}}));
}

TEST_P(TwsTest, TtlValueHiddenOnReadRemovedInTheSameBatchAndRestampedByUpdate) {
  TwsDriver d(GetParam(), 1);
  auto h = std::make_shared<Hooks>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("v", TTLConfig{100});
  };
  // Row v: >0 update to v; 0 read only. Emits what a read sees before the write.
  h->input = [](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues&,
                Output& out) {
    out.emit(Row{{"k", key[0]}, {"exists", p.value.exists()}, {"seen", p.value.get()}});
    for (const Row& r : rows)
      if (r.get("v").asLong() > 0) p.value.update(r.get("v").asLong());
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 7)}, 1000).ok());             // expires at 1100
  auto out = d.run({in("a", 0)}, 1099);
  EXPECT_TRUE((*out)[0].get("exists").asBool());
  ASSERT_TRUE(d.run({in("a", 8)}, 1099).ok());             // restamp: expires at 1199
  out = d.run({in("a", 0)}, 1150);
  EXPECT_EQ((*out)[0].get("seen").asLong(), 8);
  EXPECT_EQ(d.committed(0, "v").size(), 1u);
  out = d.run({}, 1199);                                    // expiry batch: cleanup removes it
  EXPECT_EQ(d.progress().numValuesRemovedByTTL, 1);
  EXPECT_TRUE(d.committed(0, "v").empty()) << "expired value physically removed before commit";
  out = d.run({in("a", 0)}, 1200);
  EXPECT_FALSE((*out)[0].get("exists").asBool());
}

TEST_P(TwsTest, TtlListStampsPerElement) {
  TwsDriver d(GetParam(), 1);
  auto h = std::make_shared<Hooks>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.list = handle.getListState<int64_t>("l", TTLConfig{100});
  };
  // v > 0: append v; v < 0: put [-v]; then emit the list as a string.
  h->input = [](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues&,
                Output& out) {
    for (const Row& r : rows) {
      int64_t v = r.get("v").asLong();
      if (v > 0) p.list.appendValue(v);
      if (v < 0) p.list.put({-v, -v});
    }
    std::string s;
    for (int64_t x : p.list.get()) s += std::to_string(x) + ",";
    out.emit(Row{{"k", key[0]}, {"list", s}});
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 1), in("a", 2)}, 0).ok());   // 1,2 expire at 100
  auto out = d.run({in("a", 3)}, 50);                      // 3 expires at 150
  EXPECT_EQ((*out)[0].get("list").asString(), "1,2,3,");
  out = d.run({in("a", 0)}, 100);
  EXPECT_EQ((*out)[0].get("list").asString(), "3,");
  EXPECT_EQ(d.progress().numValuesRemovedByTTL, 2);
  out = d.run({in("a", -9)}, 140);                         // put restamps all: 9,9 until 240
  out = d.run({in("a", 0)}, 200);
  EXPECT_EQ((*out)[0].get("list").asString(), "9,9,");
  out = d.run({in("a", 0)}, 240);
  EXPECT_EQ((*out)[0].get("list").asString(), "");
  EXPECT_TRUE(d.committed(0, "l").empty());
}

TEST_P(TwsTest, TtlMapStampsPerEntry) {
  TwsDriver d(GetParam(), 1);
  auto h = std::make_shared<Hooks>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.map = handle.getMapState<std::string, int64_t>("m", TTLConfig{100});
  };
  // Row {k, e: entry, v}: v > 0 updates entry e; emits the visible keys.
  h->input = [](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues&,
                Output& out) {
    for (const Row& r : rows)
      if (r.get("v").asLong() > 0) p.map.updateValue(r.get("e").asString(), r.get("v").asLong());
    std::string s;
    for (auto& [k, v] : p.map.iterator()) s += k + "=" + std::to_string(v) + ",";
    out.emit(Row{{"k", key[0]}, {"map", s}, {"hasX", p.map.containsKey("x")}});
  };
  auto row = [](const char* e, int64_t v) { return Row{{"k", "a"}, {"e", e}, {"v", v}}; };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({row("x", 1), row("y", 2)}, 0).ok());
  ASSERT_TRUE(d.run({row("y", 3)}, 60).ok());              // only y restamped: 160
  auto out = d.run({row("-", 0)}, 100);
  EXPECT_EQ((*out)[0].get("map").asString(), "y=3,");
  EXPECT_FALSE((*out)[0].get("hasX").asBool());
  EXPECT_EQ(d.progress().numValuesRemovedByTTL, 1);
  EXPECT_EQ(d.committed(0, "m").size(), 1u);
}

TEST_P(TwsTest, DeleteIfExistsDropsAVariable) {
  TwsDriver d(GetParam(), 1);
  auto drop = std::make_shared<bool>(false);
  auto h = std::make_shared<Hooks>();
  h->init = [drop](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    if (*drop) handle.deleteIfExists("old");
    p.value = handle.getValueState<int64_t>("v");
  };
  h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
    p.value.update(1);
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
  ASSERT_TRUE(d.run({in("a")}, 1).ok());
  EXPECT_EQ(d.committed(0, "v").size(), 1u);
}

// Spark's numDeletedStateVars (TransformWithStateExec's custom metric): each task whose
// deleteIfExists found the variable in its partition counts one; the next batch finds none.
TEST_P(TwsTest, DeleteIfExistsCountsNumDeletedStateVars) {
  TwsDriver d(GetParam(), 3);
  auto drop = std::make_shared<bool>(false);
  auto h = std::make_shared<Hooks>();
  h->init = [drop](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    if (*drop) handle.deleteIfExists("old");
    else p.value = handle.getValueState<int64_t>("old");
  };
  h->input = [drop](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
    if (!*drop) p.value.update(1);
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
  ASSERT_TRUE(d.run({in("a"), in("b"), in("c"), in("d"), in("e"), in("f")}, 1).ok());
  EXPECT_EQ(d.progress().numDeletedStateVars, 0);
  int holding = 0;
  for (int part = 0; part < d.partitions(); ++part) holding += d.committed(part, "old").empty() ? 0 : 1;
  ASSERT_GT(holding, 1) << "the keys should spread over several partitions";
  *drop = true;
  ASSERT_TRUE(d.restart().ok());
  ASSERT_TRUE(d.run({in("a")}, 2).ok());
  EXPECT_EQ(d.progress().numDeletedStateVars, holding);
  for (int part = 0; part < d.partitions(); ++part) EXPECT_TRUE(d.committed(part, "old").empty());
  ASSERT_TRUE(d.run({in("a")}, 3).ok());
  EXPECT_EQ(d.progress().numDeletedStateVars, 0);
}

TEST_P(TwsTest, TraceHasTimerAndRowEvents) {
  TwsDriver d(GetParam());
  sim::TraceRecorder trace;
  d.setTrace(&trace);
  ASSERT_TRUE(d.start(spec(timerHooks(), TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a", 10)}, 10).ok());
  std::string text = trace.text();
  for (const char* e : {"tws.rows", "tws.timer_registered", "tws.timer_fired"})
    EXPECT_NE(text.find(e), std::string::npos) << e << " missing in:\n" << text;
}

// withKey(shapes, key, name, value) reuses its previous output schema only while the key schema,
// the name and the types are the same: every change shows in the row's columns.
TEST(WithKeyTest, OutputSchemaFollowsKeyNameAndTypes) {
  auto shape = [](const Row& r) {
    std::string out;
    for (size_t i = 0; i < r.schema()->size(); ++i)
      out += r.schema()->field(i).name + ":" + std::string(typeName(r.schema()->field(i).type)) + " ";
    return out;
  };
  Row k1{{"k", "a"}};
  Row k2{{"id", "a"}};
  Row kLong{{"k", int64_t{1}}};
  Row kNull{{"k", Value()}};
  RowShapes shapes;
  Row first = processors::withKey(shapes, k1, "count", Value(int64_t{1}));
  Row second = processors::withKey(shapes, k1, "count", Value(int64_t{2}));
  EXPECT_EQ(shape(first), "k:string count:long ");
  EXPECT_EQ(shape(second), "k:string count:long ");
  EXPECT_EQ(first.schema(), second.schema()) << "one shape, one schema object";
  EXPECT_EQ(shape(processors::withKey(shapes, k1, "n", Value(int64_t{2}))), "k:string n:long ");
  EXPECT_EQ(shape(processors::withKey(shapes, k1, "n", Value("x"))), "k:string n:string ");
  EXPECT_EQ(shape(processors::withKey(shapes, k2, "n", Value("x"))), "id:string n:string ");
  EXPECT_EQ(shape(processors::withKey(shapes, kLong, "n", Value("x"))), "k:long n:string ");
  EXPECT_EQ(shape(processors::withKey(shapes, kNull, "n", Value())), "k:string n:string ");
  EXPECT_EQ(shape(processors::withKey(shapes, k1, {{"n", Value("x")}, {"m", Value(int64_t{1})}})),
            "k:string n:string m:long ");
  Row r = processors::withKey(k1, "count", Value(int64_t{7}));
  EXPECT_EQ(r.toString(), "k=a, count=7");
}

// The schema cache belongs to a RowShapes, not to the thread (issue 12 §4): two producers of the
// same shape get schemas of their own, and rows built without one share nothing.
TEST(RowShapesTest, EachOwnerKeepsItsOwnSchemas) {
  RowShapes a;
  RowShapes b;
  Row a1 = a.fromNamed({{"k", "x"}, {"n", int64_t{1}}});
  Row a2 = a.fromNamed({{"k", "y"}, {"n", int64_t{2}}});
  Row b1 = b.fromNamed({{"k", "x"}, {"n", int64_t{1}}});
  EXPECT_EQ(a1.schema(), a2.schema());
  EXPECT_NE(a1.schema(), b1.schema());
  EXPECT_EQ(a1.schema()->toDDL(), b1.schema()->toDDL());
  Row a3 = a.fromNamed({{"k", "x"}, {"n", "one"}});
  EXPECT_NE(a3.schema(), a1.schema()) << "a changed type gets a new schema";
  EXPECT_EQ(a3.schema()->toDDL(), "k string, n string");
  Row plain1{{"k", "x"}};
  Row plain2{{"k", "x"}};
  EXPECT_NE(plain1.schema(), plain2.schema());
}

// The example set (registerExampleProcessors): what the CLI and the Python module hand their runs.
TEST(ProcessorSetTest, TheExampleSetKnowsTheBuiltIns) {
  ProcessorSet set;
  registerExampleProcessors(set);
  std::vector<std::string> names = set.names();
  for (const char* n : {"count", "simple_counter", "session_tracker", "counter_with_initial_state",
                        "heartbeat", "ttl_cache"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  auto missing = set.create("nope");
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);
  EXPECT_NE(missing.status().message().find("count"), std::string::npos);
}

TEST_P(TwsTest, HeartbeatReportsMissingSensors) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(named("heartbeat", TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("s1"), in("s2")}, 0).ok());
  ASSERT_TRUE(d.run({in("s2")}, 5000).ok());  // s2 resets to 15000
  auto out = d.run({}, 10000);
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].get("k").asString(), "s1");
  EXPECT_EQ((*out)[0].get("status").asString(), "missing");
  out = d.run({}, 15000);
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].get("k").asString(), "s2");
}

TEST_P(TwsTest, TtlCacheForgetsAfterTtl) {
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(named("ttl_cache", TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({Row{{"k", "a"}, {"value", "1"}}}, 0).ok());
  auto out = d.run({Row{{"k", "a"}, {"value", "2"}}}, 59'999);
  EXPECT_EQ((*out)[0].get("previous").asString(), "1");
  out = d.run({Row{{"k", "a"}, {"value", "3"}}}, 119'999);
  EXPECT_TRUE((*out)[0].get("previous").isNull());
}

TEST_P(TwsTest, SessionTrackerCountsPerSession) {
  TwsDriver d(GetParam(), 1);
  TransformWithStateSpec s = named("session_tracker");
  s.groupBy = {"user_id"};
  ASSERT_TRUE(d.start(s).ok());
  auto out = d.run({Row{{"user_id", "u"}, {"session_id", "s1"}},
                    Row{{"user_id", "u"}, {"session_id", "s1"}},
                    Row{{"user_id", "u"}, {"session_id", "s2"}}},
                   1);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->empty());
  EXPECT_EQ(d.committed(0, "sessions").size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Stores, TwsTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace tws_operator_test
}  // namespace streamsim
