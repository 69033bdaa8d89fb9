// The nesting bound of every JSON reader: a document nested deeper than Jackson's default
// StreamReadConstraints.maxNestingDepth (1000, Jackson 2.15+, the Jackson of Spark 4.1) is refused
// before it is parsed, as Spark's reader refuses it. nlohmann's parser itself is iterative, but
// copying, comparing or dumping the value it builds recurses once per level: 200,000 nested
// brackets in a sweep report blew the stack of `merge` and `report --html`. Every
// `nlohmann::json::parse` of bytes from outside the process goes through parseJsonBounded.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace streamsim {

inline constexpr int kMaxJsonNestingDepth = 1000;

// The byte offset of the first `[` or `{` (outside strings) opening level maxDepth + 1, if any.
// Linear, no allocation; does not validate the JSON otherwise.
std::optional<size_t> jsonNestingPastLimit(std::string_view text, int maxDepth = kMaxJsonNestingDepth);

// "nested deeper than 1000 levels at byte N" for a reader's message.
std::string jsonNestingMessage(size_t offset, int maxDepth = kMaxJsonNestingDepth);

// J::parse(text, callback, allow_exceptions=false), a discarded value when the text is nested
// deeper than kMaxJsonNestingDepth (J: nlohmann::json or nlohmann::ordered_json).
template <class J, class Callback = std::nullptr_t>
J parseJsonBounded(std::string_view text, Callback callback = nullptr) {
  if (jsonNestingPastLimit(text)) return J(J::value_t::discarded);
  return J::parse(text.begin(), text.end(), callback, /*allow_exceptions=*/false);
}

}  // namespace streamsim
