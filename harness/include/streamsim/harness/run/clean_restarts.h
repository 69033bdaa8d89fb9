// Spark's no-data batch rule after a restart, for reference runs (DESIGN.md §5 "One run core").
// MicroBatchExecution.constructNextBatch runs a batch without new data only when the previous
// batch of the current run asks for one, so a query that (re)started with every logged batch
// committed runs no no-data batch until new data arrives: its due timers and TTL cleanup wait
// (the engine traces each withheld batch as `no_data_batch_withheld`). A restart with an
// uncommitted batch in the offset log re-runs it first, and the no-data batch follows as usual.
// A fault-free reference run would run those no-data batches and so differ from a correct
// faulted run. The reference takes the same clean restarts instead: a planned crash right after
// it commits each such batch, which its supervisor restarts as a faulted run's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "streamsim/sim/fault_plan.h"

namespace streamsim::harness {

// The batches C after whose commit the run (re)started with offsets and commits both ending at
// C and then had a no-data batch withheld (C+1) before any batch ran: in order, each once.
std::vector<int64_t> withheldAfterCleanRestart(const std::vector<std::string>& trace);

// `reference` and a planned crash at commits.after_write of each batch in `batches`.
sim::FaultPlan withCleanRestarts(sim::FaultPlan reference, const std::vector<int64_t>& batches);

}  // namespace streamsim::harness
