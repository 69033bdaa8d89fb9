// The recorded records of a Kafka source for `replay --checkpoint ... --kafka-records FILE`
// (checkpoint_replay.h): a JSON-lines file, one record a line,
//   {"topic":"events","partition":0,"offset":17,"key":"a","value":"...","timestamp":1734074071551}
// (key may be null or absent; timestamp, the record's CreateTime in ms, defaults to 0) — what
// `kafka-console-consumer --property print.offset=true ...` or a small consumer writes out. Loaded
// into a simulated Kafka log at their own offsets. Plain functions; no shared state.
#pragma once

#include <memory>
#include <string>

#include "streamsim/env.h"
#include "streamsim/io/kafka_log.h"
#include "streamsim/sim/kafka_log.h"
#include "streamsim/status.h"

namespace streamsim::harness::detail {

// The records of `path` (read through `real`) in a new log holding `topic` with at least
// `minPartitions` partitions (as many as the records or the checkpoint's offsets name), every
// record at its recorded offset and readable from `atMs`. Offsets before a partition's first
// recorded one hold placeholder records a replay never reads (it starts at the checkpoint's
// offsets, and a start before the first recorded offset is refused by the caller).
// InvalidArgument naming path:line for a line that is not such a record, a record of another
// topic, and offsets that are not consecutive within a partition.
struct RecordedKafka {
  std::shared_ptr<sim::KafkaLog> log;
  std::map<int, int64_t> firstOffset;  // partition -> its first recorded offset
  std::map<int, int64_t> endOffset;    // partition -> one past its last recorded offset
};
Result<RecordedKafka> loadKafkaRecords(const Env& real, const std::string& path, const std::string& topic,
                                       int minPartitions, TimeMs atMs);

}  // namespace streamsim::harness::detail
