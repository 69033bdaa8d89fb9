#include "json_text.h"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace streamsim::detail {

void appendJsonString(std::string& out, std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') {
      // Invalid UTF-8 (a landing file's stray byte, quoted in a corrupt record or an error)
      // becomes U+FFFD, as Java's decoder makes it when Spark writes the string out.
      out += nlohmann::json(std::string(s)).dump(-1, ' ', false,
                                                 nlohmann::json::error_handler_t::replace);
      return;
    }
  }
  out.push_back('"');
  out.append(s);
  out.push_back('"');
}

void appendJsonInt(std::string& out, int64_t n) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
  (void)ec;  // 24 chars hold any int64_t
  out.append(digits, end);
}

void appendJsonDouble(std::string& out, double d) {
  // Spark's JSON writer (Jackson, QUOTE_NON_NUMERIC_NUMBERS) writes the non-finite doubles as
  // strings, which its reader (and this one) takes back for a double column.
  if (std::isnan(d)) out += "\"NaN\"";
  else if (std::isinf(d)) out += d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  else out += nlohmann::json(d).dump();
}

}  // namespace streamsim::detail
