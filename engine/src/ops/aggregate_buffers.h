// The aggregation buffers of streaming aggregation (ops/window_aggregation.h), after Spark's
// DeclarativeAggregate / TypedImperativeAggregate functions in catalyst/expressions/aggregate/:
// Count.scala, Sum.scala, Average.scala, Max.scala, Min.scala, First.scala, Last.scala,
// collect.scala (CollectList, CollectSet). One buffer per aggregate: created fresh, updated with
// rows (update), merged with the buffer of a later part of the same group (merge: session
// windows join sessions), stored (encode/decode) and finished (the result value).
// Internal to engine/src/ops; pure functions over values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "streamsim/ops/window_aggregation.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim::ops {

std::string_view aggregateFunctionName(AggregateFunction f);

// One aggregate's running value: `a`, and `b` where the function has two buffer slots (avg: the
// count; first / last: valueSet, as First.scala's and Last.scala's buffers).
struct AggBuffer {
  Value a;
  Value b;
};

std::vector<AggBuffer> freshBuffers(const std::vector<Aggregate>& aggs);
// Format byte 0x01, then per aggregate its slots as encodeOrderedValue (row_encoding.h);
// approx_count_distinct's slots are its register words.
std::string encodeBuffers(const std::vector<Aggregate>& aggs, const std::vector<AggBuffer>& buffers);
Result<std::vector<AggBuffer>> decodeBuffers(const std::vector<Aggregate>& aggs, std::string_view in);
// Adds one input row. `ansi`: a long sum that overflows is ARITHMETIC_OVERFLOW (Sum.scala's Add
// with the ANSI eval mode); otherwise it wraps.
Status updateBuffers(const std::vector<Aggregate>& aggs, std::vector<AggBuffer>& buffers, const Row& row, bool ansi);
// Merges `later` (rows that come after `into`'s) into `into`.
Status mergeBuffers(const std::vector<Aggregate>& aggs, std::vector<AggBuffer>& into,
                    const std::vector<AggBuffer>& later, bool ansi);
Value finalValue(const Aggregate& agg, const AggBuffer& b);

}  // namespace streamsim::ops
