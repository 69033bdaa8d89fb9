// Spark's handle lifecycle and error conditions in transformWithState (StatefulProcessorHandleImpl,
// DriverSideState, StateStoreErrors, TransformWithStateVariableUtils): every rule breach fails
// with Spark's condition and message parameters, never a crash. Every test runs on the memory
// and the RocksDB state store.
#include <gtest/gtest.h>

#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/progress.h"
#include "streamsim/state/state_schema.h"
#include "tws_test_util.h"

namespace streamsim {
namespace {

using harness::FailsWithCondition;
using testing::ScriptedProcessor;
using testing::scripted;
using testing::TwsDriver;
using Hooks = ScriptedProcessor::Hooks;

constexpr const char* kHandleState =
    "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE";

Row in(const char* k, int64_t v = 0) { return Row{{"k", k}, {"v", v}}; }

class TwsConditionsTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  static TransformWithStateSpec spec(std::shared_ptr<Hooks> hooks, TimeMode mode) {
    TransformWithStateSpec s;
    s.groupBy = {"k"};
    s.processorFactory = scripted(std::move(hooks));
    s.processorName = "scripted";
    s.timeMode = mode;
    return s;
  }
  // A processor with one variable of each kind ("value", "list", "map") created in init.
  static std::shared_ptr<Hooks> withVariables() {
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.value = handle.getValueState<int64_t>("value");
      p.list = handle.getListState<int64_t>("list");
      p.map = handle.getMapState<std::string, int64_t>("map");
    };
    return h;
  }
};

// Spark's driver-side state: every operation of every state type in init() fails with the
// variable's name and operation and handle state PRE_INIT (was a SIGSEGV for exists()/get()).
TEST_P(TwsConditionsTest, EveryStateOperationInInitFailsWithPreInit) {
  struct Case {
    const char* operationType;
    std::function<void(ScriptedProcessor&)> op;
  };
  std::vector<Case> cases = {
      {"value.exists", [](ScriptedProcessor& p) { (void)p.value.exists(); }},
      {"value.get", [](ScriptedProcessor& p) { (void)p.value.get(); }},
      {"value.get", [](ScriptedProcessor& p) { (void)p.value.getOption(); }},
      {"value.update", [](ScriptedProcessor& p) { p.value.update(1); }},
      {"value.clear", [](ScriptedProcessor& p) { p.value.clear(); }},
      {"list.exists", [](ScriptedProcessor& p) { (void)p.list.exists(); }},
      {"list.get", [](ScriptedProcessor& p) { (void)p.list.get(); }},
      {"list.put", [](ScriptedProcessor& p) { p.list.put({1}); }},
      {"list.appendValue", [](ScriptedProcessor& p) { p.list.appendValue(1); }},
      {"list.appendList", [](ScriptedProcessor& p) { p.list.appendList({1}); }},
      {"list.clear", [](ScriptedProcessor& p) { p.list.clear(); }},
      {"map.exists", [](ScriptedProcessor& p) { (void)p.map.exists(); }},
      {"map.getValue", [](ScriptedProcessor& p) { (void)p.map.getValue("a"); }},
      {"map.containsKey", [](ScriptedProcessor& p) { (void)p.map.containsKey("a"); }},
      {"map.updateValue", [](ScriptedProcessor& p) { p.map.updateValue("a", 1); }},
      {"map.iterator", [](ScriptedProcessor& p) { (void)p.map.iterator(); }},
      {"map.keys", [](ScriptedProcessor& p) { (void)p.map.keys(); }},
      {"map.values", [](ScriptedProcessor& p) { (void)p.map.values(); }},
      {"map.removeKey", [](ScriptedProcessor& p) { p.map.removeKey("a"); }},
      {"map.clear", [](ScriptedProcessor& p) { p.map.clear(); }},
  };
  for (const Case& c : cases) {
    TwsDriver d(GetParam());
    auto h = withVariables();
    auto base = h->init;
    auto op = c.op;
    h->init = [base, op](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      base(p, handle);
      op(p);
    };
    Status st = d.start(spec(h, TimeMode::kNone));
    EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition) << c.operationType;
    EXPECT_THAT(st, FailsWithCondition(kHandleState, {{"operationType", c.operationType},
                                                      {"handleState", "PRE_INIT"}}))
        << c.operationType;
    EXPECT_NE(st.message().find(std::string("[") + kHandleState + "] Failed to perform stateful "
                                "processor operation=" + c.operationType +
                                " with invalid handle state=PRE_INIT."),
              std::string::npos)
        << st.toString();
  }
}

