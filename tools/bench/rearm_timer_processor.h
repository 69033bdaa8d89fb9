// The processor of bench workload 3 (time acceleration, docs/performance.md): every key holds one
// processing-time timer that fires on each minute boundary and re-arms itself for the next
// minute; input rows only count into ValueState<long> "seen" and arm the first timer.
// Emits nothing. One instance per partition task (engine-owned); not thread-safe.
#pragma once

#include "streamsim/tws/stateful_processor.h"

namespace streamsim::bench {

inline constexpr DurationMs kRearmIntervalMs = 60'000;

class RearmTimerProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;
  void handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                          const ExpiredTimerInfo& expiredTimerInfo, Output& out) override;

 private:
  ValueState<int64_t> seen_;
};

}  // namespace streamsim::bench
