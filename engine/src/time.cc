#include "streamsim/time.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "byte_order.h"

namespace streamsim {

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

namespace {

bool isLeapYear(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

// The days of month m (1..12) of year y: a date past them (2026-02-31) does not exist, and
// Spark's reader rejects it rather than rolling it into the next month.
int64_t daysInMonth(int64_t y, int64_t m) {
  static constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && isLeapYear(y) ? 29 : kDays[m - 1];
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

// Eight bytes of `p` as a little-endian word (byte i of the text is bits 8i..8i+7).
using detail::loadLittle64;

// Eight bytes of the fixed layout checked against their pattern in one go: `expected` holds '0'
// where a digit goes and the separator elsewhere, `digits` 0xff at the digit bytes. Returns the
// bytes XOR `expected`: a digit's value at a digit byte, 0 elsewhere; or ~0 if any byte is off
// (a separator differs, or a digit byte is outside '0'..'9': its high nibble differs from '0''s,
// or its low nibble is over 9 and adding 6 carries into the high nibble — no byte carries into
// the next, since every byte is at most 0x0f by then).
constexpr uint64_t kBad = ~uint64_t{0};
uint64_t digitBytes(uint64_t x, uint64_t expected, uint64_t digits) {
  constexpr uint64_t kHighNibbles = 0xf0f0f0f0f0f0f0f0ULL;
  const uint64_t v = x ^ expected;
  if ((v & ~digits) != 0 || (v & kHighNibbles) != 0 || ((v + 0x0606060606060606ULL) & kHighNibbles) != 0)
    return kBad;
  return v;
}

// The pattern word of eight characters (byte i = text[i]).
constexpr uint64_t pattern(const char (&text)[9]) {
  uint64_t w = 0;
  for (int i = 7; i >= 0; --i) w = (w << 8) | static_cast<unsigned char>(text[i]);
  return w;
}
constexpr uint64_t digitMask(const char (&text)[9]) {
  uint64_t w = 0;
  for (int i = 7; i >= 0; --i) w = (w << 8) | (text[i] == '0' ? 0xffu : 0u);
  return w;
}

// Byte i of (v * 10 + (v >> 8)) is the two-digit number of digit bytes i and i + 1 (each product
// is at most 90 and the sum at most 99: no byte carries into the next).
uint64_t pairs(uint64_t v) { return v * 10 + (v >> 8); }
unsigned byteAt(uint64_t w, int i) { return static_cast<unsigned>((w >> (8 * i)) & 0xff); }

// yyyy-MM-ddTHH:mm:ss[.SSS]Z at fixed offsets: the layout of nearly every timestamp read (the
// one formatTimestamp writes), without the general reader's per-field bounds checks and calls.
// The text is checked and its digits read eight bytes at a time (three words: bytes 0-7, 8-15
// and the last eight). False for anything else, which the general reader then takes (and words
// the error for); true only where that reader would return the same value.
bool parseFixedLayout(std::string_view s, TimeMs& out) {
  const bool frac = s.size() == 24;
  if (s.size() != 20 && !frac) return false;
  const char* p = s.data();
  constexpr uint64_t kDate = pattern("0000-00-"), kDateDigits = digitMask("0000-00-");
  constexpr uint64_t kTime = pattern("00T00:00"), kTimeDigits = digitMask("00T00:00");
  // The last eight bytes: "H:mm:ssZ" (bytes 12-19) or ":ss.SSSZ" (bytes 16-23).
  constexpr uint64_t kEnd = pattern("0:00:00Z"), kEndDigits = digitMask("0:00:00Z");
  constexpr uint64_t kEndFrac = pattern(":00.000Z"), kEndFracDigits = digitMask(":00.000Z");
  const uint64_t date = digitBytes(loadLittle64(p), kDate, kDateDigits);
  const uint64_t time = digitBytes(loadLittle64(p + 8), kTime, kTimeDigits);
  const uint64_t last = frac ? digitBytes(loadLittle64(p + 16), kEndFrac, kEndFracDigits)
                             : digitBytes(loadLittle64(p + 12), kEnd, kEndDigits);
  if (date == kBad || time == kBad || last == kBad) return false;
  const uint64_t dateP = pairs(date), timeP = pairs(time), lastP = pairs(last);
  const int64_t y = byteAt(dateP, 0) * 100 + byteAt(dateP, 2);
  const int64_t mo = byteAt(dateP, 5), d = byteAt(timeP, 0), h = byteAt(timeP, 3), mi = byteAt(timeP, 6);
  const int64_t sec = frac ? byteAt(lastP, 1) : byteAt(lastP, 5);
  const int64_t ms = frac ? byteAt(lastP, 4) * 10 + byteAt(last, 6) : 0;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || sec > 60)
    return false;
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
  // A year past 9999 or before 0 is written with a sign and five or more digits (ISO 8601's
  // expanded years, as appendTimestamp writes them): +10000-01-01T00:00:00Z.
  bool expanded = !text.empty() && (text[0] == '+' || text[0] == '-');
  if (expanded) {
    ++pos;
    size_t digits = 0;
    while (pos + digits < text.size() && std::isdigit(static_cast<unsigned char>(text[pos + digits])))
      ++digits;
    // At most 9 digits: the years of an int64 millisecond count (about 292 million) fit.
    if (digits < 4 || digits > 9 || !readInt(text, pos, digits, y)) return bad();
    if (text[0] == '-') y = -y;
    if (pos >= text.size() || text[pos++] != '-') return bad();
  } else if (!readInt(text, pos, 4, y) || pos >= text.size() || text[pos++] != '-') {
    return bad();
  }
  if (!readInt(text, pos, 2, mo) || pos >= text.size() || text[pos++] != '-') return bad();
  if (!readInt(text, pos, 2, d)) return bad();
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return bad();
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
  // Past int64 milliseconds (about 292 million years either side of 1970): no such time.
  const __int128 t = static_cast<__int128>(days) * 86400000 + ((h * 60 + mi) * 60 + sec) * 1000 + ms;
  if (t < INT64_MIN || t > INT64_MAX) return bad();
  return static_cast<TimeMs>(t);
}

void appendTimestamp(std::string& out, TimeMs t) {
  // Floor division, INT64_MIN included: the remainder is taken from t % 86400000, not from
  // t - days * 86400000 (that product overflows for the lowest day; UBSan, issue 18).
  int64_t rem = t % 86400000;
  int64_t days = t / 86400000;
  if (rem < 0) {
    rem += 86400000;
    --days;
  }
  int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  int64_t h = rem / 3600000, mi = rem / 60000 % 60, s = rem / 1000 % 60, ms = rem % 1000;
  if (y >= 0 && y <= 9999) {
    // The common case written two digits at a time from a table: fmt::format (then a division
    // per digit) was most of the cost of generating a sweep workload's JSON lines. Same text as
    // the fmt calls below.
    static constexpr char kPairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char buf[24];
    auto put2 = [&buf](size_t at, int64_t v) { std::memcpy(buf + at, kPairs + 2 * v, 2); };
    put2(0, y / 100);
    put2(2, y % 100);
    buf[4] = '-';
    put2(5, m);
    buf[7] = '-';
    put2(8, d);
    buf[10] = 'T';
    put2(11, h);
    buf[13] = ':';
    put2(14, mi);
    buf[16] = ':';
    put2(17, s);
    size_t n = 19;
    if (ms != 0) {
      buf[n++] = '.';
      buf[n++] = static_cast<char>('0' + ms / 100);
      put2(n, ms % 100);
      n += 2;
    }
    buf[n++] = 'Z';
    out.append(buf, n);
    return;
  }
  // Expanded years (ISO 8601): a sign and at least five digits, which parseTimestamp reads back.
  const std::string year = fmt::format("{}{:05}", y < 0 ? '-' : '+', y < 0 ? -y : y);
  if (ms == 0) {
    out += fmt::format("{}-{:02}-{:02}T{:02}:{:02}:{:02}Z", year, m, d, h, mi, s);
  } else {
    out += fmt::format("{}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", year, m, d, h, mi, s, ms);
  }
}

std::string formatDate(int64_t days) {
  int64_t y = 0;
  unsigned m = 0, d = 0;
  civilFromDays(days, y, m, d);
  if (y > 9999) return fmt::format("+{}-{:02}-{:02}", y, m, d);
  if (y < 0) return fmt::format("-{:04}-{:02}-{:02}", -y, m, d);
  return fmt::format("{:04}-{:02}-{:02}", y, m, d);
}

std::optional<int64_t> parseDate(std::string_view in) {
  size_t b = 0, e = in.size();
  while (b < e && static_cast<unsigned char>(in[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(in[e - 1]) <= ' ') --e;
  std::string_view s = in.substr(b, e - b);
  size_t i = 0;
  int sign = 1;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) sign = s[i++] == '-' ? -1 : 1;
  int64_t parts[3] = {0, 1, 1};
  for (int k = 0; k < 3; ++k) {
    size_t start = i;
    int64_t v = 0;
    while (i < s.size() && i - start < (k == 0 ? 7u : 2u) && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0');
    size_t n = i - start;
    if (k == 0 ? (n < 4 || n > 7) : (n < 1 || n > 2)) return std::nullopt;
    parts[k] = v;
    if (i == s.size()) break;
    if (k < 2 && s[i] == '-') {
      ++i;
      continue;
    }
    // After the day, ' ' or 'T' may start anything; after the year or month nothing else.
    if (k == 2 && (s[i] == ' ' || s[i] == 'T')) break;
    return std::nullopt;
  }
  int64_t y = sign * parts[0], m = parts[1], d = parts[2];
  if (m < 1 || m > 12 || d < 1) return std::nullopt;
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[m - 1] || (m == 2 && d == 29 && !leap)) return std::nullopt;
  return daysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
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
    // A sum past int64 milliseconds (9999999999999999d) is no duration: the overflow would
    // be undefined behaviour and wrap negative.
    int64_t part;
    if (__builtin_mul_overflow(n, mult, &part) || __builtin_add_overflow(total, part, &total))
      return Status::InvalidArgument(fmt::format(
          "bad duration '{}': longer than the longest duration (about 292 million years)", text));
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
