// The two dispatches through the step table (streamsim/harness/scenario/step_table.h): the
// loader's `steps:` list, the runner's actions of a step. Not for several threads (one
// ParseContext / StepActions each).
#pragma once

#include "scenario/parse_context.h"
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {

// `steps:` into sc.steps: each a map with one key, a row of the table.
void parseSteps(ParseContext& pc, const YAML::Node& n, Scenario& sc);
// The actions of `step` (its row's toActions).
void addStepActions(StepActions& actions, const Step& step);

}  // namespace streamsim::harness::detail
