// Private helpers for the checkpoint formats: JSON parsing that returns Corruption naming the
// file and line, Spark-compatible string quoting, and field accessors. Internal to
// engine/src/checkpoint; stateless, thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "streamsim/status.h"

namespace streamsim::detail {

using OJson = nlohmann::ordered_json;

// Parses one JSON value; Corruption "<path>:<line>: <what>: <parser message>" on failure.
Result<OJson> parseJsonAt(std::string_view text, const std::string& path, int lineNo,
                          std::string_view what);

// `"text"` quoted the way Jackson does (", \, control characters escaped; UTF-8 kept).
std::string quoteJson(std::string_view s);
// quoteJson(s) appended to `out`.
void appendQuotedJson(std::string& out, std::string_view s);

// Required / optional integer fields of an object. Corruption names path, line and field.
Result<int64_t> requireInt(const OJson& obj, const char* field, const std::string& path,
                           int lineNo);
Result<std::optional<int64_t>> optionalInt(const OJson& obj, const char* field,
                                           const std::string& path, int lineNo);
Result<std::string> requireString(const OJson& obj, const char* field, const std::string& path,
                                  int lineNo);

std::string_view trimView(std::string_view s);

}  // namespace streamsim::detail
