// The planted race of async processors (tests/harness/async_scenarios/racy_count.yaml) through
// the built CLI: `run` passes (the sequential order), `sweep` fails under the interleaving oracle
// with a case shrunk to one context switch between two keys and an exact replay line that fails
// the same way; the sync twin passes the same sweep.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "reliability/cli_test_support.h"
#include "test_paths.h"

namespace {

using Out = streamsim::testing::CliOut;
using streamsim::testing::runCli;

std::string file(const std::string& name) {
  return std::string(STREAMSIM_SOURCE_DIR) + "/tests/harness/async_scenarios/" + name;
}

std::string lineStarting(const std::string& text, const std::string& prefix) {
  size_t at = text.find(prefix);
  if (at == std::string::npos) return "";
  size_t end = text.find('\n', at);
  return text.substr(at + prefix.size(), end == std::string::npos ? std::string::npos : end - at - prefix.size());
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(AsyncSweep, TheRacyProcessorPassesTheSequentialRun) {
  Out o = runCli("run " + file("racy_count.yaml"));
  EXPECT_EQ(o.code, 0) << o.text;
}

TEST(AsyncSweep, TheRacyProcessorFailsInterleavingShrunkToOneSwitchWithAReplayLine) {
  Out o = runCli("sweep " + file("racy_count.yaml") + " --seeds 30 --no-progress");
  ASSERT_EQ(o.code, 1) << o.text;
  EXPECT_NE(o.text.find("interleaving"), std::string::npos) << o.text;
  // The first failing seed's shrunk plan: exactly one switch and nothing else.
  std::string shrunk = lineStarting(o.text, "shrunk to:  ");
  EXPECT_EQ(count(shrunk, "\"type\""), 1u) << o.text;
  EXPECT_EQ(count(shrunk, "\"type\":\"switch\""), 1u) << o.text;
  // The plan's context switches are counted as faults that fired (the scheduler took them).
  EXPECT_EQ(o.text.find("faults fired 0 "), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("tws.switch "), std::string::npos) << o.text;
  // The report names the switch: which key started while which one waited at its get.
  EXPECT_NE(o.text.find("tws.switch"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("ValueState 'count'.getOption()"), std::string::npos) << o.text;
  // The replay line, run as printed, reproduces the failure exactly.
  std::string replay = lineStarting(o.text, "  replay: ");
  ASSERT_FALSE(replay.empty()) << o.text;
  Out again = streamsim::testing::runShell(replay);
  EXPECT_EQ(again.code, 1) << again.text;
  EXPECT_NE(again.text.find("interleaving"), std::string::npos) << again.text;
}

TEST(AsyncSweep, TheSyncTwinPassesTheSameSweep) {
  Out o = runCli("sweep " + file("racy_count_sync_twin.yaml") + " --seeds 30 --no-progress");
  EXPECT_EQ(o.code, 0) << o.text;
}

}  // namespace
