// Timestamps as text in the session zone, Java's double formatting, and the session settings
// (bound.h, sql_conf.h). Follows Spark's DateTimeUtils.stringToTimestamp and
// TimestampFormatter's default "yyyy-MM-dd HH:mm:ss[.SSSSSS]" form, at streamsim's millisecond
// precision (digits past the millisecond are dropped).
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "expr/bound.h"
#include "streamsim/expr/sql_conf.h"

namespace streamsim::expr {

std::string formatTimestampSpark(TimeMs t, const TimeZone& zone) {
  int64_t local = zone.toLocal(t);
  int64_t days = local >= 0 ? local / 86400000 : -((-local + 86399999) / 86400000);
  int64_t msOfDay = local - days * 86400000;
  int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  int64_t ms = msOfDay % 1000;
  int64_t s = msOfDay / 1000;
  std::string out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", y, m, d, s / 3600, (s / 60) % 60, s % 60);
  if (ms != 0) {
    std::string frac = fmt::format("{:03}", ms);
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  return out;
}

namespace {
bool digitsAt(std::string_view s, size_t& i, size_t minN, size_t maxN, int64_t& out) {
  size_t start = i;
  out = 0;
  while (i < s.size() && i - start < maxN && std::isdigit(static_cast<unsigned char>(s[i]))) out = out * 10 + (s[i++] - '0');
  return i - start >= minN;
}
}  // namespace

// "Z", "UTC", "GMT", "UT", "+08:00", "-0530", "+8", "UTC+8", "GMT-05:00".
Result<int32_t> parseZoneOffset(std::string_view z) {
  std::string_view rest = z;
  auto bad = [&] {
    return sparkError(Status::Code::kInvalidArgument, "INVALID_CONF_VALUE.TIME_ZONE",
                      {{"confValue", std::string(z)}, {"confName", "spark.sql.session.timeZone"}},
                      "expected a fixed offset (UTC, +08:00, -05:30, GMT+8) or a region id (America/Los_Angeles)");
  };
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (rest.substr(0, prefix.size()) == prefix) {
      rest.remove_prefix(prefix.size());
      break;
    }
  }
  if (rest.empty() || rest == "Z") {
    if (z.empty()) return bad();
    return 0;
  }
  if (rest[0] != '+' && rest[0] != '-') return bad();
  int sign = rest[0] == '-' ? -1 : 1;
  size_t i = 1;
  int64_t h = 0, m = 0, s = 0;
  if (!digitsAt(rest, i, 1, 2, h)) return bad();
  if (i < rest.size() && rest[i] == ':') {
    ++i;
    if (!digitsAt(rest, i, 2, 2, m)) return bad();
    if (i < rest.size() && rest[i] == ':') {
      ++i;
      if (!digitsAt(rest, i, 2, 2, s)) return bad();
    }
  } else if (i < rest.size()) {
    if (!digitsAt(rest, i, 2, 2, m)) return bad();
  }
  if (i != rest.size() || h > 18 || m > 59 || s > 59) return bad();
  return static_cast<int32_t>(sign * (h * 3600 + m * 60 + s));
}

std::optional<TimeMs> parseTimestampSpark(std::string_view in, const TimeZone& sessionZone) {
  // Trim whitespace (UTF8String.trimAll on ASCII).
  size_t b = 0, e = in.size();
  while (b < e && static_cast<unsigned char>(in[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(in[e - 1]) <= ' ') --e;
  std::string_view s = in.substr(b, e - b);
  if (s.empty()) return std::nullopt;
  size_t i = 0;
  int sign = 1;
  if (s[0] == '-' || s[0] == '+') {
    sign = s[0] == '-' ? -1 : 1;
    ++i;
  }
  int64_t y = 0, mo = 1, d = 1, h = 0, mi = 0, sec = 0, ms = 0;
  if (!digitsAt(s, i, 4, 6, y)) return std::nullopt;
  y *= sign;
  std::optional<int32_t> zone;
  auto tail = [&](size_t at) -> bool {
    // Optional zone after the time: Z, +hh:mm, UTC, " UTC", [region] not supported.
    std::string_view z = s.substr(at);
    while (!z.empty() && z[0] == ' ') z.remove_prefix(1);
    if (z.empty()) return true;
    auto off = parseZoneOffset(z);
    if (!off.ok()) return false;
    zone = *off;
    return true;
  };
  if (i < s.size() && s[i] == '-') {
    ++i;
    if (!digitsAt(s, i, 1, 2, mo)) return std::nullopt;
    if (i < s.size() && s[i] == '-') {
      ++i;
      if (!digitsAt(s, i, 1, 2, d)) return std::nullopt;
      if (i < s.size() && (s[i] == ' ' || s[i] == 'T')) {
        ++i;
        if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
          if (!digitsAt(s, i, 1, 2, h)) return std::nullopt;
          if (i >= s.size() || s[i] != ':') return std::nullopt;
          ++i;
          if (!digitsAt(s, i, 1, 2, mi)) return std::nullopt;
          if (i < s.size() && s[i] == ':') {
            ++i;
            if (!digitsAt(s, i, 1, 2, sec)) return std::nullopt;
            if (i < s.size() && s[i] == '.') {
              ++i;
              size_t start = i;
              int64_t frac = 0;
              if (!digitsAt(s, i, 0, 9, frac)) return std::nullopt;
              size_t n = i - start;
              // Keep milliseconds.
              while (n > 3) {
                frac /= 10;
                --n;
              }
              while (n < 3) {
                frac *= 10;
                ++n;
              }
              ms = frac;
            }
          }
        }
        if (!tail(i)) return std::nullopt;
      } else if (i != s.size()) {
        return std::nullopt;
      }
    } else if (i != s.size()) {
      return std::nullopt;
    }
  } else if (i != s.size()) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return std::nullopt;
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[mo - 1] || (mo == 2 && d == 29 && !leap)) return std::nullopt;
  int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  int64_t local = days * 86400000 + ((h * 60 + mi) * 60 + sec) * 1000 + ms;
  if (zone) return local - int64_t{*zone} * 1000;
  return sessionZone.toUtc(local);
}

std::string javaDoubleString(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  // d.dddde[+-]XX
  size_t epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp = std::atoi(sci.c_str() + epos + 1);
  bool neg = mant[0] == '-';
  if (neg) mant.erase(0, 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  std::string out;
  double a = std::fabs(d);
  if (a >= 1e-3 && a < 1e7) {
    if (exp >= 0) {
      std::string intPart = digits.substr(0, std::min<size_t>(digits.size(), exp + 1));
      while (static_cast<int>(intPart.size()) < exp + 1) intPart += '0';
      std::string frac = static_cast<int>(digits.size()) > exp + 1 ? digits.substr(exp + 1) : "0";
      out = intPart + "." + frac;
    } else {
      out = "0." + std::string(-exp - 1, '0') + digits;
    }
  } else {
    std::string frac = digits.size() > 1 ? digits.substr(1) : "0";
    out = digits.substr(0, 1) + "." + frac + "E" + std::to_string(exp);
  }
  return neg ? "-" + out : out;
}

bool SqlConf::isSqlConf(std::string_view key) {
  return key == "spark.sql.ansi.enabled" || key == "spark.sql.session.timeZone" ||
         key == "spark.sql.caseSensitive";
}

Status SqlConf::set(std::string_view key, std::string_view value) {
  auto boolean = [&](bool& out) -> Status {
    std::string v(value);
    for (auto& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (v == "true" || v == "false") {
      out = v == "true";
      return Status::OK();
    }
    return sparkError(Status::Code::kInvalidArgument, "INVALID_CONF_VALUE",
                      {{"confValue", std::string(value)}, {"confName", std::string(key)}},
                      "expected true or false");
  };
  if (key == "spark.sql.ansi.enabled") return boolean(ansi);
  if (key == "spark.sql.caseSensitive") return boolean(caseSensitive);
  if (key == "spark.sql.session.timeZone") {
    auto offset = parseZoneOffset(value);
    if (!offset.ok()) {
      if (!isRegionZoneId(value)) return offset.status();
      zone = nullptr;  // resolveTimeZone reads its rules
    } else {
      zone = TimeZone::fixed(std::string(value), *offset);
    }
    timeZone = std::string(value);
    return Status::OK();
  }
  return Status::InvalidArgument(fmt::format("unknown SQL setting '{}'", key));
}

Status SqlConf::resolveTimeZone(TimeZoneSource* source) {
  if (zone) return Status::OK();
  auto bad = [&](std::string_view why) {
    return sparkError(Status::Code::kInvalidArgument, "INVALID_CONF_VALUE.TIME_ZONE",
                      {{"confValue", timeZone}, {"confName", "spark.sql.session.timeZone"}}, why);
  };
  if (source == nullptr) return bad("this run has no time zone database (Env::timeZones)");
  auto bytes = source->tzif(timeZone);
  if (!bytes.ok()) return bad(bytes.status().message());
  auto rules = TimeZone::fromTzif(timeZone, *bytes);
  if (!rules.ok()) return bad(rules.status().message());
  zone = *rules;
  return Status::OK();
}

const TimeZone& SqlConf::zoneRules() const {
  static const std::shared_ptr<const TimeZone> kUtc = TimeZone::fixed("UTC", 0);
  return zone ? *zone : *kUtc;
}

}  // namespace streamsim::expr
