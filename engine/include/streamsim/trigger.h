// Triggers (SEMANTICS.md §5): when the next micro-batch starts.
#pragma once

#include <string>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim {

// Real-time mode's batch duration: default 5 minutes; the least allowed is
// spark.sql.streaming.realTimeMode.minBatchDuration (default 5 s) — SEMANTICS.md §7.
inline constexpr DurationMs kDefaultRealTimeBatchMs = 5 * 60 * 1000;
inline constexpr DurationMs kDefaultRealTimeMinBatchMs = 5000;

struct Trigger {
  enum class Kind { kDefault, kProcessingTime, kAvailableNow, kOnce, kRealTime };
  Kind kind = Kind::kDefault;
  DurationMs intervalMs = 0;  // kProcessingTime: the interval; kRealTime: the batch duration

  static Trigger Default() { return {}; }
  static Trigger ProcessingTime(DurationMs interval) { return {Kind::kProcessingTime, interval}; }
  static Trigger AvailableNow() { return {Kind::kAvailableNow, 0}; }
  static Trigger Once() { return {Kind::kOnce, 0}; }
  // Long batches of `batchDuration` (a checkpoint interval): records are processed and emitted
  // as they arrive (real-time mode, SEMANTICS.md §7; query/real_time_execution.cc).
  static Trigger RealTime(DurationMs batchDuration = kDefaultRealTimeBatchMs) {
    return {Kind::kRealTime, batchDuration};
  }

  // Batches start at multiples of the interval: floor(now/interval)*interval + interval
  // (Spark's ProcessingTimeExecutor.nextBatchTime). For other kinds: now.
  TimeMs nextBatchTime(TimeMs now) const {
    if (kind != Kind::kProcessingTime || intervalMs <= 0) return now;
    return now / intervalMs * intervalMs + intervalMs;
  }
  std::string toString() const;
};

}  // namespace streamsim
