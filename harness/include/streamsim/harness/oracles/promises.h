// What a registered C++ processor promises about its results, and the oracles those promises turn
// on without the scenario naming them (docs/oracles.md "Oracles on by default and not checked").
// A promise is the processor's own declaration, made where it is registered
// (STREAMSIM_REGISTER_PROMISES next to the function that adds the processor to a set), so the oracle that checks it
// is sound for every scenario whose query lets the promise hold; a scenario that names the oracle
// itself keeps its own version (its bound, its reference).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "streamsim/status.h"

namespace streamsim::harness {

struct Scenario;

struct ProcessorPromises {
  // Each grouping key's last output row does not depend on how its input is cut into batches
  // (oracle batch_split).
  bool splitInvariant = false;
  // A key never holds more than this many pending timers (oracle {timer_bound: N}).
  std::optional<int64_t> timersPerKey;
  // The final view is this registered reference function of the rows the source delivered
  // (oracle {reference: NAME}; STREAMSIM_REGISTER_REFERENCE).
  std::string reference;
};

class PromiseRegistry {
 public:
  // The promises registered for processor `name`; none for an unknown one.
  static std::optional<ProcessorPromises> of(std::string_view name);
  struct Registrar {
    Registrar(std::string_view name, ProcessorPromises promises);
  };
};

// The scenario with the oracles its processor promised added where its query lets each promise
// hold; unchanged when it makes none. For the query's only transformWithState, a registered C++
// processor, in a scenario that runs one query (no restart switches it) in micro-batch mode and
// starts from nothing (no from_checkpoint):
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

// STREAMSIM_REGISTER_PROMISES("count", {.splitInvariant = true, .reference = "count"});
#define STREAMSIM_REGISTER_PROMISES(name, ...)                                    \
  static const ::streamsim::harness::PromiseRegistry::Registrar STREAMSIM_CONCAT( \
      streamsim_promises_registrar_, __LINE__)(name, ::streamsim::harness::ProcessorPromises __VA_ARGS__)
