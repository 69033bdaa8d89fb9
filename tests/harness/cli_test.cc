// Runs the built `streamsim` binary (STREAMSIM_CLI) and checks exit codes and output: 0 when
// every check holds, 1 with the replay command, 2 for bad input with file:line:col, list-faults,
// inspect on every fixture checkpoint and --shard splitting seeds.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "streamsim/fault_points.h"

namespace {

struct Out {
  int code = -1;
  std::string text;
};

Out runCli(const std::string& args) {
  Out out;
  std::string cmd = std::string(STREAMSIM_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.text.append(buf, n);
  int status = pclose(p);
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string scenario(const std::string& rel) {
  return std::string(STREAMSIM_SOURCE_DIR) + "/scenarios/" + rel;
}

std::string tempCopy(const std::string& from, const std::string& find, const std::string& repl) {
  std::ifstream in(from);
  std::string s((std::istreambuf_iterator<char>(in)), {});
  auto at = s.find(find);
  if (at != std::string::npos) s.replace(at, find.size(), repl);
  std::string path = (std::filesystem::temp_directory_path() /
                      ("streamsim_cli_test_" + std::to_string(::getpid()) + ".yaml")).string();
  std::ofstream(path) << s;
  return path;
}

TEST(Cli, RunPassingScenarioExitsZero) {
  Out o = runCli("run " + scenario("seeds/counter_a3_b2.yaml"));
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("PASS"), std::string::npos) << o.text;
}

TEST(Cli, FailingCheckExitsOneWithReplayCommand) {
  std::string f = tempCopy(scenario("seeds/counter_a3_b2.yaml"), "count: 3", "count: 4");
  Out o = runCli("run " + f);
  EXPECT_EQ(o.code, 1) << o.text;
  EXPECT_NE(o.text.find("reproduce: streamsim run"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("count=3"), std::string::npos) << o.text;
  Out s = runCli("sweep " + f + " --seeds 2");
  EXPECT_EQ(s.code, 1) << s.text;
  EXPECT_NE(s.text.find("streamsim replay"), std::string::npos) << s.text;
  EXPECT_NE(s.text.find("--seed"), std::string::npos) << s.text;
  std::filesystem::remove(f);
}

TEST(Cli, BadInputExitsTwoWithFileLineColumn) {
  std::string f = tempCopy(scenario("seeds/counter_a3_b2.yaml"), "sink: {kind: memory}",
                           "sinc: {kind: memory}");
  Out o = runCli("run " + f);
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find(f + ":"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("unknown key 'sinc'"), std::string::npos) << o.text;
  std::filesystem::remove(f);
}

TEST(Cli, ListFaultsNamesEveryPoint) {
  Out o = runCli("list-faults");
  EXPECT_EQ(o.code, 0);
  for (const auto& p : streamsim::faults::allFaultPoints())
    EXPECT_NE(o.text.find(std::string(p.name)), std::string::npos) << p.name;
}

TEST(Cli, InspectEveryFixtureCheckpoint) {
  int seen = 0;
  for (const auto& e : std::filesystem::directory_iterator(STREAMSIM_FIXTURES_DIR)) {
    std::string name = e.path().filename().string();
    if (!e.is_directory() || name.rfind("checkpoint-", 0) != 0) continue;
    ++seen;
    Out o = runCli("inspect " + e.path().string());
    EXPECT_EQ(o.code, 0) << name << "\n" << o.text;
    EXPECT_NE(o.text.find("diagnosis"), std::string::npos) << name << "\n" << o.text;
    Out j = runCli("inspect --json " + e.path().string());
    EXPECT_EQ(j.code, 0) << name;
    EXPECT_EQ(j.text.rfind("{", 0), 0u) << name << "\n" << j.text;
  }
  EXPECT_GE(seen, 10);
  std::string fx = STREAMSIM_FIXTURES_DIR;
  Out gap = runCli("inspect " + fx + "/checkpoint-test-offsetId-commitId-inconsistent");
  EXPECT_NE(gap.text.find("present 1,2,4, missing 3"), std::string::npos) << gap.text;
  EXPECT_NE(gap.text.find("re-runs batch 4"), std::string::npos) << gap.text;
  Out old = runCli("inspect " + fx + "/checkpoint-version-2.1.0");
  EXPECT_NE(old.text.find("commits does not exist"), std::string::npos) << old.text;
  EXPECT_NE(old.text.find("re-runs batch 1"), std::string::npos) << old.text;
  Out tws = runCli("inspect " + fx + "/checkpoint-version-4.0.0-tws-avro");
  EXPECT_NE(tws.text.find("transformWithStateExec"), std::string::npos) << tws.text;
  EXPECT_NE(tws.text.find("missing 0"), std::string::npos) << tws.text;
}

TEST(Cli, ShardsSplitSeedsDisjointlyAndCompletely) {
  std::string f = scenario("crash/offsets_after_write.yaml");
  auto dir = std::filesystem::temp_directory_path();
  std::string pid = std::to_string(::getpid());
  std::set<std::string> all;
  size_t total = 0;
  for (int i = 0; i < 3; ++i) {
    std::string json = (dir / ("streamsim_shard_" + pid + "_" + std::to_string(i) + ".json")).string();
    Out o = runCli("sweep " + f + " --seeds 9 --shard " + std::to_string(i) + "/3 --json " + json);
    EXPECT_EQ(o.code, 0) << o.text;
    std::ifstream in(json);
    std::string s((std::istreambuf_iterator<char>(in)), {});
    for (size_t at = s.find("\"seed\":"); at != std::string::npos; at = s.find("\"seed\":", at + 1)) {
      size_t end = s.find_first_of(",}", at);
      all.insert(s.substr(at + 7, end - at - 7));
      ++total;
    }
    std::filesystem::remove(json);
  }
  EXPECT_EQ(all.size(), 9u);
  EXPECT_EQ(total, 9u);
}

TEST(Cli, InspectFolderOfSeveralCheckpointsReportsEach) {
  std::string fx = STREAMSIM_FIXTURES_DIR;
  Out o = runCli("inspect " + fx + "/checkpoint-version-4.0.0");
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("holds 3 checkpoints"), std::string::npos) << o.text;
  for (const char* sub : {"hdfs/join1", "rocksdb/agg", "rocksdb/dedup"}) {
    EXPECT_NE(o.text.find("/checkpoint-version-4.0.0/" + std::string(sub) + "\n"),
              std::string::npos) << sub << "\n" << o.text;
  }
  EXPECT_EQ(o.text.find("metadata missing"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("query id: fbcd445d-b716-4589-ad15-774afa5a243d"), std::string::npos);
  Out j = runCli("inspect --json " + fx + "/checkpoint-version-4.0.0-checkpoint-v2");
  EXPECT_EQ(j.code, 0) << j.text;
  EXPECT_NE(j.text.find("\"checkpoints\""), std::string::npos) << j.text;
  EXPECT_NE(j.text.find("checkpoint-v2/rocksdb/dedup\""), std::string::npos) << j.text;
}

// The replay command after "replay: " on the line of `text` that follows `after`.
std::string replayCommandIn(const std::string& text, const std::string& after) {
  size_t from = text.find(after);
  if (from == std::string::npos) return "";
  size_t at = text.find("replay: streamsim replay ", from);
  if (at == std::string::npos) return "";
  at += std::string("replay: streamsim ").size();
  return text.substr(at, text.find('\n', at) - at);
}

TEST(Cli, ShrunkCaseAndItsReplayCommandReproduceTheFailure) {
  std::string f = tempCopy(scenario("seeds/counter_a3_b2.yaml"), "count: 3", "count: 4");
  // Seed 1's generated plan has a fault; the failure does not need it, so RapidCheck's shrink
  // drops it and the printed command replays the minimal plan.
  Out s = runCli("sweep " + f + " --seeds 2");
  EXPECT_EQ(s.code, 1) << s.text;
  EXPECT_NE(s.text.find("minimal:    0 faults (of 1)"), std::string::npos) << s.text;
  std::string cmd = replayCommandIn(s.text, "seed 1\n");
  ASSERT_NE(cmd, "") << s.text;
  EXPECT_NE(cmd.find("--seed 1 --plan '{\"seed\":1,\"faults\":[]}'"), std::string::npos) << cmd;
  Out again = runCli(cmd);
  EXPECT_EQ(again.code, 1) << cmd << "\n" << again.text;
  EXPECT_NE(again.text.find("count=3"), std::string::npos) << again.text;
  // replay of the seed itself shrinks too and prints the same command.
  Out r = runCli("replay " + f + " --seed 1");
  EXPECT_EQ(r.code, 1) << r.text;
  EXPECT_NE(r.text.find("minimal case 0 faults (of 1)"), std::string::npos) << r.text;
  EXPECT_EQ(replayCommandIn(r.text, "minimal case"), cmd) << r.text;
  std::filesystem::remove(f);
}

}  // namespace
