#include "streamsim/sim/virtual_clock.h"

#include <fmt/format.h>

namespace streamsim::sim {

std::string SeededIdGenerator::newUuid() {
  auto next = [this] {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  uint64_t a = next(), b = next();
  return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff,
                     a & 0xfff, 0x8000 | (b >> 48 & 0x3fff), b & 0xffffffffffffULL);
}

}  // namespace streamsim::sim
