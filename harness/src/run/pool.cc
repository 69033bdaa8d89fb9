// The worker pool and the shard rule (run/pool.h).
#include "streamsim/harness/run/pool.h"

#include <atomic>
#include <thread>

namespace streamsim::harness {

std::vector<uint64_t> shardSeeds(uint64_t first, int n, int shardIndex, int shardCount) {
  std::vector<uint64_t> out;
  const uint64_t count = static_cast<uint64_t>(shardCount < 1 ? 1 : shardCount);
  // Counted by k, not compared with first + n: a range ending at 2^64 - 1 does not wrap.
  for (uint64_t k = 0; k < static_cast<uint64_t>(n < 0 ? 0 : n); ++k)
    if (uint64_t s = first + k; s % count == static_cast<uint64_t>(shardIndex)) out.push_back(s);
  return out;
}

void forEachIndex(size_t n, int jobs, const std::function<void(size_t)>& fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) fn(i);
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
}

}  // namespace streamsim::harness
