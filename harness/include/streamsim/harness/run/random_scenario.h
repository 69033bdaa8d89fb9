// Random scenarios (issue 40 §1): scenario files as a user writes them — random data steps,
// advances, runs, armed crashes (`crash: {at: P}`), `crash: now`, restarts, downtime by hand
// (`restart: {after: D}`), stops — over the built-in correct processors (count, async_count,
// session_tracker, heartbeat, ttl_cache, list_ttl) on memory or file sources and sinks and both
// state stores, with random sweep knobs (crashes at every point, torn writes, task failures,
// downtime, context switches). No expected rows: the default oracles, and intent oracles the
// processor is known to keep (batch_split and {reference: count} for the time-independent
// processors, {timer_bound: 1} for the heartbeat),
// judge every seed. A correct processor must pass every seed of every such
// scenario (a failure is a false alarm: docs/faults.md "A plan's faults and the scenario's own
// steps"). The scenario is YAML text, a pure function of the seed, so a failing one is saved as a
// file and replayed with the CLI. Swept by tests/harness/random_scenario_test.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "streamsim/harness/scenario.h"

namespace streamsim::harness {

struct RandomScenarioOptions {
  // false: no `downtime:` sweep knob (the plans' crashes restart at once); `restart: {after: D}`
  // steps stay (a sweep without plan downtime).
  bool planDowntime = true;
  // What the scenarios' runs are handed (run/registries.h): a set holding the example processors.
  std::shared_ptr<const RunRegistries> registries;
};

// The YAML text of random scenario `seed` (loads with parseScenario; its name says the seed).
std::string randomScenarioYaml(uint64_t seed, const RandomScenarioOptions& options = {});

// The scenario of `seed`, loaded as file `fileName` (default "random-scenario-<seed>.yaml").
// InvalidArgument with the loader's errors and the text if it does not load (a generator bug).
Result<Scenario> randomScenario(uint64_t seed, const std::string& fileName = "",
                                const RandomScenarioOptions& options = {});

// One random scenario checked as a sweep checks a file: its plain run (no plan), then seeds
// [0, seeds) under their generated plans (failures shrunk). Empty when every run passed; else
// what failed: the run's report, the replay line (naming `savedAs` when the caller saved the YAML
// there) and the scenario's YAML.
struct RandomScenarioFailure {
  uint64_t scenarioSeed = 0;
  std::optional<uint64_t> sweepSeed;  // unset: the plain run failed
  std::string report;
  std::string replay;
  std::string yaml;
  std::string toString() const;
};
std::optional<RandomScenarioFailure> checkRandomScenario(uint64_t scenarioSeed, int seeds,
                                                         const std::string& savedAs = "",
                                                         const RandomScenarioOptions& options = {});

}  // namespace streamsim::harness
