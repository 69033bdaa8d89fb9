// Time in streamsim: integer milliseconds since the Unix epoch, Spark's unit for batch
// timestamps, watermarks, timers and TTL (DESIGN.md §2). Never a double.
#pragma once

#include <cstdint>
#include <string>
#include <optional>
#include <string_view>

#include "streamsim/status.h"

namespace streamsim {

using TimeMs = std::int64_t;      // a point in time, ms since 1970-01-01T00:00:00Z
using DurationMs = std::int64_t;  // a span of time in ms

// "2026-01-01T00:00:00Z", "2026-01-01 00:00:00", "2026-01-01T00:00:00.250Z" (UTC only).
Result<TimeMs> parseTimestamp(std::string_view text);
// Always "YYYY-MM-DDTHH:MM:SS.mmmZ" (millis omitted when zero).
std::string formatTimestamp(TimeMs t);
// formatTimestamp(t) appended to `out` (no string of its own: the hot JSON writers use it).
void appendTimestamp(std::string& out, TimeMs t);
// A date (days since 1970-01-01) as Spark writes it: "2026-01-01" (a year past 9999 or before 0
// with its sign: "+10000-01-01").
std::string formatDate(int64_t days);
// Spark's DateTimeUtils.stringToDate: "[+-]yyyy[-[m]m[-[d]d]]" optionally followed by ' ' or 'T'
// and anything, surrounding whitespace trimmed; nullopt when malformed or not a real date.
std::optional<int64_t> parseDate(std::string_view text);
// "10m", "7d", "1s", "250ms", "1h30m", "2 hours", "10 minutes" -> milliseconds.
Result<DurationMs> parseDuration(std::string_view text);
std::string formatDuration(DurationMs d);

// The proleptic Gregorian calendar (H. Hinnant's algorithms): days from 1970-01-01 to y-m-d, and
// back. The one calendar of the engine (timestamps here, the expressions' time functions).
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d);
void civilFromDays(int64_t days, int64_t& y, unsigned& m, unsigned& d);

}  // namespace streamsim
