// A sweep's accounting (DESIGN.md §5 "Fault accounting"): what one seed left (SeedAccount: faults
// planned and fired, crashes, restarts, downtime, oracle checks, runs, wall time) and the totals a
// sweep ends with (SweepTotals: the TOTAL line, --json's "totals"). Scenario sweeps (of files and of
// generated workloads) and `merge` of shard reports add their seeds through SweepTotals::add, so a
// merged report prints the TOTAL line of the sweep in one process. Plain data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "streamsim/harness/run/outcome.h"
#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim::harness {

// What one seed of a sweep left, whatever the sweep (a scenario's seed, a workload's seed).
struct SeedAccount {
  bool passed = true;
  FaultAccount faults;
  int64_t crashes = 0;
  int64_t restarts = 0;
  DurationMs downtimeMs = 0;  // the driver down after the plan's crashes (virtual time)
  int oracleChecks = 0;
  int runs = 0;         // simulated runs the seed took (its own, the oracles', the shrink's)
  double seconds = 0;   // wall time of the seed (its run and shrink)
  // Its fields into / out of a seed's JSON object (the --json report's and the workers' wire
  // format): "passed", "faults" (FaultAccount::toJson), "crashes", "restarts", "downtimeMs",
  // "oracleChecks", "runs", "seconds". `plan` is the seed's plan (JSON), which "faults" lacks.
  void writeJson(nlohmann::json& j) const;
  static Result<SeedAccount> readJson(const nlohmann::json& j, const std::string& plan);
};

// Totals of a sweep: the line it ends with.
struct SweepTotals {
  std::string unit = "scenario";  // what `scenarios` counts: "scenario" files or "workload"s
  size_t scenarios = 0, seeds = 0, runs = 0, failed = 0, violations = 0, oracleChecks = 0;
  size_t seedsWithFaults = 0;       // seeds whose plan had a fault the injector executes
  size_t seedsWhoseFaultsFired = 0; // seeds where one of them fired
  size_t judgedAgainstRestartReference = 0;  // seeds judged against the reference with the same restarts
  size_t seedsWithDowntime = 0;  // seeds whose crashes left the driver down (virtual time)
  DurationMs downtimeMs = 0;     // their downtime in all
  int64_t restarts = 0, crashes = 0;
  std::map<std::string, int64_t> firedByKind;   // "crash" -> n
  std::map<std::string, int64_t> firedByPoint;  // "offsets.after_write" -> n
  double seconds = 0;
  // Adds one seed: its account, its violations, whether it was judged against the restart
  // reference (scenarios only).
  void add(const SeedAccount& seed, size_t violations, bool judgedAgainstRestartReference = false);
  // "TOTAL PASS (0 failed): 32 scenarios, 6400 seeds, 12345 runs, 9000 oracle checks, 0 violations;
  //  faults fired 7000 (crash 6000, task_failure 1000; offsets.after_write 900, ...) in 96.1% of
  //  seeds (97.0% of the 6300 with a planned fault), 6000 crashes, 7000 restarts, downtime in 3100
  //  seeds (9.1 h virtual); judged against the restart reference: 3; 61.2 s"
  std::string line() const;
  nlohmann::json toJson() const;
};

}  // namespace streamsim::harness
