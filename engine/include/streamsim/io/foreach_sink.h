// The foreach sink, like Spark's ForeachWriter: per partition of a batch the engine calls
// open(partitionId, epochId); when it returns true, process(row) for each row; then always
// close(error). At least once: a batch re-run after a crash calls the writer again with the
// same epoch id, so a writer that does not dedupe by (partition, epoch) produces duplicates —
// which is exactly what the exactly-once oracle must show. The writer is owned by the test
// (shared_ptr) and outlives restarts. Not thread-safe: partitions are called one after another.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "streamsim/real_time.h"
#include "streamsim/sink.h"

namespace streamsim {

class ForeachWriter {
 public:
  virtual ~ForeachWriter() = default;
  // False skips process() for this partition (the writer already has it); close() still runs.
  virtual bool open(int64_t partitionId, int64_t epochId) = 0;
  virtual void process(const Row& row) = 0;
  // `error` is OK after a clean partition, else why it stopped (process threw).
  virtual void close(const Status& error) = 0;
};

// In real-time mode records go to the writer as they are produced: open(task, epochId) before a
// reader task's first record of the batch, process(row) for each, close at the batch's end.
class ForeachSink final : public Sink, public RealTimeSink {
 public:
  // Rows are split into `numPartitions` contiguous, near-equal parts (partition ids 0..n-1).
  explicit ForeachSink(std::shared_ptr<ForeachWriter> writer, int numPartitions = 1)
      : writer_(std::move(writer)), num_partitions_(numPartitions < 1 ? 1 : numPartitions) {}
  std::string description() const override { return "ForeachSink"; }
  std::string sparkClassName() const override { return "org.apache.spark.sql.execution.streaming.sources.ForeachWriterTable"; }
  // A std::exception from process() closes the partition with the error and fails the batch
  // with TaskFailed naming the batch and partition.
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override;
  bool writesPerRecord() const override { return true; }
  Status writeRecord(const SinkContext& ctx, int task, const Row& row, TimeMs atMs) override;
  Status endBatch(const SinkContext& ctx) override;

 private:
  std::shared_ptr<ForeachWriter> writer_;
  int num_partitions_;
  std::map<int, bool> open_;  // real time: task -> open() returned true
};

std::function<std::unique_ptr<Sink>()> makeForeachSink(std::shared_ptr<ForeachWriter> writer,
                                                       int numPartitions = 1);

}  // namespace streamsim
