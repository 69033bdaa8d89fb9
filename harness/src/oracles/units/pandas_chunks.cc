// The pandas_chunks oracle (on for every transformWithStateInPandas processor): the fault-free
// run's final sink is the same with DataFrames of the seed's size and of the configured
// maxRecordsPerBatch (oracles/python_variants.h). Its extra runs: those two.
#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/python_variants.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"
#include "streamsim/harness/python_processors.h"

namespace streamsim::harness {
namespace unit_pandas_chunks {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.pandasChunkRuns) return std::optional<Violation>();  // no pandas processor
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<VariantSinks> runs, in.pandasChunkRuns());
  if (!runs) return std::optional<Violation>();
  return checkVariantSinks(
      "pandas_chunks", *runs,
      "PySpark hands a transformWithStateInPandas handler a key's rows as several DataFrames when they are more "
      "than spark.sql.execution.arrow.maxRecordsPerBatch (or maxBytesPerBatch) allows; read every DataFrame of "
      "`rows` (for pdf in rows: ..., or pd.concat(list(rows))), not only the first, and emit per key, not per "
      "DataFrame");
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  bool pandas = false;
  for (const auto& op : run.sc.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op); t && !t->pythonFile.empty() && t->inPandas) pandas = true;
  if (!pandas) return;
  in.pandasChunkRuns = [&run]() -> Result<std::optional<VariantSinks>> {
    const int64_t max = arrowMaxRecordsPerBatch(run.sc.query.conf);
    const int64_t chunk = run.options.pandasChunkRows.value_or(pandasChunkRowsOf(run.options.seed, max));
    if (chunk >= max) return std::optional<VariantSinks>();
    VariantSinks runs;
    runs.here = fmt::format("DataFrames of at most {} rows (the seed's)", chunk);
    runs.other = fmt::format("at most {} (spark.sql.execution.arrow.maxRecordsPerBatch)", max);
    STREAMSIM_ASSIGN_OR_RETURN(runs.hereRows, variantSink(run.sc, run.options.seed, chunk, /*skipCrashSteps=*/false,
                                                          run.options.parsedFiles));
    STREAMSIM_ASSIGN_OR_RETURN(runs.otherRows, variantSink(run.sc, run.options.seed, max, /*skipCrashSteps=*/false,
                                                           run.options.parsedFiles));
    run.r.oracleRuns += 2;
    return std::optional<VariantSinks>(std::move(runs));
  };
}

}  // namespace unit_pandas_chunks

Oracle pandasChunksOracle() {
  Oracle o;
  o.name = "pandas_chunks";
  o.needs = "the fault-free run's final sink with the seed's DataFrame size and with maxRecordsPerBatch";
  o.check = unit_pandas_chunks::check;
  o.example = "pandas_chunks";
  o.prepare = unit_pandas_chunks::prepare;
  o.workloadDefault = [](const WorkloadConfig&) { return true; };
  return o;
}

}  // namespace streamsim::harness
