// The processors of Spark's RealTimeTransformWithStateSuite (sql/core/src/test/scala/org/apache/
// spark/sql/streaming/RealTimeTransformWithStateSuite.scala), re-created for the scenarios that
// port its tests (scenarios/realtime/spark/). Each emits {key columns..., ...} where Spark's emits
// a tuple led by the key; a Spark "data"/"timer" tag is the column `kind`. One instance per
// partition task; not thread-safe.
//
// "rtm_eager_count" (RealTimeEagerCountProcessor): ValueState<long> "count" += rows; emits {count}.
// "rtm_every_other_count" {emitEvery} (RealTimeRunningCountStatefulProcessor): MapState<string,
//   long> "countState" per row value; emits {count} when a value's count is a multiple of emitEvery.
// "rtm_ttl_count" {ttl} (RealTimeTTLCountProcessor): ValueState<long> "count" with TTL (default
//   10s); each row counts one and emits {count}.
// "rtm_processing_timer" (RealTimeProcessingTimerProcessor): the key's first row registers a
//   timer 10 s after the processing time; emits {kind: data}; the timer {kind: timer}.
// "rtm_processing_timer_value" (RealTimeProcessingTimerValueProcessor): every row registers a
//   timer 10 s on and emits {kind: data, time: processing time}; a timer {kind: timer, time}.
// "rtm_timer_count" {delay, timerKeys, timers} (RTMStatefulProcessorWithProcTimeTimer[...]): a
//   running count (ValueState<long> "countState"); a key of timerKeys (default: every key) whose
//   count is 0 registers `timers` (1 or 2) timers at now + delay (+ 1 s); count 3 clears and
//   emits nothing, else emits {count: "n"}; a timer clears and emits {count: "-1"}.
// "rtm_event_timer" {column} (RealTimeEventTimerProcessor): each row registers an event-time
//   timer at its `column` (default eventTime) and emits {kind: data, watermark}; a timer
//   {kind: timer, watermark} (the watermark in ms).
// "rtm_initial_count" (RealTimeInitialCountProcessor): initial state adds its `count` to
//   ValueState<long> "count"; each row counts one and emits {count}.
// "rtm_event_time_output" {column, override} (RealTimeEventTimeOutputProcessor): each row counts
//   one and emits {outputEventTime: the row's `column` (default eventTime) or `override`, count}.
#include "streamsim/processors/builtin.h"
#include "streamsim/time.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

#include <fmt/format.h>

namespace streamsim {
namespace processors {
namespace {

class RtmEagerCount : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    count_.update(count_.getOption().value_or(0) + static_cast<int64_t>(rows.size()));
    out.emit(withKey(shapes_, key, "count", Value(count_.get())));
  }

 private:
  ValueState<int64_t> count_;
  RowShapes shapes_;
};

class RtmEveryOtherCount : public StatefulProcessor {
 public:
  explicit RtmEveryOtherCount(int64_t every) : every_(every) {}
  void init(StatefulProcessorHandle& handle) override {
    counts_ = handle.getMapState<std::string, int64_t>("countState");
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (const Row& row : rows) {
      const std::string v = row.get("value").toString();
      const int64_t n = counts_.getValue(v).value_or(0) + 1;
      counts_.updateValue(v, n);
      if (n % every_ == 0) out.emit(withKey(shapes_, key, "count", Value(n)));
    }
  }

 private:
  int64_t every_;
  MapState<std::string, int64_t> counts_;
  RowShapes shapes_;
};

class RtmTtlCount : public StatefulProcessor {
 public:
  explicit RtmTtlCount(DurationMs ttl) : ttl_(ttl) {}
  void init(StatefulProcessorHandle& handle) override {
    count_ = handle.getValueState<int64_t>("count", TTLConfig{ttl_});
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (size_t i = 0; i < rows.size(); ++i) {
      count_.update(count_.getOption().value_or(0) + 1);
      out.emit(withKey(shapes_, key, "count", Value(count_.get())));
    }
  }

 private:
  DurationMs ttl_;
  ValueState<int64_t> count_;
  RowShapes shapes_;
};

class RtmProcessingTimer : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { registered_ = handle.getValueState<bool>("timerRegistered"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!registered_.getOption().value_or(false)) {
        getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 10'000);
        registered_.update(true);
      }
      out.emit(withKey(shapes_, key, "kind", Value(std::string("data"))));
    }
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo&, Output& out) override {
    out.emit(withKey(shapes_, key, "kind", Value(std::string("timer"))));
  }

 private:
  ValueState<bool> registered_;
  RowShapes shapes_;
};

