// Each oracle on hand-made traces and rows: it holds on a correct history and reports the first
// violation, with batch, key and the events, on a broken one.
#include <gtest/gtest.h>

#include "../engine/tws_test_util.h"
#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/sim/trace.h"

namespace streamsim::harness {
namespace {

std::string planned(int b, int64_t ts, int64_t wm = 0) {
  return R"({"event":"batch_planned","batch":)" + std::to_string(b) + R"(,"timestamp":)" +
         std::to_string(ts) + R"(,"watermark":)" + std::to_string(wm) + "}";
}
std::string commit(int b) { return R"({"event":"commit","batch":)" + std::to_string(b) + "}"; }
std::string tws(const std::string& ev, int b, const std::string& key, const std::string& extra) {
  return R"({"event":"tws.)" + ev + R"(","operator":0,"batch":)" + std::to_string(b) +
         R"(,"partition":0,"key":{"key":")" + key + "\"}" + (extra.empty() ? "" : "," + extra) + "}";
}

TEST(Oracles, CommittedBatchesDropCrashedAttemptsAndFailedTasks) {
  std::vector<std::string> t = {
      planned(0, 1000), tws("timer_registered", 0, "a", R"("ts":5000)"),
      R"({"event":"fault_injected","kind":"crash","point":"commits.before_write","batch":0})",
      planned(0, 1000), R"({"event":"task_attempt","operator":0,"batch":0,"partition":0,"attempt":0})",
      tws("timer_registered", 0, "a", R"("ts":6000)"),
      R"({"event":"task_attempt","operator":0,"batch":0,"partition":0,"attempt":1})",
      tws("timer_registered", 0, "a", R"("ts":5000)"), commit(0)};
  auto b = committedBatches(t);
  ASSERT_EQ(b.size(), 1u);
  int regs = 0;
  for (const auto& e : b[0].events) regs += e.value("event", "") == "tws.timer_registered";
  EXPECT_EQ(regs, 1);
}

TEST(Oracles, TimersFireOnceInTheFirstDueBatch) {
  std::vector<std::string> ok = {planned(0, 1000), tws("timer_registered", 0, "a", R"("ts":2000)"), commit(0),
                                 planned(1, 2000), tws("timer_fired", 1, "a", R"("ts":2000)"), commit(1)};
  EXPECT_FALSE(checkTimers(committedBatches(ok), TimerClock::kProcessingTime));

  std::vector<std::string> late = {planned(0, 1000), tws("timer_registered", 0, "a", R"("ts":2000)"), commit(0),
                                   planned(1, 2000), commit(1), planned(2, 3000),
                                   tws("timer_fired", 2, "a", R"("ts":2000)"), commit(2)};
  auto v = checkTimers(committedBatches(late), TimerClock::kProcessingTime);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 1);
  EXPECT_EQ(v->key, R"({"key":"a"})");

  std::vector<std::string> early = {planned(0, 1000), tws("timer_registered", 0, "a", R"("ts":5000)"),
                                    tws("timer_fired", 0, "a", R"("ts":5000)"), commit(0)};
  v = checkTimers(committedBatches(early), TimerClock::kProcessingTime);
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("early"), std::string::npos);

  std::vector<std::string> twice = {planned(0, 1000), tws("timer_registered", 0, "a", R"("ts":1000)"),
                                    tws("timer_fired", 0, "a", R"("ts":1000)"), commit(0), planned(1, 2000),
                                    tws("timer_fired", 1, "a", R"("ts":1000)"), commit(1)};
  v = checkTimers(committedBatches(twice), TimerClock::kProcessingTime);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 1);

  std::vector<std::string> beforeInput = {planned(0, 1000), tws("timer_registered", 0, "a", R"("ts":1000)"),
                                          tws("timer_fired", 0, "a", R"("ts":1000)"),
                                          tws("rows", 0, "b", R"("in":1,"out":0)"), commit(0)};
  EXPECT_TRUE(checkTimers(committedBatches(beforeInput), TimerClock::kProcessingTime));
}

