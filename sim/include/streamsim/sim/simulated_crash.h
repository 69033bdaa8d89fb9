// SimulatedCrash: the exception the fault injector throws to crash the simulated driver at a
// named fault point (DESIGN.md §4). It deliberately does not derive from std::exception, so an
// engine `catch (const std::exception&)` around processor code never swallows a crash; only
// the simulation (harness) catches it, destroys the engine and restarts. A plain value.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "streamsim/env.h"

namespace streamsim::sim {

struct SimulatedCrash {
  std::string point;     // the fault point name (fault_points.h)
  FaultContext context;  // where the engine was: batch, partition, operator, path
  int64_t pass = 0;      // how many times `point` had been passed when it crashed (1-based)
  // True when only faults of the run's fault plan fired at this pass (a supervisor recovers
  // them); false when a crash armed later (a scenario's `crash: {at: P}` step, armCrash) fired,
  // alone or together with a plan crash at the same pass: that crash is the step's.
  bool planned = false;
  // How long a supervisor leaves the driver down before it restarts it (the largest downtime of
  // the plan crashes that fired at this pass; CrashFault::downtime).
  DurationMs downtime = 0;

  std::string what() const {
    std::string out = fmt::format("simulated crash at {} (batch {}", point, context.batchId);
    if (context.partition >= 0) out += fmt::format(", partition {}", context.partition);
    if (context.operatorId >= 0) out += fmt::format(", operator {}", context.operatorId);
    if (!context.path.empty()) out += fmt::format(", path {}", context.path);
    out += fmt::format(", pass {})", pass);
    return out;
  }
};

}  // namespace streamsim::sim
