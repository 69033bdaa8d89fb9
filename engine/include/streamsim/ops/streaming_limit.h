// Spark's limit on a streaming DataFrame (DataFrame::limit): StreamingGlobalLimitExec
// (sql/core/.../streaming/operators/stateful/streamingLimits.scala), planned by
// SparkStrategies.StreamingGlobalLimitStrategy when the limit's input is appends (Append mode,
// or Complete mode with no streaming aggregation before it): the count of rows let through so
// far is the state (one row, a null key, in partition 0's store: AllTuples), each batch passes
// rows until the count reaches the limit, across batches and restarts. After a streaming
// aggregation in Complete mode the limit is a batch limit of each batch's result (no state).
// UnsupportedOperationChecker refuses a limit in Update mode (_LEGACY_ERROR_TEMP_3102).
#pragma once

#include <cstdint>
#include <memory>

#include "streamsim/operator.h"

namespace streamsim {

std::unique_ptr<Operator> makeStreamingLimit(int64_t limit);

}  // namespace streamsim
