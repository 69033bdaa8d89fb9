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

// Downtime (an outage) changes what a correct processor outputs when it reads processing time:
// the clock moved on while the driver was down. The reference takes the same downtime at the same
// batch boundary, for each restart after a plan crash with downtime (the trace's driver_down
// events with "after":"crash", then query_started):
// - the restart re-ran batch N (its offsets were logged): a DowntimeFault after N commits, as long
//   as the driver was down — a duration: a scenario's steps may let N commit later in the
//   reference than the run crashed (tests/harness/random_scenario_test.cc) — down without a
//   crash, so the batch after N is a batch of the same run, as in the run. (A reference that crashed there too would re-run N from the same
//   offsets log and hide an engine that re-plans a logged batch from the current listing.)
// - a clean restart at batch N (nothing of N logged): the same restart — a crash with the same
//   downtime at commits.after_write of N-1 when the run crashed in batch N-1 (at or after its
//   commit), else at offsets.before_write of N (N was being planned) — at the same virtual time.
// In order.
std::vector<sim::Fault> downtimeAfterCrashes(const std::vector<std::string>& trace);

// The downtime of each restart after a plan crash with downtime, as downtime without a crash at
// the batch the crash was in (restart_equivalence's run without the restarts, whose restarts are
// all right after a commit).
std::vector<sim::DowntimeFault> downtimeWithoutRestarts(const std::vector<std::string>& trace);

// A plan crash while batch N was being planned, after the file source had logged N's files
// (`files_taken`) but before offsets/N was durable, is followed by a start that plans N again
// (query_started with rerun false): Spark's FileStreamSource keeps the logged batch and takes the
// files that are new since, and getBatch(start, end) reads every logged batch up to the new end
// (FileStreamSource.fetchMaxOffset / getBatch), so N covers more input than the fault-free run's N
// and an update-mode sink shows other intermediate rows — Spark's behaviour, not a loss
// (scenarios/async/count_events_open_close.yaml). The reference takes the same restart: a crash
// at source.after_log_write (the pass the run crashed at) or else at offsets.before_write of N,
// without downtime (a crash with downtime is in downtimeAfterCrashes already). A scenario step's
// own crash (the trace's `"step":true`) is not the plan's: the reference has it already.
std::vector<sim::CrashFault> replannedAfterCrashes(const std::vector<std::string>& trace);

// The reference of a run with this trace: `reference` with the run's downtime (above), its
// re-planned batches (above) and its clean restarts (withheldAfterCleanRestart). With
// `cleanRestarts` false, only the downtime and the re-plans.
sim::FaultPlan withSameRestarts(sim::FaultPlan reference, const std::vector<std::string>& trace,
                                bool cleanRestarts = true);

}  // namespace streamsim::harness