// The oracles skip timers and ttl when the trace has none of their events: the events are found
// by their names (traceEventName), wherever they are, and both oracles pass a trace without them.
TEST(Oracles, TimersAndTtlPassTracesWithoutTheirEvents) {
  std::vector<std::string> plain = {planned(0, 1000), tws("rows", 0, "a", R"("rows":3)"), commit(0),
                                    planned(1, 2000), tws("rows", 1, "a", R"("rows":1)"), commit(1)};
  EXPECT_FALSE(traceMayHaveEvents(plain, "tws.timer_"));
  EXPECT_FALSE(traceMayHaveEvents(plain, "tws.ttl_"));
  EXPECT_FALSE(checkTimers(committedBatches(plain), TimerClock::kProcessingTime));
  EXPECT_FALSE(checkTtl(committedBatches(plain)));

  std::vector<std::string> timer = plain;
  timer.insert(timer.begin() + 4, tws("timer_fired", 1, "a", R"("ts":2000)"));
  EXPECT_TRUE(traceMayHaveEvents(timer, "tws.timer_"));
  EXPECT_FALSE(traceMayHaveEvents(timer, "tws.ttl_"));
  EXPECT_TRUE(checkTimers(committedBatches(timer), TimerClock::kProcessingTime));  // never registered

  std::vector<std::string> ttl = plain;
  ttl.insert(ttl.begin() + 1, tws("ttl_read", 0, "a", R"("state":"v","returned":true,"expiresAt":500)"));
  EXPECT_TRUE(traceMayHaveEvents(ttl, "tws.ttl_"));
  EXPECT_TRUE(checkTtl(committedBatches(ttl)));  // expired at 500, read at 1000
}

TEST(Oracles, TtlReadsAndCleanup) {
  std::vector<std::string> ok = {
      planned(0, 1000), tws("ttl_read", 0, "a", R"("state":"v","stored":false,"returned":false)"),
      tws("ttl_write", 0, "a", R"("state":"v","expiresAt":3000)"), commit(0),
      planned(1, 2000), tws("ttl_read", 1, "a", R"("state":"v","stored":true,"returned":true,"expiresAt":3000)"), commit(1),
      planned(2, 3000), tws("ttl_expired", 2, "", R"("state":"v","count":1)"), commit(2)};
  EXPECT_FALSE(checkTtl(committedBatches(ok)));

  auto seesExpired = ok;
  seesExpired[5] = tws("ttl_read", 1, "a", R"("state":"v","stored":true,"returned":true,"expiresAt":2000)");
  auto v = checkTtl(committedBatches(seesExpired));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 1);

  auto lost = ok;
  lost[5] = tws("ttl_read", 1, "a", R"("state":"v","stored":false,"returned":false)");
  v = checkTtl(committedBatches(lost));
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("found nothing"), std::string::npos);

  auto notRemoved = ok;
  notRemoved[8] = R"({"event":"input","batch":2})";
  v = checkTtl(committedBatches(notRemoved));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);
}

