// `_streamsim_native` as a Python extension module: `import streamsim` (and `from
// streamsim.pyspark import TwsTester`) in any python3 with python/ and the built module on its
// path. The same definitions as the module runners embed (embedded.cc).
#include <pybind11/pybind11.h>

#include "job_world.h"
#include "build_paths.h"
#include "python_support.h"

PYBIND11_MODULE(_streamsim_native, m) {
  // Scenarios run from Python (streamsim.run/sweep) may name Python processors too: the module's
  // functions hand their runs pythonRunRegistries().
  streamsim::python::defineNativeModule(m);
  streamsim::python::defineTesterModule(m);
  streamsim::python::defineJobModule(m);
  streamsim::python::defineJobSweep(m);
}
