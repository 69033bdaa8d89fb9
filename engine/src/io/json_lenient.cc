#include "io/json_lenient.h"

#include <array>
#include <cctype>

namespace streamsim::detail {
namespace {

// Jackson's non-numeric numbers (ALLOW_NON_NUMERIC_NUMBERS) and the string each becomes.
struct NonNumeric {
  std::string_view token;
  std::string_view asString;
};
constexpr std::array<NonNumeric, 6> kNonNumeric = {{{"NaN", "\"NaN\""},
                                                    {"Infinity", "\"Infinity\""},
                                                    {"+Infinity", "\"Infinity\""},
                                                    {"-Infinity", "\"-Infinity\""},
                                                    {"+INF", "\"Infinity\""},
                                                    {"-INF", "\"-Infinity\""}}};

bool isTokenChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' || c == '-' || c == '.'; }

}  // namespace

std::optional<std::string> sparkLenientJson(std::string_view line) {
  std::string out;
  out.reserve(line.size() + 8);
  bool changed = false;
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '"') {  // a strict string: copied as it is
      size_t j = i + 1;
      while (j < line.size() && line[j] != '"') j += line[j] == '\\' ? 2 : 1;
      if (j >= line.size()) return std::nullopt;
      out.append(line.substr(i, j + 1 - i));
      i = j + 1;
      continue;
    }
    if (c == '\'') {  // a single-quoted string: \' is a quote, a bare " needs escaping
      out.push_back('"');
      size_t j = i + 1;
      for (; j < line.size() && line[j] != '\''; ++j) {
        if (line[j] == '\\' && j + 1 < line.size()) {
          if (line[j + 1] == '\'') {
            out.push_back('\'');
          } else {
            out.push_back('\\');
            out.push_back(line[j + 1]);
          }
          ++j;
        } else if (line[j] == '"') {
          out += "\\\"";
        } else {
          out.push_back(line[j]);
        }
      }
      if (j >= line.size()) return std::nullopt;
      out.push_back('"');
      i = j + 1;
      changed = true;
      continue;
    }
    if (c == 'N' || c == 'I' || c == '+' || c == '-') {
      size_t j = i;
      while (j < line.size() && isTokenChar(line[j])) ++j;
      std::string_view token = line.substr(i, j - i);
      bool replaced = false;
      for (const auto& n : kNonNumeric)
        if (token == n.token) {
          out.append(n.asString);
          replaced = changed = true;
          break;
        }
      if (!replaced) out.append(token);
      i = j;
      continue;
    }
    out.push_back(c);
    ++i;
  }
  if (!changed) return std::nullopt;
  return out;
}

}  // namespace streamsim::detail