TEST(Oracles, TtlListElements) {
  // Batch 0 (t=1000, TTL 2 s): put two elements (expire 3000). Batch 1 (t=2000): append one
  // (expires 4000), read all three. Batch 2 (t=3000): the first two expire; a read returns only
  // the appended one; cleanup removes two. Batch 3 (t=4000): the last expires and is removed.
  std::vector<std::string> ok = {
      planned(0, 1000), tws("ttl_list_read", 0, "a", R"("state":"l","expiresAt":[])"),
      tws("ttl_list_write", 0, "a", R"("state":"l","mode":"put","count":2,"expiresAt":3000)"), commit(0),
      planned(1, 2000),
      tws("ttl_list_write", 1, "a", R"("state":"l","mode":"append","count":1,"expiresAt":4000)"),
      tws("ttl_list_read", 1, "a", R"("state":"l","expiresAt":[3000,4000,3000])"), commit(1),
      planned(2, 3000), tws("ttl_list_read", 2, "a", R"("state":"l","expiresAt":[4000])"),
      tws("ttl_expired", 2, "", R"("state":"l","count":2)"), commit(2),
      planned(3, 4000), tws("ttl_list_read", 3, "a", R"("state":"l","expiresAt":[])"),
      tws("ttl_expired", 3, "", R"("state":"l","count":1)"), commit(3)};
  EXPECT_FALSE(checkTtl(committedBatches(ok)));

  // A read sees an element that expired at the batch timestamp.
  auto seesExpired = ok;
  seesExpired[9] = tws("ttl_list_read", 2, "a", R"("state":"l","expiresAt":[3000,4000])");
  auto v = checkTtl(committedBatches(seesExpired));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);
  EXPECT_NE(v->message.find("expired at 3000"), std::string::npos) << v->message;

  // A read loses an unexpired element (append must keep the put elements).
  auto lost = ok;
  lost[6] = tws("ttl_list_read", 1, "a", R"("state":"l","expiresAt":[4000])");
  v = checkTtl(committedBatches(lost));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 1);
  EXPECT_NE(v->message.find("lost"), std::string::npos) << v->message;

  // put restamps all: after a put of one element the old ones must not come back.
  auto resurrected = ok;
  resurrected[5] =
      tws("ttl_list_write", 1, "a", R"("state":"l","mode":"put","count":1,"expiresAt":4000)");
  v = checkTtl(committedBatches(resurrected));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 1);
  EXPECT_NE(v->message.find("never written"), std::string::npos) << v->message;

  // A list with a put of one element then read as one: correct, and only one expires later.
  auto putOne = resurrected;
  putOne[6] = tws("ttl_list_read", 1, "a", R"("state":"l","expiresAt":[4000])");
  putOne[9] = tws("ttl_list_read", 2, "a", R"("state":"l","expiresAt":[4000])");
  putOne[10] = R"({"event":"input","batch":2})";
  EXPECT_FALSE(checkTtl(committedBatches(putOne)));

  // Expired elements not removed by the end of their batch.
  auto notRemoved = ok;
  notRemoved[10] = tws("ttl_expired", 2, "", R"("state":"l","count":1)");
  v = checkTtl(committedBatches(notRemoved));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);
  EXPECT_NE(v->message.find("removed only 1"), std::string::npos) << v->message;

  // clear drops every element: a later empty read is correct and nothing is expected to expire.
  std::vector<std::string> cleared = {
      planned(0, 1000),
      tws("ttl_list_write", 0, "a", R"("state":"l","mode":"append","count":2,"expiresAt":3000)"),
      tws("ttl_list_clear", 0, "a", R"("state":"l")"), commit(0), planned(1, 2000),
      tws("ttl_list_read", 1, "a", R"("state":"l","expiresAt":[])"), commit(1), planned(2, 3000),
      commit(2)};
  EXPECT_FALSE(checkTtl(committedBatches(cleared)));
}

