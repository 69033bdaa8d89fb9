// The main of a runner that embeds CPython (the project's `streamsim`, streamsim_add_runner(...
// MAIN streamsim_python_runner_main)): the CLI, handed the Python support's loaders
// (python_support.h: pythonRunRegistries) for its runs -- no hook installed in the process.
#include "cli/cli.h"
#include "python_support.h"

int main(int argc, char** argv) {
  return streamsim::cli::runCli(argc, argv, streamsim::python::pythonRunRegistries());
}
