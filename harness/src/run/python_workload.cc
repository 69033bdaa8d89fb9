// Generated-workload sweeps of a Python processor file (run/python_workload.h).
#include "streamsim/harness/run/python_workload.h"

#include <algorithm>

#include "streamsim/harness/python_processors.h"

namespace streamsim::harness {

std::vector<std::string> PythonWorkloadSpec::workerArgs() const {
  std::vector<std::string> args{"workload-worker", "--python",       file,    "--class", className,
                                "--output-schema", outputSchemaDDL, "--time-mode", timeMode};
  for (const std::string& o : oracles) args.insert(args.end(), {"--oracle", o});
  return args;
}

Status preparePythonSweep(const PythonWorkloadSpec& spec, WorkloadConfig& config,
                          SweepOptions& options) {
  config.kind = WorkloadKind::kCustom;
  config.name = spec.file + ":" + spec.className;
  STREAMSIM_ASSIGN_OR_RETURN(
      config.processor, loadPythonProcessor({spec.file, spec.className, spec.outputSchemaDDL, false, {}}));
  config.outputSchema = spec.outputSchemaDDL;
  STREAMSIM_ASSIGN_OR_RETURN(config.timeMode, parseTimeMode(spec.timeMode));
  config.oracles = spec.oracles;
  auto asks = [&](const char* name) {
    return std::find(spec.oracles.begin(), spec.oracles.end(), name) != spec.oracles.end();
  };
  options.run.batchSplit = asks("batch_split");
  options.run.determinism = asks("determinism");
  return Status::OK();
}

}  // namespace streamsim::harness
