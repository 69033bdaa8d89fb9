// The limits of `streamsim bench` (docs/performance.md): for each workload, the fastest known
// way to do the same work, measured in the same run as the engine's figure. Each limit checks
// that it did all of the work (a limit that skips work is no limit) and reports its wall time.
// Single-threaded; wall-clock timing lives here (tools/), never in the engine.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace streamsim::bench {

// Wall seconds since `t0` on the steady clock: the one timer of the bench and its limits.
inline double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct LimitRun {
  double seconds = 0;
  std::string error;  // empty when the limit did all of the work
};

// Workload 1's limit: the JSON-lines bytes of `contents` parsed by simdjson's On-Demand API
// (iterate_many over each file), the "key" field counted into an open-addressing flat hash map
// (absl::flat_hash_map). `events` is the number of lines the files hold.
LimitRun simdjsonCountLimit(const std::vector<std::string>& contents, int64_t events);

// The limit workload 1 was measured against before (kept for comparison with older runs):
// nlohmann's SAX parser and std::unordered_map.
LimitRun nlohmannCountLimit(const std::vector<std::string>& contents, int64_t events);

// Workload 3's limit: the same simulated day as a plain loop — one 1 s trigger after another, the
// due timers popped from a binary heap of (time, key) and each re-armed a minute later (the
// rearm processor's whole per-fire work), the span's input rows counted into a flat array.
// `spanInput[h]` lists the keys of the rows landing at the start of span h. Fills `fired`.
struct TimerLoopRun {
  double seconds = 0;
  int64_t fired = 0;
};
TimerLoopRun timerLoopLimit(int64_t keys, const std::vector<std::vector<int64_t>>& spanInput,
                            int64_t triggersPerSpan, int64_t startMs, int64_t rearmMs);

}  // namespace streamsim::bench
