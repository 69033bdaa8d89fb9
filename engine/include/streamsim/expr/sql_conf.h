// The Spark SQL settings an expression's analysis and evaluation depend on:
// spark.sql.ansi.enabled (true by default, as in Spark 4), spark.sql.caseSensitive (false) and
// spark.sql.session.timeZone (UTC). A value type; read-only once built.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "streamsim/status.h"

namespace streamsim::expr {

struct SqlConf {
  bool ansi = true;
  bool caseSensitive = false;
  // The session time zone as given, and its offset from UTC. streamsim knows fixed offsets only
  // ("UTC", "Z", "+08:00", "-05:30", "GMT+8", "UTC-03:00"): a region id such as
  // "America/Los_Angeles" needs the tz database the engine does not carry (docs/scenarios.md).
  std::string timeZone = "UTC";
  int32_t zoneOffsetSeconds = 0;

  // Whether `key` is one of the settings above.
  static bool isSqlConf(std::string_view key);
  // Sets one setting; a bad value is Spark's INVALID_CONF_VALUE (.TIME_ZONE for the zone).
  Status set(std::string_view key, std::string_view value);
};

// "+08:00" / "UTC" / "GMT-5" -> seconds east of UTC.
Result<int32_t> parseZoneOffset(std::string_view zone);

}  // namespace streamsim::expr
