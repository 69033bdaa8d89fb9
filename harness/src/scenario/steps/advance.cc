// The advance step (docs/scenarios.md "Steps"): the virtual clock moved by a duration (with
// `trigger: once`, exactly one trigger then) or to a timestamp. Its row is in step_table.cc.
#include <algorithm>

#include <fmt/format.h>

#include "scenario/parse_context.h"
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {

AdvanceStep parseAdvance(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  AdvanceStep s;
  if (v.IsScalar()) {
    s.by = pc.duration(v, "advance");
  } else if (pc.expectMap(v, "advance")) {
    pc.checkKeys(v, "advance", {"by", "to", "trigger"});
    if (auto b = v["by"]; b) s.by = pc.duration(b, "advance by");
    if (auto t = v["to"]; t) s.to = pc.timestamp(t, "advance to");
    if (auto t = v["trigger"]; t) {
      s.triggerOnce = pc.str(t, "advance trigger") == "once";
      if (!s.triggerOnce) pc.error(t, "advance trigger must be 'once' (exactly one trigger at the new time)");
      if (!v["by"]) pc.error(t, "advance trigger: once needs 'by'");
    }
    if (s.by.has_value() == s.to.has_value())
      pc.error(v, "advance takes exactly one of 'by' (a duration) or 'to' (a timestamp)");
  }
  return s;
}

void advanceActions(StepActions& a, const AdvanceStep& s, const SourceLocation& at) {
  if (s.to && s.catchUp && s.triggerOnce) {
    a.push(AdvanceManualClock{0, *s.to}, at);
  } else if (s.to && s.catchUp) {
    TimeMs to = *s.to;
    a.push(AssertOnQuery{[to](StreamTestContext& ctx) -> Status {
                           ctx.sim.clock().set(std::max(ctx.sim.clock().nowMs(), to));
                           return Status::OK();
                         },
                         "advance to " + formatTimestamp(to) + " (unless past)"},
           at);
  } else if (s.by && s.triggerOnce) {
    a.push(AdvanceManualClock{*s.by}, at);
  } else if (s.by) {
    a.push(AdvanceClock{*s.by}, at);
  } else {
    TimeMs to = *s.to;
    a.push(AssertOnQuery{[to](StreamTestContext& ctx) -> Status {
                           if (ctx.sim.clock().nowMs() > to)
                             return Status::InvalidArgument(fmt::format(
                                 "advance to {}: the clock is already at {}", formatTimestamp(to),
                                 formatTimestamp(ctx.sim.clock().nowMs())));
                           ctx.sim.clock().set(to);
                           return Status::OK();
                         },
                         "advance to " + formatTimestamp(to)},
           at);
  }
}

}  // namespace streamsim::harness::detail
