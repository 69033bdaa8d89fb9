// The Kafka-like source and sink (io/kafka_source.h) and Spark's Kafka offset JSON
// (io/kafka_log.h).
#include "streamsim/io/kafka_source.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/real_time.h"

#include "json_text.h"
#include "streamsim/json_nesting.h"
#include "kafka_options.h"

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

SchemaPtr kafkaSourceSchema(bool binaryKeyValue, bool includeHeaders) {
  auto make = [](Type kv, bool headers) {
    std::vector<Field> fields = {{"key", kv, true, nullptr},
                                 {"value", kv, true, nullptr},
                                 {"topic", Type::kString, true, nullptr},
                                 {"partition", Type::kInt, true, nullptr},
                                 {"offset", Type::kLong, true, nullptr},
                                 {"timestamp", Type::kTimestamp, true, nullptr},
                                 {"timestampType", Type::kInt, true, nullptr}};
    if (headers)  // KafkaRecordToRowConverter.headersType
      fields.push_back(arrayField(
          "headers", Field{"element", Type::kStruct, true,
                           makeSchema({{"key", Type::kString, true, nullptr}, {"value", Type::kBinary, true, nullptr}})}));
    return makeSchema(std::move(fields));
  };
  static const SchemaPtr schemas[2][2] = {{make(Type::kString, false), make(Type::kString, true)},
                                          {make(Type::kBinary, false), make(Type::kBinary, true)}};
  return schemas[binaryKeyValue ? 1 : 0][includeHeaders ? 1 : 0];
}

bool kafkaOptionsIncludeHeaders(const std::map<std::string, std::string>& options) {
  // The options' one parser decides (a bad option fails the source when it is made).
  auto parsed = detail::parseKafkaSourceOptions(options);
  return parsed.ok() && parsed->includeHeaders;
}

namespace {

using detail::KafkaSourceOptions;
using detail::TopicPartition;
using detail::topicPartitionName;

constexpr int64_t kEarliest = -2;
constexpr int64_t kLatest = -1;

// Offsets per topic-partition, sorted by topic then partition (the order of reader tasks).
using PartitionOffsets = std::map<TopicPartition, int64_t>;

std::string setOf(const std::vector<std::string>& names) {
  return fmt::format("Set({})", fmt::join(names, ", "));
}

class KafkaSource final : public Source, public RealTimeSource {
 public:
  KafkaSource(std::shared_ptr<PartitionedLog> log, KafkaSourceOptions options, bool binaryKeyValue)
      : log_(std::move(log)), options_(std::move(options)),
        schema_(kafkaSourceSchema(binaryKeyValue, options_.includeHeaders)),
        binary_(binaryKeyValue) {}

