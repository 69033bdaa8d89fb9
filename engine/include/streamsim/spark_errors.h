// Spark's error conditions (common/utils/src/main/resources/error/error-conditions.json) as
// streamsim reports them: "[CONDITION] Spark's message with the parameters filled in", plus, where
// it helps, a short hint of the streamsim rule in parentheses. docs/processors.md "Handle
// lifecycle and error conditions" lists them. Thread-safety: pure functions over a constant table.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace streamsim {

// The message parameters of an error condition, in Spark's order: {"operationType", "get"}, ...
using ErrorParams = std::vector<std::pair<std::string, std::string>>;

// "[CONDITION] message" with Spark's template for `condition` filled from `params` (a condition
// without a template gives "[CONDITION] k=v, ..."), then " (hint)" when `hint` is not empty.
std::string sparkErrorMessage(std::string_view condition, const ErrorParams& params,
                              std::string_view hint = {});

// Spark's handle states (StatefulProcessorHandleState), in Spark's enumeration order.
enum class HandleState { kCreated, kPreInit, kInitialized, kDataProcessed, kTimerProcessed, kClosed };
std::string_view handleStateName(HandleState s);  // "CREATED", "PRE_INIT", ...

}  // namespace streamsim
