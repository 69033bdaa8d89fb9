// `run --keep DIR` / `replay --keep DIR`: the simulated filesystem of a run (its checkpoint, sink
// and landing folders, as a reader sees them when the run ends) copied onto another filesystem
// under DIR, so `inspect`, `state` and `replay --checkpoint` can look at it. Plain function.
#pragma once

#include <string>

#include "streamsim/env.h"
#include "streamsim/status.h"

namespace streamsim::harness {

// Copies every file under `from`'s `root` to `to` under `toDir` (root "/" + "/chk/offsets/0" ->
// toDir + "/chk/offsets/0"), creating folders. Fails on the first write that fails.
Status copyFileTree(FileSystem& from, const std::string& root, FileSystem& to,
                    const std::string& toDir);

}  // namespace streamsim::harness
