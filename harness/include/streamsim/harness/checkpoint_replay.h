// Replays a real checkpoint in the simulator (issues 6 and 39, `streamsim replay --checkpoint`;
// walk-through: docs/incident-replay.md). The replay starts after a committed batch K (or from
// batch 0) on the state K committed — streamsim's own state files, or Spark's RocksDB-backed store
// read and decoded by the one state reader (checkpoint_state.h) and carried into the simulator's
// store (spark_state_import.h) — then re-runs every recorded batch after K against a processor
// (registered, or a PySpark `file.py:Class`) with the input its offsets name, its batchTimestampMs
// and its watermark, and then runs new batches on the input nobody read yet. The input: for a file
// source, the landing folder (the files its source log names, and new ones); for a Kafka source, a
// file of recorded records (kafka_records.h) read at the offsets offsets/N names; for a source that
// keeps no data (MemoryStream), the landing folder as new input. When the early batches were purged
// (spark.sql.streaming.minBatchesToRetain), the replay starts after the first batch kept.
// Grouping columns, time mode and state store come from the checkpoint unless given; with a sink
// folder, each replayed batch's output is compared with what the sink committed for it. Reads the
// checkpoint, landing, records and sink through the given Env (read-only); the simulated world is
// private to one call.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim::harness {

struct RunRegistries;  // run/registries.h

struct CheckpointReplayOptions {
  std::string checkpoint;            // the checkpoint folder (offsets/, sources/0/, metadata)
  std::string landing;               // the folder holding the landing files the log names
  std::string processor;             // a name in the runner's processors, e.g. "count"
  std::string schema;                // DDL of the landing files' rows
  // Empty: what the checkpoint records (state/0/_stateSchema's keyColumns and timeMode, the
  // offsets' spark.sql.streaming.stateStore.providerClass). Given: must agree with the record.
  std::vector<std::string> groupBy;  // grouping columns
  std::string timeMode;              // none | processingTime | eventTime
  std::string stateStore;            // memory | rocksdb
  std::string sink;                  // optional: the query's file sink folder, to compare with
  // The committed batch K to start after, on the state K committed. nullopt: batch 0 when the
  // recorded input can be re-read from the start (a file source, or Kafka records) and offsets/0 is
  // kept; after the first batch kept when earlier ones were purged; else the last committed batch.
  std::optional<int64_t> fromBatch;
  // A Kafka source's recorded records (JSON lines, kafka_records.h); required for one.
  std::string kafkaRecords;
  // What the runner hands its runs (run/registries.h): its processors, the loader of a
  // `file.py:Class` processor.
  std::shared_ptr<const RunRegistries> registries;
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
  // false: a batch past the recorded ones, on input no recorded batch read (nothing to compare).
  bool recorded = true;
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
  // K, the committed batch the replay starts after (-1: from the beginning, on empty state).
  int64_t startAfterBatch = -1;
  // The recorded source: "files", "kafka", or "unrecorded" (its offsets keep no data, e.g.
  // MemoryStream: the landing folder is new input only).
  std::string sourceKind;
  // How the state K committed was loaded ("" when the replay starts from the beginning).
  std::string stateLoaded;
  std::vector<ReplayedBatch> batches;
  bool comparedWithSink = false;
  std::optional<int64_t> firstDifference;  // the first batch whose output differs from the sink's
};

// InvalidArgument / NotFound with a message naming the folder or flag for: a missing checkpoint,
// landing or sink folder, a checkpoint without offsets, a Kafka source without --kafka-records
// (or records that do not reach its offsets), a --from-batch that was never committed, state that
// cannot be read or carried over (naming Spark's file), landing files the log names but the
// landing folder lacks, an unknown processor,
// a bad schema, a --group-by/--time-mode/--state-store that contradicts the checkpoint's record,
// and a checkpoint whose kept batches cannot be replayed (only one kept, or it was never
// committed).
// Errors of the re-run itself (the processor threw, a file does not parse) come back as
// FailedPrecondition naming the batch id.
Result<CheckpointReplayResult> replayCheckpoint(const Env& real, const CheckpointReplayOptions& options);

// What a run starting after committed batch K of a real checkpoint needs in its own (simulated)
// checkpoint folder: K's offsets (its source offsets cleared: the run's own source starts with
// nothing read) and commit, and the state K committed — loaded as replayCheckpoint loads it (Spark's
// RocksDB store carried over, streamsim's files copied) — each file's path relative to the
// checkpoint folder and its bytes. A scenario's `from_checkpoint:` puts them in before its first
// step, so an incident's starting point runs and sweeps like any scenario (docs/incident-replay.md).
// `keySchema` types the grouping columns as the run's input has them; `stateStore` is memory or
// rocksdb. InvalidArgument naming the checkpoint file for a batch never committed and for state
// that cannot be read or carried over.
struct CheckpointStart {
  std::map<std::string, std::string> files;
  std::string stateLoaded;  // how the state was loaded (formatReplay's "state:" line)
};
Result<CheckpointStart> checkpointStartFiles(const Env& real, const std::string& checkpoint, int64_t batch,
                                             const Schema& keySchema, const std::string& stateStore);

// Human text: what was replayed from where, per batch the files, rows in/out, timestamp,
// watermark and output rows, and (with a sink) where the output first differs from the sink's.
std::string formatReplay(const CheckpointReplayResult& result);

}  // namespace streamsim::harness
