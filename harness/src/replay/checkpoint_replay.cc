// Replays a checkpoint's recorded batch plan in the simulator (checkpoint_replay.h).
//
// How: the simulated checkpoint gets the original `metadata` and source logs (sources/), but
// no commits. Starting after a committed batch K (a purged prefix, --from-batch, or a source that
// keeps no data), K's offsets and commit and the state K committed (version K+1) are put in first:
// streamsim's own state files copied, Spark's RocksDB store carried over (spark_state_import.h).
// For each recorded batch N > K in order, offsets/N is copied in and the query is (re)started:
// with offsets/N present and commits/N absent the engine re-runs batch N exactly as a Spark
// restart does (SEMANTICS.md §1) -- the same input its offsets name, the same batchTimestampMs
// and the same watermark -- on top of the state the replay's own batch N-1 committed. Then the
// query keeps running batches while there is input no batch read (new landing files, Kafka
// records past the last offsets).
#include "streamsim/harness/checkpoint_replay.h"

#include "checkpoint_replay_sink.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <string_view>
#include <map>
#include <memory>
#include <set>
#include <charconv>

#include <fmt/format.h>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/harness/checkpoint_state.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/state/state_files.h"
#include "kafka_records.h"
#include "streamsim/harness/spark_state_import.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/query.h"
#include "streamsim/state/state_schema.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {
namespace {

constexpr const char* kSimCheckpoint = "/replay/checkpoint";

std::string trimSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string baseName(const std::string& p) {
  auto at = p.rfind('/');
  return at == std::string::npos ? p : p.substr(at + 1);
}

std::string dirName(const std::string& p) {
  auto at = p.rfind('/');
  if (at == std::string::npos) return "";
  return at == 0 ? "/" : p.substr(0, at);
}

bool isDir(const Env& env, const std::string& path) {
  auto st = env.fs->stat(path);
  return st.ok() && st->isDir;
}

// Copies every file under `from` (real) whose name `keep` accepts to `to` (sim), recursively,
// keeping mtimes.
Status copyTree(const Env& real, const std::string& from, sim::SimFileSystem& sim,
                const std::string& to,
                const std::function<bool(const std::string& name)>& keep = nullptr) {
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, real.fs->list(from));
  STREAMSIM_RETURN_IF_ERROR(sim.mkdirs(to));
  for (const FileInfo& e : entries) {
    const std::string name = baseName(e.path);
    std::string target = to + "/" + name;
    if (e.isDir) {
      STREAMSIM_RETURN_IF_ERROR(copyTree(real, e.path, sim, target, keep));
      continue;
    }
    if (keep && !keep(name)) continue;
    STREAMSIM_ASSIGN_OR_RETURN(std::string data, real.fs->read(e.path));
    STREAMSIM_RETURN_IF_ERROR(sim.putDurable(target, data));
    STREAMSIM_RETURN_IF_ERROR(sim.setModificationTime(target, e.modificationTime));
  }
  return Status::OK();
}

// The state version a state file holds (`<v>.delta|.snapshot|.changelog|.zip`), or nullopt for
// every other file (schema records, operator metadata).
std::optional<int64_t> stateFileVersion(const std::string& name) {
  auto dot = name.find('.');
  if (dot == std::string::npos || dot == 0) return std::nullopt;
  std::string_view ext = std::string_view(name).substr(dot + 1);
  if (ext != "delta" && ext != "snapshot" && ext != "changelog" && ext != "zip") return std::nullopt;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + dot, v);
  if (ec != std::errc() || end != name.data() + dot) return std::nullopt;
  return v;
}

Status copyFile(const Env& real, const std::string& from, sim::SimFileSystem& sim,
                const std::string& to) {
  STREAMSIM_ASSIGN_OR_RETURN(std::string data, real.fs->read(from));
  return sim.putDurable(to, data);
}

// Spark's time mode names as the operator record holds them (NoTime, ProcessingTime, EventTime).
std::string recordedTimeMode(const std::optional<StateOperatorSchema>& op) {
  if (!op) return "";
  for (const auto& [k, v] : op->properties)
    if (k == "timeMode") return v == "NoTime" ? "None" : v;
  return "";
}

// The user's folders and files, trailing slashes trimmed.
struct ReplayPaths {
  std::string checkpoint;
  std::string landing;       // "" without --landing
  std::string sink;          // "" without --sink
  std::string kafkaRecords;  // "" without --kafka-records
};

enum class SourceKind { kFiles, kKafka, kUnrecorded };

std::string_view sourceKindName(SourceKind k) {
  switch (k) {
    case SourceKind::kFiles: return "files";
    case SourceKind::kKafka: return "kafka";
    case SourceKind::kUnrecorded: return "unrecorded";
  }
  return "?";
}

// The processor: a registered name, or a PySpark file `file.py:Class`.
Result<ProcessorFactory> resolveProcessor(const std::string& name, const RunRegistries* registries) {
  if (auto at = name.rfind(".py:"); at != std::string::npos) {
    PythonProcessorSpec spec;
    spec.file = name.substr(0, at + 3);
    spec.className = name.substr(at + 4);
    return loadPythonProcessor(registries, spec);
  }
  return processorsOf(registries).factory(name);
}

// Phase 1, the inputs: the folders exist, the checkpoint has offsets, the processor loads.
Status checkInputs(const Env& real, const CheckpointReplayOptions& o, const ReplayPaths& paths) {
  const std::string& chk = paths.checkpoint;
  if (chk.empty() || !isDir(real, chk))
    return Status::NotFound(fmt::format("--checkpoint {}: no such folder", o.checkpoint));
  if (!paths.landing.empty() && !isDir(real, paths.landing))
    return Status::NotFound(fmt::format("--landing {}: no such folder", o.landing));
  if (!paths.sink.empty() && !isDir(real, paths.sink))
    return Status::NotFound(fmt::format("--sink {}: no such folder", o.sink));
  if (!paths.kafkaRecords.empty()) {
    auto st = real.fs->stat(paths.kafkaRecords);
    if (!st.ok() || st->isDir) return Status::NotFound(fmt::format("--kafka-records {}: no such file", o.kafkaRecords));
  }
  if (!real.fs->exists(chk + "/offsets"))
    return Status::InvalidArgument(fmt::format(
        "{} has no offsets/ folder: not a checkpoint, or no batch was ever planned", chk));
  if (auto f = resolveProcessor(o.processor, o.registries.get()); !f.ok()) return f.status();
  return Status::OK();
}

