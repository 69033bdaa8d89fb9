// The partitioning oracle (on for a transformWithState in micro-batch mode with a memory or file
// sink): the fault-free run's final sink is the same with the query's and with the seed's number
// of shuffle partitions (oracles/partitioning.h). Its extra runs: those two.
#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/partitioning.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"

namespace streamsim::harness {
namespace unit_partitioning {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.partitioningRuns) return std::optional<Violation>();
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<VariantSinks> runs, in.partitioningRuns());
  if (!runs) return std::optional<Violation>();
  return checkVariantSinks(
      "partitioning", *runs,
      "Spark runs one processor instance per partition task, and which keys share a task is the number of "
      "shuffle partitions' choice: keep a key's data in its state variables, not in members or statics that "
      "outlive one key's call");
}

// Not applied when an async processor declares its results order-dependent: which keys share a
// task changes how they interleave.
void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.partitioningRuns = [&run]() -> Result<std::optional<VariantSinks>> {
    if (detail::orderDependent(run.sc)) return std::optional<VariantSinks>();
    // A sweep seed's fault-free run, when it is the run with the query's partitions (sameRun), is
    // not run again.
    const FaultFreeRun* same = run.options.faultFreeRun.get();
    if (same == nullptr || run.given == nullptr || same->options.applyOracles ||
        !sameRun(same->scenario, same->options, same->result, *run.given, partitioningHereOptions(run.options.seed)))
      same = nullptr;
    run.r.oracleRuns += same != nullptr ? 1 : 2;
    return partitioningRuns(run.sc, run.options.seed, same != nullptr ? &same->result : nullptr,
                            run.options.parsedFiles);
  };
}

}  // namespace unit_partitioning

Oracle partitioningOracle() {
  Oracle o;
  o.name = "partitioning";
  o.needs = "the fault-free run's final sink with the query's and with the seed's number of shuffle partitions";
  o.check = unit_partitioning::check;
  o.example = "partitioning";
  o.prepare = unit_partitioning::prepare;
  o.workloadDefault = [](const WorkloadConfig&) { return true; };
  return o;
}

}  // namespace streamsim::harness
