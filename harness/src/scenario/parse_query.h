// The scenario loader's query part (docs/scenarios.md "query"): sources, operators (joins,
// aggregations, transformWithState and its processor's parameters), sink and trigger, each
// error at its node (parse_context.h). Not for several threads (one ParseContext each).
#pragma once

#include <optional>
#include <vector>

#include "scenario/parse_context.h"

namespace streamsim::harness::detail {

// `query:` into `q`; records its sources in `pc` (the steps check their rows against them).
void parseQuery(ParseContext& pc, const YAML::Node& n, QuerySpec& q);
// One entry of `operators:`; `columns` (the operator's input, when known) becomes its output.
OperatorSpec parseOperator(ParseContext& pc, const YAML::Node& n,
                           std::optional<std::vector<Field>>& columns);

}  // namespace streamsim::harness::detail
