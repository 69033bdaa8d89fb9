// Python processors in scenarios (DESIGN.md §5c): `transformWithState: {python: FILE, class: C,
// outputStructType: DDL}` names a PySpark StatefulProcessor class. The harness holds only this hook;
// the embedded-CPython support (python/native, linked into runners that embed Python) installs the
// loader during static initialisation. Reading the hook is safe from several threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {

struct PythonProcessorSpec {
  std::string file;       // the processor's .py file (resolved against the scenario's folder)
  std::string className;  // a StatefulProcessor subclass defined in it
  std::string outputSchemaDDL;  // outputStructType ("" = inferred from the rows emitted)
  bool inPandas = false;        // transformWithStateInPandas: rows and output as DataFrames
  // Input columns the processor does not see (the tester's synthetic key column).
  std::vector<std::string> hiddenColumns;
  // The longest one call of the processor's code may run (wall clock, ms; 0: the default, 60 s):
  // past it the call is interrupted and fails its task (`callLimit:`, docs/python.md).
  int64_t callLimitMs = 0;
};

using PythonProcessorLoader = Result<ProcessorFactory> (*)(const PythonProcessorSpec&);

// Installed by the Python support; a second call replaces the first.
void setPythonProcessorLoader(PythonProcessorLoader loader);
// A factory of fresh processor instances of spec.className; FailedPrecondition when this runner
// was built without Python, InvalidArgument naming file:line for a file that does not load.
Result<ProcessorFactory> loadPythonProcessor(const PythonProcessorSpec& spec);

}  // namespace streamsim::harness
