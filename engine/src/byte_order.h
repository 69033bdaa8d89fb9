// Private to the engine: fixed-width integers loaded from (and stored as) bytes in a stated byte
// order, the one place for them (the XXH32/XXH64 hashes, Spark's UnsafeRow and Parquet are little-endian; Spark's
// state-file framing, Hadoop's .crc files and the state stores' key order are big-endian).
// memcpy-based, so unaligned input is fine and compilers emit a single load.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

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

// `v` appended to `out` as 4 / 8 little-endian bytes (Parquet's PLAIN values and framing).
inline void storeLittle32(uint32_t v, std::string& out) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  char b[4];
  std::memcpy(b, &v, 4);
  out.append(b, 4);
}

inline void storeLittle64(uint64_t v, std::string& out) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  char b[8];
  std::memcpy(b, &v, 8);
  out.append(b, 8);
}

// `v` appended to `out` as 8 big-endian bytes (a state value's long: the streaming limit's count).
inline void storeBig64(uint64_t v, std::string& out) {
  if constexpr (std::endian::native == std::endian::little) v = __builtin_bswap64(v);
  char b[8];
  std::memcpy(b, &v, 8);
  out.append(b, 8);
}

}  // namespace streamsim::detail
