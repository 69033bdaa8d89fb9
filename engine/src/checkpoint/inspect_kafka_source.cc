// The inspector's look at a Kafka source (checkpoint_inspector.h): its initial offsets file and
// the records each batch read.
#include <map>
#include <set>

#include <fmt/format.h>

#include "checkpoint/checkpoint_inspector.h"
#include "checkpoint/json_util.h"
#include "streamsim/json_nesting.h"

namespace streamsim::detail {

// Kafka offsets JSON {"topic":{"partition":offset}} -> (topic, partition) -> offset; nullopt
// when the text is not that shape.
std::optional<std::map<std::pair<std::string, int>, int64_t>> CheckpointInspector::kafkaOffsets(
    std::string_view text) {
  auto j = parseJsonBounded<detail::OJson>(text);
  if (j.is_discarded() || !j.is_object() || j.empty()) return std::nullopt;
  std::map<std::pair<std::string, int>, int64_t> out;
  for (const auto& [topic, parts] : j.items()) {
    if (!parts.is_object()) return std::nullopt;
    for (const auto& [p, off] : parts.items()) {
      if (!off.is_number_integer() || p.empty() ||
          p.find_first_not_of("0123456789") != std::string::npos || p.size() > 9)
        return std::nullopt;
      out[{topic, std::stoi(p)}] = off.get<int64_t>();
    }
  }
  return out;
}

// sources/<i>/ of a Kafka source holds one file, 0: the initial offsets (a zero byte, "v1\n",
// the offsets JSON). True when `dir` is that (reported, with the records per batch).
bool CheckpointInspector::readKafkaSource(int i, const std::string& dir) {
  std::string path = joinPath(dir, "0");
  auto content = env_.fs->exists(path) ? env_.fs->read(path) : Result<std::string>(std::string());
  if (!content.ok()) return false;
  std::string_view text = *content;
  KafkaSourceReport k;
  k.sourceIndex = i;
  k.path = path;
  if (!text.empty() && text[0] == '\0') {
    k.zeroBytePrefix = true;
    text.remove_prefix(1);
  }
  // Without the initial offsets file, a batch's offsets alone tell a Kafka source.
  bool batchOffsetsAreKafka = false;
  for (const auto& [id, b] : batches_)
    if (b.hasOffsets && static_cast<size_t>(i) < b.sourceOffsets.size() && b.sourceOffsets[i])
      batchOffsetsAreKafka = kafkaOffsets(*b.sourceOffsets[i]).has_value();
  std::optional<std::map<std::pair<std::string, int>, int64_t>> initial;
  size_t nl = text.find('\n');
  if (text.size() > 2 && text[0] == 'v' && nl != std::string_view::npos) {
    std::string_view v = text.substr(1, nl - 1);
    if (!v.empty() && v.find_first_not_of("0123456789") == std::string_view::npos) {
      initial = kafkaOffsets(text.substr(nl + 1));
      if (initial) k.version = std::stoi(std::string(v));
    }
  }
  if (!initial && !batchOffsetsAreKafka) return false;
  if (initial) {
    k.initialOffsetsJson = std::string(detail::trimView(text.substr(nl + 1)));
    std::set<std::string> topics;
    for (const auto& [tp, off] : *initial) topics.insert(tp.first);
    k.topics = static_cast<int>(topics.size());
    k.partitions = static_cast<int>(initial->size());
  } else if (env_.fs->exists(path)) {
    add(DiagnosisKind::kUnreadable,
        fmt::format("{}: a Kafka source's initial offsets file should be a zero byte (optional), "
                    "\"v1\" and a line of offsets JSON {{\"topic\":{{\"0\":123}}}}", path),
        {}, {path});
  }
  // Records per batch: this batch's offsets minus the previous batch's (or the initial ones).
  auto prev = initial;
  for (auto& [id, b] : batches_) {
    if (!b.hasOffsets || static_cast<size_t>(i) >= b.sourceOffsets.size() || !b.sourceOffsets[i])
      continue;
    auto cur = kafkaOffsets(*b.sourceOffsets[i]);
    BatchSourceFiles s;
    s.sourceIndex = i;
    if (!cur) {
      add(DiagnosisKind::kUnreadable,
          fmt::format("offsets/{}: source {} is a Kafka source but its offset is not Kafka "
                      "offsets JSON: {}", id, i, *b.sourceOffsets[i]),
          {id}, {joinPath(report_.root, "offsets/" + std::to_string(id))});
      continue;
    }
    if (prev) {
      int64_t records = 0;
      for (const auto& [tp, off] : *cur) {
        auto it = prev->find(tp);
        if (it != prev->end() && off > it->second) records += off - it->second;
      }
      s.kafkaRecords = records;
    }
    b.sourceFiles.push_back(std::move(s));
    prev = cur;
  }
  report_.kafkaSources.push_back(std::move(k));
  return true;
}

}  // namespace streamsim::detail
