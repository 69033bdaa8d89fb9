// The transformWithState user API (SEMANTICS.md §6, DESIGN.md §3), with Spark's names so a
// processor ports line for line: StatefulProcessor, StatefulProcessorWithInitialState,
// StatefulProcessorHandle, TimerValues, ExpiredTimerInfo, TTLConfig, TimeMode. The engine creates
// one processor instance per partition task and batch; nothing here is thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/operator.h"
#include "streamsim/time.h"
#include "streamsim/tws/state_codec.h"
#include "streamsim/tws/state_variables.h"
#include "streamsim/value.h"

namespace streamsim {

enum class TimeMode { kNone, kProcessingTime, kEventTime };
std::string_view timeModeName(TimeMode m);  // "None" | "ProcessingTime" | "EventTime"
// Accepts "none", "processingTime", "eventTime" in any letter case (and with '_'/'-').
Result<TimeMode> parseTimeMode(std::string_view name);

// Time to live of a state variable's values: Spark's TTLConfig(ttlDuration), with its rules
// (StatefulProcessorHandleImpl): a zero duration is TTLConfig.NONE — no TTL, in any time mode;
// any other needs TimeMode::kProcessingTime (else
// STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL) and must be > 0: a negative or null
// duration (std::nullopt, Scala's TTLConfig(null)) is STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE
// (operationType "update", stateName).
struct TTLConfig {
  std::optional<DurationMs> ttlDuration = 0;
};

// The times a handler sees; constant for the whole batch and for its re-run.
class TimerValues {
 public:
  TimerValues(TimeMs processingTimeMs, TimeMs watermarkMs)
      : processing_time_ms_(processingTimeMs), watermark_ms_(watermarkMs) {}
  // The batch timestamp (batchTimestampMs).
  TimeMs getCurrentProcessingTimeInMs() const { return processing_time_ms_; }
  // The eviction watermark of this batch.
  TimeMs getCurrentWatermarkInMs() const { return watermark_ms_; }

 private:
  TimeMs processing_time_ms_;
  TimeMs watermark_ms_;
};

class ExpiredTimerInfo {
 public:
  explicit ExpiredTimerInfo(TimeMs expiryTimeMs) : expiry_time_ms_(expiryTimeMs) {}
  TimeMs getExpiryTimeInMs() const { return expiry_time_ms_; }

 private:
  TimeMs expiry_time_ms_;
};

// The rows of one grouping key in one batch, in arrival order.
using RowRange = std::span<const Row>;

// Where a handler puts its output rows (Spark's returned iterator).
class Output {
 public:
  void emit(Row row) { rows_.push_back(std::move(row)); }
  const std::vector<Row>& rows() const { return rows_; }
  std::vector<Row> take() { return std::move(rows_); }
  // Moves the rows emitted so far to the end of `out` and keeps the buffer for the next call:
  // the operator uses one Output per partition task, not an allocation per key.
  void moveRowsTo(std::vector<Row>& out) {
    for (Row& r : rows_) out.push_back(std::move(r));
    rows_.clear();
  }

 private:
  std::vector<Row> rows_;
};

// The processor's window on state and timers (Spark's StatefulProcessorHandle). Rules, each an
// error naming the rule (StatefulProcessorError):
// - state variables are created only inside init(), once per name;
// - timer calls only inside handleInitialState / handleInputRows / handleExpiredTimer, never in
//   init() and never with TimeMode None;
// - TTL only with TimeMode ProcessingTime and a duration > 0.
class StatefulProcessorHandle {
 public:
  virtual ~StatefulProcessorHandle() = default;

  template <class T>
  ValueState<T> getValueState(const std::string& name, StateCodec<T> codec,
                              std::optional<TTLConfig> ttl = std::nullopt) {
    auto backend = createValueState(name, describe("value", codec, nullptr), ttl);
    return ValueState<T>(std::move(backend), std::move(codec));
  }
  template <class T>
  ValueState<T> getValueState(const std::string& name, std::optional<TTLConfig> ttl = std::nullopt) {
    return getValueState<T>(name, StateCodec<T>{}, ttl);
  }

  template <class T>
  ListState<T> getListState(const std::string& name, StateCodec<T> codec,
                            std::optional<TTLConfig> ttl = std::nullopt) {
    auto backend = createListState(name, describe("list", codec, nullptr), ttl);
    return ListState<T>(std::move(backend), std::move(codec));
  }
  template <class T>
  ListState<T> getListState(const std::string& name, std::optional<TTLConfig> ttl = std::nullopt) {
    return getListState<T>(name, StateCodec<T>{}, ttl);
  }

