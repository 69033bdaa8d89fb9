// FaultInjector: executes a FaultPlan's driver-side faults at the engine's named fault points
// (DESIGN.md §4, docs/faults.md). It counts passes per point, throws SimulatedCrash where the
// plan says crash, returns TaskFailed / IOError / NoSpace where it says fail, arms write faults
// on the SimFileSystem, and records every injected fault (and emits it to a TraceSink).
// It outlives the engine instances it crashes (counts span restarts). Not thread-safe.
#pragma once

#include <cstdint>
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
  // (The scenario step `crash: {at: offsets.after_write}`.)
  void armCrash(std::string_view point, int64_t batch = -1, int partition = -1, int64_t nth = 1);
  // Arms any driver-side fault (crash, task failure, I/O error) counted from now.
  void arm(const Fault& fault);
  // Drops every armed fault that has not fired yet.
  void disarmAll();

  // Applies a crash to `fs` with the plan's torn-write rules (TornWriteFault), then records it.
  // Call after the crashed engine is destroyed and before the restart.
  void applyCrash(SimFileSystem& fs);

  // How many times `point` was passed (across restarts).
  int64_t passes(std::string_view point) const;
  // Armed faults that have not fired (or not finished firing) yet.
  int pending() const { return pending_; }
  int64_t crashes() const { return crashes_; }
  const std::vector<InjectedFault>& injected() const { return injected_; }
  const FaultPlan& plan() const { return plan_; }

 private:
  struct Armed {
    Fault fault;
    int64_t matched = 0;  // matching passes seen
    int fired = 0;        // times it fired
    bool done = false;
  };
  int64_t countPass(std::string_view point);
  void record(std::string kind, std::string_view point, const FaultContext& ctx, int64_t pass);
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
};

}  // namespace streamsim::sim
