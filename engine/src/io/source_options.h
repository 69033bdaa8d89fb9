// What the sources' option parsers share: Spark reads options from a CaseInsensitiveStringMap
// (a lower-cased key) and a number with Long.parseLong.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "streamsim/status.h"

namespace streamsim::detail {

inline std::string lowerAscii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The whole of `text` as a decimal long, or InvalidArgument naming the option.
inline Result<int64_t> parseLongOption(const std::string& name, const std::string& text) {
  size_t used = 0;
  int64_t v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    return Status::InvalidArgument(fmt::format("Invalid value '{}' for option '{}': expected a number", text, name));
  return v;
}

}  // namespace streamsim::detail
