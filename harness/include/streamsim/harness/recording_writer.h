// A foreach writer that keeps every row it is given, with the epoch (batch) of each, and does
// no dedup by (partition, epoch): a batch re-run after a crash delivers its rows again, which is
// exactly what the foreach sink's at-least-once contract allows and the exactly_once oracle
// reports. Used by scenario runs and sweep runs. Not thread-safe: one query, one writer.
// With an inner writer (a user's, `sink: {kind: foreach, writer: NAME}`) every call goes to it
// first: its open() decides whether the partition is processed, and a row is kept once the
// user's process() took it (what the user's writer applied, duplicates included).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "streamsim/io/foreach_sink.h"

namespace streamsim::harness {

class RecordingWriter final : public ForeachWriter {
 public:
  explicit RecordingWriter(std::shared_ptr<ForeachWriter> inner = nullptr) : inner_(std::move(inner)) {}
  bool open(int64_t partitionId, int64_t epochId) override {
    epoch_ = epochId;
    return inner_ == nullptr || inner_->open(partitionId, epochId);
  }
  void process(const Row& row) override {
    if (inner_ != nullptr) inner_->process(row);
    rows.push_back(row);
    batchOf.push_back(epoch_);
  }
  void close(const Status& error) override {
    if (inner_ != nullptr) inner_->close(error);
  }

  std::vector<Row> rows;         // every row processed, in order, duplicates included
  std::vector<int64_t> batchOf;  // the epoch each row came with

 private:
  std::shared_ptr<ForeachWriter> inner_;
  int64_t epoch_ = -1;
};

}  // namespace streamsim::harness