  // KafkaMicroBatchStream.toString: KafkaV2[<the consumer strategy>].
  std::string description() const override { return "KafkaV2[" + options_.strategy.toString() + "]"; }

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
    const std::vector<TopicPartition> assigned = options_.strategy.assignedTopicPartitions(*log_);
    initial_.clear();
    if (options_.startingTimestamp || options_.startingOffsetsByTimestamp) {
      if (options_.startingOffsetsByTimestamp && !options_.startingTimestamp)
        STREAMSIM_RETURN_IF_ERROR(
            checkEveryPartitionGiven(*options_.startingOffsetsByTimestamp, assigned, "startingOffsetsByTimestamp"));
      for (const TopicPartition& tp : assigned) {
        const int64_t ts = options_.startingTimestamp
                               ? *options_.startingTimestamp
                               : options_.startingOffsetsByTimestamp->at(tp.first).at(tp.second);
        STREAMSIM_ASSIGN_OR_RETURN(initial_[tp], offsetForTimestamp(tp, ts, now));
      }
    }
    std::optional<KafkaOffsets> given;
    if (initial_.empty() && options_.startingOffsets != "latest" && options_.startingOffsets != "earliest") {
      STREAMSIM_ASSIGN_OR_RETURN(given, parseKafkaOffsets(options_.startingOffsets, "option startingOffsets"));
      STREAMSIM_RETURN_IF_ERROR(checkEveryPartitionGiven(*given, assigned, "startingOffsets"));
    }
    for (const TopicPartition& tp : assigned) {
      if (initial_.count(tp) != 0) continue;
      int64_t want = options_.startingOffsets == "latest" ? kLatest : kEarliest;
      if (given) want = given->at(tp.first).at(tp.second);
      initial_[tp] = want == kEarliest ? log_->earliestOffset(tp.first, tp.second, now)
                     : want == kLatest ? log_->endOffset(tp.first, tp.second, now)
                                       : want;
    }
    STREAMSIM_RETURN_IF_ERROR(ctx.env->fs->mkdirs(dir));
    FaultContext fc;
    fc.path = path;
    return writeFileAtomically(*ctx.env, path, "v1\n" + toJson(initial_) + "\n", fc);
  }

  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override {
    STREAMSIM_ASSIGN_OR_RETURN(PartitionOffsets from, startOffsets(ctx, start));
    const TimeMs now = ctx.env->clock->nowMs();
    PartitionOffsets end;
    int64_t backlog = 0;
    for (const auto& [tp, f] : from) {
      const int64_t logEnd = log_->endOffset(tp.first, tp.second, now);
      if (f > logEnd) {
        // A starting offset past the end (KafkaOffsetReaderAdmin.getOffsetRangesFromResolvedOffsets:
        // the until offset below the from offset is data loss): failOnDataLoss fails the query,
        // otherwise the batch reads nothing of p and the next one starts at the end.
        if (options_.failOnDataLoss)
          return Status::FailedPrecondition(fmt::format(
              "Partition {}'s offset was changed from {} to {}, some data may have been missed. "
              "Some data may have been lost because they are not available in Kafka any more; either the "
              "data was aged out by Kafka or the topic may have been deleted before all the data in the "
              "topic was processed. If you don't want your streaming query to fail on such cases, set the "
              "source option \"failOnDataLoss\" to \"false\".",
              topicPartitionName(tp), f, logEnd));
        end[tp] = logEnd;
        continue;
      }
      end[tp] = std::max(f, logEnd);
      backlog += end[tp] - f;
    }
    if (options_.maxOffsetsPerTrigger > 0 && backlog >= 1) {
      // KafkaMicroBatchStream.rateLimit: each partition with a backlog takes limit * (its backlog /
      // the total), in doubles, rounded down (up when under 1, so a small partition is never
      // starved), at most its end: the rounding may take fewer than the limit.
      const double total = static_cast<double>(backlog);
      const double limit = static_cast<double>(options_.maxOffsetsPerTrigger);
      for (const auto& [tp, f] : from) {
        const int64_t size = end[tp] - f;
        if (size <= 0) continue;
        const double prorate = limit * (static_cast<double>(size) / total);
        const auto take = static_cast<int64_t>(prorate < 1 ? std::ceil(prorate) : std::floor(prorate));
        end[tp] = take > std::numeric_limits<int64_t>::max() - f ? end[tp] : std::min(end[tp], f + take);
      }
    }
    if (!start && backlog == 0 && end == from) return std::optional<std::string>();
    return std::optional<std::string>(toJson(end));
  }

  Result<std::vector<Row>> getBatch(const SourceContext& ctx, const std::optional<std::string>& start,
                                    const std::string& end) override {
    STREAMSIM_ASSIGN_OR_RETURN(PartitionOffsets from, startOffsets(ctx, start));
    STREAMSIM_ASSIGN_OR_RETURN(PartitionOffsets to, toPartitionOffsets(end, description()));
    std::vector<Row> rows;
    for (const auto& [tp, until] : to) {
      auto f = from.find(tp);
      // A partition the start does not know (assigned since): from its earliest offset.
      const int64_t want = f != from.end() ? f->second : log_->earliestOffset(tp.first, tp.second, ctx.env->clock->nowMs());
      STREAMSIM_ASSIGN_OR_RETURN(int64_t first, checkDataLoss(ctx, tp, want));
      if (first >= until) continue;  // nothing, or a start past the end (latestOffset said so)
      for (const LogRecord& r : log_->read(tp.first, tp.second, first, until)) rows.push_back(toRow(r));
    }
    return rows;
  }

  Result<RealTimeRead> readUntil(const SourceContext& ctx, const std::optional<std::string>& start,
                                 TimeMs untilMs, const std::optional<std::string>& bound) override {
    STREAMSIM_ASSIGN_OR_RETURN(PartitionOffsets from, startOffsets(ctx, start));
    PartitionOffsets upTo;
    if (bound) {
      STREAMSIM_ASSIGN_OR_RETURN(upTo, toPartitionOffsets(*bound, description()));
    }
    RealTimeRead out;
    out.numTasks = static_cast<int>(from.size());
    PartitionOffsets end;
    int task = 0;
    for (const auto& [tp, f] : from) {
      STREAMSIM_ASSIGN_OR_RETURN(int64_t first, checkDataLoss(ctx, tp, f));
      auto b = upTo.find(tp);
      end[tp] = std::max(first, bound ? (b != upTo.end() ? b->second : first)
                                      : log_->endOffset(tp.first, tp.second, untilMs - 1));
      for (const LogRecord& r : log_->read(tp.first, tp.second, first, end[tp]))
        out.rows.push_back(TimedRow{toRow(r), task, r.offset, r.appendTime});
      ++task;
    }
    out.end = toJson(end);
    return out;
  }

