// The processors of the C++ bug classes the oracles catch (leaky_heartbeat, count_calls_as_rows,
// ...; scenarios/logic/buggy/), each with the promises of its correct twin, added to a processor
// set by the program that wants them: the CLI and the Python module add them next to the example
// processors. Registers nothing elsewhere.
#pragma once

#include "streamsim/tws/processor_registry.h"

namespace streamsim {

// Adds the bug-class processors (processors/bug_class_processors.cc) to `set`.
void registerBugClassProcessors(ProcessorSet& set);

}  // namespace streamsim
