// The ttl oracle: no read returns an expired value, none misses an unexpired one, expired state is
// removed in its batch (oracles/logic.h checkTtl). It reads only the run's trace.
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"

namespace streamsim::harness {
namespace unit_ttl {

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!traceMayHaveEvents(in.run.trace, "tws.ttl_")) return std::optional<Violation>();
  return checkTtl(in.committedBatches());
}

}  // namespace unit_ttl

Oracle ttlOracle() {
  Oracle o;
  o.name = "ttl";
  o.needs = "the trace's committed tws.ttl_* events";
  o.check = unit_ttl::check;
  o.example = "ttl";
  o.workloadDefault = [](const WorkloadConfig& c) { return runsTransformWithState(c.kind); };
  return o;
}

}  // namespace streamsim::harness
