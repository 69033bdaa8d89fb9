// What the test suite's runs are handed (issue 33 item 3: nothing is registered process-wide): the
// example and bug-class processors the CLI has, and a test file's own, which the file adds by
// defining addTestProcessors (its references and ForeachWriters: addTestRegistries; a test
// binary is one file: what it adds is that file's). Each call builds new values; nothing here is
// shared between runs.
#pragma once

#include <memory>
#include <string>

#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/run/workload_config.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::test {

// Defined by a test file that has processors of its own (adds them to `set`); the support library's
// default adds none.
void addTestProcessors(ProcessorSet& set);
// Defined by a test file that has reference functions or ForeachWriters of its own (adds them to
// `registries`); the support library's default adds none.
void addTestRegistries(harness::RunRegistries& registries);

// A new set: the example processors, the bug-class ones, then the test file's (addTestProcessors).
std::shared_ptr<const ProcessorSet> testProcessors();
// RunRegistries holding testProcessors(), the built-in references and the test file's
// (addTestRegistries) (no Python support).
std::shared_ptr<const harness::RunRegistries> testRegistries();
// LoaderOptions whose registries are testRegistries().
harness::LoaderOptions testLoader();
// harness::standardWorkload handed testRegistries() (its kind's example processor).
harness::WorkloadConfig testWorkload(harness::WorkloadKind kind, std::string stateStore = "memory");

}  // namespace streamsim::test
