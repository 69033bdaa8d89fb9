// The scenario loader's checks and faults (docs/scenarios.md "oracles", "sweep", "services"):
// the oracles a scenario names with their parameters, its sweep knobs and the outside services
// its async processors await. Not for several threads (one ParseContext each).
#pragma once

#include "scenario/parse_context.h"

namespace streamsim::harness::detail {

// `oracles:` (after the steps: some oracles refuse a restart onto another query).
void parseOracles(ParseContext& pc, const YAML::Node& n, Scenario& sc);
SweepSpec parseSweep(ParseContext& pc, const YAML::Node& n);
void parseServices(ParseContext& pc, const YAML::Node& n, Scenario& sc);

}  // namespace streamsim::harness::detail
