// The checkpoint inspector: reads a checkpoint (and optionally a file sink folder) through the
// Env, lines up offsets/commits/source logs/sink log per batch and diagnoses what a restart
// would do and what looks wrong. Read-only; missing folders and unreadable files are reported,
// never fatal. Not thread-safe (borrows the Env).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/env.h"
#include "streamsim/time.h"

namespace streamsim {

// Files a file source took in one batch (from sources/<i>/, via its {"logOffset":K}).
struct BatchSourceFiles {
  int sourceIndex = 0;
  std::optional<int64_t> logOffset;  // K in this batch, when the offset is a file source offset
  std::vector<std::string> files;    // entries with previous K < batchId <= K
  // A Kafka source ({"topic":{"partition":offset,...}}): the records the batch read, summed over
  // partitions from the previous batch's offsets (or the initial offsets); nullopt otherwise.
  std::optional<int64_t> kafkaRecords;
};

// A Kafka source's sources/<i>/0, the offsets it started from (KafkaSourceInitialOffsetWriter:
// a zero byte, then "v1\n" and the offsets JSON; the zero byte is there since SPARK-19517).
struct KafkaSourceReport {
  int sourceIndex = 0;
  std::string path;
  bool zeroBytePrefix = false;
  int version = 0;
  std::string initialOffsetsJson;  // {"topic":{"0":123,...}}
  int topics = 0;
  int partitions = 0;
};

struct BatchReport {
  int64_t batchId = 0;
  bool hasOffsets = false;
  int offsetsVersion = 0;
  std::optional<TimeMs> batchTimestampMs;
  std::optional<TimeMs> batchWatermarkMs;
  // One per source (CheckpointReport::sourceNames: an offsets v2 file is lined up by source id);
  // nullopt = "-" or, in v2, a source the file does not name.
  std::vector<std::optional<std::string>> sourceOffsets;
  bool committed = false;
  int commitVersion = 0;
  std::optional<TimeMs> nextBatchWatermarkMs;
  std::string activeSink;  // a v3 commit's active sink ("" otherwise)
  std::vector<BatchSourceFiles> sourceFiles;
  // Files the sink log lists for this batch (action "add"); nullopt when no sink log batch.
  std::optional<std::vector<std::string>> sinkFiles;
};

struct SinkReport {
  std::string path;
  bool logPresent = false;              // _spark_metadata exists
  std::optional<int64_t> latestBatchId;
  std::vector<std::string> listedFiles;  // allFiles(): what a reader of the folder sees
  std::vector<std::string> orphanFiles;  // data files in the folder not listed (crashed batches)
};

enum class DiagnosisKind {
  kMissing,              // a folder or file that should be there is not
  kUnreadable,           // a file that could not be parsed (the message says why)
  kUncommittedBatch,     // offsets N without commit N: a restart re-runs N with the same offsets
  kOffsetsGap,           // offsets ids not contiguous (SPARK-38033)
  kCommitsGap,           // commit ids not contiguous
  kCommitWithoutOffsets, // commit N with no offsets N
  kSinkAhead,            // sink log has batches the commit log does not (the sink skips them)
  kOrphanFiles,          // data files in the sink folder not listed in _spark_metadata
  kRenamedResend,        // the same file content taken/written twice under different names
  kChecksumMismatch,     // a file does not match its Hadoop .crc (changed after Spark wrote it)
  kLeftoverTempFile,     // a temp file a write cut short left behind (never read; safe to delete)
  kSinkMoved,            // the sink folder's log names its files under another folder (it was moved)
  kMissingStateFile,     // a Spark RocksDB state file a committed version needs is not there
  kOrphanedStateFile,    // a Spark RocksDB state file no commit names (checkpoint format v2)
};
const char* diagnosisKindName(DiagnosisKind k);

struct Diagnosis {
  DiagnosisKind kind = DiagnosisKind::kMissing;
  std::string message;  // one human sentence with ids and paths
  std::vector<int64_t> batchIds;
  std::vector<std::string> paths;
};

struct CheckpointReport {
  std::string root;
  std::optional<std::string> queryId;  // from `metadata`
  std::vector<BatchReport> batches;    // ascending batch id; every id seen in offsets or commits
  std::optional<int64_t> latestOffsetsId;
  std::optional<int64_t> latestCommitId;
  // What populateStartOffsets would do: the batch a restart runs first and whether it is a
  // re-run of an uncommitted batch (same offsets, timestamp and watermark).
  std::optional<int64_t> restartBatchId;
  bool restartIsRerun = false;
  std::vector<OperatorMetadata> operators;
  std::optional<SinkReport> sink;
  std::vector<KafkaSourceReport> kafkaSources;
  // Spark 4.2: the source ids offsets v2 files key their offsets by (a name under source
  // evolution, the position otherwise), in order of first appearance; empty when every offsets
  // file is v1 (sources by position). Source i of a report is sourceNames[i] then.
  std::vector<std::string> sourceNames;
  // The sinks the latest v3 commit names (sinkMetadataMap), the active one among them.
  std::vector<SinkMetadataInfo> sinks;
  int checksumsVerified = 0;  // Hadoop .crc files checked (and matched)
  // The state store provider the newest offsets record (spark.sql.streaming.stateStore.
  // providerClass; nullopt when none is recorded: Spark's default, the HDFS-backed one) and the
  // state checkpoint format version: 2 when a commit records stateUniqueIds ids (or the offsets'
  // spark.sql.streaming.stateStore.checkpointFormatVersion says 2), else 1.
  std::optional<std::string> stateStoreProvider;
  int stateCheckpointFormatVersion = 1;
  // flatMapGroupsWithState's state format (spark.sql.streaming.flatMapGroupsWithState.
  // stateFormatVersion) as Spark reads it from the newest offsets (OffsetSeqMetadata.readValueOpt):
  // the recorded value, or "1" (FlatMapGroupsWithStateExecHelper.legacyVersion) when offsets with
  // a conf do not record it (Spark 2.3); nullopt without offsets or conf. FlatMapGroupsWithStateExec
  // and FlatMapGroupsInPandasWithStateExec (applyInPandasWithState) use it.
  std::optional<std::string> flatMapGroupsWithStateFormatVersion;
  bool flatMapGroupsWithStateFormatRecorded = false;  // the offsets name it (not the legacy default)
  std::vector<Diagnosis> diagnoses;

  bool has(DiagnosisKind k) const {
    for (const auto& d : diagnoses)
      if (d.kind == k) return true;
    return false;
  }
};

// Inspects `root` (and `sinkPath` if given). Fails only if `root` itself is unusable (empty
// path); everything else ends up in the report.
Result<CheckpointReport> inspectCheckpoint(const Env& env, const std::string& root,
                                           std::optional<std::string> sinkPath = std::nullopt);

// The checkpoint folders at or under `root`: `root` itself if it holds offsets/, commits/ or a
// `metadata` file; otherwise every nested folder that does (not descending into a checkpoint
// found, nor deeper than maxDepth levels), sorted by path. Empty when there is none.
std::vector<std::string> findCheckpoints(const Env& env, const std::string& root, int maxDepth = 6);

std::string formatReport(const CheckpointReport& report);  // human text, one item per line
std::string reportToJson(const CheckpointReport& report);  // one JSON object, pretty-printed

}  // namespace streamsim
