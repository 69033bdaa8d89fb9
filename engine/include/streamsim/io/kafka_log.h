// A Kafka-like partitioned log as the engine sees it (DESIGN.md §5b): topics of numbered
// partitions, each an append-only sequence of records with an offset, a key, a value, a
// timestamp (the producer's CreateTime) and the time it was appended (when a reader can first
// see it: its arrival). The engine declares the interface; sim/ implements it in virtual time
// (sim/kafka_log.h). Offsets in a checkpoint use Spark's Kafka offset JSON (KafkaSourceOffset /
// JsonUtils.partitionOffsets): {"topic":{"0":23,"1":10}} — per partition the next offset to
// read, partitions in ascending order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim {

struct LogRecord {
  std::string topic;
  int partition = 0;
  int64_t offset = 0;
  std::optional<std::string> key;
  std::string value;
  TimeMs timestamp = 0;   // CreateTime: what the producer stamped
  TimeMs appendTime = 0;  // when it became readable (non-decreasing within a partition)
  // Kafka record headers (the sink writes the batch id that produced a record here).
  std::vector<std::pair<std::string, std::string>> headers;
};

class PartitionedLog {
 public:
  virtual ~PartitionedLog() = default;
  // NotFound naming the topic when it does not exist.
  virtual Result<int> numPartitions(const std::string& topic) const = 0;
  // The topics, by name (what a subscribePattern is matched against).
  virtual std::vector<std::string> topicNames() const = 0;
  // The first offset still retained at `nowMs` (retention deletes older records).
  virtual int64_t earliestOffset(const std::string& topic, int partition, TimeMs nowMs) const = 0;
  // One past the last offset appended at or before `visibleAtMs`.
  virtual int64_t endOffset(const std::string& topic, int partition, TimeMs visibleAtMs) const = 0;
  // Records with offset in [from, to), oldest first. REQUIRES: from <= to <= every endOffset.
  virtual std::vector<LogRecord> read(const std::string& topic, int partition, int64_t from,
                                      int64_t to) const = 0;
  // Appends `record` (topic, key, value, timestamp, headers; the rest is assigned) at `atMs`
  // (a producer's send) to `partition`, or to one chosen from the key when -1. Returns the
  // record as stored.
  virtual Result<LogRecord> append(LogRecord record, TimeMs atMs, int partition = -1) = 0;
};

// topic -> partition -> next offset to read.
using KafkaOffsets = std::map<std::string, std::map<int, int64_t>>;

// {"t":{"0":23,"1":10}}: topics in name order, partitions ascending by number (as Spark writes).
std::string kafkaOffsetsJson(const KafkaOffsets& offsets);
// Spark's Kafka offset JSON back; Corruption naming `where` and what was expected otherwise.
Result<KafkaOffsets> parseKafkaOffsets(std::string_view json, std::string_view where);

// Kafka's rules for a topic name (org.apache.kafka.common.internals.Topic.validate): not empty,
// not "." or "..", at most 249 characters, only ASCII alphanumerics, '.', '_' and '-'.
// InvalidArgument with Kafka's message otherwise.
Status validateKafkaTopicName(std::string_view topic);

}  // namespace streamsim
