// What an oracle's extra runs are made from (Oracle::prepare, oracles/table.h): the scenario, the
// run the oracles judge and its options. run_scenario.cc builds one per judged run; each oracle
// unit (harness/src/oracles/units/) sets the OracleInput members its check reads from it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/harness/scenario_runner.h"

namespace streamsim::harness {

struct ScenarioOracleRun {
  const Scenario& sc;
  const ScenarioRunOptions& options;  // the judged run's
  const ScenarioRunOptions& quiet;    // the extra runs': no oracles, no actual rows, no --keep, no fault-free run
  ScenarioRunResult& r;               // the judged run; r.oracleRuns counts the extra runs
  // The scenario runScenario was given when `sc` runs as it (its promised oracles added none),
  // else null: only then may exactly_once's reference be the options' fault-free run.
  const Scenario* given;
  std::string_view sinkKind;  // memory | files | foreach | kafka | console | custom
  const std::vector<std::string>& names;  // the oracles the scenario names
  bool named(std::string_view oracle) const;
};

namespace detail {

// Whether one of the scenario's async processors declares its results order-dependent
// (AsyncStatefulProcessor::orderDependent): interleaving and partitioning do not apply then.
bool orderDependent(const Scenario& sc);

// The reference of run `r`: the fault-free reference, restarted after each commit after which `r`
// restarted cleanly and had a no-data batch withheld (run/clean_restarts.h).
ScenarioRunOptions referenceOf(const ScenarioRunOptions& options, const ScenarioRunResult& r);

// Restart transparency for a faulted run whose reference took clean restarts: the exactly_once
// violation's text when the restarts are not transparent without Spark's withholding rule.
// `reference`: exactly_once's reference run, made of `referenceScenario` with `referenceOptions` (its
// run is taken for the fault-free one where sameRun says so). Counts its runs in run.r.oracleRuns.
std::optional<std::string> restartTransparencyBreach(const ScenarioOracleRun& run, const Scenario* referenceScenario,
                                                     const ScenarioRunOptions& referenceOptions,
                                                     const ScenarioRunResult& reference);

}  // namespace detail
}  // namespace streamsim::harness
