// JSON text written straight into a string, byte for byte what nlohmann's dump() writes for the
// same values (compact, ensure_ascii off), for the hot writers that built a DOM only to dump it:
// QueryProgress::toJson and Row::toJson. Stateless, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace streamsim::detail {

// `"s"` as nlohmann::json(std::string(s)).dump(): printable ASCII without `"` or `\` is copied;
// anything else (escapes, control characters, UTF-8 that must be validated) goes through
// nlohmann itself, so its escaping stays the same; a byte that is not valid UTF-8 is written as
// U+FFFD (never an exception).
void appendJsonString(std::string& out, std::string_view s);

// An integer as nlohmann writes an int64 value.
void appendJsonInt(std::string& out, int64_t n);

// A double as nlohmann writes it (shortest round-trip digits); NaN and the infinities as Spark
// writes them: the strings "NaN", "Infinity", "-Infinity".
void appendJsonDouble(std::string& out, double d);

}  // namespace streamsim::detail
