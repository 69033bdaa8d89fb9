// FaultInjector: executes a FaultPlan's driver-side faults at the engine's named fault points
// (DESIGN.md §4, docs/faults.md). It counts passes per point, throws SimulatedCrash where the
// plan says crash, returns TaskFailed / IOError / NoSpace where it says fail, arms write faults
// on the SimFileSystem, and records every injected fault (and emits it to a TraceSink).
// It outlives the engine instances it crashes (counts span restarts). Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/simulated_crash.h"

namespace streamsim::sim {

// One fault the injector injected, for reports and the trace.
struct InjectedFault {
  std::string kind;  // "crash", "task_failure", "io_error", "no_space", "crash_applied"
  std::string point; // the fault point (or the path prefix of an armed write fault)
  FaultContext context;
  int64_t pass = 0;  // the point's pass count when it fired (0 for armed write faults)
  bool planned = false;  // a fault of the plan given at construction (not armed later)
};

// The crash policy a plan's torn-write rules give for crash number `crashNumber` (0-based).
SimFileSystem::CrashPolicy crashPolicy(const FaultPlan& plan, uint64_t crashNumber);

class FaultInjector final : public FaultHook {
 public:
  // `fs` (optional) receives I/O-error faults that target a path prefix; `trace` (optional)
  // receives one {"event":"fault_injected",...} per injected fault. Both must outlive this.
  explicit FaultInjector(FaultPlan plan, SimFileSystem* fs = nullptr, TraceSink* trace = nullptr);

  // FaultHook: cheap (a short scan of the pass counters) when nothing is armed.
  Status at(std::string_view point, const FaultContext& ctx) override;

  // Arms one crash at `point` counted from now: the nth later pass matching batch/partition.
  // (The scenario step `crash: {at: offsets.after_write}`.) Returns a handle for armedFired().
  int armCrash(std::string_view point, int64_t batch = -1, int partition = -1, int64_t nth = 1);
  // Arms any driver-side fault (crash, task failure, I/O error) counted from now; returns a
  // handle for armedFired() (-1 for a fault the injector does not execute: torn, landing).
  int arm(const Fault& fault);
  // Whether the fault armed with this handle fired (at least once).
  bool armedFired(int handle) const;
  // Drops every armed fault that has not fired yet.
  void disarmAll();
  // Called when a DowntimeFault of batch >= 0 fires (at commits.after_write of its batch, before
  // a crash at the same pass): the world must move on for the fault's `downtime`. Without it the
  // fault does nothing. (SimEnv::downUntil.)
  void onDowntime(std::function<void(DurationMs downtime)> f) { on_downtime_ = std::move(f); }

  // Applies a crash to `fs` with the plan's torn-write rules (TornWriteFault), then records it.
  // Call after the crashed engine is destroyed and before the restart.
  void applyCrash(SimFileSystem& fs);

  // Records every (point, batch) passed from now on, with its pass count (reach()): for a
  // fault-free run whose places generated plans aim at.
  void recordReach() { record_reach_ = true; }
  const std::vector<CrashTarget>& reach() const { return reach_; }
  // How many times `point` was passed (across restarts).
  int64_t passes(std::string_view point) const;
  // Armed faults that have not fired (or not finished firing) yet.
  int pending() const { return pending_; }
  int64_t crashes() const { return crashes_; }
  const std::vector<InjectedFault>& injected() const { return injected_; }
  const FaultPlan& plan() const { return plan_; }
  // Per fault of plan().faults (same index): how many times it fired (torn-write rules and
  // landing faults, which the injector does not execute, stay 0). A crash that coincided with
  // an armed crash at the same pass counts as fired.
  std::vector<int> planFired() const;

 private:
  struct Armed {
    Fault fault;
    int64_t matched = 0;  // matching passes seen
    int fired = 0;        // times it fired
    bool done = false;
    int planIndex = -1;   // index into plan_.faults, -1 when armed later
    int laterIndex = -1;  // index into later_fired_ when armed later
  };
  bool arm(const Fault& fault, int planIndex, int laterIndex);
  void fired(const Armed& a);
  int64_t countPass(std::string_view point);
  void record(std::string kind, std::string_view point, const FaultContext& ctx, int64_t pass,
              bool planned);
  void finish(Armed& a);

  FaultPlan plan_;
  SimFileSystem* fs_;
  TraceSink* trace_;
  std::vector<std::pair<std::string, int64_t>> passes_;
  std::vector<Armed> armed_;
  int pending_ = 0;
  int64_t crashes_ = 0;
  uint64_t applied_crashes_ = 0;
  std::vector<InjectedFault> injected_;
  std::vector<int> plan_fired_;
  std::vector<char> later_fired_;  // per fault armed later: fired
  bool record_reach_ = false;
  std::function<void(DurationMs)> on_downtime_;
  std::vector<CrashTarget> reach_;
};

}  // namespace streamsim::sim