// Timer operations: NoTime first (INVALID_TIME_MODE), then the handle state: not before
// INITIALIZED (init: PRE_INIT in the dry run), not from TIMER_PROCESSED on (close()).
TEST_P(TwsConditionsTest, TimerOperationsFollowTimeModeAndHandleState) {
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor&, StatefulProcessorHandle& handle) { handle.registerTimer(5); };
    EXPECT_THAT(d.start(spec(h, TimeMode::kProcessingTime)),
                FailsWithCondition(kHandleState, {{"operationType", "register_timer"},
                                                  {"handleState", "PRE_INIT"}}));
  }
  using TimerCall = std::pair<const char*, std::function<void(StatefulProcessorHandle&)>>;
  for (const TimerCall& c : std::vector<TimerCall>{
           {"register_timer", [](StatefulProcessorHandle& h) { h.registerTimer(5); }},
           {"delete_timer", [](StatefulProcessorHandle& h) { h.deleteTimer(5); }},
           {"list_timers", [](StatefulProcessorHandle& h) { (void)h.listTimers(); }}}) {
    const char* name = c.first;
    auto call = c.second;
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->input = [call](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      call(p.getHandle());
    };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    EXPECT_THAT(d.run({in("a")}, 1),
                FailsWithCondition("STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                                   {{"operationType", name}, {"timeMode", "NoTime"}}));
  }
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->close = [](ScriptedProcessor& p) { p.getHandle().registerTimer(5); };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
    EXPECT_THAT(d.run({in("a")}, 1),
                FailsWithCondition(kHandleState, {{"operationType", "register_timer"},
                                                  {"handleState", "TIMER_PROCESSED"}}));
  }
  {  // In handleExpiredTimer (DATA_PROCESSED) timers are allowed.
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      p.getHandle().registerTimer(10);
    };
    h->timer = [](ScriptedProcessor& p, const Row& key, const TimerValues&, const ExpiredTimerInfo&,
                  Output& out) {
      p.getHandle().registerTimer(100);
      out.emit(Row{{"k", key[0]}, {"timers", static_cast<int64_t>(p.getHandle().listTimers().size())}});
    };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
    ASSERT_TRUE(d.run({in("a")}, 1).ok());
    auto out = d.run({}, 20);
    ASSERT_TRUE(out.ok()) << out.status().toString();
    EXPECT_EQ(*out, std::vector<Row>{(Row{{"k", "a"}, {"timers", int64_t{2}}})});
  }
}

// get*State and deleteIfExists only where Spark's handle is CREATED (a task's init) or PRE_INIT
// (the dry run): INITIALIZED in handleInputRows, DATA_PROCESSED in handleExpiredTimer,
// TIMER_PROCESSED in close().
TEST_P(TwsConditionsTest, StateVariablesAndDeleteOnlyInInit) {
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      try {  // swallowed by the processor: the task still fails
        p.list = p.getHandle().getListState<int64_t>("late");
      } catch (const StatefulProcessorError&) {
      }
    };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    EXPECT_THAT(d.run({in("a")}, 1),
                FailsWithCondition(kHandleState, {{"operationType", "get_list_state"},
                                                  {"handleState", "INITIALIZED"}}));
  }
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      p.getHandle().registerTimer(5);
    };
    h->timer = [](ScriptedProcessor& p, const Row&, const TimerValues&, const ExpiredTimerInfo&,
                  Output&) { p.value = p.getHandle().getValueState<int64_t>("late"); };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
    EXPECT_THAT(d.run({in("a")}, 10),
                FailsWithCondition(kHandleState, {{"operationType", "get_value_state"},
                                                  {"handleState", "DATA_PROCESSED"}}));
  }
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->close = [](ScriptedProcessor& p) { p.map = p.getHandle().getMapState<std::string, int64_t>("late"); };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    EXPECT_THAT(d.run({in("a")}, 1),
                FailsWithCondition(kHandleState, {{"operationType", "get_map_state"},
                                                  {"handleState", "TIMER_PROCESSED"}}));
  }
  {
    TwsDriver d(GetParam());
    auto h = withVariables();
    h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      p.getHandle().deleteIfExists("value");
    };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    EXPECT_THAT(d.run({in("a")}, 1),
                FailsWithCondition(kHandleState, {{"operationType", "delete_if_exists"},
                                                  {"handleState", "INITIALIZED"}}));
  }
}

