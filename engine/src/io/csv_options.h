// Private to engine/src/io: the value parsers of Spark's CSVOptions shared by the CSV reader
// (csv_rows.cc) and writer (csv_write.cc).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "io/datetime_options.h"
#include "streamsim/io/csv_rows.h"
#include "streamsim/status.h"
#include "streamsim/time_zone.h"

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

// The options the CSV reader and writer share (CSVOptions' names, case-insensitive `key`):
// sep / delimiter, quote, escape, comment, header, nullValue, ignoreLeadingWhiteSpace,
// ignoreTrailingWhiteSpace, encoding / charset (UTF-8 only), timestampFormat, dateFormat. True when `key` is one of them
// (then set in `o`), false otherwise; InvalidArgument for a bad value.
template <class Options>
Result<bool> applySharedCsvOption(Options& o, std::string_view key, std::string_view rawKey, std::string_view value) {
  if (key == "sep" || key == "delimiter") {
    STREAMSIM_ASSIGN_OR_RETURN(o.sep, csvCharOption(rawKey, value));
    if (o.sep == '\0') return Status::InvalidArgument(fmt::format("csv option {}: the separator cannot be empty", rawKey));
  } else if (key == "quote") {
    STREAMSIM_ASSIGN_OR_RETURN(o.quote, csvCharOption(rawKey, value));
  } else if (key == "escape") {
    STREAMSIM_ASSIGN_OR_RETURN(o.escape, csvCharOption(rawKey, value));
  } else if (key == "comment") {
    STREAMSIM_ASSIGN_OR_RETURN(char c, csvCharOption(rawKey, value));
    if (c != '\0') o.comment = c;
  } else if (key == "header") {
    STREAMSIM_ASSIGN_OR_RETURN(o.header, csvBoolOption(rawKey, value));
  } else if (key == "nullvalue") {
    o.nullValue = std::string(value);
  } else if (key == "ignoreleadingwhitespace") {
    STREAMSIM_ASSIGN_OR_RETURN(o.ignoreLeadingWhiteSpace, csvBoolOption(rawKey, value));
  } else if (key == "ignoretrailingwhitespace") {
    STREAMSIM_ASSIGN_OR_RETURN(o.ignoreTrailingWhiteSpace, csvBoolOption(rawKey, value));
  } else if (key == "timestampformat") {
    STREAMSIM_ASSIGN_OR_RETURN(o.timestampFormat, datetimePatternOption("csv", rawKey, value));
  } else if (key == "dateformat") {
    STREAMSIM_ASSIGN_OR_RETURN(o.dateFormat, datetimePatternOption("csv", rawKey, value));
  } else if (key == "encoding" || key == "charset") {
    std::string v = csvLower(value);
    if (v != "utf-8" && v != "utf8")
      return Status::InvalidArgument(fmt::format("csv option {}: streamsim reads and writes UTF-8 only, got '{}'",
                                                 rawKey, value));
  } else {
    return false;
  }
  return true;
}

}  // namespace streamsim::detail
