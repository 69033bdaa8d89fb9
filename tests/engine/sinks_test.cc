#include <algorithm>
#include <stdexcept>

#include <gtest/gtest.h>

#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/fault_points.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/foreach_sink.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

struct TestCrash {
  std::string point;
};

// Records fault points; throws TestCrash at `crashAt` (like the simulator's crash).
class CrashHook : public FaultHook {
 public:
  Status at(std::string_view point, const FaultContext&) override {
    points.emplace_back(point);
    if (!crashAt.empty() && point == crashAt) {
      crashAt.clear();
      throw TestCrash{std::string(point)};
    }
    return Status::OK();
  }
  std::string crashAt;
  std::vector<std::string> points;
};

class SinksTest : public ::testing::Test {
 protected:
  sim::VirtualClock clock{1000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{3};
  CrashHook hook;
  Env env{&clock, &fs, &ids, &hook, nullptr};
  SchemaPtr schema = *parseSchema("k string, n long");

  Row row(const std::string& k, int64_t n) { return Row(schema, {Value(k), Value(n)}); }
  SinkContext ctx(int64_t batch, OutputMode mode = OutputMode::kAppend) {
    SinkContext c;
    c.env = &env;
    c.batchId = batch;
    c.outputMode = mode;
    c.checkpointRoot = "/chk";
    return c;
  }
  std::unique_ptr<Sink> startedFileSink(const std::string& path = "/out") {
    auto sink = makeFileSink(path)();
    Status st = sink->start(ctx(0));
    EXPECT_TRUE(st.ok()) << st.toString();
    return sink;
  }
  std::vector<Row> readOut(const std::string& path = "/out") {
    auto rows = readFileSinkOutput(env, path, schema);
    EXPECT_TRUE(rows.ok()) << rows.status().toString();
    return rows.ok() ? *rows : std::vector<Row>{};
  }
};

TEST_F(SinksTest, FileSinkWritesDataThenMetadataAndIsIdempotentByBatchId) {
  auto sink = startedFileSink();
  hook.points.clear();  // start() wrote sink_path atomically (log.mid_write)
  ASSERT_TRUE(sink->addBatch(ctx(0), {row("a", 1), row("b", 2)}).ok());
  ASSERT_EQ(hook.points.size(), 3u);  // data files, log.mid_write, metadata
  EXPECT_EQ(hook.points.front(), faults::kSinkAfterDataFiles);
  EXPECT_EQ(hook.points.back(), faults::kSinkAfterMetadata);
  EXPECT_TRUE(fs.exists("/out/_spark_metadata/0"));
  auto out = readOut();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1], row("b", 2));

  // The re-run of batch 0 (after a crash before commits/0) changes nothing.
  auto files = fs.allFiles();
  auto again = makeFileSink("/out")();
  ASSERT_TRUE(again->start(ctx(0)).ok());
  ASSERT_TRUE(again->addBatch(ctx(0), {row("a", 1), row("b", 2)}).ok());
  EXPECT_EQ(fs.allFiles(), files);
  EXPECT_EQ(readOut().size(), 2u);
}

TEST_F(SinksTest, FileSinkMetadataLineHasSparksFields) {
  auto sink = startedFileSink();
  ASSERT_TRUE(sink->addBatch(ctx(0), {row("a", 1)}).ok());
  FileSinkLog log(env, "/out");
  auto entries = log.get(0);
  ASSERT_TRUE(entries.ok() && entries->has_value());
  ASSERT_EQ((*entries)->size(), 1u);
  const SinkFileStatus& f = (**entries)[0];
  EXPECT_EQ(f.action, "add");
  EXPECT_FALSE(f.isDir);
  EXPECT_EQ(f.size, static_cast<int64_t>(std::string("{\"k\":\"a\",\"n\":1}\n").size()));
  EXPECT_EQ(f.path.rfind("/out/part-00000-", 0), 0u) << f.path;
  EXPECT_EQ(*fs.read(f.path), "{\"k\":\"a\",\"n\":1}\n");
}

