// Replays a checkpoint's recorded batch plan in the simulator (checkpoint_replay.h).
//
// How: the simulated checkpoint gets the original `metadata` and source logs (sources/), but
// no commits. For each recorded batch N in order, offsets/N is copied in and the query is
// (re)started: with offsets/N present and commits/N absent the engine re-runs batch N exactly as
// a Spark restart does (SEMANTICS.md §1) -- the same files from the source log, the same
// batchTimestampMs and the same watermark -- on top of the state the replay's own batch N-1
// committed. When offsets/0.. were purged, the first batch kept (K) is not re-run: its offsets
// and commit, and the state files up to version K+1 (the state K committed), are copied in, and
// the replay starts at K+1 exactly as a restart of the original query would.
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

// The user's folders, trailing slashes trimmed.
struct ReplayPaths {
  std::string checkpoint;
  std::string landing;
  std::string sink;  // "" without --sink
};

// Phase 1, the inputs: the folders exist, the checkpoint has offsets and a file source log, the
// schema parses and the processor is registered.
Status checkInputs(const Env& real, const CheckpointReplayOptions& o, const ReplayPaths& paths) {
  const std::string& chk = paths.checkpoint;
  if (chk.empty() || !isDir(real, chk))
    return Status::NotFound(fmt::format("--checkpoint {}: no such folder", o.checkpoint));
  if (paths.landing.empty() || !isDir(real, paths.landing))
    return Status::NotFound(fmt::format("--landing {}: no such folder", o.landing));
  if (!paths.sink.empty() && !isDir(real, paths.sink))
    return Status::NotFound(fmt::format("--sink {}: no such folder", o.sink));
  if (!real.fs->exists(chk + "/offsets"))
    return Status::InvalidArgument(fmt::format(
        "{} has no offsets/ folder: not a checkpoint, or no batch was ever planned", chk));
  if (!isDir(real, chk + "/sources/0"))
    return Status::InvalidArgument(fmt::format(
        "{} has no file source log (sources/0/): replay needs a query that read a file source",
        chk));
  STREAMSIM_RETURN_IF_ERROR(parseSchema(o.schema).status());
  if (auto f = ProcessorRegistry::factory(o.processor); !f.ok()) return f.status();
  return Status::OK();
}

// Phase 2, the query's shape: grouping columns and time mode from the checkpoint's operator record,
// unless given (and then they must agree with it).
Status resolveQueryShape(const Env& real, const CheckpointReplayOptions& o, const std::string& chk,
                         const Schema& schema, CheckpointReplayResult& result) {
  // Grouping columns and time mode: the checkpoint's operator record, unless given (and then
  // they must agree with it: a replay reproduces the query that wrote the checkpoint).
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<StateOperatorSchema> op,
                             readStateOperatorSchema(real, chk, 0));
  const std::string recordFile = chk + "/state/0/_stateSchema";
  if (o.groupBy.empty()) {
    if (!op || op->keyColumns.empty())
      return Status::InvalidArgument(fmt::format(
          "--group-by: {} records no grouping columns; give them, e.g. --group-by user", recordFile));
    result.groupBy = op->keyColumns;
  } else {
    if (op && !op->keyColumns.empty() && op->keyColumns != o.groupBy)
      return Status::InvalidArgument(fmt::format(
          "--group-by {}: the checkpoint's query grouped by {} ({}); leave --group-by out to use it",
          fmt::join(o.groupBy, ","), fmt::join(op->keyColumns, ","), recordFile));
    result.groupBy = o.groupBy;
  }
  for (const auto& c : result.groupBy)
    if (schema.indexOf(c) < 0)
      return Status::InvalidArgument(
          fmt::format("--group-by {}: no such column in --schema {}", c, o.schema));
  const std::string recordedMode = recordedTimeMode(op);
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
          o.timeMode, recordedMode, recordFile));
  }
  result.timeMode = std::string(timeModeName(timeMode));
  if (!o.stateStore.empty() && o.stateStore != "memory" && o.stateStore != "rocksdb")
    return Status::InvalidArgument(
        fmt::format("--state-store {}: expected memory or rocksdb", o.stateStore));

  return Status::OK();
}

