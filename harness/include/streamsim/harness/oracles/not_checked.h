// The oracles a scenario's sweep does not run because they need the user's intent (a bound, a
// reference, a promise about batching or restarts), each with when to add it: the sweep report
// lists them per file ("not checked: ..."), so nothing is silently off (docs/oracles.md, "Oracles
// on by default and not checked").
#pragma once

#include <string>
#include <vector>

namespace streamsim::harness {

struct Scenario;

struct NotChecked {
  std::string oracle;  // as a scenario names it: batch_split, {timer_bound: N}, ...
  std::string addIf;   // "each key's final output must not depend on how the input is cut into batches"
};

// The oracles every run of `sc` gets without naming them: those sound for any query and processor
// of its kind — timers and ttl (contracts the engine keeps, read from the trace), determinism
// with a memory or file sink (not for a generated workload's seed, whose config decides it:
// ScenarioHooks::decidesDeterminism), and exactly_once with one under a fault plan (`underPlan`: a sweep's
// or replay's seed, unless its context switches meet an async processor that declares its results
// order-dependent; a plain run's only crashes are the scenario's own steps, whose effect on the
// output is what such a scenario shows; foreach and Kafka sinks are at least once in Spark),
// hash_seed for a Python processor and pandas_chunks for a pandas one (run_scenario.cc adds those
// two where a run can be made).
std::vector<std::string> defaultOracles(const Scenario& sc, bool underPlan);

// For `sc`: the intent oracles that apply to its query and that it does not name.
std::vector<NotChecked> notCheckedOracles(const Scenario& sc);

}  // namespace streamsim::harness
