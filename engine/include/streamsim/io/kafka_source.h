// The Kafka-like source and sink (DESIGN.md §5b) over a PartitionedLog (io/kafka_log.h), usable
// in micro-batch and real-time mode.
//
// Source (Spark's KafkaMicroBatchStream / KafkaSource; options as KafkaSourceProvider): exactly
// one of `subscribe` (comma-separated topics), `subscribePattern` (a regular expression found in
// a topic's name; ECMAScript syntax where Java's differs) or `assign` (JSON {"topic":[0,1]});
// `startingOffsets` (latest — Spark's default for streaming —, earliest, or offset JSON per
// topic-partition naming every assigned one, -2 = earliest, -1 = latest), `failOnDataLoss`
// (true: reading from an offset retention already deleted fails the batch; false: skips to the
// earliest retained), `maxOffsetsPerTrigger` (micro-batch: at most this many records per batch,
// split over partitions in proportion to their backlog). Option names are case-insensitive.
// Which topic-partitions are read is asked of the log at every batch, so a topic created later
// that a pattern or subscription names is read from its earliest offset (Spark's new
// partitions). Rows: key, value (STRING, or BINARY as Spark's with binaryKeyValue), topic string,
// partition int, offset long, timestamp timestamp, timestampType int (0 = CreateTime). The
// initial offsets are resolved once, at the first start of a checkpoint, and kept in
// sources/<i>/0 ("v1" then the offset JSON), so a re-run of batch 0 after a crash reads the same
// records. Offsets in offsets/N: Spark's Kafka offset JSON {"topic":{"0":23,"1":10}} (next offset
// to read). One reader task per topic-partition, in topic then partition order.
//
// Sink (Spark's KafkaSink; at least once): every row becomes one record of `topic`: the value is
// the row's `value` column when it has one, else the row as JSON (Spark requires a value column;
// streamsim takes the whole row so query output can be read back without a select), the key its
// `key` column if any. A batch re-run after a crash appends its records again. Each record
// carries the header streamsim.batch = the batch id that wrote it (for the oracles' reports).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "streamsim/io/kafka_log.h"
#include "streamsim/query.h"

namespace streamsim {

// The source's row schema: key and value STRING, or BINARY (Spark's) with binaryKeyValue; with
// includeHeaders (the option) a last column headers array<struct<key string, value binary>>.
SchemaPtr kafkaSourceSchema(bool binaryKeyValue = false, bool includeHeaders = false);
// Whether the options ask for the headers column (includeHeaders=true, any case).
bool kafkaOptionsIncludeHeaders(const std::map<std::string, std::string>& options);

// InvalidArgument naming the option when one is unknown or malformed (Spark's
// KafkaSourceProvider messages where it has one).
Result<SourceFactory> makeKafkaSource(std::shared_ptr<PartitionedLog> log,
                                      std::map<std::string, std::string> options,
                                      bool binaryKeyValue = false);

inline constexpr const char* kKafkaBatchHeader = "streamsim.batch";

SinkFactory makeKafkaSink(std::shared_ptr<PartitionedLog> log, std::string topic);

}  // namespace streamsim
