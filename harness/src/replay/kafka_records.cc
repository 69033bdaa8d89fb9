// kafka_records.h.
#include "kafka_records.h"

#include <map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace streamsim::harness::detail {

constexpr int64_t kMaxPlaceholders = 1'000'000;

Result<RecordedKafka> loadKafkaRecords(const Env& real, const std::string& path, const std::string& topic,
                                       int minPartitions, TimeMs atMs) {
  auto text = real.fs->read(path);
  if (!text.ok()) return Status::NotFound(fmt::format("--kafka-records {}: {}", path, text.status().message()));
  std::map<int, std::vector<LogRecord>> byPartition;
  size_t line = 0, pos = 0;
  while (pos < text->size()) {
    size_t end = text->find('\n', pos);
    if (end == std::string::npos) end = text->size();
    std::string_view l(text->data() + pos, end - pos);
    pos = end + 1;
    ++line;
    if (l.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto bad = [&](const std::string& why) {
      return Status::InvalidArgument(fmt::format(
          "{}:{}: {}; expected a record such as {{\"topic\":\"{}\",\"partition\":0,\"offset\":0,\"key\":\"k\","
          "\"value\":\"v\",\"timestamp\":0}}", path, line, why, topic));
    };
    nlohmann::json j = nlohmann::json::parse(l, nullptr, false);
    if (!j.is_object()) return bad("not a JSON object");
    if (!j.contains("topic") || !j["topic"].is_string()) return bad("no topic");
    if (j["topic"] != topic)
      return bad(fmt::format("topic {} is not the checkpoint's topic", j["topic"].dump()));
    if (!j.contains("partition") || !j["partition"].is_number_integer() || j["partition"].get<int64_t>() < 0 ||
        j["partition"].get<int64_t>() > 100000)
      return bad("no partition number (0 to 100000)");
    if (!j.contains("offset") || !j["offset"].is_number_integer() || j["offset"].get<int64_t>() < 0)
      return bad("no offset (a whole number >= 0)");
    if (!j.contains("value") || !(j["value"].is_string() || j["value"].is_null())) return bad("no value (a string)");
    if (j.contains("key") && !(j["key"].is_string() || j["key"].is_null())) return bad("key is not a string or null");
    if (j.contains("timestamp") && !j["timestamp"].is_number_integer()) return bad("timestamp is not a whole number (ms)");
    LogRecord r;
    r.topic = topic;
    r.partition = static_cast<int>(j["partition"].get<int64_t>());
    r.offset = j["offset"].get<int64_t>();
    if (j.contains("key") && j["key"].is_string()) r.key = j["key"].get<std::string>();
    r.value = j["value"].is_string() ? j["value"].get<std::string>() : std::string();
    r.timestamp = j.value("timestamp", int64_t{0});
    auto& records = byPartition[r.partition];
    if (!records.empty() && r.offset != records.back().offset + 1)
      return bad(fmt::format("offset {} of partition {} does not follow offset {} (records of a partition come in "
                             "offset order, without gaps)", r.offset, r.partition, records.back().offset));
    records.push_back(std::move(r));
  }
  RecordedKafka out;
  out.log = std::make_shared<sim::KafkaLog>();
  int partitions = minPartitions;
  if (!byPartition.empty()) partitions = std::max(partitions, byPartition.rbegin()->first + 1);
  STREAMSIM_RETURN_IF_ERROR(out.log->createTopic(topic, sim::TopicConfig{std::max(partitions, 1), 0}));
  for (auto& [p, records] : byPartition) {
    out.firstOffset[p] = records.front().offset;
    out.endOffset[p] = records.back().offset + 1;
    if (records.front().offset > kMaxPlaceholders)
      return Status::InvalidArgument(fmt::format(
          "{}: partition {} starts at offset {}; a replay holds a partition's offsets from 0, and more than {} "
          "placeholders before the first record are not supported yet", path, p, records.front().offset,
          kMaxPlaceholders));
    for (int64_t o = 0; o < records.front().offset; ++o) {
      LogRecord filler;
      filler.topic = topic;
      STREAMSIM_RETURN_IF_ERROR(out.log->append(filler, atMs, p).status());
    }
    for (LogRecord& r : records) STREAMSIM_RETURN_IF_ERROR(out.log->append(std::move(r), atMs, p).status());
  }
  return out;
}

}  // namespace streamsim::harness::detail
