#include <charconv>
#include <limits>

#include "streamsim/query.h"

#include "real_time_execution.h"

namespace streamsim {

DataFrame readStream(SourceFactory source) { return DataFrame({std::move(source)}); }
DataFrame readStream(std::vector<SourceFactory> sources) { return DataFrame(std::move(sources)); }
DataFrame readStream(std::vector<SourceFactory> sources, std::vector<int> readers) {
  return DataFrame(std::move(sources), std::move(readers));
}

DataFrame DataFrame::transform(OperatorFactory factory) const {
  DataFrame out = *this;
  out.operators_.push_back(std::move(factory));
  return out;
}

DataFrame DataFrame::withWatermark(std::string column, DurationMs delay) const {
  return transform([column, delay] { return makeWithWatermark(column, delay); });
}

DataFrame DataFrame::filter(RowPredicate predicate, std::string description) const {
  return transform([predicate, description] { return makeFilter(predicate, description); });
}

DataFrame DataFrame::map(RowMapper mapper, std::string description) const {
  return transform([mapper, description] { return makeMap(mapper, description); });
}

DataFrame DataFrame::select(std::vector<std::string> columns) const {
  return transform([columns] { return makeSelect(columns); });
}

DataStreamWriter DataFrame::writeStream() const { return DataStreamWriter(*this); }

DataStreamWriter& DataStreamWriter::sink(SinkFactory sink) {
  sink_ = std::move(sink);
  return *this;
}
DataStreamWriter& DataStreamWriter::outputMode(OutputMode mode) {
  options_.outputMode = mode;
  return *this;
}
DataStreamWriter& DataStreamWriter::trigger(Trigger trigger) {
  options_.trigger = trigger;
  return *this;
}
DataStreamWriter& DataStreamWriter::queryName(std::string name) {
  options_.queryName = std::move(name);
  return *this;
}
DataStreamWriter& DataStreamWriter::name(std::string sinkName) {
  options_.sinkName = std::move(sinkName);
  return *this;
}
DataStreamWriter& DataStreamWriter::sourceNames(std::vector<std::string> names) {
  options_.sourceNames = std::move(names);
  return *this;
}
DataStreamWriter& DataStreamWriter::userFunctions(std::shared_ptr<const expr::UserFunctions> functions) {
  options_.sqlConf.userFunctions = std::move(functions);
  return *this;
}
DataStreamWriter& DataStreamWriter::options(QueryOptions options) {
  options_ = std::move(options);
  return *this;
}

namespace {
Result<int> parsePositiveInt(const std::string& key, const std::string& value, int min,
                             int max = std::numeric_limits<int>::max()) {
  int n = 0;
  auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || p != value.data() + value.size() || n < min || n > max)
    return Status::InvalidArgument(
        fmt::format("option {}: '{}' is not a whole number from {} to {}", key, value, min, max));
  return n;
}
Result<bool> parseBool(const std::string& key, const std::string& value) {
  if (value == "true") return true;
  if (value == "false") return false;
  return Status::InvalidArgument(fmt::format("option {}: '{}' is not true or false", key, value));
}
}  // namespace

