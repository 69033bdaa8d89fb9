// The Kafka source's options and consumer strategy (kafka_options.h). Follows Spark 4.1's
// connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/KafkaSourceProvider.scala
// (validateGeneralOptions, validateStreamOptions, strategy), ConsumerStrategy.scala and
// JsonUtils.scala (the `assign` JSON and its message).
#include "kafka_options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "streamsim/json_nesting.h"

namespace streamsim::detail {
namespace {

constexpr int64_t kEarliest = -2;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  return s.substr(b, e - b + 1);
}

// STRATEGY_OPTION_KEYS in its order (a Scala Set of three keeps insertion order).
constexpr const char* kStrategyKeys = "subscribe, subscribepattern, assign";

// JsonUtils.partitions: {"topicA":[0,1],"topicB":[0,1]}, in the JSON's order.
Result<std::vector<TopicPartition>> parseAssign(const std::string& value) {
  auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("Expected e.g. {{\"topicA\":[0,1],\"topicB\":[0,1]}}, got {}", value));
  };
  auto j = parseJsonBounded<nlohmann::ordered_json>(value);
  if (j.is_discarded() || !j.is_object()) return bad();
  std::vector<TopicPartition> out;
  for (auto t = j.begin(); t != j.end(); ++t) {
    if (!t->is_array()) return bad();
    for (const auto& p : *t) {
      if (!p.is_number_integer()) return bad();
      const int64_t n = p.get<int64_t>();
      if (n < INT32_MIN || n > INT32_MAX) return bad();
      out.emplace_back(t.key(), static_cast<int>(n));
    }
  }
  return out;
}

}  // namespace

std::string topicPartitionName(const TopicPartition& tp) { return fmt::format("{}-{}", tp.first, tp.second); }

std::vector<TopicPartition> KafkaStrategy::assignedTopicPartitions(const PartitionedLog& log) const {
  std::set<TopicPartition> out;
  auto addTopic = [&](const std::string& topic) {
    auto n = log.numPartitions(topic);
    if (!n.ok()) return;
    for (int p = 0; p < *n; ++p) out.emplace(topic, p);
  };
  switch (kind) {
    case Kind::kSubscribe:
      for (const std::string& t : topics) addTopic(t);
      break;
    case Kind::kSubscribePattern:
      for (const std::string& t : log.topicNames())
        if (std::regex_search(t, *regex)) addTopic(t);
      break;
    case Kind::kAssign:
      for (const TopicPartition& tp : assigned) {
        auto n = log.numPartitions(tp.first);
        if (n.ok() && tp.second >= 0 && tp.second < *n) out.insert(tp);
      }
      break;
  }
  return {out.begin(), out.end()};
}

std::string KafkaStrategy::toString() const {
  switch (kind) {
    case Kind::kSubscribe: return fmt::format("Subscribe[{}]", fmt::join(topics, ", "));
    case Kind::kSubscribePattern: return fmt::format("SubscribePattern[{}]", pattern);
    case Kind::kAssign: {
      std::vector<std::string> names;
      for (const TopicPartition& tp : assigned) names.push_back(topicPartitionName(tp));
      return fmt::format("Assign[{}]", fmt::join(names, ", "));
    }
  }
  return "";
}

