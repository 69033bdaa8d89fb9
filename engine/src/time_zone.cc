// Session time zones (time_zone.h): TZif (RFC 8536) and POSIX TZ rules, with java.time's
// ZoneRules / ZonedDateTime.ofLocal conversions.
#include "streamsim/time_zone.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace streamsim {
namespace {

int64_t floorDivI(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0); }

struct Reader {
  std::string_view data;
  size_t pos = 0;
  std::string_view id;
  Status bad(std::string_view what) const {
    return Status::InvalidArgument(fmt::format("time zone '{}': TZif data at byte {}: {}", id, pos, what));
  }
  bool has(size_t n) const { return data.size() - pos >= n; }
  int64_t be(size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(data[pos + i]);
    pos += n;
    if (n == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
    return static_cast<int64_t>(v);
  }
};

// [+-]hh[:mm[:ss]] (POSIX: hours up to 167); returns seconds.
bool parsePosixTime(std::string_view s, size_t& i, int32_t& out) {
  int sign = 1;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
  int32_t parts[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    if (k > 0) {
      if (i >= s.size() || s[i] != ':') break;
      ++i;
    }
    size_t start = i;
    int32_t v = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 3) v = v * 10 + (s[i++] - '0');
    if (i == start) return false;
    parts[k] = v;
  }
  out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
  return true;
}

bool parseName(std::string_view s, size_t& i, std::string* name = nullptr) {
  size_t start = i;
  if (i < s.size() && s[i] == '<') {
    while (i < s.size() && s[i] != '>') ++i;
    if (i >= s.size()) return false;
    ++i;
    if (name) *name = std::string(s.substr(start + 1, i - start - 2));
    return true;
  }
  while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
  if (name) *name = std::string(s.substr(start, i - start));
  return i - start >= 3;
}

// Mm.w.d[/time]
bool parseRuleDate(std::string_view s, size_t& i, int& month, int& week, int& day, int& time) {
  if (i >= s.size() || s[i] != 'M') return false;
  ++i;
  auto num = [&](int& out) {
    size_t start = i;
    out = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) out = out * 10 + (s[i++] - '0');
    return i > start;
  };
  if (!num(month) || i >= s.size() || s[i++] != '.' || !num(week) || i >= s.size() || s[i++] != '.' || !num(day)) return false;
  if (month < 1 || month > 12 || week < 1 || week > 5 || day > 6) return false;
  time = 7200;
  if (i < s.size() && s[i] == '/') {
    ++i;
    int32_t t = 0;
    if (!parsePosixTime(s, i, t)) return false;
    time = t;
  }
  return true;
}

// The day (days since the epoch) of rule date Mm.w.d in `year`.
int64_t ruleDay(int64_t year, int month, int week, int day) {
  int64_t first = daysFromCivil(year, static_cast<unsigned>(month), 1);
  int64_t weekdayOfFirst = ((first % 7) + 7 + 4) % 7;  // 1970-01-01 was a Thursday (4)
  int64_t d = first + ((day - weekdayOfFirst) % 7 + 7) % 7 + int64_t{week - 1} * 7;
  int64_t nextMonth = month == 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, static_cast<unsigned>(month + 1), 1);
  while (d >= nextMonth) d -= 7;
  return d;
}

}  // namespace

std::shared_ptr<const TimeZone> TimeZone::fixed(std::string id, int32_t offsetSeconds) {
  auto z = std::make_shared<TimeZone>();
  z->id_ = std::move(id);
  z->initialOffset_ = offsetSeconds;
  return z;
}

