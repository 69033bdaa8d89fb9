// Oracles for a processor's own logic (issue 13): checks that find processor bugs without
// expected rows — output that differs between two runs of one seed (determinism), a timer leak
// (timer_bound), a process-wide cache (process_isolation), output that depends on the query run
// (restart_equivalence). Pure
// functions over a run's committed trace and fingerprints, like those of oracles.h; rows of the
// oracle table (oracles/table.cc). docs/oracles.md lists each with the bug class it catches.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/harness/oracles.h"
#include "streamsim/harness/run/outcome.h"

namespace streamsim::harness {

// timer_bound: at the end of every committed batch, each grouping key of each transformWithState
// operator has at most `bound` timers registered and neither fired nor deleted. A processor that
// registers a timer per input without deleting the previous one (a timer leak: its timers pile
// up and fire one emit each) breaks any bound it states. The report names the key and the
// registrations still pending.
std::optional<Violation> checkTimerBound(const std::vector<CommittedBatch>& batches, int64_t bound);

// state_bound per key: every grouping key holds at most `bound` state rows (a value, each list
// element, each map entry) in the committed state after the run; `rows` as
// committedStateRowsPerKey gives them. A processor whose state grows without bound for a key (a
// ListState appended to and never trimmed) breaks any bound it states. The report names the key.
std::optional<Violation> checkStateBoundPerKey(const std::map<std::string, int64_t>& rows, int64_t bound);

// determinism: two runs of one seed did the same (one trace), produced the same (the same sink
// rows in the same order) and left the same committed state (RunOutcome::committedState, when
// collected). The report names the first differing trace line, sink row or state entry. A
// processor whose output differs on every run (uuid4(), a wall clock) fails it even when its
// trace, which counts rows but does not hold their values, is the same.
std::optional<Violation> checkDeterminism(const RunOutcome& a, const RunOutcome& b);

// process_isolation: the same case gives one trace fingerprint and one sink when it runs first
// and when it runs again after another case (another seed's run) in the same process. A
// processor that keeps data outside its state variables across instances (a `static` map, a
// cache captured by its factory) breaks it; the oracle runs both itself, so its replay is exact
// wherever it runs.
// `fresh` (optional): the case run again in a freshly built processor registry (new factories:
// ProcessorSet::fresh()), which a cache captured by a factory does not survive. The
// violation says which of the two runs differed from the case.
std::optional<Violation> checkProcessIsolation(const RunOutcome& first, const RunOutcome& after,
                                               const RunOutcome* fresh = nullptr);

// restart_equivalence's two runs of one case: restarted cleanly right after each committed batch
// (every other restart after a downtime), and not restarted but down for the same virtual time at
// the same batch boundaries (DowntimeFault), both with a no-data batch allowed right after a
// restart (Spark withholds it: a restart's visible effect that is Spark's rule, not the
// processor's).
struct RestartRuns {
  std::vector<Row> restartedSink, pausedSink;  // what a reader sees
  std::vector<std::string> restartedState, pausedState;  // the committed state, every entry
  int64_t restarts = 0;  // of the restarted run
};
// restart_equivalence: both runs have one reader view (a multiset) and one committed state. A
// processor whose output depends on the query run breaks it — state scoped to
// getQueryInfo().runId, which each restart changes, or anything a restart's new run resets.
std::optional<Violation> checkRestartEquivalence(const RestartRuns& runs);

}  // namespace streamsim::harness
