#include "streamsim/fault_points.h"

namespace streamsim::faults {

std::span<const FaultPointInfo> allFaultPoints() { return kFaultPoints; }

bool isFaultPoint(std::string_view name) {
  for (const auto& p : kFaultPoints)
    if (p.name == name) return true;
  return false;
}

bool isPerPartition(std::string_view name) {
  for (const auto& p : kFaultPoints)
    if (p.name == name) return p.perPartition;
  return false;
}

}  // namespace streamsim::faults