Result<std::shared_ptr<const TimeZone>> TimeZone::fromTzif(std::string id, std::string_view data) {
  auto z = std::make_shared<TimeZone>();
  z->id_ = id;
  Reader r{data, 0, id};
  auto header = [&](int64_t counts[6], char& version) -> Status {
    if (!r.has(44) || data.substr(r.pos, 4) != "TZif") return r.bad("expected the magic 'TZif' and a 44-byte header");
    version = data[r.pos + 4];
    r.pos += 20;
    for (int k = 0; k < 6; ++k) counts[k] = r.be(4);
    for (int k = 0; k < 6; ++k)
      if (counts[k] < 0 || counts[k] > 100000) return r.bad("a count out of range");
    return Status::OK();
  };
  int64_t c[6];
  char version = 0;
  STREAMSIM_RETURN_IF_ERROR(header(c, version));
  size_t timeSize = 4;
  auto blockSize = [&](size_t ts) {
    return static_cast<size_t>(c[3] * ts + c[3] + c[4] * 6 + c[5] + c[2] * (ts + 4) + c[1] + c[0]);
  };
  if (version >= '2') {  // skip the 32-bit block; the 64-bit one follows with its own header
    if (!r.has(blockSize(4))) return r.bad("the version 1 data block is truncated");
    r.pos += blockSize(4);
    STREAMSIM_RETURN_IF_ERROR(header(c, version));
    timeSize = 8;
  }
  const int64_t isutcnt = c[0], isstdcnt = c[1], leapcnt = c[2], timecnt = c[3], typecnt = c[4], charcnt = c[5];
  if (typecnt == 0) return r.bad("no local time types");
  if (!r.has(blockSize(timeSize))) return r.bad("the data block is truncated");
  std::vector<int64_t> times(static_cast<size_t>(timecnt));
  for (auto& t : times) t = timeSize == 8 ? r.be(8) : r.be(4);
  std::vector<int> idx(static_cast<size_t>(timecnt));
  for (auto& i : idx) {
    i = static_cast<unsigned char>(data[r.pos++]);
    if (i >= typecnt) return r.bad("a transition names a local time type that does not exist");
  }
  std::vector<int32_t> offsets(static_cast<size_t>(typecnt));
  std::vector<size_t> desig(static_cast<size_t>(typecnt));
  for (size_t k = 0; k < offsets.size(); ++k) {
    offsets[k] = static_cast<int32_t>(r.be(4));
    desig[k] = static_cast<unsigned char>(data[r.pos + 1]);
    r.pos += 2;  // isdst, desigidx
  }
  std::string_view chars = data.substr(r.pos, static_cast<size_t>(charcnt));
  for (size_t d : desig) {
    if (d >= chars.size()) return r.bad("a time type's designation index is past the designations");
    size_t end = chars.find('\0', d);
    z->abbreviations_.emplace_back(chars.substr(d, end == std::string_view::npos ? std::string_view::npos : end - d));
  }
  r.pos += static_cast<size_t>(charcnt + leapcnt * (static_cast<int64_t>(timeSize) + 4) + isstdcnt + isutcnt);
  z->initialOffset_ = offsets[0];
  z->initialAbbr_ = 0;
  int32_t before = offsets[0];
  for (size_t i = 0; i < times.size(); ++i) {
    int32_t after = offsets[static_cast<size_t>(idx[i])];
    z->transitions_.push_back({times[i], before, after, idx[i]});
    before = after;
  }
  if (timeSize == 8 && r.has(1) && data[r.pos] == '\n') {
    size_t end = data.find('\n', r.pos + 1);
    if (end == std::string_view::npos) return r.bad("the footer's TZ string is not closed by a newline");
    std::string_view tz = data.substr(r.pos + 1, end - r.pos - 1);
    size_t i = 0;
    int32_t stdOff = 0;
    if (!tz.empty() && parseName(tz, i, &z->stdName_) && parsePosixTime(tz, i, stdOff)) {
      Rule rule;
      rule.stdOffset = -stdOff;
      if (i == tz.size()) {
        z->hasFooterFixed_ = true;
        z->ruleFixedOffset_ = rule.stdOffset;
      } else if (parseName(tz, i, &z->dstName_)) {
        rule.dstOffset = rule.stdOffset + 3600;
        int32_t dst = 0;
        if (i < tz.size() && tz[i] != ',') {
          if (!parsePosixTime(tz, i, dst)) return r.bad(fmt::format("the footer's TZ string '{}'", tz));
          rule.dstOffset = -dst;
        }
        if (i < tz.size() && tz[i] == ',' && parseRuleDate(tz, ++i, rule.startMonth, rule.startWeek, rule.startDay, rule.startTime) &&
            i < tz.size() && tz[i] == ',' && parseRuleDate(tz, ++i, rule.endMonth, rule.endWeek, rule.endDay, rule.endTime) &&
            i == tz.size()) {
          z->rule_ = std::make_shared<const Rule>(rule);
        }
        // Other rule forms (Jn, n): the last transition's offset stays.
      }
    }
  }
  return std::shared_ptr<const TimeZone>(z);
}

