// The memory sink, like Spark's MemorySink: output kept in a MemorySinkData the test holds via a
// shared_ptr (outside the engine, so it survives a crash and restart). Idempotent by batch id,
// as Spark's: a batch id at or below the latest one it has is ignored. In real-time mode it is
// Spark's ContinuousMemorySink instead: every record is appended as it is produced, at least
// once (a batch run again after a failure appends its records again). Views: append (all rows
// in batch order), update (the latest row per key), complete (the last batch's rows), and the
// rows of one batch (CheckLastBatch). Not thread-safe: the test and the engine take turns.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/real_time.h"
#include "streamsim/sink.h"

namespace streamsim {

class MemorySinkData {
 public:
  MemorySinkData() = default;
  // `keyColumns` drive the update view (may be empty: then update == append).
  explicit MemorySinkData(std::vector<std::string> keyColumns) : key_columns_(std::move(keyColumns)) {}

  // Adds batch `batchId`; false (ignored) when batchId <= latestBatchId().
  bool addBatch(int64_t batchId, std::vector<Row> rows, OutputMode mode);
  // Real time: appends one record to batch `batchId`, whatever it holds already.
  void appendRecord(int64_t batchId, Row row, OutputMode mode);

  // All rows of all batches, in batch order (append view).
  std::vector<Row> appendView() const;
  // For each key (key columns, or `keyColumns()` when empty) the row of the latest batch that
  // emitted it, ordered by key.
  std::vector<Row> updateView(const std::vector<std::string>& keyColumns = {}) const;
  // The rows of the last batch (complete view).
  std::vector<Row> completeView() const;
  // The view matching the output mode of the latest batch (append when there is none).
  std::vector<Row> currentView() const;

  // Rows of one batch; nullptr if the sink never got it.
  const std::vector<Row>* batch(int64_t batchId) const;
  std::optional<int64_t> latestBatchId() const;
  const std::map<int64_t, std::vector<Row>>& batches() const { return batches_; }
  int64_t ignoredBatches() const { return ignored_batches_; }
  const std::vector<std::string>& keyColumns() const { return key_columns_; }
  // Forgets everything (a new checkpoint restarts batch ids at 0).
  void clear();

 private:
  std::vector<std::string> key_columns_;
  std::map<int64_t, std::vector<Row>> batches_;
  OutputMode last_mode_ = OutputMode::kAppend;
  int64_t ignored_batches_ = 0;
};

// In real-time mode each record is appended when it is delivered, at least once, as Spark's
// ContinuousMemorySink (sources/ContinuousMemory.scala) does: a batch re-run after a failure
// (its offsets/N purged at the restart) delivers its records again.
class MemorySink final : public Sink, public RealTimeSink {
 public:
  bool writesPerRecord() const override { return true; }
  explicit MemorySink(std::shared_ptr<MemorySinkData> data) : data_(std::move(data)) {}
  std::string description() const override { return "MemorySink"; }
  std::string sparkClassName() const override { return "org.apache.spark.sql.execution.streaming.sources.MemorySink"; }
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override;
  Status writeRecord(const SinkContext& ctx, int task, const Row& row, TimeMs atMs) override;

 private:
  std::shared_ptr<MemorySinkData> data_;
};

std::function<std::unique_ptr<Sink>()> makeMemorySink(std::shared_ptr<MemorySinkData> data);

}  // namespace streamsim
