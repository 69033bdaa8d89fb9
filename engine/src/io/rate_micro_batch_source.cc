// The rate-micro-batch source (rate_micro_batch_source.h), after Spark's
// RatePerMicroBatchProvider.scala and RatePerMicroBatchStream.scala.
#include "streamsim/io/rate_micro_batch_source.h"

#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "source_options.h"
#include "streamsim/io/rate_source.h"
#include "streamsim/spark_errors.h"

namespace streamsim {
namespace {

using detail::lowerAscii;
using detail::parseLongOption;

// The rows of one batch are held in memory: a larger batch is refused, not an allocation failure.
constexpr int64_t kMostMicroBatchRows = 50'000'000;

struct MicroBatchOffset {
  int64_t offset = 0;
  int64_t timestamp = 0;
};

// Spark's RatePerMicroBatchStreamOffset.json (json4s writes the case class's fields in order).
std::string microBatchOffsetJson(const MicroBatchOffset& o) {
  return fmt::format("{{\"offset\":{},\"timestamp\":{}}}", o.offset, o.timestamp);
}

Result<MicroBatchOffset> parseMicroBatchOffset(const std::string& text, std::string_view where) {
  auto bad = [&] {
    return Status::Corruption(fmt::format("{}: rate-micro-batch offset '{}' is not {{\"offset\":N,\"timestamp\":T}}",
                                          where, text));
  };
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("offset") || !j.contains("timestamp") || !j["offset"].is_number_integer() ||
      !j["timestamp"].is_number_integer())
    return bad();
  const MicroBatchOffset o{j["offset"].get<int64_t>(), j["timestamp"].get<int64_t>()};
  if (o.offset < 0 || o.timestamp < 0) return bad();  // Spark's start at (0, startTimestamp >= 0)
  return o;
}

Status invalidMicroBatchOption(const std::string& value, std::string_view name, std::string_view rule) {
  return Status::InvalidArgument(fmt::format("Invalid value '{}'. The option '{}' must be {}", value, name, rule));
}

}  // namespace

Result<RateMicroBatchOptions> RateMicroBatchOptions::fromMap(const std::map<std::string, std::string>& options) {
  RateMicroBatchOptions o;
  bool rowsGiven = false;
  for (const auto& [key, value] : options) {
    const std::string k = lowerAscii(key);
    if (k == "rowsperbatch") {
      STREAMSIM_ASSIGN_OR_RETURN(o.rowsPerBatch, parseLongOption("rowsPerBatch", value));
      rowsGiven = true;
    } else if (k == "numpartitions") {
      STREAMSIM_ASSIGN_OR_RETURN(int64_t n, parseLongOption("numPartitions", value));
      if (n <= 0 || n > std::numeric_limits<int>::max()) return invalidMicroBatchOption(value, "numPartitions", "positive");
      o.numPartitions = static_cast<int>(n);
    } else if (k == "starttimestamp") {
      STREAMSIM_ASSIGN_OR_RETURN(o.startTimestamp, parseLongOption("startTimestamp", value));
      if (o.startTimestamp < 0) return invalidMicroBatchOption(value, "startTimestamp", "non-negative");
    } else if (k == "advancemillisperbatch") {
      STREAMSIM_ASSIGN_OR_RETURN(int64_t ms, parseLongOption("advanceMillisPerBatch", value));
      if (ms > std::numeric_limits<int32_t>::max() || ms < std::numeric_limits<int32_t>::min())
        return Status::InvalidArgument(fmt::format(
            "Invalid value '{}' for option 'advanceMillisPerBatch': expected an int", value));
      if (ms < 0) return invalidMicroBatchOption(value, "advanceMillisPerBatch", "non-negative");
      o.advanceMillisPerBatch = static_cast<int32_t>(ms);
    } else {
      return Status::InvalidArgument(fmt::format(
          "unknown option '{}' of the rate-micro-batch source; expected rowsPerBatch, numPartitions, "
          "startTimestamp, advanceMillisPerBatch",
          key));
    }
  }
  // RatePerMicroBatchProvider.getTable: a missing rowsPerBatch reads as 0.
  if (!rowsGiven || o.rowsPerBatch <= 0)
    return invalidMicroBatchOption(std::to_string(o.rowsPerBatch), "rowsPerBatch", "positive");
  return o;
}

