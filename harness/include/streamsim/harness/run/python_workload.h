// Generated-workload sweeps of a Python processor file (streamsim.sweep_processor, issue 17 §4):
// the one description of such a sweep, built by the Python module and rebuilt by each
// `streamsim workload-worker` process that runs its seeds with jobs > 1 (one interpreter has one
// GIL; the worker answers the scenario sweep's requests, serveSweepRequest). Values;
// preparePythonSweep loads the processor (it takes the GIL).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "streamsim/harness/run/workload_config.h"
#include "streamsim/status.h"

namespace streamsim::harness {

struct PythonWorkloadSpec {
  std::string file;             // the processor's .py file
  std::string className;        // its StatefulProcessor class
  std::string outputSchemaDDL;  // the engine's DDL of its output rows
  std::string timeMode = "None";
  std::vector<std::string> oracles;
  // What the runner hands its runs (run/registries.h): the Python loader.
  std::shared_ptr<const RunRegistries> registries;
  // `workload-worker` and its arguments, which rebuild this spec (argv after the program).
  std::vector<std::string> workerArgs() const;
};

// The workload (events event_id, key, event_time, value grouped by key; kCustom with the
// processor loaded) and what its oracles ask of its runs (batch_split and determinism):
// workloadForReplay of `file:Class` (workload_config.h), so that its sweeps' replay lines rebuild it. Its
// sweep: sweepGenerated (generated_scenario.h).
Status preparePythonSweep(const PythonWorkloadSpec& spec, WorkloadConfig& config, RunOptions& run);

}  // namespace streamsim::harness