// Spark's operator metadata v2 of operator 0 (transformWithState records its time mode there).
std::optional<OperatorMetadata> sparkOperatorMetadata(const Env& real, const std::string& chk) {
  auto meta = readOperatorMetadata(real, chk, 0);
  if (!meta.ok() || !*meta) return std::nullopt;
  return **meta;
}

// The grouping key's field names as Spark's schema file v3 records them (a ValueState or ListState
// family's key schema), for a Spark checkpoint without streamsim's record.
std::vector<std::string> sparkGroupingColumns(const Env& real, const std::string& chk,
                                              const std::optional<OperatorMetadata>& meta) {
  if (!meta) return {};
  CheckpointStateOptions so;
  so.operatorId = 0;
  auto state = readCheckpointState(real, chk, so);
  if (!state.ok() || state->operators.empty()) return {};
  for (const auto& v : meta->stateVariables) {
    if (v.stateVariableType != "ValueState" && v.stateVariableType != "ListState") continue;
    auto cf = state->operators.front().families.find(v.stateName);
    if (cf == state->operators.front().families.end()) continue;
    std::vector<std::string> out;
    for (const auto& f : cf->second.key) out.push_back(f.name);
    return out;
  }
  return {};
}

// Phase 2, the query's shape: grouping columns and time mode from the checkpoint's operator record
// (streamsim's _stateSchema record, else Spark's operator metadata and schema file), unless given
// (and then they must agree with streamsim's record).
Status resolveQueryShape(const Env& real, const CheckpointReplayOptions& o, const std::string& chk,
                         const Schema& schema, CheckpointReplayResult& result) {
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<StateOperatorSchema> op,
                             readStateOperatorSchema(real, chk, 0));
  const std::optional<OperatorMetadata> sparkMeta = op ? std::nullopt : sparkOperatorMetadata(real, chk);
  const std::string recordFile = chk + "/state/0/_stateSchema";
  if (o.groupBy.empty()) {
    std::vector<std::string> recorded = op ? op->keyColumns : sparkGroupingColumns(real, chk, sparkMeta);
    if (recorded.empty())
      return Status::InvalidArgument(fmt::format(
          "--group-by: {} records no grouping columns; give them, e.g. --group-by user", recordFile));
    result.groupBy = recorded;
  } else {
    if (op && !op->keyColumns.empty() && op->keyColumns != o.groupBy)
      return Status::InvalidArgument(fmt::format(
          "--group-by {}: the checkpoint's query grouped by {} ({}); leave --group-by out to use it",
          fmt::join(o.groupBy, ","), fmt::join(op->keyColumns, ","), recordFile));
    result.groupBy = o.groupBy;
  }
  for (const auto& c : result.groupBy)
    if (schema.indexOf(c) < 0)
      return Status::InvalidArgument(fmt::format("--group-by {}: no such column in the input's schema {}", c,
                                                 schema.toDDL()));
  std::string recordedMode = recordedTimeMode(op);
  if (recordedMode.empty() && sparkMeta && sparkMeta->timeMode)
    recordedMode = *sparkMeta->timeMode == "NoTime" ? "None" : *sparkMeta->timeMode;
  TimeMode timeMode = TimeMode::kNone;
  if (o.timeMode.empty()) {
    if (!recordedMode.empty()) {
      STREAMSIM_ASSIGN_OR_RETURN(timeMode, parseTimeMode(recordedMode));
    }
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(timeMode, parseTimeMode(o.timeMode));
    if (!recordedMode.empty() && timeModeName(timeMode) != recordedMode)
      return Status::InvalidArgument(fmt::format(
          "--time-mode {}: the checkpoint's query ran with timeMode {} ({}); leave --time-mode out to use it",
          o.timeMode, recordedMode, op ? recordFile : chk + "/state/0/_metadata"));
  }
  result.timeMode = std::string(timeModeName(timeMode));
  if (!o.stateStore.empty() && o.stateStore != "memory" && o.stateStore != "rocksdb")
    return Status::InvalidArgument(
        fmt::format("--state-store {}: expected memory or rocksdb", o.stateStore));
  return Status::OK();
}

// What the recorded source keeps of its input: a file source log (sources/0 with file offsets),
// Kafka offsets (Spark's KafkaSourceOffset JSON), or nothing (MemoryStream and the like).
Result<SourceKind> recordedSourceKind(const Env& real, const std::string& chk, const CheckpointReport& report) {
  const BatchReport* latest = nullptr;
  for (const BatchReport& b : report.batches)
    if (b.hasOffsets) latest = &b;
  if (latest == nullptr) return Status::InvalidArgument(fmt::format("{}: offsets/ holds no batch to replay", chk));
  if (latest->sourceOffsets.size() > 1)
    return Status::InvalidArgument(fmt::format("{}: offsets/{} records {} sources; replay supports a query with one",
                                               chk, latest->batchId, latest->sourceOffsets.size()));
  for (const BatchReport& b : report.batches)
    if (!b.sourceOffsets.empty() && b.sourceOffsets[0] && parseKafkaOffsets(*b.sourceOffsets[0], "").ok())
      return SourceKind::kKafka;
  if (isDir(real, chk + "/sources/0")) return SourceKind::kFiles;
  // A file source's offset ({"logOffset":N}, FileStreamSourceOffset) without its log is damage, not
  // a source that keeps no data (a MemoryStream's LongOffset is a bare number).
  if (!latest->sourceOffsets.empty() && latest->sourceOffsets[0] &&
      latest->sourceOffsets[0]->find("\"logOffset\"") != std::string::npos)
    return Status::InvalidArgument(fmt::format(
        "{} has no file source log (sources/0/) though offsets/{} records a file source offset {}: replay needs "
        "the log to know which files each batch read", chk, latest->batchId, *latest->sourceOffsets[0]));
  return SourceKind::kUnrecorded;
}

