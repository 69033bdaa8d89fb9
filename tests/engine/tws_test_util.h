// Test helpers for the transformWithState tests: a simulated Env, a state store provider of a
// chosen kind, and a driver that calls the operator like the batch loop does. Test-only.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "streamsim/operator.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/state_store.h"
#include "sorted_rows.h"
#include "streamsim/tws/state_codec.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::testing {

// A processor whose methods are std::functions, with one state variable of each kind.
class ScriptedProcessor : public StatefulProcessorWithInitialState {
 public:
  struct Hooks {
    std::function<void(ScriptedProcessor&, StatefulProcessorHandle&)> init;
    std::function<void(ScriptedProcessor&, const Row&, RowRange, const TimerValues&, Output&)> input;
    std::function<void(ScriptedProcessor&, const Row&, const TimerValues&, const ExpiredTimerInfo&,
                       Output&)>
        timer;
    std::function<void(ScriptedProcessor&, const Row&, const Row&, const TimerValues&, Output&)>
        initial;
    std::function<void(ScriptedProcessor&)> close;
  };
  explicit ScriptedProcessor(std::shared_ptr<Hooks> hooks) : hooks_(std::move(hooks)) {}
  void init(StatefulProcessorHandle& handle) override {
    if (hooks_->init) hooks_->init(*this, handle);
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    if (hooks_->input) hooks_->input(*this, key, rows, tv, out);
  }
  void handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo& info,
                          Output& out) override {
    if (hooks_->timer) hooks_->timer(*this, key, tv, info, out);
  }
  void handleInitialState(const Row& key, const Row& init, const TimerValues& tv,
                          Output& out) override {
    if (hooks_->initial) hooks_->initial(*this, key, init, tv, out);
  }
  void close() override {
    if (hooks_->close) hooks_->close(*this);
  }

  ValueState<int64_t> value;
  ListState<int64_t> list;
  MapState<std::string, int64_t> map;

 private:
  std::shared_ptr<Hooks> hooks_;
};

inline ProcessorFactory scripted(std::shared_ptr<ScriptedProcessor::Hooks> hooks) {
  return [hooks] { return std::make_unique<ScriptedProcessor>(hooks); };
}

// Drives one transformWithState operator over batches.
class TwsDriver {
 public:
  explicit TwsDriver(StateStoreKind kind, int partitions = 4)
      : clock_(0), fs_(&clock_), ids_(42), kind_(kind), partitions_(partitions) {
    env_.clock = &clock_;
    env_.fs = &fs_;
    env_.ids = &ids_;
    (void)fs_.mkdirs(kRoot);
    newProvider();
  }

  static constexpr const char* kRoot = "/chk";

  Status start(TransformWithStateSpec spec) {
    spec_ = std::move(spec);
    op_ = makeTransformWithState(spec_);
    OperatorStartContext sc;
    sc.env = &env_;
    sc.checkpointRoot = kRoot;
    sc.operatorId = 0;
    sc.shufflePartitions = partitions_;
    sc.outputMode = OutputMode::kUpdate;
    sc.stateStores = provider_.get();
    sc.eventTimeColumn = "t";
    return op_->start(sc);
  }

  // Runs the next batch; on success the batch id advances.
  Result<std::vector<Row>> run(std::vector<Row> rows, TimeMs batchTs, TimeMs lateWm = 0,
                               TimeMs evictWm = 0) {
    BatchContext ctx;
    ctx.env = &env_;
    ctx.checkpointRoot = kRoot;
    ctx.query = QueryInfo{"q", "r", batch_};
    ctx.batchId = batch_;
    ctx.batchTimestampMs = batchTs;
    ctx.lateWatermarkMs = lateWm;
    ctx.evictionWatermarkMs = evictWm;
    ctx.hasWatermark = true;
    ctx.shufflePartitions = partitions_;
    ctx.taskRetries = task_retries_;
    ctx.stateStores = provider_.get();
    ctx.outputMode = OutputMode::kUpdate;
    auto r = op_->process(std::move(rows), ctx);
    if (r.ok()) {
      ++batch_;
      last_progress_ = ctx.stateProgress.empty() ? StateOperatorProgress{} : ctx.stateProgress.back();
    }
    return r;
  }

  // A new provider and a new operator with the same spec (a driver restart).
  Status restart() {
    newProvider();
    return start(spec_);
  }
  // A restart with another spec on the same checkpoint.
  Status restartWith(TransformWithStateSpec spec) {
    newProvider();
    return start(std::move(spec));
  }

  void setTaskRetries(int n) { task_retries_ = n; }
  void setTrace(TraceSink* t) { env_.trace = t; }
  int64_t batch() const { return batch_; }
  const StateOperatorProgress& progress() const { return last_progress_; }
  StateStoreProvider& provider() { return *provider_; }
  const Env& env() const { return env_; }
  int partitions() const { return partitions_; }

  // Entries of column family `cf` in the committed state of partition p after the last batch,
  // read through a fresh provider (what a restart would load).
  std::vector<std::pair<std::string, std::string>> committed(int p, const std::string& cf) {
    StateStoreOptions o;
    o.kind = kind_;
    auto fresh = makeStateStoreProvider(env_, o);
    auto store = fresh->open(kRoot, 0, p, batch_);
    std::vector<std::pair<std::string, std::string>> out;
    if (!store.ok()) return out;
    (*store)->scan(cf, "", "", [&](std::string_view k, std::string_view v) {
      out.emplace_back(std::string(k), std::string(v));
      return true;
    });
    (*store)->abort();
    return out;
  }

 private:
  void newProvider() {
    StateStoreOptions o;
    o.kind = kind_;
    provider_ = makeStateStoreProvider(env_, o);
  }

  sim::VirtualClock clock_;
  sim::SimFileSystem fs_;
  sim::SeededIdGenerator ids_;
  Env env_;
  StateStoreKind kind_;
  int partitions_;
  int task_retries_ = 0;
  std::unique_ptr<StateStoreProvider> provider_;
  TransformWithStateSpec spec_;
  std::unique_ptr<Operator> op_;
  int64_t batch_ = 0;
  StateOperatorProgress last_progress_;
};

// `v` encoded and decoded again by `c`, which must take every byte it wrote.
template <class T>
T roundTrip(const StateCodec<T>& c, const T& v) {
  std::string bytes;
  c.encode(v, bytes);
  std::string_view in = bytes;
  auto r = c.decode(in);
  EXPECT_TRUE(r.ok()) << r.status().toString();
  EXPECT_TRUE(in.empty());
  return *r;
}

}  // namespace streamsim::testing
