// Replays a real checkpoint's recorded batch plan in the simulator (issue 6, `streamsim replay
// --checkpoint`): the landing files are copied (with their mtimes) into a SimFileSystem, then
// every batch in offsets/ is re-run against a processor with the files its source log names, its
// batchTimestampMs and its watermark. Reads the checkpoint and landing folder through the given
// Env (read-only); the simulated world is private to one call. Not thread-safe per call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim::harness {

struct CheckpointReplayOptions {
  std::string checkpoint;            // the checkpoint folder (offsets/, sources/0/, metadata)
  std::string landing;               // the folder holding the landing files the log names
  std::string processor;             // a ProcessorRegistry name, e.g. "count"
  std::vector<std::string> groupBy;  // grouping columns
  std::string schema;                // DDL of the landing files' rows
  std::string timeMode = "none";     // none | processingTime | eventTime
  std::string stateStore = "memory"; // memory | rocksdb
};

struct ReplayedBatch {
  int64_t batchId = 0;
  TimeMs batchTimestampMs = 0;         // as recorded in offsets/N
  TimeMs watermarkMs = 0;              // as recorded in offsets/N
  std::vector<std::string> files;      // what the source log names for this batch
  int64_t rowsIn = 0;
  int64_t rowsOut = 0;
  std::vector<Row> output;             // the processor's output rows of this batch
  std::optional<TimeMs> replayedTimestampMs;  // what the simulated re-run used
  std::optional<TimeMs> replayedWatermarkMs;
};

struct CheckpointReplayResult {
  std::string landingPath;  // the folder the source log's paths live in (recreated in the sim)
  std::vector<ReplayedBatch> batches;
};

// InvalidArgument / NotFound with a message naming the folder or flag for: a missing checkpoint
// or landing folder, a checkpoint without offsets or without a file source log (sources/0/),
// landing files the log names but the landing folder lacks, an unknown processor, a bad schema.
// Errors of the re-run itself (the processor threw, a file does not parse) come back as
// FailedPrecondition naming the batch id.
Result<CheckpointReplayResult> replayCheckpoint(const Env& real, const CheckpointReplayOptions& options);

// Human text: per batch the files, rows in/out, timestamp, watermark and output rows.
std::string formatReplay(const CheckpointReplayResult& result);

}  // namespace streamsim::harness
