// What one simulated run left (DESIGN.md §5 "One run core"): the sink as a reader sees it, the
// trace, the progress records, the faults planned and those that fired, crashes and restarts, and
// the oracles' violations. Scenario runs (ScenarioRunResult: scenario files and generated
// workloads' scenarios alike), replay and the sweeps' reports all read this one value. Plain data.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/harness/oracles.h"
#include "streamsim/progress.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim::harness {

class SimEnv;
class DeliveredRows;  // oracles/reference.h

// One fault the injector injected (crash, task_failure, io_error, no_space).
struct FiredFault {
  std::string kind;
  std::string point;   // the fault point (an armed write fault: its path prefix)
  int64_t batch = -1;
  int partition = -1;
  bool planned = false;  // of the run's fault plan (not armed by a step)
  nlohmann::json toJson() const;
  static FiredFault fromJson(const nlohmann::json& j);  // what toJson wrote
};

// The faults of a run: planned (the plan) and fired.
struct FaultAccount {
  sim::FaultPlan plan;
  std::vector<int> planFired;     // per plan.faults[i]: times it fired
  std::vector<FiredFault> fired;  // in order
  // Plan faults the injector executes (crash, task failure, I/O error): torn-write rules and
  // landing faults have no firing to count.
  int executablePlanned() const;
  int plannedThatFired() const;   // plan faults that fired at least once
  // {"planned": n, "plannedFired": n, "planFired": [...], "fired": [...], "unfired": ["crash at ...", ...]}
  nlohmann::json toJson() const;
  // What toJson wrote, with the plan it was of (which it leaves out).
  static Result<FaultAccount> fromJson(const nlohmann::json& j, sim::FaultPlan plan);
  static FaultAccount of(SimEnv& sim);
};

struct RunOutcome {
  std::vector<Row> sinkRows;         // what a reader of the sink sees after the run
  std::vector<int64_t> sinkBatchOf;  // the batch each sink row came from (-1 when unknown)
  std::vector<std::string> trace;
  std::vector<int64_t> traceTimes;  // the virtual time (ms) of each trace line
  uint64_t fingerprint = 0;
  std::vector<QueryProgress> progress;
  FaultAccount faults;
  int64_t crashes = 0;
  int64_t restarts = 0;  // supervisor restarts (after a plan's crash or a failure)
  int64_t batches = 0;   // batches that ran (re-runs included)
  DurationMs downtimeMs = 0;  // virtual time the driver was down after the plan's crashes
  int64_t downtimes = 0;      // how many times it was
  int oracleChecks = 0;  // oracles applied
  int oracleRuns = 0;    // extra runs the oracles made (reference, determinism)
  sim::Reach reach;  // (point, batch) passed and scheduling choices met, when recorded
  std::vector<Violation> violations;
  // The last committed state (dumpCommittedState, one entry per state row), when the run was
  // asked for it: the determinism, interleaving, mode and restart equivalence oracles compare it.
  std::vector<std::string> committedState;
  // The rows each source delivered (only when the reference oracle asks for them).
  std::shared_ptr<const DeliveredRows> delivered;
  std::string fingerprintHex() const;
  // Fills the trace, fingerprint, progress, faults and crashes from the world after a run.
  void collect(SimEnv& sim);
};

}  // namespace streamsim::harness
