// The state_bound oracle: `{state_bound: N}` (or `{state_bound: {total: N}}`): numRowsTotal of
// every state operator <= N; `{state_bound: {per_key: N}}`: every grouping key's state rows in the
// committed state after the run <= N. Parameters "total" and "per_key".
#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "scenario/parse_context.h"
#include "streamsim/harness/oracles/table.h"

namespace streamsim::harness {
namespace unit_state_bound {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (auto total = in.args.integer("state_bound", "total"))
    if (auto v = checkStateBound(in.run.progress, *total)) return v;
  auto perKey = in.args.integer("state_bound", "per_key");
  if (!perKey) return std::optional<Violation>();
  if (!in.stateRowsPerKey) return Status::FailedPrecondition("state_bound per key needs the committed state");
  STREAMSIM_ASSIGN_OR_RETURN(auto rows, in.stateRowsPerKey());
  return checkStateBoundPerKey(rows, *perKey);
}

void parse(detail::ParseContext& pc, const YAML::Node& b, const Scenario&, OracleArgs& args) {
  if (!b.IsMap()) {
    args.set("state_bound", "total", pc.integer(b, "state_bound (the most state rows allowed)", 0));
    return;
  }
  pc.checkKeys(b, "state_bound", {"per_key", "total"});  // {per_key: N, total: M}
  if (auto x = b["per_key"]; x)
    args.set("state_bound", "per_key",
             pc.integer(x, "state_bound per_key (the most state rows of one grouping key)", 0));
  if (auto x = b["total"]; x)
    args.set("state_bound", "total", pc.integer(x, "state_bound total (the most state rows allowed)", 0));
  if (!args.has("state_bound")) pc.error(b, "state_bound needs per_key or total (e.g. {state_bound: {per_key: 10}})");
}

std::string refuse(const Scenario&) { return "oracle 'state_bound' needs its bound: write {state_bound: N}"; }

// The per-key bound reads the state rows the run left (scenario/runner.cc counts them when the
// scenario has the bound).
void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.stateRowsPerKey = [&run]() -> Result<std::map<std::string, int64_t>> { return run.r.stateRowsPerKey; };
}

}  // namespace unit_state_bound

Oracle stateBoundOracle() {
  Oracle o;
  o.name = "state_bound";
  o.needs = "the progress records' numRowsTotal and the bound";
  o.check = unit_state_bound::check;
  o.forms = "{state_bound: N}, {state_bound: {per_key: N}}";
  o.example = "{state_bound: {per_key: 10, total: 100}}";
  o.parse = unit_state_bound::parse;
  o.refuse = unit_state_bound::refuse;
  o.needsArgs = true;
  o.prepare = unit_state_bound::prepare;
  return o;
}

}  // namespace streamsim::harness