// Phase 3, the recorded plan: the source, the batch K the replay starts after, and per batch after
// it its files, timestamp and watermark; the one landing folder. Returns batch K's report (an empty
// one, batch -1, when the replay starts from the beginning).
Result<BatchReport> readRecordedPlan(const Env& real, const CheckpointReplayOptions& o, const ReplayPaths& paths,
                                     CheckpointReplayResult& result, CheckpointReport& report,
                                     std::vector<std::string>& loggedFiles, SourceKind& kind) {
  const std::string& chk = paths.checkpoint;
  std::optional<std::string> sinkArg;
  if (!paths.sink.empty()) sinkArg = paths.sink;
  STREAMSIM_ASSIGN_OR_RETURN(report, inspectCheckpoint(real, chk, sinkArg));
  // A plan the inspector cannot read is bad input, named in the user's own files: replaying
  // past it would fail later on the simulated copy, or replay a plan that is not the recorded one.
  for (const Diagnosis& d : report.diagnoses) {
    const bool planFile = std::any_of(d.paths.begin(), d.paths.end(), [&](const std::string& p) {
      return p.rfind(chk + "/offsets", 0) == 0 || p.rfind(chk + "/sources", 0) == 0;
    });
    if (d.kind == DiagnosisKind::kUnreadable || (d.kind == DiagnosisKind::kMissing && planFile))
      return Status::InvalidArgument(fmt::format("{} cannot be replayed: [{}] {}", chk,
                                                 diagnosisKindName(d.kind), d.message));
  }
  STREAMSIM_ASSIGN_OR_RETURN(kind, recordedSourceKind(real, chk, report));
  result.sourceKind = std::string(sourceKindName(kind));
  if (kind == SourceKind::kKafka && paths.kafkaRecords.empty())
    return Status::InvalidArgument(fmt::format(
        "{} read a Kafka source (its offsets are Spark's Kafka offset JSON): give its recorded records with "
        "--kafka-records FILE (JSON lines: topic, partition, offset, key, value, timestamp)", chk));
  if (kind != SourceKind::kKafka && paths.landing.empty())
    return Status::InvalidArgument(fmt::format("--landing: give the folder of the input files for {}", chk));
  const BatchReport* firstKept = nullptr;
  const BatchReport* lastCommitted = nullptr;
  for (const BatchReport& b : report.batches) {
    if (b.hasOffsets && firstKept == nullptr) firstKept = &b;
    if (b.hasOffsets && b.committed) lastCommitted = &b;
  }
  if (firstKept == nullptr)
    return Status::InvalidArgument(fmt::format("{}: offsets/ holds no batch to replay", chk));
  result.firstKeptBatch = firstKept->batchId;
  const BatchReport* start = nullptr;  // batch K
  if (o.fromBatch) {
    for (const BatchReport& b : report.batches)
      if (b.batchId == *o.fromBatch && b.hasOffsets) start = &b;
    if (start == nullptr || !start->committed)
      return Status::InvalidArgument(fmt::format(
          "--from-batch {}: {} has no committed batch {} (offsets/{} and commits/{}){}", *o.fromBatch, chk,
          *o.fromBatch, *o.fromBatch, *o.fromBatch,
          lastCommitted ? fmt::format("; batches {}..{} can be started from", firstKept->batchId, lastCommitted->batchId)
                        : std::string("; no batch was committed")));
  } else if (kind == SourceKind::kUnrecorded) {
    // Nothing of the recorded batches' input is kept: the replay continues after the last commit.
    start = lastCommitted;
  } else if (firstKept->batchId > 0) {
    // offsets/0 purged (spark.sql.streaming.minBatchesToRetain): batch K, the first kept, cannot be
    // re-run (its input starts where offsets/K-1 ended), but it is the restart point for K+1.
    if (!firstKept->committed)
      return Status::InvalidArgument(fmt::format(
          "{}: offsets/{} is the first batch kept (offsets/0..{} were purged by "
          "spark.sql.streaming.minBatchesToRetain) and it was never committed: a replay starts after "
          "a committed batch",
          chk, firstKept->batchId, firstKept->batchId - 1));
    start = firstKept;
  }
  result.startAfterBatch = start ? start->batchId : -1;
  result.firstReplayedBatch = result.startAfterBatch + 1;
  std::set<std::string> landingDirs;
  for (const BatchReport& b : report.batches) {
    if (!b.hasOffsets || b.batchId <= result.startAfterBatch) continue;
    if (kind == SourceKind::kUnrecorded) break;  // its input is not kept: new input only
    ReplayedBatch rb;
    rb.batchId = b.batchId;
    rb.batchTimestampMs = b.batchTimestampMs.value_or(0);
    rb.watermarkMs = b.batchWatermarkMs.value_or(0);
    for (const auto& sf : b.sourceFiles) {
      if (sf.sourceIndex != 0) continue;
      for (const auto& f : sf.files) {
        std::string path = stripFileUri(f);
        rb.files.push_back(path);
        loggedFiles.push_back(path);
        landingDirs.insert(dirName(path));
      }
    }
    result.batches.push_back(std::move(rb));
  }
  if (kind == SourceKind::kFiles) {
    // The folder new files land in: the one the log names (any batch's files).
    for (const BatchReport& b : report.batches)
      for (const auto& sf : b.sourceFiles)
        if (sf.sourceIndex == 0)
          for (const auto& f : sf.files) landingDirs.insert(dirName(stripFileUri(f)));
  }
  if (landingDirs.size() > 1)
    return Status::InvalidArgument(fmt::format(
        "the source log of {} names files in {} folders ({}); replay supports one landing folder",
        chk, landingDirs.size(), fmt::join(landingDirs, ", ")));
  result.landingPath = landingDirs.empty() ? std::string("/replay/landing") : *landingDirs.begin();
  if (start) return *start;
  BatchReport none;
  none.batchId = -1;
  return none;
}

// The format of operator 0's state files (its first partition folder's).
Result<StateFolderInfo> stateFormat(const Env& real, const std::string& chk) {
  STREAMSIM_ASSIGN_OR_RETURN(auto stores, listStateStores(real, chk));
  auto op = stores.find(0);
  if (op == stores.end() || op->second.empty()) return StateFolderInfo{};
  return classifyStateFolder(real, stateStoreDir(chk, 0, op->second.front()));
}

