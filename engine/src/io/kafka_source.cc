// The Kafka-like source and sink (io/kafka_source.h) and Spark's Kafka offset JSON
// (io/kafka_log.h).
#include "streamsim/io/kafka_source.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/real_time.h"

#include "json_text.h"
#include "streamsim/json_nesting.h"

namespace streamsim {

std::string kafkaOffsetsJson(const KafkaOffsets& offsets) {
  std::string out = "{";
  bool firstTopic = true;
  for (const auto& [topic, parts] : offsets) {
    if (!firstTopic) out += ',';
    firstTopic = false;
    out += nlohmann::json(topic).dump();
    out += ":{";
    bool first = true;
    for (const auto& [p, o] : parts) {  // std::map<int>: ascending by number, as Spark sorts
      if (!first) out += ',';
      first = false;
      out += '"';
      out += std::to_string(p);
      out += "\":";
      detail::appendJsonInt(out, o);
    }
    out += '}';
  }
  return out + "}";
}

Result<KafkaOffsets> parseKafkaOffsets(std::string_view json, std::string_view where) {
  auto bad = [&](std::string_view why) {
    return Status::Corruption(fmt::format(
        "{}: Kafka offset '{}' is not {{\"topic\":{{\"partition\":offset,...}}}}: {}", where,
        json, why));
  };
  auto j = parseJsonBounded<nlohmann::json>(json);
  if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
  KafkaOffsets out;
  for (auto t = j.begin(); t != j.end(); ++t) {
    if (!t->is_object()) return bad(fmt::format("topic '{}' does not map to an object", t.key()));
    auto& parts = out[t.key()];
    for (auto p = t->begin(); p != t->end(); ++p) {
      const std::string& name = p.key();
      if (name.empty() || name.size() > 9 ||
          !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return bad(fmt::format("partition '{}' of topic '{}' is not a number", name, t.key()));
      if (!p->is_number_integer())
        return bad(fmt::format("offset of {}-{} is not an integer", t.key(), name));
      parts[std::stoi(name)] = p->get<int64_t>();
    }
  }
  return out;
}

Status validateKafkaTopicName(std::string_view topic) {
  constexpr size_t kMaxNameLength = 249;
  if (topic.empty()) return Status::InvalidArgument("Topic name is illegal, it can't be empty");
  if (topic == "." || topic == "..") return Status::InvalidArgument("Topic name cannot be \".\" or \"..\"");
  if (topic.size() > kMaxNameLength)
    return Status::InvalidArgument(fmt::format(
        "Topic name is illegal, it can't be longer than {} characters, topic name: {}", kMaxNameLength, topic));
  for (char c : topic)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
          c == '-'))
      return Status::InvalidArgument(fmt::format(
          "Topic name \"{}\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'",
          topic));
  return Status::OK();
}

SchemaPtr kafkaSourceSchema() {
  static const SchemaPtr schema = makeSchema({{"key", Type::kString, true, nullptr},
                                              {"value", Type::kString, true, nullptr},
                                              {"topic", Type::kString, true, nullptr},
                                              {"partition", Type::kInt, true, nullptr},
                                              {"offset", Type::kLong, true, nullptr},
                                              {"timestamp", Type::kTimestamp, true, nullptr},
                                              {"timestampType", Type::kInt, true, nullptr}});
  return schema;
}

