// The simulated Kafka-like log (DESIGN.md §4, §5b): the PartitionedLog of the engine
// (io/kafka_log.h) in virtual time. Topics have a fixed number of partitions; a record's
// partition is given or chosen from its key (the engine's stable hash, as Kafka's default
// partitioner hashes the key bytes; records without a key go round robin). A record becomes
// readable at its append time, which never goes backwards within a partition. Retention
// (retentionMs > 0) hides records appended more than retentionMs before the reader's now. A
// producer with `duplicates` resends a record after a lost acknowledgement: the log then holds
// it twice, at consecutive offsets — what Kafka's at-least-once producer does without
// idempotence. Lives outside the engine (a shared_ptr held by the test), so it survives crashes.
// Not thread-safe: one simulated run.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/io/kafka_log.h"

namespace streamsim::sim {

struct TopicConfig {
  int partitions = 1;
  DurationMs retentionMs = 0;  // 0: keep everything
};

class KafkaLog final : public PartitionedLog {
 public:
  // AlreadyExists-like FailedPrecondition when the topic exists with other settings.
  Status createTopic(const std::string& topic, TopicConfig config);
  bool hasTopic(const std::string& topic) const { return topics_.count(topic) > 0; }

  Result<int> numPartitions(const std::string& topic) const override;
  int64_t earliestOffset(const std::string& topic, int partition, TimeMs nowMs) const override;
  int64_t endOffset(const std::string& topic, int partition, TimeMs visibleAtMs) const override;
  std::vector<LogRecord> read(const std::string& topic, int partition, int64_t from,
                              int64_t to) const override;
  Result<LogRecord> append(LogRecord record, TimeMs atMs, int partition = -1) override;

  // A producer's send at `atMs` (CreateTime = atMs); `duplicates` extra copies follow it (a
  // retried send whose first acknowledgement was lost).
  Result<LogRecord> produce(const std::string& topic, std::optional<std::string> key,
                            std::string value, TimeMs atMs, int partition = -1,
                            int duplicates = 0);

  // Every record of a topic, partition by partition, in offset order (for sink views).
  std::vector<LogRecord> all(const std::string& topic) const;
  // The topics, by name.
  std::vector<std::string> topicNames() const override;

 private:
  struct Topic {
    TopicConfig config;
    std::vector<std::vector<LogRecord>> partitions;
    int64_t roundRobin = 0;
  };
  const Topic* find(const std::string& topic) const;
  std::map<std::string, Topic> topics_;
};

}  // namespace streamsim::sim