// Phase 4, the state store: the one the checkpoint's batches ran on (its state files are in that
// store's format) unless given -- and given, it may differ only when the replay starts at batch 0
// and builds all its state itself, or when the state is carried over from Spark's files.
Status chooseStateStore(const Env& real, const CheckpointReplayOptions& o, const std::string& chk,
                        const BatchReport& firstKept, CheckpointReplayResult& result) {
  STREAMSIM_ASSIGN_OR_RETURN(auto recordedKind,
                             recordedStateStore(real, fmt::format("{}/offsets/{}", chk, firstKept.batchId)));
  const std::string recordedStore = recordedKind ? std::string(stateStoreKindName(*recordedKind)) : "";
  if (o.stateStore.empty()) {
    result.stateStore = recordedStore.empty() ? "memory" : recordedStore;
    return Status::OK();
  }
  result.stateStore = o.stateStore;
  if (result.startAfterBatch < 0 || recordedStore.empty() || recordedStore == o.stateStore) return Status::OK();
  // streamsim's own state files are copied as they are: only the store that wrote them reads them.
  STREAMSIM_ASSIGN_OR_RETURN(StateFolderInfo format, stateFormat(real, chk));
  if (format.format == StateFolderFormat::kSparkRocksDB) return Status::OK();  // carried over into either
  return Status::InvalidArgument(fmt::format(
      "--state-store {}: the checkpoint's state was written by the {} store "
      "(offsets/{}: spark.sql.streaming.stateStore.providerClass), and the replay starts from "
      "it at batch {}; leave --state-store out to use it",
      o.stateStore, recordedStore, firstKept.batchId, result.firstReplayedBatch));
}

// The shuffle partitions the checkpoint's batches ran with (offsets/K's conf), else its partition
// folders' count.
Result<int> recordedPartitions(const Env& real, const std::string& chk, int64_t k) {
  const std::string file = fmt::format("{}/offsets/{}", chk, k);
  STREAMSIM_ASSIGN_OR_RETURN(std::string text, real.fs->read(file));
  STREAMSIM_ASSIGN_OR_RETURN(OffsetSeq seq, OffsetLog::parse(text, file));
  auto it = seq.metadata.conf.find("spark.sql.shuffle.partitions");
  if (it != seq.metadata.conf.end()) {
    int n = 0;
    auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), n);
    if (ec == std::errc() && end == it->second.data() + it->second.size() && n > 0 && n <= 100000) return n;
    return Status::InvalidArgument(fmt::format("{}: spark.sql.shuffle.partitions is '{}', not a partition count",
                                               file, it->second));
  }
  STREAMSIM_ASSIGN_OR_RETURN(auto stores, listStateStores(real, chk));
  auto op = stores.find(0);
  if (op == stores.end() || op->second.empty())
    return Status::InvalidArgument(fmt::format("{}: no spark.sql.shuffle.partitions and no state/0 partitions", file));
  return op->second.back() + 1;
}

// The state batch K committed, into the simulated checkpoint: streamsim's own files copied as they
// stood when version K+1 was the newest; Spark's RocksDB store read and carried over.
Status loadStartState(const Env& real, const ReplayPaths& paths, int64_t k, const Schema& keySchema,
                      CheckpointReplayResult& result, const Env& simEnv, sim::SimFileSystem& fs) {
  const std::string& chk = paths.checkpoint;
  if (!isDir(real, chk + "/state")) return Status::OK();
  STREAMSIM_ASSIGN_OR_RETURN(StateFolderInfo format, stateFormat(real, chk));
  switch (format.format) {
    case StateFolderFormat::kEmpty:
    case StateFolderFormat::kStreamsim:
      result.stateLoaded = fmt::format("streamsim's state files up to version {} (the state batch {} committed)", k + 1, k);
      return copyTree(real, chk + "/state", fs, std::string(kSimCheckpoint) + "/state",
                      [upTo = k + 1](const std::string& name) {
                        auto v = stateFileVersion(name);
                        return !v || *v <= upTo;
                      });
    case StateFolderFormat::kSparkRocksDB: {
      if (result.stateStore != "rocksdb" && result.stateStore != "memory")
        return Status::InvalidArgument(fmt::format("--state-store {}: expected memory or rocksdb", result.stateStore));
      STREAMSIM_ASSIGN_OR_RETURN(int partitions, recordedPartitions(real, chk, k));
      STREAMSIM_ASSIGN_OR_RETURN(StateStoreKind kind, parseStateStoreKind(result.stateStore));
      STREAMSIM_ASSIGN_OR_RETURN(
          ImportedSparkState imported,
          importSparkTransformWithState(real, chk, k, keySchema, partitions, kind, simEnv, kSimCheckpoint));
      std::vector<std::string> vars;
      for (const auto& v : imported.variables) vars.push_back(fmt::format("{} ({})", v.name, v.kind));
      result.stateLoaded = fmt::format(
          "Spark's RocksDB state store at version {} (the state batch {} committed), read from {}: {} state row(s) "
          "and {} timer(s) of {} carried into the simulator's {} store over {} partitions",
          k + 1, k, fmt::join(imported.filesRead, ", "), imported.rows, imported.timers,
          vars.empty() ? std::string("no state variable") : fmt::format("{}", fmt::join(vars, ", ")), result.stateStore,
          partitions);
      return Status::OK();
    }
    case StateFolderFormat::kSparkHdfs:
      return Status::InvalidArgument(fmt::format(
          "{}/state/0 is Spark's HDFS-backed state store: a transformWithState query's state is never there "
          "(HDFSBackedStateStoreProvider refuses column families: StateStoreErrors.multipleColumnFamiliesNotSupported), "
          "so no processor can continue it", chk));
    default:
      return Status::InvalidArgument(fmt::format("{}/state/0: state files in a format replay cannot load ({}{})", chk,
                                                 stateFolderFormatName(format.format),
                                                 format.detail.empty() ? "" : ": " + format.detail));
  }
}

