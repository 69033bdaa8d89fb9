// Named session time zones (streamsim/time_zone.h) read from the system's TZif files through
// engine/platform, with java.time's rules as Spark uses them (DateTimeUtils.scala: instants in the
// session zone; ZonedDateTime.of for a local date-time: a gap moves later, an overlap takes the
// earlier offset) -- across America/Los_Angeles' 2026 changes: 2026-03-08 02:00 PST -> 03:00 PDT
// (10:00Z) and 2026-11-01 02:00 PDT -> 01:00 PST (09:00Z).
#include "streamsim/time_zone.h"

#include <gtest/gtest.h>

#include "expr_test_util.h"
#include "streamsim/platform/platform.h"

namespace streamsim {
namespace {

using expr::SqlConf;
using expr::test::evalOne;

constexpr TimeMs kSpringUtc = 1772964000000;  // 2026-03-08T10:00:00Z
constexpr TimeMs kFallUtc = 1793523600000;    // 2026-11-01T09:00:00Z
constexpr int64_t kH = 3600000;

std::shared_ptr<const TimeZone> losAngeles() {
  auto source = platform::newSystemTimeZones();
  auto bytes = source->tzif("America/Los_Angeles");
  EXPECT_TRUE(bytes.ok()) << bytes.status().toString();
  auto z = TimeZone::fromTzif("America/Los_Angeles", bytes.ok() ? *bytes : std::string());
  EXPECT_TRUE(z.ok()) << z.status().toString();
  return z.ok() ? *z : TimeZone::fixed("UTC", 0);
}

TEST(TimeZone, OffsetsAcrossDaylightSavingChanges) {
  auto la = losAngeles();
  EXPECT_EQ(la->offsetAt(kSpringUtc - 1000), -8 * 3600);
  EXPECT_EQ(la->offsetAt(kSpringUtc), -7 * 3600);
  EXPECT_EQ(la->offsetAt(kFallUtc - 1000), -7 * 3600);
  EXPECT_EQ(la->offsetAt(kFallUtc), -8 * 3600);
  // Past the file's transitions the footer's POSIX rule (PST8PDT,M3.2.0,M11.1.0) goes on:
  // 2080-07-01 is daylight time, 2080-01-01 standard time.
  EXPECT_EQ(la->offsetAt(3487017600000), -7 * 3600);  // 2080-07-01T00:00:00Z
  EXPECT_EQ(la->offsetAt(3471292800000), -8 * 3600);  // 2080-01-01T00:00:00Z
}

// ZonedDateTime.ofLocal: 02:30 on 2026-03-08 does not exist in Los Angeles and becomes 03:30 PDT;
// 01:30 on 2026-11-01 exists twice and takes the earlier offset (PDT).
TEST(TimeZone, LocalTimesInAGapMoveLaterAndInAnOverlapTakeTheEarlierOffset) {
  auto la = losAngeles();
  const int64_t springLocalMidnight = kSpringUtc - 10 * kH;  // 2026-03-08T00:00 as local ms
  EXPECT_EQ(la->toUtc(springLocalMidnight + 1 * kH), kSpringUtc - 1 * kH);
  EXPECT_EQ(la->toUtc(springLocalMidnight + 2 * kH + kH / 2), kSpringUtc + kH / 2);
  EXPECT_EQ(la->toUtc(springLocalMidnight + 3 * kH), kSpringUtc);
  const int64_t fallLocalMidnight = kFallUtc - 9 * kH;  // 2026-11-01T00:00 as local ms
  EXPECT_EQ(la->toUtc(fallLocalMidnight + kH + kH / 2), kFallUtc - kH / 2);  // 08:30Z (PDT)
  EXPECT_EQ(la->toUtc(fallLocalMidnight + 2 * kH), kFallUtc + kH);           // 10:00Z (PST)
}

TEST(TimeZone, MalformedTzifIsAnErrorNamingTheZone) {
  auto bad = TimeZone::fromTzif("Bad/Zone", "TZif2 but far too short");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Bad/Zone"), std::string::npos);
  EXPECT_NE(bad.status().message().find("byte"), std::string::npos);
  EXPECT_FALSE(TimeZone::fromTzif("X", "").ok());
}

SqlConf laConf() {
  auto source = platform::newSystemTimeZones();
  SqlConf c;
  Status st = c.set("spark.sql.session.timeZone", "America/Los_Angeles");
  EXPECT_TRUE(st.ok()) << st.toString();
  st = c.resolveTimeZone(source.get());
  EXPECT_TRUE(st.ok()) << st.toString();
  return c;
}

// SQLConf's SESSION_LOCAL_TIMEZONE check: an unknown region is INVALID_CONF_VALUE.TIME_ZONE.
TEST(TimeZone, AnUnknownRegionIsSparksInvalidConfValue) {
  auto source = platform::newSystemTimeZones();
  SqlConf c;
  Status st = c.set("spark.sql.session.timeZone", "Mars/Olympus_Mons");
  if (st.ok()) st = c.resolveTimeZone(source.get());
  EXPECT_EQ(st.condition(), "INVALID_CONF_VALUE.TIME_ZONE");
  EXPECT_NE(st.message().find("Mars/Olympus_Mons"), std::string::npos);
  SqlConf noSource;
  ASSERT_TRUE(noSource.set("spark.sql.session.timeZone", "Europe/Paris").ok());
  EXPECT_EQ(noSource.resolveTimeZone(nullptr).condition(), "INVALID_CONF_VALUE.TIME_ZONE");
  EXPECT_EQ(c.set("spark.sql.session.timeZone", "../etc/passwd").condition(), "INVALID_CONF_VALUE.TIME_ZONE");
}

// datetimeExpressions.scala in the session zone across the spring change: to_timestamp and a
// cast read local text (a gap moves later), date_format / from_unixtime / hour write local time
// with the offset in force at each instant.
TEST(TimeZone, TimeFunctionsInARegionZoneAcrossTheSpringChange) {
  SqlConf la = laConf();
  EXPECT_EQ(evalOne("to_timestamp('2026-03-08 01:59:59')", la), Value::timestamp(kSpringUtc - 1000));
  EXPECT_EQ(evalOne("to_timestamp('2026-03-08 02:30:00')", la), Value::timestamp(kSpringUtc + kH / 2));
  EXPECT_EQ(evalOne("to_timestamp('2026-03-08 03:00', 'yyyy-MM-dd HH:mm')", la), Value::timestamp(kSpringUtc));
  EXPECT_EQ(evalOne("CAST('2026-11-01 01:30:00' AS TIMESTAMP)", la), Value::timestamp(kFallUtc - kH / 2));
  EXPECT_EQ(evalOne("date_format(TIMESTAMP '2026-03-08 09:59:59Z', 'yyyy-MM-dd HH:mm:ss XXX')", la).asString(),
            "2026-03-08 01:59:59 -08:00");
  EXPECT_EQ(evalOne("date_format(TIMESTAMP '2026-03-08 10:00:00Z', 'yyyy-MM-dd HH:mm:ss XXX')", la).asString(),
            "2026-03-08 03:00:00 -07:00");
  EXPECT_EQ(evalOne("from_unixtime(1772963999)", la).asString(), "2026-03-08 01:59:59");
  EXPECT_EQ(evalOne("from_unixtime(1772964000)", la).asString(), "2026-03-08 03:00:00");
  EXPECT_EQ(evalOne("hour(TIMESTAMP '2026-03-08 09:59:59Z')", la).asLong(), 1);
  EXPECT_EQ(evalOne("hour(TIMESTAMP '2026-03-08 10:00:00Z')", la).asLong(), 3);
  EXPECT_EQ(evalOne("hour(TIMESTAMP '2026-11-01 08:30:00Z')", la).asLong(), 1);  // PDT
  EXPECT_EQ(evalOne("hour(TIMESTAMP '2026-11-01 09:30:00Z')", la).asLong(), 1);  // PST
  EXPECT_EQ(evalOne("CAST(TIMESTAMP '2026-11-01 09:30:00Z' AS STRING)", la).asString(), "2026-11-01 01:30:00");
  EXPECT_EQ(evalOne("unix_timestamp('2026-03-08 03:00:00')", la).asLong(), kSpringUtc / 1000);
}

}  // namespace
}  // namespace streamsim
