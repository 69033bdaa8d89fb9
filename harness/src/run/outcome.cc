// RunOutcome and its fault account (run/outcome.h).
#include "streamsim/harness/run/outcome.h"

#include <fmt/format.h>

#include "streamsim/harness/sim_env.h"

namespace streamsim::harness {

nlohmann::json FiredFault::toJson() const {
  nlohmann::json j{{"kind", kind}, {"point", point}, {"batch", batch}};
  if (partition >= 0) j["partition"] = partition;
  if (!planned) j["armedByStep"] = true;
  return j;
}

FiredFault FiredFault::fromJson(const nlohmann::json& j) {
  return FiredFault{j.value("kind", std::string()), j.value("point", std::string()), j.value("batch", int64_t{-1}),
                    j.value("partition", -1), !j.value("armedByStep", false)};
}

namespace {
bool executable(const sim::Fault& f) {
  return !std::holds_alternative<sim::TornWriteFault>(f) && !std::holds_alternative<sim::LandingFault>(f);
}
}  // namespace

int FaultAccount::executablePlanned() const {
  int n = 0;
  for (const auto& f : plan.faults) n += executable(f) ? 1 : 0;
  return n;
}

int FaultAccount::plannedThatFired() const {
  int n = 0;
  for (int f : planFired) n += f > 0 ? 1 : 0;
  return n;
}

nlohmann::json FaultAccount::toJson() const {
  nlohmann::json j{{"planned", executablePlanned()}, {"plannedFired", plannedThatFired()}, {"planFired", planFired}};
  j["fired"] = nlohmann::json::array();
  for (const auto& f : fired) j["fired"].push_back(f.toJson());
  j["unfired"] = nlohmann::json::array();
  for (size_t i = 0; i < plan.faults.size(); ++i)
    if (executable(plan.faults[i]) && (i >= planFired.size() || planFired[i] == 0))
      j["unfired"].push_back(sim::describe(plan.faults[i]));
  return j;
}

Result<FaultAccount> FaultAccount::fromJson(const nlohmann::json& j, sim::FaultPlan plan) {
  if (!j.is_object() || !j.contains("fired") || !j["fired"].is_array())
    return Status::InvalidArgument("a seed's \"faults\": expected an object with a \"fired\" array");
  FaultAccount a;
  a.plan = std::move(plan);
  try {
    a.planFired = j.value("planFired", std::vector<int>());
    for (const auto& f : j["fired"]) a.fired.push_back(FiredFault::fromJson(f));
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(std::string("a seed's \"faults\": ") + e.what());
  }
  return a;
}

FaultAccount FaultAccount::of(SimEnv& sim) {
  FaultAccount a;
  a.plan = sim.injector().plan();
  a.planFired = sim.injector().planFired();
  for (const auto& f : sim.injector().injected()) {
    if (f.kind == "crash_applied") continue;
    a.fired.push_back(FiredFault{f.kind, f.point, f.context.batchId, f.context.partition, f.planned});
  }
  // Context switches fire in the async scheduler, not the injector.
  if (const sim::PlannedScheduler* s = sim.scheduler()) {
    a.planFired.resize(a.plan.faults.size(), 0);
    for (size_t i = 0; i < a.plan.faults.size(); ++i) {
      auto* sw = std::get_if<sim::SwitchFault>(&a.plan.faults[i]);
      if (sw == nullptr) continue;
      const int64_t n = s->takenAt(sw->batch, sw->partition, sw->step);
      a.planFired[i] = static_cast<int>(n);
      for (int64_t k = 0; k < n; ++k)
        a.fired.push_back(FiredFault{"switch", "tws.switch", sw->batch, sw->partition, true});
    }
  }
  return a;
}

std::string RunOutcome::fingerprintHex() const { return fmt::format("{:016x}", fingerprint); }

void RunOutcome::collect(SimEnv& sim) {
  trace = sim.trace().lines();
  traceTimes = sim.trace().times();
  fingerprint = sim.trace().fingerprint();
  progress = sim.allProgress();
  batches = static_cast<int64_t>(progress.size());
  crashes = sim.crashCount();
  downtimeMs = sim.downtimeMs();
  downtimes = sim.downtimes();
  faults = FaultAccount::of(sim);
  reach.crashes = sim.injector().reach();
  reach.switches = sim.scheduler() != nullptr ? sim.scheduler()->choices() : std::vector<sim::SwitchTarget>();
}

}  // namespace streamsim::harness