// State in close(): the handle is TIMER_PROCESSED and there is no grouping key (Spark's
// "Implicit key not found", an internal TWS error).
TEST_P(TwsConditionsTest, StateInCloseHasNoImplicitKey) {
  TwsDriver d(GetParam());
  auto h = withVariables();
  h->close = [](ScriptedProcessor& p) { (void)p.value.exists(); };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
  EXPECT_THAT(d.run({in("a")}, 1),
              FailsWithCondition("INTERNAL_ERROR_TWS",
                                 {{"message", "Implicit key not found in state store for stateName=value"}}));
}

TEST_P(TwsConditionsTest, DeclarationRulesCarrySparksConditions) {
  auto startWith = [&](std::function<void(ScriptedProcessor&, StatefulProcessorHandle&)> init,
                       TimeMode mode) {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = std::move(init);
    return d.start(spec(h, mode));
  };
  EXPECT_THAT(startWith([](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
                p.value = handle.getValueState<int64_t>("x");
                p.list = handle.getListState<int64_t>("x");
              }, TimeMode::kNone),
              FailsWithCondition("STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED",
                                 {{"stateVarName", "x"}}));
  for (const auto& [mode, name] : std::vector<std::pair<TimeMode, std::string>>{
           {TimeMode::kNone, "NoTime"}, {TimeMode::kEventTime, "EventTime"}})
    EXPECT_THAT(startWith([](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
                  p.map = handle.getMapState<std::string, int64_t>("m", TTLConfig{1000});
                }, mode),
                FailsWithCondition("STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                                   {{"stateName", "m"}, {"timeMode", name}}));
  // A negative or a null duration (Scala's TTLConfig(null)); zero is no TTL (next test).
  for (std::optional<DurationMs> ttl : {std::optional<DurationMs>(-5), std::optional<DurationMs>()})
    EXPECT_THAT(startWith([ttl](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
                  p.list = handle.getListState<int64_t>("l", TTLConfig{ttl});
                }, TimeMode::kProcessingTime),
                FailsWithCondition("STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                                   {{"operationType", "update"}, {"stateName", "l"}}));
  EXPECT_THAT(startWith([](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
                p.value = handle.getValueState<int64_t>("$timers");
              }, TimeMode::kNone),
              FailsWithCondition("STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS",
                                 {{"colFamilyName", "$timers"}}));
  for (const char* bad : {"", "default", " x"})
    EXPECT_THAT(startWith([bad](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
                  p.value = handle.getValueState<int64_t>(bad);
                }, TimeMode::kNone),
                FailsWithCondition("STATE_STORE_CANNOT_USE_COLUMN_FAMILY_WITH_INVALID_NAME",
                                   {{"operationName", "create_col_family"}, {"colFamilyName", bad}}));
}

// Spark's StatefulProcessorHandleImpl: ttlEnabled is false for a zero duration (TTLConfig.NONE),
// so TTLConfig{0} makes a plain state variable in any time mode (was
// STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE); a null duration is enabled, so it is checked:
// the time mode first, then STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE.
TEST_P(TwsConditionsTest, ZeroTtlIsNoTtlAndNullTtlMustBePositive) {
  for (TimeMode mode : {TimeMode::kNone, TimeMode::kProcessingTime}) {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.value = handle.getValueState<int64_t>("value", TTLConfig{0});
    };
    h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      p.value.update(p.value.getOption().value_or(0) + 1);
    };
    ASSERT_TRUE(d.start(spec(h, mode)).ok());
    ASSERT_TRUE(d.run({in("a")}, 1).ok());
    ASSERT_TRUE(d.run({in("a")}, 1'000'000'000).ok());
    auto vars = readStateSchema(d.env(), TwsDriver::kRoot, 0);
    ASSERT_TRUE(vars.ok() && vars->size() == 1u) << vars.status().toString();
    EXPECT_FALSE((*vars)[0].ttlEnabled);
    for (int part = 0; part < d.partitions(); ++part) EXPECT_TRUE(d.committed(part, "$ttl_value").empty());
  }
  auto nullTtl = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("v", TTLConfig{std::nullopt});
  };
  TwsDriver processingTime(GetParam());
  auto h = std::make_shared<Hooks>();
  h->init = nullTtl;
  EXPECT_THAT(processingTime.start(spec(h, TimeMode::kProcessingTime)),
              FailsWithCondition("STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                                 {{"operationType", "update"}, {"stateName", "v"}}));
  TwsDriver noTime(GetParam());
  EXPECT_THAT(noTime.start(spec(h, TimeMode::kNone)),
              FailsWithCondition("STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                                 {{"stateName", "v"}, {"timeMode", "NoTime"}}));
}

TEST_P(TwsConditionsTest, IllegalValuesCarryTheStateName) {
  struct Case {
    const char* condition;
    const char* stateName;
    std::function<void(ScriptedProcessor&)> op;
  };
  std::vector<Case> cases = {
      {"ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE", "list", [](ScriptedProcessor& p) { p.list.put({}); }},
      {"ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE", "list", [](ScriptedProcessor& p) { p.list.appendList({}); }},
  };
  for (const Case& c : cases) {
    TwsDriver d(GetParam());
    auto h = withVariables();
    auto op = c.op;
    h->input = [op](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) { op(p); };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    EXPECT_THAT(d.run({in("a")}, 1), FailsWithCondition(c.condition, {{"stateName", c.stateName}}));
  }
  // Null Row list elements, map keys and map values, and ValueState.update(null) (a null Row, an
  // empty optional: Spark's ValueState.update(null)).
  for (int which = 0; which < 5; ++which) {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    auto rowList = std::make_shared<ListState<Row>>();
    auto rowMap = std::make_shared<MapState<Row, Row>>();
    auto rowValue = std::make_shared<ValueState<Row>>();
    auto optValue = std::make_shared<ValueState<std::optional<int64_t>>>();
    h->init = [rowList, rowMap, rowValue, optValue](ScriptedProcessor&, StatefulProcessorHandle& handle) {
      *rowList = handle.getListState<Row>("rl", rowCodec("x long"));
      *rowMap = handle.getMapState<Row, Row>("rm", rowCodec("k string"), rowCodec("x long"));
      *rowValue = handle.getValueState<Row>("rv", rowCodec("x long"));
      *optValue = handle.getValueState<std::optional<int64_t>>("ov");
    };
    h->input = [rowList, rowMap, rowValue, optValue, which](ScriptedProcessor&, const Row&, RowRange,
                                                            const TimerValues&, Output&) {
      if (which == 0) rowList->put({Row{{"x", int64_t{1}}}, Row()});
      if (which == 1) rowMap->updateValue(Row(), Row{{"x", int64_t{1}}});
      if (which == 2) rowMap->updateValue(Row{{"k", "a"}}, Row());
      if (which == 3) rowValue->update(Row());
      if (which == 4) optValue->update(std::nullopt);
    };
    const char* names[] = {"rl", "rm", "rm", "rv", "ov"};
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    EXPECT_THAT(d.run({in("a")}, 1), FailsWithCondition("ILLEGAL_STATE_STORE_VALUE.NULL_VALUE",
                                                        {{"stateName", names[which]}}));
  }
}

// An exception of processor code: TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR naming the method and
// the exception's message (a TaskFailed, retried like any task failure).
TEST_P(TwsConditionsTest, UserExceptionsAreUserFunctionErrors) {
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor&, StatefulProcessorHandle&) { throw std::runtime_error("boom in init"); };
    Status st = d.start(spec(h, TimeMode::kNone));
    EXPECT_EQ(st.code(), Status::Code::kTaskFailed);
    EXPECT_THAT(st, FailsWithCondition("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                                       {{"function", "init"}, {"reason", "boom in init"}}));
  }
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->input = [](ScriptedProcessor&, const Row&, RowRange, const TimerValues&, Output&) {
      throw std::runtime_error("dummy unclassified error");
    };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kNone)).ok());
    auto out = d.run({in("a")}, 1);
    EXPECT_EQ(out.status().code(), Status::Code::kTaskFailed);
    EXPECT_THAT(out, FailsWithCondition("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                                        {{"function", "handleInputRows"},
                                         {"reason", "dummy unclassified error"}}));
  }
  {
    TwsDriver d(GetParam());
    auto h = std::make_shared<Hooks>();
    h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
      p.getHandle().registerTimer(5);
    };
    h->timer = [](ScriptedProcessor&, const Row&, const TimerValues&, const ExpiredTimerInfo&, Output&) {
      throw std::runtime_error("timer failed");
    };
    ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
    EXPECT_THAT(d.run({in("a")}, 10),
                FailsWithCondition("TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                                   {{"function", "handleExpiredTimer"}, {"reason", "timer failed"}}));
  }
}

TEST_P(TwsConditionsTest, SecondInitialStateRowOfAKeyIsRejected) {
  TwsDriver d(GetParam());
  auto h = std::make_shared<Hooks>();
  TransformWithStateSpec s = spec(h, TimeMode::kNone);
  s.initialState = std::vector<Row>{Row{{"k", "x"}, {"v", int64_t{1}}}, Row{{"k", "x"}, {"v", int64_t{2}}}};
  ASSERT_TRUE(d.start(s).ok());
  EXPECT_THAT(d.run({in("a")}, 1), FailsWithCondition("STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY",
                                                      {{"groupingKey", "x"}}));
}

TEST(TwsHandleTest, GetHandleBeforeInitIsNotInitialized) {
  ScriptedProcessor p(std::make_shared<Hooks>());
  try {
    p.getHandle();
    FAIL() << "getHandle() without a handle must throw";
  } catch (const StatefulProcessorError& e) {
    EXPECT_EQ(e.condition(), "STATE_STORE_HANDLE_NOT_INITIALIZED");
    EXPECT_NE(std::string(e.what()).find("[STATE_STORE_HANDLE_NOT_INITIALIZED] The handle has not "
                                         "been initialized"),
              std::string::npos);
  }
}

// Restart rules (TransformWithStateVariableUtils.validateOperatorProperties and the state schema
// check): output mode, time mode, a variable's kind, its value schema, TTL on/off.
TEST_P(TwsConditionsTest, RestartWithChangedOperatorPropertiesFails) {
  auto counting = [](const char* ddl, std::optional<TTLConfig> ttl, bool asList) {
    auto h = std::make_shared<Hooks>();
    std::string valueDdl = ddl;
    h->init = [valueDdl, ttl, asList](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      if (asList)
        p.list = handle.getListState<int64_t>("count", ttl);
      else
        (void)handle.getValueState<Row>("count", rowCodec(valueDdl), ttl);
    };
    return h;
  };
  auto base = [&] { return spec(counting("n long", std::nullopt, false), TimeMode::kProcessingTime); };
  struct Case {
    std::function<TransformWithStateSpec()> changed;
    const char* condition;
    ErrorParams params;
  };
  std::vector<Case> cases = {
      {[&] {
         auto s = base();
         s.outputMode = OutputMode::kAppend;
         return s;
       },
       "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
       {{"configName", "outputMode"}, {"oldConfig", "Update"}, {"newConfig", "Append"}}},
      {[&] { return spec(counting("n long", std::nullopt, false), TimeMode::kNone); },
       "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
       {{"configName", "timeMode"}, {"oldConfig", "ProcessingTime"}, {"newConfig", "NoTime"}}},
      {[&] { return spec(counting("n long", std::nullopt, true), TimeMode::kProcessingTime); },
       "STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE",
       {{"stateVarName", "count"}, {"oldType", "ValueState"}, {"newType", "ListState"}}},
      {[&] { return spec(counting("n string", std::nullopt, false), TimeMode::kProcessingTime); },
       "STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION",
       {{"oldValueSchema", "StructType(StructField(n,LongType,true))"},
        {"newValueSchema", "StructType(StructField(n,StringType,true))"}}},
      {[&] { return spec(counting("n long", TTLConfig{1000}, false), TimeMode::kProcessingTime); },
       "STATE_STORE_INVALID_VALUE_SCHEMA_EVOLUTION",
       {{"oldValueSchema", "StructType(StructField(n,LongType,true))"}}},
  };
  for (const Case& c : cases) {
    TwsDriver d(GetParam());
    ASSERT_TRUE(d.start(base()).ok());
    ASSERT_TRUE(d.run({in("a")}, 1).ok());
    EXPECT_THAT(d.restartWith(c.changed()), FailsWithCondition(c.condition, c.params));
    // The unchanged query still restarts.
    EXPECT_TRUE(d.restartWith(base()).ok());
  }
}

// The state's keys on restart (StateSchemaCompatibilityChecker): another number of grouping
// columns and a MapState's other user key schema are STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE (were a
// plain FailedPrecondition without a condition for the grouping columns).
TEST_P(TwsConditionsTest, RestartWithChangedKeySchemaFails) {
  auto withMap = [](bool longKeys) {
    auto h = std::make_shared<Hooks>();
    h->init = [longKeys](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      if (longKeys)
        (void)handle.getMapState<int64_t, int64_t>("map");
      else
        p.map = handle.getMapState<std::string, int64_t>("map");
    };
    return h;
  };
  auto base = [&] { return spec(withMap(false), TimeMode::kNone); };
  struct Case {
    std::function<TransformWithStateSpec()> changed;
    ErrorParams params;
  };
  std::vector<Case> cases = {
      {[&] {
         auto s = base();
         s.groupBy = {"k", "v"};
         return s;
       },
       {{"storedKeySchema", "[k]"}, {"newKeySchema", "[k, v]"}}},
      {[&] { return spec(withMap(true), TimeMode::kNone); },
       {{"storedKeySchema", "StructType(StructField(value,StringType,true))"},
        {"newKeySchema", "StructType(StructField(value,LongType,true))"}}},
  };
  for (const Case& c : cases) {
    TwsDriver d(GetParam());
    ASSERT_TRUE(d.start(base()).ok());
    ASSERT_TRUE(d.run({in("a")}, 1).ok());
    Status st = d.restartWith(c.changed());
    EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition) << st.toString();
    EXPECT_THAT(st, FailsWithCondition("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE", c.params));
    EXPECT_TRUE(d.restartWith(base()).ok());
  }
}

// A renamed grouping column (Spark's schemasCompatible: DataType.equalsIgnoreNameAndCompatibleNullability
// ignores field names): one of the same type restarts and keeps the state under the new name;
// one of another type fails at the run's first batch with input, with Spark's key schemas (the
// rename was refused at restart whatever its type: streamsim compared the columns' names).
TEST_P(TwsConditionsTest, RestartWithRenamedGroupingColumnComparesTypesOnly) {
  auto counting = [](std::string groupBy) {
    auto h = std::make_shared<Hooks>();
    h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.value = handle.getValueState<int64_t>("value");
    };
    h->input = [](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues&, Output& out) {
      int64_t n = p.value.getOption().value_or(0);
      for (const Row& r : rows) n += r.get("v").asLong();
      p.value.update(n);
      out.emit(Row{{"key", key[0]}, {"n", n}});
    };
    TransformWithStateSpec s;
    s.groupBy = {std::move(groupBy)};
    s.processorFactory = scripted(h);
    s.processorName = "scripted";
    s.timeMode = TimeMode::kNone;
    return s;
  };
  auto row = [](const char* k, const char* k2, int64_t v) { return Row{{"k", k}, {"k2", k2}, {"v", v}}; };
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(counting("k")).ok());
  ASSERT_TRUE(d.run({row("a", "x", 1)}, 1).ok());
  ASSERT_TRUE(d.restartWith(counting("k2")).ok());
  auto out = d.run({row("b", "a", 2)}, 2);  // k2 = "a": the key "a" keeps its count
  ASSERT_TRUE(out.ok()) << out.status().toString();
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ((*out)[0].get("key").asString(), "a");
  EXPECT_EQ((*out)[0].get("n").asLong(), 3);

  ASSERT_TRUE(d.restartWith(counting("v")).ok()) << "the types are compared with the first rows";
  EXPECT_THAT(d.run({row("c", "c", 5)}, 3),
              FailsWithCondition("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                                 {{"storedKeySchema", "StructType(StructField(k,StringType,true))"},
                                  {"newKeySchema", "StructType(StructField(v,LongType,true))"}}));
}

