// A generated workload's files arriving during a scenario run (generated_landing.h).
#include "scenario/generated_landing.h"

#include <algorithm>

#include <fmt/format.h>

#include "streamsim/sim/workload.h"

namespace streamsim::harness::detail {

GeneratedLanding::GeneratedLanding(const ScenarioHooks& hooks, TimeMs start) : hooks_(hooks), start_(start) {
  TimeMs last = start;
  for (const auto& a : hooks.landing) last = std::max(last, a.at);
  end_ = last + hooks.drainMs;
}

Status GeneratedLanding::land(SimEnv& sim, TimeMs t) {
  while (error_.ok() && next_ < hooks_.landing.size() && hooks_.landing[next_].at <= t) {
    const sim::LandingAction& a = hooks_.landing[next_];
    sim.clock().set(std::max(sim.clock().nowMs(), a.at));
    if (Status st = sim::applyLandingAction(sim.fs(), a); !st.ok())
      error_ = st.withContext("landing action " + a.describe());
    ++next_;
  }
  return error_;
}

void GeneratedLanding::down(SimEnv& sim, TimeMs until) {
  const DurationMs interval = hooks_.triggerInterval;
  const TimeMs back = start_ + (until - start_ + interval - 1) / interval * interval;
  (void)land(sim, back);  // (an error stays for the next land())
  sim.clock().set(std::max(sim.clock().nowMs(), back));
  end_ = std::max(end_, back + hooks_.drainMs);
}

std::shared_ptr<GeneratedLanding> installGeneratedLanding(const Scenario& sc, SimEnv& sim) {
  if (!sc.hooks || sc.hooks->triggerInterval <= 0) return nullptr;
  auto landing = std::make_shared<GeneratedLanding>(*sc.hooks, sc.start);
  sim.setDowntimeHandler([landing, &sim](TimeMs until) { landing->down(sim, until); });
  return landing;
}

void addLandingBefore(StepActions& actions, const std::shared_ptr<GeneratedLanding>& landing, const Step& step) {
  const auto* advance = std::get_if<AdvanceStep>(&step.step);
  if (!landing || advance == nullptr || !advance->to) return;
  const TimeMs t = *advance->to;
  actions.beginStep("advance");  // the landing belongs to the advance step it comes before
  actions.push(AssertOnQuery{[landing, t](StreamTestContext& ctx) { return landing->land(ctx.sim, t); },
                             "land the files due by " + formatTimestamp(t)},
               step.where);
}

void addLandingDrain(StepActions& actions, const std::shared_ptr<GeneratedLanding>& landing, const Scenario& sc,
                     const ScenarioRunOptions& options) {
  if (!landing) return;
  const DurationMs interval = sc.hooks->triggerInterval;
  // The latest the plan's downtime can move the driver's return: each crash's downtime and a
  // trigger interval per fault, after the last downtime a reference run takes.
  TimeMs latest = landing->end();
  if (options.faultPlan) {
    for (const sim::Fault& f : options.faultPlan->faults) {
      if (const auto* c = std::get_if<sim::CrashFault>(&f)) latest += c->downtime;
      if (const auto* d = std::get_if<sim::DowntimeFault>(&f)) latest += d->downtime + sc.hooks->drainMs;
      latest += interval;
    }
  }
  // After the steps' last trigger time (the first at or after end()).
  const TimeMs first = sc.start + ((landing->end() + interval - 1 - sc.start) / interval + 1) * interval;
  actions.beginStep("advance");  // the drain's clock advances, not the last step's
  for (TimeMs t = first; t <= latest + interval - 1; t += interval) {
    AdvanceManualClock a{0, t};
    a.wanted = [landing, t, interval] { return t <= landing->end() + interval - 1; };
    actions.push(a, SourceLocation{sc.file, 0, 0});
  }
}

}  // namespace streamsim::harness::detail
