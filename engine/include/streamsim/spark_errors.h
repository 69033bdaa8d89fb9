// Spark's error conditions (common/utils/src/main/resources/error/error-conditions.json) as
// streamsim reports them: "[CONDITION] Spark's message with the parameters filled in", plus, where
// it helps, a short hint of the streamsim rule in parentheses. The condition and its parameters
// are also fields of the Status (Status::condition(), Status::parameters()) so tests match them
// instead of message text. docs/processors.md "Error conditions" lists them.
// Thread-safety: pure functions over a constant table.
#pragma once

#include <string>
#include <string_view>

#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

// "[CONDITION] message" with Spark's template for `condition` filled from `params` (a condition
// without a template gives "[CONDITION] k=v, ..."), then " (hint)" when `hint` is not empty.
std::string sparkErrorMessage(std::string_view condition, const ErrorParams& params,
                              std::string_view hint = {});

// A Status of `code` whose message is sparkErrorMessage(...) and which carries the condition and
// its parameters.
Status sparkError(Status::Code code, std::string condition, ErrorParams params,
                  std::string_view hint = {});

// How Spark's messages name a column (toSQLId: "`t`") and a type (toSQLType: "\"BIGINT\"", its
// DataType.sql in double quotes), and a schema (StructType.toString:
// "StructType(StructField(n,LongType,true))").
std::string sparkSqlId(std::string_view name);
std::string sparkSqlType(Type t);
std::string sparkStructTypeString(const Schema& schema);

// Spark's handle states (StatefulProcessorHandleState), in Spark's enumeration order.
enum class HandleState { kCreated, kPreInit, kInitialized, kDataProcessed, kTimerProcessed, kClosed };
std::string_view handleStateName(HandleState s);  // "CREATED", "PRE_INIT", ...

}  // namespace streamsim
