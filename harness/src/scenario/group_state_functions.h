// Built-in flatMapGroupsWithState functions (ops/flat_map_groups_with_state.h), named in
// scenarios as `flatMapGroupsWithState: {function: NAME, params: {...}}`: a word of the scenario
// language, as the built-in references are. Pure values; the
// returned factories are safe to copy and share.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "streamsim/ops/flat_map_groups_with_state.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim {

struct BuiltinGroupStateFunction {
  std::string stateSchemaDDL;          // the function's state (stateStructType)
  GroupStateFunctionFactory factory;
};

// `session_count`: counts each key's rows into a session; params `gap` (a positive duration,
// default 10s) and `eventTime` (a timestamp column; unset: sessions in processing time).
// Per call with rows: state (count, first, last) grows, the row (keys..., count, closed=false)
// is emitted, and the timeout is set — ProcessingTimeTimeout: gap after the batch time;
// EventTimeTimeout: last event time + gap (never earlier than the watermark). A timed-out key
// emits (keys..., count, closed=true) and removes its state.
// NotFound for an unknown name (listing the known ones); InvalidArgument for a parameter it does
// not take or a bad value.
Result<BuiltinGroupStateFunction> builtinGroupStateFunction(std::string_view name, const ProcessorParams& params);
std::vector<std::string> builtinGroupStateFunctionNames();

}  // namespace streamsim
