// dropDuplicates and dropDuplicatesWithinWatermark (ops/dedup.h; SEMANTICS.md §4) on both state
// store kinds, driven batch by batch with the late / eviction watermark pair.
#include "streamsim/ops/dedup.h"

#include <gtest/gtest.h>

#include "ops_test_driver.h"
#include "streamsim/fault_points.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/sim/simulated_crash.h"

namespace streamsim {
namespace {

using testing::ev;
using testing::ids;
using harness::FailsWithCondition;
using testing::kMinute;
using testing::kT0;
using testing::OpDriver;

class DedupTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  OpDriver::Config config(std::string eventTimeColumn = "", DurationMs delay = 0) {
    OpDriver::Config c;
    c.kind = GetParam();
    c.eventTimeColumn = std::move(eventTimeColumn);
    c.delay = delay;
    return c;
  }
  static OpDriver::Factory dedup(std::vector<std::string> cols) {
    return [cols] { return makeDropDuplicates(cols); };
  }
  static OpDriver::Factory within(std::vector<std::string> cols) {
    return [cols] { return makeDropDuplicatesWithinWatermark(cols); };
  }
};

TEST_P(DedupTest, FirstOccurrencePassesWithinABatchAndAcrossBatches) {
  OpDriver d(dedup({"id"}), config());
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({ev("a", kT0), ev("a", kT0 + 1), ev("b", kT0 + 2)});
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  EXPECT_EQ(ids(*b0), (std::vector<std::string>{"a", "b"}));
  // The kept "a" is the first one (its time tells).
  for (const Row& r : *b0) {
    if (r.get("id").asString() == "a") {
      EXPECT_EQ(r.get("t").asLong(), kT0);
    }
  }
  auto b1 = d.run({ev("a", kT0 + 3), ev("c", kT0 + 4), ev("c", kT0 + 5)});
  ASSERT_TRUE(b1.ok()) << b1.status().toString();
  EXPECT_EQ(ids(*b1), (std::vector<std::string>{"c"}));
  EXPECT_EQ(d.lastProgress().operatorName, "dedupe");
  EXPECT_EQ(d.lastProgress().numRowsTotal, 3);
  EXPECT_EQ(d.lastProgress().numRowsUpdated, 1);
  EXPECT_EQ(d.lastProgress().numShufflePartitions, 3);
}

TEST_P(DedupTest, KeysAreKeptForeverWithoutTheEventTimeColumnInTheKey) {
  // A watermark exists but dedup is on id only: state grows without bound (Spark's behaviour),
  // while late rows are still dropped.
  OpDriver d(dedup({"id"}), config("t", 10 * kMinute));
  ASSERT_TRUE(d.start().ok());
  int64_t expected = 0;
  for (int b = 0; b < 5; ++b) {
    TimeMs t = kT0 + b * 60 * kMinute;
    auto out = d.run({ev("k" + std::to_string(b), t), ev("x" + std::to_string(b), t)});
    ASSERT_TRUE(out.ok()) << out.status().toString();
    expected += 2;
    EXPECT_EQ(d.lastProgress().numRowsTotal, expected) << "batch " << b;
    EXPECT_EQ(d.lastProgress().numRowsRemoved, 0);
  }
  // A row far behind the watermark is dropped as late, and counted.
  auto late = d.run({ev("new", kT0)});
  ASSERT_TRUE(late.ok());
  EXPECT_TRUE(late->empty());
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
}

TEST_P(DedupTest, WithoutWatermarkStateGrowsAndNothingIsLate) {
  OpDriver d(dedup({"id"}), config());
  ASSERT_TRUE(d.start().ok());
  for (int b = 0; b < 4; ++b) {
    auto out = d.run({ev("k" + std::to_string(b), kT0 - 1000 * kMinute)});
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->size(), 1u);
    EXPECT_EQ(d.lastProgress().numRowsTotal, b + 1);
    EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 0);
  }
  EXPECT_FALSE(d.wantsNoDataBatch());
}

