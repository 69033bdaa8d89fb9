// The no-data batch rule after a restart (MicroBatchExecution.constructNextBatch): a batch without
// new data runs only when the previous batch of the current run asks for one
// (shouldRunAnotherBatch), so the first idle trigger after a (re)start runs nothing, in
// ProcessingTime mode (TTL cleanup, due timers) and in EventTime mode (the watermark follow-up
// batch) alike; once a batch has run, the next idle trigger runs one. Both state stores.
#include <gtest/gtest.h>

#include "streamsim/dataframe_ops.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "tws_test_util.h"

namespace streamsim {
namespace {

constexpr TimeMs kT0 = 1'700'000'000'000;

// Counts rows per key; registers a processing-time timer 1 s ahead (ProcessingTime) or an
// event-time timer at the row's time (EventTime); a fired timer emits {k, fired}.
class TimerCounter : public StatefulProcessor {
 public:
  explicit TimerCounter(TimeMode mode) : mode_(mode) {}
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    count_.update(count_.get() + static_cast<int64_t>(rows.size()));
    for (const Row& r : rows)
      getHandle().registerTimer(mode_ == TimeMode::kProcessingTime ? tv.getCurrentProcessingTimeInMs() + 1'000
                                                                   : *eventTimeOf(r, "t"));
    out.emit(Row{{"k", key[0]}, {"count", count_.get()}});
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo& info,
                          Output& out) override {
    out.emit(Row{{"k", key[0]}, {"fired", info.getExpiryTimeInMs()}});
  }

 private:
  TimeMode mode_;
  ValueState<int64_t> count_;
};

class NoDataBatchRestartTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  sim::VirtualClock clock{kT0};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  SchemaPtr schema = *parseSchema("k string, t timestamp");
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>(schema);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>(std::vector<std::string>{"k"});

  std::unique_ptr<StreamingQuery> start(TimeMode mode) {
    DataFrame df = readStream(makeMemorySource(input));
    if (mode == TimeMode::kEventTime) df = df.withWatermark("t", 0);
    df = df.groupBy({"k"}).transformWithState([mode] { return std::make_unique<TimerCounter>(mode); },
                                              mode, OutputMode::kUpdate);
    DataStreamWriter w = df.writeStream();
    w.sink(makeMemorySink(output))
        .outputMode(OutputMode::kUpdate)
        .option("checkpointLocation", "/chk")
        .option("stateStore", GetParam() == StateStoreKind::kRocksDB ? "rocksdb" : "memory")
        .option("spark.sql.shuffle.partitions", "2");
    auto q = w.start(env);
    EXPECT_TRUE(q.ok()) << q.status().toString();
    return q.ok() ? std::move(q).value() : nullptr;
  }
  Row row(const char* k, TimeMs t) { return Row(schema, {Value(k), Value::timestamp(t)}); }
  // One trigger; whether a batch ran.
  bool trigger(StreamingQuery& q) {
    auto ran = q.triggerOnce();
    EXPECT_TRUE(ran.ok()) << ran.status().toString();
    return ran.ok() && *ran;
  }
};

TEST_P(NoDataBatchRestartTest, ProcessingTimeRunsNoIdleBatchBeforeThisRunsFirstBatch) {
  {
    auto q = start(TimeMode::kProcessingTime);
    ASSERT_NE(q, nullptr);
    ASSERT_TRUE(input->addData({row("a", 1)}).ok());
    ASSERT_TRUE(trigger(*q));  // batch 0; a timer at T0 + 1 s
    q->stop();
  }
  clock.sleepUntil(kT0 + 5'000);  // the timer is due
  auto q = start(TimeMode::kProcessingTime);
  ASSERT_NE(q, nullptr);
  // The first idle trigger after the restart runs nothing: no batch, the timer waits.
  EXPECT_FALSE(trigger(*q));
  EXPECT_FALSE(trigger(*q));
  EXPECT_EQ(q->nextBatchId(), 1);
  EXPECT_EQ(output->batches().size(), 1u);
  // A data batch runs (and fires the due timer after the input) ...
  ASSERT_TRUE(input->addData({row("b", 2)}).ok());
  ASSERT_TRUE(trigger(*q));
  EXPECT_EQ(q->nextBatchId(), 2);
  // ... and from then on an idle trigger runs a no-data batch (ProcessingTime asks every time).
  clock.sleepUntil(kT0 + 10'000);
  EXPECT_TRUE(trigger(*q));
  EXPECT_EQ(q->nextBatchId(), 3);
  bool fired = false;
  for (const Row& r : output->appendView()) fired = fired || (r.has("fired") && !r.get("fired").isNull() && r.get("k") == Value("b"));
  EXPECT_TRUE(fired) << "b's timer (batch 1 + 1 s) fired in the no-data batch";
}

TEST_P(NoDataBatchRestartTest, EventTimeFollowUpBatchWaitsForThisRunsFirstBatch) {
  {
    auto q = start(TimeMode::kEventTime);
    ASSERT_NE(q, nullptr);
    ASSERT_TRUE(input->addData({row("a", 5'000)}).ok());
    ASSERT_TRUE(trigger(*q));  // batch 0: the watermark moves to 5 s for the next batch
    q->stop();
  }
  auto q = start(TimeMode::kEventTime);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->currentWatermark(), 5'000);
  // In the old run the next trigger would run the follow-up batch that fires a's timer (5 s);
  // after the restart nothing runs until data comes.
  EXPECT_FALSE(trigger(*q));
  EXPECT_EQ(q->nextBatchId(), 1);
  ASSERT_TRUE(input->addData({row("b", 9'000)}).ok());
  ASSERT_TRUE(trigger(*q));  // batch 1 (watermark 5 s): a's timer fires
  EXPECT_EQ(q->nextBatchId(), 2);
  // Now the watermark moved (9 s): the next idle trigger runs the follow-up batch.
  EXPECT_TRUE(trigger(*q));
  EXPECT_EQ(q->nextBatchId(), 3);
  EXPECT_FALSE(trigger(*q));  // nothing moved since
}

INSTANTIATE_TEST_SUITE_P(Stores, NoDataBatchRestartTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) {
                           return info.param == StateStoreKind::kMemory ? "Memory" : "RocksDB";
                         });

}  // namespace
}  // namespace streamsim
