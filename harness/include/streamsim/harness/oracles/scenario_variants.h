// The variants of a scenario the logic oracles compare it with (oracles/logic.h): the same input
// in one batch (batch_split) and the grouping key of its final rows.
#pragma once

#include <string>
#include <vector>

#include "streamsim/harness/scenario.h"

namespace streamsim::harness {

// The scenario with all its input in one batch: its data steps (put, put_partial, resend,
// touch, delete, add_rows) and its advance steps in order, then one `run: available`; no
// expectations, runs, crashes, restarts or stops.
Scenario oneBatchScenario(const Scenario& scenario);

// The grouping columns of the scenario's last transformWithState: the key of the final rows
// batch_split compares.
std::vector<std::string> finalGroupBy(const Scenario& scenario);

}  // namespace streamsim::harness