// A grouping column whose type changed between runs (Spark's StateSchemaCompatibilityChecker
// compares the key schema's types): STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE with both key schemas as
// Spark's StructType text (was accepted: only the column names were recorded). streamsim learns
// the types from the first rows of a run, so the run's first batch with input fails.
TEST_P(TwsConditionsTest, RestartWithChangedKeyTypeFails) {
  auto base = [&] { return spec(withVariables(), TimeMode::kNone); };
  TwsDriver d(GetParam());
  ASSERT_TRUE(d.start(base()).ok());
  ASSERT_TRUE(d.run({Row{{"k", Value()}, {"v", int64_t{0}}}}, 1).ok()) << "a null key tells no type";
  ASSERT_TRUE(d.run({in("a")}, 2).ok());
  auto op = readStateOperatorSchema(d.env(), TwsDriver::kRoot, 0);
  ASSERT_TRUE(op.ok() && op->has_value()) << op.status().toString();
  EXPECT_EQ((*op)->keySchema, "k string");
  // The same types restart and run (a restart keeps the recorded types).
  ASSERT_TRUE(d.restart().ok());
  ASSERT_TRUE(d.run({in("b")}, 3).ok());
  ASSERT_TRUE(d.restart().ok());
  auto changed = d.run({Row{{"k", int64_t{5}}, {"v", int64_t{0}}}}, 4);
  EXPECT_EQ(changed.status().code(), Status::Code::kFailedPrecondition) << changed.status().toString();
  EXPECT_THAT(changed.status(),
              FailsWithCondition("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                                 {{"storedKeySchema", "StructType(StructField(k,StringType,true))"},
                                  {"newKeySchema", "StructType(StructField(k,LongType,true))"}}));
  // Nor an int (Spark's types are compared exactly).
  ASSERT_TRUE(d.restart().ok());
  EXPECT_THAT(d.run({Row{{"k", int32_t{5}}, {"v", int64_t{0}}}}, 4).status(),
              FailsWithCondition("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                                 {{"storedKeySchema", "StructType(StructField(k,StringType,true))"},
                                  {"newKeySchema", "StructType(StructField(k,IntegerType,true))"}}));
  ASSERT_TRUE(d.restart().ok());
  EXPECT_TRUE(d.run({in("c")}, 4).ok());
}

