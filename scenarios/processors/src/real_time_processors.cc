// Built-in processors for real-time mode's scenarios (docs/processors.md, scenarios/realtime/):
//
// "call_counter": counts its handleInputRows calls and the rows they got, per key, in
//   ValueState<long> "calls" and "rows", and emits {key..., calls, rows} after each call. In
//   micro-batch mode a key's rows of one batch come in one call; in real-time mode one call per
//   row (seed 004) — the two modes agree on `rows` and differ on `calls`.
// "late_timer": each row's `value` is a timestamp; a processing-time timer is registered at it.
//   When a timer fires it emits {key..., due: the timer's time, fired_at: the processing time it
//   fired at} and counts the firing in ValueState<long> "fired". Needs TimeMode ProcessingTime.
// One instance per partition task; not thread-safe.
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {
namespace processors {
namespace {

class CallCounterProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    calls_ = handle.getValueState<int64_t>("calls");
    rows_ = handle.getValueState<int64_t>("rows");
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    int64_t calls = calls_.getOption().value_or(0) + 1;
    int64_t n = rows_.getOption().value_or(0) + static_cast<int64_t>(rows.size());
    calls_.update(calls);
    rows_.update(n);
    out.emit(withKey(shapes_, key, {{"calls", calls}, {"rows", n}}));
  }

 private:
  ValueState<int64_t> calls_;
  ValueState<int64_t> rows_;
  RowShapes shapes_;
};

class LateTimerProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    fired_ = handle.getValueState<int64_t>("fired");
  }
  void handleInputRows(const Row&, RowRange rows, const TimerValues&, Output&) override {
    for (const Row& row : rows) {
      Value v = row.get("value");
      if (v.isNull()) continue;
      auto t = v.castTo(Type::kTimestamp);
      if (!t.ok()) throw std::invalid_argument("late_timer: value '" + v.toString() + "' is not a timestamp");
      getHandle().registerTimer(t->asLong());
    }
  }
  void handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                          const ExpiredTimerInfo& info, Output& out) override {
    fired_.update(fired_.getOption().value_or(0) + 1);
    out.emit(withKey(shapes_, key, {{"due", Value::timestamp(info.getExpiryTimeInMs())},
                           {"fired_at", Value::timestamp(timerValues.getCurrentProcessingTimeInMs())}}));
  }

 private:
  ValueState<int64_t> fired_;
  RowShapes shapes_;
};

}  // namespace
}  // namespace processors

namespace detail {
void registerSparkRealTimeProcessors(ProcessorSet& set);     // processors/spark_real_time_processors.cc
void registerSparkRealTimeTtlProcessors(ProcessorSet& set);  // processors/spark_real_time_ttl_processors.cc
}  // namespace detail

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerRealTimeProcessors(ProcessorSet& set) {
  set.add("call_counter", processorFactoryOf<processors::CallCounterProcessor>());
  set.add("late_timer", processorFactoryOf<processors::LateTimerProcessor>());
  registerSparkRealTimeProcessors(set);
  registerSparkRealTimeTtlProcessors(set);
}
}  // namespace detail

}  // namespace streamsim
