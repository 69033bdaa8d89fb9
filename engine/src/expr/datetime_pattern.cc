// Spark's datetime patterns (datetime_pattern.h), after DateTimeFormatterHelper /
// TimestampFormatter: the letters y M d H h m s S a E Z X x (and their kin), 'quoted' text.
#include "expr/datetime_pattern.h"

#include <fmt/format.h>

#include "expr/bound.h"

namespace streamsim::expr::datetime {


int64_t floorDivMs(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Civil toCivil(TimeMs t, const TimeZone& zone) {
  int64_t local = zone.toLocal(t);
  int64_t days = floorDivMs(local, 86400000);
  int64_t msOfDay = local - days * 86400000;
  Civil c{};
  civilFromDays(days, c.y, c.mo, c.d);
  c.h = msOfDay / 3600000;
  c.mi = (msOfDay / 60000) % 60;
  c.s = (msOfDay / 1000) % 60;
  c.ms = msOfDay % 1000;
  int64_t w = (days + 3) % 7;  // 1970-01-01 was a Thursday (ISO 4)
  if (w < 0) w += 7;
  c.dow = static_cast<int>(w) + 1;
  c.dayOfYear = days - daysFromCivil(c.y, 1, 1) + 1;
  return c;
}

int64_t localMs(int64_t y, unsigned mo, unsigned d, int64_t h, int64_t mi, int64_t s, int64_t ms) {
  return (daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s) * 1000 + ms;
}

// The instant of a local date-time in `zone` (ZonedDateTime.of: a gap moves later, an overlap
// takes the earlier offset).
TimeMs fromCivil(int64_t y, unsigned mo, unsigned d, int64_t h, int64_t mi, int64_t s, int64_t ms, const TimeZone& zone) {
  return zone.toUtc(localMs(y, mo, d, h, mi, s, ms));
}

const char* const kMonths[12] = {"January", "February", "March", "April", "May", "June", "July",
                         "August", "September", "October", "November", "December"};
const char* const kDays[7] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};


Result<std::vector<PatternPart>> parsePattern(std::string_view p) {
  std::vector<PatternPart> out;
  for (size_t i = 0; i < p.size();) {
    char c = p[i];
    if (c == '\'') {
      size_t j = i + 1;
      std::string lit;
      while (j < p.size()) {
        if (p[j] == '\'') {
          if (j + 1 < p.size() && p[j + 1] == '\'') {
            lit += '\'';
            j += 2;
            continue;
          }
          break;
        }
        lit += p[j++];
      }
      if (j == i + 1 && j < p.size()) lit = "'";
      out.push_back({0, 0, lit});
      i = j + 1;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < p.size() && p[j] == c) ++j;
      if (std::string_view("yMdHhmsSaEZXxLuDkKVzGQqwWe").find(c) == std::string_view::npos)
        return sparkError(Status::Code::kInvalidArgument, "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                          {{"c", std::string(1, c)}, {"pattern", std::string(p)}});
      out.push_back({c, static_cast<int>(j - i), {}});
      i = j;
    } else {
      out.push_back({0, 0, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

std::string offsetText(int32_t off, char letter, int count) {
  if (off == 0 && (letter == 'X')) return "Z";
  int a = off < 0 ? -off : off;
  char sign = off < 0 ? '-' : '+';
  int h = a / 3600, m = (a / 60) % 60;
  if (letter == 'Z') return fmt::format("{}{:02}{:02}", sign, h, m);
  if (count == 1) return m ? fmt::format("{}{:02}{:02}", sign, h, m) : fmt::format("{}{:02}", sign, h);
  if (count == 2) return fmt::format("{}{:02}{:02}", sign, h, m);
  return fmt::format("{}{:02}:{:02}", sign, h, m);
}

std::string formatWith(const std::vector<PatternPart>& parts, TimeMs t, const TimeZone& zone) {
  Civil c = toCivil(t, zone);
  const int32_t offset = zone.offsetAt(t);
  std::string out;
  for (const auto& p : parts) {
    int n = p.count;
    switch (p.letter) {
      case 0: out += p.text; break;
      case 'y':
      case 'u': out += n == 2 ? fmt::format("{:02}", ((c.y % 100) + 100) % 100) : fmt::format("{:0{}}", c.y, n); break;
      case 'M':
      case 'L':
        out += n >= 4 ? kMonths[c.mo - 1] : n == 3 ? std::string(kMonths[c.mo - 1]).substr(0, 3) : fmt::format("{:0{}}", c.mo, n);
        break;
      case 'd': out += fmt::format("{:0{}}", c.d, n); break;
      case 'D': out += fmt::format("{:0{}}", c.dayOfYear, n); break;
      case 'H': out += fmt::format("{:0{}}", c.h, n); break;
      case 'k': out += fmt::format("{:0{}}", c.h == 0 ? 24 : c.h, n); break;
      case 'h': out += fmt::format("{:0{}}", c.h % 12 == 0 ? 12 : c.h % 12, n); break;
      case 'K': out += fmt::format("{:0{}}", c.h % 12, n); break;
      case 'm': out += fmt::format("{:0{}}", c.mi, n); break;
      case 's': out += fmt::format("{:0{}}", c.s, n); break;
      case 'S': {
        std::string f = fmt::format("{:03}", c.ms);
        while (static_cast<int>(f.size()) < n) f += '0';
        out += f.substr(0, n);
        break;
      }
      case 'a': out += c.h < 12 ? "AM" : "PM"; break;
      case 'E': out += n >= 4 ? kDays[c.dow - 1] : std::string(kDays[c.dow - 1]).substr(0, 3); break;
      case 'Z':
      case 'X':
      case 'x': out += offsetText(offset, p.letter, n); break;
      case 'V':  // VV: the zone id
        out += zone.isFixed() ? (offset == 0 ? std::string("UTC") : offsetText(offset, 'X', 3)) : zone.id();
        break;
      case 'z':  // the short name (a region's abbreviation in force: PST, PDT)
        out += zone.isFixed() ? (offset == 0 ? std::string("UTC") : offsetText(offset, 'X', 3)) : zone.abbreviationAt(t);
        break;
      case 'Q':
      case 'q': out += fmt::format("{}", (c.mo - 1) / 3 + 1); break;
      default: out += std::string(n, p.letter);
    }
  }
  return out;
}

// Parses `s` with the pattern (Spark's strict-enough subset): nullopt when it does not match.
std::optional<TimeMs> parseWith(const std::vector<PatternPart>& parts, std::string_view s, const TimeZone& sessionZone) {
  int64_t y = 1970, mo = 1, d = 1, h = 0, mi = 0, sec = 0, ms = 0;
  bool pm = false, hasAmPm = false, hour12 = false;
  std::optional<int32_t> zone;
  size_t i = 0;
  auto num = [&](int minDigits, int maxDigits, int64_t& out) {
    size_t start = i;
    out = 0;
    while (i < s.size() && static_cast<int>(i - start) < maxDigits && std::isdigit(static_cast<unsigned char>(s[i])))
      out = out * 10 + (s[i++] - '0');
    return static_cast<int>(i - start) >= minDigits;
  };
  for (size_t k = 0; k < parts.size(); ++k) {
    const auto& p = parts[k];
    // Adjacent value: a fixed width when the next part is a letter too (yyyyMMdd).
    bool adjacent = k + 1 < parts.size() && parts[k + 1].letter != 0;
    int maxW = adjacent ? p.count : 9;
    switch (p.letter) {
      case 0:
        if (s.substr(i, p.text.size()) != p.text) return std::nullopt;
        i += p.text.size();
        break;
      case 'y':
      case 'u':
        if (p.count == 2) {
          if (!num(2, 2, y)) return std::nullopt;
          y += 2000;
        } else if (!num(p.count, adjacent ? p.count : 6, y)) {
          return std::nullopt;
        }
        break;
      case 'M':
      case 'L':
        if (p.count >= 3) {
          bool found = false;
          for (int m = 0; m < 12; ++m) {
            std::string full = kMonths[m];
            std::string name = p.count == 3 ? full.substr(0, 3) : full;
            if (s.size() - i >= name.size()) {
              std::string got(s.substr(i, name.size()));
              bool eq = true;
              for (size_t q = 0; q < name.size(); ++q)
                eq = eq && std::tolower(static_cast<unsigned char>(got[q])) == std::tolower(static_cast<unsigned char>(name[q]));
              if (eq) {
                mo = m + 1;
                i += name.size();
                found = true;
                break;
              }
            }
          }
          if (!found) return std::nullopt;
        } else if (!num(p.count, std::max(2, std::min(maxW, 2)), mo)) {
          return std::nullopt;
        }
        break;
      case 'd':
        if (!num(p.count, std::max(p.count, std::min(maxW, 2)), d)) return std::nullopt;
        break;
      case 'H':
      case 'k':
        if (!num(p.count, std::max(p.count, std::min(maxW, 2)), h)) return std::nullopt;
        break;
      case 'h':
      case 'K':
        if (!num(p.count, std::max(p.count, std::min(maxW, 2)), h)) return std::nullopt;
        hour12 = true;
        break;
      case 'm':
        if (!num(p.count, std::max(p.count, std::min(maxW, 2)), mi)) return std::nullopt;
        break;
      case 's':
        if (!num(p.count, std::max(p.count, std::min(maxW, 2)), sec)) return std::nullopt;
        break;
      case 'S': {
        size_t start = i;
        int64_t f = 0;
        if (!num(1, p.count, f)) return std::nullopt;
        int digits = static_cast<int>(i - start);
        while (digits > 3) {
          f /= 10;
          --digits;
        }
        while (digits < 3) {
          f *= 10;
          ++digits;
        }
        ms = f;
        break;
      }
      case 'a': {
        std::string ap(s.substr(i, 2));
        for (auto& ch : ap) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        if (ap != "AM" && ap != "PM") return std::nullopt;
        pm = ap == "PM";
        hasAmPm = true;
        i += 2;
        break;
      }
      case 'E': {
        bool found = false;
        for (auto day : kDays) {
          std::string name = p.count >= 4 ? day : std::string(day).substr(0, 3);
          if (s.substr(i, name.size()) == name) {
            i += name.size();
            found = true;
            break;
          }
        }
        if (!found) return std::nullopt;
        break;
      }
      case 'X':
      case 'x':
      case 'Z':
      case 'V':
      case 'z': {
        size_t j = i;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '+' || s[j] == '-' || s[j] == ':')) ++j;
        auto off = parseZoneOffset(s.substr(i, j - i));
        if (!off.ok()) return std::nullopt;
        zone = *off;
        i = j;
        break;
      }
      default: return std::nullopt;
    }
  }
  if (i != s.size()) return std::nullopt;
  if (hour12) {
    if (h < 1 || h > 12) return std::nullopt;
    h = h % 12 + (hasAmPm && pm ? 12 : 0);
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59) return std::nullopt;
  static const int kMonthDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kMonthDays[mo - 1] || (mo == 2 && d == 29 && !leap)) return std::nullopt;
  int64_t local = localMs(y, static_cast<unsigned>(mo), static_cast<unsigned>(d), h, mi, sec, ms);
  if (zone) return local - int64_t{*zone} * 1000;
  return sessionZone.toUtc(local);
}

}  // namespace streamsim::expr::datetime
