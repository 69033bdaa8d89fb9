// The built-in async example processors (async_processor.h, seed 000), registered by name:
// "async_count" (the seed's AsyncCountProcessor), "async_score_gather" and
// "async_score_sequential" (the seed's HttpScoreRowGatherProcessor against the simulated service
// "scoring"), "async_idle_timeout" (timers and TTL) and "async_racy_count" (a planted bug: a
// member shared across keys, for the interleaving oracle). Each instance belongs to one
// partition task; not thread-safe.
#pragma once

#include <cstdint>

#include "streamsim/tws/async_processor.h"

namespace streamsim::processors {

// Seed 000's AsyncCountProcessor: rows per key. State: ValueState<long> "count" — the layout of
// the sync "count" processor, so a query can switch between the two on one checkpoint. Emits
// {key columns..., count long} for every key with input.
class AsyncCountProcessor : public AsyncStatefulProcessor {
 public:
  Task<> init(AsyncStatefulProcessorHandle& handle) override;
  Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                         Output& out) override;

 private:
  AsyncValueState<int64_t> count_;
  RowShapes shapes_;
};

// Seed 000's HttpScoreRowGatherProcessor: for every input row one call to the outside service
// "scoring" with the row's `event_id` (all at once with whenAll when `gather`, else one after
// the other), the best score kept in ValueState<double> "last_score" and emitted as
// {key columns..., score double}. A failed or timed-out call fails the task (it is retried).
class ScoreProcessor : public AsyncStatefulProcessor {
 public:
  explicit ScoreProcessor(bool gather = true) : gather_(gather) {}
  Task<> init(AsyncStatefulProcessorHandle& handle) override;
  Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                         Output& out) override;

 private:
  Task<double> fetchScore(const Row& row);
  bool gather_;
  AsyncValueState<double> score_state_;
  AsyncService session_;
  RowShapes shapes_;
};

// Counts rows per key in ValueState<long> "count" with a 1-minute TTL and keeps one
// processing-time timer per key 30 s after its last input; when it fires, emits
// {key..., count (null when expired), event "idle"}; on input {key..., count, event "input"}.
// Needs TimeMode ProcessingTime.
class AsyncIdleTimeoutProcessor : public AsyncStatefulProcessor {
 public:
  Task<> init(AsyncStatefulProcessorHandle& handle) override;
  Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                         Output& out) override;
  Task<> handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                            const ExpiredTimerInfo& expiredTimerInfo, Output& out) override;

 private:
  AsyncStatefulProcessorHandle* handle_ = nullptr;
  AsyncValueState<int64_t> count_;
  RowShapes shapes_;
};

// A planted bug: AsyncCountProcessor, but the current call's row count is kept in a member
// shared by every key across an await. Correct in the sequential order; wrong when another key
// starts while one waits at its state read — what the interleaving oracle finds.
class RacyCountProcessor : public AsyncStatefulProcessor {
 public:
  Task<> init(AsyncStatefulProcessorHandle& handle) override;
  Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                         Output& out) override;

 private:
  AsyncValueState<int64_t> count_;
  int64_t rows_in_call_ = 0;
  RowShapes shapes_;
};

}  // namespace streamsim::processors
