// What the bench workloads share (bench_support.h).
#include "bench/bench_support.h"

#include <fmt/format.h>

namespace streamsim::bench {

std::string human(double n) {
  if (n >= 1e9) return fmt::format("{:.2f}G", n / 1e9);
  if (n >= 1e6) return fmt::format("{:.2f}M", n / 1e6);
  if (n >= 1e3) return fmt::format("{:.1f}k", n / 1e3);
  return fmt::format("{:.1f}", n);
}

std::string count(int64_t n) {
  if (n >= 1000000 && n % 1000000 == 0) return fmt::format("{}M", n / 1000000);
  if (n >= 1000 && n % 1000 == 0) return fmt::format("{}k", n / 1000);
  return std::to_string(n);
}

Sizes countSizes(bool quick) {
  if (quick) return {5'000, 20'000, 5, 20};
  return {250'000, 1'000'000, 25, 100};
}

}  // namespace streamsim::bench
