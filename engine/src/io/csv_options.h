// Private to engine/src/io: the value parsers of Spark's CSVOptions shared by the CSV reader
// (csv_rows.cc) and writer (csv_write.cc).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "streamsim/status.h"

namespace streamsim::detail {

inline std::string csvLower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// CSVOptions.getBool: "true" / "false" in any case.
inline Result<bool> csvBoolOption(std::string_view key, std::string_view value) {
  std::string v = csvLower(value);
  if (v == "true") return true;
  if (v == "false") return false;
  return Status::InvalidArgument(fmt::format("csv option {}: '{}' is not true or false", key, value));
}

// Spark's CSVOptions.getChar: one character, or an escaped one ("\t", "\\", "\u0000" off).
inline Result<char> csvCharOption(std::string_view key, std::string_view value) {
  if (value.size() == 1) return value[0];
  if (value == "\\t") return '\t';
  if (value == "\\n") return '\n';
  if (value == "\\\\") return '\\';
  if (value == "\\u0000" || value.empty()) return '\0';
  return Status::InvalidArgument(fmt::format("csv option {}: '{}' is not a single character "
                                             "(streamsim's CSV reader and writer take one-character separators)",
                                             key, value));
}

}  // namespace streamsim::detail
