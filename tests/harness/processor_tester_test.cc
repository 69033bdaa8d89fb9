// ProcessorTester: one processor, no query — output, time, timers, TTL, initial state, state
// peek/edit, restart and handle-rule errors, all through the engine's transformWithState code.
#include "streamsim/harness/processor_tester.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/processors/builtin.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

using processors::CountProcessor;
using processors::CounterWithInitialState;
using processors::HeartbeatProcessor;
using processors::SessionTrackerProcessor;
using processors::SimpleCounterProcessor;
using processors::TtlCacheProcessor;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Optional;
using ::testing::Pair;

Row click() { return Row{{"value", "x"}}; }

TEST(ProcessorTester, CountEmitsTheRunningCountPerKey) {
  ProcessorTester<CountProcessor> tester;
  EXPECT_THAT(tester.test("a", {click(), click()}), EmitsRows({Row{{"key", "a"}, {"count", 2}}}));
  EXPECT_THAT(tester.test("b", {click()}), EmitsRows({Row{{"key", "b"}, {"count", 1}}}));
  EXPECT_THAT(tester.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"count", 3}}}));
  EXPECT_EQ(tester.nextBatchId(), 3);
}

TEST(ProcessorTester, InputRowsMayCarryTheKeyColumnButNotAnotherKey) {
  ProcessorTester<CountProcessor> tester;
  EXPECT_THAT(tester.test("a", {Row{{"key", "a"}, {"value", 1}}}),
              EmitsRows({Row{{"key", "a"}, {"count", 1}}}));
  EXPECT_THAT(tester.test("a", {Row{{"key", "b"}}}), FailsWith(Status::Code::kInvalidArgument, "another key"));
}

TEST(ProcessorTester, PeekReadsWithoutChangingAnything) {
  ProcessorTester<CountProcessor> tester;
  ASSERT_THAT(tester.test("a", {click(), click()}), IsOk());
  EXPECT_THAT(tester.peekValueState<int64_t>("a", "count"), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("a", "count")), std::optional<int64_t>(2));
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("zzz", "count")), std::nullopt);
  EXPECT_EQ(tester.nextBatchId(), 1);  // peeks run no committed batch
  EXPECT_THAT(tester.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"count", 3}}}));
}

TEST(ProcessorTester, PeekNamesUnknownVariablesAndWrongKinds) {
  ProcessorTester<CountProcessor> tester;
  EXPECT_THAT(tester.peekValueState<int64_t>("a", "cnt"),
              FailsWith(Status::Code::kNotFound, "it declares: count"));
  EXPECT_THAT(tester.peekListState<int64_t>("a", "count"), FailsWith("not a ListState"));
  auto vars = tester.stateVariables();
  ASSERT_THAT(vars, IsOk());
  EXPECT_THAT(vars.value(), ElementsAre(Pair("count", "value")));
}

TEST(ProcessorTester, SetAndDeleteStateOfAnyKey) {
  ProcessorTester<CountProcessor> tester;
  ASSERT_THAT(tester.setValueState<int64_t>("a", "count", 41), IsOk());
  EXPECT_THAT(tester.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"count", 42}}}));
  ASSERT_THAT(tester.deleteState("a", "count"), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("a", "count")), std::nullopt);
  EXPECT_THAT(tester.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"count", 1}}}));
  EXPECT_THAT(tester.setValueState<int64_t>("a", "nope", 1), FailsWith(Status::Code::kNotFound));
}

TEST(ProcessorTester, ListAndMapStateOfTheSimpleCounter) {
  ProcessorTester<SimpleCounterProcessor> tester({.groupBy = {"id"}});
  ASSERT_THAT(tester.test("u1", {Row{{"value", "a"}}, Row{{"value", "b"}}}), IsOk());
  auto vars = valueOrFail(tester.stateVariables());
  EXPECT_THAT(vars, ElementsAre(Pair("valueState", "value"), Pair("listState", "list"),
                                Pair("mapState", "map")));
  ASSERT_THAT(tester.setListState<int32_t>("u1", "listState", {7, 8}), IsOk());
  EXPECT_THAT(valueOrFail(tester.peekListState<int32_t>("u1", "listState")), ElementsAre(7, 8));
  ASSERT_THAT((tester.setMapState<std::string, int32_t>("u1", "mapState", {{"k", 3}, {"j", 4}})),
              IsOk());
  // Entries come back in ascending user-key order.
  EXPECT_THAT((valueOrFail(tester.peekMapState<std::string, int32_t>("u1", "mapState"))),
              ElementsAre(Pair("j", 4), Pair("k", 3)));
}

