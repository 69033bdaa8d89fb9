// copyFileTree (keep_files.h).
#include "streamsim/harness/keep_files.h"

#include <fmt/format.h>

#include "streamsim/sim/sim_file_system.h"

namespace streamsim::harness {

Status copyFileTree(FileSystem& from, const std::string& root, FileSystem& to,
                    const std::string& toDir) {
  STREAMSIM_RETURN_IF_ERROR(to.mkdirs(toDir));
  auto entries = from.list(root);
  if (!entries.ok()) return entries.status();
  for (const FileInfo& e : *entries) {
    // The simulated filesystem keeps paths normalised (no `..`: sim::normalizeSimulatedPath); a
    // path that is not would leave toDir, and is refused rather than joined.
    bool aboveRoot = false;
    if (sim::normalizeSimulatedPath(e.path, &aboveRoot) != e.path || aboveRoot)
      return Status::InvalidArgument(fmt::format("--keep: {} is not a plain path; not written outside {}", e.path, toDir));
    std::string rel = e.path.substr(root == "/" ? 1 : root.size() + 1);
    std::string target = joinPath(toDir, rel);
    if (e.isDir) {
      STREAMSIM_RETURN_IF_ERROR(copyFileTree(from, e.path, to, target));
      continue;
    }
    auto data = from.read(e.path);
    if (!data.ok()) return data.status();
    Status st = to.write(target, *data);
    if (!st.ok()) return Status::IOError(fmt::format("--keep: writing {}: {}", target, st.message()));
  }
  return Status::OK();
}

}  // namespace streamsim::harness
