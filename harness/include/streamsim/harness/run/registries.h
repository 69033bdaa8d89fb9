// What a runner hands its runs (issue 33 item 3, "registries with an owner"): built once by the
// caller -- the CLI's main, a project runner's main, the Python module -- and attached to each Scenario it loads
// (Scenario::registries), so every run of it (a sweep's seeds, the oracles' extra runs, shrink,
// replay) reaches them through what it was handed; nothing here is process-wide. Null (a runner
// without Python): a scenario naming a Python processor or reference fails with FailedPrecondition;
// one naming a processor its set lacks, with NotFound listing the set's names.
// A value; const use is safe from several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "streamsim/harness/foreach_writers.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness {

struct RunRegistries {
  // The processors a scenario's `processor: NAME` resolves in (tws/processor_registry.h): the
  // example and bug-class processors for the CLI and the Python module, a project's own for its
  // runner (streamsim_add_runner ... REGISTER). Null: none.
  std::shared_ptr<const ProcessorSet> processors;
  // The reference functions `{reference: NAME}` names (oracles/reference.h): the built-in ones
  // and the runner's own (its REGISTER_RUN functions add them).
  ReferenceSet references;
  // The ForeachWriters `sink: {kind: foreach, writer: NAME}` names (foreach_writers.h), the
  // runner's own (its REGISTER_RUN functions add them).
  ForeachWriterSet foreachWriters;
  // The Python support of a runner that embeds CPython (python/native: addPythonSupport()).
  PythonProcessorLoader pythonProcessors = nullptr;
  PythonReferenceLoader pythonReferences = nullptr;
  // The built CLI the hash_seed oracle starts as its `hash-seed-worker` (empty: not checked).
  std::string pythonCli;
  // The hash seed of the process's one CPython interpreter, which python/native owns: set before
  // the first Python processor loads (a `hash-seed-worker`), read for the oracle's report.
  void (*setPythonHashSeed)(uint32_t hashSeed) = nullptr;
  uint32_t (*pythonHashSeed)() = nullptr;
};

// A factory of fresh processor instances of spec.className through `registries`' loader;
// FailedPrecondition when there is none (this runner was built without Python), InvalidArgument
// naming file:line for a file that does not load.
Result<ProcessorFactory> loadPythonProcessor(const RunRegistries* registries, const PythonProcessorSpec& spec);
// FailedPrecondition without Python support; InvalidArgument naming the file for one that does
// not load or defines no such function.
Result<PythonReference> loadPythonReference(const RunRegistries* registries, const PythonReferenceSpec& spec);
// The processors `registries` holds (an empty set for none: every name is unknown).
const ProcessorSet& processorsOf(const RunRegistries* registries);
// The reference functions `registries` holds (the built-in ones for none).
const ReferenceSet& referencesOf(const RunRegistries* registries);
// The ForeachWriters `registries` holds (none for none).
const ForeachWriterSet& foreachWritersOf(const RunRegistries* registries);
// The hash_seed oracle's worker CLI ("" without one).
std::string pythonCliPath(const RunRegistries* registries);
// The interpreter's hash seed (0 without Python support, as CPython's default here).
uint32_t pythonInterpreterHashSeed(const RunRegistries* registries);

}  // namespace streamsim::harness