TEST_F(SinksTest, ReaderIgnoresOrphansOfACrashedBatch) {
  auto sink = startedFileSink();
  ASSERT_TRUE(sink->addBatch(ctx(0), {row("a", 1)}).ok());
  hook.crashAt = std::string(faults::kSinkAfterDataFiles);
  EXPECT_THROW((void)sink->addBatch(ctx(1), {row("b", 2)}), TestCrash);
  EXPECT_EQ(readOut(), std::vector<Row>{row("a", 1)});
  auto orphans = listFileSinkOrphans(env, "/out");
  ASSERT_TRUE(orphans.ok());
  ASSERT_EQ(orphans->size(), 1u);

  // Restart: batch 1 is re-run and lands exactly once; the orphan stays invisible.
  auto again = startedFileSink();
  ASSERT_TRUE(again->addBatch(ctx(1), {row("b", 2)}).ok());
  EXPECT_EQ(readOut(), (std::vector<Row>{row("a", 1), row("b", 2)}));
  EXPECT_EQ(listFileSinkOrphans(env, "/out")->size(), 1u);
}

TEST_F(SinksTest, CrashAfterMetadataThenReRunDoesNotDuplicate) {
  auto sink = startedFileSink();
  hook.crashAt = std::string(faults::kSinkAfterMetadata);
  EXPECT_THROW((void)sink->addBatch(ctx(0), {row("a", 1)}), TestCrash);
  auto again = startedFileSink();
  ASSERT_TRUE(again->addBatch(ctx(0), {row("a", 1)}).ok());
  EXPECT_EQ(readOut(), std::vector<Row>{row("a", 1)});
}

TEST_F(SinksTest, ChangedSinkPathOnRestartIsRefused) {
  startedFileSink("/out");
  EXPECT_TRUE(fs.exists(sinkPathRecordFile("/chk")));
  auto other = makeFileSink("/out2")();
  Status st = other->start(ctx(0));
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(st.message().find("/out2"), std::string::npos) << st.toString();
  EXPECT_NE(st.message().find("/out"), std::string::npos);
  auto same = makeFileSink("/out")();
  EXPECT_TRUE(same->start(ctx(0)).ok());
}

// The JSON sink writes Spark's default datetime forms; a timestampFormat / dateFormat it would
// not honour is refused as the query starts, never written another way.
TEST_F(SinksTest, JsonSinkRefusesTheDatetimePatternsItDoesNotWrite) {
  FileSinkOptions o;
  o.path = "/out";
  o.format = "json";
  o.formatOptions = {{"TimestampFormat", "dd/MM/yyyy"}};
  Status st = makeFileSink(o)()->start(ctx(0));
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(st.message().find("json sink option TimestampFormat is not built"), std::string::npos) << st.toString();
  o.formatOptions.clear();
  EXPECT_TRUE(makeFileSink(o)()->start(ctx(0)).ok());
}

TEST_F(SinksTest, MetadataIsCompactedAtBatchNine) {
  auto sink = startedFileSink();
  for (int64_t b = 0; b < 10; ++b)
    ASSERT_TRUE(sink->addBatch(ctx(b), {row("k" + std::to_string(b), b)}).ok());
  EXPECT_TRUE(fs.exists("/out/_spark_metadata/8"));
  EXPECT_TRUE(fs.exists("/out/_spark_metadata/9.compact"));
  EXPECT_FALSE(fs.exists("/out/_spark_metadata/9"));
  FileSinkLog log(env, "/out");
  auto compact = log.get(9);
  ASSERT_TRUE(compact.ok() && compact->has_value());
  EXPECT_EQ((*compact)->size(), 10u);
  auto out = readOut();
  ASSERT_EQ(out.size(), 10u);
  EXPECT_EQ(out[9], row("k9", 9));
  // Batch 9 again is skipped (the latest id counts the compact file).
  ASSERT_TRUE(sink->addBatch(ctx(9), {row("dup", 0)}).ok());
  EXPECT_EQ(readOut().size(), 10u);
}

