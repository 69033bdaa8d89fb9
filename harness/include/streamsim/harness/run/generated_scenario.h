// A generated workload as a Scenario value (DESIGN.md §5, issue 33): the seed's landing files
// as `put` steps at their virtual times, one trigger per interval (`advance` with `trigger: once`)
// up to the drain after the last file, the query of the workload kind on a files source, the
// oracles the kind gets and the config's fault knobs as the scenario's `sweep:` knobs. What no
// YAML file can say — a processor factory of this program, a C++ reference function, the test
// hooks, the oracles reading every committed row — rides on Scenario::hooks (scenario_hooks.h).
// The scenario runner, sweep, shrinker and reports then serve generated workloads as they serve
// scenario files. Pure functions of their arguments; safe from several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/harness/run/api.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/harness/run/workload_config.h"
#include "streamsim/sim/fault_plan.h"

namespace streamsim::harness {

// The scenario of `config`'s workload for `seed` (its workload seed: WorkloadConfig::workloadSeed,
// workloadVariety), its hooks' `generate` rebuilding it for another seed or input. InvalidArgument for a config no scenario can run (a custom kind without a
// processor, an unknown oracle name, a bad output schema).
// `run`: determinism and batch_split, which a workload runs when asked (RunOptions) besides its
// oracles.
Result<Scenario> generatedScenario(const WorkloadConfig& config, uint64_t seed, const GeneratedInput& input = {},
                                   const RunOptions& run = {});

// The oracles a generated workload of `config` gets: its `oracles` when named, else those that fit
// its kind (exactly_once; timers and ttl for transformWithState; watermark for dedup; state_bound
// with a bound; reference with a function); `determinism` and `batch_split` when asked.
std::vector<std::string> workloadOracles(const WorkloadConfig& config, bool determinism = false,
                                         bool batchSplit = false);

// The `sweep:` knobs of a generated workload: its config's fault knobs.
SweepSpec workloadSweepSpec(const WorkloadConfig& config);

// One seed of a generated workload as its sweep and `replay <workload>` run it: the seed's scenario
// (generatedScenario), under `plan` (unset: the seed's generated plan, scenarioPlan aimed at the
// scenario's reach), on the input the plan's landing faults and `files` (unset: all) leave; the
// oracles applied unless run.oracles is false. InvalidArgument for a config no scenario can run.
struct GeneratedRun {
  sim::FaultPlan plan;
  ScenarioRunResult result;
};
Result<GeneratedRun> runGeneratedSeed(const WorkloadConfig& config, uint64_t seed, const RunOptions& run = {},
                                      const std::optional<sim::FaultPlan>& plan = std::nullopt,
                                      const std::optional<std::vector<int64_t>>& files = std::nullopt);

// A generated workload's sweep (sweep_processor, bench workload 4, tests): its scenario
// (generatedScenario of options.firstSeed) swept by sweepScenarios — each seed its own input and
// plan, the one shrinker (faults and landing files), the one replay line (`replay <workload> ...`
// or why none) — as sweepPaths sweeps files, so that sweepSummary, sweepReportJson and
// sweepJunitXml report it (its totals' unit "workload"). InvalidArgument for a config no scenario
// can run or jobs outside 1..kMaxSweepJobs.
Result<SweepResult> sweepGenerated(const WorkloadConfig& config, const ScenarioSweepOptions& options,
                                   const RunOptions& run = {});

}  // namespace streamsim::harness