namespace {

constexpr int64_t kEarliest = -2;
constexpr int64_t kLatest = -1;

struct KafkaSourceOptions {
  std::string topic;
  std::string startingOffsets = "latest";
  bool failOnDataLoss = true;
  int64_t maxOffsetsPerTrigger = 0;  // 0: unlimited
};

Result<KafkaSourceOptions> parseOptions(const std::map<std::string, std::string>& options) {
  KafkaSourceOptions o;
  for (const auto& [k, v] : options) {
    if (k == "subscribe" || k == "topic") {
      o.topic = v;
    } else if (k == "startingOffsets") {
      o.startingOffsets = v;
    } else if (k == "failOnDataLoss") {
      if (v != "true" && v != "false")
        return Status::InvalidArgument(fmt::format("option failOnDataLoss: '{}' is not true or false", v));
      o.failOnDataLoss = v == "true";
    } else if (k == "maxOffsetsPerTrigger") {
      char* end = nullptr;
      long long n = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || n < 1)
        return Status::InvalidArgument(fmt::format("option maxOffsetsPerTrigger: '{}' is not a whole number >= 1", v));
      o.maxOffsetsPerTrigger = n;
    } else if (k == "endingOffsets" || k == "endingOffsetsByTimestamp") {
      // KafkaSourceProvider.validateStreamOptions.
      return Status::InvalidArgument(k == "endingOffsets" ? "ending offset not valid in streaming queries"
                                                          : "ending timestamp not valid in streaming queries");
    } else {
      return Status::InvalidArgument(fmt::format(
          "unknown Kafka source option '{}': expected subscribe, startingOffsets, failOnDataLoss, "
          "maxOffsetsPerTrigger", k));
    }
  }
  if (o.topic.empty()) return Status::InvalidArgument("the Kafka source needs option subscribe (the topic)");
  if (Status st = validateKafkaTopicName(o.topic); !st.ok()) return st.withContext("option subscribe");
  if (o.startingOffsets != "latest" && o.startingOffsets != "earliest") {
    auto parsed = parseKafkaOffsets(o.startingOffsets, "option startingOffsets");
    if (!parsed.ok())
      // Spark's JsonUtils.partitionOffsets message.
      return Status::InvalidArgument(fmt::format(
          "option startingOffsets: Expected e.g. {{\"topicA\":{{\"0\":23,\"1\":-1}},\"topicB\":{{\"0\":-2}}}}, got {}",
          o.startingOffsets));
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

class KafkaSource final : public Source, public RealTimeSource {
 public:
  KafkaSource(std::shared_ptr<PartitionedLog> log, KafkaSourceOptions options)
      : log_(std::move(log)), options_(std::move(options)) {}

  std::string description() const override { return "KafkaV2[Subscribe[" + options_.topic + "]]"; }

  // KafkaRealTimeModeSuite "<option> incompatible": a per-trigger limit cannot bound a batch
  // whose records are read as they arrive; Spark fails the start with an
  // UnsupportedOperationException naming the option. Of those options (maxOffsetsPerTrigger,
  // minOffsetsPerTrigger, minPartitions, endingTimestamp, maxTriggerDelay) this source knows
  // maxOffsetsPerTrigger; the others are unknown options here.
  Status prepareForRealTimeMode() override {
    if (options_.maxOffsetsPerTrigger > 0)
      return Status::InvalidArgument(
          "maxOffsetsPerTrigger is not compatible with real time mode (Spark's "
          "UnsupportedOperationException): drop the option or use a micro-batch trigger");
    return Status::OK();
  }

  Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) override {
    STREAMSIM_ASSIGN_OR_RETURN(partitions_, log_->numPartitions(options_.topic));
    if (committed) {
      STREAMSIM_RETURN_IF_ERROR(toPartitionOffsets(*committed, description()).status());
    }
    // The initial offsets: resolved once per checkpoint and kept in sources/<i>/0.
    const std::string dir = sourceLogDir(ctx.checkpointRoot, ctx.sourceIndex, ctx.sourceName);
    const std::string path = joinPath(dir, "0");
    if (ctx.env->fs->exists(path)) {
      STREAMSIM_ASSIGN_OR_RETURN(std::string text, ctx.env->fs->read(path));
      size_t nl = text.find('\n');
      if (text.rfind("v1", 0) != 0 || nl == std::string::npos)
        return Status::Corruption(fmt::format("{}: expected 'v1' then the initial Kafka offsets", path));
      std::string json = text.substr(nl + 1);
      while (!json.empty() && (json.back() == '\n' || json.back() == '\r')) json.pop_back();
      STREAMSIM_ASSIGN_OR_RETURN(initial_, toPartitionOffsets(json, path));
      return Status::OK();
    }
    const TimeMs now = ctx.env->clock->nowMs();
    std::optional<KafkaOffsets> given;
    if (options_.startingOffsets != "latest" && options_.startingOffsets != "earliest") {
      STREAMSIM_ASSIGN_OR_RETURN(given, parseKafkaOffsets(options_.startingOffsets, "option startingOffsets"));
    }
    if (given) STREAMSIM_RETURN_IF_ERROR(checkEveryPartitionGiven(*given));
    initial_.assign(static_cast<size_t>(partitions_), 0);
    for (int p = 0; p < partitions_; ++p) {
      int64_t want = options_.startingOffsets == "latest" ? kLatest : kEarliest;
      if (given) {
        auto t = given->find(options_.topic);
        if (t != given->end()) {
          auto o = t->second.find(p);
          if (o != t->second.end()) want = o->second;
        }
      }
      initial_[static_cast<size_t>(p)] =
          want == kEarliest ? log_->earliestOffset(options_.topic, p, now)
          : want == kLatest ? log_->endOffset(options_.topic, p, now)
                            : want;
    }
    STREAMSIM_RETURN_IF_ERROR(ctx.env->fs->mkdirs(dir));
    FaultContext fc;
    fc.path = path;
    return writeFileAtomically(*ctx.env, path, "v1\n" + toJson(initial_) + "\n", fc);
  }

  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override {
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> from, startOffsets(start));
    const TimeMs now = ctx.env->clock->nowMs();
    std::vector<int64_t> end(from.size());
    int64_t backlog = 0;
    for (int p = 0; p < partitions_; ++p) {
      const int64_t logEnd = log_->endOffset(options_.topic, p, now);
      if (from[p] > logEnd) {
        // A starting offset past the end (KafkaOffsetReaderAdmin.getOffsetRangesFromResolvedOffsets:
        // the until offset below the from offset is data loss): failOnDataLoss fails the query,
        // otherwise the batch reads nothing of p and the next one starts at the end.
        if (options_.failOnDataLoss)
          return Status::FailedPrecondition(fmt::format(
              "Partition {}-{}'s offset was changed from {} to {}, some data may have been missed. "
              "Some data may have been lost because they are not available in Kafka any more; either the "
              "data was aged out by Kafka or the topic may have been deleted before all the data in the "
              "topic was processed. If you don't want your streaming query to fail on such cases, set the "
              "source option \"failOnDataLoss\" to \"false\".",
              options_.topic, p, from[p], logEnd));
        end[p] = logEnd;
        continue;
      }
      end[p] = std::max(from[p], logEnd);
      backlog += end[p] - from[p];
    }
    if (options_.maxOffsetsPerTrigger > 0 && backlog > options_.maxOffsetsPerTrigger) {
      // Spread the limit over partitions in proportion to their backlog (Spark's rateLimit),
      // the rounding remainder to the lowest partitions.
      int64_t left = options_.maxOffsetsPerTrigger;
      std::vector<int64_t> take(from.size());
      for (int p = 0; p < partitions_; ++p) {
        take[p] = (end[p] - from[p]) * options_.maxOffsetsPerTrigger / backlog;
        left -= take[p];
      }
      for (int p = 0; p < partitions_ && left > 0; ++p) {
        int64_t more = std::min(left, end[p] - from[p] - take[p]);
        take[p] += more;
        left -= more;
      }
      for (int p = 0; p < partitions_; ++p) end[p] = from[p] + take[p];
    }
    if (!start && backlog == 0 && end == from) return std::optional<std::string>();
    return std::optional<std::string>(toJson(end));
  }