class RtmProcessingTimerValue : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    for (size_t i = 0; i < rows.size(); ++i) {
      const TimeMs now = tv.getCurrentProcessingTimeInMs();
      getHandle().registerTimer(now + 10'000);
      out.emit(withKey(shapes_, key, {{"kind", Value(std::string("data"))}, {"time", Value(now)}}));
    }
  }
  void handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo&, Output& out) override {
    out.emit(withKey(shapes_, key, {{"kind", Value(std::string("timer"))},
                                    {"time", Value(tv.getCurrentProcessingTimeInMs())}}));
  }

 private:
  RowShapes shapes_;
};

class RtmTimerCount : public StatefulProcessor {
 public:
  RtmTimerCount(DurationMs delay, std::vector<std::string> timerKeys, int timers)
      : delay_(delay), timer_keys_(std::move(timerKeys)), timers_(timers) {}
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("countState"); }
  // Spark's processor is called with one row per call in real time; it counts calls.
  void handleInputRows(const Row& key, RowRange, const TimerValues& tv, Output& out) override {
    const int64_t current = count_.getOption().value_or(0);
    const std::string k = key.size() > 0 ? key[0].toString() : "";
    const bool timed = timer_keys_.empty() || std::find(timer_keys_.begin(), timer_keys_.end(), k) != timer_keys_.end();
    if (current == 0 && timed)
      for (int i = 0; i < timers_; ++i) getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + delay_ + 1000 * i);
    const int64_t n = current + 1;
    if (n == 3) {
      count_.clear();
      return;
    }
    count_.update(n);
    out.emit(withKey(shapes_, key, "count", Value(std::to_string(n))));
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo&, Output& out) override {
    count_.clear();
    out.emit(withKey(shapes_, key, "count", Value(std::string("-1"))));
  }

 private:
  DurationMs delay_;
  std::vector<std::string> timer_keys_;
  int timers_;
  ValueState<int64_t> count_;
  RowShapes shapes_;
};

// The row's event time in ms, from a timestamp column (or one a cast makes a timestamp).
TimeMs eventTimeMs(const Row& row, const std::string& column) {
  Value v = row.get(column);
  auto t = v.castTo(Type::kTimestamp);
  if (v.isNull() || !t.ok())
    throw std::invalid_argument(fmt::format("column '{}' = {} is not a timestamp", column, v.toString()));
  return t->asLong();
}

class RtmEventTimer : public StatefulProcessor {
 public:
  explicit RtmEventTimer(std::string column) : column_(std::move(column)) {}
  void init(StatefulProcessorHandle&) override {}
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    for (const Row& row : rows) {
      getHandle().registerTimer(eventTimeMs(row, column_));
      out.emit(withKey(shapes_, key, {{"kind", Value(std::string("data"))},
                                      {"watermark", Value(tv.getCurrentWatermarkInMs())}}));
    }
  }
  void handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo&, Output& out) override {
    out.emit(withKey(shapes_, key, {{"kind", Value(std::string("timer"))},
                                    {"watermark", Value(tv.getCurrentWatermarkInMs())}}));
  }

 private:
  std::string column_;
  RowShapes shapes_;
};

class RtmInitialCount : public StatefulProcessorWithInitialState {
 public:
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInitialState(const Row&, const Row& initial, const TimerValues&, Output&) override {
    const Value& c = initial.get("count");
    count_.update(count_.getOption().value_or(0) + (c.isNull() ? 0 : c.asLong()));
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (size_t i = 0; i < rows.size(); ++i) {
      count_.update(count_.getOption().value_or(0) + 1);
      out.emit(withKey(shapes_, key, "count", Value(count_.get())));
    }
  }

 private:
  ValueState<int64_t> count_;
  RowShapes shapes_;
};

class RtmEventTimeOutput : public StatefulProcessor {
 public:
  RtmEventTimeOutput(std::string column, std::optional<TimeMs> override)
      : column_(std::move(column)), override_(override) {}
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (const Row& row : rows) {
      count_.update(count_.getOption().value_or(0) + 1);
      const TimeMs t = override_ ? *override_ : eventTimeMs(row, column_);
      out.emit(withKey(shapes_, key, {{"outputEventTime", Value::timestamp(t)}, {"count", Value(count_.get())}}));
    }
  }

 private:
  std::string column_;
  std::optional<TimeMs> override_;
  ValueState<int64_t> count_;
  RowShapes shapes_;
};

