// Session time zones (spark.sql.session.timeZone): a fixed offset ("UTC", "+08:00", "GMT-5") or a
// region id ("America/Los_Angeles") with its daylight-saving history, read from a TZif file
// (RFC 8536: the transitions, then the footer's POSIX TZ rule for instants after the last one).
// Conversions follow java.time, which Spark uses: an instant's offset is the one in force at it
// (ZoneRules.getOffset); a local date-time maps to an instant as ZonedDateTime.of does -- in a
// gap (spring forward) it moves later by the gap's length, in an overlap (fall back) it takes the
// earlier offset. The engine reads no files: TZif bytes come through a TimeZoneSource in the Env
// (engine/platform reads /usr/share/zoneinfo). Immutable once built; thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim {

class TimeZone {
 public:
  // A fixed offset, seconds east of UTC.
  static std::shared_ptr<const TimeZone> fixed(std::string id, int32_t offsetSeconds);
  // A region's zone from its TZif file; a malformed file is InvalidArgument naming `id` and the
  // byte offset.
  static Result<std::shared_ptr<const TimeZone>> fromTzif(std::string id, std::string_view data);

  const std::string& id() const { return id_; }
  bool isFixed() const { return transitions_.empty() && !rule_; }
  // The offset (seconds east of UTC) in force at `utc`.
  int32_t offsetAt(TimeMs utc) const;
  // The instant of a local date-time (ms since 1970-01-01T00:00 local), as ZonedDateTime.of.
  TimeMs toUtc(int64_t localMs) const;
  // The zone's abbreviation at `utc` (TZif's designations: "PST", "PDT"); the id for a fixed zone.
  std::string abbreviationAt(TimeMs utc) const;
  // Local ms of an instant.
  int64_t toLocal(TimeMs utc) const { return utc + int64_t{offsetAt(utc)} * 1000; }

 private:
  struct Transition {
    int64_t at;  // seconds since the epoch (UTC)
    int32_t offsetBefore;
    int32_t offsetAfter;
    int abbrAfter = -1;  // index into abbreviations_
  };
  // A POSIX TZ rule with daylight saving: std offset, dst offset and the yearly change dates
  // (Mm.w.d/time, local time of the offset in force before the change).
  struct Rule {
    int32_t stdOffset = 0;
    int32_t dstOffset = 0;
    int startMonth = 0, startWeek = 0, startDay = 0, startTime = 7200;
    int endMonth = 0, endWeek = 0, endDay = 0, endTime = 7200;
  };
  // The rule's two transitions in `year` (ascending).
  std::vector<Transition> ruleTransitions(int64_t year) const;

  std::string id_;
  int32_t initialOffset_ = 0;  // before the first transition
  int initialAbbr_ = -1;
  std::vector<std::string> abbreviations_;
  std::string stdName_, dstName_;  // the footer rule's
  std::vector<Transition> transitions_;
  std::shared_ptr<const Rule> rule_;  // after the last transition (null: the last offset stays)
  int32_t ruleFixedOffset_ = 0;       // a footer without dst: its offset
  bool hasFooterFixed_ = false;
};

// Where region ids' TZif data comes from. tzif("America/Los_Angeles") is the file's bytes;
// NotFound for an unknown id.
class TimeZoneSource {
 public:
  virtual ~TimeZoneSource() = default;
  virtual Result<std::string> tzif(std::string_view id) = 0;
};

// Whether `id` is a syntactically valid region id (java.time.ZoneRegion: [A-Za-z][A-Za-z0-9~/._+-]+).
bool isRegionZoneId(std::string_view id);

}  // namespace streamsim
