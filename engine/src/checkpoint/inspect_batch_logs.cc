// The inspector's look at the query's own logs (checkpoint_inspector.h): metadata, offsets and
// commits, the gaps between and within them, and the batch a restart runs (populateStartOffsets).
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "checkpoint/checkpoint_inspector.h"
#include "streamsim/checkpoint/checkpoint_metadata.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"

namespace streamsim::detail {

namespace {

std::string joinIds(const std::vector<int64_t>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out;
}

}  // namespace

void CheckpointInspector::readMetadata() {
  auto md = readStreamMetadata(env_, report_.root);
  if (!md.ok()) {
    add(DiagnosisKind::kUnreadable, md.status().message(), {}, {joinPath(report_.root, "metadata")});
  } else if (!md->has_value()) {
    add(DiagnosisKind::kMissing,
        fmt::format("{} is missing: Spark writes it when the query first starts (query id "
                    "unknown)", joinPath(report_.root, "metadata")),
        {}, {joinPath(report_.root, "metadata")});
  } else {
    report_.queryId = (*md)->id;
  }
}

void CheckpointInspector::readOffsets() {
  OffsetLog log(env_, report_.root);
  if (!env_.fs->exists(log.dir())) {
    add(DiagnosisKind::kMissing,
        fmt::format("{} does not exist: no batch was ever planned", log.dir()), {}, {log.dir()});
    return;
  }
  auto ids = log.listBatchIds();
  if (!ids.ok()) {
    add(DiagnosisKind::kUnreadable, ids.status().message(), {}, {log.dir()});
    return;
  }
  offset_ids_ = *ids;
  std::map<size_t, std::vector<int64_t>> sourceCounts;  // offsets per file -> the files
  for (int64_t id : offset_ids_) {
    BatchReport& b = batch(id);
    b.hasOffsets = true;
    auto seq = log.get(id);
    if (!seq.ok() || !seq->has_value()) {
      add(DiagnosisKind::kUnreadable,
          seq.ok() ? fmt::format("{} vanished while reading", log.batchPath(id))
                   : seq.status().message(),
          {id}, {log.batchPath(id)});
      continue;
    }
    const OffsetSeq& s = **seq;
    b.offsetsVersion = s.formatVersion;
    b.batchTimestampMs = s.metadata.batchTimestampMs;
    b.batchWatermarkMs = s.metadata.batchWatermarkMs;
    if (s.formatVersion >= 2) {
      // OffsetMap (Spark 4.2): offsets by source id; sources may come and go (source evolution).
      for (size_t k = 0; k < s.sourceIds.size() && k < s.offsets.size(); ++k) {
        auto at = std::find(report_.sourceNames.begin(), report_.sourceNames.end(), s.sourceIds[k]);
        size_t i = static_cast<size_t>(at - report_.sourceNames.begin());
        if (at == report_.sourceNames.end()) report_.sourceNames.push_back(s.sourceIds[k]);
        if (b.sourceOffsets.size() <= i) b.sourceOffsets.resize(i + 1);
        b.sourceOffsets[i] = s.offsets[k];
      }
      continue;
    }
    b.sourceOffsets = s.offsets;
    sourceCounts[s.offsets.size()].push_back(id);
  }
  if (!offset_ids_.empty()) report_.latestOffsetsId = offset_ids_.back();
  // A query's sources never change: every offsets file lists as many as the others (a restart
  // with another number fails in Spark: "There are [N] sources in the checkpoint offsets and
  // now there are [M] sources requested by the query"). The count most files have is taken for
  // the query's (on a tie, the earlier files'); every file that lists another is damaged.
  if (sourceCounts.size() > 1) {
    auto usual = sourceCounts.begin();
    for (auto it = sourceCounts.begin(); it != sourceCounts.end(); ++it)
      if (it->second.size() > usual->second.size() ||
          (it->second.size() == usual->second.size() && it->second.front() < usual->second.front()))
        usual = it;
    for (const auto& [count, ids] : sourceCounts) {
      if (count == usual->first) continue;
      for (int64_t id : ids)
        add(DiagnosisKind::kUnreadable,
            fmt::format("{} lists {} source offset(s) where offsets/{} lists {}: a query's "
                        "sources never change",
                        log.batchPath(id), count, usual->second.front(), usual->first),
            {id}, {log.batchPath(id)});
    }
  }
}

void CheckpointInspector::readCommits() {
  CommitLog log(env_, report_.root);
  if (!env_.fs->exists(log.dir())) {
    if (!offset_ids_.empty())
      add(DiagnosisKind::kMissing,
          fmt::format("{} does not exist: no batch ever completed (or a Spark 2.1 checkpoint, "
                      "which had no commit log)",
                      log.dir()),
          {}, {log.dir()});
    return;
  }
  auto ids = log.listBatchIds();
  if (!ids.ok()) {
    add(DiagnosisKind::kUnreadable, ids.status().message(), {}, {log.dir()});
    return;
  }
  commit_ids_ = *ids;
  for (int64_t id : commit_ids_) {
    BatchReport& b = batch(id);
    b.committed = true;
    auto c = log.get(id);
    if (!c.ok() || !c->has_value()) {
      add(DiagnosisKind::kUnreadable,
          c.ok() ? fmt::format("{} vanished while reading", log.batchPath(id))
                 : c.status().message(),
          {id}, {log.batchPath(id)});
      continue;
    }
    b.commitVersion = (*c)->formatVersion;
    b.nextBatchWatermarkMs = (*c)->nextBatchWatermarkMs;
    if (const SinkMetadataInfo* active = (*c)->activeSink()) {
      b.activeSink = active->sinkName;
      report_.sinks = (*c)->sinks;  // ascending ids: the latest v3 commit's stays
    }
  }
  if (!commit_ids_.empty()) report_.latestCommitId = commit_ids_.back();
}

std::vector<int64_t> CheckpointInspector::missingBetween(const std::vector<int64_t>& ids) {
  std::vector<int64_t> missing;
  for (size_t i = 1; i < ids.size(); ++i)
    for (int64_t m = ids[i - 1] + 1; m < ids[i] && missing.size() < 100; ++m) missing.push_back(m);
  return missing;
}

void CheckpointInspector::checkLogs() {
  std::string offsetsDir = joinPath(report_.root, "offsets");
  std::string commitsDir = joinPath(report_.root, "commits");
  std::set<int64_t> offsetSet(offset_ids_.begin(), offset_ids_.end());
  if (auto missing = missingBetween(offset_ids_); !missing.empty()) {
    int64_t latest = offset_ids_.back();
    std::string effect =
        offsetSet.count(latest - 1)
            ? fmt::format("offsets/{} and offsets/{} exist, so a restart starts, but the batches "
                          "in the gap are unaccounted for",
                          latest - 1, latest)
            : fmt::format("a restart reads offsets/{} and offsets/{} and fails with \"batch {} "
                          "doesn't exist\"",
                          latest, latest - 1, latest - 1);
    add(DiagnosisKind::kOffsetsGap,
        fmt::format("offsets ids are not contiguous: present {}, missing {}. Batch ids in a log "
                    "must be contiguous (SPARK-38033): {}",
                    joinIds(offset_ids_), joinIds(missing), effect),
        missing, {offsetsDir});
  }
  {
    // Commits missing between planned batches while a later commit exists (the two logs are
    // written in order and purged together, so this is a hole, not retention).
    std::set<int64_t> commitSet(commit_ids_.begin(), commit_ids_.end());
    std::set<int64_t> missing;
    for (int64_t m : missingBetween(commit_ids_)) missing.insert(m);
    if (!commit_ids_.empty())
      for (int64_t o : offset_ids_)
        if (o < commit_ids_.back() && !commitSet.count(o)) missing.insert(o);
    if (!missing.empty()) {
      std::vector<int64_t> ids(missing.begin(), missing.end());
      add(DiagnosisKind::kCommitsGap,
          fmt::format("commit ids are not contiguous: present {}, missing {} although a later "
                      "batch committed (commit files lost or deleted by hand?)",
                      joinIds(commit_ids_), joinIds(ids)),
          ids, {commitsDir});
    }
  }
  std::vector<int64_t> orphanCommits;
  for (int64_t c : commit_ids_)
    if (!offsetSet.count(c)) orphanCommits.push_back(c);
  if (!orphanCommits.empty()) {
    add(DiagnosisKind::kCommitWithoutOffsets,
        fmt::format("commits {} have no offsets file: a commit is written only after its "
                    "offsets, so these were lost, purged or copied in by hand",
                    joinIds(orphanCommits)),
        orphanCommits, {commitsDir});
  }
  // What populateStartOffsets would do.
  if (offset_ids_.empty()) {
    report_.restartBatchId = 0;
    return;
  }
  int64_t latest = offset_ids_.back();
  if (latest > 0 && !offsetSet.count(latest - 1) && missingBetween(offset_ids_).empty()) {
    add(DiagnosisKind::kOffsetsGap,
        fmt::format("offsets/{} is the latest but offsets/{} is missing: a restart fails with "
                    "\"batch {} doesn't exist\" (SPARK-38033)",
                    latest, latest - 1, latest - 1),
        {latest - 1}, {offsetsDir});
  }
  std::optional<int64_t> lastCommit = report_.latestCommitId;
  if (lastCommit && *lastCommit >= latest) {
    report_.restartBatchId = *lastCommit + 1;
    report_.restartIsRerun = false;
    return;
  }
  report_.restartBatchId = latest;
  report_.restartIsRerun = true;
  const BatchReport& b = batch(latest);
  std::string how = fmt::format(
      "a restart re-runs batch {} with the same offsets, batchTimestampMs {} and watermark {}",
      latest, b.batchTimestampMs ? std::to_string(*b.batchTimestampMs) : "?",
      b.batchWatermarkMs ? std::to_string(*b.batchWatermarkMs) : "?");
  if (!lastCommit) {
    add(DiagnosisKind::kUncommittedBatch,
        fmt::format("offsets/{} has no commit and there is no commit at all: {}", latest, how),
        {latest}, {joinPath(offsetsDir, std::to_string(latest))});
  } else if (*lastCommit == latest - 1) {
    add(DiagnosisKind::kUncommittedBatch,
        fmt::format("offsets/{} has no commits/{} (commits/{} exists): {}", latest, latest,
                    *lastCommit, how),
        {latest}, {joinPath(offsetsDir, std::to_string(latest))});
  } else {
    add(DiagnosisKind::kUncommittedBatch,
        fmt::format("the latest commit is {} but the latest offsets is {}: the commit log trails "
                    "by more than one batch. Spark warns and {} (from offsets/{} to offsets/{}); "
                    "batches {}..{} were planned but never committed and are not re-run",
                    *lastCommit, latest, how, latest - 1, latest, *lastCommit + 1, latest - 1),
        {latest}, {joinPath(offsetsDir, std::to_string(latest))});
  }
}

}  // namespace streamsim::detail
