// Oracles for a processor's own logic (issue 13): checks that find processor bugs without
// expected rows — a timer leak (timer_bound), a process-wide cache (process_isolation). Pure
// functions over a run's committed trace and fingerprints, like those of oracles.h; rows of the
// oracle table (oracles/table.cc). docs/oracles.md lists each with the bug class it catches.
#pragma once

#include <cstdint>
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

// process_isolation: the same case gives one trace fingerprint and one sink when it runs first
// and when it runs again after another case (another seed's run) in the same process. A
// processor that keeps data outside its state variables across instances (a `static` map, a
// cache captured by its factory) breaks it; the oracle runs both itself, so its replay is exact
// wherever it runs.
std::optional<Violation> checkProcessIsolation(const RunOutcome& first, const RunOutcome& after);

}  // namespace streamsim::harness
