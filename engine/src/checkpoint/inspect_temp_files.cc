// The inspector's search for leftover temporary files (checkpoint_inspector.h).
#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "checkpoint/checkpoint_inspector.h"

namespace streamsim::detail {

// Temp files a write cut short leaves: HDFSBackedStateStoreProvider's temp-<number> in a
// state folder, CheckpointFileManager's .<name>.<uuid>.tmp anywhere.
void CheckpointInspector::findTempFiles() {
  std::vector<std::string> found;
  std::function<void(const std::string&, int)> walk = [&](const std::string& dir, int depth) {
    auto entries = env_.fs->list(dir);
    if (!entries.ok() || depth > 4) return;
    for (const FileInfo& e : *entries) {
      std::string name = baseName(e.path);
      if (e.isDir) {
        walk(e.path, depth + 1);
      } else if (name.rfind("temp-", 0) == 0 ||
                 (name.size() > 4 && name.substr(name.size() - 4) == ".tmp" && name[0] == '.')) {
        found.push_back(e.path);
      }
    }
  };
  walk(report_.root, 0);
  std::sort(found.begin(), found.end());
  for (const std::string& path : found) {
    bool state = path.find("/state/") != std::string::npos;
    add(DiagnosisKind::kLeftoverTempFile,
        fmt::format("{} is a leftover temporary file: a {} write was cut short (the task or "
                    "process stopped between creating it and renaming it into place). Spark "
                    "never reads it; it is safe to delete",
                    path, state ? "state store" : "log"),
        {}, {path});
  }
}

}  // namespace streamsim::detail
