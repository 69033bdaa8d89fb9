// The example processors ("count", "session_tracker", "ttl_cache", the async and real-time ones,
// ...), added to a processor set by the program that wants them: the CLI and the Python module
// add them to the set they hand their runs; a project's runner adds only its own. Registers
// nothing anywhere else.
#pragma once

#include "streamsim/tws/processor_registry.h"

namespace streamsim {

// Adds every example processor (processors/*.cc) to `set`.
void registerExampleProcessors(ProcessorSet& set);

}  // namespace streamsim