TEST_P(DedupTest, StateIsEvictedWhenTheKeyHoldsTheWatermarkedColumn) {
  OpDriver d(dedup({"id", "t"}), config("t", 10 * kMinute));
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({ev("a", kT0 + kMinute), ev("b", kT0 + 2 * kMinute)}).ok());
  EXPECT_EQ(d.lastProgress().numRowsTotal, 2);
  // Watermark is now kT0 - 8m: nothing to evict yet.
  ASSERT_TRUE(d.run({ev("c", kT0 + 30 * kMinute)}).ok());
  EXPECT_EQ(d.lastProgress().numRowsTotal, 3);
  EXPECT_EQ(d.lastProgress().numRowsRemoved, 0);
  // The watermark moved to kT0 + 20m: a no-data batch is wanted and evicts a and b.
  EXPECT_TRUE(d.wantsNoDataBatch());
  auto nodata = d.run({});
  ASSERT_TRUE(nodata.ok());
  EXPECT_TRUE(nodata->empty());
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);
  EXPECT_EQ(d.lastProgress().numRowsRemoved, 2);
  EXPECT_FALSE(d.wantsNoDataBatch());
  // An exact resend of "a" is now late: dropped by the watermark, not re-emitted.
  auto resend = d.run({ev("a", kT0 + kMinute), ev("d", kT0 + 31 * kMinute)});
  ASSERT_TRUE(resend.ok());
  EXPECT_EQ(ids(*resend), (std::vector<std::string>{"d"}));
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
}

TEST_P(DedupTest, ChangingTheColumnsFailsOnRestart) {
  OpDriver d(dedup({"id"}), config("t", 10 * kMinute));
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({ev("a", kT0)}).ok());
  Status st = d.start(dedup({"id", "t"}));
  ASSERT_EQ(st.code(), Status::Code::kFailedPrecondition) << st.toString();
  EXPECT_NE(st.message().find("[id]"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("[id, t]"), std::string::npos) << st.message();
  // The same columns restart fine and keep their state.
  ASSERT_TRUE(d.start(dedup({"id"})).ok());
  auto out = d.run({ev("a", kT0 + 1)});
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out->empty());
  // Another operator kind in the same state folder is refused too.
  Status other = d.start(within({"id"}));
  EXPECT_EQ(other.code(), Status::Code::kFailedPrecondition) << other.toString();
  // Spark's operator metadata v1 was written next to our schema record.
  auto meta = d.fs().read("/chk/state/0/_metadata/metadata");
  ASSERT_TRUE(meta.ok());
  EXPECT_NE(meta->find("\"operatorName\":\"dedupe\""), std::string::npos) << *meta;
}

// A key column whose type changed between runs: Spark's StateSchemaCompatibilityChecker
// compares dedupe's key schema (the columns' types) when it plans a run's first batch and fails
// with STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE (was accepted: the state mixed "5" and 5). streamsim
// learns the types from the rows, so the run's first batch with input fails. Both operators,
// and dropDuplicates() on every column.
TEST_P(DedupTest, RestartWithChangedKeyTypeFails) {
  auto row = [](Value id) { return Row::fromNamed({{"id", std::move(id)}, {"t", Value::timestamp(kT0)}}); };
  const std::string stringKey = "StructField(id,StringType,true)";
  const std::string longKey = "StructField(id,LongType,true)";
  const std::string timeKey = "StructField(t,TimestampType,true)";
  struct Case {
    OpDriver::Factory factory;
    OpDriver::Config config;
    std::string stored, now;
  };
  for (const Case& c : {Case{dedup({"id"}), config(), stringKey, longKey},
                        Case{within({"id"}), config("t", 10 * kMinute), stringKey, longKey},
                        Case{dedup({}), config(), stringKey + "," + timeKey, longKey + "," + timeKey}}) {
    OpDriver d(c.factory, c.config);
    ASSERT_TRUE(d.start().ok());
    SCOPED_TRACE(d.op().name());
    ASSERT_TRUE(d.run({}).ok()) << "no rows tell no type";
    ASSERT_TRUE(d.run({row(Value("5"))}).ok());
    auto op = readStateOperatorSchema(d.env(), "/chk", 0);
    ASSERT_TRUE(op.ok() && op->has_value()) << op.status().toString();
    EXPECT_EQ((*op)->keySchema, c.stored == stringKey ? "id string" : "id string, t timestamp");
    // The same types restart and run.
    ASSERT_TRUE(d.start().ok());
    ASSERT_TRUE(d.run({row(Value("6"))}).ok());
    ASSERT_TRUE(d.start().ok());
    auto changed = d.run({row(Value(int64_t{5}))});
    EXPECT_THAT(changed.status(), FailsWithCondition("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                                                     {{"storedKeySchema", "StructType(" + c.stored + ")"},
                                                      {"newKeySchema", "StructType(" + c.now + ")"}}));
    ASSERT_TRUE(d.start().ok());
    auto same = d.run({row(Value("5"))});
    ASSERT_TRUE(same.ok()) << same.status().toString();
    EXPECT_TRUE(same->empty()) << "5 was seen before the refused run";
  }
}

