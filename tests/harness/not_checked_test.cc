// The intent oracles a sweep lists as "not checked" (oracles/not_checked.h) come from every query a
// scenario runs, not only its first: a processor with timers brought in by a restart's new query
// still offers {timer_bound: N}, a real-time restart {latency_bound: ...}; batch_split and
// mode_equivalence, which the loader refuses once a restart switches the query, are not offered.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "streamsim/harness/oracles/not_checked.h"
#include "streamsim/harness/scenario.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

std::vector<std::string> notChecked(const std::string& yaml) {
  ScenarioLoad load = parseScenario(yaml, "not_checked.yaml", ::streamsim::test::testLoader());
  EXPECT_TRUE(load.ok()) << load.errorText();
  if (!load.ok()) return {};
  std::vector<std::string> out;
  for (const NotChecked& n : notCheckedOracles(*load.scenario)) out.push_back(n.oracle);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

const char* kCountQuery = R"(
name: a count, then a heartbeat after a restart
query:
  source: {kind: memory, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{device: d1}]
  - run: 1
)";

TEST(NotCheckedOracles, OneQueryWithoutTimersOffersBatchSplitAndNoTimerBound) {
  std::string simpleCounter = kCountQuery;
  simpleCounter.replace(simpleCounter.find("processor: count"), 16, "processor: simple_counter");
  auto v = notChecked(simpleCounter);
  EXPECT_TRUE(has(v, "batch_split"));
  EXPECT_FALSE(has(v, "{timer_bound: N}"));
  // The count promises batch_split and its reference (oracles/promises.h): checked, not listed.
  auto count = notChecked(kCountQuery);
  EXPECT_FALSE(has(count, "batch_split"));
  EXPECT_FALSE(has(count, "{reference: NAME | file.py:function}"));
}

TEST(NotCheckedOracles, ATimerProcessorBroughtInByARestartOffersTimerBound) {
  auto v = notChecked(std::string(kCountQuery) + R"(  - restart:
      query:
        operators:
          - groupBy: [device]
            transformWithState: {processor: heartbeat, outputMode: update, timeMode: ProcessingTime}
  - add_rows: [{device: d2}]
  - run: 1
)");
  EXPECT_TRUE(has(v, "{timer_bound: N}")) << "the restart's query registers timers";
  EXPECT_FALSE(has(v, "batch_split")) << "the loader refuses batch_split once a restart switches the query";
  EXPECT_TRUE(has(v, "{reference: NAME | file.py:function}"));
}

TEST(NotCheckedOracles, ARestartIntoRealTimeOffersALatencyBoundButNotModeEquivalence) {
  auto v = notChecked(R"(
name: micro-batch, then real time
query:
  source: {kind: kafka, topic: events, partitions: 2, options: {startingOffsets: earliest}}
  operators:
    - groupBy: [key]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: kafka, topic: counts}
  outputMode: update
  stateStore: rocksdb
steps:
  - produce:
      records:
        - {key: a, value: "1", at: "2026-01-01T00:00:01Z"}
  - advance: 5s
  - run: available
  - restart:
      query:
        trigger: {realTime: 10s}
        conf: {spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled: "true"}
)");
  EXPECT_TRUE(has(v, "{latency_bound: {p99: D}}"));
  EXPECT_FALSE(has(v, "mode_equivalence"));
}

}  // namespace
}  // namespace streamsim::harness
