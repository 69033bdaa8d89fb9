// Built-in processor "timer_at" (docs/processors.md): registers a processing-time timer at the
// time each input row names (`fire_at`, a timestamp, possibly already in the past), for the
// timer scenarios (scenarios/timers/: SPARK-56566, a timer registered in the past, must still
// fire at the next timer scan). Emits {key..., fired_at: timestamp} when a timer fires and
// counts its input in ValueState<long> "rows". Needs TimeMode ProcessingTime. One instance per
// partition task; not thread-safe.
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {
namespace processors {
namespace {

class TimerAtProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    rows_ = handle.getValueState<int64_t>("rows");
  }

  void handleInputRows(const Row&, RowRange rows, const TimerValues&, Output&) override {
    int64_t n = rows_.exists() ? rows_.get() : 0;
    for (const Row& row : rows) {
      Value at = row.has("fire_at") ? row.get("fire_at") : Value();
      if (!at.isNull()) getHandle().registerTimer(at.asLong());
      ++n;
    }
    rows_.update(n);
  }

  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo& info,
                          Output& out) override {
    out.emit(withKey(shapes_, key, {{"fired_at", Value::timestamp(info.getExpiryTimeInMs())}}));
  }

 private:
  ValueState<int64_t> rows_;
  RowShapes shapes_;
};

}  // namespace
}  // namespace processors

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerTimerAtProcessor(ProcessorSet& set) {
  set.add("timer_at", processorFactoryOf<processors::TimerAtProcessor>());
}
}  // namespace detail

}  // namespace streamsim
