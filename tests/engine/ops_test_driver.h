// Test driver for the built-in stateful operators (dedup_test, window_agg_test): plays the
// batch loop's part for one operator on a SimFileSystem + VirtualClock + SeededIdGenerator —
// batch ids, the late / eviction watermark pair of SEMANTICS.md §4, one state store provider —
// and can restart (a fresh provider and operator on the same filesystem). Single-threaded.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <ostream>
#include <memory>
#include <string>
#include <vector>

#include "streamsim/harness/gtest_matchers.h"  // gtest prints rows, values and statuses readably
#include "streamsim/operator.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/state/state_store.h"
#include "sorted_rows.h"

namespace streamsim::testing {

constexpr DurationMs kMinute = 60 * 1000;
constexpr TimeMs kT0 = 1'767'225'600'000;  // 2026-01-01T00:00:00Z

inline Row ev(std::string id, TimeMs t) {
  return Row::fromNamed({{"id", Value(std::move(id))}, {"t", Value::timestamp(t)}});
}

inline StateStoreOptions storeOptions(StateStoreKind kind) {
  StateStoreOptions o;
  o.kind = kind;
  o.snapshotEvery = 3;
  o.rocksdbInMemoryEnv = true;
  return o;
}

class OpDriver {
 public:
  using Factory = std::function<std::unique_ptr<Operator>()>;

  struct Config {
    StateStoreKind kind = StateStoreKind::kMemory;
    std::string eventTimeColumn;  // empty: no watermark
    DurationMs delay = 0;
    OutputMode mode = OutputMode::kAppend;
    int partitions = 3;
    int taskRetries = 0;
    bool ansi = true;  // spark.sql.ansi.enabled
  };

  OpDriver(Factory factory, Config config, sim::SimFileSystem* sharedFs = nullptr)
      : factory_(std::move(factory)), config_(config), fs_own_(&clock_), ids_(7) {
    fs_ = sharedFs != nullptr ? sharedFs : &fs_own_;
    env_.clock = &clock_;
    env_.fs = fs_;
    env_.ids = &ids_;
  }

  Env& env() { return env_; }
  sim::VirtualClock& clock() { return clock_; }  // the batches' processing time
  sim::SimFileSystem& fs() { return *fs_; }
  int64_t batchId() const { return batch_; }
  TimeMs evictionWatermark() const { return evict_wm_; }
  const StateOperatorProgress& lastProgress() const { return last_progress_; }
  Operator& op() { return *op_; }

  // A new query run: fresh provider and operator; watermarks and batch id continue (they live
  // in the offset / commit logs of a real checkpoint).
  Status start(Factory factory = nullptr) {
    if (factory) factory_ = std::move(factory);
    op_.reset();
    provider_ = makeStateStoreProvider(env_, storeOptions(config_.kind));
    op_ = factory_();
    OperatorStartContext sc;
    sc.env = &env_;
    sc.checkpointRoot = "/chk";
    sc.operatorId = 0;
    sc.shufflePartitions = config_.partitions;
    sc.outputMode = config_.mode;
    sc.stateStores = provider_.get();
    sc.eventTimeColumn = config_.eventTimeColumn;
    sc.watermarkDelayMs = config_.delay;
    sc.sqlConf.ansi = config_.ansi;
    return op_->start(sc);
  }

  // Runs one batch; on success advances the batch id and the watermark (max event time - delay,
  // never backwards), as the batch loop does at the end of a batch.
  Result<std::vector<Row>> run(std::vector<Row> rows) {
    BatchContext ctx;
    ctx.env = &env_;
    ctx.checkpointRoot = "/chk";
    ctx.batchId = batch_;
    ctx.batchTimestampMs = clock_.nowMs();
    ctx.lateWatermarkMs = late_wm_;
    ctx.evictionWatermarkMs = evict_wm_;
    ctx.hasWatermark = !config_.eventTimeColumn.empty();
    ctx.shufflePartitions = config_.partitions;
    ctx.taskRetries = config_.taskRetries;
    ctx.stateStores = provider_.get();
    ctx.outputMode = config_.mode;
    TimeMs maxEvent = max_event_;
    for (const Row& r : rows) {
      if (config_.eventTimeColumn.empty()) continue;
      if (auto t = eventTimeOf(r, config_.eventTimeColumn)) maxEvent = std::max(maxEvent, *t);
    }
    auto out = op_->process(std::move(rows), ctx);
    if (!out.ok()) return out;
    max_event_ = maxEvent;
    if (!ctx.stateProgress.empty()) last_progress_ = ctx.stateProgress.back();
    ++batch_;
    late_wm_ = evict_wm_;
    if (!config_.eventTimeColumn.empty() && max_event_ != kNoEvent) {
      evict_wm_ = std::max(evict_wm_, max_event_ - config_.delay);
    }
    return out;
  }

  // What the batch loop asks before a no-data batch.
  bool wantsNoDataBatch() const { return op_->needsNoDataBatch(evict_wm_, evict_wm_ > late_wm_); }

  // Forgets the last batch's watermark step, for re-running it after a crash.
  void rewindTo(int64_t batch, TimeMs late, TimeMs evict, TimeMs maxEvent) {
    batch_ = batch;
    late_wm_ = late;
    evict_wm_ = evict;
    max_event_ = maxEvent;
  }
  TimeMs lateWatermark() const { return late_wm_; }
  TimeMs maxEvent() const { return max_event_; }

 private:
  static constexpr TimeMs kNoEvent = std::numeric_limits<TimeMs>::min();
  Factory factory_;
  Config config_;
  sim::VirtualClock clock_{kT0};
  sim::SimFileSystem fs_own_;
  sim::SimFileSystem* fs_;
  sim::SeededIdGenerator ids_;
  Env env_;
  std::unique_ptr<StateStoreProvider> provider_;
  std::unique_ptr<Operator> op_;
  int64_t batch_ = 0;
  TimeMs late_wm_ = 0, evict_wm_ = 0, max_event_ = kNoEvent;
  StateOperatorProgress last_progress_;
};

inline std::vector<std::string> ids(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const Row& r : rows) out.push_back(r.get("id").asString());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace streamsim::testing
