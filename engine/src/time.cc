#include "streamsim/time.h"

#include <cctype>
#include <charconv>

namespace streamsim {
namespace {

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's algorithm).
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp + (mp < 10 ? 3 : -9);
  y += m <= 2;
}

bool readInt(std::string_view s, size_t& pos, size_t digits, int64_t& out) {
  if (pos + digits > s.size()) return false;
  out = 0;
  for (size_t i = 0; i < digits; ++i) {
    char c = s[pos + i];
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out = out * 10 + (c - '0');
  }
  pos += digits;
  return true;
}

// yyyy-MM-ddTHH:mm:ss[.SSS]Z at fixed offsets: the layout of nearly every timestamp read (the
// one formatTimestamp writes), without the general reader's per-field bounds checks and calls.
// False for anything else, which the general reader then takes (and words the error for); true
// only where that reader would return the same value.
bool parseFixedLayout(std::string_view s, TimeMs& out) {
  if (s.size() != 20 && s.size() != 24) return false;
  if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s.back() != 'Z')
    return false;
  if (s.size() == 24 && s[19] != '.') return false;
  // Straight-line digit reads (a loop per field was most of this function's instructions): a
  // byte outside '0'..'9' gives a value above 9, checked once for all of them.
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  auto dig = [p](size_t i) { return static_cast<unsigned>(p[i]) - static_cast<unsigned>('0'); };
  const unsigned y0 = dig(0), y1 = dig(1), y2 = dig(2), y3 = dig(3), mo0 = dig(5), mo1 = dig(6),
                 d0 = dig(8), d1 = dig(9), h0 = dig(11), h1 = dig(12), mi0 = dig(14), mi1 = dig(15),
                 s0 = dig(17), s1 = dig(18);
  const bool frac = s.size() == 24;
  const unsigned f0 = frac ? dig(20) : 0, f1 = frac ? dig(21) : 0, f2 = frac ? dig(22) : 0;
  if ((y0 > 9) | (y1 > 9) | (y2 > 9) | (y3 > 9) | (mo0 > 9) | (mo1 > 9) | (d0 > 9) | (d1 > 9) |
      (h0 > 9) | (h1 > 9) | (mi0 > 9) | (mi1 > 9) | (s0 > 9) | (s1 > 9) | (f0 > 9) | (f1 > 9) | (f2 > 9))
    return false;
  const int64_t y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  const int64_t mo = mo0 * 10 + mo1, d = d0 * 10 + d1, h = h0 * 10 + h1;
  const int64_t mi = mi0 * 10 + mi1, sec = s0 * 10 + s1, ms = f0 * 100 + f1 * 10 + f2;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return false;
  int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  out = ((days * 24 + h) * 60 + mi) * 60 * 1000 + sec * 1000 + ms;
  return true;
}

}  // namespace

Result<TimeMs> parseTimestamp(std::string_view text) {
  if (TimeMs t; parseFixedLayout(text, t)) return t;
  auto bad = [&] {
    return Status::InvalidArgument(fmt::format(
        "bad timestamp '{}': expected an ISO-8601 UTC time like 2026-01-01T00:00:00Z", text));
  };
  size_t pos = 0;
  int64_t y, mo, d, h = 0, mi = 0, sec = 0, ms = 0;
  if (!readInt(text, pos, 4, y) || pos >= text.size() || text[pos++] != '-') return bad();
  if (!readInt(text, pos, 2, mo) || pos >= text.size() || text[pos++] != '-') return bad();
  if (!readInt(text, pos, 2, d)) return bad();
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return bad();
  if (pos < text.size() && (text[pos] == 'T' || text[pos] == ' ')) {
    ++pos;
    if (!readInt(text, pos, 2, h) || pos >= text.size() || text[pos++] != ':') return bad();
    if (!readInt(text, pos, 2, mi)) return bad();
    if (pos < text.size() && text[pos] == ':') {
      ++pos;
      if (!readInt(text, pos, 2, sec)) return bad();
      if (pos < text.size() && text[pos] == '.') {
        ++pos;
        size_t start = pos;
        int64_t frac = 0;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
          if (pos - start < 3) frac = frac * 10 + (text[pos] - '0');
          ++pos;
        }
        size_t n = pos - start;
        if (n == 0) return bad();
        for (size_t i = n; i < 3; ++i) frac *= 10;
        ms = frac;
      }
    }
    if (h > 23 || mi > 59 || sec > 60) return bad();
  }
  if (pos < text.size() && text[pos] == 'Z') ++pos;
  else if (pos + 6 == text.size() && (text.substr(pos) == "+00:00")) pos += 6;
  if (pos != text.size()) return bad();
  int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  return ((days * 24 + h) * 60 + mi) * 60 * 1000 + sec * 1000 + ms;
}