 private:
  // Spark's KafkaOffsetReaderAdmin.fetchSpecificOffsets: specific starting offsets name exactly
  // the partitions the query is assigned.
  // KafkaOffsetReaderAdmin.fetchGlobalTimestampBasedOffsets / fetchSpecificTimestampBasedOffsets:
  // the earliest offset whose timestamp is >= `ts` among the records readable now; none is
  // IllegalArgumentException, or the latest offset under startingOffsetsByTimestampStrategy=latest.
  Result<int64_t> offsetForTimestamp(const TopicPartition& tp, int64_t ts, TimeMs now) const {
    const int64_t from = log_->earliestOffset(tp.first, tp.second, now);
    const int64_t end = log_->endOffset(tp.first, tp.second, now);
    for (const LogRecord& r : log_->read(tp.first, tp.second, from, end))
      if (r.timestamp >= ts) return r.offset;
    if (options_.noTimestampMatchStartsAtLatest) return end;
    return Status::InvalidArgument(fmt::format("No offset matched from request of topic-partition {} and timestamp {}.",
                                               topicPartitionName(tp), ts));
  }

  static Status checkEveryPartitionGiven(const KafkaOffsets& given, const std::vector<TopicPartition>& assigned,
                                         std::string_view option) {
    std::vector<std::string> specified, names;
    for (const auto& [topic, parts] : given)
      for (const auto& [p, off] : parts) specified.push_back(topicPartitionName({topic, p}));
    for (const TopicPartition& tp : assigned) names.push_back(topicPartitionName(tp));
    std::sort(specified.begin(), specified.end());
    std::sort(names.begin(), names.end());
    if (specified == names) return Status::OK();
    return Status::InvalidArgument(fmt::format(
        fmt::runtime(option == "startingOffsets"
            ? "assertion failed: If startingOffsets contains specific offsets, you must specify all "
              "TopicPartitions.\nUse -1 for latest, -2 for earliest, if you don't care.\nSpecified: {} Assigned: {}"
            : "assertion failed: If startingOffsetsByTimestamp contains specific offsets, you must specify all "
              "topics. Specified: {} Assigned: {}"),
        setOf(specified), setOf(names)));
  }

  Row toRow(const LogRecord& r) const {
    auto bytes = [this](const std::string& s) { return binary_ ? Value::binary(s) : Value(s); };
    std::vector<Value> values = {r.key ? bytes(*r.key) : Value(), bytes(r.value), Value(r.topic),
                                 Value(static_cast<int32_t>(r.partition)), Value(r.offset),
                                 Value::timestamp(r.timestamp), Value(int32_t{0})};
    if (options_.includeHeaders) {
      // The sink's own batch header is streamsim's bookkeeping, not the job's: left out.
      std::vector<Value> headers;
      const SchemaPtr& header = schema_->field(schema_->size() - 1).nested->field(0).nested;
      for (const auto& [key, value] : r.headers)
        if (key != kKafkaBatchHeader) headers.push_back(Value::structOf(header, {Value(key), Value::binary(value)}));
      values.push_back(headers.empty() ? Value() : Value::arrayOf(std::move(headers)));
    }
    return Row(schema_, std::move(values));
  }

  static std::string toJson(const PartitionOffsets& offsets) {
    KafkaOffsets o;
    for (const auto& [tp, off] : offsets) o[tp.first][tp.second] = off;
    return kafkaOffsetsJson(o);
  }

  // Offsets of a checkpoint: every topic-partition named must exist in the log.
  Result<PartitionOffsets> toPartitionOffsets(std::string_view json, std::string_view where) const {
    STREAMSIM_ASSIGN_OR_RETURN(KafkaOffsets o, parseKafkaOffsets(json, where));
    PartitionOffsets out;
    for (const auto& [topic, parts] : o) {
      auto n = log_->numPartitions(topic);
      for (const auto& [p, off] : parts) {
        if (!n.ok() || p < 0 || p >= *n)
          return Status::FailedPrecondition(fmt::format(
              "{}: the offsets {} name partition {}, which the log does not have{}", where, json,
              topicPartitionName({topic, p}), n.ok() ? fmt::format(" ('{}' has {} partition(s))", topic, *n) : ""));
        out[{topic, p}] = off;
      }
    }
    return out;
  }

