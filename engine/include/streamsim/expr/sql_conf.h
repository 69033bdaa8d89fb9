// The Spark SQL settings an expression's analysis and evaluation depend on:
// spark.sql.ansi.enabled (true by default, as in Spark 4), spark.sql.caseSensitive (false) and
// spark.sql.session.timeZone (UTC). A value type; read-only once built.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "streamsim/status.h"
#include "streamsim/time_zone.h"

namespace streamsim::expr {
class UserFunctions;  // user_functions.h
}

namespace streamsim::expr {

struct SqlConf {
  bool ansi = true;
  bool caseSensitive = false;
  // The session time zone as given, and its rules (streamsim/time_zone.h): a fixed offset
  // ("UTC", "Z", "+08:00", "-05:30", "GMT+8", "UTC-03:00") at once; a region id
  // ("America/Los_Angeles") once resolveTimeZone read its TZif data -- a query does that when it
  // starts, through its Env's TimeZoneSource.
  std::string timeZone = "UTC";
  std::shared_ptr<const TimeZone> zone = TimeZone::fixed("UTC", 0);
  // The query's user-defined functions (user_functions.h), resolved before the built-in ones;
  // null: none.
  std::shared_ptr<const UserFunctions> userFunctions;

  // Whether `key` is one of the settings above.
  static bool isSqlConf(std::string_view key);
  // Sets one setting; a bad value is Spark's INVALID_CONF_VALUE (.TIME_ZONE for the zone). A
  // region id is only checked for its form here (zone is null until resolveTimeZone).
  Status set(std::string_view key, std::string_view value);
  // Reads a region id's rules from `source`: an unknown zone (or no source) is
  // INVALID_CONF_VALUE.TIME_ZONE, as SQLConf's check of spark.sql.session.timeZone. A no-op when
  // the zone is already known.
  Status resolveTimeZone(TimeZoneSource* source);
  // The session zone's rules; UTC while a region id is not resolved (analysis only: a query
  // resolves before it evaluates).
  const TimeZone& zoneRules() const;
};

// "+08:00" / "UTC" / "GMT-5" -> seconds east of UTC.
Result<int32_t> parseZoneOffset(std::string_view zone);

}  // namespace streamsim::expr
