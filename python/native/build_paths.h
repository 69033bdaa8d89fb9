// Where the Python adapter finds the `streamsim` package with the pyspark shim, and the `streamsim`
// CLI (reproduce lines, worker processes): in a build tree, the source tree's python/ folder and
// the built CLI (compiled into one generated file, python/CMakeLists.txt: build_paths_tree.cc, not
// -D flags on every adapter file, so those compile alike in every checkout for ccache); in a pip
// install (python/setup.py), the folders beside the loaded module or program (build_paths.cc).
#pragma once

#include <string>
#include <vector>

namespace streamsim::python {

// What the embedded interpreter (the CLI's) puts first on sys.path, in order: the build tree's
// python/; or, installed, <site-packages>/streamsim/_shim (the pyspark shim) and <site-packages>.
const std::vector<std::string>& pythonPath();
const char* cliPath();  // the built streamsim, or <site-packages>/streamsim/_bin/streamsim
// The interpreter whose libpython the adapter links (PYTHON_EXECUTABLE, /usr/bin/python3): the
// embedded interpreter takes its prefix (stdlib, site-packages) from it, never from PATH.
const char* pythonExecutable();

// The build tree's paths (the generated file).
const char* treePythonDir();  // <source>/python
const char* treeCliPath();    // <build>/tools/streamsim

}  // namespace streamsim::python
