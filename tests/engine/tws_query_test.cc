// transformWithState through the query API and the DataFrame builder (dataframe_ops.h), on both
// state stores: state schema record and evolution, the eventTimeColumnName watermark carried to a
// downstream window aggregation, Update mode without emission, stop/restart between any two
// batches, and the progress figures of lastProgress().
#include <gtest/gtest.h>

#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/state_schema.h"
#include "tws_test_util.h"
#include "test_registries.h"

namespace streamsim {
namespace tws_query_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

using testing::TwsDriver;

constexpr TimeMs kT0 = 1'700'000'000'000;

// ---------------------------------------------------------------------------------------------
// State schema: one record through state_schema.h, evolution of a Row-typed ValueState.
// ---------------------------------------------------------------------------------------------

// ValueState<Row> "profile" with the given DDL; emits the previous count and note, then stores
// count + rows and note "x". `extra` declares one more variable; `asList` declares "profile" as
// a ListState instead.
class ProfileProcessor : public StatefulProcessor {
 public:
  ProfileProcessor(std::string ddl, bool extra, bool asList)
      : ddl_(std::move(ddl)), extra_(extra), as_list_(asList) {}
  void init(StatefulProcessorHandle& handle) override {
    if (as_list_) {
      list_ = handle.getListState<Row>("profile", rowCodec(ddl_));
    } else {
      profile_ = handle.getValueState<Row>("profile", rowCodec(ddl_));
    }
    if (extra_) other_ = handle.getValueState<int64_t>("extra");
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    Row prev = profile_.exists() ? profile_.get() : Row();
    Value count = prev.has("count") ? prev.get("count") : Value();
    Value note = prev.has("note") ? prev.get("note") : Value("absent");
    out.emit(Row{{"k", key[0]}, {"prev_count", count}, {"prev_note", note}});
    int64_t c = (count.isNull() ? 0 : count.asLong()) + static_cast<int64_t>(rows.size());
    profile_.update(Row{{"count", c}, {"note", "x"}});
  }

