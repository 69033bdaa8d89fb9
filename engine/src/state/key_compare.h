// Private to the state stores: bytewise (unsigned, std::string's) key order, compared 8 bytes
// at a time as big-endian words without a call to memcmp. State keys share long prefixes
// (timer keys: the 8-byte time, then the grouping key's encoding header), which memcmp from
// the start re-reads on every comparison of a tree descent or a sort.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "../byte_order.h"  // engine/src/byte_order.h: tests include this header by its path, without engine/src on theirs

namespace streamsim::detail {

inline uint64_t bigEndianWord(const char* p) { return loadBig64(p); }

// n < 8 bytes as a big-endian word, zero-padded on the right.
inline uint64_t bigEndianTail(const char* p, size_t n) {
  uint64_t x = 0;
  for (size_t i = 0; i < n; ++i) x |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (56 - 8 * i);
  return x;
}

// <0, 0, >0 as a sorts before, equal to, or after b.
inline int bytewiseCompare(std::string_view a, std::string_view b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t wa = bigEndianWord(a.data() + i), wb = bigEndianWord(b.data() + i);
    if (wa != wb) return wa < wb ? -1 : 1;
  }
  uint64_t ta, tb;
  if (i < n && n >= 8) {
    // The last 8 bytes of the common length: two loads instead of a byte loop (timer keys end
    // in a 1-7 byte tail). Their first bytes were compared equal above, so they order nothing.
    ta = bigEndianWord(a.data() + n - 8);
    tb = bigEndianWord(b.data() + n - 8);
  } else {
    ta = bigEndianTail(a.data() + i, n - i);
    tb = bigEndianTail(b.data() + i, n - i);
  }
  if (ta != tb) return ta < tb ? -1 : 1;
  // One is a prefix of the other (the zero padding cannot tell them apart).
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

inline bool bytewiseLess(std::string_view a, std::string_view b) { return bytewiseCompare(a, b) < 0; }

// a == b without a call to memcmp: family names and keys are compared on every state access.
inline bool bytewiseEqual(std::string_view a, std::string_view b) {
  return a.size() == b.size() && bytewiseCompare(a, b) == 0;
}

// std::less<> for string keys in bytewise order; transparent over string_view.
struct BytewiseLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return bytewiseLess(a, b); }
};

}  // namespace streamsim::detail
