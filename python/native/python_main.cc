// streamsim-python: CPython's own command line with `_streamsim_native` built in (python_support.h).
#include <Python.h>

#include "python_support.h"

namespace streamsim::python {

int runPythonMain(int argc, char** argv) {
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.use_hash_seed = 1;  // the same str hashes (and set orders) in every run
  config.hash_seed = 0;
  PyStatus st = PyConfig_SetBytesArgv(&config, argc, argv);
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(st)) Py_ExitStatusException(st);
  // The shim on sys.path before the user's code runs (ensureInterpreter sees Python running).
  PyThreadState* main = PyEval_SaveThread();
  Status ready = ensureInterpreter();
  PyEval_RestoreThread(main);
  if (!ready.ok()) {
    PySys_WriteStderr("streamsim-python: %s\n", ready.message().c_str());
    return 2;
  }
  return Py_RunMain();
}

}  // namespace streamsim::python

int main(int argc, char** argv) { return streamsim::python::runPythonMain(argc, argv); }
