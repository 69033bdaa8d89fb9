// Streaming deduplication operators (SEMANTICS.md §4): dropDuplicates and
// dropDuplicatesWithinWatermark, with their state in one store per shuffle partition.
// Each returned Operator belongs to one query run and is driven by one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "streamsim/operator.h"

namespace streamsim {

// dropDuplicates(cols): the first row of each key passes, later ones (in this batch or any
// earlier one) are dropped. Empty `cols` means all columns (Spark's dropDuplicates()).
// With a watermark upstream, late rows (eventTime <= the previous batch's watermark) are
// dropped, as Spark does whether or not the event-time column is a key column. Keys are kept
// forever unless the event-time column is among `cols` (or cols is empty) and a watermark is
// set; then a key is evicted once its event time <= this batch's watermark.
// Changing `cols` between restarts of one checkpoint fails start() (FailedPrecondition).
// State: key = ordered encoding of `cols`; value = "" or, when the key holds the event time,
// that time as 8 bytes big-endian (so eviction need not decode keys).
std::unique_ptr<Operator> makeDropDuplicates(std::vector<std::string> cols);

// dropDuplicatesWithinWatermark(cols): requires a watermark (start() fails otherwise). Emits
// the first row of a key and keeps the key until the watermark passes eventTime + delay
// (evicted when evictionWatermark >= expiresAt); late rows are dropped.
// State: key = ordered encoding of `cols`; value = expiresAtMs as 8 bytes big-endian.
std::unique_ptr<Operator> makeDropDuplicatesWithinWatermark(std::vector<std::string> cols);

}  // namespace streamsim