TEST_F(SinksTest, EmptyBatchWritesMetadataWithoutDataFiles) {
  auto sink = startedFileSink();
  ASSERT_TRUE(sink->addBatch(ctx(0), {}).ok());
  EXPECT_TRUE(fs.exists("/out/_spark_metadata/0"));
  EXPECT_TRUE(readOut().empty());
  EXPECT_TRUE(listFileSinkOrphans(env, "/out")->empty());
}

TEST_F(SinksTest, ReaderOfAMissingFolderIsNotFound) {
  auto rows = readFileSinkOutput(env, "/nowhere", schema);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), Status::Code::kNotFound);
}

TEST_F(SinksTest, MemorySinkViewsAndIdempotence) {
  auto data = std::make_shared<MemorySinkData>(std::vector<std::string>{"k"});
  auto sink = makeMemorySink(data)();
  ASSERT_TRUE(sink->addBatch(ctx(0, OutputMode::kUpdate), {row("a", 1), row("b", 1)}).ok());
  ASSERT_TRUE(sink->addBatch(ctx(1, OutputMode::kUpdate), {row("a", 2)}).ok());
  // A re-run of batch 1 with other rows is ignored.
  ASSERT_TRUE(sink->addBatch(ctx(1, OutputMode::kUpdate), {row("a", 99)}).ok());
  EXPECT_EQ(data->ignoredBatches(), 1);
  EXPECT_EQ(data->appendView(), (std::vector<Row>{row("a", 1), row("b", 1), row("a", 2)}));
  EXPECT_EQ(data->updateView(), (std::vector<Row>{row("a", 2), row("b", 1)}));
  EXPECT_EQ(data->currentView(), data->updateView());
  EXPECT_EQ(data->completeView(), std::vector<Row>{row("a", 2)});
  ASSERT_NE(data->batch(0), nullptr);
  EXPECT_EQ(data->batch(0)->size(), 2u);
  EXPECT_EQ(data->batch(5), nullptr);
  EXPECT_EQ(*data->latestBatchId(), 1);

  // Survives a restart: a new sink over the same data still ignores old batch ids.
  auto restarted = makeMemorySink(data)();
  ASSERT_TRUE(restarted->addBatch(ctx(0, OutputMode::kUpdate), {row("z", 0)}).ok());
  EXPECT_EQ(data->appendView().size(), 3u);
}

TEST_F(SinksTest, MemorySinkCompleteView) {
  auto data = std::make_shared<MemorySinkData>();
  auto sink = makeMemorySink(data)();
  ASSERT_TRUE(sink->addBatch(ctx(0, OutputMode::kComplete), {row("a", 1)}).ok());
  ASSERT_TRUE(sink->addBatch(ctx(1, OutputMode::kComplete), {row("a", 2), row("b", 1)}).ok());
  EXPECT_EQ(data->currentView(), (std::vector<Row>{row("a", 2), row("b", 1)}));
}

class RecordingWriter : public ForeachWriter {
 public:
  bool open(int64_t partitionId, int64_t epochId) override {
    opens.push_back({partitionId, epochId});
    return !(skipEpoch && *skipEpoch == epochId);
  }
  void process(const Row& row) override {
    if (throwOn && row.get("k") == Value(*throwOn)) throw std::runtime_error("boom");
    processed.push_back(row);
  }
  void close(const Status& error) override { closes.push_back(error); }

  std::vector<std::pair<int64_t, int64_t>> opens;
  std::vector<Row> processed;
  std::vector<Status> closes;
  std::optional<int64_t> skipEpoch;
  std::optional<std::string> throwOn;
};

TEST_F(SinksTest, ForeachIsAtLeastOnceAReRunCallsTheWriterAgain) {
  auto writer = std::make_shared<RecordingWriter>();
  auto sink = makeForeachSink(writer)();
  ASSERT_TRUE(sink->addBatch(ctx(0), {row("a", 1)}).ok());
  auto restarted = makeForeachSink(writer)();
  ASSERT_TRUE(restarted->addBatch(ctx(0), {row("a", 1)}).ok());  // re-run of batch 0
  EXPECT_EQ(writer->processed, (std::vector<Row>{row("a", 1), row("a", 1)}));
  EXPECT_EQ(writer->opens, (std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {0, 0}}));
  ASSERT_EQ(writer->closes.size(), 2u);
  EXPECT_TRUE(writer->closes[1].ok());
}

