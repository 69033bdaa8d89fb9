// The rate-micro-batch source (Spark's RatePerMicroBatchProvider / RatePerMicroBatchStream): every
// micro-batch reads the next `rowsPerBatch` values, whatever the trigger or the clock, each row
// stamped with the batch's generated time (startTimestamp + advanceMillisPerBatch per batch
// before it). Batch 0 holds values 0..rowsPerBatch-1, batch 1 the next ones, and so on; partition
// p of a batch the values start + p, + numPartitions, ..., the rows partition by partition.
//
// An offset is Spark's JSON `{"offset":N,"timestamp":T}` (the next value and its time); the
// initial one is (0, startTimestamp). A source of this kind has new rows at every trigger
// (newRowsEveryTrigger), so "process all available" runs one batch per trigger that fell due
// (StreamingQuery::processAllAvailable); the AvailableNow trigger reads one batch, as Spark's
// prepareForTriggerAvailableNow. Not thread-safe; one per query run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "streamsim/source.h"

namespace streamsim {

struct RateMicroBatchOptions {
  int64_t rowsPerBatch = 0;
  int numPartitions = 1;  // Spark's default is the context's default parallelism
  int64_t startTimestamp = 0;
  int32_t advanceMillisPerBatch = 1000;

  // Spark's option names, case-insensitive: rowsPerBatch (required, > 0), numPartitions (> 0),
  // startTimestamp (>= 0), advanceMillisPerBatch (an int, >= 0). A bad value is InvalidArgument
  // with RatePerMicroBatchProvider's message; an unknown option is InvalidArgument naming the
  // four (Spark ignores it: the PySpark shim drops unknown options before they get here).
  static Result<RateMicroBatchOptions> fromMap(const std::map<std::string, std::string>& options);
};

class RateMicroBatchSource final : public Source {
 public:
  explicit RateMicroBatchSource(RateMicroBatchOptions options) : options_(options) {}
  std::string description() const override;
  std::string sparkClassName() const override {
    return "org.apache.spark.sql.execution.streaming.sources.RatePerMicroBatchStream";
  }
  bool newRowsEveryTrigger() const override { return true; }
  Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) override;
  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override;
  Result<std::vector<Row>> getBatch(const SourceContext& ctx, const std::optional<std::string>& start,
                                    const std::string& end) override;

 private:
  RateMicroBatchOptions options_;
  std::optional<std::string> available_now_end_;  // the one batch an AvailableNow run reads
};

Result<std::function<std::unique_ptr<Source>()>> makeRateMicroBatchSource(
    const std::map<std::string, std::string>& options);

}  // namespace streamsim