  template <class K, class V>
  MapState<K, V> getMapState(const std::string& name, StateCodec<K> keyCodec,
                             StateCodec<V> valueCodec, std::optional<TTLConfig> ttl = std::nullopt) {
    auto backend = createMapState(name, describe("map", valueCodec, &keyCodec), ttl);
    return MapState<K, V>(std::move(backend), std::move(keyCodec), std::move(valueCodec));
  }
  template <class K, class V>
  MapState<K, V> getMapState(const std::string& name, std::optional<TTLConfig> ttl = std::nullopt) {
    return getMapState<K, V>(name, StateCodec<K>{}, StateCodec<V>{}, ttl);
  }

  // Timers of the current grouping key (one per timestamp; registering twice is a no-op,
  // deleting a missing one is a no-op).
  virtual void registerTimer(TimeMs expiryTimestampMs) = 0;
  virtual void deleteTimer(TimeMs expiryTimestampMs) = 0;
  // Ascending; includes the timer whose handler is running.
  virtual std::vector<TimeMs> listTimers() = 0;
  // Removes every value of the state variable `name` (all grouping keys of this partition).
  virtual void deleteIfExists(const std::string& name) = 0;
  virtual QueryInfo getQueryInfo() const = 0;
  // The engine's Env of the task (scheduler and services for async processors); may be null.
  virtual const Env* env() const { return nullptr; }

  // What a state variable is, as recorded in the operator's state schema.
  struct StateVariableInfo {
    std::string kind;          // "value" | "list" | "map"
    std::string valueSchema;   // DDL
    std::string keySchema;     // DDL of the map's user key ("" otherwise)
  };

 protected:
  virtual std::shared_ptr<detail::ValueStateBackend> createValueState(
      const std::string& name, const StateVariableInfo& info, std::optional<TTLConfig> ttl) = 0;
  virtual std::shared_ptr<detail::ListStateBackend> createListState(
      const std::string& name, const StateVariableInfo& info, std::optional<TTLConfig> ttl) = 0;
  virtual std::shared_ptr<detail::MapStateBackend> createMapState(
      const std::string& name, const StateVariableInfo& info, std::optional<TTLConfig> ttl) = 0;

 private:
  template <class C, class KC>
  static StateVariableInfo describe(std::string kind, const C& valueCodec, const KC* keyCodec) {
    StateVariableInfo info{std::move(kind), valueCodec.schemaDDL(), ""};
    if (keyCodec != nullptr) info.keySchema = keyCodec->schemaDDL();
    return info;
  }
  template <class C>
  static StateVariableInfo describe(std::string kind, const C& valueCodec, std::nullptr_t) {
    return StateVariableInfo{std::move(kind), valueCodec.schemaDDL(), ""};
  }
};

// A stateful processor. Override init() to create state variables and handleInputRows() for the
// logic; handleExpiredTimer() runs for due timers (also for keys without input in the batch).
// Do not keep per-key data in members across calls: state belongs in state variables.
class StatefulProcessor {
 public:
  virtual ~StatefulProcessor() = default;
  virtual void init(StatefulProcessorHandle& handle) = 0;
  virtual void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                               Output& out) = 0;
  virtual void handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                                  const ExpiredTimerInfo& expiredTimerInfo, Output& out) {
    (void)key;
    (void)timerValues;
    (void)expiredTimerInfo;
    (void)out;
  }
  virtual void close() {}
  // Scala's getHandle: valid from init() until close().
  StatefulProcessorHandle& getHandle() {
    if (handle_ == nullptr)
      detail::throwCondition("STATE_STORE_HANDLE_NOT_INITIALIZED", {}, "getHandle() before init()");
    return *handle_;
  }
  // Called by the engine just before init().
  void setHandle(StatefulProcessorHandle* handle) { handle_ = handle; }

 private:
  StatefulProcessorHandle* handle_ = nullptr;
};

// A processor that also receives initial state (batch 0 only, before any input; grouped by the
// same key as the input).
class StatefulProcessorWithInitialState : public StatefulProcessor {
 public:
  virtual void handleInitialState(const Row& key, const Row& initialState,
                                  const TimerValues& timerValues, Output& out) = 0;
};

using ProcessorFactory = std::function<std::unique_ptr<StatefulProcessor>()>;

}  // namespace streamsim
