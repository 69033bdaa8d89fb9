// Real-time mode (SEMANTICS.md §7, DESIGN.md §5b): what a source and a sink must offer to run
// under Trigger::RealTime. A real-time source reads, per partition (one long-running reader
// task each), every record arriving before the batch's end, with its arrival time; a real-time
// sink either takes records one by one as they are produced (Kafka-like, foreach: at least
// once — a batch that fails half way is re-run from the last committed offsets and writes its
// records again) or buffers them until the batch ends (memory, console). Sources and sinks
// without these interfaces are rejected at start (STREAMING_REAL_TIME_MODE.INPUT_STREAM_NOT_SUPPORTED,
// ...SINK_NOT_SUPPORTED).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "streamsim/sink.h"
#include "streamsim/source.h"

namespace streamsim {

// One input record of a real-time batch.
struct TimedRow {
  Row row;
  int task = 0;           // the reader task (source partition) that read it
  int64_t offset = 0;     // within its partition (ties in arrival are broken by it)
  TimeMs arrivalMs = 0;   // when it became readable
};

struct RealTimeRead {
  std::vector<TimedRow> rows;  // each task's rows in offset order
  std::string end;             // the offset after them (the batch's end offset)
  int numTasks = 1;
};

class RealTimeSource {
 public:
  virtual ~RealTimeSource() = default;
  // Spark's SupportsRealTimeMode.prepareForRealTimeMode: called once when a real-time query
  // starts; a source refuses the options it cannot honour in real time here.
  virtual Status prepareForRealTimeMode() { return Status::OK(); }
  // Every record after `start` that is readable before `untilMs` (exclusive): what the
  // long-running reader tasks see during the batch. With `end` (the re-run of a batch whose
  // offsets/N was written) exactly the records up to it, whenever they arrived. Deterministic
  // for the same arguments.
  virtual Result<RealTimeRead> readUntil(const SourceContext& ctx,
                                         const std::optional<std::string>& start, TimeMs untilMs,
                                         const std::optional<std::string>& end = std::nullopt) = 0;
};

class RealTimeSink {
 public:
  virtual ~RealTimeSink() = default;
  // True: writeRecord is called for every output record as it is produced; false: the batch's
  // records go to Sink::addBatch when the batch ends.
  virtual bool writesPerRecord() const = 0;
  // One output record, produced by `task` and delivered at `atMs` (virtual time).
  virtual Status writeRecord(const SinkContext& ctx, int task, const Row& row, TimeMs atMs) {
    (void)ctx;
    (void)task;
    (void)row;
    (void)atMs;
    return Status::OK();
  }
  // The batch's last record was written (a foreach writer's partitions are closed here).
  virtual Status endBatch(const SinkContext& ctx) {
    (void)ctx;
    return Status::OK();
  }
};

}  // namespace streamsim