// A Kafka source's initial offsets (sources/0/0: "v1" and the offset JSON; a zero byte before it is
// tolerated, as Spark 2.1.0-compatible writers add one): batch 0 reads from them. The offsets and
// their JSON text.
Result<std::pair<KafkaOffsets, std::string>> readInitialKafkaOffsets(const Env& real, const std::string& chk) {
  const std::string initial = chk + "/sources/0/0";
  auto text = real.fs->read(initial);
  if (!text.ok())
    return Status::InvalidArgument(fmt::format(
        "{} is not there: a Kafka query replayed from batch 0 needs the initial offsets it resolved; start "
        "after a committed batch instead (--from-batch K)", initial));
  std::string body = *text;
  if (!body.empty() && body[0] == '\0') body.erase(0, 1);
  const size_t nl = body.find('\n');
  std::string json = nl == std::string::npos ? std::string() : body.substr(nl + 1);
  while (!json.empty() && (json.back() == '\n' || json.back() == '\r')) json.pop_back();
  auto offsets = parseKafkaOffsets(json, initial);
  if (body.rfind("v1", 0) != 0 || !offsets.ok())
    return Status::InvalidArgument(fmt::format("{}: expected 'v1' and a line of Spark's Kafka offset JSON", initial));
  return std::make_pair(std::move(*offsets), std::move(json));
}

// Phase 5, the simulated world: the input (landing files with their sizes and mtimes, or the
// Kafka records), and the checkpoint minus commits, offsets and state (metadata and the source
// logs). Starting after batch K adds the restart point: K's offsets and commit and the state as K
// committed it (store version K+1).
Status buildSimulatedCheckpoint(const Env& real, const ReplayPaths& paths, const BatchReport& start,
                                const std::vector<std::string>& loggedFiles, const CheckpointReport& report,
                                SourceKind kind, const Schema& keySchema, CheckpointReplayResult& result,
                                const Env& simEnv, sim::SimFileSystem& fs) {
  const std::string& chk = paths.checkpoint;
  if (kind != SourceKind::kKafka) {
    // Landing files with their sizes and mtimes, at the paths the source log names; then the
    // landing folder's other files (no batch named them: new input) beside them.
    std::vector<std::string> missing;
    STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(result.landingPath));
    for (const auto& path : loggedFiles) {
      std::string from = paths.landing + "/" + baseName(path);
      auto st = real.fs->stat(from);
      if (!st.ok() || st->isDir) {
        missing.push_back(from);
        continue;
      }
      STREAMSIM_ASSIGN_OR_RETURN(std::string data, real.fs->read(from));
      STREAMSIM_RETURN_IF_ERROR(fs.putDurable(path, data));
      STREAMSIM_RETURN_IF_ERROR(fs.setModificationTime(path, st->modificationTime));
    }
    if (!missing.empty())
      return Status::NotFound(fmt::format(
          "the landing folder lacks {} file(s) the source log of {} names: {}", missing.size(), paths.checkpoint,
          fmt::join(missing, ", ")));
    std::set<std::string> named;
    for (const BatchReport& b : report.batches)
      for (const auto& sf : b.sourceFiles)
        for (const auto& f : sf.files) named.insert(baseName(stripFileUri(f)));
    STREAMSIM_ASSIGN_OR_RETURN(auto entries, real.fs->list(paths.landing));
    for (const FileInfo& e : entries) {
      const std::string name = baseName(e.path);
      if (e.isDir || named.count(name) || name.empty() || name[0] == '.' || name[0] == '_') continue;
      STREAMSIM_ASSIGN_OR_RETURN(std::string data, real.fs->read(e.path));
      const std::string to = result.landingPath + "/" + name;
      STREAMSIM_RETURN_IF_ERROR(fs.putDurable(to, data));
      STREAMSIM_RETURN_IF_ERROR(fs.setModificationTime(to, e.modificationTime));
    }
  }

  const std::string simChk = kSimCheckpoint;
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk));
  if (real.fs->exists(paths.checkpoint + "/metadata"))
    STREAMSIM_RETURN_IF_ERROR(copyFile(real, chk + "/metadata", fs, simChk + "/metadata"));
  if (kind == SourceKind::kFiles && isDir(real, chk + "/sources"))
    STREAMSIM_RETURN_IF_ERROR(copyTree(real, chk + "/sources", fs, simChk + "/sources"));
  if (kind == SourceKind::kKafka && start.batchId < 0) {
    STREAMSIM_ASSIGN_OR_RETURN(auto initial, readInitialKafkaOffsets(real, chk));
    STREAMSIM_RETURN_IF_ERROR(fs.putDurable(simChk + "/sources/0/0", "v1\n" + initial.second + "\n"));
  }
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk + "/offsets"));
  if (start.batchId < 0) return Status::OK();
  const int64_t k = start.batchId;
  const std::string offsetsFile = fmt::format("{}/offsets/{}", chk, k);
  STREAMSIM_ASSIGN_OR_RETURN(std::string offsetsText, real.fs->read(offsetsFile));
  if (kind == SourceKind::kUnrecorded) {
    // The recorded offset names data the replay does not have: the landing folder's source starts
    // with nothing read.
    STREAMSIM_ASSIGN_OR_RETURN(OffsetSeq seq, OffsetLog::parse(offsetsText, offsetsFile));
    seq.offsets.assign(seq.offsets.size(), std::nullopt);
    offsetsText = OffsetLog::serialize(seq);
  }
  STREAMSIM_RETURN_IF_ERROR(fs.putDurable(fmt::format("{}/offsets/{}", simChk, k), offsetsText));
  // Batch K's commit as the simulator's own (format v1): the state it points to is the simulator's.
  CommitMetadata commit;
  commit.nextBatchWatermarkMs = start.nextBatchWatermarkMs.value_or(0);
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk + "/commits"));
  STREAMSIM_RETURN_IF_ERROR(fs.putDurable(fmt::format("{}/commits/{}", simChk, k), CommitLog::serialize(commit)));
  return loadStartState(real, paths, k, keySchema, result, simEnv, fs);
}

