#include "streamsim/sim/virtual_clock.h"

namespace streamsim::sim {

std::string SeededIdGenerator::newUuid() {
  auto next = [this] {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  uint64_t a = next(), b = next();
  // Same text as fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", ...), written digit by
  // digit: a temp file name per checkpoint write takes one, and fmt was most of its cost.
  std::string out(36, '-');
  auto hex = [&out](size_t pos, int digits, uint64_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i, v >>= 4) out[pos + i] = kDigits[v & 0xf];
  };
  hex(0, 8, a >> 32);
  hex(9, 4, (a >> 16) & 0xffff);
  out[14] = '4';
  hex(15, 3, a & 0xfff);
  hex(19, 4, 0x8000 | (b >> 48 & 0x3fff));
  hex(24, 12, b & 0xffffffffffffULL);
  return out;
}

}  // namespace streamsim::sim
