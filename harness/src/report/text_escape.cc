#include "streamsim/harness/report/text_escape.h"

#include <cstdint>

#include <fmt/format.h>

namespace streamsim::harness {
namespace {

// The code point of the well-formed UTF-8 sequence at s[i] and its length, or length 0 when the
// bytes there are not one (a stray continuation byte, a truncated, overlong or surrogate form).
struct CodePoint {
  uint32_t cp = 0;
  size_t len = 0;
};

CodePoint decodeAt(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return {c, 1};
  size_t len = 0;
  uint32_t cp = 0, min = 0;
  if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F, min = 0x80;
  else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F, min = 0x800;
  else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07, min = 0x10000;
  else return {};
  if (i + len > s.size()) return {};
  for (size_t k = 1; k < len; ++k) {
    if ((b(k) & 0xC0) != 0x80) return {};
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {};
  return {cp, len};
}

}  // namespace

std::string shownForTerminal(std::string_view s, bool keepLineBreaks) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const CodePoint p = decodeAt(s, i);
    if (p.len == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    const uint32_t cp = p.cp;
    if (keepLineBreaks && (cp == '\n' || cp == '\t')) {
      out += static_cast<char>(cp);
    } else if (cp < 0x20 || cp == 0x7F) {
      out += fmt::format("\\x{:02x}", cp);
    } else if (cp >= 0x80 && cp <= 0x9F) {
      out += fmt::format("\\u{:04x}", cp);
    } else {
      out.append(s.substr(i, p.len));
    }
    i += p.len;
  }
  return out;
}

std::string xmlText(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const CodePoint p = decodeAt(s, i);
    if (p.len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
      continue;
    }
    const uint32_t cp = p.cp;
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\t':
      case '\n':
      case '\r': out += static_cast<char>(cp); break;
      default:
        if (cp < 0x20) out += fmt::format("\\x{:02x}", cp);
        else if (cp == 0xFFFE || cp == 0xFFFF) out += fmt::format("\\u{:04x}", cp);
        else out.append(s.substr(i, p.len));
    }
    i += p.len;
  }
  return out;
}

}  // namespace streamsim::harness