// Phase 6, the re-run: for each recorded batch N, offsets/N copied in and the query restarted,
// which re-runs N as a Spark restart does; then batches on the input no recorded batch read.
Status replayBatches(const Env& real, const CheckpointReplayOptions& o, const ReplayPaths& paths,
                     SourceFactory source, TimeMode timeMode, sim::VirtualClock& clock, sim::SimFileSystem& fs,
                     Env& env, CheckpointReplayResult& result) {
  const std::string& chk = paths.checkpoint;
  STREAMSIM_ASSIGN_OR_RETURN(ProcessorFactory factory, resolveProcessor(o.processor, o.registries.get()));
  auto sinkData = std::make_shared<MemorySinkData>();
  DataStreamWriter writer = readStream(std::move(source))
                                .groupBy(result.groupBy)
                                .transformWithState(factory, timeMode, OutputMode::kUpdate)
                                .writeStream();
  writer.sink(makeMemorySink(sinkData))
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", kSimCheckpoint)
      .option("stateStore", result.stateStore);

  // The engine names the simulated copy; the user knows the checkpoint by its own path. Bad
  // input (a file that does not parse, one that is missing) stays bad input (exit 2).
  auto fail = [&](int64_t batchId, const Status& st) {
    std::string what = st.message();
    for (size_t at = what.find(kSimCheckpoint); at != std::string::npos;
         at = what.find(kSimCheckpoint, at + chk.size()))
      what.replace(at, std::string_view(kSimCheckpoint).size(), chk);
    std::string msg = fmt::format("replaying batch {} of {}: {}", batchId, chk, what);
    switch (st.code()) {
      case Status::Code::kCorruption:
      case Status::Code::kNotFound:
      case Status::Code::kInvalidArgument: return Status::InvalidArgument(std::move(msg));
      default: return Status::FailedPrecondition(std::move(msg));
    }
  };
  auto record = [&](ReplayedBatch& rb, const QueryProgress& p) {
    rb.rowsIn = p.numInputRows;
    rb.rowsOut = p.numOutputRows;
    rb.replayedTimestampMs = p.timestamp;
    rb.replayedWatermarkMs = p.eventTime.watermark;
    if (const auto* rows = sinkData->batch(rb.batchId)) rb.output = *rows;
  };
  int64_t next = result.startAfterBatch + 1;
  for (ReplayedBatch& rb : result.batches) {
    std::string offsets = fmt::format("{}/offsets/{}", chk, rb.batchId);
    STREAMSIM_ASSIGN_OR_RETURN(std::string data, real.fs->read(offsets));
    STREAMSIM_RETURN_IF_ERROR(
        fs.putDurable(fmt::format("{}/offsets/{}", kSimCheckpoint, rb.batchId), data));
    if (rb.batchTimestampMs > clock.nowMs()) clock.set(rb.batchTimestampMs);
    try {
      auto query = writer.start(env);
      if (!query.ok()) return fail(rb.batchId, query.status());
      auto ran = (*query)->triggerOnce();
      if (!ran.ok()) return fail(rb.batchId, ran.status());
      const QueryProgress* p = (*query)->lastProgress();
      if (!*ran || p == nullptr || p->batchId != rb.batchId)
        return fail(rb.batchId, Status::FailedPrecondition(
            fmt::format("the engine did not re-run it (ran {}, last batch {})", *ran,
                        p ? std::to_string(p->batchId) : std::string("none"))));
      record(rb, *p);
      (*query)->stop();
    } catch (const std::exception& e) {
      return fail(rb.batchId, Status::FailedPrecondition(fmt::format("threw: {}", e.what())));
    }
    next = rb.batchId + 1;
  }
  // New input: batches while a source has data no batch read (at most kMaxNewBatches).
  constexpr int kMaxNewBatches = 10'000;
  try {
    auto query = writer.start(env);
    if (!query.ok()) return fail(next, query.status());
    for (int i = 0; i < kMaxNewBatches; ++i) {
      clock.advance(1'000);
      auto ran = (*query)->triggerOnce();
      if (!ran.ok()) return fail(next, ran.status());
      const QueryProgress* p = (*query)->lastProgress();
      if (!*ran || p == nullptr || p->batchId < next) break;
      ReplayedBatch rb;
      rb.batchId = p->batchId;
      rb.recorded = false;
      rb.batchTimestampMs = p->timestamp;
      rb.watermarkMs = p->eventTime.watermark;
      record(rb, *p);
      result.batches.push_back(std::move(rb));
      next = p->batchId + 1;
      if (p->numInputRows == 0) break;  // a no-data batch (timers, watermark): the input is done
    }
    (*query)->stop();
  } catch (const std::exception& e) {
    return fail(next, Status::FailedPrecondition(fmt::format("threw: {}", e.what())));
  }
  return Status::OK();
}

// The source the replay reads: the landing folder's files, or the recorded Kafka records at the
// offsets the checkpoint names.
struct ReplaySource {
  SourceFactory factory;
  SchemaPtr schema;
};

// Kafka offsets as a batch's offsets record them; nullopt for "-".
Result<std::optional<KafkaOffsets>> kafkaOffsetsOf(const BatchReport& b, const std::string& chk) {
  if (b.sourceOffsets.empty() || !b.sourceOffsets[0]) return std::optional<KafkaOffsets>();
  STREAMSIM_ASSIGN_OR_RETURN(KafkaOffsets offsets,
                             parseKafkaOffsets(*b.sourceOffsets[0], fmt::format("{}/offsets/{}", chk, b.batchId)));
  return std::optional<KafkaOffsets>(std::move(offsets));
}

Result<ReplaySource> makeReplaySource(const Env& real, const CheckpointReplayOptions& o, const ReplayPaths& paths,
                                      SourceKind kind, const CheckpointReport& report, const BatchReport& start,
                                      const CheckpointReplayResult& result, TimeMs atMs) {
  const std::string& chk = paths.checkpoint;
  if (kind != SourceKind::kKafka) {
    if (o.schema.empty()) return Status::InvalidArgument("--schema: give the DDL of the landing files' rows");
    STREAMSIM_ASSIGN_OR_RETURN(SchemaPtr schema, parseSchema(o.schema));
    STREAMSIM_ASSIGN_OR_RETURN(SourceFactory source, makeFileSource(result.landingPath, schema));
    return ReplaySource{std::move(source), schema};
  }
  // Kafka: one topic, as many partitions as the offsets name; the records must hold every offset a
  // replayed batch reads (from batch K's offsets, or the initial ones, to the last recorded).
  std::string topic;
  int partitions = 0;
  std::optional<KafkaOffsets> last;
  for (const BatchReport& b : report.batches) {
    STREAMSIM_ASSIGN_OR_RETURN(auto offsets, kafkaOffsetsOf(b, chk));
    if (!offsets) continue;
    const std::string where = fmt::format("{}/offsets/{}", chk, b.batchId);
    if (offsets->size() != 1)
      return Status::InvalidArgument(fmt::format("{}: the Kafka offsets name {} topics; replay supports one", where,
                                                 offsets->size()));
    if (!topic.empty() && offsets->begin()->first != topic)
      return Status::InvalidArgument(fmt::format("{}: topic {} where the earlier offsets name {}", where,
                                                 offsets->begin()->first, topic));
    topic = offsets->begin()->first;
    for (const auto& [p, off] : offsets->begin()->second) partitions = std::max(partitions, p + 1);
    last = offsets;
  }
  STREAMSIM_ASSIGN_OR_RETURN(detail::RecordedKafka recorded,
                             detail::loadKafkaRecords(real, paths.kafkaRecords, topic, partitions, atMs));
  std::optional<KafkaOffsets> from;
  if (start.batchId >= 0) {
    STREAMSIM_ASSIGN_OR_RETURN(from, kafkaOffsetsOf(start, chk));
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(auto initial, readInitialKafkaOffsets(real, chk));
    from = std::move(initial.first);
  }
  if (from && last) {
    for (const auto& [p, end] : last->begin()->second) {
      const int64_t begin = from->begin()->second.count(p) ? from->begin()->second.at(p) : 0;
      if (begin >= end) continue;  // the replayed batches read nothing of p
      const int64_t have0 = recorded.firstOffset.count(p) ? recorded.firstOffset.at(p) : 0;
      const int64_t have1 = recorded.endOffset.count(p) ? recorded.endOffset.at(p) : 0;
      if (have0 > begin || have1 < end)
        return Status::InvalidArgument(fmt::format(
            "--kafka-records {}: the replayed batches read offsets {} to {} of {} partition {} ({} to the last "
            "offsets), but the file holds {}", o.kafkaRecords, begin, end, topic, p,
            start.batchId >= 0 ? fmt::format("offsets/{}", start.batchId) : std::string("sources/0/0"),
            have1 > have0 ? fmt::format("offsets {} to {}", have0, have1) : std::string("none of that partition")));
    }
  }
  STREAMSIM_ASSIGN_OR_RETURN(SourceFactory source,
                             makeKafkaSource(recorded.log, {{"subscribe", topic}, {"startingOffsets", "earliest"}}));
  return ReplaySource{std::move(source), kafkaSourceSchema()};
}

// The grouping columns' types as the input has them.
Schema keySchemaOf(const Schema& input, const std::vector<std::string>& groupBy) {
  std::vector<Field> fields;
  for (const auto& c : groupBy) fields.push_back(input.field(static_cast<size_t>(input.indexOf(c))));
  return Schema(std::move(fields));
}

}  // namespace

