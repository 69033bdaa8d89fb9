// A generated workload's files arriving during a scenario run (ScenarioHooks::landing): the
// actions due by each trigger time land before it, each at its own time; while the driver is down
// (a crash's downtime) the files keep landing and the driver comes back at a trigger time, with the
// files due by then landed; the run goes on `drainMs` after the last file and after the driver last
// came back. The workload's own loop, as the scenario runner's actions: one per run, one thread.
#pragma once

#include <memory>

#include "scenario/step_actions.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/harness/sim_env.h"

namespace streamsim::harness::detail {

class GeneratedLanding {
 public:
  GeneratedLanding(const ScenarioHooks& hooks, TimeMs start);

  // The actions due by `t`, each at its own time (the clock moves on to it, never back).
  Status land(SimEnv& sim, TimeMs t);
  // The driver down until `until`: it comes back at the next trigger time, the files due by then
  // landed (SimEnv's downtime handler).
  void down(SimEnv& sim, TimeMs until);
  // Where the run ends: drainMs after the last file and after the driver last came back.
  TimeMs end() const { return end_; }

 private:
  const ScenarioHooks& hooks_;
  TimeMs start_;
  TimeMs end_;
  size_t next_ = 0;
  Status error_;  // a landing action that failed (the next land() returns it)
};

// The landing of `sc`'s hooks installed on `sim` (its downtime handler); null when `sc` has none.
std::shared_ptr<GeneratedLanding> installGeneratedLanding(const Scenario& sc, SimEnv& sim);
// Before `step` (an `advance` to a trigger time): the files due by then land.
void addLandingBefore(StepActions& actions, const std::shared_ptr<GeneratedLanding>& landing, const Step& step);
// After the last step: the triggers of the drain a downtime moved on (each a no-op unless the run
// has not reached end() yet), up to the most the run's plan can move it by.
void addLandingDrain(StepActions& actions, const std::shared_ptr<GeneratedLanding>& landing, const Scenario& sc,
                     const ScenarioRunOptions& options);

}  // namespace streamsim::harness::detail