std::string RateMicroBatchSource::description() const {
  return fmt::format("RatePerMicroBatchStream[rowsPerBatch={}, numPartitions={}, startTimestamp={}, "
                     "advanceMsPerBatch={}]",
                     options_.rowsPerBatch, options_.numPartitions, options_.startTimestamp,
                     options_.advanceMillisPerBatch);
}

Status RateMicroBatchSource::restore(const SourceContext& ctx, const std::optional<std::string>& committed) {
  (void)ctx;
  (void)committed;
  available_now_end_.reset();
  return Status::OK();
}

Result<std::optional<std::string>> RateMicroBatchSource::latestOffset(const SourceContext& ctx,
                                                                      const std::optional<std::string>& start) {
  // RatePerMicroBatchStream.latestOffset: one batch past the start, whatever the trigger; under
  // AvailableNow the first answer of the run stays the answer (one batch, then none).
  if (ctx.availableNow && available_now_end_) return available_now_end_;
  MicroBatchOffset from{0, options_.startTimestamp};
  if (start) {
    STREAMSIM_ASSIGN_OR_RETURN(from, parseMicroBatchOffset(*start, description()));
  }
  const int64_t end = from.offset > std::numeric_limits<int64_t>::max() - options_.rowsPerBatch
                          ? std::numeric_limits<int64_t>::max()
                          : from.offset + options_.rowsPerBatch;
  const int64_t time = from.timestamp > std::numeric_limits<int64_t>::max() - options_.advanceMillisPerBatch
                           ? std::numeric_limits<int64_t>::max()
                           : from.timestamp + options_.advanceMillisPerBatch;
  std::optional<std::string> next = microBatchOffsetJson(MicroBatchOffset{end, time});
  if (ctx.availableNow) available_now_end_ = next;
  return next;
}

Result<std::vector<Row>> RateMicroBatchSource::getBatch(const SourceContext& ctx,
                                                        const std::optional<std::string>& start,
                                                        const std::string& end) {
  (void)ctx;
  MicroBatchOffset from{0, options_.startTimestamp};
  if (start) {
    STREAMSIM_ASSIGN_OR_RETURN(from, parseMicroBatchOffset(*start, description()));
  }
  STREAMSIM_ASSIGN_OR_RETURN(MicroBatchOffset to, parseMicroBatchOffset(end, description()));
  // RatePerMicroBatchStream.planInputPartitions' checks.
  if (from.offset > to.offset)
    return sparkError(Status::Code::kFailedPrecondition, "MALFORMED_STATE_IN_RATE_PER_MICRO_BATCH_SOURCE.INVALID_OFFSET",
                      {{"startOffset", std::to_string(from.offset)}, {"endOffset", std::to_string(to.offset)}});
  if (from.timestamp > to.timestamp)
    return sparkError(Status::Code::kFailedPrecondition,
                      "MALFORMED_STATE_IN_RATE_PER_MICRO_BATCH_SOURCE.INVALID_TIMESTAMP",
                      {{"startTimestamp", std::to_string(from.timestamp)},
                       {"endTimestamp", std::to_string(to.timestamp)}});
  std::vector<Row> rows;
  if (from.offset == to.offset) return rows;
  if (to.offset - from.offset > kMostMicroBatchRows)
    return Status::FailedPrecondition(fmt::format(
        "{}: a batch of {} rows is more than streamsim holds in memory ({} at most); lower rowsPerBatch",
        description(), to.offset - from.offset, kMostMicroBatchRows));
  rows.reserve(static_cast<size_t>(to.offset - from.offset));
  const SchemaPtr schema = rateSourceSchema();
  const int64_t n = options_.numPartitions;
  const int64_t count = to.offset - from.offset;  // 0 < count <= kMostMicroBatchRows
  for (int64_t p = 0; p < n; ++p)
    for (int64_t k = p; k < count; k += n)
      rows.emplace_back(schema, std::vector<Value>{Value::timestamp(from.timestamp), Value(from.offset + k)});
  return rows;
}

Result<std::function<std::unique_ptr<Source>()>> makeRateMicroBatchSource(
    const std::map<std::string, std::string>& options) {
  STREAMSIM_ASSIGN_OR_RETURN(RateMicroBatchOptions o, RateMicroBatchOptions::fromMap(options));
  return std::function<std::unique_ptr<Source>()>([o]() -> std::unique_ptr<Source> {
    return std::make_unique<RateMicroBatchSource>(o);
  });
}

}  // namespace streamsim