TEST(Oracles, TtlMapEntries) {
  // Batch 0 (t=1000): x and y written (expire 3000). Batch 1 (t=2000): x rewritten (expires
  // 4000). Batch 2 (t=3000): y expired, x live; cleanup removes y. Batch 3: x expires.
  std::vector<std::string> ok = {
      planned(0, 1000),
      tws("ttl_map_read", 0, "a", R"("state":"m","userKey":"78","stored":false,"returned":false)"),
      tws("ttl_map_write", 0, "a", R"("state":"m","userKey":"78","expiresAt":3000)"),
      tws("ttl_map_write", 0, "a", R"("state":"m","userKey":"79","expiresAt":3000)"), commit(0),
      planned(1, 2000), tws("ttl_map_write", 1, "a", R"("state":"m","userKey":"78","expiresAt":4000)"),
      tws("ttl_map_iter", 1, "a", R"("state":"m","expiresAt":[4000,3000])"), commit(1),
      planned(2, 3000),
      tws("ttl_map_read", 2, "a", R"("state":"m","userKey":"78","stored":true,"returned":true,"expiresAt":4000)"),
      tws("ttl_map_read", 2, "a", R"("state":"m","userKey":"79","stored":true,"returned":false,"expiresAt":3000)"),
      tws("ttl_map_iter", 2, "a", R"("state":"m","expiresAt":[4000])"),
      tws("ttl_expired", 2, "", R"("state":"m","count":1)"), commit(2),
      planned(3, 4000), tws("ttl_expired", 3, "", R"("state":"m","count":1)"), commit(3)};
  EXPECT_FALSE(checkTtl(committedBatches(ok)));

  // getValue returns an expired entry.
  auto seesExpired = ok;
  seesExpired[11] = tws("ttl_map_read", 2, "a",
                        R"("state":"m","userKey":"79","stored":true,"returned":true,"expiresAt":3000)");
  auto v = checkTtl(committedBatches(seesExpired));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);
  EXPECT_NE(v->message.find("expired at 3000"), std::string::npos) << v->message;

  // The iterator returns an expired entry.
  auto iterExpired = ok;
  iterExpired[12] = tws("ttl_map_iter", 2, "a", R"("state":"m","expiresAt":[3000,4000])");
  v = checkTtl(committedBatches(iterExpired));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);

  // updateValue restamps that entry: a read that treats x as expired at 3000 loses it.
  auto lost = ok;
  lost[10] = tws("ttl_map_read", 2, "a",
                 R"("state":"m","userKey":"78","stored":true,"returned":false,"expiresAt":3000)");
  v = checkTtl(committedBatches(lost));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);
  EXPECT_NE(v->message.find("found nothing"), std::string::npos) << v->message;

  // The iterator misses an unexpired entry.
  auto iterLost = ok;
  iterLost[7] = tws("ttl_map_iter", 1, "a", R"("state":"m","expiresAt":[4000])");
  v = checkTtl(committedBatches(iterLost));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 1);
  EXPECT_NE(v->message.find("lost"), std::string::npos) << v->message;

  // An expired entry is not removed in its batch.
  auto notRemoved = ok;
  notRemoved[13] = R"({"event":"input","batch":2})";
  v = checkTtl(committedBatches(notRemoved));
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);

  // removeKey: a removed entry is neither expected back nor expected to expire.
  std::vector<std::string> removed = {
      planned(0, 1000), tws("ttl_map_write", 0, "a", R"("state":"m","userKey":"78","expiresAt":3000)"),
      tws("ttl_map_remove", 0, "a", R"("state":"m","userKey":"78")"), commit(0), planned(1, 3000),
      tws("ttl_map_read", 1, "a", R"("state":"m","userKey":"78","stored":false,"returned":false)"),
      commit(1)};
  EXPECT_FALSE(checkTtl(committedBatches(removed)));
  auto comesBack = removed;
  comesBack[5] = tws("ttl_map_iter", 1, "a", R"("state":"m","expiresAt":[5000])");
  v = checkTtl(committedBatches(comesBack));
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("never written"), std::string::npos) << v->message;
}

