// The built-in example processors, added to a set by name (processors/examples.h): "count",
// "simple_counter", "session_tracker", "counter_with_initial_state", "heartbeat", "ttl_cache".
// They follow the seed documents (Databricks transformWithState docs) and serve as examples for
// docs/processors.md. Each instance belongs to one partition task; not thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/tws/stateful_processor.h"

namespace streamsim::processors {

// The key's columns followed by `extra` ({key..., extra...}). A processor emitting a row per key
// passes its own RowShapes, so the rows of one shape share one schema.
Row withKey(const Row& key, std::vector<std::pair<std::string, Value>> extra);
Row withKey(RowShapes& shapes, const Row& key, std::vector<std::pair<std::string, Value>> extra);
// The same with one extra column (no vector of pairs to build per row).
Row withKey(const Row& key, std::string_view name, Value value);
Row withKey(RowShapes& shapes, const Row& key, std::string_view name, Value value);

// Rows per key (the sync twin of the seeds' AsyncCountProcessor). State: ValueState<long>
// "count". Emits {key columns..., count long} for every key with input.
class CountProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;

 private:
  ValueState<int64_t> count_;
  RowShapes shapes_;
};

// Seed 001's SimpleCounterProcessor: ValueState<int> "valueState", ListState<int> "listState",
// MapState<string, int> "mapState". Emits {id string, countAsString string}.
class SimpleCounterProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;

 private:
  ValueState<int32_t> value_state_;
  ListState<int32_t> list_state_;
  MapState<std::string, int32_t> map_state_;
  RowShapes shapes_;
};

// Seed 001's SessionTracker: grouped by user, counts rows per "session_id" column in
// MapState<string, long> "sessions". Emits nothing (as in the seed); read its state instead.
class SessionTrackerProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;

 private:
  MapState<std::string, int64_t> sessions_;
};

// Seed 001's CounterWithInitialState: ValueState<int> "countState" seeded from the initial
// state's "count" column, then +1 per input row. Emits {id, count int}.
class CounterWithInitialState : public StatefulProcessorWithInitialState {
 public:
  void init(StatefulProcessorHandle& handle) override;
  void handleInitialState(const Row& key, const Row& initialState, const TimerValues& timerValues,
                          Output& out) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;

 private:
  ValueState<int32_t> count_state_;
  RowShapes shapes_;
};

// Sensor heartbeat (seed 001): every input row resets a processing-time timer to
// batchTimestamp + timeout; when it fires, emits {key..., status "missing"}. State:
// ValueState<long> "last_seen". Needs TimeMode ProcessingTime.
class HeartbeatProcessor : public StatefulProcessor {
 public:
  explicit HeartbeatProcessor(DurationMs timeoutMs = 10'000) : timeout_ms_(timeoutMs) {}
  void init(StatefulProcessorHandle& handle) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;
  void handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                          const ExpiredTimerInfo& expiredTimerInfo, Output& out) override;

 private:
  DurationMs timeout_ms_;
  ValueState<int64_t> last_seen_;
  RowShapes shapes_;
};

// The last "value" of each key, kept for a TTL: ValueState<string> "value" with TTL. For every key
// with input emits {key..., value string, previous string (null when absent or expired)}.
// Needs TimeMode ProcessingTime.
class TtlCacheProcessor : public StatefulProcessor {
 public:
  // The TTL as given to TTLConfig (Spark's rules: 0 is no TTL, nullopt or < 0 fail in init).
  explicit TtlCacheProcessor(std::optional<DurationMs> ttlMs = 60'000) : ttl_ms_(ttlMs) {}
  void init(StatefulProcessorHandle& handle) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;

 private:
  std::optional<DurationMs> ttl_ms_;
  ValueState<std::string> value_;
  RowShapes shapes_;
};

}  // namespace streamsim::processors
