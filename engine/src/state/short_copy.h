// Private to the state stores: copying the short byte strings of state rows (keys and values of
// a few dozen bytes) without a call into the C library's memcpy. On a host where glibc picks its
// AVX-512 copy, every such call left the stores after it stalling: workload 3 (a simulated day of
// timers, four short copies per timer change) ran at half speed (docs/performance.md, issue 38).
// Longer strings go to memcpy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace streamsim::detail {

namespace short_copy {
// Fixed-size copies: the compiler emits plain loads and stores for them.
template <size_t N>
inline void fixed(char* dst, const char* src) {
  char tmp[N];
  std::memcpy(tmp, src, N);
  std::memcpy(dst, tmp, N);
}
}  // namespace short_copy

// Copies n bytes from src to dst (which do not overlap). Up to 64 bytes as two overlapping
// fixed-size halves, as small copies are usually written.
inline void copyShort(char* dst, const char* src, size_t n) {
  using short_copy::fixed;
  if (n <= 16) {
    if (n >= 8) {
      fixed<8>(dst, src);
      fixed<8>(dst + n - 8, src + n - 8);
    } else if (n >= 4) {
      fixed<4>(dst, src);
      fixed<4>(dst + n - 4, src + n - 4);
    } else if (n > 0) {
      dst[0] = src[0];
      dst[n / 2] = src[n / 2];
      dst[n - 1] = src[n - 1];
    }
  } else if (n <= 32) {
    fixed<16>(dst, src);
    fixed<16>(dst + n - 16, src + n - 16);
  } else if (n <= 64) {
    fixed<32>(dst, src);
    fixed<32>(dst + n - 32, src + n - 32);
  } else {
    std::memcpy(dst, src, n);
  }
}

}  // namespace streamsim::detail
