// RapidCheck generators for simulated runs (DESIGN.md §5): event rows, keyed event streams
// (as generated workloads), fault plans and whole run cases. Each one draws a seed from
// RapidCheck and builds the value with the sim generators, then lets RapidCheck shrink the
// parts (faults dropped, files dropped, sizes made smaller), so a failing property shrinks to a
// small case. Generators are values; use them inside rc::check / RC_GTEST_PROP.
#pragma once

#include <cstdint>
#include <vector>

#include <rapidcheck.h>

#include "streamsim/harness/run/workload_config.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/workload.h"
#include "streamsim/value.h"

namespace streamsim::harness {

// A row of sim::kEventSchema: event_id, key (k0..k<keys-1>), event_time, value.
rc::Gen<Row> genEventRow(int keys = 8);

// A workload spec within small bounds (events 1..maxEvents, files of 1..10 events, keys 1..8,
// some disorder, lateness and duplicates); shrinks toward fewer events and keys.
rc::Gen<sim::WorkloadSpec> genWorkloadSpec(int64_t maxEvents = 60);

// A keyed event stream: the events of a generated workload.
rc::Gen<std::vector<sim::Event>> genEventStream(int64_t maxEvents = 60);

// One fault for a run shaped by `knobs` (a crash at any of its points, a task failure, an I/O
// error on checkpoint writes, a torn-write rule).
rc::Gen<sim::Fault> genFault(const sim::FaultKnobs& knobs);
// A plan of up to `maxFaults` faults; shrinks by dropping faults.
rc::Gen<sim::FaultPlan> genFaultPlan(const sim::FaultKnobs& knobs, int maxFaults = 3);

// A generated workload's case for `config`: a plan of its knobs whose seed is the run's seed (its
// workload; runGeneratedSeed(config, plan.seed, {}, plan)); shrinks the plan.
rc::Gen<sim::FaultPlan> genWorkloadPlan(const WorkloadConfig& config, int maxFaults = 3);

}  // namespace streamsim::harness