void appendTimestamp(std::string& out, TimeMs t) {
  int64_t days = t >= 0 ? t / 86400000 : -((-t + 86400000 - 1) / 86400000);
  int64_t rem = t - days * 86400000;
  int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  int64_t h = rem / 3600000, mi = rem / 60000 % 60, s = rem / 1000 % 60, ms = rem % 1000;
  if (y >= 0 && y <= 9999) {
    // The common case written digit by digit: fmt::format was most of the cost of generating a
    // sweep workload's JSON lines. Same text as the fmt calls below.
    char buf[24];
    auto put = [&buf](size_t at, int64_t v, int width) {
      for (int i = width - 1; i >= 0; --i, v /= 10) buf[at + static_cast<size_t>(i)] = static_cast<char>('0' + v % 10);
    };
    put(0, y, 4);
    buf[4] = '-';
    put(5, m, 2);
    buf[7] = '-';
    put(8, d, 2);
    buf[10] = 'T';
    put(11, h, 2);
    buf[13] = ':';
    put(14, mi, 2);
    buf[16] = ':';
    put(17, s, 2);
    size_t n = 19;
    if (ms != 0) {
      buf[n++] = '.';
      put(n, ms, 3);
      n += 3;
    }
    buf[n++] = 'Z';
    out.append(buf, n);
    return;
  }
  if (ms == 0) {
    out += fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, m, d, h, mi, s);
  } else {
    out += fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", y, m, d, h, mi, s, ms);
  }
}

std::string formatTimestamp(TimeMs t) {
  std::string out;
  appendTimestamp(out, t);
  return out;
}

Result<DurationMs> parseDuration(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument(fmt::format(
        "bad duration '{}': expected a number with a unit, like 250ms, 10s, 10m, 2h, 7d", text));
  };
  size_t pos = 0;
  DurationMs total = 0;
  bool any = false;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == ' ') ++pos;
    if (pos >= text.size()) break;
    int64_t n = 0;
    auto [p, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), n);
    if (ec != std::errc()) return bad();
    pos = static_cast<size_t>(p - text.data());
    while (pos < text.size() && text[pos] == ' ') ++pos;
    size_t start = pos;
    while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) ++pos;
    std::string unit(text.substr(start, pos - start));
    int64_t mult;
    if (unit == "ms" || unit == "millisecond" || unit == "milliseconds") mult = 1;
    else if (unit == "s" || unit == "sec" || unit == "second" || unit == "seconds") mult = 1000;
    else if (unit == "m" || unit == "min" || unit == "minute" || unit == "minutes") mult = 60000;
    else if (unit == "h" || unit == "hour" || unit == "hours") mult = 3600000;
    else if (unit == "d" || unit == "day" || unit == "days") mult = 86400000;
    else if (unit.empty() && !any && pos == text.size()) mult = 1;  // a bare number is ms
    else return bad();
    total += n * mult;
    any = true;
  }
  if (!any) return bad();
  return total;
}

std::string formatDuration(DurationMs d) {
  if (d != 0 && d % 86400000 == 0) return fmt::format("{}d", d / 86400000);
  if (d != 0 && d % 3600000 == 0) return fmt::format("{}h", d / 3600000);
  if (d != 0 && d % 60000 == 0) return fmt::format("{}m", d / 60000);
  if (d != 0 && d % 1000 == 0) return fmt::format("{}s", d / 1000);
  return fmt::format("{}ms", d);
}

}  // namespace streamsim
