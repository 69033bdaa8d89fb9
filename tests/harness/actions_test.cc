// StreamTest-style actions on whole queries under the simulator: data, time, runs, crashes,
// restarts and checks, and the failure report.
#include "streamsim/harness/actions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/harness/gtest_matchers.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/file_source.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness {
namespace {

using ::testing::HasSubstr;

OperatorFactory countBy(std::string column, TimeMode mode = TimeMode::kNone) {
  return [column, mode] {
    TransformWithStateSpec spec;
    spec.groupBy = {column};
    spec.processorFactory = [] { return std::make_unique<processors::CountProcessor>(); };
    spec.processorName = "count";
    spec.timeMode = mode;
    return makeTransformWithState(spec);
  };
}

struct CountQuery {
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>();
  TestQuery query = memoryQuery(readStream(makeMemorySource(input))
                                    .transform(countBy("word"))
                                    .writeStream()
                                    .outputMode(OutputMode::kUpdate)
                                    .option("checkpointLocation", "/chk")
                                    .option("spark.sql.shuffle.partitions", "2"));
};

Row word(const char* w) { return Row{{"word", w}}; }
Row count(const char* w, int64_t n) { return Row{{"word", w}, {"count", n}}; }

TEST(Actions, AddDataAndCheckLikeSparksStreamTest) {
  CountQuery q;
  EXPECT_THAT(testStream(q.query,
                         AddData{q.input, {word("a"), word("b"), word("a")}},
                         CheckAnswer{{count("a", 2), count("b", 1)}},
                         AddData{q.input, {word("a")}},
                         CheckNewAnswer{{count("a", 3)}},
                         CheckLastBatch{{count("a", 3)}},
                         CheckNewAnswer{{}},
                         CheckAnswer{{count("a", 2), count("b", 1), count("a", 3)}}),
              IsOk());
}

// The checks take row_diff's RowMatch: strict types as Spark's checkAnswer (the count is a long,
// an int does not match it), or only the columns each expected row names.
TEST(Actions, ChecksMatchStrictTypesOrNamedColumnsOnly) {
  CountQuery q;
  const RowMatch strict{.strictTypes = true};
  const RowMatch partial{.partial = true};
  EXPECT_THAT(testStream(q.query, AddData{q.input, {word("a"), word("a")}},
                         CheckAnswer{{Row{{"word", "a"}, {"count", int64_t{2}}}}, RowOrder::kAnyOrder, true, strict},
                         CheckLastBatch{{Row{{"count", 2}}}, RowOrder::kAnyOrder, true, partial},
                         AddData{q.input, {word("b")}},
                         CheckNewAnswer{{Row{{"word", "b"}}}, RowOrder::kAnyOrder, true, partial}),
              IsOk());
  CountQuery q2;
  SimEnv sim2;
  StreamTestResult r = runStreamTest(
      sim2, q2.query,
      {AddData{q2.input, {word("a")}},
       CheckAnswer{{Row{{"word", "a"}, {"count", 1}}}, RowOrder::kAnyOrder, true, strict}});
  EXPECT_EQ(r.failedAction, 1);
  EXPECT_THAT(r.status.message(), HasSubstr("CheckAnswer(1 row: {word=\"a\", count=1}) [strict types]"));
  CountQuery q3;
  EXPECT_THAT(testStream(q3.query, AddData{q3.input, {word("a")}},
                         CheckAnswer{{Row{{"count", 2}}}, RowOrder::kAnyOrder, true, partial}),
              FailsWith("does not match"));
  // Loose by default: an int matches the long count.
  CountQuery q4;
  EXPECT_THAT(testStream(q4.query, AddData{q4.input, {word("a")}}, CheckAnswer{{count("a", 1)}}), IsOk());
  EXPECT_EQ(describe(CheckNewAnswer{{}, RowOrder::kAnyOrder, true, partial}),
            "CheckNewAnswer(0 rows) [named columns only]");
}

TEST(Actions, CrashAfterOffsetsAreWrittenReRunsTheSameBatch) {
  CountQuery q;
  SimEnv sim;
  EXPECT_THAT(testStream(sim, q.query,
                         AddData{q.input, {word("a")}},
                         Crash{"offsets.after_write"},
                         RunBatches{1},  // crashes at the point above
                         CheckCheckpoint{.offsets = std::vector<int64_t>{0},
                                         .commits = std::vector<int64_t>{}},
                         Restart{},
                         ProcessAllAvailable{},
                         CheckAnswer{{count("a", 1)}, RowOrder::kAnyOrder, false},
                         CheckCheckpoint{.offsets = std::vector<int64_t>{0},
                                         .commits = std::vector<int64_t>{0}},
                         AddData{q.input, {word("a")}},
                         CheckNewAnswer{{count("a", 2)}}),
              IsOk());
  EXPECT_EQ(sim.crashCount(), 1);
  ASSERT_TRUE(sim.lastCrash().has_value());
  EXPECT_EQ(sim.lastCrash()->point, "offsets.after_write");
}

TEST(Actions, CrashAfterStateCommitDoesNotDoubleCounts) {
  CountQuery q;
  EXPECT_THAT(testStream(q.query,
                         AddData{q.input, {word("a"), word("b")}},
                         Crash{.point = "state.after_commit", .batch = 0, .partition = -1, .nth = 2},
                         RunBatches{1},
                         Restart{},
                         CheckAnswer{{count("a", 1), count("b", 1)}},
                         AddData{q.input, {word("b")}},
                         CheckLastBatch{{count("b", 2)}}),
              IsOk());
}

TEST(Actions, StopAndStartContinueFromTheCheckpoint) {
  CountQuery q;
  EXPECT_THAT(testStream(q.query,
                         AddData{q.input, {word("x")}},
                         ProcessAllAvailable{},
                         CheckNewAnswer{{count("x", 1)}},
                         StopStream{},
                         AddData{q.input, {word("x"), word("y")}},
                         StartStream{},
                         CheckNewAnswer{{count("x", 2), count("y", 1)}},
                         AssertOnQuery{[](StreamTestContext& ctx) {
                                         const QueryProgress* p = ctx.running()->lastProgress();
                                         if (p == nullptr || p->batchId != 1)
                                           return Status::FailedPrecondition("expected batch 1 last");
                                         return Status::OK();
                                       },
                                       "the restarted run ran batch 1"}),
              IsOk());
}

TEST(Actions, AFailureShowsTheActionsTheBatchesAndTheSink) {
  CountQuery q;
  StreamTestResult r;
  {
    SimEnv sim;
    r = runStreamTest(sim, q.query,
                      {AddData{q.input, {word("a")}}, CheckAnswer{{count("a", 1)}},
                       AddData{q.input, {word("a")}}, CheckNewAnswer{{count("a", 7)}},
                       StopStream{}});
  }
  EXPECT_FALSE(r.status.ok());
  EXPECT_EQ(r.failedAction, 3);
  const std::string& m = r.status.message();
  EXPECT_THAT(m, HasSubstr("testStream failed at action 4: CheckNewAnswer(1 row: {word=\"a\", count=7})"));
  EXPECT_THAT(m, HasSubstr("=>  4. CheckNewAnswer"));
  EXPECT_THAT(m, HasSubstr("\n    5. StopStream\n"));
  EXPECT_THAT(m, HasSubstr("missing (expected, not emitted):\n  {word=\"a\", count=7}"));
  EXPECT_THAT(m, HasSubstr("== batches ==\n  batch 0 at"));
  EXPECT_THAT(m, HasSubstr("== memory sink ==\n  batch 0:\n    {word=\"a\", count=1}\n  batch 1:"));
}

class Exploding : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row& key, RowRange, const TimerValues&, Output&) override {
    if (key[0] == Value("bad")) throw std::runtime_error("cannot handle 'bad'");
  }
};

