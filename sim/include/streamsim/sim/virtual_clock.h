// A clock that moves only when the simulation moves it (DESIGN.md §4). sleepUntil jumps.
// Not thread-safe: one simulated query, one clock.
#pragma once

#include "streamsim/env.h"

namespace streamsim::sim {

class VirtualClock final : public Clock {
 public:
  explicit VirtualClock(TimeMs start = 0) : now_(start) {}
  TimeMs nowMs() override { return now_; }
  void sleepUntil(TimeMs t) override {
    if (t > now_) now_ = t;
  }
  void advance(DurationMs d) { now_ += d; }
  void set(TimeMs t) { now_ = t; }

 private:
  TimeMs now_;
};

// Deterministic UUIDs from a seed (a SplitMix64 stream), so temp-file names and query ids are
// part of the reproducible run.
class SeededIdGenerator final : public IdGenerator {
 public:
  explicit SeededIdGenerator(uint64_t seed) : state_(seed) {}
  std::string newUuid() override;

 private:
  uint64_t state_;
};

}  // namespace streamsim::sim
