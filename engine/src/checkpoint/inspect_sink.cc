// The inspector's look at a file sink folder (checkpoint_inspector.h): its _spark_metadata log,
// the files each batch wrote, orphan files, a sink ahead of the commits, a folder moved elsewhere.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "checkpoint/checkpoint_inspector.h"
#include "streamsim/checkpoint/file_sink_log.h"

namespace streamsim::detail {

namespace {

// `path` relative to `root` when under it ("/out/a/b", "/out" -> "a/b"); `path` otherwise.
std::string relativeTo(const std::string& path, const std::string& root) {
  if (root == "/") return path.size() > 1 ? path.substr(1) : path;
  return path.rfind(root + "/", 0) == 0 ? path.substr(root.size() + 1) : path;
}

}  // namespace

// "file:///a/b" and "file:/a/b" -> "/a/b"; other strings unchanged.
std::string CheckpointInspector::localPath(const std::string& uri) {
  std::string_view s = uri;
  if (s.rfind("file://", 0) == 0) {
    s.remove_prefix(7);
  } else if (s.rfind("file:", 0) == 0) {
    s.remove_prefix(5);
  }
  return std::string(s);
}

void CheckpointInspector::collectDataFiles(const std::string& dir, std::vector<FileInfo>& out, int depth) {
  if (depth > 16) return;
  auto entries = env_.fs->list(dir);
  if (!entries.ok()) return;
  for (const FileInfo& e : *entries) {
    std::string name = baseName(e.path);
    if (name.empty() || name[0] == '_' || name[0] == '.') continue;  // hidden, as Spark
    if (e.isDir) {
      collectDataFiles(e.path, out, depth + 1);
    } else {
      out.push_back(e);
    }
  }
}

void CheckpointInspector::readSink(const std::string& sinkPath) {
  // The data files in the folder, by their path relative to the sink root: the log's entries
  // are matched by that (a folder moved elsewhere keeps its relative paths, not its absolute ones).
  std::vector<FileInfo> data;
  collectDataFiles(sinkPath, data, 0);
  std::set<std::string> dataRel;
  for (const FileInfo& f : data) dataRel.insert(relativeTo(localPath(f.path), sinkPath));
  SinkReport sink;
  sink.path = sinkPath;
  FileSinkLog log(env_, sinkPath);
  sink.logPresent = env_.fs->exists(log.dir());
  if (!env_.fs->exists(sinkPath)) {
    add(DiagnosisKind::kMissing, fmt::format("sink folder {} does not exist", sinkPath), {},
        {sinkPath});
    report_.sink = std::move(sink);
    return;
  }
  if (!sink.logPresent) {
    add(DiagnosisKind::kMissing,
        fmt::format("{} does not exist: no batch was committed to this file sink (every data "
                    "file in the folder is unlisted)",
                    log.dir()),
        {}, {log.dir()});
  }
  std::set<std::string> listed;
  if (sink.logPresent) {
    auto ids = log.listBatchIds();
    if (!ids.ok()) {
      add(DiagnosisKind::kUnreadable, ids.status().message(), {}, {log.dir()});
    } else {
      if (!ids->empty()) sink.latestBatchId = ids->back();
      std::set<std::string> before;
      for (int64_t id : *ids) {
        auto entries = log.get(id);
        if (!entries.ok() || !entries->has_value()) {
          add(DiagnosisKind::kUnreadable,
              entries.ok() ? fmt::format("sink log batch {} vanished", id)
                           : entries.status().message(),
              {id}, {log.dir()});
          continue;
        }
        std::vector<std::string> files;
        for (const SinkFileStatus& f : **entries) {
          if (f.action != kSinkAddAction) continue;
          if (log.isCompactFile(id) && before.count(f.path)) continue;
          files.push_back(f.path);
        }
        for (const auto& f : files) {
          before.insert(f);
          taken_.push_back(Taken{f, id, "sink"});
        }
        auto it = batches_.find(id);
        if (it != batches_.end()) it->second.sinkFiles = std::move(files);
      }
      auto all = log.allFiles();
      if (!all.ok()) {
        add(logFailureKind(all.status()), all.status().message(), {}, {log.dir()});
      } else {
        // Each logged path (absolute: Spark writes the path it wrote) relative to the sink
        // root it was written under: this folder, or -- for a folder moved from elsewhere --
        // the root that a data file here, by its relative path, shows it had.
        std::map<std::string, size_t> movedFrom;  // original root -> entries under it
        size_t here = 0;
        for (const auto& f : *all) {
          sink.listedFiles.push_back(f.path);
          sink_sizes_[f.path] = f.size;
          const std::string local = localPath(f.path);
          if (local.rfind(sinkPath + "/", 0) == 0) {
            listed.insert(local.substr(sinkPath.size() + 1));
            ++here;
            continue;
          }
          bool matched = false;
          for (size_t at = local.find('/'); at != std::string::npos && !matched; at = local.find('/', at + 1))
            if (dataRel.count(local.substr(at + 1))) {
              listed.insert(local.substr(at + 1));
              ++movedFrom[at == 0 ? std::string("/") : local.substr(0, at)];
              matched = true;
            }
          if (!matched) listed.insert(local);  // a file neither here nor found: reported missing by no one
        }
        if (!movedFrom.empty() && here == 0) {
          auto from = std::max_element(movedFrom.begin(), movedFrom.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
          add(DiagnosisKind::kSinkMoved,
              fmt::format("this sink folder was moved from {}: its _spark_metadata lists the files at "
                          "their absolute paths under {}, and Spark's reader of the folder "
                          "(MetadataLogFileIndex, SinkFileStatus.toFileStatus) reads those paths, not the "
                          "files here: it fails with FileNotFoundException where {} is gone, or reads the "
                          "files still there; the files here were matched to the log by their path "
                          "relative to the sink root",
                          from->first, from->first, from->first),
              {}, {sinkPath});
        }
      }
      if (sink.latestBatchId && (!report_.latestCommitId ||
                                 *sink.latestBatchId > *report_.latestCommitId)) {
        add(DiagnosisKind::kSinkAhead,
            fmt::format("the file sink already holds batch {} but the latest commit is {}: the "
                        "re-run of that batch will skip the sink (batch id <= latest sink batch)",
                        *sink.latestBatchId,
                        report_.latestCommitId ? std::to_string(*report_.latestCommitId) : "none"),
            {*sink.latestBatchId}, {log.dir()});
      }
    }
  }
  for (const FileInfo& f : data)
    if (!listed.count(relativeTo(localPath(f.path), sinkPath))) sink.orphanFiles.push_back(f.path);
  if (!sink.orphanFiles.empty()) {
    add(DiagnosisKind::kOrphanFiles,
        fmt::format("{} data file(s) in {} are not listed in _spark_metadata (left by a batch "
                    "that failed before its sink log entry; readers of the folder ignore them): {}",
                    sink.orphanFiles.size(), sinkPath,
                    fmt::join(sink.orphanFiles.begin(),
                              sink.orphanFiles.begin() +
                                  static_cast<long>(std::min<size_t>(sink.orphanFiles.size(), 10)),
                              ", ")),
        {}, sink.orphanFiles);
  }
  report_.sink = std::move(sink);
}

}  // namespace streamsim::detail
