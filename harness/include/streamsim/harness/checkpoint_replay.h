// Replays a real checkpoint's recorded batch plan in the simulator (issue 6, `streamsim replay
// --checkpoint`): the landing files are copied (with their mtimes) into a SimFileSystem, then
// every batch in offsets/ is re-run against a processor with the files its source log names, its
// batchTimestampMs and its watermark. When the early batches were purged
// (spark.sql.streaming.minBatchesToRetain), the replay starts after the first batch kept, on the
// state that batch committed (its snapshot + changelogs). Grouping columns, time mode and state
// store come from the checkpoint unless given; with a sink folder, each replayed batch's output
// is compared with what the sink committed for it. Reads the checkpoint, landing and sink
// folders through the given Env (read-only); the simulated world is private to one call.
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
  std::string schema;                // DDL of the landing files' rows
  // Empty: what the checkpoint records (state/0/_stateSchema's keyColumns and timeMode, the
  // offsets' spark.sql.streaming.stateStore.providerClass). Given: must agree with the record.
  std::vector<std::string> groupBy;  // grouping columns
  std::string timeMode;              // none | processingTime | eventTime
  std::string stateStore;            // memory | rocksdb
  std::string sink;                  // optional: the query's file sink folder, to compare with
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
  // With a sink folder: the rows the sink committed for this batch (nullopt: not compared, and
  // `sinkNote` says why), and whether they differ from `output` (as multisets of rows).
  std::optional<std::vector<Row>> sinkRows;
  std::string sinkNote;
  bool differsFromSink = false;
};

struct CheckpointReplayResult {
  std::string landingPath;  // the folder the source log's paths live in (recreated in the sim)
  std::vector<std::string> groupBy;  // as used (given or recorded)
  std::string timeMode;              // as used: None | ProcessingTime | EventTime
  std::string stateStore;            // as used: memory | rocksdb
  // The first batch whose offsets the checkpoint keeps, and the first one replayed: equal when
  // offsets/0 is kept, else one more (a batch needs its predecessor's offsets and commit; the
  // state it starts from is the state the predecessor committed).
  int64_t firstKeptBatch = 0;
  int64_t firstReplayedBatch = 0;
  std::vector<ReplayedBatch> batches;
  bool comparedWithSink = false;
  std::optional<int64_t> firstDifference;  // the first batch whose output differs from the sink's
};

// InvalidArgument / NotFound with a message naming the folder or flag for: a missing checkpoint,
// landing or sink folder, a checkpoint without offsets or without a file source log
// (sources/0/), landing files the log names but the landing folder lacks, an unknown processor,
// a bad schema, a --group-by/--time-mode/--state-store that contradicts the checkpoint's record,
// and a checkpoint whose kept batches cannot be replayed (only one kept, or it was never
// committed).
// Errors of the re-run itself (the processor threw, a file does not parse) come back as
// FailedPrecondition naming the batch id.
Result<CheckpointReplayResult> replayCheckpoint(const Env& real, const CheckpointReplayOptions& options);

// Human text: what was replayed from where, per batch the files, rows in/out, timestamp,
// watermark and output rows, and (with a sink) where the output first differs from the sink's.
std::string formatReplay(const CheckpointReplayResult& result);

}  // namespace streamsim::harness