Result<CheckpointReplayResult> replayCheckpoint(const Env& real, const CheckpointReplayOptions& o) {
  const ReplayPaths paths{trimSlash(o.checkpoint), trimSlash(o.landing), trimSlash(o.sink),
                          trimSlash(o.kafkaRecords)};
  STREAMSIM_RETURN_IF_ERROR(checkInputs(real, o, paths));
  CheckpointReplayResult result;
  CheckpointReport report;
  std::vector<std::string> loggedFiles;
  SourceKind kind = SourceKind::kFiles;
  STREAMSIM_ASSIGN_OR_RETURN(BatchReport start, readRecordedPlan(real, o, paths, result, report, loggedFiles, kind));
  const TimeMs startMs = start.batchId >= 0 ? start.batchTimestampMs.value_or(0)
                         : result.batches.empty() ? 0 : result.batches.front().batchTimestampMs;
  sim::VirtualClock clock(startMs);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(0);
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  STREAMSIM_ASSIGN_OR_RETURN(auto source, makeReplaySource(real, o, paths, kind, report, start, result, startMs));
  STREAMSIM_RETURN_IF_ERROR(resolveQueryShape(real, o, paths.checkpoint, *source.schema, result));
  TimeMode timeMode = TimeMode::kNone;
  STREAMSIM_ASSIGN_OR_RETURN(timeMode, parseTimeMode(result.timeMode));
  const BatchReport& firstKept = *std::find_if(report.batches.begin(), report.batches.end(),
                                               [](const BatchReport& b) { return b.hasOffsets; });
  STREAMSIM_RETURN_IF_ERROR(chooseStateStore(real, o, paths.checkpoint, firstKept, result));
  const Schema keySchema = keySchemaOf(*source.schema, result.groupBy);
  STREAMSIM_RETURN_IF_ERROR(buildSimulatedCheckpoint(real, paths, start, loggedFiles, report, kind, keySchema, result,
                                                     env, fs));
  STREAMSIM_RETURN_IF_ERROR(replayBatches(real, o, paths, std::move(source.factory), timeMode, clock, fs, env, result));
  if (result.batches.empty())
    return Status::InvalidArgument(fmt::format(
        "{}: nothing to replay after batch {}: {}, and {} holds no input a batch has not read yet",
        paths.checkpoint, result.startAfterBatch,
        result.firstKeptBatch == result.startAfterBatch && result.firstKeptBatch > 0
            ? fmt::format("only batch {} is kept in offsets/ (the earlier ones were purged by "
                          "spark.sql.streaming.minBatchesToRetain)", result.firstKeptBatch)
            : std::string("no later batch is recorded"),
        kind == SourceKind::kKafka ? "--kafka-records " + o.kafkaRecords : "--landing " + o.landing));
  if (!paths.sink.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(std::optional<std::string> recorded, readSinkPathRecord(real, paths.checkpoint));
    STREAMSIM_RETURN_IF_ERROR(
        detail::compareWithSink(real, paths.sink, trimSlash(recorded.value_or("")), report, result));
  }
  return result;
}

namespace {

// Every file under `dir` of `fs`, by its path relative to `root`.
Status collectFiles(sim::SimFileSystem& fs, const std::string& root, const std::string& dir,
                    std::map<std::string, std::string>& out) {
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, fs.list(dir));
  for (const FileInfo& e : entries) {
    if (e.isDir) {
      STREAMSIM_RETURN_IF_ERROR(collectFiles(fs, root, e.path, out));
      continue;
    }
    STREAMSIM_ASSIGN_OR_RETURN(std::string data, fs.read(e.path));
    out[e.path.substr(root.size() + 1)] = std::move(data);
  }
  return Status::OK();
}

}  // namespace