 private:
  std::string ddl_;
  bool extra_, as_list_;
  ValueState<Row> profile_;
  ListState<Row> list_;
  ValueState<int64_t> other_;
};

class TwsQueryTest : public ::testing::TestWithParam<StateStoreKind> {};

TransformWithStateSpec profileSpec(std::string ddl, bool extra = false, bool asList = false) {
  TransformWithStateSpec s;
  s.groupBy = {"k"};
  s.processorName = "profile";
  s.processorFactory = [=] { return std::make_unique<ProfileProcessor>(ddl, extra, asList); };
  return s;
}

TEST_P(TwsQueryTest, StateSchemaEvolvesByAppendingANullableFieldAndRejectsOtherChanges) {
  TwsDriver d(GetParam());
  Row a{{"k", "a"}};
  ASSERT_TRUE(d.start(profileSpec("count long")).ok());
  auto b0 = d.run({a, a}, kT0);
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  EXPECT_EQ((*b0)[0].get("prev_note"), Value("absent"));

  // Recorded once, through state_schema.h; no second format next to it.
  auto recorded = readStateSchema(d.env(), TwsDriver::kRoot, 0);
  ASSERT_TRUE(recorded.ok()) << recorded.status().toString();
  ASSERT_EQ(recorded->size(), 1u);
  EXPECT_EQ((*recorded)[0].name, "profile");
  EXPECT_EQ((*recorded)[0].kind, "value");
  EXPECT_EQ((*recorded)[0].valueSchema, rowCodec("count long").schemaDDL());
  EXPECT_FALSE((*recorded)[0].ttlEnabled);
  EXPECT_FALSE(d.env().fs->exists("/chk/state/0/_stateSchema/default/schema"));
  auto op = readStateOperatorSchema(d.env(), TwsDriver::kRoot, 0);
  ASSERT_TRUE(op.ok() && op->has_value());
  EXPECT_EQ((*op)->operatorName, "transformWithStateExec");
  EXPECT_EQ((*op)->keyColumns, std::vector<std::string>{"k"});

  // Appending a nullable field evolves: the old value reads with the new field null.
  ASSERT_TRUE(d.start(profileSpec("count long, note string")).ok());
  EXPECT_TRUE(d.env().fs->exists("/chk/state/0/_stateSchema/1.json"));
  auto b1 = d.run({a}, kT0 + 1);
  ASSERT_TRUE(b1.ok()) << b1.status().toString();
  EXPECT_EQ((*b1)[0].get("prev_count"), Value(int64_t{2}));
  EXPECT_TRUE((*b1)[0].get("prev_note").isNull()) << (*b1)[0].toJson();
  auto b2 = d.run({a}, kT0 + 2);
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ((*b2)[0].get("prev_count"), Value(int64_t{3}));
  EXPECT_EQ((*b2)[0].get("prev_note"), Value("x"));

  // Incompatible: a retyped field; a removed field; ValueState -> ListState. Each names the
  // variable and both schemas.
  const std::string now = rowCodec("count long, note string").schemaDDL();
  for (auto [spec, newText] :
       {std::pair{profileSpec("count string, note string"), rowCodec("count string, note string").schemaDDL()},
        std::pair{profileSpec("count long"), rowCodec("count long").schemaDDL()},
        std::pair{profileSpec("count long, note string", false, true), std::string("list")}}) {
    Status st = d.start(spec);
    ASSERT_EQ(st.code(), Status::Code::kFailedPrecondition) << st.toString();
    EXPECT_NE(st.message().find("'profile'"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find(newText), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("_stateSchema/1.json"), std::string::npos)
        << st.message();
  }
  // Other grouping columns or time mode are refused too.
  auto regrouped = profileSpec("count long, note string");
  regrouped.groupBy = {"k", "j"};
  Status st = d.start(regrouped);
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(st.message().find("[k, j]"), std::string::npos) << st.message();
  auto retimed = profileSpec("count long, note string");
  retimed.timeMode = TimeMode::kProcessingTime;
  EXPECT_EQ(d.start(retimed).code(), Status::Code::kFailedPrecondition);

  // A new state variable evolves; the state is still read.
  ASSERT_TRUE(d.start(profileSpec("count long, note string", /*extra=*/true)).ok());
  auto b3 = d.run({a}, kT0 + 3);
  ASSERT_TRUE(b3.ok()) << b3.status().toString();
  EXPECT_EQ((*b3)[0].get("prev_count"), Value(int64_t{4}));
  auto after = readStateSchema(d.env(), TwsDriver::kRoot, 0);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->size(), 2u);
}

TEST_P(TwsQueryTest, SwitchingTtlOnIsRejectedNamingTheVariable) {
  TwsDriver d(GetParam());
  auto spec = [](bool ttl) {
    TransformWithStateSpec s;
    s.groupBy = {"k"};
    s.timeMode = TimeMode::kProcessingTime;
    auto h = std::make_shared<testing::ScriptedProcessor::Hooks>();
    h->init = [ttl](testing::ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.value = ttl ? handle.getValueState<int64_t>("v", TTLConfig{1000})
                    : handle.getValueState<int64_t>("v");
    };
    s.processorFactory = testing::scripted(h);
    return s;
  };
  ASSERT_TRUE(d.start(spec(false)).ok());
  ASSERT_TRUE(d.run({}, kT0).ok());
  Status st = d.start(spec(true));
  ASSERT_EQ(st.code(), Status::Code::kFailedPrecondition) << st.toString();
  EXPECT_NE(st.message().find("'v'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("TTL"), std::string::npos) << st.message();
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

struct QueryEnv {
  explicit QueryEnv(StateStoreKind kind) : kind(kind) {}
  sim::VirtualClock clock{kT0};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{11};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  StateStoreKind kind;
  SchemaPtr schema = *parseSchema("k string, t timestamp, flag string");
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>(schema);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>(std::vector<std::string>{"k"});

  Row row(const std::string& k, TimeMs t, std::string flag = "") {
    return Row(schema, {Value(k), Value::timestamp(t), flag.empty() ? Value() : Value(flag)});
  }
  std::unique_ptr<StreamingQuery> start(const DataFrame& df, OutputMode mode, int partitions = 2,
                                        bool expectOk = true) {
    DataStreamWriter w = df.writeStream();
    w.sink(makeMemorySink(output))
        .outputMode(mode)
        .option("checkpointLocation", "/chk")
        .option("stateStore", kind == StateStoreKind::kRocksDB ? "rocksdb" : "memory")
        .option("spark.sql.shuffle.partitions", std::to_string(partitions));
    auto q = w.start(env);
    if (expectOk) {
      EXPECT_TRUE(q.ok()) << q.status().toString();
    }
    return q.ok() ? std::move(q).value() : nullptr;
  }
};

// Emits {k, out_t = max t of the key's rows}.
class MaxTimeProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { seen_ = handle.getValueState<int64_t>("seen"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    TimeMs max = 0;
    for (const Row& r : rows) max = std::max(max, *eventTimeOf(r, "t"));
    seen_.update(seen_.get() + static_cast<int64_t>(rows.size()));
    out.emit(Row{{"k", key[0]}, {"out_t", Value::timestamp(max)}});
  }

 private:
  ValueState<int64_t> seen_;
};

TEST_P(TwsQueryTest, EventTimeColumnNameCarriesTheWatermarkToADownstreamWindowAggregation) {
  QueryEnv e(GetParam());
  TransformWithStateOptions opts;
  opts.eventTimeColumnName = "out_t";
  DataFrame df = readStream(makeMemorySource(e.input))
                     .withWatermark("t", 0)
                     .groupBy({"k"})
                     .transformWithState([] { return std::make_unique<MaxTimeProcessor>(); },
                                         TimeMode::kNone, OutputMode::kAppend, opts)
                     .groupBy({})
                     .window("out_t", 10'000)
                     .count();
  // Without the propagation the Append-mode aggregation on out_t would refuse to start.
  auto q = e.start(df, OutputMode::kAppend);
  ASSERT_NE(q, nullptr);
  ASSERT_TRUE(e.input->addData({e.row("u1", 1'000), e.row("u2", 3'000)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok()) << q->exception().toString();
  EXPECT_TRUE(e.output->appendView().empty());
  ASSERT_TRUE(e.input->addData({e.row("u1", 12'000)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok()) << q->exception().toString();
  // The watermark (12 s) passed the end of [0, 10 s): that window is final, [10 s, 20 s) is not.
  auto out = e.output->appendView();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].get("count"), Value(int64_t{2})) << out[0].toJson();
  EXPECT_EQ(*eventTimeOf(out[0], "window_end"), 10'000) << out[0].toJson();
}

// Counts rows per key; a row with flag "silent" makes it emit nothing, "clear" emits count null.
class FlagCountProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t c = count_.get() + static_cast<int64_t>(rows.size());
    count_.update(c);
    Value flag = rows.back().get("flag");
    if (!flag.isNull() && flag.asString() == "silent") return;
    if (!flag.isNull() && flag.asString() == "clear") {
      out.emit(Row{{"k", key[0]}, {"count", Value()}});
      return;
    }
    out.emit(Row{{"k", key[0]}, {"count", c}});
  }

 private:
  ValueState<int64_t> count_;
};

TEST_P(TwsQueryTest, UpdateModeEmittingNothingLeavesTheKeyAndOnlyAnEmittedNullRowUpdatesIt) {
  QueryEnv e(GetParam());
  DataFrame df = readStream(makeMemorySource(e.input))
                     .groupBy({"k"})
                     .transformWithState([] { return std::make_unique<FlagCountProcessor>(); },
                                         TimeMode::kNone, OutputMode::kUpdate);
  auto q = e.start(df, OutputMode::kUpdate);
  ASSERT_NE(q, nullptr);
  ASSERT_TRUE(e.input->addData({e.row("a", 1), e.row("b", 1)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  ASSERT_TRUE(e.input->addData({e.row("b", 2, "silent")}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  // Batch 1 wrote no row for b: downstream b keeps its last value (no tombstone is invented).
  EXPECT_TRUE(e.output->batch(1)->empty());
  auto view = e.output->updateView();
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(view[1].get("count"), Value(int64_t{1}));
  ASSERT_TRUE(e.input->addData({e.row("b", 3, "clear")}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  view = e.output->updateView();
  ASSERT_EQ(view.size(), 2u);
  EXPECT_TRUE(view[1].get("count").isNull()) << view[1].toJson();
  EXPECT_EQ(view[0].get("count"), Value(int64_t{1}));
}

// ProcessingTime: count with TTL 10 s, a timer 5 s after each input, a list of flags.
class TimedProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    count_ = handle.getValueState<int64_t>("count", TTLConfig{10'000});
    log_ = handle.getListState<int64_t>("log");
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    int64_t c = count_.get() + static_cast<int64_t>(rows.size());
    count_.update(c);
    for (const Row& r : rows) log_.appendValue(*eventTimeOf(r, "t"));
    getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 5'000);
    out.emit(Row{{"k", key[0]}, {"event", "input"}, {"count", c},
                 {"log", static_cast<int64_t>(log_.get().size())}});
  }
  void handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo& info,
                          Output& out) override {
    out.emit(Row{{"k", key[0]}, {"event", "timer"}, {"count", count_.exists() ? Value(count_.get()) : Value()},
                 {"log", info.getExpiryTimeInMs() - tv.getCurrentProcessingTimeInMs()}});
  }

 private:
  ValueState<int64_t> count_;
  ListState<int64_t> log_;
};

DataFrame timedQuery(const QueryEnv& e) {
  return readStream(makeMemorySource(e.input))
      .groupBy({"k"})
      .transformWithState([] { return std::make_unique<TimedProcessor>(); },
                          TimeMode::kProcessingTime, OutputMode::kUpdate);
}

// The input of trigger i (some triggers have none: timers and TTL still run).
std::vector<Row> inputOf(QueryEnv& e, int i) {
  switch (i) {
    case 0: return {e.row("a", 1), e.row("b", 2), e.row("c", 3)};
    case 1: return {e.row("a", 4)};
    case 3: return {e.row("b", 5), e.row("d", 6)};
    case 4: return {e.row("a", 7), e.row("c", 8), e.row("c", 9)};
    case 6: return {e.row("d", 10)};
    default: return {};
  }
}
constexpr int kTriggers = 9;

// A restart before a trigger with data gives the uninterrupted output. Before an idle trigger it
// does not: no batch has run in the new run yet, so that trigger runs no no-data batch (Spark's
// MicroBatchExecution.constructNextBatch asks the previous batch of this run) and the due timers
// and TTL wait for the next batch with data.
TEST_P(TwsQueryTest, StopAndRestartBetweenAnyTwoBatchesGivesTheUninterruptedOutput) {
  QueryEnv ref(GetParam());
  {
    auto q = ref.start(timedQuery(ref), OutputMode::kUpdate);
    ASSERT_NE(q, nullptr);
    for (int i = 0; i < kTriggers; ++i) {
      ref.clock.sleepUntil(kT0 + i * 4'000);
      ASSERT_TRUE(ref.input->addData(inputOf(ref, i)).ok());
      auto ran = q->triggerOnce();
      ASSERT_TRUE(ran.ok() && *ran) << i;
    }
  }
  ASSERT_EQ(ref.output->batches().size(), static_cast<size_t>(kTriggers));
  int timerRows = 0;
  for (const Row& r : ref.output->appendView()) timerRows += r.get("event") == Value("timer");
  EXPECT_GT(timerRows, 3);  // the run exercises timers (and TTL expiry: count null in some)

  for (int stopAfter = 1; stopAfter < kTriggers; ++stopAfter) {
    SCOPED_TRACE("restart after batch " + std::to_string(stopAfter - 1));
    const bool idleAfterRestart = inputOf(ref, stopAfter).empty();
    QueryEnv e(GetParam());
    auto q = e.start(timedQuery(e), OutputMode::kUpdate);
    ASSERT_NE(q, nullptr);
    for (int i = 0; i < kTriggers; ++i) {
      if (i == stopAfter) {
        q->stop();
        q.reset();
        q = e.start(timedQuery(e), OutputMode::kUpdate);
        ASSERT_NE(q, nullptr);
        EXPECT_EQ(q->nextBatchId(), i);
      }
      e.clock.sleepUntil(kT0 + i * 4'000);
      ASSERT_TRUE(e.input->addData(inputOf(e, i)).ok());
      auto ran = q->triggerOnce();
      ASSERT_TRUE(ran.ok()) << i << ": " << ran.status().toString();
      if (idleAfterRestart && i == stopAfter) {
        EXPECT_FALSE(*ran) << "an idle trigger right after the restart ran a batch";
        break;
      }
      ASSERT_TRUE(*ran) << i;
    }
    if (!idleAfterRestart) {
      EXPECT_EQ(e.output->batches(), ref.output->batches());
    }
  }
}

TEST_P(TwsQueryTest, LastProgressReportsStateRowsTimersAndTtlRemovals) {
  QueryEnv e(GetParam());
  DataFrame df = readStream(makeMemorySource(e.input))
                     .groupBy({"k"})
                     .transformWithState([] { return std::make_unique<TimedProcessor>(); },
                                         TimeMode::kProcessingTime, OutputMode::kUpdate);
  auto q = e.start(df, OutputMode::kUpdate, /*partitions=*/1);
  ASSERT_NE(q, nullptr);
  auto figures = [&] {
    const QueryProgress* p = q->lastProgress();
    EXPECT_NE(p, nullptr);
    EXPECT_EQ(p->stateOperators.size(), 1u);
    return p->stateOperators.at(0);
  };
  // Batch 0 at T0: a x2 -> count + its TTL index entry, log, timer in both timer indexes.
  ASSERT_TRUE(e.input->addData({e.row("a", 1), e.row("a", 2)}).ok());
  ASSERT_TRUE(q->triggerOnce().ok());
  StateOperatorProgress s = figures();
  EXPECT_EQ(s.operatorName, "transformWithState");
  EXPECT_EQ(s.numRowsTotal, 5);
  EXPECT_EQ(s.numTimersFired, 0);
  EXPECT_EQ(s.numValuesRemovedByTTL, 0);
  EXPECT_EQ(s.numRowsRemoved, 0);
  EXPECT_GE(s.numRowsUpdated, 5);
  // Batch 1 at T0 + 6 s, no data: the timer (T0 + 5 s) fires and is deleted from both indexes.
  e.clock.sleepUntil(kT0 + 6'000);
  ASSERT_TRUE(q->triggerOnce().ok());
  s = figures();
  EXPECT_EQ(s.numTimersFired, 1);
  EXPECT_EQ(s.numValuesRemovedByTTL, 0);
  EXPECT_EQ(s.numRowsRemoved, 2);
  EXPECT_EQ(s.numRowsUpdated, 0);
  EXPECT_EQ(s.numRowsTotal, 3);
  // Batch 2 at T0 + 10 s: count expires (T0 + 10 s) and the cleanup removes it and its index.
  e.clock.sleepUntil(kT0 + 10'000);
  ASSERT_TRUE(q->triggerOnce().ok());
  s = figures();
  EXPECT_EQ(s.numTimersFired, 0);
  EXPECT_EQ(s.numValuesRemovedByTTL, 1);
  EXPECT_EQ(s.numRowsRemoved, 2);
  EXPECT_EQ(s.numRowsTotal, 1);  // the list
  EXPECT_EQ(q->lastProgress()->numOutputRows, 0);
}

// ---------------------------------------------------------------------------------------------
// The builder
// ---------------------------------------------------------------------------------------------

TEST_P(TwsQueryTest, BuilderDropDuplicatesAndRegistryProcessorsAndErrors) {
  QueryEnv e(GetParam());
  auto q = e.start(readStream(makeMemorySource(e.input)).dropDuplicates({"k"}), OutputMode::kAppend);
  ASSERT_NE(q, nullptr);
  ASSERT_TRUE(e.input->addData({e.row("a", 1), e.row("a", 2), e.row("b", 3)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  ASSERT_TRUE(e.input->addData({e.row("b", 4), e.row("c", 5)}).ok());
  ASSERT_TRUE(q->processAllAvailable().ok());
  std::vector<std::string> ks;
  for (const Row& r : e.output->appendView()) ks.push_back(r.get("k").asString());
  std::sort(ks.begin(), ks.end());
  EXPECT_EQ(ks, (std::vector<std::string>{"a", "b", "c"}));

  QueryEnv w(GetParam());
  auto within = w.start(readStream(makeMemorySource(w.input)).dropDuplicatesWithinWatermark({"k"}),
                        OutputMode::kAppend, 2, /*expectOk=*/false);
  EXPECT_EQ(within, nullptr);  // needs a watermark: start() fails

  QueryEnv c(GetParam());
  auto counted = c.start(readStream(makeMemorySource(c.input))
                             .groupBy({"k"})
                             .transformWithState(*::streamsim::test::testProcessors(), "count", TimeMode::kNone, OutputMode::kUpdate),
                         OutputMode::kUpdate);
  ASSERT_NE(counted, nullptr);
  ASSERT_TRUE(c.input->addData({c.row("a", 1), c.row("a", 2), c.row("a", 3), c.row("b", 4), c.row("b", 5)}).ok());
  ASSERT_TRUE(counted->processAllAvailable().ok());
  auto view = c.output->updateView();
  ASSERT_EQ(view.size(), 2u);
  EXPECT_EQ(view[0].get("count"), Value(int64_t{3}));
  EXPECT_EQ(view[1].get("count"), Value(int64_t{2}));

  QueryEnv u(GetParam());
  auto unknown = readStream(makeMemorySource(u.input))
                     .groupBy({"k"})
                     .transformWithState(*::streamsim::test::testProcessors(), "no_such_processor", TimeMode::kNone, OutputMode::kUpdate)
                     .writeStream()
                     .sink(makeMemorySink(u.output))
                     .option("checkpointLocation", "/chk")
                     .start(u.env);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("no_such_processor"), std::string::npos)
      << unknown.status().toString();
  auto noWindow = readStream(makeMemorySource(u.input))
                      .groupBy({"k"})
                      .count()
                      .writeStream()
                      .sink(makeMemorySink(u.output))
                      .option("checkpointLocation", "/chk2")
                      .start(u.env);
  // A window-less aggregation in the default Append mode without a watermark: Spark's
  // UnsupportedOperationChecker refuses it (it was refused for having no window).
  ASSERT_FALSE(noWindow.ok());
  EXPECT_EQ(noWindow.status().condition(), "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION") << noWindow.status().toString();
  EXPECT_NE(noWindow.status().message().find("streaming aggregations without watermark"), std::string::npos);
  auto complete = readStream(makeMemorySource(u.input))
                      .groupBy({"k"})
                      .transformWithState(*::streamsim::test::testProcessors(), "count", TimeMode::kNone, OutputMode::kComplete)
                      .writeStream()
                      .sink(makeMemorySink(u.output))
                      .option("checkpointLocation", "/chk3")
                      .start(u.env);
  ASSERT_FALSE(complete.ok());
  EXPECT_NE(complete.status().message().find("Complete"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Stores, TwsQueryTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) {
                           return info.param == StateStoreKind::kMemory ? "memory" : "rocksdb";
                         });

}  // namespace
}  // namespace tws_query_test
}  // namespace streamsim
