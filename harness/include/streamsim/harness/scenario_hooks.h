// What a C++ program may set on a Scenario it builds (Scenario::hooks), and no YAML file can: a
// reference oracle that is a C++ function, and the test hooks that wrap the stateful operator or the source or replace the sink (broken engine
// variants). A generated workload's scenario (generated_scenario.h) carries its config's hooks
// here. A scenario with hooks cannot be rebuilt from a file or a replay line: its replay line says
// so. Values; the functions are called from the run's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/query.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/workload.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {

// A sink supplied by a test (broken variants): a factory per query run and the reader's view.
struct CustomSink {
  SinkFactory factory;
  std::function<std::vector<Row>(const Env& env)> view;  // what a reader sees after the run
};

// What of a generated workload's input takes part in a run: the landing faults that reshape its
// files' arrival (a plan's sim::LandingFault entries) and the files kept (indices into
// sim::Workload::files; unset: all) — the shrinker drops files through this.
struct GeneratedInput {
  std::vector<sim::LandingFault> landingFaults;
  std::optional<std::vector<int64_t>> files;
};

struct ScenarioHooks {
  // A generated workload's scenario (generated_scenario.h): the scenario of a seed with an input.
  // A sweep builds each seed's scenario through it (its plan's landing faults reshaping the
  // input) and the shrinker drops landing files through it; `files`: how many the input has.
  std::function<Result<Scenario>(uint64_t seed, const GeneratedInput& input)> generate;
  int64_t files = 0;
  // What a replay line names instead of a scenario file (`count`) and its options after --seed
  // (` --state-store rocksdb`): the CLI's `replay` arguments that rebuild this scenario,
  // shell-quoted; replayTarget empty when none can (whyNotReplayable says why).
  std::string replayTarget;
  std::string replayOptions;
  std::string notReplayable;  // why replayTarget is empty ("no replay line: ..."), when known
  // A generated workload's files, landing over virtual time (scenario/generated_landing.h): each
  // action at its time, those due by a trigger time before it; while the driver is down they keep
  // landing and it comes back at a trigger time (every `triggerInterval` from Scenario::start);
  // the run goes on `drainMs` after the last file and after the driver last came back. Unused
  // when triggerInterval is 0.
  std::vector<sim::LandingAction> landing;
  DurationMs triggerInterval = 0;
  DurationMs drainMs = 0;
  // batch_split's other cut of a generated workload's input for a seed (its files landing at
  // another interval, the seed's), `where` saying which; unset: the steps' cut
  // (oracles/scenario_variants.h).
  std::function<Result<Scenario>(uint64_t seed, std::string* where)> batchCut;

  // Wraps the factory of the query's stateful operator (transformWithState, dropDuplicates,
  // window aggregation).
  std::function<OperatorFactory(OperatorFactory)> wrapOperator;
  // Wraps the factory of the first source.
  std::function<SourceFactory(SourceFactory)> wrapSource;
  // Replaces the sink: the query writes to its factory, the oracles read its view after the run.
  std::function<CustomSink()> customSink;
  // The reference oracle's C++ function (Scenario::oracleArgs "reference" "function") reads the
  // delivered input grouped by these, and the final view in update mode is the latest row per them.
  std::vector<std::string> referenceKeys;
  // The oracles read every row the sink committed (a memory sink: every batch's rows with their
  // batch ids; a file sink: every committed row) instead of a reader's view in the output mode
  // (the latest row per key in update mode), as a generated workload's oracles do.
  bool everyRow = false;
  // The driver restarts after a failed trigger too, not only after a crash, with or without a
  // plan (a generated workload's supervisor: run/driver.h's restartOnFailure).
  bool restartOnFailure = false;
  // With everyRow, a file sink's rows are read with this schema (else typed as written).
  SchemaPtr sinkSchema;
  // A generated workload's config decided whether its seed is run twice for determinism
  // (workloadOracles: the config's oracles, RunOptions::determinism or every determinismEvery-th
  // seed, as the workload loop decided it): Scenario::oracles has it or not, and defaultOracles
  // adds none on top (a scenario file gets it on every seed).
  bool decidesDeterminism = false;

  // Why a replay line cannot rebuild a scenario with these hooks ("" when none is set).
  std::string whyNotReplayable() const;
};

}  // namespace streamsim::harness
