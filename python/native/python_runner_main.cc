// The main of a runner that embeds CPython (the project's `streamsim`, streamsim_add_runner(...
// MAIN streamsim_python_runner_main)): the CLI, handed the runner's processors (its REGISTER
// functions: cli::runnerProcessors) and the Python support's loaders (python_support.h:
// pythonRunRegistries) for its runs -- nothing installed in the process.
#include "cli/cli.h"
#include "python_support.h"

int main(int argc, char** argv) {
  return streamsim::cli::runCli(argc, argv,
                                streamsim::python::pythonRunRegistries(streamsim::cli::runnerProcessors()));
}
