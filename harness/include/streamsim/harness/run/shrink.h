// The one shrinker (DESIGN.md §5): RapidCheck's shrinking search over a failing case — the fault
// plan's faults (fewer, then each simpler: an earlier batch, the first pass, one failure) and the
// input files taking part (fewer) — while the failure keeps its kind: the same expectation
// (file:line), the same oracle or an error still fails. Used by the scenario sweeps and replay
// (the CLI) — a generated workload's scenario shrinks its landing files too — and by the pytest
// job sweeps (python/native/job_sweep.cc), whose predicate re-runs a test function.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "streamsim/harness/oracles.h"
#include "streamsim/sim/fault_plan.h"

namespace streamsim::harness {

// What a failure is, as a set of keys: "<step> <file>:<line>" per failed step ("expect a.yaml:12"
// for an expectation, "run a.yaml:9" for a run step whose batch failed), "oracle <name>" per
// violated oracle, "error" for a run that could not be driven. A smaller case keeps the kind when
// it shares one key with the original.
struct FailureKind {
  std::set<std::string> keys;
  bool empty() const { return keys.empty(); }
  bool sharedWith(const FailureKind& other) const;
  // A failed step; `step` empty: an expectation ("expect").
  void addStep(const std::string& step, const std::string& file, int line) {
    keys.insert(stepKey(step, file, line));
  }
  void addViolations(const std::vector<Violation>& violations);
  void addError() { keys.insert("error"); }
  std::string toString() const;  // "oracle exactly_once, expect a.yaml:12"
  static std::string stepKey(const std::string& step, const std::string& file, int line);
};

// The case the shrinker works on: a failing fault plan and, for a generated workload, the landing
// files taking part (unset: a scenario, whose input is its steps). A smaller case is the plan with
// fewer or simpler faults (its seed and the rest kept: torn byte counts and ids stay the failing
// run's) and fewer files.
struct ShrinkCase {
  sim::FaultPlan plan;
  std::optional<std::vector<int64_t>> files;
};

struct ShrinkResult {
  ShrinkCase minimal;
  int runs = 0;  // predicate runs the search took
};

// The one shrink of the tree (a scenario sweep's failing seed, a pytest job sweep's failing plan):
// RapidCheck's search (rc::shrinkable::findLocalMin) from `failing`, whose failure is `kind`,
// repeatedly taking the first smaller case whose re-run (`rerun`: the case run again, the kind of
// its failure, empty when it passed) keeps the kind (FailureKind::sharedWith), until none does (a
// local minimum). At most `maxRuns` re-runs. The caller says only how a case runs: the rule that a
// smaller case fails "the same way" is here, once.
ShrinkResult shrinkFailure(const ShrinkCase& failing, const FailureKind& kind,
                           const std::function<FailureKind(const ShrinkCase&)>& rerun, int maxRuns);

}  // namespace streamsim::harness