  Result<std::vector<Row>> getBatch(const SourceContext& ctx, const std::optional<std::string>& start,
                                    const std::string& end) override {
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> from, startOffsets(start));
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> to, toPartitionOffsets(end, description()));
    std::vector<Row> rows;
    for (int p = 0; p < partitions_; ++p) {
      STREAMSIM_ASSIGN_OR_RETURN(int64_t first, checkDataLoss(ctx, p, from[p]));
      if (first >= to[p]) continue;  // nothing, or a start past the end (latestOffset said so)
      for (const LogRecord& r : log_->read(options_.topic, p, first, to[p])) rows.push_back(toRow(r));
    }
    return rows;
  }

  Result<RealTimeRead> readUntil(const SourceContext& ctx, const std::optional<std::string>& start,
                                 TimeMs untilMs, const std::optional<std::string>& bound) override {
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> from, startOffsets(start));
    std::vector<int64_t> upTo;
    if (bound) {
      STREAMSIM_ASSIGN_OR_RETURN(upTo, toPartitionOffsets(*bound, description()));
    }
    RealTimeRead out;
    out.numTasks = partitions_;
    std::vector<int64_t> end(from.size());
    for (int p = 0; p < partitions_; ++p) {
      STREAMSIM_ASSIGN_OR_RETURN(int64_t first, checkDataLoss(ctx, p, from[p]));
      end[p] = std::max(first, bound ? upTo[p] : log_->endOffset(options_.topic, p, untilMs - 1));
      for (const LogRecord& r : log_->read(options_.topic, p, first, end[p]))
        out.rows.push_back(TimedRow{toRow(r), p, r.offset, r.appendTime});
    }
    out.end = toJson(end);
    return out;
  }

 private:
  // Spark's KafkaOffsetReaderAdmin.fetchPartitionOffsets: specific starting offsets name exactly
  // the partitions the query is assigned -- every partition of the topic, no other topic.
  Status checkEveryPartitionGiven(const KafkaOffsets& given) const {
    std::vector<std::string> specified, assigned;
    for (const auto& [topic, parts] : given)
      for (const auto& [p, off] : parts) specified.push_back(fmt::format("{}-{}", topic, p));
    for (int p = 0; p < partitions_; ++p) assigned.push_back(fmt::format("{}-{}", options_.topic, p));
    std::sort(specified.begin(), specified.end());
    std::sort(assigned.begin(), assigned.end());
    if (specified == assigned) return Status::OK();
    return Status::InvalidArgument(fmt::format(
        "assertion failed: If startingOffsets contains specific offsets, you must specify all TopicPartitions.\n"
        "Use -1 for latest, -2 for earliest, if you don't care.\nSpecified: Set({}) Assigned: Set({})",
        fmt::join(specified, ", "), fmt::join(assigned, ", ")));
  }

  static Row toRow(const LogRecord& r) {
    return Row(kafkaSourceSchema(),
               {r.key ? Value(*r.key) : Value(), Value(r.value), Value(r.topic),
                Value(static_cast<int32_t>(r.partition)), Value(r.offset),
                Value::timestamp(r.timestamp), Value(int32_t{0})});
  }

  std::string toJson(const std::vector<int64_t>& offsets) const {
    KafkaOffsets o;
    auto& parts = o[options_.topic];
    for (size_t p = 0; p < offsets.size(); ++p) parts[static_cast<int>(p)] = offsets[p];
    return kafkaOffsetsJson(o);
  }

  Result<std::vector<int64_t>> toPartitionOffsets(std::string_view json, std::string_view where) const {
    STREAMSIM_ASSIGN_OR_RETURN(KafkaOffsets o, parseKafkaOffsets(json, where));
    auto t = o.find(options_.topic);
    if (t == o.end() || o.size() != 1)
      return Status::FailedPrecondition(fmt::format(
          "{}: the offsets {} are not for topic '{}' alone: a checkpoint cannot be reused by a "
          "query reading another topic", where, json, options_.topic));
    std::vector<int64_t> out(static_cast<size_t>(partitions_), 0);
    for (const auto& [p, off] : t->second) {
      if (p < 0 || p >= partitions_)
        return Status::FailedPrecondition(fmt::format(
            "{}: the offsets name partition {} of '{}', which has {} partition(s)", where, p,
            options_.topic, partitions_));
      out[static_cast<size_t>(p)] = off;
    }
    return out;
  }

  Result<std::vector<int64_t>> startOffsets(const std::optional<std::string>& start) const {
    if (start) return toPartitionOffsets(*start, description());
    return initial_;
  }

  // The first offset to read of partition p: `from`, or (failOnDataLoss=false) the earliest
  // retained when retention deleted records the batch should have read.
  Result<int64_t> checkDataLoss(const SourceContext& ctx, int p, int64_t from) const {
    int64_t earliest = log_->earliestOffset(options_.topic, p, ctx.env->clock->nowMs());
    if (from >= earliest) return from;
    if (options_.failOnDataLoss)
      return Status::FailedPrecondition(fmt::format(
          "{}: some data may have been lost: partition {}-{} should be read from offset {} but "
          "the earliest offset still retained is {} (retention deleted the records in between). "
          "Set failOnDataLoss to false to skip them", description(), options_.topic, p, from,
          earliest));
    return earliest;
  }

  std::shared_ptr<PartitionedLog> log_;
  KafkaSourceOptions options_;
  int partitions_ = 0;
  std::vector<int64_t> initial_;
};