std::vector<TimeZone::Transition> TimeZone::ruleTransitions(int64_t year) const {
  const Rule& r = *rule_;
  int64_t start = ruleDay(year, r.startMonth, r.startWeek, r.startDay) * 86400 + r.startTime - r.stdOffset;
  int64_t end = ruleDay(year, r.endMonth, r.endWeek, r.endDay) * 86400 + r.endTime - r.dstOffset;
  std::vector<Transition> out{{start, r.stdOffset, r.dstOffset}, {end, r.dstOffset, r.stdOffset}};
  if (out[1].at < out[0].at) std::swap(out[0], out[1]);
  return out;
}

int32_t TimeZone::offsetAt(TimeMs utc) const {
  const int64_t s = floorDivI(utc, 1000);
  if (transitions_.empty() && !rule_ && !hasFooterFixed_) return initialOffset_;
  if (!transitions_.empty() && s < transitions_.back().at) {
    auto it = std::upper_bound(transitions_.begin(), transitions_.end(), s,
                               [](int64_t v, const Transition& t) { return v < t.at; });
    return it == transitions_.begin() ? initialOffset_ : std::prev(it)->offsetAfter;
  }
  if (rule_) {
    int64_t y = 0;
    unsigned m = 0, d = 0;
    civilFromDays(floorDivI(s + rule_->stdOffset, 86400), y, m, d);
    std::vector<Transition> ts;
    for (int64_t k = y - 1; k <= y + 1; ++k)
      for (const Transition& t : ruleTransitions(k)) ts.push_back(t);
    std::sort(ts.begin(), ts.end(), [](const Transition& a, const Transition& b) { return a.at < b.at; });
    int32_t off = ts.front().offsetBefore;
    for (const Transition& t : ts)
      if (t.at <= s) off = t.offsetAfter;
    return off;
  }
  if (hasFooterFixed_) return ruleFixedOffset_;
  return transitions_.empty() ? initialOffset_ : transitions_.back().offsetAfter;
}

std::string TimeZone::abbreviationAt(TimeMs utc) const {
  const int64_t s = floorDivI(utc, 1000);
  auto name = [&](int i) { return i >= 0 && i < static_cast<int>(abbreviations_.size()) ? abbreviations_[static_cast<size_t>(i)] : id_; };
  if (!transitions_.empty() && s < transitions_.back().at) {
    auto it = std::upper_bound(transitions_.begin(), transitions_.end(), s,
                               [](int64_t v, const Transition& t) { return v < t.at; });
    return name(it == transitions_.begin() ? initialAbbr_ : std::prev(it)->abbrAfter);
  }
  if (rule_) return offsetAt(utc) == rule_->dstOffset ? dstName_ : stdName_;
  if (hasFooterFixed_ && !stdName_.empty()) return stdName_;
  return name(transitions_.empty() ? initialAbbr_ : transitions_.back().abbrAfter);
}

TimeMs TimeZone::toUtc(int64_t localMs) const {
  // The offsets that could apply: those in force a day either side (transitions are further
  // apart than that). An offset o is valid when the instant local - o has offset o.
  int32_t candidates[3] = {offsetAt(localMs - 86400000), offsetAt(localMs), offsetAt(localMs + 86400000)};
  bool found = false;
  TimeMs best = 0;
  for (int32_t o : candidates) {
    TimeMs u = localMs - int64_t{o} * 1000;
    if (offsetAt(u) != o) continue;
    if (!found || u < best) best = u;  // an overlap: the earlier offset (the earlier instant)
    found = true;
  }
  if (found) return best;
  // A gap: ZonedDateTime.ofLocal moves the local time later by the gap's length, which is the
  // instant local - offsetBefore (the smaller of the two offsets around a gap).
  int32_t before = *std::min_element(std::begin(candidates), std::end(candidates));
  return localMs - int64_t{before} * 1000;
}

bool isRegionZoneId(std::string_view id) {
  if (id.size() < 2 || !std::isalpha(static_cast<unsigned char>(id[0]))) return false;
  for (char c : id) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '~' || c == '/' || c == '.' || c == '_' || c == '+' || c == '-';
    if (!ok) return false;
  }
  return id.find("..") == std::string_view::npos;
}

}  // namespace streamsim