TEST_F(SinksTest, ForeachOpenFalseSkipsProcessButCloses) {
  auto writer = std::make_shared<RecordingWriter>();
  writer->skipEpoch = 3;
  ForeachSink sink(writer, 2);
  ASSERT_TRUE(sink.addBatch(ctx(3), {row("a", 1), row("b", 2), row("c", 3)}).ok());
  EXPECT_TRUE(writer->processed.empty());
  EXPECT_EQ(writer->opens.size(), 2u);
  EXPECT_EQ(writer->closes.size(), 2u);
  ASSERT_TRUE(sink.addBatch(ctx(4), {row("a", 1), row("b", 2), row("c", 3)}).ok());
  EXPECT_EQ(writer->processed.size(), 3u);
  EXPECT_EQ(writer->opens.back(), (std::pair<int64_t, int64_t>{1, 4}));
}

TEST_F(SinksTest, ForeachWriterExceptionFailsTheBatchAndClosesWithTheError) {
  auto writer = std::make_shared<RecordingWriter>();
  writer->throwOn = "b";
  ForeachSink sink(writer);
  Status st = sink.addBatch(ctx(2), {row("a", 1), row("b", 2)});
  EXPECT_EQ(st.code(), Status::Code::kTaskFailed);
  EXPECT_NE(st.message().find("boom"), std::string::npos);
  EXPECT_NE(st.message().find("batch 2"), std::string::npos);
  ASSERT_EQ(writer->closes.size(), 1u);
  EXPECT_FALSE(writer->closes[0].ok());
}

}  // namespace
}  // namespace streamsim

// End to end through the batch loop: file source -> file sink, crashing at every sink fault
// point once; the reader's view after restarts equals the input, once.
namespace streamsim {
namespace {

TEST_F(SinksTest, FileToFileIsExactlyOnceAcrossSinkCrashes) {
  SchemaPtr in = *parseSchema("k string, n long");
  for (int i = 0; i < 3; ++i) {
    std::string p = "/in/f" + std::to_string(i) + ".json";
    ASSERT_TRUE(fs.putDurable(p, "{\"k\":\"k" + std::to_string(i) + "\",\"n\":" + std::to_string(i) + "}\n").ok());
    ASSERT_TRUE(fs.setModificationTime(p, 100 + i).ok());
  }
  auto source = makeFileSource("/in", in, {{"maxFilesPerTrigger", "1"}});
  ASSERT_TRUE(source.ok());
  std::vector<std::string> crashes{std::string(faults::kSinkAfterDataFiles),
                                   std::string(faults::kSinkAfterMetadata),
                                   std::string(faults::kSourceLogAfterWrite)};
  size_t next = 0;
  int crashed = 0;
  for (int attempt = 0; attempt < 10; ++attempt) {
    hook.crashAt = next < crashes.size() ? crashes[next] : "";
    auto query = readStream(*source)
                     .writeStream()
                     .sink(makeFileSink("/out"))
                     .option("checkpointLocation", "/chk")
                     .start(env);
    ASSERT_TRUE(query.ok()) << query.status().toString();
    try {
      Status st = (*query)->processAllAvailable();
      ASSERT_TRUE(st.ok()) << st.toString();
      if (hook.crashAt.empty() && next >= crashes.size()) break;
      if (!hook.crashAt.empty()) ++next;  // the point was not reached this run: skip it
    } catch (const TestCrash&) {
      ++crashed;
      ++next;
      fs.crashLosingUnsynced();
    }
  }
  EXPECT_EQ(crashed, 3);
  auto out = readFileSinkOutput(env, "/out", in);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  std::vector<Row> got = *out;
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(got[i].get("n").asLong(), i);
  EXPECT_FALSE(listFileSinkOrphans(env, "/out")->empty());  // the crashed batch's leftovers
}

}  // namespace
}  // namespace streamsim
