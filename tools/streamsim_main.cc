// main() of the streamsim CLI, in its own library (streamsim_cli_main) so that a user's runner
// links it the way a test links gtest_main: their processors + this = their `streamsim`.
#include "cli/cli.h"

int main(int argc, char** argv) { return streamsim::cli::runCli(argc, argv); }
