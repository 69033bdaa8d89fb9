// flatMapGroupsWithState (ops/flat_map_groups_with_state.h) on both state store kinds. The cases
// follow Spark 4.1.1's FlatMapGroupsWithStateSuite / GroupStateSuite and the rules of
// sql/core/.../flatmapgroupswithstate/FlatMapGroupsWithStateExec.scala (timeouts strictly below
// the threshold, the write / remove rule, late rows under EventTimeTimeout, shouldRunAnotherBatch),
// GroupStateImpl.scala (API errors) and FlatMapGroupsWithStateExecHelper.scala (state format 2).
#include "streamsim/ops/flat_map_groups_with_state.h"

#include <gtest/gtest.h>

#include "ops_test_driver.h"
#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/state/state_schema.h"

namespace streamsim {
namespace {

using harness::FailsWithCondition;
using testing::ev;
using testing::kMinute;
using testing::kT0;
using testing::OpDriver;

// (id, count) per call; `log` records each call as "id:values:timedOut".
struct Calls {
  std::vector<std::string> log;
};

Row out(const Row& key, int64_t n, bool timedOut = false) {
  return Row::fromNamed({{"id", key.get("id")}, {"count", Value(n)}, {"timedOut", Value(timedOut)}});
}

class FlatMapGroupsWithStateTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  OpDriver::Config config(std::string eventTimeColumn = "", DurationMs delay = 0) {
    OpDriver::Config c;
    c.kind = GetParam();
    c.eventTimeColumn = std::move(eventTimeColumn);
    c.delay = delay;
    c.mode = OutputMode::kUpdate;
    return c;
  }
  static OpDriver::Factory op(GroupStateTimeout timeout, GroupStateFunction fn,
                              std::string stateSchema = "count long") {
    return [=] {
      FlatMapGroupsWithStateSpec s;
      s.groupBy = {"id"};
      s.function = [fn]() -> Result<GroupStateFunction> { return fn; };
      s.functionName = "test";
      s.stateSchemaDDL = stateSchema;
      s.timeout = timeout;
      return makeFlatMapGroupsWithState(s);
    };
  }
};

// FlatMapGroupsWithStateSuite "flatMapGroupsWithState - streaming": a running count kept across
// batches and restarts; remove() drops the key's state (the count starts again).
TEST_P(FlatMapGroupsWithStateTest, RunningCountSurvivesRestartAndRemoveDropsState) {
  GroupStateFunction fn = [](const Row& key, const std::vector<Row>& values, GroupState& s) {
    int64_t n = (s.exists() ? s.get().get("count").asLong() : 0) + static_cast<int64_t>(values.size());
    if (n >= 3) {
      s.remove();
      return std::vector<Row>{out(key, -1)};
    }
    s.update(Row::fromNamed({{"count", Value(n)}}));
    return std::vector<Row>{out(key, n)};
  };
  OpDriver d(op(GroupStateTimeout::kNoTimeout, fn), config());
  ASSERT_TRUE(d.start().ok());
  auto b0 = d.run({ev("a", kT0), ev("a", kT0), ev("b", kT0)});
  ASSERT_TRUE(b0.ok()) << b0.status().toString();
  EXPECT_EQ(testing::sorted(*b0), testing::sorted({out(Row{{"id", "a"}}, 2), out(Row{{"id", "b"}}, 1)}));
  EXPECT_EQ(d.lastProgress().operatorName, "flatMapGroupsWithState");
  EXPECT_EQ(d.lastProgress().numRowsTotal, 2);
  EXPECT_EQ(d.lastProgress().numRowsUpdated, 2);
  ASSERT_TRUE(d.start().ok());  // restart: the state is read back from the checkpoint
  auto b1 = d.run({ev("a", kT0), ev("b", kT0)});
  ASSERT_TRUE(b1.ok()) << b1.status().toString();
  EXPECT_EQ(testing::sorted(*b1), testing::sorted({out(Row{{"id", "a"}}, -1), out(Row{{"id", "b"}}, 2)}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);
  EXPECT_EQ(d.lastProgress().numRowsRemoved, 1);
  auto b2 = d.run({ev("a", kT0)});
  ASSERT_TRUE(b2.ok());
  EXPECT_EQ(*b2, (std::vector<Row>{out(Row{{"id", "a"}}, 1)}));
  // NoTimeout never asks for a batch without data.
  EXPECT_FALSE(d.wantsNoDataBatch());
}

// FlatMapGroupsWithStateSuite "flatMapGroupsWithState - streaming with processing time timeout":
// a key times out when its timeout (batch time + duration) is below a later batch's time; it is
// then called with no rows and hasTimedOut; a call that sets no timeout clears it.
TEST_P(FlatMapGroupsWithStateTest, ProcessingTimeTimeoutFiresStrictlyAfterTheDuration) {
  GroupStateFunction fn = [](const Row& key, const std::vector<Row>& values, GroupState& s) {
    if (s.hasTimedOut()) {
      EXPECT_TRUE(values.empty());
      int64_t n = s.get().get("count").asLong();
      s.remove();
      return std::vector<Row>{out(key, n, true)};
    }
    int64_t n = (s.exists() ? s.get().get("count").asLong() : 0) + static_cast<int64_t>(values.size());
    s.update(Row::fromNamed({{"count", Value(n)}}));
    s.setTimeoutDuration(10'000);
    return std::vector<Row>{out(key, n)};
  };
  OpDriver d(op(GroupStateTimeout::kProcessingTimeTimeout, fn), config());
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({ev("a", kT0)}).ok());  // a's timeout: T0 + 10s
  EXPECT_TRUE(d.wantsNoDataBatch());         // ProcessingTimeTimeout: every trigger
  d.clock().advance(5'000);
  auto b1 = d.run({ev("b", kT0)});  // b's timeout: T0 + 15s
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(*b1, (std::vector<Row>{out(Row{{"id", "b"}}, 1)}));
  d.clock().advance(5'000);  // T0 + 10s: not below a's timeout yet
  auto b2 = d.run({});
  ASSERT_TRUE(b2.ok());
  EXPECT_TRUE(b2->empty());
  d.clock().advance(1);  // T0 + 10.001s: a times out, b does not
  ASSERT_TRUE(d.start().ok());  // across a restart: the timeout is in the state row
  auto b3 = d.run({});
  ASSERT_TRUE(b3.ok()) << b3.status().toString();
  EXPECT_EQ(*b3, (std::vector<Row>{out(Row{{"id", "a"}}, 1, true)}));
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);
  // New data for b before it times out moves its timeout (the call sets it again).
  d.clock().advance(4'000);  // T0 + 14.001s
  ASSERT_TRUE(d.run({ev("b", kT0)}).ok());  // b: count 2, timeout T0 + 24.001s
  d.clock().advance(2'000);
  auto b5 = d.run({});
  ASSERT_TRUE(b5.ok());
  EXPECT_TRUE(b5->empty());
}

// FlatMapGroupsWithStateSuite "flatMapGroupsWithState - streaming with event time timeout":
// timeouts against the watermark (strictly below), late rows dropped before the function,
// setTimeoutTimestamp earlier than the watermark refused.
TEST_P(FlatMapGroupsWithStateTest, EventTimeTimeoutFollowsTheWatermark) {
  GroupStateFunction fn = [](const Row& key, const std::vector<Row>& values, GroupState& s) {
    if (s.hasTimedOut()) {
      int64_t n = s.get().get("count").asLong();
      s.remove();
      return std::vector<Row>{out(key, n, true)};
    }
    TimeMs maxT = 0;
    for (const Row& r : values) maxT = std::max(maxT, r.get("t").asLong());
    int64_t n = (s.exists() ? s.get().get("count").asLong() : 0) + static_cast<int64_t>(values.size());
    s.update(Row::fromNamed({{"count", Value(n)}}));
    s.setTimeoutTimestamp(maxT + 5 * kMinute);
    return std::vector<Row>{out(key, n)};
  };
  OpDriver d(op(GroupStateTimeout::kEventTimeTimeout, fn), config("t", 10 * kMinute));
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({ev("a", kT0 + 20 * kMinute)}).ok());  // a: timeout T0+25m; watermark T0+10m
  EXPECT_TRUE(d.wantsNoDataBatch());                         // the watermark moved
  auto b1 = d.run({ev("b", kT0 + 35 * kMinute)});           // watermark (eviction) T0+10m: nothing
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(*b1, (std::vector<Row>{out(Row{{"id", "b"}}, 1)}));
  // Batch 2: eviction watermark T0+25m: a's timeout (T0+25m) is not below it.
  auto b2 = d.run({ev("late", kT0 + 5 * kMinute)});  // late (<= T0+10m): dropped and counted
  ASSERT_TRUE(b2.ok());
  EXPECT_TRUE(b2->empty());
  EXPECT_EQ(d.lastProgress().numRowsDroppedByWatermark, 1);
  ASSERT_TRUE(d.run({ev("c", kT0 + 36 * kMinute)}).ok());  // eviction watermark T0+25m still
  auto b4 = d.run({ev("c", kT0 + 40 * kMinute)});          // eviction watermark T0+26m: a times out
  ASSERT_TRUE(b4.ok());
  EXPECT_EQ(testing::sorted(*b4), testing::sorted({out(Row{{"id", "a"}}, 1, true), out(Row{{"id", "c"}}, 2)}));
  EXPECT_TRUE(d.wantsNoDataBatch());  // the next watermark (T0+30m) is past this batch's (T0+26m)

  // GroupStateImpl.setTimeoutTimestamp: earlier than the watermark is an error of the function.
  GroupStateFunction early = [](const Row&, const std::vector<Row>&, GroupState& s) {
    s.setTimeoutTimestamp(1000);
    return std::vector<Row>{};
  };
  ASSERT_TRUE(d.start(op(GroupStateTimeout::kEventTimeTimeout, early)).ok());
  auto bad = d.run({ev("d", kT0 + 60 * kMinute)});
  EXPECT_THAT(bad.status(),
              FailsWithCondition("FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
                                 {{"reason", fmt::format("Timeout timestamp (1000) cannot be earlier than the "
                                                         "current watermark ({})", d.evictionWatermark())}}));
}

// GroupStateImpl's rules: the wrong timeout kind, non-positive durations, no watermark.
TEST_P(FlatMapGroupsWithStateTest, GroupStateApiErrorsAreSparks) {
  GroupState none(std::nullopt, kT0, GroupState::kNoTimestamp, GroupStateTimeout::kNoTimeout, false, false);
  EXPECT_FALSE(none.exists());
  try {
    (void)none.get();
    ADD_FAILURE() << "get() of an undefined state";
  } catch (const GroupStateError& e) {
    EXPECT_EQ(e.exceptionClass(), "NoSuchElementException");
    EXPECT_STREQ(e.what(), "State is either not defined or has already been removed");
  }
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const GroupStateError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message([&] { none.setTimeoutDuration(1000); }),
            "Cannot set timeout duration without enabling processing time timeout in [map|flatMap]GroupsWithState");
  EXPECT_EQ(message([&] { none.setTimeoutTimestamp(1000); }),
            "Cannot set timeout timestamp without enabling event time timeout in [map|flatMapGroupsWithState");
  EXPECT_EQ(message([&] { (void)none.getCurrentWatermarkMs(); }),
            "Cannot get event time watermark timestamp without setting watermark before [map|flatMap]GroupsWithState");
  GroupState pt(std::nullopt, kT0, GroupState::kNoTimestamp, GroupStateTimeout::kProcessingTimeTimeout, false, false);
  EXPECT_EQ(message([&] { pt.setTimeoutDuration(0); }), "Timeout duration must be positive");
  pt.setTimeoutDuration(5);
  EXPECT_EQ(pt.timeoutTimestamp(), kT0 + 5);
  GroupState et(std::nullopt, kT0, 2000, GroupStateTimeout::kEventTimeTimeout, false, true);
  EXPECT_EQ(message([&] { et.setTimeoutTimestamp(0); }), "Timeout timestamp must be positive");
  EXPECT_EQ(message([&] { et.setTimeoutTimestamp(1999); }),
            "Timeout timestamp (1999) cannot be earlier than the current watermark (2000)");
  et.setTimeoutTimestamp(2000);
  EXPECT_EQ(et.getCurrentWatermarkMs(), 2000);
  et.update(Row::fromNamed({{"count", Value(int64_t{1})}}));
  EXPECT_TRUE(et.isUpdated());
  et.remove();
  EXPECT_TRUE(et.isRemoved());
  EXPECT_FALSE(et.isUpdated());
  EXPECT_FALSE(et.exists());
}

// A function error fails the task with Spark's condition; start() refuses EventTimeTimeout
// without a watermark and Complete mode.
TEST_P(FlatMapGroupsWithStateTest, BadQueriesFailWithClearErrors) {
  GroupStateFunction dur = [](const Row&, const std::vector<Row>&, GroupState& s) {
    s.setTimeoutDuration(1000);  // under EventTimeTimeout
    return std::vector<Row>{};
  };
  OpDriver d(op(GroupStateTimeout::kEventTimeTimeout, dur), config("t", kMinute));
  ASSERT_TRUE(d.start().ok());
  EXPECT_THAT(d.run({ev("a", kT0)}).status(),
              FailsWithCondition("FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
                                 {{"reason", "Cannot set timeout duration without enabling processing time "
                                             "timeout in [map|flatMap]GroupsWithState"}}));
  OpDriver noWatermark(op(GroupStateTimeout::kEventTimeTimeout, dur), config());
  Status st = noWatermark.start();
  EXPECT_EQ(st.code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(st.message().find("Watermark must be specified"), std::string::npos) << st.toString();

  GroupStateFunction wrongShape = [](const Row&, const std::vector<Row>&, GroupState& s) {
    s.update(Row::fromNamed({{"count", Value("x")}}));
    return std::vector<Row>{};
  };
  OpDriver shape(op(GroupStateTimeout::kNoTimeout, wrongShape), config());
  ASSERT_TRUE(shape.start().ok());
  auto r = shape.run({ev("a", kT0)});
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(r.status().message().find("state field 'count' is long"), std::string::npos) << r.status().toString();
  OpDriver badSchema(op(GroupStateTimeout::kNoTimeout, wrongShape, "count lng"), config());
  EXPECT_FALSE(badSchema.start().ok());
}

// Spark's checkpoint layout: one store `default` per partition under state/0/<p>/, the operator
// metadata v1 naming flatMapGroupsWithState, and the state schema of format 2 (groupState struct,
// timeoutTimestamp long). remove() with a timeout still set keeps a row with a null state.
TEST_P(FlatMapGroupsWithStateTest, CheckpointLayoutIsSparks) {
  GroupStateFunction fn = [](const Row& key, const std::vector<Row>& values, GroupState& s) {
    if (s.hasTimedOut()) return std::vector<Row>{out(key, s.exists() ? 1 : 0, true)};
    if (s.exists()) {
      s.remove();  // removed, but the timeout below keeps the row (with a null state)
    } else {
      s.update(Row::fromNamed({{"count", Value(static_cast<int64_t>(values.size()))}}));
    }
    s.setTimeoutDuration(1000);
    return std::vector<Row>{};
  };
  OpDriver d(op(GroupStateTimeout::kProcessingTimeTimeout, fn), config());
  ASSERT_TRUE(d.start().ok());
  ASSERT_TRUE(d.run({ev("a", kT0)}).ok());
  ASSERT_TRUE(d.run({ev("a", kT0)}).ok());
  EXPECT_EQ(d.lastProgress().numRowsTotal, 1);  // the row stays: its timeout is set
  d.clock().advance(2000);
  auto timedOut = d.run({});
  ASSERT_TRUE(timedOut.ok());
  EXPECT_EQ(*timedOut, (std::vector<Row>{out(Row{{"id", "a"}}, 0, true)}));  // no state, timed out

  auto meta = readOperatorMetadata(d.env(), "/chk", 0);
  ASSERT_TRUE(meta.ok() && meta->has_value());
  EXPECT_EQ((*meta)->operatorName, "flatMapGroupsWithState");
  ASSERT_EQ((*meta)->stateStores.size(), 1u);
  EXPECT_EQ((*meta)->stateStores[0].storeName, "default");
  EXPECT_EQ((*meta)->stateStores[0].numPartitions, 3);
  auto schema = readStateOperatorSchema(d.env(), "/chk", 0);
  ASSERT_TRUE(schema.ok() && schema->has_value());
  EXPECT_EQ((*schema)->operatorName, "flatMapGroupsWithState");
  EXPECT_EQ((*schema)->keySchema, "id string");
  EXPECT_EQ((*schema)->valueSchema, "groupState struct<count: long>, timeoutTimestamp long NOT NULL");
  bool anyStateFile = false;
  for (int p = 0; p < 3; ++p) {
    auto files = d.fs().list("/chk/state/0/" + std::to_string(p));
    if (files.ok() && !files->empty()) anyStateFile = true;
  }
  EXPECT_TRUE(anyStateFile);
}

INSTANTIATE_TEST_SUITE_P(Stores, FlatMapGroupsWithStateTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