DataStreamWriter& DataStreamWriter::option(const std::string& key, const std::string& value) {
  auto record = [&](Status st) {
    if (!st.ok() && option_error_.ok()) option_error_ = st;
  };
  if (key == "checkpointLocation") {
    options_.checkpointLocation = value;
  } else if (expr::SqlConf::isSqlConf(key)) {
    record(options_.sqlConf.set(key, value));
  } else if (key == "spark.sql.shuffle.partitions" || key == "shufflePartitions") {
    auto n = parsePositiveInt(key, value, 1, kMaxShufflePartitions);
    if (n.ok()) options_.shufflePartitions = *n; else record(n.status());
  } else if (key == "taskRetries") {
    auto n = parsePositiveInt(key, value, 0);
    if (n.ok()) options_.taskRetries = *n; else record(n.status());
  } else if (key == "stateStore") {
    auto k = parseStateStoreKind(value);
    if (k.ok()) options_.stateStore.kind = *k; else record(k.status());
    options_.stateStoreSet = true;
  } else if (key == "spark.sql.streaming.stateStore.checkpointFormatVersion") {
    auto n = parsePositiveInt(key, value, 1);
    if (n.ok() && *n > 2) n = Status::InvalidArgument(fmt::format("option {}: '{}' is not 1 or 2", key, value));
    if (n.ok()) options_.checkpointFormatVersion = *n; else record(n.status());
  } else if (key == "spark.sql.streaming.offsetLog.formatVersion") {
    auto n = parsePositiveInt(key, value, 1, 2);
    if (n.ok()) options_.offsetLogFormatVersion = *n; else record(n.status());
  } else if (key == "spark.sql.streaming.queryEvolution.enableSourceEvolution") {
    auto b = parseBool(key, value);
    if (b.ok()) options_.sourceEvolution = *b; else record(b.status());
  } else if (key == "spark.sql.streaming.queryEvolution.enableSinkEvolution") {
    auto b = parseBool(key, value);
    if (b.ok()) options_.sinkEvolution = *b; else record(b.status());
  } else if (key == "spark.sql.streaming.realTimeMode.minBatchDuration" ||
             key == "realTime.recordCost" || key == "realTime.sinkLatency") {
    // A duration ("5s", "2ms") or whole milliseconds.
    Result<DurationMs> d = parseDuration(value);
    if (!d.ok()) {
      auto n = parsePositiveInt(key, value, 0);
      d = n.ok() ? Result<DurationMs>(DurationMs{*n}) : Result<DurationMs>(n.status());
    }
    if (!d.ok() || *d < 0) {
      record(Status::InvalidArgument(fmt::format("option {}: '{}' is not a duration >= 0 (e.g. 5ms)", key, value)));
    } else if (key == "realTime.recordCost") {
      options_.realTimeRecordCostMs = *d;
    } else if (key == "realTime.sinkLatency") {
      options_.realTimeSinkLatencyMs = *d;
    } else {
      options_.realTimeMinBatchMs = *d;
    }
  } else if (key == "spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled") {
    auto b = parseBool(key, value);
    if (b.ok()) options_.realTimeAllowCheckpointV1 = *b; else record(b.status());
  } else if (key == "spark.sql.execution.sortBeforeRepartition") {
    auto b = parseBool(key, value);
    if (b.ok()) options_.sortBeforeRepartition = *b; else record(b.status());
  } else if (key == "noDataMicroBatches.enabled" ||
             key == "spark.sql.streaming.noDataMicroBatches.enabled") {
    auto b = parseBool(key, value);
    if (b.ok()) options_.noDataMicroBatches = *b; else record(b.status());
  } else if (key == "spark.sql.streaming.minBatchesToRetain" || key == "minBatchesToRetain") {
    auto n = parsePositiveInt(key, value, 1);
    if (n.ok()) options_.minBatchesToRetain = *n; else record(n.status());
  } else if (key == "multipleWatermarkPolicy" ||
             key == "spark.sql.streaming.multipleWatermarkPolicy") {
    if (value == "min") options_.multipleWatermarkPolicy = WatermarkPolicy::kMin;
    else if (value == "max") options_.multipleWatermarkPolicy = WatermarkPolicy::kMax;
    else record(Status::InvalidArgument(fmt::format("option {}: '{}' is not min or max", key, value)));
  } else {
    record(Status::InvalidArgument(fmt::format(
        "unknown query option '{}': expected checkpointLocation, spark.sql.shuffle.partitions, "
        "taskRetries, stateStore, noDataMicroBatches.enabled, multipleWatermarkPolicy, "
        "spark.sql.streaming.minBatchesToRetain, spark.sql.streaming.stateStore.checkpointFormatVersion, "
        "spark.sql.streaming.offsetLog.formatVersion, spark.sql.streaming.queryEvolution.enableSourceEvolution, "
        "spark.sql.streaming.queryEvolution.enableSinkEvolution, "
        "spark.sql.streaming.realTimeMode.minBatchDuration, "
        "spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled, "
        "spark.sql.execution.sortBeforeRepartition, realTime.recordCost, "
        "realTime.sinkLatency, spark.sql.ansi.enabled, spark.sql.session.timeZone or spark.sql.caseSensitive", key)));
  }
  return *this;
}

Result<std::unique_ptr<StreamingQuery>> DataStreamWriter::start(const Env& env) const {
  STREAMSIM_RETURN_IF_ERROR(option_error_);
  if (env.clock == nullptr || env.fs == nullptr || env.ids == nullptr)
    return Status::InvalidArgument("the Env needs a clock, a filesystem and an id generator");
  if (options_.checkpointLocation.empty())
    return Status::InvalidArgument("checkpointLocation must be set (option(\"checkpointLocation\", path))");
  if (!sink_) return Status::InvalidArgument("no sink: call sink(...) before start()");
  if (df_.sources().empty()) return Status::InvalidArgument("the query has no source");
  if (options_.minBatchesToRetain < 1)
    return Status::InvalidArgument(fmt::format(
        "spark.sql.streaming.minBatchesToRetain must be >= 1 (the batches kept recoverable), got {}",
        options_.minBatchesToRetain));
  // Spark's ProcessingTimeTrigger requires intervalMs >= 0; 0 runs batches back to back.
  if (options_.trigger.kind == Trigger::Kind::kProcessingTime && options_.trigger.intervalMs < 0)
    return Status::InvalidArgument(fmt::format(
        "the processingTime trigger's interval must not be negative, got {}",
        formatDuration(options_.trigger.intervalMs)));
  QueryOptions options = options_;
  if (options.trigger.kind == Trigger::Kind::kRealTime) {
    STREAMSIM_RETURN_IF_ERROR(prepareRealTimeOptions(options));
  }
  std::unique_ptr<StreamingQuery> q(new StreamingQuery(env, df_, sink_, options));
  STREAMSIM_RETURN_IF_ERROR(q->open());
  return q;
}

}  // namespace streamsim
