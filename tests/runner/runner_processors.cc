// The processors of the test suite's own runner (streamsim_add_runner(streamsim_test_runner ...)
// in tests/CMakeLists.txt): a user's runner is the CLI plus their processors, and the reproduce
// lines it prints must name it (tests/harness/reproduce_lines_test.cc).
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"

namespace {
// Registered under a name the plain `streamsim` binary does not know.
class RunnerCountProcessor final : public streamsim::processors::CountProcessor {};
}  // namespace

STREAMSIM_REGISTER_PROCESSOR("runner_count", RunnerCountProcessor);