TEST_P(TwsConditionsTest, EmittingRowsOlderThanTheWatermarkCarriesSparksParameters) {
  TwsDriver d(GetParam());
  auto h = std::make_shared<Hooks>();
  h->input = [](ScriptedProcessor&, const Row& key, RowRange, const TimerValues&, Output& out) {
    out.emit(Row{{"k", key[0]}, {"t", Value::timestamp(1)}});
  };
  TransformWithStateSpec s = spec(h, TimeMode::kEventTime);
  s.eventTimeColumnName = "t";
  ASSERT_TRUE(d.start(s).ok());
  EXPECT_THAT(d.run({Row{{"k", "a"}, {"t", Value::timestamp(500)}}}, 1, /*late*/ 290, /*evict*/ 290),
              FailsWithCondition("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED",
                                 {{"currentWatermark", "290"}, {"emittedRowEventTime", "1000"}}));
}

// Spark's custom metrics of the operator (TransformWithStateExec.customStatefulOperatorMetrics),
// summed over the partition tasks: every registerTimer/deleteTimer call, a fired timer's removal
// counting as a delete, the variables each task's init() created, TTL removals per variable.
TEST_P(TwsConditionsTest, ProgressCarriesSparksCustomMetrics) {
  TwsDriver d(GetParam(), /*partitions=*/2);
  auto h = std::make_shared<Hooks>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("v");
    p.list = handle.getListState<int64_t>("l", TTLConfig{50});
    p.map = handle.getMapState<std::string, int64_t>("m");
  };
  h->input = [](ScriptedProcessor& p, const Row&, RowRange, const TimerValues&, Output&) {
    p.getHandle().registerTimer(100);
    p.getHandle().registerTimer(100);  // a second call for one timer still counts
    p.getHandle().registerTimer(200);
    p.getHandle().deleteTimer(200);
    p.list.appendValue(1);
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a")}, 10).ok());
  StateOperatorProgress s = d.progress();
  EXPECT_EQ(s.numRegisteredTimers, 3);
  EXPECT_EQ(s.numDeletedTimers, 1);
  EXPECT_EQ(s.numTimersFired, 0);
  EXPECT_EQ(s.numValueStateVars, 2);  // one per partition task
  EXPECT_EQ(s.numListStateWithTTLVars, 2);
  EXPECT_EQ(s.numListStateVars, 0);
  EXPECT_EQ(s.numMapStateVars, 2);
  ASSERT_TRUE(d.run({}, 150).ok());  // timer 100 fires; the list element (expires 60) is removed
  s = d.progress();
  EXPECT_EQ(s.numRegisteredTimers, 0);
  EXPECT_EQ(s.numTimersFired, 1);
  EXPECT_EQ(s.numDeletedTimers, 1);
  EXPECT_EQ(s.numValuesRemovedByTTL, 1);
  EXPECT_EQ(s.ttlRemovedByVariable, (std::vector<std::pair<std::string, int64_t>>{{"l", 1}}));
  QueryProgress qp;
  qp.stateOperators.push_back(s);
  qp.stateOperators.back().operatorName = "transformWithState";
  const std::string json = qp.toJson();
  for (const char* field : {"\"numExpiredTimers\":1", "\"numRegisteredTimers\":0", "\"numDeletedTimers\":1",
                            "\"numValuesRemovedDueToTTLExpiry\":1", "\"ttlRemovedByVariable\":{\"l\":1}"})
    EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
}

