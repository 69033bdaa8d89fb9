// Real-time mode (SEMANTICS.md §7, seed 004): the Kafka-like log, the Kafka offset JSON, the
// long-batch execution (the seed's late timer, per-row calls), the start-time checks with
// Spark's error conditions, latency, mode equivalence and inspect on a real-time checkpoint.
#include <filesystem>

#include <gtest/gtest.h>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/sim/kafka_log.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

constexpr TimeMs kTen = 1767261600000;  // 2026-01-01T10:00:00Z

std::string scenarioPath(const std::string& name) {
  return std::string(STREAMSIM_SOURCE_DIR) + "/scenarios/realtime/" + name;
}

TEST(KafkaOffsets, SparkJsonWithPartitionsInNumericOrder) {
  KafkaOffsets o;
  o["t"][10] = 5;
  o["t"][2] = 1;
  o["a"][0] = 23;
  EXPECT_EQ(kafkaOffsetsJson(o), R"({"a":{"0":23},"t":{"2":1,"10":5}})");
  auto back = parseKafkaOffsets(R"({"topic":{"0":23,"1":10}})", "x");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ((*back)["topic"][1], 10);
  EXPECT_FALSE(parseKafkaOffsets(R"({"logOffset":3})", "x").ok());
  EXPECT_FALSE(parseKafkaOffsets(R"({"t":{"p":3}})", "x").ok());
}

TEST(KafkaLog, AppendTimesRetentionAndARetryingProducer) {
  sim::KafkaLog log;
  ASSERT_TRUE(log.createTopic("t", {1, 1000}).ok());
  ASSERT_TRUE(log.produce("t", "k", "v1", 5000, 0, /*duplicates=*/1).ok());
  ASSERT_TRUE(log.produce("t", "k", "v2", 4000, 0).ok());  // an earlier time: appended after
  EXPECT_EQ(log.endOffset("t", 0, 4999), 0);
  EXPECT_EQ(log.endOffset("t", 0, 5000), 3);  // the retried copy and v2 (append time 5000)
  auto recs = log.read("t", 0, 0, 3);
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[1].value, "v1");
  EXPECT_EQ(recs[2].timestamp, 4000);
  EXPECT_EQ(recs[2].appendTime, 5000);
  EXPECT_EQ(log.earliestOffset("t", 0, 5500), 0);
  EXPECT_EQ(log.earliestOffset("t", 0, 6001), 3);  // retention 1 s deleted all three
  EXPECT_FALSE(log.numPartitions("missing").ok());
}

// The seed's example, driven by hand: a timer due at 10:00:00, the next row at 10:00:10.
SimEnvOptions lateTimerEnv() {
  SimEnvOptions o;
  o.seed = 1;
  o.startTimeMs = kTen - 10'000;
  return o;
}

struct LateTimerRun {
  SimEnv sim{lateTimerEnv()};
  std::shared_ptr<sim::KafkaLog> log = std::make_shared<sim::KafkaLog>();
  std::shared_ptr<MemorySinkData> out = std::make_shared<MemorySinkData>();

