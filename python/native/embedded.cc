// The `_streamsim_native` module built into runners that embed CPython, and the hook that lets
// their scenarios name Python processors (harness/python_processors.h).
#include <pybind11/embed.h>

#include "job_world.h"
#include "build_paths.h"
#include "python_support.h"

PYBIND11_EMBEDDED_MODULE(_streamsim_native, m) {
  streamsim::python::defineNativeModule(m);
  streamsim::python::defineTesterModule(m);
  streamsim::python::defineJobModule(m);
  streamsim::python::defineJobSweep(m);
}

namespace {
const bool kRegistered = [] {
  streamsim::harness::setPythonProcessorLoader(&streamsim::python::loadPythonProcessorFile);
  streamsim::harness::setPythonReferenceLoader(&streamsim::python::loadPythonReferenceFile);
  streamsim::harness::setPythonCliPath(streamsim::python::cliPath());  // the hash_seed oracle's worker
  return true;
}();
}  // namespace
