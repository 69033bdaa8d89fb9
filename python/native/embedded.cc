// The `_streamsim_native` module built into runners that embed CPython. What lets their scenarios
// name Python processors is handed to their runs by the runner's main (tools/python_runner_main.cc:
// addPythonSupport()).
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
