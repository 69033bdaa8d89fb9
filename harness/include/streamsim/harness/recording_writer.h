// A foreach writer that keeps every row it is given, with the epoch (batch) of each, and does
// no dedup by (partition, epoch): a batch re-run after a crash delivers its rows again, which is
// exactly what the foreach sink's at-least-once contract allows and the exactly_once oracle
// reports. Used by scenario runs and sweep runs. Not thread-safe: one query, one writer.
#pragma once

#include <cstdint>
#include <vector>

#include "streamsim/io/foreach_sink.h"

namespace streamsim::harness {

class RecordingWriter final : public ForeachWriter {
 public:
  bool open(int64_t, int64_t epochId) override {
    epoch_ = epochId;
    return true;
  }
  void process(const Row& row) override {
    rows.push_back(row);
    batchOf.push_back(epoch_);
  }
  void close(const Status&) override {}

  std::vector<Row> rows;         // every row processed, in order, duplicates included
  std::vector<int64_t> batchOf;  // the epoch each row came with

 private:
  int64_t epoch_ = -1;
};

}  // namespace streamsim::harness
