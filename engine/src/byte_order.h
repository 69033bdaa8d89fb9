// Private to the engine: fixed-width integers loaded from bytes in a stated byte order, the one
// place for them (the XXH32/XXH64 hashes and Spark's UnsafeRow are little-endian; Spark's
// state-file framing, Hadoop's .crc files and the state stores' key order are big-endian).
// memcpy-based, so unaligned input is fine and compilers emit a single load.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace streamsim::detail {

inline uint32_t loadLittle32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}

inline uint64_t loadLittle64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

inline uint32_t loadBig32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap32(v);
  return v;
}

inline uint64_t loadBig64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  return v;
}

}  // namespace streamsim::detail