std::string stringParam(const ProcessorParams& params, std::string_view name, std::string fallback) {
  auto it = params.find(name);
  return it == params.end() ? fallback : it->second;
}

Result<int64_t> positiveParam(const ProcessorParams& params, std::string_view name, int64_t fallback) {
  auto it = params.find(name);
  if (it == params.end()) return fallback;
  char* end = nullptr;
  const long long n = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end != '\0' || n < 1)
    return Status::InvalidArgument(fmt::format("parameter '{}' must be a whole number >= 1; got '{}'", name, it->second));
  return static_cast<int64_t>(n);
}

ParamProcessor everyOtherProcessor() {
  return {
    "rtm_every_other_count", {"emitEvery"}, [](const ProcessorParams& p) -> Result<ProcessorFactory> {
      STREAMSIM_ASSIGN_OR_RETURN(int64_t every, positiveParam(p, "emitEvery", 2));
      return ProcessorFactory([every] { return asStatefulProcessor(std::make_unique<RtmEveryOtherCount>(every)); });
    }};
}
ParamProcessor ttlCountProcessor() {
  return {
    "rtm_ttl_count", {"ttl"}, [](const ProcessorParams& p) -> Result<ProcessorFactory> {
      STREAMSIM_ASSIGN_OR_RETURN(DurationMs ttl, durationParam(p, "ttl", 10'000));
      return ProcessorFactory([ttl] { return asStatefulProcessor(std::make_unique<RtmTtlCount>(ttl)); });
    }};
}
ParamProcessor timerCountProcessor() {
  return {
    "rtm_timer_count", {"delay", "timerKeys", "timers"}, [](const ProcessorParams& p) -> Result<ProcessorFactory> {
      STREAMSIM_ASSIGN_OR_RETURN(DurationMs delay, durationParam(p, "delay", 30'000));
      STREAMSIM_ASSIGN_OR_RETURN(int64_t timers, positiveParam(p, "timers", 1));
      if (timers > 2) return Status::InvalidArgument(fmt::format("parameter 'timers' is 1 or 2; got {}", timers));
      std::vector<std::string> keys;
      const std::string list = stringParam(p, "timerKeys", "");
      for (size_t at = 0; at < list.size();) {
        size_t comma = list.find(',', at);
        if (comma == std::string::npos) comma = list.size();
        if (comma > at) keys.push_back(list.substr(at, comma - at));
        at = comma + 1;
      }
      return ProcessorFactory([delay, keys, timers] {
        return asStatefulProcessor(std::make_unique<RtmTimerCount>(delay, keys, static_cast<int>(timers)));
      });
    }};
}
ParamProcessor eventTimerProcessor() {
  return {
    "rtm_event_timer", {"column"}, [](const ProcessorParams& p) -> Result<ProcessorFactory> {
      std::string column = stringParam(p, "column", "eventTime");
      return ProcessorFactory([column] { return asStatefulProcessor(std::make_unique<RtmEventTimer>(column)); });
    }};
}
ParamProcessor eventTimeOutputProcessor() {
  return {
    "rtm_event_time_output", {"column", "override"}, [](const ProcessorParams& p) -> Result<ProcessorFactory> {
      std::string column = stringParam(p, "column", "eventTime");
      std::optional<TimeMs> override;
      if (auto it = p.find("override"); it != p.end()) {
        auto t = parseTimestamp(it->second);
        if (!t.ok())
          return Status::InvalidArgument(fmt::format("parameter 'override' must be a timestamp such as "
                                                     "\"1970-01-01T00:00:00.001Z\"; got '{}'", it->second));
        override = *t;
      }
      return ProcessorFactory([column, override] {
        return asStatefulProcessor(std::make_unique<RtmEventTimeOutput>(column, override));
      });
    }};
}

}  // namespace
}  // namespace processors

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerSparkRealTimeProcessors(ProcessorSet& set) {
  processors::everyOtherProcessor().addTo(set);
  processors::ttlCountProcessor().addTo(set);
  processors::timerCountProcessor().addTo(set);
  processors::eventTimerProcessor().addTo(set);
  processors::eventTimeOutputProcessor().addTo(set);
  set.add("rtm_eager_count", processorFactoryOf<processors::RtmEagerCount>());
  set.add("rtm_processing_timer", processorFactoryOf<processors::RtmProcessingTimer>());
  set.add("rtm_processing_timer_value", processorFactoryOf<processors::RtmProcessingTimerValue>());
  set.add("rtm_initial_count", processorFactoryOf<processors::RtmInitialCount>());
}
}  // namespace detail

}  // namespace streamsim