// Phase 3, the recorded plan: per batch its files, timestamp and watermark; the first batch kept
// and the first replayed; the one landing folder. Returns the first batch kept.
Result<BatchReport> readRecordedPlan(const Env& real, const ReplayPaths& paths, CheckpointReplayResult& result,
                                     CheckpointReport& report, std::vector<std::string>& loggedFiles) {
  const std::string& chk = paths.checkpoint;
  // The recorded plan: per batch its files, timestamp and watermark.
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
  const BatchReport* firstKept = nullptr;
  for (const BatchReport& b : report.batches)
    if (b.hasOffsets) {
      firstKept = &b;
      break;
    }
  if (firstKept == nullptr)
    return Status::InvalidArgument(fmt::format("{}: offsets/ holds no batch to replay", chk));
  result.firstKeptBatch = firstKept->batchId;
  // offsets/0 purged (spark.sql.streaming.minBatchesToRetain): batch K, the first kept, cannot be
  // re-run (its files start where offsets/K-1 ended), but it is the restart point for K+1.
  result.firstReplayedBatch = firstKept->batchId == 0 ? 0 : firstKept->batchId + 1;
  if (result.firstReplayedBatch > 0 && !firstKept->committed)
    return Status::InvalidArgument(fmt::format(
        "{}: offsets/{} is the first batch kept (offsets/0..{} were purged by "
        "spark.sql.streaming.minBatchesToRetain) and it was never committed: a replay starts after "
        "a committed batch",
        chk, firstKept->batchId, firstKept->batchId - 1));
  std::set<std::string> landingDirs;
  for (const BatchReport& b : report.batches) {
    if (!b.hasOffsets || b.batchId < result.firstReplayedBatch) continue;
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
  if (result.batches.empty())
    return Status::InvalidArgument(fmt::format(
        "{}: only batch {} is kept in offsets/ (the earlier ones were purged by "
        "spark.sql.streaming.minBatchesToRetain); a replay needs a batch after it",
        chk, firstKept->batchId));
  if (landingDirs.size() > 1)
    return Status::InvalidArgument(fmt::format(
        "the source log of {} names files in {} folders ({}); replay supports one landing folder",
        chk, landingDirs.size(), fmt::join(landingDirs, ", ")));
  result.landingPath = landingDirs.empty() ? std::string("/replay/landing") : *landingDirs.begin();
  return *firstKept;
}

// Phase 4, the state store: the one the checkpoint's batches ran on (its state files are in that
// store's format) unless given -- and given, it may differ only when the replay starts at batch 0
// and builds all its state itself.
Status chooseStateStore(const Env& real, const CheckpointReplayOptions& o, const std::string& chk,
                        const BatchReport& firstKept, CheckpointReplayResult& result) {
  STREAMSIM_ASSIGN_OR_RETURN(auto recordedKind,
                             recordedStateStore(real, fmt::format("{}/offsets/{}", chk, firstKept.batchId)));
  const std::string recordedStore = recordedKind ? std::string(stateStoreKindName(*recordedKind)) : "";
  if (o.stateStore.empty()) {
    result.stateStore = recordedStore.empty() ? "memory" : recordedStore;
  } else {
    if (result.firstReplayedBatch > 0 && !recordedStore.empty() && recordedStore != o.stateStore)
      return Status::InvalidArgument(fmt::format(
          "--state-store {}: the checkpoint's state was written by the {} store "
          "(offsets/{}: spark.sql.streaming.stateStore.providerClass), and the replay starts from "
          "it at batch {}; leave --state-store out to use it",
          o.stateStore, recordedStore, firstKept.batchId, result.firstReplayedBatch));
    result.stateStore = o.stateStore;
  }

  return Status::OK();
}

// Phase 5, the simulated world: the landing files the source log names, with their sizes and
// mtimes, and the checkpoint minus commits, offsets and state (metadata and the source logs).
// Starting after a purged prefix adds the restart point: batch K's offsets and commit and the
// state as K committed it (store version K+1).
Status buildSimulatedCheckpoint(const Env& real, const ReplayPaths& paths, const BatchReport& firstKept,
                                const std::vector<std::string>& loggedFiles,
                                const CheckpointReplayResult& result, sim::SimFileSystem& fs) {
  const std::string& chk = paths.checkpoint;
  // Landing files with their sizes and mtimes, at the paths the source log names.
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

  // The checkpoint minus commits, offsets and state: metadata and the source logs. Starting
  // after a purged prefix adds the restart point: batch K's offsets and commit and the state
  // as K committed it (store version K+1).
  const std::string simChk = kSimCheckpoint;
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk));
  if (real.fs->exists(paths.checkpoint + "/metadata"))
    STREAMSIM_RETURN_IF_ERROR(copyFile(real, chk + "/metadata", fs, simChk + "/metadata"));
  STREAMSIM_RETURN_IF_ERROR(copyTree(real, chk + "/sources", fs, simChk + "/sources"));
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk + "/offsets"));
  if (result.firstReplayedBatch > 0) {
    const int64_t k = firstKept.batchId;
    STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(simChk + "/commits"));
    STREAMSIM_RETURN_IF_ERROR(copyFile(real, fmt::format("{}/offsets/{}", paths.checkpoint, k), fs,
                                       fmt::format("{}/offsets/{}", simChk, k)));
    STREAMSIM_RETURN_IF_ERROR(copyFile(real, fmt::format("{}/commits/{}", paths.checkpoint, k), fs,
                                       fmt::format("{}/commits/{}", simChk, k)));
    if (isDir(real, paths.checkpoint + "/state"))
      // state/ as it stood when version k+1 was the newest: later state files are the replay's
      // to write; schema records and operator metadata are copied whole.
      STREAMSIM_RETURN_IF_ERROR(copyTree(real, paths.checkpoint + "/state", fs, simChk + "/state",
                                         [upTo = k + 1](const std::string& name) {
                                           auto v = stateFileVersion(name);
                                           return !v || *v <= upTo;
                                         }));
  }

  return Status::OK();
}