TEST_P(DedupTest, RestartContinuesFromCommittedState) {
  OpDriver d(dedup({"id"}), config());
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({ev("a", kT0), ev("b", kT0)}).ok());
  ASSERT_TRUE(d.run({ev("c", kT0)}).ok());
  ASSERT_TRUE(d.start().ok());  // new provider, new operator
  auto out = d.run({ev("a", kT0), ev("c", kT0), ev("d", kT0)});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(ids(*out), (std::vector<std::string>{"d"}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 4);
}

TEST_P(DedupTest, WithinWatermarkNeedsAWatermark) {
  OpDriver d(within({"id"}), config());
  Status st = d.start();
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(st.message().find("withWatermark"), std::string::npos) << st.message();
}

TEST_P(DedupTest, WithinWatermarkKeepsAKeyUntilTheWatermarkPassesEventTimePlusDelay) {
  OpDriver d(within({"id"}), config("t", 10 * kMinute));
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({ev("a", kT0)});  // expires at kT0 + 10m
  ASSERT_TRUE(b0.ok());
  EXPECT_EQ(ids(*b0), (std::vector<std::string>{"a"}));
  // A duplicate with another event time is still a duplicate; x moves the watermark to +15m.
  auto b1 = d.run({ev("a", kT0 + 5 * kMinute), ev("x", kT0 + 25 * kMinute)});
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(ids(*b1), (std::vector<std::string>{"x"}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 2);
  // Batch 2 evicts with +15m >= +10m — after its input: this "a" is still a duplicate.
  EXPECT_TRUE(d.wantsNoDataBatch());
  auto b2 = d.run({ev("a", kT0 + 16 * kMinute)});
  ASSERT_TRUE(b2.ok());
  EXPECT_TRUE(b2->empty());
  EXPECT_EQ(d.lastProgress().numRowsRemoved, 1);
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);  // x remains (expires at +35m)
  // Now "a" is gone from state: the next one passes. A late row (<= +15m) is dropped.
  auto b3 = d.run({ev("a", kT0 + 30 * kMinute), ev("late", kT0 + 15 * kMinute)});
  ASSERT_TRUE(b3.ok());
  EXPECT_EQ(ids(*b3), (std::vector<std::string>{"a"}));
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
  EXPECT_EQ(d.lastProgress().operatorName, "dedupeWithinWatermark");
}

// Fails the first `failures` passes of task.mid_partition (a task failure, not a crash).
class FailingMidPartition : public FaultHook {
 public:
  explicit FailingMidPartition(int failures) : left_(failures) {}
  Status at(std::string_view point, const FaultContext& ctx) override {
    if (point == faults::kTaskMidPartition) {
      ++passes;
      if (left_ > 0) {
        --left_;
        return Status::TaskFailed(fmt::format("injected failure in partition {}", ctx.partition));
      }
    }
    return Status::OK();
  }
  int passes = 0;

