// What a generated workload's replay line names, and the workload it rebuilds (workload_config.h).
#include "streamsim/harness/run/workload_config.h"

#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/shell_quote.h"
#include "streamsim/tws/processor_registry.h"

#include <algorithm>

#include <fmt/format.h>

namespace streamsim::harness {

namespace {

bool names(const std::vector<std::string>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// The workload a replay line names, its processor not loaded.
Result<WorkloadConfig> replayBase(const WorkloadReplayArgs& args, RunOptions& run) {
  const std::string store = args.stateStore.empty() ? "memory" : args.stateStore;
  WorkloadConfig c;
  if (auto kind = parseWorkloadKind(args.workload); kind.ok() && *kind != WorkloadKind::kCustom) {
    c = standardWorkload(*kind, store, args.registries);
  } else {
    c = standardWorkload(WorkloadKind::kCustom, store);
    c.name = c.processorRef = args.workload;
  }
  c.outputSchema = args.outputSchema;
  if (!args.timeMode.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(c.timeMode, parseTimeMode(args.timeMode));
  }
  STREAMSIM_RETURN_IF_ERROR(checkOracleNames(args.oracles));
  c.oracles = args.oracles;
  run.determinism = args.determinism || names(args.oracles, "determinism");
  run.batchSplit = args.batchSplit || names(args.oracles, "batch_split");
  return c;
}

// Why a replay line cannot rebuild `config` as it is ("" when it can): the first test hook or
// field that differs from what replayBase rebuilds from the line's arguments.
std::string whyNotRebuilt(const WorkloadConfig& c, const WorkloadConfig& r) {
  if (c.wrapOperator) return "it wraps the stateful operator (WorkloadConfig::wrapOperator, a test hook)";
  if (c.wrapSource) return "it wraps the file source (WorkloadConfig::wrapSource, a test hook)";
  if (c.customSink) return "it replaces the sink (WorkloadConfig::customSink, a test hook)";
  if (std::string f = c.oracleArgs.functionOracle(); !f.empty())
    return fmt::format("its {} oracle is a function of this program (WorkloadConfig::oracleArgs)", f);
  if (c.kind == WorkloadKind::kCustom && c.processorRef.empty())
    return "its processor is a factory only this program knows: add it to the processors of a runner built "
           "with streamsim_add_runner (its REGISTER function) and set WorkloadConfig::processorRef to its name";
  const std::pair<const char*, bool> fields[] = {
      {"kind", c.kind == r.kind},
      {"spec (the generated input)", c.spec == r.spec},
      {"knobs (the fault knobs)", c.knobs == r.knobs},
      {"triggerInterval", c.triggerInterval == r.triggerInterval},
      {"drainMs", c.drainMs == r.drainMs},
      {"watermarkDelay", c.watermarkDelay == r.watermarkDelay},
      {"timeoutMs", c.timeoutMs == r.timeoutMs},
      {"ttlMs", c.ttlMs == r.ttlMs},
      {"windowMs", c.windowMs == r.windowMs},
      {"partitions", c.partitions == r.partitions},
      {"taskRetries", c.taskRetries == r.taskRetries},
      {"sink", c.sink == r.sink},
      {"workloadSeed", c.workloadSeed == r.workloadSeed},
      {"workloadVariety", c.workloadVariety == r.workloadVariety},
      {"oracleArgs (the oracles' parameters)", c.oracleArgs == r.oracleArgs},
  };
  for (const auto& [field, same] : fields)
    if (!same)
      return fmt::format("its {} differs from the standard {} workload's, which the CLI rebuilds", field,
                         workloadKindName(c.kind));
  return "";
}

}  // namespace

std::optional<std::pair<std::string, std::string>> pythonProcessorRef(const std::string& name) {
  const size_t colon = name.rfind(':');
  if (colon == std::string::npos || colon < 3 || name.compare(colon - 3, 3, ".py") != 0 || colon + 1 == name.size())
    return std::nullopt;
  return std::make_pair(name.substr(0, colon), name.substr(colon + 1));
}

bool isWorkloadName(const std::string& name, const RunRegistries* registries) {
  if (parseWorkloadKind(name).ok() || pythonProcessorRef(name)) return true;
  return processorsOf(registries).factory(name).ok();
}

Status workloadForReplay(const WorkloadReplayArgs& args, WorkloadConfig& config, RunOptions& run) {
  STREAMSIM_ASSIGN_OR_RETURN(config, replayBase(args, run));
  if (config.kind != WorkloadKind::kCustom) return Status::OK();
  if (auto py = pythonProcessorRef(args.workload)) {
    STREAMSIM_ASSIGN_OR_RETURN(config.processor,
                               loadPythonProcessor(args.registries.get(), {py->first, py->second, config.outputSchema, false, {}}));
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(config.processor, processorsOf(args.registries.get()).factory(args.workload));
  }
  return Status::OK();
}

Result<WorkloadReplayWords> workloadReplayWords(const WorkloadConfig& config, const RunOptions& run) {
  WorkloadReplayArgs args;
  args.workload = config.kind == WorkloadKind::kCustom ? config.processorRef : std::string(workloadKindName(config.kind));
  args.stateStore = config.stateStore == "memory" ? "" : config.stateStore;
  args.outputSchema = config.outputSchema;
  if (config.timeMode != TimeMode::kNone) args.timeMode = std::string(timeModeName(config.timeMode));
  args.oracles = config.oracles;
  args.determinism = run.determinism && !names(config.oracles, "determinism");
  args.batchSplit = run.batchSplit && !names(config.oracles, "batch_split");
  RunOptions rebuiltRun;
  auto rebuilt = replayBase(args, rebuiltRun);
  std::string why = rebuilt.ok() ? whyNotRebuilt(config, *rebuilt) : rebuilt.status().message();
  if (why.empty() && (rebuiltRun.determinism != run.determinism || rebuiltRun.batchSplit != run.batchSplit))
    why = "its oracles name determinism or batch_split without running them (RunOptions)";
  if (!why.empty()) return Status::FailedPrecondition("no replay line: " + why);

  WorkloadReplayWords words;
  words.workload = shellQuote(args.workload);
  std::string& o = words.options;
  if (!args.stateStore.empty()) o += " --state-store " + args.stateStore;
  if (!args.outputSchema.empty()) o += " --output-schema " + shellQuote(args.outputSchema);
  if (!args.timeMode.empty()) o += " --time-mode " + args.timeMode;
  for (const std::string& name : args.oracles) o += " --oracle " + shellQuote(name);
  if (args.determinism) o += " --determinism";
  if (args.batchSplit) o += " --batch-split";
  return words;
}

}  // namespace streamsim::harness
