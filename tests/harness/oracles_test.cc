// Each oracle on hand-made traces and rows: it holds on a correct history and reports the first
// violation, with batch, key and the events, on a broken one.
#include <gtest/gtest.h>

#include "streamsim/harness/oracles.h"

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

  EXPECT_FALSE(checkDeterminism(1, 1, {"x"}, {"x"}));
  v = checkDeterminism(1, 2, {"a", "b"}, {"a", "c"});
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

TEST(Oracles, ViolationJsonRoundTrip) {
  Violation v{"timers", 3, "{\"key\":\"a\"}", "did not fire", {"line"}};
  Violation back = Violation::fromJson(v.toJson());
  EXPECT_EQ(back.toString(), v.toString());
  EXPECT_EQ(oracleNames().front(), "exactly_once");
}

}  // namespace
}  // namespace streamsim::harness