  Status start() {
    STREAMSIM_RETURN_IF_ERROR(log->createTopic("events", {1, 0}));
    auto source = makeKafkaSource(log, {{"subscribe", "events"}, {"startingOffsets", "earliest"}});
    if (!source.ok()) return source.status();
    DataStreamWriter w = readStream(*source)
                             .groupBy({"key"})
                             .transformWithState(*::streamsim::test::testProcessors(), "late_timer", TimeMode::kProcessingTime, OutputMode::kUpdate)
                             .writeStream();
    w.sink(makeMemorySink(out)).outputMode(OutputMode::kUpdate).trigger(Trigger::RealTime(5 * 60'000));
    w.option("checkpointLocation", "/chk").option("spark.sql.shuffle.partitions", "1");
    return sim.start(w);
  }
};

TEST(RealTime, TimerDueAt10FiresAt10h00m10sWhenTheNextRowArrives) {
  LateTimerRun run;
  ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("events", "a", "2026-01-01T10:00:00Z", kTen - 10'000).ok());
  ASSERT_TRUE(run.log->produce("events", "a", "2026-01-01T11:00:00Z", kTen + 10'000).ok());
  ASSERT_TRUE(run.start().ok());
  auto ran = run.sim.guarded([](StreamingQuery& q) { return q.runBatches(1); });
  ASSERT_TRUE(ran.ok()) << ran.status().message();
  std::vector<Row> rows = run.out->appendView();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].get("due"), Value::timestamp(kTen));
  EXPECT_EQ(rows[0].get("fired_at"), Value::timestamp(kTen + 10'000));  // 10 s late
  const QueryProgress* p = run.sim.query()->lastProgress();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->batchDurationMs, 5 * 60'000);
  EXPECT_EQ(p->stateOperators.at(0).numTimersFired, 1);
}

TEST(RealTime, TimerWithNoDataAfterItFiresAtTheLongBatchsEnd) {
  LateTimerRun run;
  ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("events", "a", "2026-01-01T10:00:00Z", kTen - 10'000).ok());
  ASSERT_TRUE(run.start().ok());
  ASSERT_TRUE(run.sim.guarded([](StreamingQuery& q) { return q.runBatches(1); }).ok());
  std::vector<Row> rows = run.out->appendView();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].get("fired_at"), Value::timestamp(kTen - 10'000 + 5 * 60'000));
}

TEST(RealTime, TriggerIntervalBelowTheMinimumFailsToStart) {
  for (DurationMs d : {DurationMs{-1}, DurationMs{0}, DurationMs{4999}}) {
    LateTimerRun run;
    ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
    auto source = makeKafkaSource(run.log, {{"subscribe", "events"}});
    ASSERT_TRUE(source.ok());
    DataStreamWriter w = readStream(*source).writeStream();
    w.sink(makeMemorySink(run.out)).outputMode(OutputMode::kUpdate).trigger(Trigger::RealTime(d));
    w.option("checkpointLocation", "/chk");
    Status st = run.sim.start(w);
    // StreamRealTimeModeSuite "error: batch duration is set less than minimum": checkError's
    // condition and parameters.
    EXPECT_EQ(st.condition(), "INVALID_STREAMING_REAL_TIME_MODE_TRIGGER_INTERVAL") << d << ": " << st.toString();
    EXPECT_EQ(st.parameter("interval"), std::optional<std::string>(std::to_string(d))) << st.toString();
    EXPECT_EQ(st.parameter("minBatchDuration"), std::optional<std::string>("5000")) << st.toString();
  }
  LateTimerRun ok;
  ASSERT_TRUE(ok.log->createTopic("events", {1, 0}).ok());
  auto source = makeKafkaSource(ok.log, {{"subscribe", "events"}});
  DataStreamWriter w = readStream(*source).writeStream();
  w.sink(makeMemorySink(ok.out)).outputMode(OutputMode::kUpdate).trigger(Trigger::RealTime(5000));
  w.option("checkpointLocation", "/chk");
  EXPECT_TRUE(ok.sim.start(w).ok());
}

// Every unsupported combination fails to start with its condition (each file expects it).
TEST(RealTime, EveryUnsupportedCombinationFailsWithItsCondition) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(scenarioPath("unsupported"))) {
    auto sc = loadScenario(e.path().string(), ::streamsim::test::testLoader());
    ASSERT_TRUE(sc.ok()) << sc.status().message();
    auto r = runScenario(*sc);
    EXPECT_TRUE(r.passed()) << e.path() << "\n" << r.report();
    ++n;
  }
  EXPECT_GE(n, 10);
}

// Regression (sweep false alarm, unsupported/file_sink.yaml seed 1306): the allowlist was
// checked after the checkpoint's metadata file was written, so a crash in that write hid the
// condition the scenario expects. A refused real-time query now writes nothing.
TEST(RealTime, RefusedAtStartBeforeTheCheckpointIsWritten) {
  LateTimerRun run;
  ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
  auto source = makeKafkaSource(run.log, {{"subscribe", "events"}});
  ASSERT_TRUE(source.ok());
  DataStreamWriter w = readStream(*source).dropDuplicatesWithinWatermark({"key"}).writeStream();
  w.sink(makeMemorySink(run.out)).outputMode(OutputMode::kUpdate).trigger(Trigger::RealTime(60'000));
  w.option("checkpointLocation", "/chk");
  Status st = run.sim.start(w);
  EXPECT_NE(st.message().find("OPERATOR_OR_SINK_NOT_IN_ALLOWLIST"), std::string::npos) << st.toString();
  EXPECT_FALSE(run.sim.env().fs->exists("/chk/metadata"));
}

TEST(RealTime, ModeEquivalenceCatchesAProcessorThatCountsCalls) {
  auto sc = loadScenario(scenarioPath("per_row_calls.yaml"), ::streamsim::test::testLoader());
  ASSERT_TRUE(sc.ok()) << sc.status().message();
  sc->oracles = {"mode_equivalence"};
  auto r = runScenario(*sc);
  ASSERT_EQ(r.violations.size(), 1u) << r.report();
  EXPECT_EQ(r.violations[0].oracle, "mode_equivalence");
  EXPECT_NE(r.violations[0].message.find("final state differs"), std::string::npos) << r.report();
}

TEST(RealTime, ModeEquivalenceHoldsForACount) {
  auto sc = loadScenario(scenarioPath("count_same_in_both_modes.yaml"), ::streamsim::test::testLoader());
  ASSERT_TRUE(sc.ok()) << sc.status().message();
  auto r = runScenario(*sc);
  EXPECT_TRUE(r.passed()) << r.report();
}

TEST(RealTime, ASlowSinkBreaksTheLatencyBound) {
  auto sc = loadScenario(scenarioPath("slow_sink_breaks_latency_bound.yaml"), ::streamsim::test::testLoader());
  ASSERT_TRUE(sc.ok()) << sc.status().message();
  sc->oracles = {"latency_bound"};
  sc->oracleArgs.set("latency_bound", "p99", int64_t{50});
  auto r = runScenario(*sc);
  ASSERT_EQ(r.violations.size(), 1u) << r.report();
  EXPECT_EQ(r.violations[0].oracle, "latency_bound");
  EXPECT_NE(r.violations[0].message.find("p99 end-to-end latency 80 ms over the bound 50 ms"),
            std::string::npos) << r.report();
}

TEST(RealTime, InspectReadsARealTimeCheckpointWithKafkaOffsets) {
  LateTimerRun run;
  ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(run.log->produce("events", "a", "2026-01-01T12:00:00Z", kTen - 9'000 + i).ok());
  ASSERT_TRUE(run.start().ok());
  ASSERT_TRUE(run.sim.guarded([](StreamingQuery& q) { return q.runBatches(2); }).ok());
  auto report = inspectCheckpoint(run.sim.env(), "/chk");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_FALSE(report->has(DiagnosisKind::kUnreadable)) << formatReport(*report);
  ASSERT_EQ(report->batches.size(), 2u) << formatReport(*report);
  EXPECT_EQ(report->batches[0].sourceOffsets.at(0), std::optional<std::string>(R"({"events":{"0":3}})"));
  EXPECT_TRUE(report->batches[1].committed);
  EXPECT_NE(formatReport(*report).find(R"({"events":{"0":3}})"), std::string::npos) << formatReport(*report);
}

// Spark: "Real-time Mode does not retry tasks". A processor that throws fails the real-time
// batch at once, whatever taskRetries says (micro-batch mode retries the task first).
TEST(RealTime, AFailingTaskIsNotRetried) {
  LateTimerRun run;
  ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("events", "a", "not a timestamp", kTen - 9'000).ok());
  auto source = makeKafkaSource(run.log, {{"subscribe", "events"}, {"startingOffsets", "earliest"}});
  ASSERT_TRUE(source.ok());
  DataStreamWriter w = readStream(*source)
                           .groupBy({"key"})
                           .transformWithState(*::streamsim::test::testProcessors(), "late_timer", TimeMode::kProcessingTime, OutputMode::kUpdate)
                           .writeStream();
  w.sink(makeMemorySink(run.out)).outputMode(OutputMode::kUpdate).trigger(Trigger::RealTime(60'000));
  w.option("checkpointLocation", "/chk").option("spark.sql.shuffle.partitions", "1").option("taskRetries", "3");
  ASSERT_TRUE(run.sim.start(w).ok());
  auto ran = run.sim.guarded([](StreamingQuery& q) { return q.runBatches(1); });
  ASSERT_FALSE(ran.ok());
  const std::string& m = ran.status().message();
  EXPECT_NE(m.find("is not a timestamp"), std::string::npos) << m;
  EXPECT_NE(m.find("real-time mode: the batch fails and re-runs from the last committed offsets"),
            std::string::npos) << m;
  EXPECT_EQ(m.find("attempt"), std::string::npos) << m;  // micro-batch mode: "attempt 4 of 4"
  EXPECT_FALSE(run.sim.env().fs->exists("/chk/commits/0"));
}

// Spark's escape hatch, spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled:
// a stateful query that ran in micro-batch mode (checkpoint format v1) refuses to go on in real
// time, the error naming the escape hatch; with it the query goes on over the v1 checkpoint and
// its state carries over (a value seen in micro-batch mode stays a duplicate).
TEST(RealTime, AMicroBatchCheckpointGoesOnInRealTimeOnlyWithTheEscapeHatch) {
  LateTimerRun run;
  ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("events", "a", "x", kTen - 10'000).ok());
  auto writer = [&](Trigger trigger, bool allowV1) {
    auto source = makeKafkaSource(run.log, {{"subscribe", "events"}, {"startingOffsets", "earliest"}});
    EXPECT_TRUE(source.ok());
    DataStreamWriter w = readStream(*source).dropDuplicates({"value"}).writeStream();
    w.sink(makeMemorySink(run.out)).outputMode(OutputMode::kUpdate).trigger(trigger);
    w.option("checkpointLocation", "/chk").option("spark.sql.shuffle.partitions", "1");
    w.option("stateStore", "rocksdb");
    if (allowV1) w.option("spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled", "true");
    return w;
  };
  ASSERT_TRUE(run.sim.start(writer(Trigger::ProcessingTime(1000), false)).ok());
  auto ran = run.sim.guarded([](StreamingQuery& q) { return q.runBatches(1); });
  ASSERT_TRUE(ran.ok()) << ran.status().message();
  run.sim.stop();
  ASSERT_EQ(run.out->appendView().size(), 1u);

  Status refused = run.sim.start(writer(Trigger::RealTime(60'000), false));
  EXPECT_NE(refused.message().find("[STREAMING_REAL_TIME_MODE.CHECKPOINT_FORMAT_V1_NOT_SUPPORTED]"),
            std::string::npos) << refused.toString();
  EXPECT_NE(refused.message().find(
                "spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled = true"),
            std::string::npos) << refused.toString();

  const TimeMs now = run.sim.env().clock->nowMs();
  ASSERT_TRUE(run.log->produce("events", "a", "x", now + 1'000).ok());  // seen in micro-batch mode
  ASSERT_TRUE(run.log->produce("events", "b", "y", now + 2'000).ok());
  Status started = run.sim.start(writer(Trigger::RealTime(60'000), true));
  ASSERT_TRUE(started.ok()) << started.toString();
  ran = run.sim.guarded([](StreamingQuery& q) { return q.runBatches(1); });
  ASSERT_TRUE(ran.ok()) << ran.status().message();
  std::vector<Row> rows = run.out->appendView();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].get("value"), Value("x"));
  EXPECT_EQ(rows[1].get("value"), Value("y"));
  run.sim.stop();
  // The checkpoint stays v1: without the escape hatch the next start is refused again.
  refused = run.sim.start(writer(Trigger::RealTime(60'000), false));
  EXPECT_NE(refused.message().find("CHECKPOINT_FORMAT_V1_NOT_SUPPORTED"), std::string::npos)
      << refused.toString();
}

// StreamRealTimeModeDefaultConfsSuite "a Real-Time Mode query defaults to checkpoint format v2
// with the RocksDB state store": a stateless real-time query that set neither records format 2
// and the RocksDB provider in its offsets' conf.
TEST(RealTime, DefaultsToCheckpointFormatV2AndRocksDB) {
  LateTimerRun run;
  ASSERT_TRUE(run.log->createTopic("events", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("events", "a", "x", kTen - 9'000).ok());
  auto source = makeKafkaSource(run.log, {{"subscribe", "events"}, {"startingOffsets", "earliest"}});
  ASSERT_TRUE(source.ok());
  DataStreamWriter w = readStream(*source).writeStream();
  w.sink(makeMemorySink(run.out)).outputMode(OutputMode::kUpdate).trigger(Trigger::RealTime(60'000));
  w.option("checkpointLocation", "/chk");
  ASSERT_TRUE(run.sim.start(w).ok());
  ASSERT_TRUE(run.sim.guarded([](StreamingQuery& q) { return q.runBatches(1); }).ok());
  OffsetLog offsets(run.sim.env(), "/chk");
  auto seq = offsets.get(0);
  ASSERT_TRUE(seq.ok() && seq->has_value()) << seq.status().message();
  const auto& conf = (*seq)->metadata.conf;
  EXPECT_EQ(conf.at("spark.sql.streaming.stateStore.checkpointFormatVersion"), "2");
  EXPECT_EQ(conf.at("spark.sql.streaming.stateStore.providerClass"),
            "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider");
}

// The memory sink in real time is Spark's ContinuousMemorySink: each record is appended when the
// batch writes it, before the batch ends, and a second attempt of a batch appends again.
TEST(RealTime, TheMemorySinkTakesEachRecordAsItIsWritten) {
  MemorySinkData data;
  data.appendRecord(0, Row::fromNamed({{"v", Value(int64_t{1})}}), OutputMode::kUpdate);
  data.appendRecord(0, Row::fromNamed({{"v", Value(int64_t{1})}}), OutputMode::kUpdate);
  EXPECT_EQ(data.appendView().size(), 2u);
  EXPECT_EQ(data.latestBatchId(), std::optional<int64_t>(0));
  MemorySink sink(std::make_shared<MemorySinkData>());
  EXPECT_TRUE(sink.writesPerRecord());
}

}  // namespace
}  // namespace streamsim::harness
