// Replays a checkpoint's recorded batch plan in the simulator (checkpoint_replay.h).
//
// How: the simulated checkpoint gets the original `metadata` and source logs (sources/), but
// no commits. For each recorded batch N in order, offsets/N is copied in and the query is
// (re)started: with offsets/N present and commits/N absent the engine re-runs batch N exactly as
// a Spark restart does (SEMANTICS.md §1) -- the same files from the source log, the same
// batchTimestampMs and the same watermark -- on top of the state the replay's own batch N-1
// committed.
#include "streamsim/harness/checkpoint_replay.h"

#include <algorithm>
#include <exception>
#include <string_view>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/query.h"
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

// Copies every file under `from` (real) to `to` (sim), recursively, keeping mtimes.
Status copyTree(const Env& real, const std::string& from, sim::SimFileSystem& sim,
                const std::string& to) {
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, real.fs->list(from));
  STREAMSIM_RETURN_IF_ERROR(sim.mkdirs(to));
  for (const FileInfo& e : entries) {
    std::string target = to + "/" + baseName(e.path);
    if (e.isDir) {
      STREAMSIM_RETURN_IF_ERROR(copyTree(real, e.path, sim, target));
      continue;
    }
    STREAMSIM_ASSIGN_OR_RETURN(std::string data, real.fs->read(e.path));
    STREAMSIM_RETURN_IF_ERROR(sim.putDurable(target, data));
    STREAMSIM_RETURN_IF_ERROR(sim.setModificationTime(target, e.modificationTime));
  }
  return Status::OK();
}

}  // namespace

Result<CheckpointReplayResult> replayCheckpoint(const Env& real, const CheckpointReplayOptions& o) {
  const std::string chk = trimSlash(o.checkpoint);
  const std::string landing = trimSlash(o.landing);
  if (chk.empty() || !isDir(real, chk))
    return Status::NotFound(fmt::format("--checkpoint {}: no such folder", o.checkpoint));
  if (landing.empty() || !isDir(real, landing))
    return Status::NotFound(fmt::format("--landing {}: no such folder", o.landing));
  if (!real.fs->exists(chk + "/offsets"))
    return Status::InvalidArgument(fmt::format(
        "{} has no offsets/ folder: not a checkpoint, or no batch was ever planned", chk));
  if (!isDir(real, chk + "/sources/0"))
    return Status::InvalidArgument(fmt::format(
        "{} has no file source log (sources/0/): replay needs a query that read a file source",
        chk));
  if (o.groupBy.empty())
    return Status::InvalidArgument("--group-by: give the grouping columns, e.g. --group-by user");
  STREAMSIM_ASSIGN_OR_RETURN(SchemaPtr schema, parseSchema(o.schema));
  for (const auto& c : o.groupBy)
    if (schema->indexOf(c) < 0)
      return Status::InvalidArgument(
          fmt::format("--group-by {}: no such column in --schema {}", c, o.schema));
  STREAMSIM_ASSIGN_OR_RETURN(TimeMode timeMode, parseTimeMode(o.timeMode));
  if (o.stateStore != "memory" && o.stateStore != "rocksdb")
    return Status::InvalidArgument(
        fmt::format("--state-store {}: expected memory or rocksdb", o.stateStore));
  if (auto f = ProcessorRegistry::factory(o.processor); !f.ok()) return f.status();

  // The recorded plan: per batch its files, timestamp and watermark.
  STREAMSIM_ASSIGN_OR_RETURN(CheckpointReport report, inspectCheckpoint(real, chk));
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
  CheckpointReplayResult result;
  std::set<std::string> landingDirs;
  std::vector<std::string> loggedFiles;
  for (const BatchReport& b : report.batches) {
    if (!b.hasOffsets) continue;
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
    return Status::InvalidArgument(fmt::format("{}: offsets/ holds no batch to replay", chk));
  if (result.batches.front().batchId > 0)
    return Status::InvalidArgument(fmt::format(
        "{}: offsets/ starts at batch {}: offsets/0..{} were purged "
        "(spark.sql.streaming.minBatchesToRetain keeps only the last batches), and a replay "
        "needs the plan from batch 0",
        chk, result.batches.front().batchId, result.batches.front().batchId - 1));
  if (landingDirs.size() > 1)
    return Status::InvalidArgument(fmt::format(
        "the source log of {} names files in {} folders ({}); replay supports one landing folder",
        chk, landingDirs.size(), fmt::join(landingDirs, ", ")));
  result.landingPath = landingDirs.empty() ? std::string("/replay/landing") : *landingDirs.begin();

  // The simulated world.
  sim::VirtualClock clock(result.batches.front().batchTimestampMs);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(0);
  Env env{&clock, &fs, &ids, nullptr, nullptr};

  // Landing files with their sizes and mtimes, at the paths the source log names.
  std::vector<std::string> missing;
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(result.landingPath));
  for (const auto& path : loggedFiles) {
    std::string from = landing + "/" + baseName(path);
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
        "the landing folder lacks {} file(s) the source log of {} names: {}", missing.size(), chk,
        fmt::join(missing, ", ")));

  // The checkpoint minus commits, offsets and state: metadata and the source logs.
  if (real.fs->exists(chk + "/metadata")) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string meta, real.fs->read(chk + "/metadata"));
    STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(kSimCheckpoint));
    STREAMSIM_RETURN_IF_ERROR(fs.putDurable(std::string(kSimCheckpoint) + "/metadata", meta));
  }
  STREAMSIM_RETURN_IF_ERROR(copyTree(real, chk + "/sources", fs, std::string(kSimCheckpoint) + "/sources"));
  STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(std::string(kSimCheckpoint) + "/offsets"));

  STREAMSIM_ASSIGN_OR_RETURN(auto source, makeFileSource(result.landingPath, schema));
  auto sinkData = std::make_shared<MemorySinkData>();
  DataStreamWriter writer = readStream(source)
                                .groupBy(o.groupBy)
                                .transformWithState(o.processor, timeMode, OutputMode::kUpdate)
                                .writeStream();
  writer.sink(makeMemorySink(sinkData))
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", kSimCheckpoint)
      .option("stateStore", o.stateStore);

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
  return result;
}

std::string formatReplay(const CheckpointReplayResult& r) {
  std::string out = fmt::format("landing folder (simulated): {}\n", r.landingPath);
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
  }
  return out;
}

}  // namespace streamsim::harness
