// The run core's driver (DESIGN.md §5 "One run core"): every way of running a query — a scenario
// (a file's or a generated workload's), `replay`, testStream — starts it, runs its steps or batches
// and, as a supervisor, restarts it after a crash (also a crash during the start or during a
// restart's recovery) — after the crash's downtime (SimEnv::downUntil) — and, for generated
// workloads, after a failed trigger. One restart limit per
// run; hitting it is an error that names the limit. The driver borrows a SimEnv (the simulated
// world and the query's lifecycle) and decides nothing else. Not thread-safe (one per run).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "streamsim/harness/sim_env.h"
#include "streamsim/status.h"

namespace streamsim::harness {

struct SupervisorOptions {
  // A crash of the run's fault plan: restart the driver and go on (sweeps, replay). A crash a
  // step armed itself (`crash: {at: P}`, Crash{point}) always leaves the driver down.
  bool restartPlannedCrashes = false;
  // A trigger or a start that fails without a crash (an injected I/O error, a task failing past
  // its retries): stop and restart (generated workloads, whose query must survive its faults).
  bool restartOnFailure = false;
  // The one restart limit of a run (every supervisor restart counts, whatever its cause).
  int maxRestarts = 100;
};

class Driver {
 public:
  Driver(SimEnv& sim, SupervisorOptions options) : sim_(sim), options_(options) {}

  // Starts the query: the first time from `writer`, later from the same writer. A crash during
  // the start is recovered as the options say. OK when the query runs; Aborted (naming the
  // crash) when a crash left it down; else the start's error.
  Status start(const DataStreamWriter& writer);
  // Starts from `writer` even after another writer ran (StartStream with another processor,
  // output mode or options on the same checkpoint); later restarts use it.
  Status startWith(const DataStreamWriter& writer);
  // Starts again from the last writer (after a stop or a crash), recovering as start() does.
  Status startAgain();

  // Runs `work` on the running query (starting it first when it is down), as a supervisor: after
  // a recovered crash or failure it restarts the query and calls `work` again, unless `done`
  // (optional) says the work is done. Returns work's Status when it ran without a crash; Aborted
  // naming the crash when a crash left the driver down (a step's armed crash, or no recovery);
  // the restart-limit error (FailedPrecondition) when the limit was hit.
  Status supervise(const std::function<Status(StreamingQuery&)>& work,
                   const std::function<bool()>& done = nullptr);

  // Supervisor restarts so far (after a crash or a failure).
  int64_t restarts() const { return restarts_; }
  const SupervisorOptions& options() const { return options_; }
  SimEnv& sim() { return sim_; }

 private:
  Status launch(const DataStreamWriter* writer, bool replace);
  bool recovers(const sim::SimulatedCrash& crash) const;
  // A recovered crash's downtime (CrashFault::downtime): the driver stays down that long.
  void takeDowntime(const sim::SimulatedCrash& crash);
  // A crash left down (a scenario step's armed crash): its downtime too when a plan crash with
  // downtime fired at the same pass (sim::FaultInjector merges them into the step's crash), so that
  // the step's restart comes back no earlier than the plan's crash would have (docs/faults.md).
  Status leftDown(const sim::SimulatedCrash& crash, Status st);
  // Counts a restart; the limit error once the limit is passed.
  Status countRestart(std::string_view why);

  SimEnv& sim_;
  SupervisorOptions options_;
  int64_t restarts_ = 0;
};

}  // namespace streamsim::harness
