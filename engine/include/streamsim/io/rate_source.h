// The rate source (Spark's RateStreamProvider / RateStreamMicroBatchStream): rows (timestamp,
// value) generated at `rowsPerSecond`, ramping up over `rampUpTime`, spread over `numPartitions`,
// on the engine's clock (a virtual one in a simulation: an hour of rows takes no wall time).
//
// As Spark's: the first run records its start time in the source's metadata log
// (sources/<i>/0: "v1\n<ms>", written once, atomically) and every later run reads it back; an
// offset is the number of whole seconds since that start ("5" in offsets/N, Spark's LongOffset);
// batch (s, e] holds the values valueAtSecond(s) .. valueAtSecond(e) - 1, partition p the values
// rangeStart + p, + numPartitions, ..., each stamped start + s seconds + round((v - rangeStart) *
// msPerValue). The rows come partition by partition, as a sink collecting Spark's partitions in
// order sees them. A re-run batch gets the same rows. Not thread-safe; one per query run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/source.h"

namespace streamsim {

struct RateSourceOptions {
  int64_t rowsPerSecond = 1;
  int64_t rampUpTimeSeconds = 0;
  int numPartitions = 1;  // Spark's default is the context's default parallelism

  // Spark's option names, case-insensitive: rowsPerSecond (> 0), rampUpTime (JavaUtils
  // timeStringAsSec: "5s", "2m", a plain number of seconds; >= 0), numPartitions (> 0). A bad or
  // unknown option is InvalidArgument with Spark's message.
  static Result<RateSourceOptions> fromMap(const std::map<std::string, std::string>& options);
};

// Spark's RateStreamProvider.valueAtSecond: the value generated up to `seconds`.
int64_t rateValueAtSecond(int64_t seconds, int64_t rowsPerSecond, int64_t rampUpTimeSeconds);

// The fixed schema: timestamp TIMESTAMP, value BIGINT.
SchemaPtr rateSourceSchema();

class RateSource final : public Source {
 public:
  explicit RateSource(RateSourceOptions options) : options_(options) {}
  std::string description() const override;
  std::string sparkClassName() const override {
    return "org.apache.spark.sql.execution.streaming.sources.RateStreamMicroBatchStream";
  }
  Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) override;
  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override;
  Result<std::vector<Row>> getBatch(const SourceContext& ctx, const std::optional<std::string>& start,
                                    const std::string& end) override;
  // The start time the metadata log holds (valid after restore).
  int64_t creationTimeMs() const { return creation_ms_; }

 private:
  Status ensureStarted(const SourceContext& ctx);
  RateSourceOptions options_;
  bool started_ = false;
  int64_t creation_ms_ = 0;
  int64_t last_time_ms_ = 0;
};

Result<std::function<std::unique_ptr<Source>()>> makeRateSource(
    const std::map<std::string, std::string>& options);

}  // namespace streamsim
