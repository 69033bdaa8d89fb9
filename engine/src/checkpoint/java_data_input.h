// Reads what a Java DataOutputStream wrote (big-endian ints and shorts, writeUTF's 2-byte length
// + bytes): Spark's state schema files and state store changelogs. Modified UTF-8 is taken as
// the bytes it is (Spark's strings here are ASCII JSON and ids). A view; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace streamsim::detail {

struct JavaDataInput {
  std::string_view data;
  size_t pos = 0;

  size_t remaining() const { return data.size() - pos; }
  bool readByte(uint8_t& out) {
    if (remaining() < 1) return false;
    out = static_cast<uint8_t>(data[pos++]);
    return true;
  }
  bool readShort(int16_t& out) {
    if (remaining() < 2) return false;
    out = static_cast<int16_t>((static_cast<unsigned char>(data[pos]) << 8) |
                               static_cast<unsigned char>(data[pos + 1]));
    pos += 2;
    return true;
  }
  bool readInt(int32_t& out) {
    if (remaining() < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(data[pos + i]);
    out = static_cast<int32_t>(v);
    pos += 4;
    return true;
  }
  bool readBytes(size_t n, std::string& out) {
    if (remaining() < n) return false;
    out.assign(data.substr(pos, n));
    pos += n;
    return true;
  }
  bool readUtf(std::string& out) {
    if (remaining() < 2) return false;
    size_t n = (static_cast<unsigned char>(data[pos]) << 8) | static_cast<unsigned char>(data[pos + 1]);
    if (remaining() < 2 + n) return false;
    pos += 2;
    return readBytes(n, out);
  }
};

}  // namespace streamsim::detail
