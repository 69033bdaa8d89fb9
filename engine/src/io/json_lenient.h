// Spark's JSON reader defaults that strict JSON lacks (JSONOptions: allowSingleQuotes and
// allowNonNumericNumbers are true): a record written with 'single-quoted' strings or with the
// bare tokens NaN, Infinity, +Infinity, -Infinity, +INF, -INF is a row in Spark. The reader tries
// strict JSON first; only a line that fails is rewritten here into strict JSON and parsed again.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace streamsim::detail {

// `line` with its single-quoted strings double-quoted and its non-numeric number tokens written
// as the strings "NaN", "Infinity", "-Infinity" (the double reader takes those); nullopt when the
// line has neither (the strict error stands) or ends inside a string.
std::optional<std::string> sparkLenientJson(std::string_view line);

}  // namespace streamsim::detail
