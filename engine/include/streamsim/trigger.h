// Triggers (SEMANTICS.md §5): when the next micro-batch starts.
#pragma once

#include <string>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim {

struct Trigger {
  enum class Kind { kDefault, kProcessingTime, kAvailableNow, kOnce };
  Kind kind = Kind::kDefault;
  DurationMs intervalMs = 0;  // kProcessingTime only

  static Trigger Default() { return {}; }
  static Trigger ProcessingTime(DurationMs interval) { return {Kind::kProcessingTime, interval}; }
  static Trigger AvailableNow() { return {Kind::kAvailableNow, 0}; }
  static Trigger Once() { return {Kind::kOnce, 0}; }

  // Batches start at multiples of the interval: floor(now/interval)*interval + interval
  // (Spark's ProcessingTimeExecutor.nextBatchTime). For other kinds: now.
  TimeMs nextBatchTime(TimeMs now) const {
    if (kind != Kind::kProcessingTime || intervalMs <= 0) return now;
    return now / intervalMs * intervalMs + intervalMs;
  }
  std::string toString() const;
};

}  // namespace streamsim