TEST(Actions, ExpectFailureSeesAProcessorException) {
  auto input = std::make_shared<MemoryStreamData>();
  TestQuery q = memoryQuery(readStream(makeMemorySource(input))
                                .transform([] {
                                  TransformWithStateSpec spec;
                                  spec.groupBy = {"word"};
                                  spec.processorFactory = [] { return std::make_unique<Exploding>(); };
                                  return makeTransformWithState(spec);
                                })
                                .writeStream()
                                .option("checkpointLocation", "/chk"));
  EXPECT_THAT(testStream(q, AddData{input, {word("ok")}}, CheckAnswer{{}},
                         AddData{input, {word("bad")}}, ExpectFailure{"cannot handle 'bad'"}),
              IsOk());
  // Without ExpectFailure the same run fails at the action that ran the batch.
  auto input2 = std::make_shared<MemoryStreamData>();
  q.writer = readStream(makeMemorySource(input2))
                 .transform([] {
                   TransformWithStateSpec spec;
                   spec.groupBy = {"word"};
                   spec.processorFactory = [] { return std::make_unique<Exploding>(); };
                   return makeTransformWithState(spec);
                 })
                 .writeStream();
  q = memoryQuery(q.writer.option("checkpointLocation", "/chk"));
  EXPECT_THAT(testStream(q, AddData{input2, {word("bad")}}, ProcessAllAvailable{}),
              FailsWith("ProcessAllAvailable failed"));
}

