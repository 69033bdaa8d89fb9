// Internals of the transformWithState operator: the per-task context shared by the handle and the
// state variable backends, the store layout (docs/processors.md "State layout") and the handle
// implementation. One TaskContext per partition task attempt; not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/spark_errors.h"
#include "streamsim/state/state_store.h"
#include "streamsim/tws/state_layout.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::detail {

// --- store layout (tws/state_layout.h: the one writer and reader) ----------------------------
using state_layout::appendOrderedTime;
using state_layout::encodeEntry;
using state_layout::encodeList;
using state_layout::kTimersByKeyCf;
using state_layout::kTimersByTimeCf;
using state_layout::ListElement;
using state_layout::orderedTime;
using state_layout::readOrderedTime;
using state_layout::ttlIndexCf;
using EntryView = state_layout::Entry;
// The layout's readers for the operator: bytes that do not follow it throw STATE_DECODE naming
// the state variable.
EntryView decodeEntry(std::string_view stored, std::string_view stateName);
std::vector<ListElement> decodeList(std::string_view stored, std::string_view stateName);

inline bool isExpired(const std::optional<TimeMs>& expiresAt, TimeMs now) {
  return expiresAt.has_value() && now >= *expiresAt;
}

// --- task context ---------------------------------------------------------------------------
enum class Phase { kNone, kInit, kInitialState, kInputRows, kExpiredTimer, kClose };
std::string_view phaseMethod(Phase p);  // "init", "handleInputRows", ...

enum class StateKind { kValue, kList, kMap };

struct StateVariable {
  std::string name;
  StateKind kind;
  std::optional<DurationMs> ttl;
  StatefulProcessorHandle::StateVariableInfo info;
};

// A timer's two index keys: (grouping key, time) in $timers_key, (time, grouping key) in
// $timers_ts. A timer batch makes four per fired timer, longer than std::string's inline buffer:
// they are built in a buffer per kind that keeps its capacity (the store copies what it keeps; no
// caller holds a key across another call of the same kind). One per task.
class TimerKeys {
 public:
  std::string_view byKey(std::string_view key, TimeMs ts);
  std::string_view byTime(std::string_view key, TimeMs ts);

 private:
  std::string by_key_, by_time_;
};

struct TaskContext {
  StateStore* store = nullptr;  // nullptr in start()'s dry run of init() (handle state PRE_INIT)
  const Env* env = nullptr;
  // Spark's handle lifecycle (StatefulProcessorHandleImpl): PRE_INIT in start()'s dry run of
  // init(); per task CREATED in init(), INITIALIZED for initial state and input rows,
  // DATA_PROCESSED for expired timers, TIMER_PROCESSED for TTL cleanup and close(), then CLOSED.
  HandleState handleState = HandleState::kCreated;
  TimeMode timeMode = TimeMode::kNone;
  TimeMs batchTimestampMs = 0;
  QueryInfo query;
  Phase phase = Phase::kNone;
  bool hasKey = false;
  std::string key;   // encoded grouping key of the current call
  Row keyRow;
  SchemaPtr keySchema;  // keyRow's schema, reused for the next key of the same types
  // The first rule the processor broke (it fails the task even if the processor caught it).
  std::optional<StatefulProcessorError> violation;
  std::vector<StateVariable> variables;  // in declaration order
  // Timers deleted by deleteTimer() in this task: the expired-timer scan re-checks that a due
  // timer still exists only when a handler deleted one since the scan began.
  int64_t timersDeleted = 0;
  TimerKeys timerKeys;
  // Counters for progress (Spark's custom metrics of the operator).
  int64_t timersFired = 0;
  int64_t ttlRemoved = 0;
  int64_t registerTimerCalls = 0;
  int64_t deleteTimerCalls = 0;
  int64_t deletedStateVars = 0;  // deleteIfExists calls that removed something
  std::vector<int64_t> ttlRemovedByVariable;  // per entry of `variables`
  // Trace hook: called with the event name and extra JSON fields (without braces); may be empty.
  std::function<void(std::string_view event, const std::string& fields)> trace;

  [[noreturn]] void fail(std::string rule, const std::string& message);
  // Records and throws Spark's `condition` (spark_errors.h).
  [[noreturn]] void failWith(std::string condition, ErrorParams params, std::string_view hint = {});
  // STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE unless the handle is in
  // the state that creates state variables (PRE_INIT in the dry run, CREATED in a task's init()).
  void requireInitState(std::string_view operationType);
  // A state variable's operation `op` ("exists", "get", ...): PRE_INIT rejects every one (Spark's
  // driver-side state), a call without a grouping key is Spark's "Implicit key not found".
  void checkStateOperation(const std::string& stateName, std::string_view op);
  void requireKey(std::string_view what);
};

// Spark's TimeMode.toString: "NoTime", "ProcessingTime", "EventTime".
std::string_view sparkTimeModeName(TimeMode m);

// The handle given to processors.
class TaskHandle final : public StatefulProcessorHandle {
 public:
  explicit TaskHandle(TaskContext& task) : task_(task) {}
  void registerTimer(TimeMs expiryTimestampMs) override;
  void deleteTimer(TimeMs expiryTimestampMs) override;
  std::vector<TimeMs> listTimers() override;
  void deleteIfExists(const std::string& name) override;
  QueryInfo getQueryInfo() const override { return task_.query; }
  const Env* env() const override { return task_.env; }

 protected:
  std::shared_ptr<ValueStateBackend> createValueState(const std::string& name,
                                                      const StateVariableInfo& info,
                                                      std::optional<TTLConfig> ttl) override;
  std::shared_ptr<ListStateBackend> createListState(const std::string& name,
                                                    const StateVariableInfo& info,
                                                    std::optional<TTLConfig> ttl) override;
  std::shared_ptr<MapStateBackend> createMapState(const std::string& name,
                                                  const StateVariableInfo& info,
                                                  std::optional<TTLConfig> ttl) override;

 private:
  std::optional<DurationMs> declare(const std::string& name, StateKind kind,
                                    const StateVariableInfo& info, std::optional<TTLConfig> ttl);
  void checkTimerCall(std::string_view op);
  TaskContext& task_;
};

// Timers of the task's store.
void deleteTimerEntries(StateStore& store, TimerKeys& keys, std::string_view key, TimeMs ts);
struct DueTimer {
  TimeMs ts;
  std::string_view key;  // into DueTimers::keys
};
// The due timers' keys in one buffer (a timer batch fires thousands, each key longer than a
// std::string's inline buffer: an allocation per timer); a vector, as moving it keeps the views.
struct DueTimers {
  std::vector<char> keys;
  std::vector<DueTimer> timers;
};
// All timers with ts <= threshold, ascending by (ts, key).
DueTimers dueTimers(StateStore& store, TimeMs threshold);
bool timerExists(StateStore& store, TimerKeys& keys, std::string_view key, TimeMs ts);

// Physically removes the values of `variable` expired at `now` (the TTL cleanup pass).
// Returns how many values (list elements, map entries) were removed.
int64_t cleanupExpired(StateStore& store, const StateVariable& variable, TimeMs now);

}  // namespace streamsim::detail
