// Real-time mode's checks before a query starts (query/real_time_execution.cc).
#pragma once

#include "streamsim/query.h"

namespace streamsim {

// INVALID_STREAMING_REAL_TIME_MODE_TRIGGER_INTERVAL when the batch duration is not positive or
// below spark.sql.streaming.realTimeMode.minBatchDuration; sets the RocksDB state store unless
// the stateStore option was given (real-time mode's default provider).
Status prepareRealTimeOptions(QueryOptions& options);

}  // namespace streamsim