// The engine's own list and map TTL trace events (tws_state.cc) satisfy the oracle: a processor
// that puts, appends, reads, updates, iterates and removes, run batch by batch on both stores.
TEST(Oracles, TtlHoldsOnTheEnginesListAndMapTrace) {
  for (StateStoreKind kind : {StateStoreKind::kMemory, StateStoreKind::kRocksDB}) {
    testing::TwsDriver d(kind, 2);
    sim::TraceRecorder trace;
    d.setTrace(&trace);
    auto h = std::make_shared<testing::ScriptedProcessor::Hooks>();
    h->init = [](testing::ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.list = handle.getListState<int64_t>("l", TTLConfig{100});
      p.map = handle.getMapState<std::string, int64_t>("m", TTLConfig{100});
    };
    // v > 0: append v and update entry "e<v mod 3>"; v < 0: put [-v, -v] and remove entry "e0";
    // v == 0: clear both. Then read the list, the map and entry "e1".
    h->input = [](testing::ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues&,
                  Output& out) {
      for (const Row& r : rows) {
        int64_t v = r.get("v").asLong();
        if (v > 0) {
          p.list.appendValue(v);
          p.map.updateValue("e" + std::to_string(v % 3), v);
        } else if (v < 0) {
          p.list.put({-v, -v});
          p.map.removeKey("e0");
        } else {
          p.list.clear();
          p.map.clear();
        }
      }
      int64_t n = static_cast<int64_t>(p.list.get().size() + p.map.iterator().size());
      out.emit(Row{{"k", key[0]}, {"n", n}, {"hasE1", p.map.containsKey("e1")}});
    };
    TransformWithStateSpec s;
    s.groupBy = {"k"};
    s.processorFactory = testing::scripted(h);
    s.processorName = "scripted";
    s.timeMode = TimeMode::kProcessingTime;
    ASSERT_TRUE(d.start(s).ok());
    auto row = [](const char* k, int64_t v) { return Row{{"k", k}, {"v", v}}; };
    const std::vector<std::pair<TimeMs, std::vector<Row>>> plan = {
        {0, {row("a", 1), row("a", 2), row("b", 3)}},
        {50, {row("a", 4), row("b", -5)}},
        {100, {row("a", 6), row("b", 7)}},
        {140, {row("a", -8), row("c", 1)}},
        {160, {row("c", 0), row("b", 2)}},
        {200, {row("a", 9)}},
        {260, {row("b", 1)}},
        {400, {row("a", 3), row("b", 3)}}};
    std::vector<std::string> lines;
    for (size_t i = 0; i < plan.size(); ++i) {
      size_t before = trace.lines().size();
      ASSERT_TRUE(d.run(plan[i].second, plan[i].first).ok());
      lines.push_back(planned(static_cast<int>(i), plan[i].first));
      for (size_t j = before; j < trace.lines().size(); ++j) lines.push_back(trace.lines()[j]);
      lines.push_back(commit(static_cast<int>(i)));
    }
    std::string text = trace.text();
    for (const char* e : {"tws.ttl_list_write", "tws.ttl_list_read", "tws.ttl_list_clear",
                          "tws.ttl_map_write", "tws.ttl_map_read", "tws.ttl_map_iter",
                          "tws.ttl_map_remove", "tws.ttl_map_clear", "tws.ttl_expired"})
      EXPECT_NE(text.find(e), std::string::npos) << e << " missing in:\n" << text;
    auto v = checkTtl(committedBatches(lines));
    EXPECT_FALSE(v) << v->message;

    // The oracle is not vacuous on this trace: dropping the engine's cleanup counts breaks it.
    std::vector<std::string> noCleanup;
    for (const std::string& l : lines)
      if (l.find("tws.ttl_expired") == std::string::npos) noCleanup.push_back(l);
    v = checkTtl(committedBatches(noCleanup));
    ASSERT_TRUE(v);
    EXPECT_NE(v->message.find("removed only 0"), std::string::npos) << v->message;
  }
}

TEST(Oracles, ExactlyOnceReportsDuplicatesAndLosses) {
  Row a{{"key", "a"}, {"count", int64_t{1}}}, b{{"key", "b"}, {"count", int64_t{1}}};
  EXPECT_FALSE(checkExactlyOnce({a, b}, {b, a}));
  auto v = checkExactlyOnce({a, b}, {a, b, a}, {0, 1, 2}, "foreach");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 2);
  EXPECT_NE(v->message.find("duplicate"), std::string::npos);
  v = checkExactlyOnce({a, b}, {a});
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("lost"), std::string::npos);
}

