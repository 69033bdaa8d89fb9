// RearmTimerProcessor (rearm_timer_processor.h).
#include "bench/rearm_timer_processor.h"

namespace streamsim::bench {

void RearmTimerProcessor::init(StatefulProcessorHandle& handle) {
  seen_ = handle.getValueState<int64_t>("seen");
}

void RearmTimerProcessor::handleInputRows(const Row& key, RowRange rows,
                                          const TimerValues& timerValues, Output& out) {
  (void)key;
  (void)out;
  int64_t seen = seen_.exists() ? seen_.get() : 0;
  if (seen == 0) {
    // The first minute boundary after the batch time.
    TimeMs now = timerValues.getCurrentProcessingTimeInMs();
    getHandle().registerTimer((now / kRearmIntervalMs + 1) * kRearmIntervalMs);
  }
  seen_.update(seen + static_cast<int64_t>(rows.size()));
}

void RearmTimerProcessor::handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                                             const ExpiredTimerInfo& expiredTimerInfo,
                                             Output& out) {
  (void)key;
  (void)timerValues;
  (void)out;
  getHandle().registerTimer(expiredTimerInfo.getExpiryTimeInMs() + kRearmIntervalMs);
}

}  // namespace streamsim::bench
