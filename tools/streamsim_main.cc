// main() of the streamsim CLI, in its own library (streamsim_cli_main) so that a user's runner
// links it the way a test links gtest_main: their processors (runnerProcessors(), from their
// REGISTER functions) + this = their `streamsim`.
#include <memory>

#include "cli/cli.h"

int main(int argc, char** argv) {
  auto registries = std::make_shared<streamsim::harness::RunRegistries>();
  registries->processors = streamsim::cli::runnerProcessors();
  return streamsim::cli::runCli(argc, argv, std::move(registries));
}