 private:
  int left_;
};

TEST_P(DedupTest, AFailedTaskIsRetriedWithoutDoubleEffects) {
  OpDriver::Config c = config();
  c.taskRetries = 1;
  OpDriver d(dedup({"id"}), c);
  FailingMidPartition hook(1);
  d.env().faults = &hook;
  ASSERT_TRUE(d.start().ok());
  auto out = d.run({ev("a", kT0), ev("b", kT0), ev("c", kT0), ev("a", kT0)});
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(ids(*out), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 3);
  EXPECT_EQ(hook.passes, 3 + 1);  // every partition once, the failed one twice

  // Without retries the failure names batch, operator and partition.
  OpDriver::Config c0 = config();
  OpDriver d0(dedup({"id"}), c0);
  FailingMidPartition hook0(1);
  d0.env().faults = &hook0;
  ASSERT_TRUE(d0.start().ok());
  auto failed = d0.run({ev("a", kT0)});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), Status::Code::kTaskFailed);
  EXPECT_NE(failed.status().message().find("batch 0"), std::string::npos)
      << failed.status().message();
  EXPECT_NE(failed.status().message().find("partition 0"), std::string::npos);
}

// Crashes (the simulator's exception) at the n-th pass of a fault point.
class CrashAt : public FaultHook {
 public:
  CrashAt(std::string_view point, int pass) : point_(point), pass_(pass) {}
  Status at(std::string_view point, const FaultContext& ctx) override {
    if (point == point_ && ++seen_ == pass_) {
      throw sim::SimulatedCrash{std::string(point), ctx, seen_};
    }
    return Status::OK();
  }

 private:
  std::string_view point_;
  int pass_;
  int seen_ = 0;
};

// A crash in batch 1 — inside a task, just before or just after a partition's store commit —
// then a restart that re-runs batch 1 gives the output of an uninterrupted run, whatever of
// the batch's store versions had already been written.
TEST_P(DedupTest, ACrashMidBatchThenRerunGivesTheUninterruptedOutput) {
  std::vector<std::vector<Row>> batches = {
      {ev("a", kT0), ev("b", kT0), ev("c", kT0)},
      {ev("a", kT0), ev("d", kT0), ev("e", kT0), ev("f", kT0)},
      {ev("d", kT0), ev("g", kT0), ev("f", kT0)},
  };
  OpDriver ref(dedup({"id"}), config());
  ASSERT_TRUE(ref.start().ok());
  std::vector<std::vector<std::string>> expected;
  for (auto b : batches) expected.push_back(ids(*ref.run(b)));

  for (std::string_view point :
       {faults::kTaskMidPartition, faults::kStateBeforeCommit, faults::kStateAfterCommit}) {
    for (int partition = 0; partition < 3; ++partition) {
      SCOPED_TRACE(fmt::format("{} in partition {}", point, partition));
      OpDriver d(dedup({"id"}), config());
      CrashAt hook(point, 3 + partition + 1);  // batch 0 passes it once per partition
      d.env().faults = &hook;
      ASSERT_TRUE(d.start().ok());
      EXPECT_EQ(ids(*d.run(batches[0])), expected[0]);
      bool crashed = false;
      try {
        (void)d.run(batches[1]);
      } catch (const sim::SimulatedCrash&) {
        crashed = true;
      }
      ASSERT_TRUE(crashed);
      d.fs().crashLosingUnsynced();
      d.env().faults = nullptr;
      ASSERT_TRUE(d.start().ok());  // batch 1 re-runs from version 1
      auto rerun = d.run(batches[1]);
      ASSERT_TRUE(rerun.ok()) << rerun.status().toString();
      EXPECT_EQ(ids(*rerun), expected[1]);
      auto next = d.run(batches[2]);
      ASSERT_TRUE(next.ok()) << next.status().toString();
      EXPECT_EQ(ids(*next), expected[2]);
      EXPECT_EQ(d.lastProgress().numRowsTotal, 7);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Stores, DedupTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
