// java.util.Base64's encoder and MIME decoder (base64.h).
#include "streamsim/base64.h"

#include <fmt/format.h>

namespace streamsim {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// -1: not in the alphabet; -2: the padding '='.
int digit(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  if (c == '=') return -2;
  return -1;
}

}  // namespace

std::string base64Encode(std::string_view bytes, bool mimeLines) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4 + bytes.size() / 57 * 2);
  size_t lineChars = 0;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    if (mimeLines && lineChars == 76) {
      out += "\r\n";
      lineChars = 0;
    }
    uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    size_t left = bytes.size() - i;
    if (left > 1) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (left > 2) n |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += left > 1 ? kAlphabet[(n >> 6) & 63] : '=';
    out += left > 2 ? kAlphabet[n & 63] : '=';
    lineChars += 4;
  }
  return out;
}

Result<std::string> base64DecodeMime(std::string_view s) {
  std::string out;
  out.reserve(s.size() / 4 * 3);
  uint32_t bits = 0;
  int shiftTo = 18;
  size_t i = 0;
  while (i < s.size()) {
    int b = digit(static_cast<unsigned char>(s[i++]));
    if (b < 0) {
      if (b == -2) {
        // "=" with nothing before it in the unit, or "xx=" not followed by a second '='.
        if ((shiftTo == 6 && (i == s.size() || s[i++] != '=')) || shiftTo == 18)
          return Status::InvalidArgument("java.lang.IllegalArgumentException: Input byte array has wrong 4-byte ending unit");
        break;
      }
      continue;  // MIME: anything outside the alphabet is skipped
    }
    bits |= static_cast<uint32_t>(b) << shiftTo;
    shiftTo -= 6;
    if (shiftTo < 0) {
      out += static_cast<char>((bits >> 16) & 0xff);
      out += static_cast<char>((bits >> 8) & 0xff);
      out += static_cast<char>(bits & 0xff);
      shiftTo = 18;
      bits = 0;
    }
  }
  if (shiftTo == 6) {
    out += static_cast<char>((bits >> 16) & 0xff);
  } else if (shiftTo == 0) {
    out += static_cast<char>((bits >> 16) & 0xff);
    out += static_cast<char>((bits >> 8) & 0xff);
  } else if (shiftTo == 12) {
    return Status::InvalidArgument("java.lang.IllegalArgumentException: Last unit does not have enough valid bits");
  }
  while (i < s.size()) {
    if (digit(static_cast<unsigned char>(s[i++])) < 0) continue;
    return Status::InvalidArgument(
        fmt::format("java.lang.IllegalArgumentException: Input byte array has incorrect ending byte at {}", i));
  }
  return out;
}

}  // namespace streamsim
