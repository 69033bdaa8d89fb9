// The main of a runner that embeds CPython (the project's `streamsim`, streamsim_add_runner(...
// MAIN streamsim_python_runner_main)): the CLI, handed what the runner registers (its REGISTER
// and REGISTER_RUN functions: cli::addRunnerRegistries) and the Python support's loaders
// (python_support.h: addPythonSupport) for its runs -- nothing installed in the process.
#include <memory>

#include "cli/cli.h"
#include "python_support.h"

int main(int argc, char** argv) {
  auto registries = std::make_shared<streamsim::harness::RunRegistries>();
  streamsim::cli::addRunnerRegistries(*registries);
  streamsim::python::addPythonSupport(*registries);
  return streamsim::cli::runCli(argc, argv, std::move(registries));
}
