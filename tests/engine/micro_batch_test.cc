// The batch loop of SEMANTICS.md §1, §4, §5: protocol order, restart rules, triggers, watermarks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/fault_points.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

using ::testing::ElementsAre;

// Records the fault points passed, in order; can fail (return a Status) or "crash" (throw) at one.
struct RecordingHook : FaultHook {
  std::vector<std::string> points;
  std::string crashAt;
  int64_t crashBatch = -1;
  Status at(std::string_view point, const FaultContext& ctx) override {
    points.emplace_back(point);
    if (point == crashAt && (crashBatch < 0 || ctx.batchId == crashBatch)) {
      crashAt.clear();
      throw std::runtime_error("simulated crash at " + std::string(point));
    }
    return Status::OK();
  }
};

struct Fixture : ::testing::Test {
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  RecordingHook hook;
  Env env{&clock, &fs, &ids, &hook, nullptr};
  SchemaPtr schema = *parseSchema("id string, t timestamp");
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>(schema);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>();

  Row row(const std::string& id, TimeMs t) { return Row(schema, {Value(id), Value::timestamp(t)}); }

  DataStreamWriter writer(DataFrame df, Trigger trigger = Trigger::Default()) {
    DataStreamWriter w = df.writeStream();
    w.sink(makeMemorySink(output)).option("checkpointLocation", "/chk").trigger(trigger);
    return w;
  }
  std::unique_ptr<StreamingQuery> start(const DataStreamWriter& w) {
    auto q = w.start(env);
    EXPECT_TRUE(q.ok()) << q.status().toString();
    return q.ok() ? std::move(q).value() : nullptr;
  }
  std::vector<std::string> sinkIds() {
    std::vector<std::string> out;
    for (const auto& r : output->appendView()) out.push_back(r.get("id").asString());
    return out;
  }
};