TEST(ProcessorTester, SessionTrackerKeepsSessionsInMapState) {
  ProcessorTester<SessionTrackerProcessor> tester({.groupBy = {"user_id"}});
  EXPECT_THAT(tester.test("u1", {Row{{"session_id", "s1"}}, Row{{"session_id", "s1"}},
                                 Row{{"session_id", "s2"}}}),
              EmitsNothing());
  EXPECT_THAT((valueOrFail(tester.peekMapState<std::string, int64_t>("u1", "sessions"))),
              ElementsAre(Pair("s1", 2), Pair("s2", 1)));
}

TEST(ProcessorTester, ProcessingTimeTimersFireWhenDue) {
  ProcessorTester<HeartbeatProcessor> tester(
      {.groupBy = {"sensor"}, .timeMode = TimeMode::kProcessingTime, .processingTimeMs = 1000});
  ASSERT_THAT(tester.test("s1", {Row{{"reading", 1.5}}}), IsOk());
  EXPECT_THAT(valueOrFail(tester.listTimers("s1")), ElementsAre(11'000));
  EXPECT_THAT(tester.setProcessingTime(10'999), EmitsNothing());
  EXPECT_THAT(tester.setProcessingTime(11'000),
              EmitsRows({Row{{"sensor", "s1"}, {"status", "missing"}, {"last_seen", int64_t{1000}}}}));
  EXPECT_THAT(valueOrFail(tester.listTimers("s1")), IsEmpty());
  EXPECT_THAT(tester.setProcessingTime(5), FailsWith("forward only"));
}

TEST(ProcessorTester, TimersCanBeRegisteredAndDeletedByTheTest) {
  ProcessorTester<HeartbeatProcessor> tester(
      {.groupBy = {"sensor"}, .timeMode = TimeMode::kProcessingTime});
  ASSERT_THAT(tester.registerTimer("s9", 500), IsOk());
  ASSERT_THAT(tester.registerTimer("s9", 700), IsOk());
  ASSERT_THAT(tester.deleteTimer("s9", 700), IsOk());
  EXPECT_THAT(valueOrFail(tester.listTimers("s9")), ElementsAre(500));
  EXPECT_THAT(tester.setProcessingTime(600),
              EmitsRows({Row{{"sensor", "s9"}, {"status", "missing"}, {"last_seen", Value()}}}));
}

TEST(ProcessorTester, TtlHidesAndRemovesExpiredValues) {
  ProcessorTester<TtlCacheProcessor> tester(
      {.groupBy = {"key"}, .timeMode = TimeMode::kProcessingTime});
  ASSERT_THAT(tester.test("k", {Row{{"value", "v1"}}}), IsOk());
  ASSERT_THAT(tester.setProcessingTime(59'999), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<std::string>("k", "value")), "v1");
  ASSERT_THAT(tester.setProcessingTime(60'000), IsOk());  // expiresAt = 0 + 60s, inclusive
  EXPECT_EQ(valueOrFail(tester.peekValueState<std::string>("k", "value")), std::nullopt);
  EXPECT_THAT(tester.test("k", {Row{{"value", "v2"}}}),
              EmitsRows({Row{{"key", "k"}, {"value", "v2"}, {"previous", Value()}}}));
}

// Spark's getTTLValue test hook on the tester: the value with its expiry, read without
// enforcing TTL; once the cleanup ran it is gone from both reads.
TEST(ProcessorTester, PeekWithoutTtlGivesTheValueAndItsExpiry) {
  ProcessorTester<TtlCacheProcessor> tester(
      {.groupBy = {"key"}, .timeMode = TimeMode::kProcessingTime, .processingTimeMs = 1'000});
  ASSERT_THAT(tester.test("k", {Row{{"value", "v1"}}}), IsOk());
  auto ttl = valueOrFail(tester.peekValueStateTTL<std::string>("k", "value"));
  ASSERT_TRUE(ttl.has_value());
  EXPECT_EQ(ttl->first, "v1");
  EXPECT_EQ(ttl->second, std::optional<TimeMs>(61'000));  // 1 s + the processor's 60 s TTL
  RawStateValue raw = valueOrFail(tester.peekRawWithoutTTL("k", "value"));
  EXPECT_EQ(raw.valueExpiresAt, std::optional<TimeMs>(61'000));
  ASSERT_THAT(tester.setProcessingTime(61'000), IsOk());  // expired and cleaned up
  EXPECT_EQ(valueOrFail(tester.peekValueStateTTL<std::string>("k", "value")), std::nullopt);
  EXPECT_THAT(tester.peekValueStateTTL<std::string>("k", "nope"), FailsWith(Status::Code::kNotFound));
}

// Keeps each row's `value` in a list and a map (value -> rows seen), both with a 10 s TTL.
class TtlListAndMap : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    seen_ = handle.getListState<std::string>("seen", TTLConfig{10'000});
    counts_ = handle.getMapState<std::string, int64_t>("counts", TTLConfig{10'000});
  }
  void handleInputRows(const Row&, RowRange rows, const TimerValues&, Output&) override {
    for (const Row& r : rows) {
      std::string v = r.get("value").asString();
      seen_.appendValue(v);
      counts_.updateValue(v, counts_.getValue(v).value_or(0) + 1);
    }
  }

 private:
  ListState<std::string> seen_;
  MapState<std::string, int64_t> counts_;
};

// Spark's getTTLValues / the MapState TTL test hooks on the tester: every list element and map
// entry with its own expiry (the time it was written + the TTL), read without enforcing TTL;
// the cleanup at the expiry removes the first ones only.
TEST(ProcessorTester, PeekListAndMapStateTtlGiveEachElementsExpiry) {
  ProcessorTester<TtlListAndMap> tester(
      {.groupBy = {"key"}, .timeMode = TimeMode::kProcessingTime, .processingTimeMs = 1'000});
  ASSERT_THAT(tester.test("k", {Row{{"value", "a"}}}), IsOk());
  ASSERT_THAT(tester.setProcessingTime(5'000), IsOk());
  ASSERT_THAT(tester.test("k", {Row{{"value", "b"}}}), IsOk());
  using Elem = std::pair<std::string, std::optional<TimeMs>>;
  using Entry = std::tuple<std::string, int64_t, std::optional<TimeMs>>;
  EXPECT_THAT(valueOrFail(tester.peekListStateTTL<std::string>("k", "seen")),
              ElementsAre(Elem{"a", 11'000}, Elem{"b", 15'000}));
  EXPECT_THAT((valueOrFail(tester.peekMapStateTTL<std::string, int64_t>("k", "counts"))),
              ElementsAre(Entry{"a", 1, 11'000}, Entry{"b", 1, 15'000}));
  ASSERT_THAT(tester.setProcessingTime(11'000), IsOk());  // a expired and cleaned up
  EXPECT_THAT(valueOrFail(tester.peekListStateTTL<std::string>("k", "seen")),
              ElementsAre(Elem{"b", 15'000}));
  EXPECT_THAT((valueOrFail(tester.peekMapStateTTL<std::string, int64_t>("k", "counts"))),
              ElementsAre(Entry{"b", 1, 15'000}));
  EXPECT_THAT((tester.peekMapStateTTL<std::string, int64_t>("k", "seen")), FailsWith("is not a MapState"));
}

TEST(ProcessorTester, TtlStampOfASetValueIsTheCurrentTime) {
  ProcessorTester<TtlCacheProcessor> tester(
      {.groupBy = {"key"}, .timeMode = TimeMode::kProcessingTime, .processingTimeMs = 5'000});
  ASSERT_THAT(tester.setValueState<std::string>("k", "value", "seeded"), IsOk());
  ASSERT_THAT(tester.setProcessingTime(64'999), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<std::string>("k", "value")), "seeded");
  ASSERT_THAT(tester.setProcessingTime(65'000), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<std::string>("k", "value")), std::nullopt);
}

TEST(ProcessorTester, InitialStateIsHandledInTheFirstBatch) {
  ProcessorTester<CounterWithInitialState> tester(
      {.groupBy = {"id"},
       .initialState = std::vector<Row>{Row{{"id", "a"}, {"count", 5}},
                                        Row{{"id", "b"}, {"count", 9}}}});
  // Before any batch a peek sees what batch 0 would load.
  EXPECT_EQ(valueOrFail(tester.peekValueState<int32_t>("b", "countState")), 9);
  EXPECT_THAT(tester.test("a", {Row{{"value", 1}}}), EmitsRows({Row{{"id", "a"}, {"count", 6}}}));
  EXPECT_EQ(valueOrFail(tester.peekValueState<int32_t>("b", "countState")), 9);
}

TEST(ProcessorTester, RestartKeepsCommittedStateAndCallsInitAgain) {
  ProcessorTester<CountProcessor> tester;
  ASSERT_THAT(tester.test("a", {click(), click()}), IsOk());
  ASSERT_THAT(tester.restart(), IsOk());
  EXPECT_THAT(tester.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"count", 3}}}));
  ASSERT_THAT(tester.restart(), IsOk());
  ASSERT_THAT(tester.restart(), IsOk());
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("a", "count")), 3);
}

TEST(ProcessorTester, RestartWorksOnTheRocksDBStoreToo) {
  TesterOptions options;
  options.stateStore.kind = StateStoreKind::kRocksDB;
  ProcessorTester<CountProcessor> tester(options);
  for (int i = 0; i < 12; ++i) ASSERT_THAT(tester.test("a", {click()}), IsOk());
  ASSERT_THAT(tester.restart(), IsOk());
  EXPECT_THAT(tester.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"count", 13}}}));
}

// --- processors written for these tests ---

// Registers a timer in init: a handle-rule violation.
class TimerInInit : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { handle.registerTimer(1); }
  void handleInputRows(const Row&, RowRange, const TimerValues&, Output&) override {}
};

// Counts, and throws on a row with boom=true (after updating the count).
class Fragile : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { n_ = handle.getValueState<int64_t>("n"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t n = n_.get();
    for (const Row& r : rows) {
      n_.update(++n);
      if (r.get("boom") == Value(true)) throw std::runtime_error("boom on purpose");
    }
    out.emit(Row{{"key", key[0]}, {"n", n}});
  }

 private:
  ValueState<int64_t> n_;
};

// Event-time timer at the row's event time + 5s; emits the key when it fires.
class EventTimeAlarm : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row&, RowRange rows, const TimerValues&, Output&) override {
    for (const Row& r : rows) getHandle().registerTimer(r.get("ts").asLong() + 5000);
  }
  void handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo& info,
                          Output& out) override {
    out.emit(Row{{"key", key[0]}, {"fired", info.getExpiryTimeInMs()},
                 {"watermark", tv.getCurrentWatermarkInMs()}});
  }
};

TEST(ProcessorTester, HandleRuleErrorsFailTheCallAsInAQuery) {
  ProcessorTester<TimerInInit> tester({.timeMode = TimeMode::kProcessingTime});
  EXPECT_THAT(tester.test("a", {click()}),
              FailsWithCondition("STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                                 {{"operationType", "register_timer"}, {"handleState", "PRE_INIT"}}));
  ProcessorTester<EventTimeAlarm> none({.timeMode = TimeMode::kNone});
  EXPECT_THAT(none.test("a", {Row{{"ts", int64_t{1}}}}),
              FailsWithCondition("STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                                 {{"operationType", "register_timer"}, {"timeMode", "NoTime"}}));
}

TEST(ProcessorTester, AnExceptionAbortsTheBatchAndKeepsTheCommittedState) {
  ProcessorTester<Fragile> tester;
  EXPECT_THAT(tester.test("a", {click(), click()}), EmitsRows({Row{{"key", "a"}, {"n", 2}}}));
  EXPECT_THAT(tester.test("a", {click(), Row{{"boom", true}}}),
              FailsWith(Status::Code::kTaskFailed, "boom on purpose"));
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("a", "n")), 2);
  EXPECT_EQ(tester.nextBatchId(), 1);
  EXPECT_THAT(tester.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"n", 3}}}));
}

TEST(ProcessorTester, EventTimeTimersFireWhenTheWatermarkPasses) {
  ProcessorTester<EventTimeAlarm> tester(
      {.timeMode = TimeMode::kEventTime, .inputEventTimeColumn = "ts"});
  ASSERT_THAT(tester.test("a", {Row{{"ts", Value::timestamp(10'000)}}}), EmitsNothing());
  EXPECT_THAT(valueOrFail(tester.listTimers("a")), ElementsAre(15'000));
  EXPECT_THAT(tester.setWatermark(14'999), EmitsNothing());
  EXPECT_THAT(tester.setWatermark(15'000),
              EmitsRows({Row{{"key", "a"}, {"fired", int64_t{15'000}}, {"watermark", int64_t{15'000}}}}));
  // A row at or below the watermark is late and dropped before handleInputRows.
  EXPECT_THAT(tester.test("a", {Row{{"ts", Value::timestamp(15'000)}}}), EmitsNothing());
  EXPECT_THAT(valueOrFail(tester.listTimers("a")), IsEmpty());
}

TEST(ProcessorTester, MultiColumnKeysArePassedAsRows) {
  ProcessorTester<CountProcessor> tester({.groupBy = {"country", "city"}});
  Row key{{"country", "fr"}, {"city", "lyon"}};
  EXPECT_THAT(tester.test(key, {click()}),
              EmitsRows({Row{{"country", "fr"}, {"city", "lyon"}, {"count", 1}}}));
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>(key, "count")), 1);
  EXPECT_THAT(tester.test("fr", {click()}), FailsWith("pass a Row"));
}

// Counts rows per key but keeps the running total in a member, carried from one key to the
// next within a task (a bug only a batch of several keys shows).
class MemberAcrossKeys : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { n_ = handle.getValueState<int64_t>("n"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    carried_ += static_cast<int64_t>(rows.size());
    n_.update(carried_);
    out.emit(Row{{"key", key[0]}, {"n", carried_}});
  }

 private:
  ValueState<int64_t> n_;
  int64_t carried_ = 0;
};

TEST(ProcessorTester, ABatchMayHoldRowsOfSeveralKeys) {
  ProcessorTester<CountProcessor> tester;
  EXPECT_THAT(tester.test({{"b", {click()}}, {"a", {click(), click()}}, {"b", {click()}}}),
              EmitsRows({Row{{"key", "a"}, {"count", 2}}, Row{{"key", "b"}, {"count", 2}}}));
  EXPECT_EQ(tester.nextBatchId(), 1);  // one batch
  EXPECT_EQ(valueOrFail(tester.peekValueState<int64_t>("b", "count")), 2);
  EXPECT_THAT(tester.test({{"a", {Row{{"key", "b"}}}}}),
              FailsWith(Status::Code::kInvalidArgument, "another key"));
}

TEST(ProcessorTester, AMemberCarriedAcrossKeysShowsInAMultiKeyBatch) {
  // One key per batch: each batch gets a fresh processor, so the bug is invisible.
  ProcessorTester<MemberAcrossKeys> perKey;
  EXPECT_THAT(perKey.test("a", {click()}), EmitsRows({Row{{"key", "a"}, {"n", 1}}}));
  EXPECT_THAT(perKey.test("b", {click()}), EmitsRows({Row{{"key", "b"}, {"n", 1}}}));
  // Two keys in one batch share the task's processor instance: b sees a's count.
  ProcessorTester<MemberAcrossKeys> together;
  auto rows = together.test({{"a", {click()}}, {"b", {click()}}});
  ASSERT_THAT(rows, IsOk());
  EXPECT_THAT(rows, ::testing::Not(EmitsRows({Row{{"key", "a"}, {"n", 1}},
                                              Row{{"key", "b"}, {"n", 1}}})));
}

TEST(ProcessorTester, RegistryProcessorsCanBeTestedByName) {
  auto tester = makeRegistryTester(*::streamsim::test::testProcessors(), "count", {.groupBy = {"action"}});
  ASSERT_THAT(tester, IsOk());
  EXPECT_THAT((*tester)->test("open", {click()}), EmitsRows({Row{{"action", "open"}, {"count", 1}}}));
  EXPECT_THAT(makeRegistryTester(*::streamsim::test::testProcessors(), "no_such_processor", {}), FailsWith(Status::Code::kNotFound));
}

TEST(RowDiff, ReportsMissingAndUnexpectedRows) {
  RowDiff d = diffRows({Row{{"k", "a"}, {"n", 1}}, Row{{"k", "b"}, {"n", 2}}},
                       {Row{{"n", 1}, {"k", "a"}}, Row{{"k", "b"}, {"n", 3}}});
  EXPECT_FALSE(d.equal);
  ASSERT_EQ(d.missing.size(), 1u);
  EXPECT_EQ(formatRow(d.missing[0]), "{k=\"b\", n=2}");
  EXPECT_THAT(d.report, ::testing::HasSubstr("unexpected (emitted, not expected):\n  {k=\"b\", n=3}"));
  EXPECT_TRUE(diffRows({Row{{"a", 1}}, Row{{"a", 2}}}, {Row{{"a", 2}}, Row{{"a", 1}}}).equal);
  RowDiff ordered = diffRows({Row{{"a", 1}}, Row{{"a", 2}}}, {Row{{"a", 2}}, Row{{"a", 1}}},
                             RowOrder::kInOrder);
  EXPECT_FALSE(ordered.equal);
  EXPECT_THAT(ordered.report, ::testing::HasSubstr("different order: first difference at position 0"));
}

// Strict types: a long is not an int is not a timestamp (loose by default); partial rows compare
// only the listed columns; the report shows actual rows in the expected rows' column order.
TEST(RowDiff, StrictTypesPartialRowsAndOneColumnOrder) {
  const Row asInt{{"k", "a"}, {"n", int32_t{1}}};
  const Row asLong{{"k", "a"}, {"n", int64_t{1}}};
  const Row asTimestamp{{"k", "a"}, {"n", Value::timestamp(1)}};
  EXPECT_TRUE(diffRows({asInt}, {asLong}).equal);
  RowMatch strict{.strictTypes = true};
  RowDiff d = diffRows({asInt}, {asLong}, RowOrder::kAnyOrder, strict);
  EXPECT_FALSE(d.equal);
  EXPECT_THAT(d.report, ::testing::HasSubstr("types compared"));
  EXPECT_THAT(d.report, ::testing::HasSubstr("n=1 (long)"));
  EXPECT_FALSE(rowMatches(asLong, asTimestamp, strict));
  EXPECT_TRUE(rowMatches(asLong, asLong, strict));
  EXPECT_TRUE(rowMatches(Row{{"n", Value()}}, Row{{"n", Value()}}, strict));
  RowMatch partial{.partial = true};
  const Row wide{{"k", "a"}, {"n", int64_t{1}}, {"extra", "x"}};
  EXPECT_TRUE(rowMatches(Row{{"k", "a"}}, wide, partial));
  EXPECT_FALSE(rowMatches(Row{{"k", "b"}}, wide, partial));
  EXPECT_FALSE(rowMatches(Row{{"missing", 1}}, wide, partial));
  EXPECT_FALSE(rowMatches(Row{{"k", "a"}}, wide, RowMatch{}));
  EXPECT_THAT(std::vector<Row>{wide}, EmitsRowsWithColumns({Row{{"n", 1}}}));
  EXPECT_THAT(std::vector<Row>{asLong}, EmitsRowsStrict({Row{{"k", "a"}, {"n", int64_t{1}}}}));
  EXPECT_THAT(std::vector<Row>{asLong}, ::testing::Not(EmitsRowsStrict({asInt})));
  // The actual row's columns come in the expected row's order.
  RowDiff ordered = diffRows({Row{{"k", "a"}, {"n", 2}}}, {Row{{"n", 1}, {"k", "a"}}});
  EXPECT_THAT(ordered.report, ::testing::HasSubstr("actual 1 row(s):\n  {k=\"a\", n=1}"));
}

}  // namespace
}  // namespace streamsim::harness
