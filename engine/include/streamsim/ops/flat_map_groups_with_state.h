// flatMapGroupsWithState (SEMANTICS.md §4): a user function called once per key with that key's
// rows of the batch and a GroupState, then once per key whose timeout expired; its state is one
// row per key in the state store. Follows Spark 4.1.1's FlatMapGroupsWithStateExec,
// GroupStateImpl and FlatMapGroupsWithStateExecHelper (state format 2); applyInPandasWithState
// (FlatMapGroupsInPandasWithStateExec) runs on the same operator under its own name.
// Each returned Operator belongs to one query run and is driven by one thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "streamsim/operator.h"
#include "streamsim/spark_errors.h"

namespace streamsim {

// Spark's GroupStateTimeout.
enum class GroupStateTimeout { kNoTimeout, kProcessingTimeTimeout, kEventTimeTimeout };
std::string_view groupStateTimeoutName(GroupStateTimeout t);  // "NoTimeout", ...
// "NoTimeout" | "ProcessingTimeTimeout" | "EventTimeTimeout" (InvalidArgument otherwise).
Result<GroupStateTimeout> parseGroupStateTimeout(std::string_view name);

// What GroupState throws when the function breaks one of its rules: Spark's exception class
// (NoSuchElementException, IllegalArgumentException, UnsupportedOperationException) and message.
class GroupStateError : public std::runtime_error {
 public:
  GroupStateError(std::string exceptionClass, const std::string& message)
      : std::runtime_error(message), exception_class_(std::move(exceptionClass)) {}
  const std::string& exceptionClass() const { return exception_class_; }

 private:
  std::string exception_class_;
};

// Spark's GroupStateImpl (GroupStateImpl.scala): made by the operator for one call of the
// function; the operator reads isUpdated / isRemoved / timeoutTimestamp back after the call.
class GroupState {
 public:
  static constexpr TimeMs kNoTimestamp = -1;  // GroupStateImpl.NO_TIMESTAMP

  GroupState(std::optional<Row> value, TimeMs batchProcessingTimeMs, TimeMs eventTimeWatermarkMs,
             GroupStateTimeout timeout, bool hasTimedOut, bool watermarkPresent)
      : value_(std::move(value)), batch_processing_time_ms_(batchProcessingTimeMs),
        event_time_watermark_ms_(eventTimeWatermarkMs), timeout_conf_(timeout),
        has_timed_out_(hasTimedOut), watermark_present_(watermarkPresent) {}

  bool exists() const { return value_.has_value(); }
  // NoSuchElementException "State is either not defined or has already been removed".
  const Row& get() const;
  const std::optional<Row>& getOption() const { return value_; }
  void update(Row newValue);
  void remove();
  // ProcessingTimeTimeout only (UnsupportedOperationException otherwise); > 0.
  void setTimeoutDuration(DurationMs durationMs);
  // EventTimeTimeout only; > 0 and not earlier than the watermark.
  void setTimeoutTimestamp(TimeMs timestampMs);
  // UnsupportedOperationException without a watermark upstream.
  TimeMs getCurrentWatermarkMs() const;
  TimeMs getCurrentProcessingTimeMs() const { return batch_processing_time_ms_; }
  bool hasTimedOut() const { return has_timed_out_; }
  GroupStateTimeout timeoutConf() const { return timeout_conf_; }
  bool watermarkPresent() const { return watermark_present_; }
  TimeMs eventTimeWatermarkMs() const { return event_time_watermark_ms_; }

  // The operator's view after the call (GroupStateImpl's internal API).
  bool isUpdated() const { return updated_; }
  bool isRemoved() const { return removed_; }
  std::optional<TimeMs> timeoutTimestamp() const {
    if (timeout_timestamp_ == kNoTimestamp) return std::nullopt;
    return timeout_timestamp_;
  }
  // For a bridge whose own GroupState ran the rules (pyspark's GroupStateImpl): its outcome.
  void setOutcome(std::optional<Row> value, bool updated, bool removed, TimeMs timeoutTimestamp) {
    value_ = std::move(value);
    updated_ = updated;
    removed_ = removed;
    timeout_timestamp_ = timeoutTimestamp;
  }

 private:
  std::optional<Row> value_;
  TimeMs batch_processing_time_ms_;
  TimeMs event_time_watermark_ms_;
  GroupStateTimeout timeout_conf_;
  bool has_timed_out_;
  bool watermark_present_;
  bool updated_ = false;
  bool removed_ = false;
  TimeMs timeout_timestamp_ = kNoTimestamp;
};

// The user function: (key row of the grouping columns, the key's rows of this batch in input
// order — none when timed out —, its state) -> output rows. May throw (GroupStateError or any
// std::exception): the task fails with FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR.
using GroupStateFunction =
    std::function<std::vector<Row>(const Row& key, const std::vector<Row>& values, GroupState& state)>;
// Called once per query run (start()), so a function may hold per-run resources.
using GroupStateFunctionFactory = std::function<Result<GroupStateFunction>()>;

struct FlatMapGroupsWithStateSpec {
  std::vector<std::string> groupBy;
  GroupStateFunctionFactory function;
  std::string functionName = "func";      // for messages
  std::string stateSchemaDDL;             // the state's struct type, e.g. "count long"
  OutputMode outputMode = OutputMode::kUpdate;
  GroupStateTimeout timeout = GroupStateTimeout::kNoTimeout;
  // Spark's shortName: "flatMapGroupsWithState" (FlatMapGroupsWithStateExec) or
  // "applyInPandasWithState" (FlatMapGroupsInPandasWithStateExec); names the operator in the
  // checkpoint's operator metadata, the state schema record and progress.
  std::string operatorName = "flatMapGroupsWithState";
};

// start() fails with FailedPrecondition for Complete output mode, EventTimeTimeout without a
// watermark upstream, a state schema that does not parse, or a function factory that fails.
// State (store "default" of state/<op>/<partition>/): key = ordered encoding of the groupBy
// columns; value = Spark's format-2 row: the state struct (null after remove() with a timeout
// kept) and, when a timeout is configured, timeoutTimestamp long (-1: none).
std::unique_ptr<Operator> makeFlatMapGroupsWithState(FlatMapGroupsWithStateSpec spec);

}  // namespace streamsim
