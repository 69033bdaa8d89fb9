// The run and stop steps (docs/scenarios.md "Steps"): triggers until N batches ran or all that
// is available is processed; a graceful stop. Their rows are in step_table.cc.
#include "scenario/parse_context.h"
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {

RunStep parseRun(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  RunStep s;
  if (v.IsScalar() && v.Scalar() == "available") {
  } else if (v.IsScalar() && scalarValue(v).type() == Type::kLong) {
    s.batches = pc.int32(v, "run", 1);
  } else if (v.IsMap()) {
    pc.checkKeys(v, "run", {"batches"});
    if (auto b = v["batches"]; b) s.batches = pc.int32(b, "batches", 1);
    else pc.error(v, "missing key 'batches' in run");
  } else {
    pc.error(v, "run must be `available` or {batches: N}");
  }
  return s;
}

// Under a fault plan the driver restarts after the plan's crashes until the step's work is done
// (StreamTestOptions::supervisor).
void runActions(StepActions& a, const RunStep& r, const SourceLocation& at) {
  if (r.batches) a.push(RunBatches{*r.batches}, at);
  else a.push(ProcessAllAvailable{}, at);
}

StopStep parseStop(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  if (!(v.IsNull() || (v.IsMap() && v.size() == 0)))
    pc.error(v, "stop takes no arguments: write `stop: {}`");
  return StopStep{};
}

void stopActions(StepActions& a, const StopStep&, const SourceLocation& at) { a.push(StopStream{}, at); }

}  // namespace streamsim::harness::detail
