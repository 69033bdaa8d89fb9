// The oracles catch real bugs: test-only broken variants each make the sweep FAIL within a
// bounded number of seeds, and the failure shrinks (RapidCheck's search) to a small case.
// Each test passes because an oracle fails. The correct twin of each variant passes the same
// sweep, so the failure is the bug's, not the harness's.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/processors/builtin.h"
#include "harness/generated_sweep_support.h"

namespace streamsim::harness {
namespace {

constexpr int kMaxSeeds = 200;

WorkloadConfig small(WorkloadKind kind) {
  WorkloadConfig c = ::streamsim::test::testWorkload(kind, "memory");
  c.spec.events = 40;
  c.spec.eventsPerFile = 4;
  c.drainMs = 3'000;
  c.knobs.files = 10;
  c.knobs.batches = 12;
  return c;
}

// Sweeps until the first failing seed (the generated scenario's sweep, testing::firstFailingSeed);
// checks it violated `oracle` and shrank to a small case that still does.
void firstFailure(const WorkloadConfig& c, const std::string& oracle, RunOptions run = {}) {
  auto r = testing::firstFailingSeed(c, kMaxSeeds, run, /*shrink=*/true, 300);
  ASSERT_TRUE(r.has_value()) << c.name << ": the sweep did not fail within " << kMaxSeeds << " seeds";
  std::cout << sweepSummary(*r).text;
  ASSERT_EQ(r->report.outcomes.size(), 1u);
  const ScenarioSeedOutcome& out = r->report.outcomes[0];
  EXPECT_TRUE(testing::violated(out, oracle)) << "expected a " << oracle << " violation:\n" << sweepSummary(*r).text;
  ASSERT_TRUE(out.shrunk.has_value());
  std::cout << c.name << ": seed " << out.seed << " shrunk to " << out.shrunk->summary() << "\n  " << out.noReplay
            << "\n";
  EXPECT_LE(out.shrunk->plan.faults.size(), 2u) << out.shrunk->summary();
  ASSERT_TRUE(out.shrunk->files.has_value());
  EXPECT_LE(out.shrunk->files->size(), 3u) << out.shrunk->summary();
  // The minimal case still fails the same way when replayed: an oracle the seed violated (the
  // shrinker keeps one; the caching count also fails partitioning).
  auto again = runGeneratedSeed(c, out.seed, run, out.shrunk->plan, out.shrunk->files);
  ASSERT_TRUE(again.ok()) << again.status().toString();
  EXPECT_TRUE(failureKind(again->result).sharedWith(out.kind) && !again->result.violations.empty())
      << "the shrunk case does not reproduce:\n" << again->result.report();
  // A broken variant is a test's own hook or class on a smaller input: no CLI can rebuild it, so
  // the seed prints no replay line and says why (reproduce_lines_test.cc runs the lines of a
  // registered processor's sweep).
  EXPECT_EQ(out.replay, "");
  EXPECT_EQ(out.noReplay.rfind("no replay line: ", 0), 0u) << out.noReplay;
}

void expectSweepPasses(const WorkloadConfig& c, RunOptions run = {}, int seeds = 40) {
  SweepResult r = testing::sweepOf(c, seeds, run);
  EXPECT_EQ(r.report.totals.failed, 0u) << sweepSummary(r).text;
}

// --- 1. a sink that ignores batch ids: appends again when a batch is re-run -------------------

struct AppendingSinkData {
  std::vector<Row> rows;
};
class AppendingSink final : public Sink {
 public:
  explicit AppendingSink(std::shared_ptr<AppendingSinkData> d) : d_(std::move(d)) {}
  std::string description() const override { return "AppendingSink (ignores batch ids)"; }
  Status addBatch(const SinkContext&, const std::vector<Row>& rows) override {
    d_->rows.insert(d_->rows.end(), rows.begin(), rows.end());
    return Status::OK();
  }