  // Where the batch after `start` begins: `start`'s offsets (the initial ones without it), then
  // as Spark's getOffsetRangesFromResolvedOffsets: a partition assigned since (a new topic a
  // pattern or subscription now finds) from its earliest offset, data loss when that is not 0;
  // a partition no longer assigned is data loss (failOnDataLoss=false drops it).
  Result<PartitionOffsets> startOffsets(const SourceContext& ctx, const std::optional<std::string>& start) const {
    PartitionOffsets from = initial_;
    if (start) {
      STREAMSIM_ASSIGN_OR_RETURN(from, toPartitionOffsets(*start, description()));
    }
    const std::vector<TopicPartition> assigned = options_.strategy.assignedTopicPartitions(*log_);
    const std::set<TopicPartition> now(assigned.begin(), assigned.end());
    std::vector<std::string> gone;
    for (auto it = from.begin(); it != from.end();) {
      if (now.count(it->first)) {
        ++it;
        continue;
      }
      gone.push_back(topicPartitionName(it->first));
      it = from.erase(it);
    }
    if (!gone.empty() && options_.failOnDataLoss)
      return Status::FailedPrecondition(fmt::format(
          "{}: {} are gone. Some data may have been missed. Set the source option \"failOnDataLoss\" to "
          "\"false\" to go on without them", description(), setOf(gone)));
    for (const TopicPartition& tp : assigned) {
      if (from.count(tp)) continue;
      const int64_t earliest = log_->earliestOffset(tp.first, tp.second, ctx.env->clock->nowMs());
      if (earliest != 0 && options_.failOnDataLoss)
        return Status::FailedPrecondition(fmt::format(
            "{}: Added partition {} starts from {} instead of 0. Some data may have been missed. Set "
            "the source option \"failOnDataLoss\" to \"false\" to go on", description(),
            topicPartitionName(tp), earliest));
      from[tp] = earliest;
    }
    return from;
  }

  // The first offset to read of `tp`: `from`, or (failOnDataLoss=false) the earliest
  // retained when retention deleted records the batch should have read.
  Result<int64_t> checkDataLoss(const SourceContext& ctx, const TopicPartition& tp, int64_t from) const {
    int64_t earliest = log_->earliestOffset(tp.first, tp.second, ctx.env->clock->nowMs());
    if (from >= earliest) return from;
    if (options_.failOnDataLoss)
      return Status::FailedPrecondition(fmt::format(
          "{}: some data may have been lost: partition {} should be read from offset {} but "
          "the earliest offset still retained is {} (retention deleted the records in between). "
          "Set failOnDataLoss to false to skip them", description(), topicPartitionName(tp), from,
          earliest));
    return earliest;
  }

  std::shared_ptr<PartitionedLog> log_;
  KafkaSourceOptions options_;
  SchemaPtr schema_;
  bool binary_ = false;
  PartitionOffsets initial_;
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
    // A string column as its UTF-8 bytes, a binary one as its bytes (KafkaWriteTask).
    auto bytes = [](const Value& v) { return v.type() == Type::kBinary ? v.asString() : v.toString(); };
    if (row.has("key") && !row.get("key").isNull()) r.key = bytes(row.get("key"));
    r.value = row.has("value") ? bytes(row.get("value")) : row.toJson();
    r.timestamp = atMs;
    r.headers.emplace_back(kKafkaBatchHeader, std::to_string(ctx.batchId));
    return log_->append(std::move(r), atMs).status().withContext(description());
  }

  std::shared_ptr<PartitionedLog> log_;
  std::string topic_;
};

}  // namespace

Result<SourceFactory> makeKafkaSource(std::shared_ptr<PartitionedLog> log,
                                      std::map<std::string, std::string> options, bool binaryKeyValue) {
  if (log == nullptr) return Status::InvalidArgument("the Kafka source needs a log");
  STREAMSIM_ASSIGN_OR_RETURN(KafkaSourceOptions o, detail::parseKafkaSourceOptions(options));
  return SourceFactory([log, o, binaryKeyValue] { return std::make_unique<KafkaSource>(log, o, binaryKeyValue); });
}

SinkFactory makeKafkaSink(std::shared_ptr<PartitionedLog> log, std::string topic) {
  return [log, topic] { return std::make_unique<KafkaSink>(log, topic); };
}

}  // namespace streamsim
