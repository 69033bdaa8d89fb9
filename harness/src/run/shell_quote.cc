#include "streamsim/harness/run/shell_quote.h"

namespace streamsim::harness {

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

}  // namespace streamsim::harness
