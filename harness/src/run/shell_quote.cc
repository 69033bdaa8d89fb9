#include "streamsim/harness/run/shell_quote.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace streamsim::harness {

std::string shellQuote(const std::string& s) {
  auto bare = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("_-./:,=@%+").find(c) != std::string_view::npos;
  };
  if (!s.empty() && std::all_of(s.begin(), s.end(), bare)) return s;
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

}  // namespace streamsim::harness