Result<CheckpointStart> checkpointStartFiles(const Env& real, const std::string& checkpoint, int64_t batch,
                                             const Schema& keySchema, const std::string& stateStore) {
  ReplayPaths paths;
  paths.checkpoint = trimSlash(checkpoint);
  const std::string& chk = paths.checkpoint;
  if (chk.empty() || !isDir(real, chk)) return Status::NotFound(fmt::format("{}: no such folder", checkpoint));
  if (stateStore != "memory" && stateStore != "rocksdb")
    return Status::InvalidArgument(fmt::format("state store {}: expected memory or rocksdb", stateStore));
  STREAMSIM_ASSIGN_OR_RETURN(auto commit, CommitLog(real, chk).get(batch));
  const std::string offsetsFile = fmt::format("{}/offsets/{}", chk, batch);
  if (!commit || !real.fs->exists(offsetsFile))
    return Status::InvalidArgument(fmt::format(
        "{} has no committed batch {} (offsets/{} and commits/{}): a run starts after a committed batch", chk, batch,
        batch, batch));
  BatchReport start;
  start.batchId = batch;
  start.nextBatchWatermarkMs = commit->nextBatchWatermarkMs;
  CheckpointReplayResult result;
  result.stateStore = stateStore;
  sim::VirtualClock clock(0);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(0);
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  const std::string simChk = kSimCheckpoint;
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk + "/offsets"));
  STREAMSIM_ASSIGN_OR_RETURN(std::string offsetsText, real.fs->read(offsetsFile));
  STREAMSIM_ASSIGN_OR_RETURN(OffsetSeq seq, OffsetLog::parse(offsetsText, offsetsFile));
  seq.offsets.assign(seq.offsets.size(), std::nullopt);
  seq.sourceIds.clear();
  if (seq.formatVersion > 1) seq.formatVersion = 1;
  STREAMSIM_RETURN_IF_ERROR(fs.putDurable(fmt::format("{}/offsets/{}", simChk, batch), OffsetLog::serialize(seq)));
  CommitMetadata c;
  c.nextBatchWatermarkMs = commit->nextBatchWatermarkMs.value_or(0);
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk + "/commits"));
  STREAMSIM_RETURN_IF_ERROR(fs.putDurable(fmt::format("{}/commits/{}", simChk, batch), CommitLog::serialize(c)));
  STREAMSIM_RETURN_IF_ERROR(loadStartState(real, paths, batch, keySchema, result, env, fs));
  CheckpointStart out;
  out.stateLoaded = result.stateLoaded;
  STREAMSIM_RETURN_IF_ERROR(collectFiles(fs, simChk, simChk, out.files));
  return out;
}

std::string formatReplay(const CheckpointReplayResult& r) {
  std::string out;
  if (r.sourceKind == "kafka")
    out += "source: Kafka, read from the recorded records at the checkpoint's offsets\n";
  else if (r.sourceKind == "unrecorded")
    out += fmt::format("source: its offsets keep no data (e.g. MemoryStream): the landing folder is new input, "
                       "read from {} (simulated)\n", r.landingPath);
  else
    out += fmt::format("landing folder (simulated): {}\n", r.landingPath);
  if (r.startAfterBatch >= 0 && r.firstKeptBatch > 0 && r.startAfterBatch == r.firstKeptBatch)
    out += fmt::format(
        "offsets/0..{} were purged (spark.sql.streaming.minBatchesToRetain): the replay starts at "
        "batch {} from the state batch {} committed\n",
        r.firstKeptBatch - 1, r.firstReplayedBatch, r.firstKeptBatch);
  else if (r.startAfterBatch >= 0)
    out += fmt::format("the replay starts at batch {} from the state batch {} committed\n", r.firstReplayedBatch,
                       r.startAfterBatch);
  if (!r.stateLoaded.empty()) out += fmt::format("state: {}\n", r.stateLoaded);
  bool newShown = false;
  for (const ReplayedBatch& b : r.batches) {
    if (!b.recorded && !newShown) {
      out += "new input (past the recorded batches; nothing to compare with):\n";
      newShown = true;
    }
    if (b.recorded)
      out += fmt::format("batch {}: timestamp {} ({}), watermark {}, {} file(s), rows in {}, out {}\n",
                         b.batchId, b.batchTimestampMs, formatTimestamp(b.batchTimestampMs),
                         b.watermarkMs, b.files.size(), b.rowsIn, b.rowsOut);
    else
      out += fmt::format("batch {}: timestamp {} ({}), watermark {}, rows in {}, out {}\n", b.batchId,
                         b.batchTimestampMs, formatTimestamp(b.batchTimestampMs), b.watermarkMs, b.rowsIn,
                         b.rowsOut);
    if (b.replayedTimestampMs && *b.replayedTimestampMs != b.batchTimestampMs)
      out += fmt::format("  WARNING: re-ran with timestamp {}\n", *b.replayedTimestampMs);
    if (b.replayedWatermarkMs && *b.replayedWatermarkMs != b.watermarkMs)
      out += fmt::format("  WARNING: re-ran with watermark {}\n", *b.replayedWatermarkMs);
    for (const auto& f : b.files) out += fmt::format("  file {}\n", f);
    for (const auto& row : b.output) out += fmt::format("  out {}\n", row.toString());
    if (!b.sinkNote.empty()) out += fmt::format("  sink: {}\n", b.sinkNote);
    if (b.differsFromSink && b.sinkRows) {
      out += fmt::format("  DIFFERS from what the sink committed ({} row(s)):\n", b.sinkRows->size());
      for (const auto& row : *b.sinkRows) out += fmt::format("  sink {}\n", row.toString());
    }
  }
  if (r.comparedWithSink) {
    if (r.firstDifference)
      out += fmt::format("first difference from the sink: batch {}\n", *r.firstDifference);
    else
      out += "every compared batch's output equals what the sink committed\n";
  }
  return out;
}

}  // namespace streamsim::harness
