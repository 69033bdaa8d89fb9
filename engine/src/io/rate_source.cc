// The rate source (rate_source.h), after Spark's RateStreamProvider.scala and
// RateStreamMicroBatchStream.scala.
#include "streamsim/io/rate_source.h"

#include <cctype>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "source_options.h"
#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/time.h"

namespace streamsim {
namespace {

using detail::lowerAscii;
using detail::parseLongOption;

// JavaUtils.timeStringAsSec: a plain number is seconds; with a unit (ms, s, m, min, h, d, ...),
// truncated to whole seconds.
Result<int64_t> timeStringAsSec(const std::string& text) {
  bool digits = !text.empty();
  for (char c : text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (digits) return parseLongOption("rampUpTime", text);
  auto ms = parseDuration(text);
  if (!ms.ok())
    return Status::InvalidArgument(fmt::format("Invalid value '{}' for option 'rampUpTime': expected a time "
                                               "such as 5s, 2m or a number of seconds", text));
  return *ms / 1000;
}

Result<int64_t> parseOffset(std::string_view text, std::string_view where) {
  std::string s(text);
  size_t used = 0;
  int64_t v = -1;
  try {
    v = std::stoll(s, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != s.size() || v < 0)
    return Status::Corruption(fmt::format("{}: rate source offset '{}' is not a number of seconds", where, text));
  return v;
}

}  // namespace

Result<RateSourceOptions> RateSourceOptions::fromMap(const std::map<std::string, std::string>& options) {
  RateSourceOptions o;
  for (const auto& [key, value] : options) {
    const std::string k = lowerAscii(key);
    if (k == "rowspersecond") {
      STREAMSIM_ASSIGN_OR_RETURN(o.rowsPerSecond, parseLongOption("rowsPerSecond", value));
      if (o.rowsPerSecond <= 0)
        return Status::InvalidArgument(
            fmt::format("Invalid value '{}'. The option 'rowsPerSecond' must be positive", value));
    } else if (k == "rampuptime") {
      STREAMSIM_ASSIGN_OR_RETURN(o.rampUpTimeSeconds, timeStringAsSec(value));
      if (o.rampUpTimeSeconds < 0)
        return Status::InvalidArgument(fmt::format(
            "Invalid value '{}'. The option 'rampUpTime' must not be negative", o.rampUpTimeSeconds));
    } else if (k == "numpartitions") {
      STREAMSIM_ASSIGN_OR_RETURN(int64_t n, parseLongOption("numPartitions", value));
      if (n <= 0 || n > std::numeric_limits<int>::max())
        return Status::InvalidArgument(
            fmt::format("Invalid value '{}'. The option 'numPartitions' must be positive", value));
      o.numPartitions = static_cast<int>(n);
    } else {
      return Status::InvalidArgument(fmt::format(
          "unknown option '{}' of the rate source; expected rowsPerSecond, rampUpTime, numPartitions", key));
    }
  }
  const int64_t maxSeconds = std::numeric_limits<int64_t>::max() / o.rowsPerSecond;
  if (o.rampUpTimeSeconds > maxSeconds)  // QueryExecutionErrors.incorrectRampUpRate
    return Status::InvalidArgument(
        fmt::format("[INCORRECT_RAMP_UP_RATE] Max offset with {} rowsPerSecond is {}, but 'rampUpTimeSeconds' "
                    "is {}.",
                    o.rowsPerSecond, maxSeconds, o.rampUpTimeSeconds))
        .withCondition("INCORRECT_RAMP_UP_RATE", {{"rowsPerSecond", std::to_string(o.rowsPerSecond)},
                                                  {"maxSeconds", std::to_string(maxSeconds)},
                                                  {"rampUpTimeSeconds", std::to_string(o.rampUpTimeSeconds)}});
  return o;
}

int64_t rateValueAtSecond(int64_t seconds, int64_t rowsPerSecond, int64_t rampUpTimeSeconds) {
  // Speed grows by rowsPerSecond / (rampUpTime + 1) each second until rampUpTime, then stays.
  const int64_t speedDeltaPerSecond = rowsPerSecond / (rampUpTimeSeconds + 1);
  if (seconds <= rampUpTimeSeconds) {
    // (speedDeltaPerSecond * seconds) * (seconds + 1) / 2, ordered so it does not overflow.
    if (seconds % 2 == 1) return (seconds + 1) / 2 * speedDeltaPerSecond * seconds;
    return seconds / 2 * speedDeltaPerSecond * (seconds + 1);
  }
  const int64_t rampUpPart = rateValueAtSecond(rampUpTimeSeconds, rowsPerSecond, rampUpTimeSeconds);
  return rampUpPart + (seconds - rampUpTimeSeconds) * rowsPerSecond;
}

SchemaPtr rateSourceSchema() {
  static const SchemaPtr schema =
      makeSchema({{"timestamp", Type::kTimestamp, true, nullptr}, {"value", Type::kLong, true, nullptr}});
  return schema;
}

std::string RateSource::description() const {
  return fmt::format("RateStreamV2[rowsPerSecond={}, rampUpTimeSeconds={}, numPartitions={}]",
                     options_.rowsPerSecond, options_.rampUpTimeSeconds, options_.numPartitions);
}

// The start time: read from the metadata log (sources/<i>/0), or now, recorded there.
Status RateSource::ensureStarted(const SourceContext& ctx) {
  if (started_) return Status::OK();
  const std::string dir = sourceLogDir(ctx.checkpointRoot, ctx.sourceIndex, ctx.sourceName);
  const std::string file = joinPath(dir, "0");
  if (ctx.env->fs->exists(file)) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string text, ctx.env->fs->read(file));
    const size_t nl = text.find('\n');
    if (text.empty() || text[0] != 'v' || nl == std::string::npos)
      return Status::Corruption(
          fmt::format("{}: Log file was malformed: failed to detect the log file version line.", file));
    if (text.substr(0, nl) != "v1")
      return Status::Corruption(fmt::format("{}: unsupported rate source log version '{}' (expected v1)", file,
                                            text.substr(0, nl)));
    STREAMSIM_ASSIGN_OR_RETURN(creation_ms_, parseOffset(text.substr(nl + 1), file));
  } else {
    creation_ms_ = ctx.env->clock->nowMs();
    STREAMSIM_RETURN_IF_ERROR(ctx.env->fs->mkdirs(dir));
    STREAMSIM_RETURN_IF_ERROR(
        writeFileAtomically(*ctx.env, file, fmt::format("v1\n{}", creation_ms_), FaultContext{ctx.batchId, -1, -1, file}));
  }
  last_time_ms_ = creation_ms_;
  started_ = true;
  return Status::OK();
}

Status RateSource::restore(const SourceContext& ctx, const std::optional<std::string>& committed) {
  (void)committed;
  return ensureStarted(ctx);
}

Result<std::optional<std::string>> RateSource::latestOffset(const SourceContext& ctx,
                                                            const std::optional<std::string>& start) {
  (void)start;
  STREAMSIM_RETURN_IF_ERROR(ensureStarted(ctx));
  last_time_ms_ = std::max(last_time_ms_, ctx.env->clock->nowMs());
  return std::optional<std::string>(std::to_string((last_time_ms_ - creation_ms_) / 1000));
}

Result<std::vector<Row>> RateSource::getBatch(const SourceContext& ctx, const std::optional<std::string>& start,
                                              const std::string& end) {
  STREAMSIM_RETURN_IF_ERROR(ensureStarted(ctx));
  int64_t startSeconds = 0;
  if (start) {
    STREAMSIM_ASSIGN_OR_RETURN(startSeconds, parseOffset(*start, description()));
  }
  STREAMSIM_ASSIGN_OR_RETURN(int64_t endSeconds, parseOffset(end, description()));
  if (startSeconds > endSeconds)
    return Status::FailedPrecondition(
        fmt::format("{}: startSeconds({}) > endSeconds({})", description(), startSeconds, endSeconds));
  const int64_t maxSeconds = std::numeric_limits<int64_t>::max() / options_.rowsPerSecond;
  if (endSeconds > maxSeconds)  // QueryExecutionErrors.incorrectEndOffset
    return Status::FailedPrecondition(
               fmt::format("[INCORRECT_END_OFFSET] Max offset with {} rowsPerSecond is {}, but it's {} now.",
                           options_.rowsPerSecond, maxSeconds, endSeconds))
        .withCondition("INCORRECT_END_OFFSET", {{"rowsPerSecond", std::to_string(options_.rowsPerSecond)},
                                                {"maxSeconds", std::to_string(maxSeconds)},
                                                {"endSeconds", std::to_string(endSeconds)}});
  // Recovery: the clock the source reports from is at least this batch's end.
  last_time_ms_ = std::max(last_time_ms_, endSeconds * 1000 + creation_ms_);
  const int64_t rangeStart = rateValueAtSecond(startSeconds, options_.rowsPerSecond, options_.rampUpTimeSeconds);
  const int64_t rangeEnd = rateValueAtSecond(endSeconds, options_.rowsPerSecond, options_.rampUpTimeSeconds);
  std::vector<Row> rows;
  if (rangeStart == rangeEnd) return rows;
  const int64_t localStartTimeMs = creation_ms_ + startSeconds * 1000;
  const double relativeMsPerValue =
      static_cast<double>((endSeconds - startSeconds) * 1000) / static_cast<double>(rangeEnd - rangeStart);
  rows.reserve(static_cast<size_t>(rangeEnd - rangeStart));
  const SchemaPtr schema = rateSourceSchema();
  for (int p = 0; p < options_.numPartitions; ++p) {
    for (int64_t v = rangeStart + p; v < rangeEnd; v += options_.numPartitions) {
      // Scala's math.round(double): half up.
      const auto relative = static_cast<int64_t>(std::floor(static_cast<double>(v - rangeStart) * relativeMsPerValue + 0.5));
      rows.emplace_back(schema, std::vector<Value>{Value::timestamp(localStartTimeMs + relative), Value(v)});
    }
  }
  return rows;
}

Result<std::function<std::unique_ptr<Source>()>> makeRateSource(const std::map<std::string, std::string>& options) {
  STREAMSIM_ASSIGN_OR_RETURN(RateSourceOptions o, RateSourceOptions::fromMap(options));
  return std::function<std::unique_ptr<Source>()>([o]() -> std::unique_ptr<Source> {
    return std::make_unique<RateSource>(o);
  });
}

}  // namespace streamsim
