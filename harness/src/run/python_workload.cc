// Generated-workload sweeps of a Python processor file (run/python_workload.h).
#include "streamsim/harness/run/python_workload.h"


namespace streamsim::harness {

std::vector<std::string> PythonWorkloadSpec::workerArgs() const {
  std::vector<std::string> args{"workload-worker", "--python",       file,    "--class", className,
                                "--output-schema", outputSchemaDDL, "--time-mode", timeMode};
  for (const std::string& o : oracles) args.insert(args.end(), {"--oracle", o});
  return args;
}

Status preparePythonSweep(const PythonWorkloadSpec& spec, WorkloadConfig& config, RunOptions& run) {
  // The workload a replay line `replay file.py:Class ...` names: one rebuild for both.
  WorkloadReplayArgs args;
  args.workload = spec.file + ":" + spec.className;
  args.stateStore = config.stateStore;
  args.outputSchema = spec.outputSchemaDDL;
  args.timeMode = spec.timeMode;
  args.oracles = spec.oracles;
  args.registries = spec.registries;
  return workloadForReplay(args, config, run);
}

}  // namespace streamsim::harness
