// The oracles a C++ processor's promises turn on without the scenario naming them (docs/oracles.md
// "Oracles on by default and not checked"). A promise (ProcessorPromises, tws/processor_registry.h)
// is the processor's own declaration, made where its set gets it (ProcessorSet::promise, next to
// the add), so the oracle that checks it is sound for every scenario whose query lets the promise
// hold; a scenario that names the oracle itself keeps its own version (its bound, its reference).
#pragma once

#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness {

struct Scenario;

// The scenario with the oracles its processor promised added where its query lets each promise
// hold; unchanged when it makes none. For the query's only transformWithState, a C++ processor of
// the run's set (Scenario::registries) that promised something, in a scenario that runs one
// query (no restart switches it) in micro-batch mode and starts from nothing (no from_checkpoint):
// - timersPerKey: {timer_bound: N} (any such query);
// - splitInvariant: batch_split when the query has no watermark (a cut changes which rows are
//   late), the processor's output mode is update (its last row per key is its result) and the
//   sink is a memory sink (a JSON file drops a null key's field, so its row has no key to match),
//   with a trigger that keeps running (batch_split's cut drops restarts: an availableNow query
//   would read nothing after its first run);
// - reference: {reference: NAME} when, besides, the processor's input is the one source's rows
//   (no operator before it: the reference reads what the source delivered).
Scenario withPromisedOracles(const Scenario& sc);

}  // namespace streamsim::harness
