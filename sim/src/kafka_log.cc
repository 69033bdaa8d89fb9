// The simulated Kafka-like log (sim/kafka_log.h).
#include "streamsim/sim/kafka_log.h"

#include <algorithm>

#include <fmt/format.h>

#include "streamsim/io/kafka_log.h"
#include "streamsim/ops/partitioning.h"

namespace streamsim::sim {

Status KafkaLog::createTopic(const std::string& topic, TopicConfig config) {
  if (topic.empty()) return Status::InvalidArgument("a topic needs a name");
  STREAMSIM_RETURN_IF_ERROR(validateKafkaTopicName(topic));
  if (config.partitions < 1)
    return Status::InvalidArgument(
        fmt::format("topic '{}': partitions must be >= 1, got {}", topic, config.partitions));
  if (config.retentionMs < 0)
    return Status::InvalidArgument(
        fmt::format("topic '{}': retention must be >= 0 ms, got {}", topic, config.retentionMs));
  auto it = topics_.find(topic);
  if (it != topics_.end()) {
    if (it->second.config.partitions != config.partitions ||
        it->second.config.retentionMs != config.retentionMs)
      return Status::FailedPrecondition(fmt::format(
          "topic '{}' exists with {} partition(s) and retention {} ms; asked for {} and {} ms",
          topic, it->second.config.partitions, it->second.config.retentionMs, config.partitions,
          config.retentionMs));
    return Status::OK();
  }
  Topic t;
  t.config = config;
  t.partitions.resize(static_cast<size_t>(config.partitions));
  topics_.emplace(topic, std::move(t));
  return Status::OK();
}

const KafkaLog::Topic* KafkaLog::find(const std::string& topic) const {
  auto it = topics_.find(topic);
  return it == topics_.end() ? nullptr : &it->second;
}

Result<int> KafkaLog::numPartitions(const std::string& topic) const {
  const Topic* t = find(topic);
  if (t == nullptr) {
    std::string known;
    for (const auto& [name, _] : topics_) known += (known.empty() ? "" : ", ") + name;
    return Status::NotFound(fmt::format("topic '{}' does not exist (topics: {})", topic,
                                        known.empty() ? "none" : known));
  }
  return t->config.partitions;
}

int64_t KafkaLog::earliestOffset(const std::string& topic, int partition, TimeMs nowMs) const {
  const Topic* t = find(topic);
  if (t == nullptr || partition < 0 || partition >= t->config.partitions) return 0;
  const auto& recs = t->partitions[static_cast<size_t>(partition)];
  if (t->config.retentionMs <= 0) return 0;
  const TimeMs cutoff = nowMs - t->config.retentionMs;
  auto it = std::lower_bound(recs.begin(), recs.end(), cutoff,
                             [](const LogRecord& r, TimeMs c) { return r.appendTime < c; });
  return it == recs.end() ? static_cast<int64_t>(recs.size()) : it->offset;
}

int64_t KafkaLog::endOffset(const std::string& topic, int partition, TimeMs visibleAtMs) const {
  const Topic* t = find(topic);
  if (t == nullptr || partition < 0 || partition >= t->config.partitions) return 0;
  const auto& recs = t->partitions[static_cast<size_t>(partition)];
  auto it = std::upper_bound(recs.begin(), recs.end(), visibleAtMs,
                             [](TimeMs v, const LogRecord& r) { return v < r.appendTime; });
  return static_cast<int64_t>(it - recs.begin());
}

std::vector<LogRecord> KafkaLog::read(const std::string& topic, int partition, int64_t from,
                                      int64_t to) const {
  std::vector<LogRecord> out;
  const Topic* t = find(topic);
  if (t == nullptr || partition < 0 || partition >= t->config.partitions) return out;
  const auto& recs = t->partitions[static_cast<size_t>(partition)];
  from = std::max<int64_t>(from, 0);
  to = std::min<int64_t>(to, static_cast<int64_t>(recs.size()));
  for (int64_t o = from; o < to; ++o) out.push_back(recs[static_cast<size_t>(o)]);
  return out;
}

Result<LogRecord> KafkaLog::append(LogRecord r, TimeMs atMs, int partition) {
  const std::string topic = r.topic;
  auto it = topics_.find(topic);
  if (it == topics_.end()) return numPartitions(topic).status();
  Topic& t = it->second;
  if (partition >= t.config.partitions)
    return Status::InvalidArgument(fmt::format("topic '{}' has {} partition(s): there is no partition {}",
                                               topic, t.config.partitions, partition));
  if (partition < 0) {
    partition = r.key ? ops::partitionOf(*r.key, t.config.partitions)
                    : static_cast<int>(t.roundRobin++ % t.config.partitions);
  }
  auto& recs = t.partitions[static_cast<size_t>(partition)];
  r.partition = partition;
  r.offset = static_cast<int64_t>(recs.size());
  r.appendTime = recs.empty() ? atMs : std::max(atMs, recs.back().appendTime);
  recs.push_back(r);
  return r;
}

Result<LogRecord> KafkaLog::produce(const std::string& topic, std::optional<std::string> key,
                                    std::string value, TimeMs atMs, int partition,
                                    int duplicates) {
  LogRecord r;
  r.topic = topic;
  r.key = std::move(key);
  r.value = std::move(value);
  r.timestamp = atMs;
  STREAMSIM_ASSIGN_OR_RETURN(LogRecord first, append(r, atMs, partition));
  for (int i = 0; i < duplicates; ++i)
    STREAMSIM_RETURN_IF_ERROR(append(r, atMs, first.partition).status());
  return first;
}

std::vector<LogRecord> KafkaLog::all(const std::string& topic) const {
  std::vector<LogRecord> out;
  const Topic* t = find(topic);
  if (t == nullptr) return out;
  for (const auto& p : t->partitions) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::vector<std::string> KafkaLog::topicNames() const {
  std::vector<std::string> out;
  for (const auto& [name, topic] : topics_) out.push_back(name);
  return out;
}

}  // namespace streamsim::sim