// ExpectFailure matches Spark's condition and parameters (StreamTest's checkError).
TEST(Actions, ExpectFailureMatchesTheConditionAndItsParameters) {
  auto run = [](ExpectFailure expected) {
    auto input = std::make_shared<MemoryStreamData>();
    TestQuery q = memoryQuery(readStream(makeMemorySource(input))
                                  .transform([] {
                                    TransformWithStateSpec spec;
                                    spec.groupBy = {"word"};
                                    spec.processorFactory = [] { return std::make_unique<Exploding>(); };
                                    return makeTransformWithState(spec);
                                  })
                                  .writeStream()
                                  .option("checkpointLocation", "/chk"));
    return testStream(q, AddData{input, {word("bad")}}, expected);
  };
  EXPECT_THAT(run(ExpectFailure{"", Status::Code::kTaskFailed, "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                                {{"function", "handleInputRows"}, {"reason", "cannot handle 'bad'"}}}),
              IsOk());
  EXPECT_THAT(run(ExpectFailure{"", std::nullopt, "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                                {{"function", "handleExpiredTimer"}}}),
              FailsWith("failed differently"));
  EXPECT_THAT(run(ExpectFailure{"", std::nullopt, "STATE_STORE_INVALID_CONFIG_AFTER_RESTART"}),
              FailsWith("failed differently"));
  EXPECT_EQ(describe(ExpectFailure{"", std::nullopt, "C", {{"a", "1"}}}), "ExpectFailure(C a=1, \"\")");
}

// A query on /chk counting words in `mode`; the sink data shared across writers.
struct ModeQuery {
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>();
  std::shared_ptr<MemorySinkData> data = std::make_shared<MemorySinkData>(std::vector<std::string>{"word"});
  TestQuery query(OutputMode mode) const {
    return memoryQuery(readStream(makeMemorySource(input))
                           .transform(countBy("word"))
                           .writeStream()
                           .outputMode(mode)
                           .option("checkpointLocation", "/chk")
                           .option("spark.sql.shuffle.partitions", "2"),
                       data);
  }
};

// StartStream with another query on the same checkpoint and sink: a changed output mode fails
// at start with Spark's condition; the old query starts again, "new rows" keeps its position.
TEST(Actions, StartStreamWithAnotherOutputModeFailsWithSparksCondition) {
  ModeQuery m;
  auto writer = [&](OutputMode mode) { return m.query(mode).writer; };
  auto input = m.input;
  TestQuery q = m.query(OutputMode::kUpdate);
  EXPECT_THAT(testStream(q, AddData{input, {word("a")}}, CheckNewAnswer{{count("a", 1)}}, StopStream{},
                         StartStream{writer(OutputMode::kAppend)},
                         ExpectFailure{"", std::nullopt, "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
                                       {{"configName", "outputMode"}, {"oldConfig", "Update"},
                                        {"newConfig", "Append"}}},
                         StartStream{writer(OutputMode::kUpdate)}, AddData{input, {word("a")}},
                         CheckNewAnswer{{count("a", 2)}}),
              IsOk());
}

// Spark's testStream starts the query implicitly only when no StartStream comes before the first
// action that needs it running: AssertOnQuery and AddData before a StartStream leave it down.
// Bug start_stream_after_add_data_already_running: the query was started before any first action
// but StartStream, so `AddData, StartStream` failed with "already running".
TEST(Actions, StartStreamAfterAddDataOrAssertOnQueryIsTheStart) {
  CountQuery q;
  EXPECT_THAT(testStream(q.query,
                         AssertOnQuery{[](StreamTestContext& ctx) {
                                         return ctx.running() == nullptr
                                                    ? Status::OK()
                                                    : Status::FailedPrecondition("started early");
                                       },
                                       "not started yet"},
                         AddData{q.input, {word("a")}}, StartStream{},
                         CheckAnswer{{count("a", 1)}}),
              IsOk());
  CountQuery q2;
  EXPECT_THAT(testStream(q2.query, AddData{q2.input, {word("a")}}, StartStream{},
                         CheckNewAnswer{{count("a", 1)}}),
              IsOk());
  // A check before the StartStream needs the query: it was started first, as in Spark.
  CountQuery q3;
  EXPECT_THAT(testStream(q3.query, AddData{q3.input, {word("a")}}, CheckAnswer{{count("a", 1)}},
                         StartStream{}),
              FailsWith("already running"));
}

// A failed start is held, the query down, until an ExpectFailure later in the list takes it, as
// Spark's tests write it (`StartStream, AddData, ExpectFailure`); an action that needs the running
// query meanwhile fails with the start's error; without a later ExpectFailure the start fails.
TEST(Actions, AFailedStartWaitsForALaterExpectFailure) {
  const ExpectFailure refused{"", std::nullopt, "STATE_STORE_INVALID_CONFIG_AFTER_RESTART",
                              {{"configName", "outputMode"}, {"oldConfig", "Update"}, {"newConfig", "Append"}}};
  const AssertOnQuery down{[](StreamTestContext& ctx) {
                             return ctx.running() == nullptr ? Status::OK()
                                                             : Status::FailedPrecondition("running");
                           },
                           "the query is down"};
  ModeQuery m;
  SimEnv sim;
  const DataStreamWriter append = m.query(OutputMode::kAppend).writer;
  const DataStreamWriter update = m.query(OutputMode::kUpdate).writer;
  // Spark's form: the failure surfaces after the data is added; the query is down until the
  // query that fits the state starts, and that one counts the row added meanwhile.
  EXPECT_THAT(testStream(sim, m.query(OutputMode::kUpdate), AddData{m.input, {word("a")}},
                         CheckNewAnswer{{count("a", 1)}}, StopStream{}, StartStream{append},
                         AddData{m.input, {word("a")}}, refused, down, StartStream{update},
                         CheckNewAnswer{{count("a", 2)}}, StopStream{}),
              IsOk());
  // An action that needs the query before the ExpectFailure fails with the start's error.
  StreamTestResult r = runStreamTest(sim, m.query(OutputMode::kUpdate),
                                     {StartStream{append}, AddData{m.input, {word("b")}},
                                      CheckNewAnswer{{}}, refused});
  EXPECT_EQ(r.failedAction, 2);
  EXPECT_THAT(r.status.message(), HasSubstr("the query failed at action 1 (StartStream(another query))"));
  EXPECT_THAT(r.status.message(), HasSubstr("STATE_STORE_INVALID_CONFIG_AFTER_RESTART"));
  EXPECT_THAT(r.status.message(), HasSubstr("this action needs the running query"));
  EXPECT_EQ(r.startError.condition(), "STATE_STORE_INVALID_CONFIG_AFTER_RESTART");
  // Without an ExpectFailure after it the start itself fails the run.
  r = runStreamTest(sim, m.query(OutputMode::kUpdate),
                    {AddData{m.input, {word("b")}}, StartStream{append}, AddData{m.input, {word("b")}}});
  EXPECT_EQ(r.failedAction, 1);
  EXPECT_THAT(r.status.message(), HasSubstr("StartStream failed"));
  EXPECT_EQ(r.startError.condition(), "STATE_STORE_INVALID_CONFIG_AFTER_RESTART");
  // The implicit start is held the same way (a bad option, refused when the query starts).
  ModeQuery b;
  TestQuery bad = b.query(OutputMode::kUpdate);
  bad.writer.option("spark.sql.streaming.multipleWatermarkPolicy", "median");
  EXPECT_THAT(testStream(bad, AddData{b.input, {word("a")}}, down, ExpectFailure{"is not min or max"}),
              IsOk());
  SimEnv sim2;
  r = runStreamTest(sim2, bad, {AddData{b.input, {word("a")}}, CheckAnswer{{}}});
  EXPECT_EQ(r.failedAction, -1);
  EXPECT_THAT(r.status.message(), HasSubstr("testStream failed before the first action"));
  EXPECT_EQ(r.startError.code(), Status::Code::kInvalidArgument);
}

// Emits {word, fired} from a processing-time timer 1 s after the word's row.
class Reminder : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row&, RowRange, const TimerValues& tv, Output&) override {
    getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 1000);
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo& info,
                          Output& out) override {
    out.emit(Row{{"word", key[0]}, {"fired", info.getExpiryTimeInMs()}});
  }
};

// AdvanceManualClock: exactly one trigger at the new time (Spark's StreamManualClock moves);
// CheckNewAnswer{.process = false} checks without processing anything.
TEST(Actions, AdvanceManualClockRunsExactlyOneTrigger) {
  auto input = std::make_shared<MemoryStreamData>();
  TestQuery q = memoryQuery(readStream(makeMemorySource(input))
                                .transform([] {
                                  TransformWithStateSpec spec;
                                  spec.groupBy = {"word"};
                                  spec.timeMode = TimeMode::kProcessingTime;
                                  spec.processorFactory = [] { return std::make_unique<Reminder>(); };
                                  return makeTransformWithState(spec);
                                })
                                .writeStream()
                                .outputMode(OutputMode::kUpdate)
                                .trigger(Trigger::ProcessingTime(1000))
                                .option("checkpointLocation", "/chk"));
  SimEnv sim;
  const TimeMs t0 = sim.clock().nowMs();
  EXPECT_THAT(testStream(sim, q, StartStream{}, AddData{input, {word("a")}},
                         CheckNewAnswer{{}, RowOrder::kAnyOrder, /*process=*/false},
                         AdvanceManualClock{1000},  // the data batch; the timer at +2 s
                         CheckNewAnswer{{}, RowOrder::kAnyOrder, false},
                         AdvanceManualClock{500},  // a no-data batch, the timer not due
                         CheckNewAnswer{{}, RowOrder::kAnyOrder, false},
                         AdvanceManualClock{500},  // the timer fires in this trigger's no-data batch
                         CheckNewAnswer{{Row{{"word", "a"}, {"fired", Value(t0 + 2000)}}},
                                        RowOrder::kAnyOrder, false}),
              IsOk());
  ASSERT_NE(sim.query(), nullptr);
  EXPECT_EQ(sim.query()->nextBatchId(), 3);
  EXPECT_EQ(describe(AdvanceManualClock{1000}), "AdvanceManualClock(" + formatDuration(1000) + ")");
}

TEST(Actions, ExpectFailureAfterACheckpointProblemAtStart) {
  CountQuery q;
  SimEnv sim;
  ASSERT_THAT(testStream(sim, q.query, AddData{q.input, {word("a")}}, ProcessAllAvailable{},
                         StopStream{}),
              IsOk());
  // Remove a commit's state: the restart must name the problem.
  ASSERT_THAT(sim.fs().removeAll("/chk/state"), IsOk());
  EXPECT_THAT(testStream(sim, q.query, StartStream{}, AddData{q.input, {word("a")}},
                         ExpectFailure{""}),
              IsOk());
}

TEST(Actions, FilesResendsAndDeletes) {
  auto schema = parseSchema("word string").value();
  auto source = makeFileSource("/landing", schema);
  ASSERT_THAT(source, IsOk());
  TestQuery q = memoryQuery(readStream(source.value())
                                .transform(countBy("word"))
                                .writeStream()
                                .outputMode(OutputMode::kUpdate)
                                .option("checkpointLocation", "/chk"));
  SimEnv sim;
  ASSERT_THAT(sim.fs().mkdirs("/landing"), IsOk());
  EXPECT_THAT(testStream(sim, q,
                         AddJsonFile("/landing/a.json", {word("a"), word("b")}),
                         CheckAnswer{{count("a", 1), count("b", 1)}},
                         // The same content under a new name is a new file (exactly once is per file).
                         ResendFile{"/landing/a.json", "/landing/a-copy.json"},
                         CheckNewAnswer{{count("a", 2), count("b", 2)}},
                         // Rewriting a seen name is not read again.
                         DeleteFile{"/landing/a.json"},
                         AddJsonFile("/landing/a.json", {word("a")}),
                         CheckNewAnswer{{}},
                         AdvanceClock{1000},
                         // Written in place: the batch reads it half written (a torn second
                         // line, read as nulls in PERMISSIVE mode), and never again.
                         AddFile{"/landing/c.json", "{\"word\":\"c\"}\n{\"word\":\"c\"}\n", 15},
                         CheckNewAnswer{{count("c", 1), Row{{"word", Value()}, {"count", int64_t{1}}}}},
                         CompleteFile{"/landing/c.json"},
                         CheckNewAnswer{{}}),
              IsOk());
}

TEST(Actions, AFileSinkIsCheckedAsAReaderSeesIt) {
  auto input = std::make_shared<MemoryStreamData>();
  SimEnv sim;
  auto writer = readStream(makeMemorySource(input))
                    .transform(countBy("word"))
                    .writeStream();
  writer.sink(makeFileSink("/out")).outputMode(OutputMode::kUpdate).option("checkpointLocation", "/chk");
  TestQuery q{writer, fileSinkView(sim, "/out", parseSchema("word string, count long").value())};
  EXPECT_THAT(testStream(sim, q,
                         AddData{input, {word("a")}},
                         Crash{"sink.after_data_files"},
                         RunBatches{1},
                         CheckAnswer{{}, RowOrder::kAnyOrder, false},  // data file not committed
                         Restart{},
                         CheckAnswer{{count("a", 1)}},
                         CheckNewAnswer{{}}),
              FailsWith("no per-batch view"));
}

TEST(Actions, ProcessingTimeTimersFireOnLaterTriggers) {
  auto input = std::make_shared<MemoryStreamData>();
  TestQuery q = memoryQuery(readStream(makeMemorySource(input))
                                .transform([] {
                                  TransformWithStateSpec spec;
                                  spec.groupBy = {"sensor"};
                                  spec.processorFactory = [] {
                                    return std::make_unique<processors::HeartbeatProcessor>(10'000);
                                  };
                                  spec.timeMode = TimeMode::kProcessingTime;
                                  return makeTransformWithState(spec);
                                })
                                .writeStream()
                                .outputMode(OutputMode::kUpdate)
                                .trigger(Trigger::ProcessingTime(1000))
                                .option("checkpointLocation", "/chk"));
  EXPECT_THAT(testStream(q, AddData{input, {Row{{"sensor", "s1"}}}},
                         RunBatches{1},
                         CheckAnswer{{}, RowOrder::kAnyOrder, false},
                         AdvanceClock{5'000},
                         RunBatches{1},
                         CheckNewAnswer{{}, RowOrder::kAnyOrder, false},
                         AdvanceClock{5'000},
                         RunBatches{1},
                         CheckNewAnswer{{Row{{"sensor", "s1"}, {"status", "missing"},
                                             {"last_seen", int64_t{0}}}},
                                        RowOrder::kAnyOrder, false}),
              IsOk());
}

TEST(Actions, DescribeNamesEveryStep) {
  EXPECT_EQ(describe(Crash{"commits.after_write", 3}), "Crash(at commits.after_write, batch 3)");
  EXPECT_EQ(describe(Crash{}), "Crash(now)");
  EXPECT_EQ(describe(AdvanceClock{60'000}), "AdvanceClock(" + formatDuration(60'000) + ")");
  EXPECT_EQ(describe(RunBatches{2}), "RunBatches(2)");
  EXPECT_EQ(describe(Restart{}), "Restart");
  EXPECT_EQ(describe(Restart{60'000}), "Restart(after " + formatDuration(60'000) + ")");
  EXPECT_EQ(describe(ExpectFailure{"x", Status::Code::kCorruption}),
            std::string("ExpectFailure(") + Status::codeName(Status::Code::kCorruption) + ", \"x\")");
  EXPECT_THAT(testStream(CountQuery().query, Crash{"no.such.point"}), FailsWith("unknown fault point"));
}

}  // namespace
}  // namespace streamsim::harness
