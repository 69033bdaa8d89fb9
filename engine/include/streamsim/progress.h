// The per-batch progress record, like Spark's StreamingQueryProgress (DESIGN.md §3). Built by
// the batch loop, kept by the query (lastProgress / recentProgress) and written to the trace.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "streamsim/time.h"

namespace streamsim {

struct SourceProgress {
  std::string description;
  std::string startOffset;  // JSON, or "" for none
  std::string endOffset;
  int64_t numInputRows = 0;
};

struct StateOperatorProgress {
  std::string operatorName;
  int64_t numRowsTotal = 0;
  int64_t numRowsUpdated = 0;
  int64_t numRowsRemoved = 0;
  int64_t numRowsDroppedByWatermark = 0;
  int64_t numTimersFired = 0;          // transformWithState (Spark's numExpiredTimers)
  int64_t numValuesRemovedByTTL = 0;   // transformWithState (numValuesRemovedDueToTTLExpiry)
  // transformWithState's other custom metrics, as Spark counts them (summed over the partition
  // tasks): registerTimer / deleteTimer calls (a fired timer's removal counts as a delete), and
  // the state variables each task's init() created, by kind, without and with TTL.
  int64_t numRegisteredTimers = 0;
  int64_t numDeletedTimers = 0;
  // deleteIfExists calls that found the variable in the task's partition (Spark: the store had
  // its column family; streamsim: it held rows of the variable or its TTL index).
  int64_t numDeletedStateVars = 0;
  int64_t numValueStateVars = 0, numListStateVars = 0, numMapStateVars = 0;
  int64_t numValueStateWithTTLVars = 0, numListStateWithTTLVars = 0, numMapStateWithTTLVars = 0;
  // Values (list elements, map entries) the TTL cleanup removed, per state variable (streamsim's
  // addition; sums to numValuesRemovedByTTL), in declaration order, variables with TTL only.
  std::vector<std::pair<std::string, int64_t>> ttlRemovedByVariable;
  int64_t numShufflePartitions = 0;
};

struct EventTimeStats {
  std::optional<TimeMs> min, max;
  std::optional<double> avg;
  TimeMs watermark = 0;  // the watermark this batch ran with
};

// Real-time mode: end-to-end latency of the batch's output records in virtual time, from the
// arrival of the input record to the sink's delivery (nearest-rank percentiles).
struct LatencyStats {
  int64_t count = 0;  // output records with an input (timer output has none)
  DurationMs p50 = 0, p95 = 0, p99 = 0, max = 0;
  // Over `latencies` (any order); count 0 for none.
  static LatencyStats of(std::vector<DurationMs> latencies);
};

struct QueryProgress {
  std::string id;
  std::string runId;
  int64_t batchId = -1;
  TimeMs timestamp = 0;  // batchTimestampMs
  int64_t numInputRows = 0;
  int64_t numOutputRows = 0;
  int64_t numRowsDroppedByWatermark = 0;  // over all operators
  EventTimeStats eventTime;
  std::vector<SourceProgress> sources;
  std::vector<StateOperatorProgress> stateOperators;
  bool rerun = false;  // this batch re-ran an offsets entry that had no commit
  // Real-time mode only: the batch's span in virtual time and its output latency.
  std::optional<DurationMs> batchDurationMs;
  std::optional<LatencyStats> latency;

  std::string toJson() const;
};

}  // namespace streamsim