class KafkaSink final : public Sink, public RealTimeSink {
 public:
  KafkaSink(std::shared_ptr<PartitionedLog> log, std::string topic)
      : log_(std::move(log)), topic_(std::move(topic)) {}
  std::string description() const override { return "KafkaSink[" + topic_ + "]"; }
  std::string sparkClassName() const override { return "org.apache.spark.sql.kafka010.KafkaSourceProvider$KafkaTable"; }
  Status start(const SinkContext& ctx) override {
    (void)ctx;
    return log_->numPartitions(topic_).status().withContext(description());
  }
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override {
    const TimeMs now = ctx.env->clock->nowMs();
    for (const Row& row : rows) STREAMSIM_RETURN_IF_ERROR(write(ctx, row, now));
    return Status::OK();
  }
  bool writesPerRecord() const override { return true; }
  Status writeRecord(const SinkContext& ctx, int task, const Row& row, TimeMs atMs) override {
    (void)task;
    return write(ctx, row, atMs);
  }

 private:
  Status write(const SinkContext& ctx, const Row& row, TimeMs atMs) {
    LogRecord r;
    r.topic = topic_;
    if (row.has("key") && !row.get("key").isNull()) r.key = row.get("key").toString();
    r.value = row.has("value") ? row.get("value").toString() : row.toJson();
    r.timestamp = atMs;
    r.headers.emplace_back(kKafkaBatchHeader, std::to_string(ctx.batchId));
    return log_->append(std::move(r), atMs).status().withContext(description());
  }

  std::shared_ptr<PartitionedLog> log_;
  std::string topic_;
};

}  // namespace

Result<SourceFactory> makeKafkaSource(std::shared_ptr<PartitionedLog> log,
                                      std::map<std::string, std::string> options) {
  if (log == nullptr) return Status::InvalidArgument("the Kafka source needs a log");
  STREAMSIM_ASSIGN_OR_RETURN(KafkaSourceOptions o, parseOptions(options));
  return SourceFactory([log, o] { return std::make_unique<KafkaSource>(log, o); });
}

SinkFactory makeKafkaSink(std::shared_ptr<PartitionedLog> log, std::string topic) {
  return [log, topic] { return std::make_unique<KafkaSink>(log, topic); };
}

}  // namespace streamsim