TEST_F(Fixture, ProtocolOrderIsOffsetsThenStateThenSinkThenCommits) {
  auto q = start(writer(readStream(makeMemorySource(input))));
  hook.points.clear();  // start() wrote the metadata file
  ASSERT_TRUE(input->addData({row("a", 1000)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  EXPECT_THAT(hook.points, ElementsAre(std::string(faults::kOffsetsBeforeWrite), std::string(faults::kLogMidWrite),
                                       std::string(faults::kOffsetsAfterWrite), std::string(faults::kCommitsBeforeWrite),
                                       std::string(faults::kLogMidWrite), std::string(faults::kCommitsAfterWrite)));
  EXPECT_TRUE(fs.exists("/chk/offsets/0"));
  EXPECT_TRUE(fs.exists("/chk/commits/0"));
  EXPECT_TRUE(fs.exists("/chk/metadata"));
  EXPECT_THAT(sinkIds(), ElementsAre("a"));
}

TEST_F(Fixture, OffsetsFileHasSparksLayout) {
  auto q = start(writer(readStream(makeMemorySource(input))));
  ASSERT_TRUE(input->addData({row("a", 1000)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  std::string text = *fs.read("/chk/offsets/0");
  EXPECT_EQ(text.substr(0, 3), "v1\n");
  EXPECT_NE(text.find("{\"batchWatermarkMs\":0,\"batchTimestampMs\":1700000000000,\"conf\":{"), std::string::npos) << text;
  EXPECT_EQ(*fs.read("/chk/commits/0"), "v1\n{\"nextBatchWatermarkMs\":0}");
}

TEST_F(Fixture, NoNewDataRunsNoBatch) {
  auto q = start(writer(readStream(makeMemorySource(input))));
  auto ran = q->triggerOnce();
  ASSERT_TRUE(ran.ok());
  EXPECT_FALSE(*ran);
  EXPECT_FALSE(fs.exists("/chk/offsets/0"));
}

TEST_F(Fixture, CrashAfterOffsetsRerunsSameBatchWithSameTimestamp) {
  auto w = writer(readStream(makeMemorySource(input)));
  {
    auto q = start(w);
    ASSERT_TRUE(input->addData({row("a", 1000), row("b", 2000)}).ok());
    ASSERT_TRUE(q->processAllAvailable().ok());
    ASSERT_TRUE(input->addData({row("c", 3000)}).ok());
    clock.advance(5000);
    hook.crashAt = std::string(faults::kOffsetsAfterWrite);
    EXPECT_THROW((void)q->processAllAvailable(), std::runtime_error);
  }
  TimeMs recorded = [&] {
    OffsetLog log(env, "/chk");
    return (*log.get(1))->metadata.batchTimestampMs;
  }();
  EXPECT_FALSE(fs.exists("/chk/commits/1"));
  clock.advance(60'000);  // the restart happens later; the re-run must keep the recorded time
  ASSERT_TRUE(input->addData({row("d", 4000)}).ok());  // arrives after the crash
  auto q = start(w);
  EXPECT_EQ(q->nextBatchId(), 1);
  auto ran = q->triggerOnce();
  ASSERT_TRUE(ran.ok() && *ran);
  ASSERT_NE(q->lastProgress(), nullptr);
  EXPECT_TRUE(q->lastProgress()->rerun);
  EXPECT_EQ(q->lastProgress()->timestamp, recorded);
  EXPECT_EQ(q->lastProgress()->numInputRows, 1);  // only c: the same offsets as before the crash
  ASSERT_TRUE(q->processAllAvailable().ok());
  EXPECT_THAT(sinkIds(), ElementsAre("a", "b", "c", "d"));
}

TEST_F(Fixture, CrashAfterSinkBeforeCommitDoesNotDuplicateInIdempotentSink) {
  auto w = writer(readStream(makeMemorySource(input)));
  {
    auto q = start(w);
    ASSERT_TRUE(input->addData({row("a", 1000)}).ok());
    hook.crashAt = std::string(faults::kCommitsBeforeWrite);
    EXPECT_THROW((void)q->processAllAvailable(), std::runtime_error);
  }
  EXPECT_THAT(sinkIds(), ElementsAre("a"));
  auto q = start(w);
  ASSERT_TRUE(q->processAllAvailable().ok());
  EXPECT_THAT(sinkIds(), ElementsAre("a"));
  EXPECT_EQ(output->ignoredBatches(), 1);
  EXPECT_TRUE(fs.exists("/chk/commits/0"));
}

TEST_F(Fixture, RestartAfterCommitResumesWithNextBatch) {
  auto w = writer(readStream(makeMemorySource(input)));
  {
    auto q = start(w);
    ASSERT_TRUE(input->addData({row("a", 1000)}).ok());
    ASSERT_TRUE(q->processAllAvailable().ok());
    q->stop();
  }
  ASSERT_TRUE(input->addData({row("b", 2000)}).ok());
  auto q = start(w);
  EXPECT_EQ(q->nextBatchId(), 1);
  ASSERT_TRUE(q->processAllAvailable().ok());
  EXPECT_THAT(sinkIds(), ElementsAre("a", "b"));
  EXPECT_EQ(q->lastProgress()->batchId, 1);
  EXPECT_FALSE(q->lastProgress()->rerun);
}

TEST_F(Fixture, GapBetweenOffsetsAndCommitsIsAClearError) {
  auto w = writer(readStream(makeMemorySource(input)));
  {
    auto q = start(w);
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(input->addData({row("x" + std::to_string(i), 1000)}).ok());
      ASSERT_TRUE(q->processAllAvailable().ok());
    }
  }
  ASSERT_TRUE(fs.remove("/chk/commits/1").ok());
  ASSERT_TRUE(fs.remove("/chk/commits/2").ok());
  auto q = w.start(env);
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_THAT(q.status().message(), ::testing::HasSubstr("offsets/2 exists but the commit log ends at commits/0"));
}

TEST_F(Fixture, GapInOffsetsLogIsAClearError) {
  auto w = writer(readStream(makeMemorySource(input)));
  {
    auto q = start(w);
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(input->addData({row("x" + std::to_string(i), 1000)}).ok());
      ASSERT_TRUE(q->processAllAvailable().ok());
    }
  }
  ASSERT_TRUE(fs.remove("/chk/offsets/1").ok());
  auto q = w.start(env);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), ::testing::HasSubstr("gap: offsets/0 is followed by offsets/2"));
}

TEST_F(Fixture, ProcessingTimeTriggerStartsAtNextMultipleOfInterval) {
  clock.set(10'500);
  auto q = start(writer(readStream(makeMemorySource(input)), Trigger::ProcessingTime(1000)));
  ASSERT_TRUE(input->addData({row("a", 1)}).ok());
  ASSERT_TRUE(*q->awaitNextTrigger());  // the first trigger fires at once
  EXPECT_EQ(q->lastProgress()->timestamp, 10'500);
  ASSERT_TRUE(input->addData({row("b", 2)}).ok());
  ASSERT_TRUE(*q->awaitNextTrigger());
  EXPECT_EQ(q->lastProgress()->timestamp, 11'000);  // floor(10500/1000)*1000 + 1000
  ASSERT_TRUE(input->addData({row("c", 3)}).ok());
  clock.set(13'700);  // the batch overran: the next one starts at once
  ASSERT_TRUE(*q->awaitNextTrigger());
  EXPECT_EQ(q->lastProgress()->timestamp, 13'700);
}

TEST_F(Fixture, WatermarkIsMaxEventTimeMinusDelayAppliedFromNextBatch) {
  auto q = start(writer(readStream(makeMemorySource(input)).withWatermark("t", 10'000)));
  ASSERT_TRUE(input->addData({row("a", 50'000), row("b", 30'000)}).ok());
  ASSERT_TRUE(*q->triggerOnce());
  EXPECT_EQ(q->lastProgress()->eventTime.watermark, 0);  // batch 0 has watermark 0
  EXPECT_EQ(*q->lastProgress()->eventTime.max, 50'000);
  EXPECT_EQ(q->currentWatermark(), 40'000);
  ASSERT_TRUE(input->addData({row("c", 20'000)}).ok());  // older data never moves it back
  ASSERT_TRUE(*q->triggerOnce());
  EXPECT_EQ(q->lastProgress()->eventTime.watermark, 40'000);
  EXPECT_EQ(q->currentWatermark(), 40'000);
  CommitLog commits(env, "/chk");
  EXPECT_EQ(*(*commits.get(0))->nextBatchWatermarkMs, 40'000);
  OffsetLog offsets(env, "/chk");
  EXPECT_EQ((*offsets.get(1))->metadata.batchWatermarkMs, 40'000);
}

// The batch loop's trace events are written straight into strings: each is the bytes
// nlohmann's DOM of the same values dumps (keys sorted, compact), which the sweep's trace
// fingerprints and oracles were built on.
TEST_F(Fixture, TraceEventsAreTheBytesTheirJsonDomDumps) {
  struct RecordingTrace : TraceSink {
    void event(std::string_view json) override { events.emplace_back(json); }
    std::vector<std::string> events;
  } rec;
  Env traced{&clock, &fs, &ids, &hook, &rec};
  auto q = writer(readStream(makeMemorySource(input)).withWatermark("t", 10'000)).start(traced);
  ASSERT_TRUE(q.ok()) << q.status().toString();
  ASSERT_TRUE(input->addData({row("a", 50'000), row("b", 30'000)}).ok());
  ASSERT_TRUE(*(*q)->triggerOnce());
  ASSERT_TRUE(input->addData({row("c", 60'000)}).ok());
  ASSERT_TRUE(*(*q)->triggerOnce());
  std::vector<std::string> batchEvents;
  for (const std::string& e : rec.events) {
    nlohmann::json j = nlohmann::json::parse(e);
    const std::string name = j["event"];
    // The loop's own events (the memory sink writes a sink_write of its own, with "sink").
    if (name != "batch_planned" && name != "offsets_written" && name != "input" &&
        name != "sink_write" && name != "commit")
      continue;
    if (j.contains("sink")) continue;
    EXPECT_EQ(j.dump(), e);
    batchEvents.push_back(e);
  }
  EXPECT_THAT(batchEvents, ElementsAre(
      R"({"batch":0,"event":"batch_planned","rerun":false,"timestamp":1700000000000,"watermark":0})",
      R"({"batch":0,"event":"offsets_written"})", R"({"batch":0,"event":"input","rows":2})",
      R"({"batch":0,"event":"sink_write","rows":2})",
      R"({"batch":0,"event":"commit","nextWatermark":40000})",
      R"({"batch":1,"event":"batch_planned","rerun":false,"timestamp":1700000000000,"watermark":40000})",
      R"({"batch":1,"event":"offsets_written"})", R"({"batch":1,"event":"input","rows":1})",
      R"({"batch":1,"event":"sink_write","rows":1})",
      R"({"batch":1,"event":"commit","nextWatermark":50000})"));
}

TEST_F(Fixture, WatermarkSurvivesRestart) {
  auto w = writer(readStream(makeMemorySource(input)).withWatermark("t", 10'000));
  {
    auto q = start(w);
    ASSERT_TRUE(input->addData({row("a", 50'000)}).ok());
    ASSERT_TRUE(q->processAllAvailable().ok());
  }
  auto q = start(w);
  EXPECT_EQ(q->currentWatermark(), 40'000);
}

TEST_F(Fixture, MinWatermarkPolicyAcrossTwoInputs) {
  // Two watermark operators in a chain see the same rows on different columns.
  SchemaPtr two = *parseSchema("id string, t timestamp, u timestamp");
  auto data = std::make_shared<MemoryStreamData>(two);
  auto df = readStream(makeMemorySource(data)).withWatermark("t", 0).withWatermark("u", 0);
  auto w = df.writeStream();
  w.sink(makeMemorySink(output)).option("checkpointLocation", "/chk2");
  auto q = *w.start(env);
  ASSERT_TRUE(data->addData({Row(two, {Value("a"), Value::timestamp(100), Value::timestamp(50)})}).ok());
  ASSERT_TRUE(*q->triggerOnce());
  EXPECT_EQ(q->currentWatermark(), 50);
  auto w2 = df.writeStream();
  w2.sink(makeMemorySink(output)).option("checkpointLocation", "/chk3").option("multipleWatermarkPolicy", "max");
  auto q2 = *w2.start(env);
  ASSERT_TRUE(*q2->triggerOnce());
  EXPECT_EQ(q2->currentWatermark(), 100);
}

// Spark's CheckAnalysis refuses a watermark on a column that is not a timestamp; the C++
// DataFrame has no plan schema, so the first row that shows another type fails the batch
// (issue 14: the C++ withWatermark was not type-checked, only scenarios were).
TEST_F(Fixture, WatermarkOnALongColumnFailsWithEventTimeIsNotOnTimestampType) {
  SchemaPtr longs = *parseSchema("id string, n long");
  auto data = std::make_shared<MemoryStreamData>(longs);
  auto w = readStream(makeMemorySource(data)).withWatermark("n", 0).writeStream();
  w.sink(makeMemorySink(output)).option("checkpointLocation", "/chk-long");
  auto q = *w.start(env);
  ASSERT_TRUE(data->addData({Row(longs, {Value("a"), Value(int64_t{1000})})}).ok());
  auto ran = q->triggerOnce();
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.status().condition(), "EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE");
  EXPECT_EQ(ran.status().parameter("eventType"), "\"BIGINT\"");
  EXPECT_NE(ran.status().message().find("The event time `n` has the invalid type \"BIGINT\""),
            std::string::npos)
      << ran.status().message();
  EXPECT_TRUE(output->appendView().empty());
}

TEST_F(Fixture, ShufflePartitionsRecordedInCheckpointWinOnRestart) {
  auto w = writer(readStream(makeMemorySource(input)));
  w.option("spark.sql.shuffle.partitions", "3");
  {
    auto q = start(w);
    ASSERT_TRUE(input->addData({row("a", 1)}).ok());
    ASSERT_TRUE(q->processAllAvailable().ok());
  }
  w.option("spark.sql.shuffle.partitions", "8");
  auto q = start(w);
  EXPECT_EQ(q->options().shufflePartitions, 3);
}

TEST_F(Fixture, BadOptionsAreRejectedBeforeStart) {
  auto w = writer(readStream(makeMemorySource(input)));
  w.option("spark.sql.shuffle.partitions", "zero");
  auto q = w.start(env);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), ::testing::HasSubstr("not a whole number"));
  auto w2 = writer(readStream(makeMemorySource(input)));
  w2.option("checkpointLocaton", "/x");
  EXPECT_THAT(w2.start(env).status().message(), ::testing::HasSubstr("unknown query option 'checkpointLocaton'"));
}

TEST_F(Fixture, FileSourceAvailableNowTakesWhatIsThereSplitByMaxFiles) {
  ASSERT_TRUE(fs.putDurable("/landing/a.json", "{\"id\":\"a\",\"t\":\"2026-01-01T00:00:00Z\"}\n").ok());
  clock.advance(1000);
  ASSERT_TRUE(fs.putDurable("/landing/b.json", "{\"id\":\"b\",\"t\":\"2026-01-01T00:00:01Z\"}\n").ok());
  FileSourceOptions opts;
  opts.path = "/landing";
  opts.schema = schema;
  opts.maxFilesPerTrigger = 1;
  auto source = makeFileSource(opts);
  ASSERT_TRUE(source.ok()) << source.status().toString();
  auto q = start(writer(readStream(*source), Trigger::AvailableNow()));
  ASSERT_TRUE(q->awaitTermination().ok());
  EXPECT_FALSE(q->isActive());
  EXPECT_EQ(q->recentProgress().size(), 2u);
  EXPECT_THAT(sinkIds(), ElementsAre("a", "b"));
  EXPECT_TRUE(fs.exists("/chk/sources/0/0"));
  EXPECT_TRUE(fs.exists("/chk/sources/0/1"));
}


TEST_F(Fixture, StatelessSelectFilterMap) {
  auto df = readStream(makeMemorySource(input))
                .filter([](const Row& r) { return r.get("id").asString() != "skip"; })
                .map([](const Row& r) {
                  return Row{{"id", r.get("id").asString() + "!"}, {"t", r.get("t")}};
                })
                .select({"id"});
  auto q = start(writer(df));
  ASSERT_TRUE(input->addData({row("a", 1), row("skip", 2), row("b", 3)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  EXPECT_THAT(sinkIds(), ElementsAre("a!", "b!"));
  EXPECT_EQ(output->appendView()[0].size(), 1u);  // select kept only id
  auto w = writer(readStream(makeMemorySource(input)).select({"nope"}));
  w.option("checkpointLocation", "/chk-bad");
  auto bad = start(w);
  Status st = bad->processAllAvailable();
  EXPECT_FALSE(bad->isActive());
  EXPECT_THAT(st.message(), ::testing::HasSubstr("column 'nope' does not exist"));
}

// An operator that asks for a batch whenever the watermark moved, like Spark's stateful ones.
struct WantsWatermarkBatches : Operator {
  std::string name() const override { return "wants-watermark"; }
  Result<std::vector<Row>> process(std::vector<Row> in, BatchContext&) override { return in; }
  bool needsNoDataBatch(TimeMs, bool moved) const override { return moved; }
};

TEST_F(Fixture, NoDataBatchRunsWhenTheWatermarkMovedAndOnlyThen) {
  auto df = readStream(makeMemorySource(input))
                .withWatermark("t", 1000)
                .transform([] { return std::make_unique<WantsWatermarkBatches>(); });
  auto q = start(writer(df));
  ASSERT_TRUE(input->addData({row("a", 10'000)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  // batch 0 with data, then batch 1 without data because the watermark moved 0 -> 9000.
  ASSERT_EQ(q->recentProgress().size(), 2u);
  EXPECT_EQ(q->recentProgress()[1].numInputRows, 0);
  EXPECT_EQ(q->recentProgress()[1].eventTime.watermark, 9000);
  auto ran = q->triggerOnce();
  EXPECT_FALSE(*ran);  // nothing new and the watermark did not move
  auto q2 = start([&] {
    auto w = writer(df);
    w.option("checkpointLocation", "/chk-nodata-off").option("noDataMicroBatches.enabled", "false");
    return w;
  }());
  ASSERT_TRUE(q2->processAllAvailable().ok());
  EXPECT_EQ(q2->recentProgress().size(), 1u);
}

TEST_F(Fixture, OnceTriggerRunsOneBatchAndStops) {
  auto q = start(writer(readStream(makeMemorySource(input)), Trigger::Once()));
  ASSERT_TRUE(input->addData({row("a", 1), row("b", 2)}).ok());
  ASSERT_TRUE(q->awaitTermination().ok());
  EXPECT_FALSE(q->isActive());
  EXPECT_EQ(q->recentProgress().size(), 1u);
  EXPECT_THAT(sinkIds(), ElementsAre("a", "b"));
}

TEST_F(Fixture, AvailableNowFirstFinishesAnUncommittedBatch) {
  auto w = writer(readStream(makeMemorySource(input)), Trigger::AvailableNow());
  {
    auto q = start(w);
    ASSERT_TRUE(input->addData({row("a", 1)}).ok());
    hook.crashAt = std::string(faults::kCommitsBeforeWrite);
    EXPECT_THROW((void)q->awaitTermination(), std::runtime_error);
  }
  ASSERT_TRUE(input->addData({row("b", 2)}).ok());
  auto q = start(w);
  ASSERT_TRUE(q->awaitTermination().ok());
  ASSERT_GE(q->recentProgress().size(), 2u);
  EXPECT_TRUE(q->recentProgress()[0].rerun);  // batch 0 again, with its recorded offsets
  EXPECT_EQ(q->recentProgress()[0].numInputRows, 1);
  EXPECT_THAT(sinkIds(), ElementsAre("a", "b"));
}

TEST_F(Fixture, DefaultTriggerRunsAtOnceWithoutWaiting) {
  auto q = start(writer(readStream(makeMemorySource(input))));
  ASSERT_TRUE(input->addData({row("a", 1)}).ok());
  TimeMs before = clock.nowMs();
  ASSERT_TRUE(*q->awaitNextTrigger());
  ASSERT_TRUE(input->addData({row("b", 2)}).ok());
  ASSERT_TRUE(*q->awaitNextTrigger());
  EXPECT_EQ(clock.nowMs(), before);  // the default trigger never waits for the clock
  EXPECT_FALSE(*q->awaitNextTrigger());  // nothing new: it polls and runs nothing
}

// ---------------------------------------------------------------- Spark 4.2's query evolution

// Two named file sources and a named memory sink under Spark 4.2's source and sink evolution:
// offsets/N is v2 keyed by the source names (OffsetSeqLog "Version 2 format", StreamingSource
// EvolutionSuite "named sources enforcement uses V2 offset log format"), each source's log is
// sources/<name>/ ("named sources - metadata path uses source name"), the enforcement conf is
// recorded ("enforcement config is persisted in offset metadata") and commits/N is v3 naming the
// sink, MicroBatchExecution's sink.getClass.getName as providerName (SPARK-56972). A restart with
// the sources in the other order resumes by name; one with a renamed sink keeps the old one inactive.
TEST_F(Fixture, Spark42NamedSourcesAndSinkAreWrittenAsSpark42Writes) {
  ASSERT_TRUE(fs.putDurable("/orders/a.json", "{\"id\":\"a\",\"t\":\"2026-01-01T00:00:00Z\"}\n").ok());
  ASSERT_TRUE(fs.putDurable("/clicks/b.json", "{\"id\":\"b\",\"t\":\"2026-01-01T00:00:01Z\"}\n").ok());
  auto fileSource = [&](const std::string& path) {
    FileSourceOptions o;
    o.path = path;
    o.schema = schema;
    return *makeFileSource(o);
  };
  auto named = [&](std::vector<std::string> paths, std::vector<std::string> names, std::string sink) {
    std::vector<SourceFactory> sources;
    for (const auto& p : paths) sources.push_back(fileSource(p));
    DataStreamWriter w = writer(readStream(sources));
    w.option("spark.sql.streaming.queryEvolution.enableSourceEvolution", "true")
        .option("spark.sql.streaming.queryEvolution.enableSinkEvolution", "true")
        .sourceNames(std::move(names))
        .name(std::move(sink));
    return w;
  };
  {
    auto q = start(named({"/orders", "/clicks"}, {"orders", "clicks"}, "out"));
    ASSERT_TRUE(q->processAllAvailable().ok());
  }
  auto offsets = fs.read("/chk/offsets/0");
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(*offsets,
            "v2\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1700000000000,\"conf\":{"
            "\"spark.sql.shuffle.partitions\":\"4\","
            "\"spark.sql.streaming.multipleWatermarkPolicy\":\"min\","
            "\"spark.sql.streaming.queryEvolution.enableSourceEvolution\":\"true\","
            "\"spark.sql.streaming.stateStore.providerClass\":"
            "\"org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider\"},"
            "\"sourceMetadataInfo\":{}}\norders:{\"logOffset\":0}\nclicks:{\"logOffset\":0}");
  EXPECT_TRUE(fs.exists("/chk/sources/orders/0"));
  EXPECT_TRUE(fs.exists("/chk/sources/clicks/0"));
  EXPECT_FALSE(fs.exists("/chk/sources/0"));
  const std::string memorySink =
      "{\"sinkName\":\"out\",\"commitOffset\":\"-\",\"providerName\":"
      "\"org.apache.spark.sql.execution.streaming.sources.MemorySink\",\"apiVersion\":\"v2\",";
  EXPECT_EQ(*fs.read("/chk/commits/0"),
            "v3\n{\"nextBatchWatermarkMs\":0,\"sinkMetadataMap\":{\"out\":" + memorySink + "\"isActive\":true}}}");
  // The sources in the other order, the sink renamed: resumed by name, nothing read twice.
  ASSERT_TRUE(fs.putDurable("/orders/c.json", "{\"id\":\"c\",\"t\":\"2026-01-01T00:00:02Z\"}\n").ok());
  {
    auto q = start(named({"/clicks", "/orders"}, {"clicks", "orders"}, "out2"));
    ASSERT_TRUE(q->processAllAvailable().ok());
  }
  EXPECT_THAT(sinkIds(), ElementsAre("a", "b", "c"));
  EXPECT_TRUE(::testing::internal::RE::PartialMatch(*fs.read("/chk/offsets/1"),
                                                   "\nclicks:\\{\"logOffset\":0\\}\norders:\\{\"logOffset\":1\\}$"))
      << *fs.read("/chk/offsets/1");
  EXPECT_EQ(*fs.read("/chk/commits/1"),
            "v3\n{\"nextBatchWatermarkMs\":0,\"sinkMetadataMap\":{\"out\":" + memorySink +
                "\"isActive\":false},\"out2\":{\"sinkName\":\"out2\",\"commitOffset\":\"-\",\"providerName\":"
                "\"org.apache.spark.sql.execution.streaming.sources.MemorySink\",\"apiVersion\":\"v2\",\"isActive\":true}}}");
  // inspect names the sources and the sinks.
  auto report = inspectCheckpoint(env, "/chk");
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->sourceNames, (std::vector<std::string>{"orders", "clicks"}));
  ASSERT_EQ(report->sinks.size(), 2u);
  EXPECT_EQ(report->batches[1].activeSink, "out2");
  const std::string text = formatReport(*report);
  EXPECT_THAT(text, ::testing::HasSubstr("sources (offsets v2, keyed by source id): orders, clicks"));
  EXPECT_THAT(text, ::testing::HasSubstr("sink out2 (commit log v3): org.apache.spark.sql.execution.streaming.sources.MemorySink, apiVersion v2, commitOffset -, active"));
  EXPECT_THAT(text, ::testing::HasSubstr("committed yes (v3, sink out2)"));
  EXPECT_THAT(text, ::testing::HasSubstr("source orders files (logOffset 1): /orders/c.json"));
  EXPECT_FALSE(report->has(DiagnosisKind::kMissing)) << text;
  EXPECT_FALSE(report->has(DiagnosisKind::kUnreadable)) << text;
}

// spark.sql.streaming.offsetLog.formatVersion=2 without names: the sources keyed by position.
TEST_F(Fixture, OffsetsV2WithoutNamesKeyTheSourcesByPosition) {
  auto w = writer(readStream(makeMemorySource(input)));
  w.option("spark.sql.streaming.offsetLog.formatVersion", "2");
  auto q = start(w);
  ASSERT_TRUE(input->addData({row("a", 1)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  auto seq = OffsetLog::parse(*fs.read("/chk/offsets/0"), "o");
  ASSERT_TRUE(seq.ok()) << seq.status().toString();
  EXPECT_EQ(seq->formatVersion, 2);
  EXPECT_EQ(seq->sourceIds, std::vector<std::string>{"0"});
  EXPECT_EQ(*fs.read("/chk/commits/0"), "v1\n{\"nextBatchWatermarkMs\":0}");
}

// The names' rules, each Spark's condition and parameters (StreamingSourceEvolutionSuite,
// SPARK-56719), refused before the checkpoint is written.
TEST_F(Fixture, Spark42SourceAndSinkNamesFollowSparksRules) {
  struct Case {
    bool sourceEvolution, sinkEvolution;
    std::vector<std::string> names;
    std::string sink, condition, param, value;
    std::string message;  // error-conditions.json's text with the parameters filled in
  };
  for (const Case& c : {Case{true, false, {"my-source"}, "", "INVALID_SOURCE_NAME", "sourceName", "my-source",
                             "Streaming query evolution error: Invalid streaming source name 'my-source'. Source "
                             "names must only contain ASCII letters (a-z, A-Z), digits (0-9), and underscores (_)."},
                        Case{true, false, {""}, "", "UNNAMED_STREAMING_SOURCES_WITH_ENFORCEMENT", "", "",
                             "All streaming sources must be named when "
                             "spark.sql.streaming.queryEvolution.enableSourceEvolution is enabled. Unnamed sources "
                             "found: source 0 has no name. Use the name() method to assign names to all streaming "
                             "sources."},
                        Case{false, false, {"mySource"}, "", "SOURCE_NAMING_NOT_SUPPORTED", "name", "mySource",
                             "Streaming source naming is not supported. Source name 'mySource' was provided but the "
                             "feature is disabled."},
                        Case{true, false, {"dup", "dup"}, "", "DUPLICATE_SOURCE_NAMES", "names", "'dup'",
                             "Duplicate streaming source names detected: 'dup'. Each streaming source must have a "
                             "unique name."},
                        Case{false, true, {}, "", "UNNAMED_STREAMING_SINKS_WITH_ENFORCEMENT", "", "",
                             "Streaming sink must be named when spark.sql.streaming.queryEvolution.enableSinkEvolution "
                             "is enabled. Use the name() method on DataStreamWriter to assign a name to the streaming "
                             "sink."},
                        Case{false, true, {}, "my sink", "INVALID_SINK_NAME", "sinkName", "my sink",
                             "Invalid streaming sink name: 'my sink'. Sink names must only contain ASCII letters "
                             "('a'-'z', 'A'-'Z'), digits ('0'-'9'), and underscores ('_')."}}) {
    SCOPED_TRACE(c.condition);
    std::vector<SourceFactory> sources(std::max<size_t>(c.names.size(), 1), makeMemorySource(input));
    DataStreamWriter w = writer(readStream(sources));
    w.option("checkpointLocation", "/chk-names");
    w.option("spark.sql.streaming.queryEvolution.enableSourceEvolution", c.sourceEvolution ? "true" : "false");
    w.option("spark.sql.streaming.queryEvolution.enableSinkEvolution", c.sinkEvolution ? "true" : "false");
    w.sourceNames(c.names).name(c.sink);
    auto q = w.start(env);
    ASSERT_FALSE(q.ok());
    EXPECT_EQ(q.status().condition(), "STREAMING_QUERY_EVOLUTION_ERROR." + c.condition) << q.status().toString();
    if (!c.param.empty()) {
      bool found = false;
      for (const auto& [k, v] : q.status().parameters()) found |= k == c.param && v == c.value;
      EXPECT_TRUE(found) << q.status().toString();
    }
    EXPECT_THAT(q.status().message(), ::testing::HasSubstr(c.message));
    EXPECT_FALSE(fs.exists("/chk-names/offsets"));
  }
}

}  // namespace
}  // namespace streamsim