TEST(Oracles, WatermarkDeterminismStateBoundBatchSplit) {
  std::vector<sim::Event> ev = {{"e1", "k", 10'000, 1}, {"e2", "k", 20'000, 1}, {"e3", "k", 12'000, 1},
                                {"e4", "k", 18'000, 1}};
  std::vector<Row> sink = {Row{{"event_id", "e1"}}, Row{{"event_id", "e2"}}, Row{{"event_id", "e4"}}};
  EXPECT_FALSE(checkWatermark(ev, 5'000, sink));  // e3 is 8 s behind: late, may be dropped
  sink.pop_back();
  auto v = checkWatermark(ev, 5'000, sink);
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("e4"), std::string::npos);

  RunOutcome first, second;
  first.fingerprint = second.fingerprint = 1;
  first.trace = second.trace = {"x"};
  EXPECT_FALSE(checkDeterminism(first, second));
  second.fingerprint = 2;
  first.trace = {"a", "b"};
  second.trace = {"a", "c"};
  v = checkDeterminism(first, second);
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("line 2"), std::string::npos);

  QueryProgress p;
  p.batchId = 3;
  p.stateOperators.push_back(StateOperatorProgress{});
  p.stateOperators[0].numRowsTotal = 50;
  EXPECT_FALSE(checkStateBound({p}, 50));
  v = checkStateBound({p}, 49);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->batch, 3);

  Row a1{{"key", "a"}, {"count", int64_t{1}}}, a2{{"key", "a"}, {"count", int64_t{2}}};
  EXPECT_FALSE(checkBatchSplitInvariance({a1, a2}, {a2}, {"key"}));
  EXPECT_TRUE(checkBatchSplitInvariance({a2, a1}, {a2}, {"key"}));
}

// Bug batch_split_output_without_key: a correct processor whose output names its key column
// `id` (not the grouping column `key`) failed batch_split — every row counted as the one null
// key's, and the last of them depends on the batching. It is an error naming the column now.
// Issue 33: determinism compares what the two runs produced and left, not only their traces (a
// trace counts rows per key but does not hold their values).
TEST(Oracles, DeterminismComparesSinkRowsAndCommittedStateNotOnlyTheTrace) {
  RunOutcome first, second;
  first.trace = second.trace = {"{\"event\":\"batch.planned\",\"batch\":0}"};
  first.sinkRows = {Row{{"key", "a"}, {"id", "6f1c"}}};
  second.sinkRows = {Row{{"key", "a"}, {"id", "09be"}}};
  first.sinkBatchOf = second.sinkBatchOf = {0};
  auto v = checkDeterminism(first, second);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->oracle, "determinism");
  EXPECT_EQ(v->batch, 0);
  EXPECT_NE(v->message.find("wrote other rows to the sink"), std::string::npos) << v->message;
  EXPECT_NE(v->events.at(1).find("09be"), std::string::npos);

  second.sinkRows = first.sinkRows;
  first.committedState = {"op 0 key a count 1"};
  second.committedState = {"op 0 key a count 2"};
  v = checkDeterminism(first, second);
  ASSERT_TRUE(v);
  EXPECT_NE(v->message.find("another committed state"), std::string::npos) << v->message;

  second.committedState = first.committedState;
  EXPECT_FALSE(checkDeterminism(first, second));
}

TEST(Oracles, BatchSplitOutputWithoutKeyIsAnErrorNotAViolation) {
  RunOutcome run;
  OracleInput in(run);
  Row a{{"id", "a"}, {"count", int64_t{2}}}, b{{"id", "b"}, {"count", int64_t{1}}};
  in.batchSplit = [&] { return std::make_pair(std::vector<Row>{a, b}, std::vector<Row>{b, a}); };
  RunOutcome out;
  auto errors = applyOracles({"batch_split"}, in, out);
  EXPECT_TRUE(out.violations.empty());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].oracle, "batch_split");
  EXPECT_NE(errors[0].status.message().find("no column 'key' (its columns: id, count)"), std::string::npos)
      << errors[0].status.message();
  // With the grouping column the same rows are judged, and pass.
  Row ka{{"key", "a"}, {"count", int64_t{2}}}, kb{{"key", "b"}, {"count", int64_t{1}}};
  in.batchSplit = [&] { return std::make_pair(std::vector<Row>{ka, kb}, std::vector<Row>{kb, ka}); };
  EXPECT_TRUE(applyOracles({"batch_split"}, in, out).empty());
  EXPECT_TRUE(out.violations.empty());
}

TEST(Oracles, ViolationJsonRoundTrip) {
  Violation v{"timers", 3, "{\"key\":\"a\"}", "did not fire", {"line"}};
  Violation back = Violation::fromJson(v.toJson());
  EXPECT_EQ(back.toString(), v.toString());
  EXPECT_EQ(oracleNames().front(), "exactly_once");
}

}  // namespace
}  // namespace streamsim::harness
