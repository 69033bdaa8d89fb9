// The inspector's look at the state stores (checkpoint_reader.h): which provider the offsets
// record, the state checkpoint format version, and for Spark's RocksDB-backed stores the state
// files a committed version needs but lacks, and (checkpoint format v2) the files no commit names.
// Private to the engine; borrows the Env; not thread-safe.
#pragma once

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/env.h"

namespace streamsim {

// Fills report.stateStoreProvider and stateCheckpointFormatVersion, and adds kMissingStateFile /
// kOrphanedStateFile / kUnreadable diagnoses. REQUIRES: report.root, latestCommitId and operators
// already filled.
void inspectStateStores(const Env& env, CheckpointReport& report);

}  // namespace streamsim
