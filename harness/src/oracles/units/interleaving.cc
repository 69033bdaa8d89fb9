// The interleaving oracle (async processors): with the plan's context switches, the reader's view
// and the committed state equal those of the same plan without its switches (oracles/logic.h
// checkInterleaving). Its extra run: that sequential run; none when the plan has no switches or a
// processor declares its results order-dependent.
#include "scenario/oracle_runs.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"

namespace streamsim::harness {
namespace unit_interleaving {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.sequential) return std::optional<Violation>();
  auto seq = in.sequential();
  if (!seq) return std::optional<Violation>();
  return checkInterleaving(seq->sinkRows, in.run.sinkRows, seq->committedState, in.run.committedState,
                           in.run.trace);
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  if (!run.options.faultPlan || run.options.faultPlan->switches().empty() || detail::orderDependent(run.sc)) return;
  in.sequential = [&run]() -> std::optional<OracleInput::Sequential> {
    // The same plan without its context switches.
    ScenarioRunOptions seq = run.quiet;
    seq.skipExpectations = true;
    seq.faultPlan->faults.clear();
    for (const sim::Fault& f : run.options.faultPlan->faults)
      if (!std::holds_alternative<sim::SwitchFault>(f)) seq.faultPlan->faults.push_back(f);
    ScenarioRunResult sequential = runScenario(run.sc, seq);
    ++run.r.oracleRuns;
    if (!sequential.setupError.ok() || !sequential.failures.empty()) return std::nullopt;
    return OracleInput::Sequential{std::move(sequential.sinkRows), std::move(sequential.committedState)};
  };
}

}  // namespace unit_interleaving

Oracle interleavingOracle() {
  Oracle o;
  o.name = "interleaving";
  o.needs = "the same case without its context switches: its sink and committed state";
  o.check = unit_interleaving::check;
  o.example = "interleaving";
  o.prepare = unit_interleaving::prepare;
  o.workloadDefault = [](const WorkloadConfig&) { return true; };
  return o;
}

}  // namespace streamsim::harness
