// The simulator's Scheduler for async processors (DESIGN.md §5a, scheduler.h): the sequential
// order except at the context switches of a fault plan (SwitchFault), which the plan generator
// draws from the run seed's "switches" stream. So an interleaving is part of the fault plan:
// replayed exactly from its JSON and shrunk like any fault (fewer switches). Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "streamsim/scheduler.h"
#include "streamsim/sim/fault_plan.h"

namespace streamsim::sim {

class PlannedScheduler final : public Scheduler {
 public:
  explicit PlannedScheduler(const std::vector<SwitchFault>& switches);
  size_t pick(const SchedulingPoint& at, std::span<const SchedulingCandidate> ready) override;
  // Switches taken so far (every attempt counts).
  int64_t taken() const { return taken_; }
  // Times the switch at (batch, partition, step) was taken (the fault accounting's "fired").
  int64_t takenAt(int64_t batch, int partition, int64_t step) const {
    auto it = taken_at_.find(std::make_tuple(batch, partition, step));
    return it == taken_at_.end() ? 0 : it->second;
  }
  // Every place a switch could have been taken so far, sorted by (batch, partition, step)
  // without repeats (a re-run attempt meets the same ones): a fault-free run's choices are the
  // targets of generated plans (FaultKnobs::switchTargets).
  std::vector<SwitchTarget> choices() const { return {choices_.begin(), choices_.end()}; }

 private:
  using Key = std::tuple<int64_t, int, int64_t>;  // (batch, partition, step)
  std::map<Key, int> picks_;                       // -> pick
  std::map<Key, int64_t> taken_at_;
  std::set<SwitchTarget> choices_;
  int64_t taken_ = 0;
};

}  // namespace streamsim::sim