 private:
  std::shared_ptr<AppendingSinkData> d_;
};

TEST(BrokenVariants, SinkThatIgnoresBatchIdsIsCaughtByExactlyOnce) {
  WorkloadConfig c = small(WorkloadKind::kCount);
  c.name = "count-appending-sink";
  c.customSink = [] {
    auto d = std::make_shared<AppendingSinkData>();
    return CustomSink{[d] { return std::make_unique<AppendingSink>(d); },
                      [d](const Env&) { return d->rows; }};
  };
  firstFailure(c, "exactly_once");
}

// --- 2. a processor that caches state in a member variable across keys ----------------------
// It reads its count from state once per task and then keeps it in a member, so every later key
// of the partition starts from the first key's count. Exactly-once cannot see it (the fault-free
// run is just as wrong); the batch-split oracle does: the result depends on which keys share a
// batch. (Processors are created per task, as in Spark, so a member cannot outlive a batch.)

class CachingCountProcessor final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    if (!cached_) cached_ = count_.exists() ? count_.get() : 0;  // BUG: not per key
    int64_t total = *cached_ + static_cast<int64_t>(rows.size());
    cached_ = total;
    count_.update(total);
    out.emit(processors::withKey(key, {{"count", total}}));
  }

 private:
  ValueState<int64_t> count_;
  std::optional<int64_t> cached_;
};

TEST(BrokenVariants, ProcessorCachingStateInAMemberIsCaughtByBatchSplitInvariance) {
  WorkloadConfig c = small(WorkloadKind::kCustom);
  c.name = "caching-count";
  c.processor = [] { return std::make_unique<CachingCountProcessor>(); };
  c.outputSchema = "key string, count long";
  firstFailure(c, "batch_split", {.batchSplit = true});

  // The correct count passes the same sweep.
  WorkloadConfig ok = small(WorkloadKind::kCount);
  expectSweepPasses(ok, {.batchSplit = true}, 20);
}

// --- 3. a processor that reads the real clock -------------------------------------------------

class RealClockHeartbeat final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { last_ = handle.getValueState<int64_t>("last_seen"); }
  void handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    // BUG: the wall clock instead of timerValues.getCurrentProcessingTimeInMs().
    auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::system_clock::now().time_since_epoch()).count();
    last_.update(now);
    out.emit(processors::withKey(key, {{"seen_at", Value(static_cast<int64_t>(now))}}));
  }

 private:
  ValueState<int64_t> last_;
};

TEST(BrokenVariants, ProcessorReadingTheRealClockIsCaughtByDeterminism) {
  WorkloadConfig c = small(WorkloadKind::kCustom);
  c.name = "real-clock";
  c.processor = [] { return std::make_unique<RealClockHeartbeat>(); };
  c.timeMode = TimeMode::kProcessingTime;
  c.oracles = {"determinism"};
  firstFailure(c, "determinism", {.determinism = true});
  // Exactly-once sees it too: the fault-free run of the same plan emits other values.
  c.oracles = {"exactly_once"};
  firstFailure(c, "exactly_once");
}

// --- 4. an engine that writes the commit before the sink --------------------------------------
// A sink wrapper does what such an engine would: commits/N is written before the sink's data
// (and taken away afterwards so the real engine can write it as usual). A crash inside the sink
// (sink.after_data_files) leaves a committed batch whose output never reached the sink.

class CommitFirstSink final : public Sink {
 public:
  explicit CommitFirstSink(std::unique_ptr<Sink> inner) : inner_(std::move(inner)) {}
  std::string description() const override { return "commit-first " + inner_->description(); }
  Status start(const SinkContext& ctx) override { return inner_->start(ctx); }
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override {
    CommitLog commits(*ctx.env, ctx.checkpointRoot);
    CommitMetadata m;
    m.nextBatchWatermarkMs = 0;
    STREAMSIM_ASSIGN_OR_RETURN(bool written, commits.add(ctx.batchId, m));
    (void)written;
    STREAMSIM_RETURN_IF_ERROR(inner_->addBatch(ctx, rows));
    return ctx.env->fs->remove(ctx.checkpointRoot + "/commits/" + std::to_string(ctx.batchId));
  }

 private:
  std::unique_ptr<Sink> inner_;
};

TEST(BrokenVariants, EngineWritingTheCommitBeforeTheSinkIsCaughtByExactlyOnce) {
  WorkloadConfig c = small(WorkloadKind::kCount);
  c.name = "commit-before-sink";
  auto schema = *parseSchema("key string, count long");
  c.customSink = [schema] {
    auto files = makeFileSink("/out");
    return CustomSink{[files] { return std::make_unique<CommitFirstSink>(files()); },
                      [schema](const Env& env) {
                        auto rows = readFileSinkOutput(env, "/out", schema);
                        return rows.ok() ? *rows : std::vector<Row>{};
                      }};
  };
  firstFailure(c, "exactly_once");

  // The same file sink without the early commit passes.
  WorkloadConfig ok = small(WorkloadKind::kCount);
  ok.sink = SinkKind::kFiles;
  expectSweepPasses(ok);
}

