// Private to engine/src: Spark's datetime patterns (DateTimeFormatter letters y M d H h m s S a
// E Z X x and their kin, 'quoted' text) -- parsed once, then formatting an instant or parsing
// text in a time zone; and the civil (calendar) fields of an instant. Shared by the time
// functions (functions_time.cc) and the CSV/JSON readers' and writers' timestampFormat.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/time_zone.h"

namespace streamsim::expr::datetime {

struct Civil {
  int64_t y;
  unsigned mo, d;
  int64_t h, mi, s, ms;
  int dow;  // 1 = Monday .. 7 = Sunday (ISO)
  int64_t dayOfYear;
};

int64_t floorDivMs(int64_t a, int64_t b);
Civil toCivil(TimeMs t, const TimeZone& zone);
int64_t localMs(int64_t y, unsigned mo, unsigned d, int64_t h, int64_t mi, int64_t s, int64_t ms);
// The instant of a local date-time in `zone` (ZonedDateTime.of: a gap moves later, an overlap
// takes the earlier offset).
TimeMs fromCivil(int64_t y, unsigned mo, unsigned d, int64_t h, int64_t mi, int64_t s, int64_t ms,
                 const TimeZone& zone);

extern const char* const kMonths[12];
extern const char* const kDays[7];

// A pattern split into letter runs and literal text.
struct PatternPart {
  char letter = 0;  // 0: literal
  int count = 0;
  std::string text;
};

// INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER for a letter Spark does not know.
Result<std::vector<PatternPart>> parsePattern(std::string_view p);
std::string offsetText(int32_t off, char letter, int count);
std::string formatWith(const std::vector<PatternPart>& parts, TimeMs t, const TimeZone& zone);
// Parses `s` with the pattern (Spark's strict-enough subset): nullopt when it does not match.
std::optional<TimeMs> parseWith(const std::vector<PatternPart>& parts, std::string_view s, const TimeZone& sessionZone);

}  // namespace streamsim::expr::datetime
