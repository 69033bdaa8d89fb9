// The fault plans of a pytest sweep of a test function (job_world.h: defineJobSweep): each seed's
// plan from the harness's one generator, aimed where the test's fault-free run went, and the
// harness's one shrinker over a failing plan, the test re-run by a Python predicate.
#include "job_world.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "streamsim/harness/run/shrink.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/random.h"

namespace py = pybind11;

namespace streamsim::python {
namespace {

using ReachList = std::vector<std::tuple<std::string, int64_t, int64_t>>;

sim::FaultPlan parsePlan(const std::string& json) {
  auto plan = sim::FaultPlan::fromJson(json);
  if (!plan.ok()) throw py::value_error("fault plan: " + plan.status().message());
  return *plan;
}

// A seed's plan: crashes at (point, batch) pairs the fault-free run passed (at least one when it
// passed any), and task failures (retried by the engine, invisible to the job) per
// (batch, partition).
std::string planForSeed(uint64_t seed, const ReachList& reach, int maxCrashes,
                        double taskFailures, int64_t batches, int partitions) {
  sim::FaultKnobs knobs;
  knobs.maxCrashes = maxCrashes;
  knobs.minCrashes = 1;
  knobs.taskFailureProbability = taskFailures;
  knobs.batches = batches;
  knobs.partitions = partitions;
  sim::Reach r;
  for (const auto& [point, batch, passes] : reach) r.crashes.push_back({point, batch, passes});
  knobs.targets = r.crashes;
  Status valid = sim::validate(knobs);
  if (!valid.ok()) throw py::value_error(valid.message());
  sim::FaultPlan plan = sim::generateFaultPlan(sim::Random(seed), knobs, r);
  plan.seed = seed;
  return plan.toJson();
}

// The smallest plan (fewer faults, each simpler) whose re-run, `rerun(plan_json)` (the keys of
// its failure's kind, empty when the test passed), still fails the way `kinds` says:
// (plan_json, re-runs). The harness's one shrinker, its kind rule included; only JSON here.
std::tuple<std::string, int> shrinkPlan(const std::string& failing, const std::vector<std::string>& kinds,
                                        const std::function<std::vector<std::string>(const std::string&)>& rerun,
                                        int maxRuns) {
  auto kindOf = [](const std::vector<std::string>& keys) {
    harness::FailureKind k;
    k.keys.insert(keys.begin(), keys.end());
    return k;
  };
  harness::ShrinkResult r = harness::shrinkFailure(
      harness::ShrinkCase{parsePlan(failing), std::nullopt}, kindOf(kinds),
      [&](const harness::ShrinkCase& c) { return kindOf(rerun(c.plan.toJson())); }, maxRuns);
  return {r.minimal.plan.toJson(), r.runs};
}

std::vector<std::string> describePlan(const std::string& json) {
  std::vector<std::string> out;
  for (const auto& f : parsePlan(json).faults) out.push_back(sim::describe(f));
  return out;
}

}  // namespace

void defineJobSweep(py::module_& m) {
  m.def("plan_for_seed", &planForSeed, py::arg("seed"), py::arg("reach"), py::arg("max_crashes") = 1,
        py::arg("task_failures") = 0.05, py::arg("batches") = 10, py::arg("partitions") = 4);
  m.def("shrink_plan", &shrinkPlan, py::arg("plan"), py::arg("kinds"), py::arg("rerun"), py::arg("max_runs") = 100);
  m.def("describe_plan", &describePlan, py::arg("plan"));
}

}  // namespace streamsim::python
