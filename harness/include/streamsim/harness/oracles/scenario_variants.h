// The variants of a scenario the logic oracles compare it with (oracles/logic.h): the same input
// in one batch (batch_split) and the grouping key of its final rows.
#pragma once

#include <string>
#include <vector>

#include "streamsim/harness/scenario.h"
#include "streamsim/sim/random.h"

namespace streamsim::harness {

// The scenario with all its input in one batch: its data steps (StepRole::kData: put,
// put_partial, resend, touch, delete, add_rows, produce) and its advance steps in order, then one `run: available`; no
// expectations, runs, crashes, restarts or stops.
Scenario oneBatchScenario(const Scenario& scenario);

// The scenario with its input cut into batches by `cut` (a seed's named stream "batch_cut"): its
// data and advance steps in order, a `run: available` after each data step but the last with
// probability 1/2, then one `run: available`; no expectations, runs, crashes, restarts or stops.
// `where` gets the lines of the data steps after which it runs ("after the steps at lines 12,
// 14", or "all input in one batch").
Scenario cutScenario(const Scenario& scenario, sim::Random cut, std::string* where = nullptr);

// The grouping columns of the scenario's last transformWithState: the key of the final rows
// batch_split compares.
std::vector<std::string> finalGroupBy(const Scenario& scenario);

}  // namespace streamsim::harness

namespace streamsim::harness {

// Why `oracle` (batch_split, mode_equivalence: both re-run the input under the scenario's one
// query) cannot be named: a restart of the scenario switches to another query ("" when none does).
std::string restartOntoAnotherQuery(const Scenario& scenario, std::string_view oracle);

}  // namespace streamsim::harness