// --- 5. a timer comparison off by one ---------------------------------------------------------
// An event-time session processor (timer at the last event time + gap). The broken engine
// variant fires timers with ts < watermark instead of ts <= watermark: a wrapper hands the
// transformWithState operator a watermark 1 ms lower, which is exactly that comparison for
// integer timestamps. The timers oracle (first due batch) catches it.

class SessionEndProcessor final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { end_ = handle.getValueState<int64_t>("end"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    StatefulProcessorHandle& h = getHandle();
    int64_t last = end_.exists() ? end_.get() - kGap : 0;
    for (const Row& r : rows) last = std::max(last, r.get("event_time").asLong());
    for (TimeMs t : h.listTimers()) h.deleteTimer(t);
    h.registerTimer(last + kGap);
    end_.update(last + kGap);
    (void)key;
    (void)out;
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo& info,
                          Output& out) override {
    out.emit(processors::withKey(key, {{"ended", Value(info.getExpiryTimeInMs())}}));
    end_.clear();
  }
  static constexpr DurationMs kGap = 3'000;

 private:
  ValueState<int64_t> end_;
};

class WatermarkMinusOne final : public Operator {
 public:
  explicit WatermarkMinusOne(std::unique_ptr<Operator> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  bool isStateful() const override { return inner_->isStateful(); }
  std::optional<std::pair<std::string, DurationMs>> watermark() const override { return inner_->watermark(); }
  Status start(const OperatorStartContext& ctx) override { return inner_->start(ctx); }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    ctx.evictionWatermarkMs -= 1;  // BUG under test: timers fire when ts < watermark
    auto out = inner_->process(std::move(input), ctx);
    ctx.evictionWatermarkMs += 1;
    return out;
  }
  bool needsNoDataBatch(TimeMs next, bool moved) const override { return inner_->needsNoDataBatch(next, moved); }
  void stop() override { inner_->stop(); }

 private:
  std::unique_ptr<Operator> inner_;
};

WorkloadConfig sessionWorkload() {
  WorkloadConfig c = small(WorkloadKind::kCustom);
  c.name = "session-end";
  c.processor = [] { return std::make_unique<SessionEndProcessor>(); };
  c.timeMode = TimeMode::kEventTime;
  c.outputSchema = "key string, ended long";
  c.spec.maxOutOfOrder = 0;  // event times on whole seconds: timers meet the watermark exactly
  c.spec.lateFraction = 0;
  c.watermarkDelay = 2'000;
  return c;
}

TEST(BrokenVariants, TimerComparisonOffByOneIsCaughtByTheTimersOracle) {
  WorkloadConfig c = sessionWorkload();
  c.name = "timer-off-by-one";
  c.wrapOperator = [](OperatorFactory f) -> OperatorFactory {
    return [f] { return std::make_unique<WatermarkMinusOne>(f()); };
  };
  firstFailure(c, "timers");

  // The engine's own comparison passes the same sweep.
  expectSweepPasses(sessionWorkload());
}

// --- state_bound: dropDuplicates without a watermark grows without limit ----------------------

TEST(BrokenVariants, StateBoundCatchesStateThatOnlyGrows) {
  WorkloadConfig c = small(WorkloadKind::kDedup);
  c.oracles = {"state_bound"};
  c.oracleArgs.set("state_bound", "total", int64_t{20});  // dedup with a 5 s watermark keeps ~10 rows
  // Without outages: files that land while the driver is down come in one batch, whose rows all
  // stay in state until the next batch's watermark (a bound must allow for the backlog).
  c.knobs.downtimeMax = 0;
  expectSweepPasses(c, {}, 10);
  c.watermarkDelay = 365LL * 24 * 3600 * 1000;  // effectively no watermark: state only grows
  c.name = "dedup-no-watermark";
  SweepResult r = testing::sweepOf(c, 5);
  ASSERT_EQ(r.report.totals.failed, 5u) << sweepSummary(r).text;
  EXPECT_TRUE(testing::violated(r.report.outcomes[0], "state_bound")) << r.report.outcomes[0].report;
}

}  // namespace
}  // namespace streamsim::harness
