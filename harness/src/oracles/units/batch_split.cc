// The batch_split oracle (opt-in; a processor may promise it): each grouping key's final output row
// is the same with the input cut into batches otherwise. Its extra runs: the cut of the seed
// (oracles/scenario_variants.h; a generated workload's: ScenarioHooks::batchCut) and the run as
// planned, both fault-free.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/scenario_variants.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/sim/random.h"

namespace streamsim::harness {
namespace unit_batch_split {

// batch_split matches each grouping key's final row by the key's columns. Output rows without
// them cannot be matched: every row would count as one key's, and which comes last depends on the
// batching, so a correct processor would fail (the false alarm of bug batch_split_output_without_key).
Status keyColumnsPresent(const std::vector<Row>& rows, const std::vector<std::string>& keyColumns) {
  for (const Row& r : rows) {
    for (const std::string& c : keyColumns) {
      if (r.has(c)) continue;
      std::vector<std::string> names;
      for (const Field& f : r.schema()->fields()) names.push_back(f.name);
      return Status::InvalidArgument(fmt::format(
          "oracle batch_split compares each grouping key's final output row, but the output has no "
          "column '{}' (its columns: {}): emit the grouping column, or leave batch_split out",
          c, fmt::join(names, ", ")));
    }
  }
  return Status::OK();
}

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.batchSplit) return Status::FailedPrecondition("batch_split needs the one-batch run");
  auto [a, b] = in.batchSplit();
  STREAMSIM_RETURN_IF_ERROR(keyColumnsPresent(a, in.keyColumns));
  STREAMSIM_RETURN_IF_ERROR(keyColumnsPresent(b, in.keyColumns));
  auto v = checkBatchSplitInvariance(a, b, in.keyColumns);
  if (v && !in.batchCut.empty()) v->message += fmt::format(" (the other batching: {})", in.batchCut);
  return v;
}

std::string refuse(const Scenario& sc) {
  bool tws = false;
  for (const auto& op : sc.query.operators) tws = tws || std::holds_alternative<TransformWithStateOp>(op.op);
  if (!tws)
    return "oracle 'batch_split' compares the final row per grouping key: the query needs "
           "a transformWithState (naming batch_split declares its processor split-invariant)";
  return restartOntoAnotherQuery(sc, "batch_split");
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.keyColumns = finalGroupBy(run.sc);
  if (!run.named("batch_split")) return;
  const Scenario& sc = run.sc;
  const uint64_t seed = run.quiet.seed;
  // The cut varies by seed (its stream "batch_cut"; a plain run, seed 0: all input in one batch),
  // so a replay line's --seed reproduces it. A generated workload's: its files landing at another
  // interval (ScenarioHooks::batchCut), for every seed.
  Result<Scenario> cut = sc;
  if (sc.hooks && sc.hooks->batchCut) {
    cut = sc.hooks->batchCut(seed, &in.batchCut);
    if (!cut.ok()) in.batchCut = "no other cut: " + cut.status().message();
  } else {
    cut = seed == 0 ? oneBatchScenario(sc) : cutScenario(sc, sim::Random(seed).split("batch_cut"), &in.batchCut);
    if (seed == 0) in.batchCut = "all input in one batch";
  }
  in.batchCut += fmt::format(" (the cut of seed {})", seed);
  // No cut (an error said in batchCut): no rows, which the oracle reports against the run's.
  auto variant = cut.ok() ? std::make_shared<Scenario>(std::move(*cut)) : nullptr;
  in.batchSplit = [&run, variant] {
    ScenarioRunOptions plain = run.quiet;  // fault-free: the cut is what differs
    plain.skipExpectations = true;
    plain.skipCrashSteps = true;
    plain.faultPlan.reset();
    run.r.oracleRuns += 2;
    return std::make_pair(variant ? runScenario(*variant, plain).sinkRows : std::vector<Row>{},
                          runScenario(run.sc, plain).sinkRows);
  };
}

}  // namespace unit_batch_split

Oracle batchSplitOracle() {
  Oracle o;
  o.name = "batch_split";
  o.needs = "the final output with all input in one batch and as planned";
  o.check = unit_batch_split::check;
  o.example = "batch_split";
  o.refuse = unit_batch_split::refuse;
  o.prepare = unit_batch_split::prepare;
  return o;
}

}  // namespace streamsim::harness
