// The hash_seed oracle (on for every scenario running a Python processor): the fault-free run's
// final sink is the same here and in a process whose Python hashes str with the seed's other hash
// seed (oracles/python_variants.h). Its extra runs: those two.
#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/python_variants.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/run/scenario_sweep.h"

namespace streamsim::harness {
namespace unit_hash_seed {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.hashSeedRuns) return std::optional<Violation>();  // no Python processor, or no worker to run it
  STREAMSIM_ASSIGN_OR_RETURN(VariantSinks runs, in.hashSeedRuns());
  return checkVariantSinks(
      "hash_seed", runs,
      "the output depends on the iteration order of a set (or of a dict built from one) of str/bytes, which "
      "Python's hash seed (PYTHONHASHSEED) decides; sort it, or keep insertion order in a list or dict");
}

// It applies to a Python processor of a scenario file the worker can load (not a scenario a program
// built with hooks, as a generated workload's), with a CLI to start the worker with.
void prepare(ScenarioOracleRun& run, OracleInput& in) {
  const Scenario& sc = run.sc;
  const std::string cli = pythonCliPath(sc.registries.get());
  if (sc.file.empty() || sc.hooks || !scenarioRunsPython(sc) || cli.empty()) return;
  in.hashSeedRuns = [&run, cli]() -> Result<VariantSinks> {
    const uint32_t other = run.options.hashSeed.value_or(pythonHashSeedOf(run.options.seed));
    VariantSinks runs;
    runs.here = fmt::format("Python hash seed {}", pythonInterpreterHashSeed(run.sc.registries.get()));
    runs.other = fmt::format("hash seed {}", other);
    STREAMSIM_ASSIGN_OR_RETURN(runs.hereRows, variantSink(run.sc, run.options.seed, std::nullopt,
                                                          /*skipCrashSteps=*/false, run.options.parsedFiles));
    STREAMSIM_ASSIGN_OR_RETURN(runs.otherRows, sinkUnderHashSeed(cli, run.sc.file, run.options.seed, other,
                                                                  run.options.keptWorkers.get()));
    run.r.oracleRuns += 2;
    return runs;
  };
}

}  // namespace unit_hash_seed

Oracle hashSeedOracle() {
  Oracle o;
  o.name = "hash_seed";
  o.needs = "the fault-free run's final sink here and in a process whose Python hashes str with another seed";
  o.check = unit_hash_seed::check;
  o.example = "hash_seed";
  o.prepare = unit_hash_seed::prepare;
  o.workloadDefault = [](const WorkloadConfig&) { return true; };
  return o;
}

}  // namespace streamsim::harness
