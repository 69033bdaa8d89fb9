// The checkpoint inspector (checkpoint_reader.h, docs/checkpoint-format.md "Inspector"): the order
// of its checks, inspectCheckpoint and findCheckpoints. Each check is in the file named for what it
// checks (checkpoint_inspector.h lists them); the report writers are checkpoint_report_text.cc and
// checkpoint_report_json.cc.
#include "streamsim/checkpoint/checkpoint_reader.h"

#include <algorithm>

#include <fmt/format.h>

#include "checkpoint/checkpoint_inspector.h"
#include "checkpoint/state_store_inspect.h"

namespace streamsim {

const char* diagnosisKindName(DiagnosisKind k) {
  switch (k) {
    case DiagnosisKind::kMissing: return "missing";
    case DiagnosisKind::kUnreadable: return "unreadable";
    case DiagnosisKind::kUncommittedBatch: return "uncommitted-batch";
    case DiagnosisKind::kOffsetsGap: return "offsets-gap";
    case DiagnosisKind::kCommitsGap: return "commits-gap";
    case DiagnosisKind::kCommitWithoutOffsets: return "commit-without-offsets";
    case DiagnosisKind::kSinkAhead: return "sink-ahead";
    case DiagnosisKind::kOrphanFiles: return "orphan-files";
    case DiagnosisKind::kRenamedResend: return "renamed-resend";
    case DiagnosisKind::kChecksumMismatch: return "checksum-mismatch";
    case DiagnosisKind::kLeftoverTempFile: return "leftover-temp-file";
    case DiagnosisKind::kSinkMoved: return "sink-moved";
    case DiagnosisKind::kMissingStateFile: return "missing-state-file";
    case DiagnosisKind::kOrphanedStateFile: return "orphaned-state-file";
  }
  return "?";
}

namespace detail {

CheckpointInspector::CheckpointInspector(const Env& env, std::string root) : env_(env) {
  report_.root = std::move(root);
}

CheckpointReport CheckpointInspector::run(const std::optional<std::string>& sinkPath) {
  if (!env_.fs->exists(report_.root)) {
    add(DiagnosisKind::kMissing,
        fmt::format("checkpoint folder {} does not exist: a query started on it begins at "
                    "batch 0 and reprocesses every input",
                    report_.root),
        {}, {report_.root});
    report_.restartBatchId = 0;
    if (sinkPath) readSink(*sinkPath);
    return std::move(report_);
  }
  readMetadata();
  readOffsets();
  readCommits();
  checkLogs();
  readSources();
  readOperators();
  inspectStateStores(env_, report_);
  if (sinkPath) readSink(*sinkPath);
  findRenamedResends();
  findTempFiles();
  checkHadoopChecksums(report_.root, 0);
  return std::move(report_);
}

std::vector<BatchReport> CheckpointInspector::takeBatches() {
  std::vector<BatchReport> out;
  for (auto& [id, b] : batches_) out.push_back(std::move(b));
  return out;
}

}  // namespace detail

Result<CheckpointReport> inspectCheckpoint(const Env& env, const std::string& root,
                                           std::optional<std::string> sinkPath) {
  if (root.empty()) return Status::InvalidArgument("inspectCheckpoint: the checkpoint path is empty");
  if (env.fs == nullptr) return Status::InvalidArgument("inspectCheckpoint: the Env has no filesystem");
  detail::CheckpointInspector inspector(env, root);
  CheckpointReport report = inspector.run(sinkPath);
  report.batches = inspector.takeBatches();
  return report;
}

namespace {

bool looksLikeCheckpoint(const Env& env, const std::string& dir) {
  return env.fs->exists(dir + "/offsets") || env.fs->exists(dir + "/commits") ||
         env.fs->exists(dir + "/metadata");
}

void collectCheckpoints(const Env& env, const std::string& dir, int depthLeft,
                        std::vector<std::string>& out) {
  if (looksLikeCheckpoint(env, dir)) {
    out.push_back(dir);
    return;
  }
  if (depthLeft <= 0) return;
  auto entries = env.fs->list(dir);
  if (!entries.ok()) return;
  for (const FileInfo& e : *entries)
    if (e.isDir) collectCheckpoints(env, e.path, depthLeft - 1, out);
}

}  // namespace

std::vector<std::string> findCheckpoints(const Env& env, const std::string& root, int maxDepth) {
  std::vector<std::string> out;
  collectCheckpoints(env, root, maxDepth, out);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace streamsim