// Phase 6, the re-run: for each recorded batch N, offsets/N copied in and the query restarted,
// which re-runs N as a Spark restart does; its rows in and out, timestamp, watermark and output.
Status replayBatches(const Env& real, const CheckpointReplayOptions& o, const ReplayPaths& paths,
                     const Schema& schemaIn, TimeMode timeMode, sim::VirtualClock& clock, sim::SimFileSystem& fs,
                     Env& env, CheckpointReplayResult& result) {
  const std::string& chk = paths.checkpoint;
  SchemaPtr schema = std::make_shared<const Schema>(schemaIn);
  STREAMSIM_ASSIGN_OR_RETURN(auto source, makeFileSource(result.landingPath, schema));
  auto sinkData = std::make_shared<MemorySinkData>();
  DataStreamWriter writer = readStream(source)
                                .groupBy(result.groupBy)
                                .transformWithState(o.processor, timeMode, OutputMode::kUpdate)
                                .writeStream();
  writer.sink(makeMemorySink(sinkData))
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", kSimCheckpoint)
      .option("stateStore", result.stateStore);

  for (ReplayedBatch& rb : result.batches) {
    std::string offsets = fmt::format("{}/offsets/{}", chk, rb.batchId);
    STREAMSIM_ASSIGN_OR_RETURN(std::string data, real.fs->read(offsets));
    STREAMSIM_RETURN_IF_ERROR(
        fs.putDurable(fmt::format("{}/offsets/{}", kSimCheckpoint, rb.batchId), data));
    if (rb.batchTimestampMs > clock.nowMs()) clock.set(rb.batchTimestampMs);
    // The engine names the simulated copy; the user knows the checkpoint by its own path. Bad
    // input (a file that does not parse, one that is missing) stays bad input (exit 2).
    auto fail = [&](const Status& st) {
      std::string what = st.message();
      for (size_t at = what.find(kSimCheckpoint); at != std::string::npos;
           at = what.find(kSimCheckpoint, at + chk.size()))
        what.replace(at, std::string_view(kSimCheckpoint).size(), chk);
      std::string msg = fmt::format("replaying batch {} of {}: {}", rb.batchId, chk, what);
      switch (st.code()) {
        case Status::Code::kCorruption:
        case Status::Code::kNotFound:
        case Status::Code::kInvalidArgument: return Status::InvalidArgument(std::move(msg));
        default: return Status::FailedPrecondition(std::move(msg));
      }
    };
    try {
      auto query = writer.start(env);
      if (!query.ok()) return fail(query.status());
      auto ran = (*query)->triggerOnce();
      if (!ran.ok()) return fail(ran.status());
      const QueryProgress* p = (*query)->lastProgress();
      if (!*ran || p == nullptr || p->batchId != rb.batchId)
        return fail(Status::FailedPrecondition(
            fmt::format("the engine did not re-run it (ran {}, last batch {})", *ran,
                        p ? std::to_string(p->batchId) : std::string("none"))));
      rb.rowsIn = p->numInputRows;
      rb.rowsOut = p->numOutputRows;
      rb.replayedTimestampMs = p->timestamp;
      rb.replayedWatermarkMs = p->eventTime.watermark;
      (*query)->stop();
    } catch (const std::exception& e) {
      return fail(Status::FailedPrecondition(fmt::format("threw: {}", e.what())));
    }
    if (const auto* rows = sinkData->batch(rb.batchId)) rb.output = *rows;
  }
  return Status::OK();
}

}  // namespace