// Spark's TTL test hooks: getWithoutEnforcingTTL / getTTLValue(s) read stored values whether or
// not their TTL expired, with the expiry; nothing is removed or hidden by them.
TEST_P(TwsConditionsTest, TtlTestHooksReadExpiredValuesWithTheirExpiry) {
  TwsDriver d(GetParam(), 1);
  auto h = std::make_shared<Hooks>();
  h->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
    p.value = handle.getValueState<int64_t>("v", TTLConfig{50});
    p.list = handle.getListState<int64_t>("l", TTLConfig{50});
    p.map = handle.getMapState<std::string, int64_t>("m", TTLConfig{50});
  };
  h->input = [](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues& tv, Output& out) {
    if (tv.getCurrentProcessingTimeInMs() == 10) {
      p.value.update(7);
      p.list.appendValue(8);
      p.map.updateValue("x", 9);
      return;
    }
    auto v = p.value.getTTLValue();
    auto l = p.list.getTTLValues();
    auto m = p.map.getTTLValue("x");
    out.emit(Row{{"k", key[0]},
                 {"exists", p.value.exists()},
                 {"raw", p.value.getWithoutEnforcingTTL().value_or(-1)},
                 {"expiresAt", v && v->second ? *v->second : -1},
                 {"list", static_cast<int64_t>(p.list.getWithoutEnforcingTTL().size())},
                 {"listExpiry", l.empty() || !l[0].second ? -1 : *l[0].second},
                 {"map", m ? m->first : -1},
                 {"mapVisible", p.map.containsKey("x")},
                 {"rows", static_cast<int64_t>(rows.size())}});
  };
  ASSERT_TRUE(d.start(spec(h, TimeMode::kProcessingTime)).ok());
  ASSERT_TRUE(d.run({in("a")}, 10).ok());
  auto out = d.run({in("a")}, 70);  // all expired at 60, not yet cleaned up when the handler runs
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(*out, std::vector<Row>{(Row{{"k", "a"}, {"exists", false}, {"raw", int64_t{7}},
                                         {"expiresAt", int64_t{60}}, {"list", int64_t{1}},
                                         {"listExpiry", int64_t{60}}, {"map", int64_t{9}},
                                         {"mapVisible", false}, {"rows", int64_t{1}}})});
  out = d.run({in("a")}, 80);  // the cleanup of batch 1 removed them
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].get("raw"), Value(int64_t{-1}));
  EXPECT_EQ((*out)[0].get("list"), Value(int64_t{0}));
}

INSTANTIATE_TEST_SUITE_P(Stores, TwsConditionsTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) {
                           return info.param == StateStoreKind::kMemory ? "Memory" : "RocksDB";
                         });

}  // namespace
}  // namespace streamsim
