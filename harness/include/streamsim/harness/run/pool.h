// The sweeps' one worker pool and one shard rule: seed s belongs to shard s % n; a pool of J
// threads takes the next index until none is left (each item independent, so results do not
// depend on J). Used by the scenario sweeps (the CLI) and the generated-workload sweeps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace streamsim::harness {

// Seeds [first, first+n) that belong to shard `shardIndex` of `shardCount` (seed % count == index).
std::vector<uint64_t> shardSeeds(uint64_t first, int n, int shardIndex, int shardCount);

// Calls fn(i) for every i in [0, n) on `jobs` threads (the caller's among them).
void forEachIndex(size_t n, int jobs, const std::function<void(size_t)>& fn);

}  // namespace streamsim::harness
