// The inspector's look at the file sources (checkpoint_inspector.h): sources/<i>/ logs, the files
// each batch took, and the logs a file source offset names but the checkpoint lacks.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checkpoint/checkpoint_inspector.h"
#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/checkpoint/offset_log.h"

namespace streamsim::detail {

// A compactible log's allFiles() failing: NotFound is a lost compact file or batch.
DiagnosisKind CheckpointInspector::logFailureKind(const Status& st) {
  return st.code() == Status::Code::kNotFound ? DiagnosisKind::kMissing
                                              : DiagnosisKind::kUnreadable;
}

void CheckpointInspector::readSources() {
  std::string sourcesDir = joinPath(report_.root, "sources");
  std::set<int> logDirs;  // sources/<i>/ folders seen
  if (!env_.fs->exists(sourcesDir)) return missingSourceLogs(logDirs, sourcesDir);
  auto entries = env_.fs->list(sourcesDir);
  if (!entries.ok()) {
    add(DiagnosisKind::kUnreadable, entries.status().message(), {}, {sourcesDir});
    return;
  }
  for (const FileInfo& e : *entries) {
    // sources/<i>/, or sources/<name>/ for a source an offsets v2 file names (Spark 4.2).
    std::optional<int64_t> idx;
    const std::string folder = baseName(e.path);
    if (!report_.sourceNames.empty()) {
      auto at = std::find(report_.sourceNames.begin(), report_.sourceNames.end(), folder);
      if (at != report_.sourceNames.end()) idx = at - report_.sourceNames.begin();
    } else {
      idx = batchIdFromFileName(folder, false);
    }
    if (!idx) continue;
    int i = static_cast<int>(*idx);
    if (!e.isDir) {
      add(DiagnosisKind::kUnreadable,
          fmt::format("{} is a file, not source {}'s log folder (a file source logs its batches "
                      "as sources/{}/N)", e.path, i, i),
          {}, {e.path});
      continue;
    }
    logDirs.insert(i);
    if (readKafkaSource(i, e.path)) continue;
    FileSourceLog log(env_, joinPath(sourcesDir, folder));
    auto all = log.allFiles();
    if (!all.ok()) {
      add(logFailureKind(all.status()), all.status().message(), {}, {log.dir()});
      continue;
    }
    std::optional<int64_t> prevK;
    for (auto& [id, b] : batches_) {
      if (!b.hasOffsets || static_cast<size_t>(i) >= b.sourceOffsets.size()) continue;
      const auto& off = b.sourceOffsets[i];
      if (!off) continue;
      auto k = parseFileSourceOffset(*off, joinPath(report_.root, "offsets/" + std::to_string(id)));
      if (!k.ok()) continue;
      BatchSourceFiles files;
      files.sourceIndex = i;
      files.logOffset = *k;
      for (const FileSourceEntry& f : *all) {
        if (f.batchId <= *k && (!prevK || f.batchId > *prevK)) {
          files.files.push_back(f.path);
          taken_.push_back(Taken{f.path, id, "source " + std::to_string(i)});
        }
      }
      prevK = *k;
      b.sourceFiles.push_back(std::move(files));
    }
  }
  missingSourceLogs(logDirs, sourcesDir);
}

// A file source offset ({"logOffset":K}) names the source's log: sources/<i>/ must be a folder.
void CheckpointInspector::missingSourceLogs(const std::set<int>& logDirs, const std::string& sourcesDir) {
  std::map<int, std::vector<int64_t>> missing;  // source index -> batches naming its log
  for (const auto& [id, b] : batches_) {
    if (!b.hasOffsets) continue;
    for (size_t i = 0; i < b.sourceOffsets.size(); ++i) {
      const auto& off = b.sourceOffsets[i];
      if (!off || logDirs.count(static_cast<int>(i))) continue;
      // Only the JSON form names a file source for sure: a bare number is also a memory
      // stream's offset (Spark's own test checkpoints).
      if (off->find("\"logOffset\"") == std::string::npos || !parseFileSourceOffset(*off, "").ok()) continue;
      missing[static_cast<int>(i)].push_back(id);
    }
  }
  for (const auto& [i, ids] : missing) {
    std::string dir = joinPath(sourcesDir, static_cast<size_t>(i) < report_.sourceNames.size()
                                               ? report_.sourceNames[i]
                                               : std::to_string(i));
    if (env_.fs->exists(dir)) continue;  // a file: said above
    add(DiagnosisKind::kMissing,
        fmt::format("{} is missing: the offsets of batch(es) {} give source {} a file source "
                    "offset (logOffset), whose files its log lists; a restart cannot re-plan them",
                    dir, fmt::join(ids, ", "), i),
        ids, {dir});
  }
}

}  // namespace streamsim::detail
