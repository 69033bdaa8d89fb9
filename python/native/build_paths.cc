// The adapter's paths (build_paths.h): a pip install's layout when the loaded module or program
// sits in one, else the build tree's.
#include "build_paths.h"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

namespace streamsim::python {
namespace {

namespace fs = std::filesystem;

struct Layout {
  std::vector<std::string> pythonPath;
  std::string cli;
};

// The file this code was loaded from: the extension module (a .so that Python dlopen()ed by its
// full path) or the program (the CLI, streamsim-python).
fs::path loadedFrom() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&loadedFrom), &info) != 0 && info.dli_fname != nullptr) {
    fs::path p = info.dli_fname;
    if (p.extension() == ".so") return p;
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

// python/setup.py installs <root>/_streamsim_native*.so, <root>/streamsim/_bin/streamsim and the
// shim as <root>/streamsim/_shim/pyspark; the module sits in <root>, the CLI three levels down.
Layout detect() {
  fs::path from = loadedFrom();
  std::error_code ec;
  for (const fs::path& root : {from.parent_path(), from.parent_path().parent_path().parent_path()}) {
    if (root.empty()) continue;
    fs::path cli = root / "streamsim" / "_bin" / "streamsim";
    fs::path shim = root / "streamsim" / "_shim";
    if (fs::is_regular_file(cli, ec) && fs::is_regular_file(shim / "pyspark" / "__init__.py", ec))
      return {{shim.string(), root.string()}, cli.string()};
  }
  return {{treePythonDir()}, treeCliPath()};
}

const Layout& layout() {
  static const Layout l = detect();  // immutable once found
  return l;
}

}  // namespace

const std::vector<std::string>& pythonPath() { return layout().pythonPath; }
const char* cliPath() { return layout().cli.c_str(); }

}  // namespace streamsim::python