Result<KafkaSourceOptions> parseKafkaSourceOptions(const std::map<std::string, std::string>& options) {
  KafkaSourceOptions o;
  // Option names are case-insensitive (CaseInsensitiveMap).
  std::vector<std::pair<std::string, std::string>> strategies;
  for (const auto& [key, v] : options) {
    const std::string k = lower(key);
    if (k == "subscribe" || k == "subscribepattern" || k == "assign") {
      strategies.emplace_back(k, v);
    } else if (k == "startingoffsets") {
      // latest / earliest in any case, else per-partition offset JSON (getKafkaOffsetRangeLimit).
      o.startingOffsets = trim(v);
      if (lower(o.startingOffsets) == "latest" || lower(o.startingOffsets) == "earliest")
        o.startingOffsets = lower(o.startingOffsets);
    } else if (k == "failondataloss") {
      const std::string b = lower(v);
      if (b != "true" && b != "false")
        return Status::InvalidArgument(fmt::format("option failOnDataLoss: '{}' is not true or false", v));
      o.failOnDataLoss = b == "true";
    } else if (k == "maxoffsetspertrigger") {
      char* end = nullptr;
      long long n = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 1)
        return Status::InvalidArgument(fmt::format("option maxOffsetsPerTrigger: '{}' is not a whole number >= 1", v));
      o.maxOffsetsPerTrigger = n;
    } else if (k == "startingtimestamp") {
      const std::string ts = trim(v);
      char* end = nullptr;
      errno = 0;
      const long long n = std::strtoll(ts.c_str(), &end, 10);
      if (ts.empty() || *end != '\0' || errno == ERANGE)  // getKafkaOffsetRangeLimit's toLong
        return Status::InvalidArgument(fmt::format("Expected a single long value, got {}", ts));
      o.startingTimestamp = n;
    } else if (k == "startingoffsetsbytimestamp") {
      auto parsed = parseKafkaOffsets(trim(v), "option startingOffsetsByTimestamp");
      if (!parsed.ok())  // JsonUtils.partitionTimestamps' message
        return Status::InvalidArgument(fmt::format(
            "Expected e.g. {{\"topicA\": {{\"0\": 123456789, \"1\": 123456789}}, \"topicB\": {{\"0\": "
            "123456789, \"1\": 123456789}}}}, got {}",
            trim(v)));
      o.startingOffsetsByTimestamp = *parsed;
    } else if (k == "startingoffsetsbytimestampstrategy") {
      const std::string strategy = lower(trim(v));
      if (strategy != "error" && strategy != "latest")  // Enumeration.withName
        return Status::InvalidArgument(fmt::format("No value found for '{}'", upper(trim(v))));
      o.noTimestampMatchStartsAtLatest = strategy == "latest";
    } else if (k == "includeheaders") {
      const std::string b = lower(v);  // CaseInsensitiveStringMap.getBoolean
      if (b != "true" && b != "false") return Status::InvalidArgument(fmt::format("{} is not a boolean string.", v));
      o.includeHeaders = b == "true";
    } else if (k == "endingoffsets" || k == "endingoffsetsbytimestamp") {
      // KafkaSourceProvider.validateStreamOptions.
      return Status::InvalidArgument(k == "endingoffsets" ? "ending offset not valid in streaming queries"
                                                          : "ending timestamp not valid in streaming queries");
    } else {
      return Status::InvalidArgument(fmt::format(
          "unknown Kafka source option '{}': expected subscribe, subscribePattern, assign, startingOffsets, "
          "startingTimestamp, startingOffsetsByTimestamp, startingOffsetsByTimestampStrategy, failOnDataLoss, "
          "maxOffsetsPerTrigger, includeHeaders", key));
    }
  }
  if (strategies.empty())
    return Status::InvalidArgument(fmt::format(
        "One of the following options must be specified for Kafka source: {}. See the docs for more details.",
        kStrategyKeys));
  if (strategies.size() > 1)
    return Status::InvalidArgument(fmt::format(
        "Only one of the following options can be specified for Kafka source: {}. See the docs for more details.",
        kStrategyKeys));
  const auto& [key, value] = strategies.front();
  KafkaStrategy& s = o.strategy;
  if (key == "assign") {
    if (trim(value).rfind('{', 0) != 0)
      return Status::InvalidArgument(fmt::format(
          "No topicpartitions to assign as specified value for option 'assign' is '{}'", value));
    s.kind = KafkaStrategy::Kind::kAssign;
    STREAMSIM_ASSIGN_OR_RETURN(s.assigned, parseAssign(value));
  } else if (key == "subscribe") {
    s.kind = KafkaStrategy::Kind::kSubscribe;
    size_t from = 0;
    while (from <= value.size()) {
      size_t comma = value.find(',', from);
      if (comma == std::string::npos) comma = value.size();
      std::string t = trim(value.substr(from, comma - from));
      if (!t.empty()) s.topics.push_back(t);
      from = comma + 1;
    }
    if (s.topics.empty())
      return Status::InvalidArgument(fmt::format(
          "No topics to subscribe to as specified value for option 'subscribe' is '{}'", value));
  } else {
    s.kind = KafkaStrategy::Kind::kSubscribePattern;
    s.pattern = trim(value);
    if (s.pattern.empty())
      return Status::InvalidArgument(fmt::format(
          "Pattern to subscribe is empty as specified value for option 'subscribePattern' is '{}'", value));
    try {
      // java.util.regex there; ECMAScript here (the same for the usual topic patterns:
      // classes, alternation, quantifiers, anchors).
      s.regex = std::make_shared<const std::regex>(s.pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return Status::InvalidArgument(fmt::format(
          "option subscribePattern: '{}' is not a valid regular expression: {}", s.pattern, e.what()));
    }
  }
  for (const std::string& t : s.topics)
    if (Status st = validateKafkaTopicName(t); !st.ok()) return st.withContext("option subscribe");
  for (const TopicPartition& tp : s.assigned)
    if (Status st = validateKafkaTopicName(tp.first); !st.ok()) return st.withContext("option assign");
  if (o.startingOffsets != "latest" && o.startingOffsets != "earliest") {
    auto parsed = parseKafkaOffsets(o.startingOffsets, "option startingOffsets");
    if (!parsed.ok())
      // Spark's JsonUtils.partitionOffsets message.
      return Status::InvalidArgument(fmt::format(
          "Expected e.g. {{\"topicA\":{{\"0\":23,\"1\":-1}},\"topicB\":{{\"0\":-2}}}}, got {}", o.startingOffsets));
    for (const auto& [topic, parts] : *parsed)
      for (const auto& [p, off] : parts)
        if (off < kEarliest)
          // Spark passes such an offset on to the consumer, whose seek refuses it when the first
          // batch reads (KafkaConsumer.seek); said here, when the query starts.
          return Status::InvalidArgument(fmt::format(
              "option startingOffsets: offset {} of {}-{}: seek offset must not be a negative number "
              "(KafkaConsumer.seek); use -1 for latest, -2 for earliest", off, topic, p));
  }
  return o;
}

}  // namespace streamsim::detail