Result<CheckpointReplayResult> replayCheckpoint(const Env& real, const CheckpointReplayOptions& o) {
  const ReplayPaths paths{trimSlash(o.checkpoint), trimSlash(o.landing), trimSlash(o.sink)};
  STREAMSIM_RETURN_IF_ERROR(checkInputs(real, o, paths));
  STREAMSIM_ASSIGN_OR_RETURN(SchemaPtr schema, parseSchema(o.schema));
  CheckpointReplayResult result;
  STREAMSIM_RETURN_IF_ERROR(resolveQueryShape(real, o, paths.checkpoint, *schema, result));
  TimeMode timeMode = TimeMode::kNone;
  STREAMSIM_ASSIGN_OR_RETURN(timeMode, parseTimeMode(result.timeMode));
  CheckpointReport report;
  std::vector<std::string> loggedFiles;
  STREAMSIM_ASSIGN_OR_RETURN(BatchReport firstKept, readRecordedPlan(real, paths, result, report, loggedFiles));
  STREAMSIM_RETURN_IF_ERROR(chooseStateStore(real, o, paths.checkpoint, firstKept, result));
  const TimeMs startMs = result.firstReplayedBatch > 0 ? firstKept.batchTimestampMs.value_or(0)
                                                       : result.batches.front().batchTimestampMs;
  sim::VirtualClock clock(startMs);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(0);
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  STREAMSIM_RETURN_IF_ERROR(buildSimulatedCheckpoint(real, paths, firstKept, loggedFiles, result, fs));
  STREAMSIM_RETURN_IF_ERROR(replayBatches(real, o, paths, *schema, timeMode, clock, fs, env, result));
  if (!paths.sink.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(std::optional<std::string> recorded, readSinkPathRecord(real, paths.checkpoint));
    STREAMSIM_RETURN_IF_ERROR(
        detail::compareWithSink(real, paths.sink, trimSlash(recorded.value_or("")), report, result));
  }
  return result;
}

std::string formatReplay(const CheckpointReplayResult& r) {
  std::string out = fmt::format("landing folder (simulated): {}\n", r.landingPath);
  if (r.firstReplayedBatch > 0)
    out += fmt::format(
        "offsets/0..{} were purged (spark.sql.streaming.minBatchesToRetain): the replay starts at "
        "batch {} from the state batch {} committed\n",
        r.firstKeptBatch - 1, r.firstReplayedBatch, r.firstKeptBatch);
  for (const ReplayedBatch& b : r.batches) {
    out += fmt::format("batch {}: timestamp {} ({}), watermark {}, {} file(s), rows in {}, out {}\n",
                       b.batchId, b.batchTimestampMs, formatTimestamp(b.batchTimestampMs),
                       b.watermarkMs, b.files.size(), b.rowsIn, b.rowsOut);
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
