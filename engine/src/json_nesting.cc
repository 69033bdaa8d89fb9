#include "streamsim/json_nesting.h"

#include <fmt/format.h>

namespace streamsim {

std::optional<size_t> jsonNestingPastLimit(std::string_view text, int maxDepth) {
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;  // the escaped byte cannot end the string
      else if (c == '"') inString = false;
      continue;
    }
    switch (c) {
      case '"': inString = true; break;
      case '[':
      case '{':
        if (++depth > maxDepth) return i;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return std::nullopt;
}

std::string jsonNestingMessage(size_t offset, int maxDepth) {
  return fmt::format("nested deeper than {} levels at byte {} (Jackson's maxNestingDepth, as Spark reads JSON)",
                     maxDepth, offset);
}

}  // namespace streamsim
