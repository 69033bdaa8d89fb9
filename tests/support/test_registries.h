// The processors the test suite's runs are handed (issue 33 item 3: there is no process-wide set):
// the example and bug-class processors the CLI has, and a test file's own, which the file adds by
// defining addTestProcessors (a test binary is one file: its processors are that file's). Each call
// builds new values; nothing here is shared between runs.
#pragma once

#include <memory>

#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::test {

// Defined by a test file that has processors of its own (adds them to `set`); the support library's
// default adds none.
void addTestProcessors(ProcessorSet& set);

// A new set: the example processors, the bug-class ones, then the test file's (addTestProcessors).
std::shared_ptr<const ProcessorSet> testProcessors();
// RunRegistries holding testProcessors() (no Python support).
std::shared_ptr<const harness::RunRegistries> testRegistries();
// LoaderOptions whose registries are testRegistries().
harness::LoaderOptions testLoader();

}  // namespace streamsim::test
