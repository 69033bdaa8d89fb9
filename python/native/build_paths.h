// Where the Python adapter finds the source tree's python/ folder (the pyspark shim and the
// streamsim package) and the built `streamsim` CLI (reproduce lines, worker processes). Compiled
// into one generated file (python/CMakeLists.txt: build_paths.cc), not -D flags with absolute
// paths on every adapter file, so those compile alike in every checkout (ccache base_dir).
#pragma once

namespace streamsim::python {

const char* pythonDir();  // <source>/python
const char* cliPath();    // the built streamsim
// The interpreter whose libpython the adapter links (PYTHON_EXECUTABLE, /usr/bin/python3): the
// embedded interpreter takes its prefix (stdlib, site-packages) from it, never from PATH.
const char* pythonExecutable();

}  // namespace streamsim::python
