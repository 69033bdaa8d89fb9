#include "streamsim/sim/planned_scheduler.h"

namespace streamsim::sim {

PlannedScheduler::PlannedScheduler(const std::vector<SwitchFault>& switches) {
  for (const SwitchFault& s : switches) picks_.emplace(std::make_tuple(s.batch, s.partition, s.step), s.pick);
}

size_t PlannedScheduler::pick(const SchedulingPoint& at, std::span<const SchedulingCandidate> ready) {
  // A switch is possible here: in a sequential wait any candidate runs instead of the wait;
  // otherwise another than the first.
  if (!ready.empty() && (at.sequentialWaits || ready.size() >= 2))
    choices_.insert(SwitchTarget{at.batch, at.partition, at.step});
  auto it = picks_.find(std::make_tuple(at.batch, at.partition, at.step));
  if (it == picks_.end() || ready.empty()) return at.sequentialWaits ? kWait : 0;
  const size_t k = static_cast<size_t>(it->second - 1);
  if (at.sequentialWaits) {
    ++taken_;
    ++taken_at_[it->first];
    return k % ready.size();
  }
  if (ready.size() < 2) return 0;
  ++taken_;
  ++taken_at_[it->first];
  return 1 + k % (ready.size() - 1);
}

}  // namespace streamsim::sim
