// Private to engine/src/io: the timestampFormat / dateFormat options the CSV and JSON readers and
// writers share (CSVOptions / JSONOptions: a Spark datetime pattern), and the zone they read and
// write datetimes in.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "expr/datetime_pattern.h"
#include "streamsim/io/json_rows.h"
#include "streamsim/status.h"
#include "streamsim/time_zone.h"

namespace streamsim::detail {

// The zone file formats' datetimes are read and written in (the readers and writers do not see
// the session's; Spark's default is the session zone, streamsim's sessions are UTC by default).
inline const TimeZone& fileTimeZone() {
  static const std::shared_ptr<const TimeZone> utc = TimeZone::fixed("UTC", 0);
  return *utc;
}

// A timestampFormat / dateFormat value of a `format` ("csv", "json") option: Spark's datetime
// pattern, parsed once (INVALID_DATETIME_PATTERN for a letter Spark does not know).
inline Result<DatetimePattern> datetimePatternOption(std::string_view format, std::string_view key,
                                                     std::string_view value) {
  auto parts = expr::datetime::parsePattern(value);
  if (!parts.ok()) return parts.status().withContext(fmt::format("{} option {}", format, key));
  return DatetimePattern(std::make_shared<const std::vector<expr::datetime::PatternPart>>(std::move(*parts)));
}

}  // namespace streamsim::detail
