// The Kafka source's options and consumer strategy (io/kafka_source.h), as Spark's
// KafkaSourceProvider.validateGeneralOptions / validateStreamOptions and ConsumerStrategy.scala
// (connector/kafka-0-10-sql/.../kafka010/) have them: exactly one of `subscribe` (a comma-separated
// list of topics), `subscribePattern` (a regular expression found in a topic's name) or `assign`
// (JSON {"topic":[0,1]}), and which topic-partitions that strategy reads in a log now.
#pragma once

#include <map>
#include <optional>
#include <memory>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "streamsim/io/kafka_log.h"

namespace streamsim::detail {

using TopicPartition = std::pair<std::string, int>;

// "topic-partition", as Kafka's TopicPartition.toString.
std::string topicPartitionName(const TopicPartition& tp);

struct KafkaStrategy {
  enum class Kind { kSubscribe, kSubscribePattern, kAssign };
  Kind kind = Kind::kSubscribe;
  std::vector<std::string> topics;          // kSubscribe: as given, blanks dropped
  std::string pattern;                      // kSubscribePattern: as given, trimmed
  std::shared_ptr<const std::regex> regex;  // kSubscribePattern
  std::vector<TopicPartition> assigned;     // kAssign: in the JSON's order

  // ConsumerStrategy.assignedTopicPartitions: subscribe, the partitions of the topics that exist;
  // a pattern, of every topic whose name the pattern is found in (Regex.findFirstIn); assign, the
  // partitions named that exist. Sorted by topic, then partition.
  std::vector<TopicPartition> assignedTopicPartitions(const PartitionedLog& log) const;
  // Subscribe[a, b] / SubscribePattern[p] / Assign[t-0, t-1] (the strategy's toString).
  std::string toString() const;
};

struct KafkaSourceOptions {
  KafkaStrategy strategy;
  std::string startingOffsets = "latest";
  bool failOnDataLoss = true;
  int64_t maxOffsetsPerTrigger = 0;  // 0: unlimited
  // KafkaSourceProvider.getKafkaOffsetRangeLimit's preferences: startingTimestamp (every
  // partition from the earliest offset whose timestamp is >= it), else startingOffsetsByTimestamp
  // (per topic-partition, naming every one read), else startingOffsets.
  std::optional<int64_t> startingTimestamp;
  std::optional<KafkaOffsets> startingOffsetsByTimestamp;  // topic -> partition -> timestamp
  // startingOffsetsByTimestampStrategy: no matching offset fails the query ("error", the default)
  // or starts that partition at its latest offset ("latest").
  bool noTimestampMatchStartsAtLatest = false;
  // includeHeaders: a `headers` column, array<struct<key string, value binary>> (null for a record
  // without headers), after timestampType (KafkaRecordToRowConverter).
  bool includeHeaders = false;
};

// Spark's messages (IllegalArgumentException there) as InvalidArgument.
Result<KafkaSourceOptions> parseKafkaSourceOptions(const std::map<std::string, std::string>& options);

}  // namespace streamsim::detail
