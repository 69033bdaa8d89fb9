// The scenario loader's query part (docs/scenarios.md "query"): sources, operators (joins,
// aggregations, transformWithState: scenario/operators.h), sink and trigger, each error at its
// node (parse_context.h). Not for several threads (one ParseContext each).
#pragma once

#include <optional>
#include <vector>

#include "scenario/parse_context.h"

namespace streamsim::harness::detail {

// `query:` into `q`; records its sources in `pc` (the steps check their rows against them).
void parseQuery(ParseContext& pc, const YAML::Node& n, QuerySpec& q);

}  // namespace streamsim::harness::detail
