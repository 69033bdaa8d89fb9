// Runs the built `streamsim` binary (STREAMSIM_CLI) and checks exit codes and output: 0 when
// every check holds, 1 with the replay command, 2 for bad input with file:line:col, list-faults,
// inspect on every fixture checkpoint and --shard splitting seeds.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/count_by_user_query.h"
#include "reliability/cli_test_support.h"

#include "streamsim/fault_points.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/platform/platform.h"
#include "streamsim/sim/virtual_clock.h"
#include "test_paths.h"
#include "test_registries.h"

namespace {

using Out = streamsim::testing::CliOut;
using streamsim::testing::runCli;

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
  // The reproduce line names the program as invoked.
  EXPECT_NE(o.text.find(std::string("reproduce: ") + STREAMSIM_CLI + " run"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("count=3"), std::string::npos) << o.text;
  Out s = runCli("sweep " + f + " --seeds 2");
  EXPECT_EQ(s.code, 1) << s.text;
  EXPECT_NE(s.text.find(std::string(STREAMSIM_CLI) + " replay"), std::string::npos) << s.text;
  EXPECT_NE(s.text.find("--seed"), std::string::npos) << s.text;
  std::filesystem::remove(f);
}

// --state-store memory does not silently run a real-time scenario on RocksDB: it says so.
TEST(Cli, SweepStateStoreMemorySaysRealTimeScenariosKeepRocksDB) {
  Out rt = runCli("sweep " + scenario("realtime/dedup_real_time.yaml") + " --seeds 1 --state-store memory");
  EXPECT_EQ(rt.code, 0) << rt.text;
  EXPECT_NE(rt.text.find("--state-store memory: 1 real-time scenario(s) keep their own store"),
            std::string::npos) << rt.text;
  Out mb = runCli("sweep " + scenario("seeds/counter_a3_b2.yaml") + " --seeds 1 --state-store memory");
  EXPECT_EQ(mb.code, 0) << mb.text;
  EXPECT_EQ(mb.text.find("keep their own store"), std::string::npos) << mb.text;
}

// Regression (sweep --state-store rocksdb false alarm): a real-time scenario that names the memory
// store to show Spark's refusal of it failed every seed once the override ran it on RocksDB; and a
// restart onto another query went back to the scenario's own store (files of the other format).
TEST(Cli, SweepStateStoreOverrideKeepsRealTimeStoresAndReachesRestartQueries) {
  Out rt = runCli("sweep " + scenario("realtime/unsupported/memory_state_store.yaml") +
                  " --seeds 3 --state-store rocksdb");
  EXPECT_EQ(rt.code, 0) << rt.text;
  EXPECT_NE(rt.text.find("1 real-time scenario(s) keep their own store"), std::string::npos) << rt.text;
  Out sw = runCli("sweep " + scenario("async/sync_async_switch_one_checkpoint.yaml") +
                  " --seeds 5 --state-store rocksdb");
  EXPECT_EQ(sw.code, 0) << sw.text;
  auto loaded = streamsim::harness::loadScenario(scenario("async/sync_async_switch_one_checkpoint.yaml"), ::streamsim::test::testLoader());
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_TRUE(streamsim::harness::overrideStateStore(*loaded, "rocksdb"));
  EXPECT_EQ(loaded->query.stateStore, "rocksdb");
  int restarts = 0;
  for (const auto& st : loaded->steps)
    if (auto* r = std::get_if<streamsim::harness::RestartStep>(&st.step); r && r->query) {
      EXPECT_EQ(r->query->stateStore, "rocksdb");
      ++restarts;
    }
  EXPECT_EQ(restarts, 2);
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

// The replay command after "replay: <program> " on the line of `text` that follows `after`,
// without the program (runCli adds it).
std::string replayCommandIn(const std::string& text, const std::string& after) {
  size_t from = text.find(after);
  if (from == std::string::npos) return "";
  const std::string head = std::string("replay: ") + STREAMSIM_CLI + " replay ";
  size_t at = text.find(head, from);
  if (at == std::string::npos) return "";
  at += head.size() - std::string("replay ").size();
  return text.substr(at, text.find('\n', at) - at);
}

TEST(Cli, ShrunkCaseAndItsReplayCommandReproduceTheFailure) {
  std::string f = tempCopy(scenario("seeds/counter_a3_b2.yaml"), "count: 3", "count: 4");
  // Seed 1's generated plan has a crash; the failure does not need it, so RapidCheck's shrink
  // drops it and the printed command replays the minimal plan.
  Out s = runCli("sweep " + f + " --seeds 2");
  EXPECT_EQ(s.code, 1) << s.text;
  EXPECT_NE(s.text.find("minimal:    0 faults (of "), std::string::npos) << s.text;
  std::string cmd = replayCommandIn(s.text, "seed 1 (");
  ASSERT_NE(cmd, "") << s.text;
  EXPECT_NE(cmd.find("--seed 1 --plan '{\"seed\":1,\"faults\":[]}'"), std::string::npos) << cmd;
  Out again = runCli(cmd);
  EXPECT_EQ(again.code, 1) << cmd << "\n" << again.text;
  EXPECT_NE(again.text.find("count=3"), std::string::npos) << again.text;
  // replay of the seed itself shrinks too and prints the same command.
  Out r = runCli("replay " + f + " --seed 1");
  EXPECT_EQ(r.code, 1) << r.text;
  EXPECT_NE(r.text.find("minimal case 0 faults (of "), std::string::npos) << r.text;
  EXPECT_EQ(replayCommandIn(r.text, "minimal case"), cmd) << r.text;
  std::filesystem::remove(f);
}

// Issue 33: an oracle name a replay line gives that no oracle has is bad input (exit 2, the known
// names listed), never silently dropped (the workload path dropped it and ran the others).
TEST(Cli, ReplayWithAnUnknownOracleExitsTwo) {
  Out o = runCli("replay count --seed 3 --oracle nosuchoracle");
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("unknown oracle 'nosuchoracle'"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("exactly_once"), std::string::npos) << o.text;
  Out ok = runCli("replay count --seed 3 --oracle exactly_once");
  EXPECT_EQ(ok.code, 0) << ok.text;
}

// `sweep --json` and `--junit` carry each seed's faults: planned and fired (point, batch), the
// JUnit test cases with time= and classname = the scenario's file path.
TEST(Cli, SweepJsonAndJunitCarryEachSeedsFaultsAndTimes) {
  std::string f = scenario("crash/offsets_after_write.yaml");
  std::string base = (std::filesystem::temp_directory_path() /
                      ("streamsim_reports_" + std::to_string(::getpid()))).string();
  Out s = runCli("sweep " + f + " --seeds 4 --no-progress --json " + base + ".json --junit " + base + ".xml");
  ASSERT_EQ(s.code, 0) << s.text;
  std::ifstream jin(base + ".json");
  auto j = nlohmann::json::parse(jin, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_EQ(j["results"].size(), 4u) << j.dump(2);
  std::map<uint64_t, std::pair<int, std::string>> faults;  // seed -> (planned, fired as JUnit says)
  int fired = 0;
  for (const auto& r : j["results"]) {
    const auto& fa = r.at("faults");
    ASSERT_TRUE(fa.at("planned").is_number_integer()) << r.dump(2);
    ASSERT_TRUE(fa.at("plannedFired").is_number_integer()) << r.dump(2);
    EXPECT_LE(fa["plannedFired"].get<int>(), fa["planned"].get<int>()) << r.dump(2);
    std::string text;
    for (const auto& x : fa.at("fired")) {
      ASSERT_TRUE(x.at("point").is_string() && x.at("batch").is_number_integer()) << r.dump(2);
      text += fmt::format("{}{} at {} (batch {}{})", text.empty() ? "" : "; ", x["kind"].get<std::string>(),
                          x["point"].get<std::string>(), x["batch"].get<int64_t>(),
                          x.contains("partition") ? fmt::format(", partition {}", x["partition"].get<int>()) : "");
      ++fired;
    }
    faults[r["seed"].get<uint64_t>()] = {fa["planned"].get<int>(), text.empty() ? "none" : text};
    EXPECT_EQ(r.at("file"), f);
    EXPECT_TRUE(r.at("seconds").is_number()) << r.dump(2);
  }
  EXPECT_GT(fired, 0) << j.dump(2);  // the plans aim at what the run reaches
  EXPECT_EQ(j.at("totals").at("seeds"), 4);

  std::ifstream xin(base + ".xml");
  std::string x((std::istreambuf_iterator<char>(xin)), {});
  EXPECT_NE(x.find("<testsuites tests=\"4\" failures=\"0\" time=\""), std::string::npos) << x;
  EXPECT_NE(x.find("<testsuite name=\"" + f + "\" tests=\"4\" failures=\"0\" time=\""), std::string::npos) << x;
  for (const auto& [seed, planned] : faults) {
    const std::string testcase = fmt::format("<testcase classname=\"{}\" name=\"seed {}\" time=\"", f, seed);
    const size_t at = x.find(testcase);
    ASSERT_NE(at, std::string::npos) << testcase << "\n" << x;
    const std::string time = x.substr(at + testcase.size(), x.find('"', at + testcase.size()) - at - testcase.size());
    EXPECT_NO_THROW(std::stod(time)) << time;
    const size_t end = x.find("</testcase>", at);
    const std::string props = x.substr(at, end - at);
    EXPECT_NE(props.find(fmt::format("<property name=\"faults.planned\" value=\"{}\"/>", planned.first)),
              std::string::npos) << props;
    EXPECT_NE(props.find(fmt::format("<property name=\"faults.fired\" value=\"{}\"/>", planned.second)),
              std::string::npos) << props;
  }
  std::filesystem::remove(base + ".json");
  std::filesystem::remove(base + ".xml");
}

TEST(Cli, MergeShardReportsCoversEverySeedOnce) {
  std::string f = scenario("seeds/counter_a3_b2.yaml");
  std::string base = (std::filesystem::temp_directory_path() /
                      ("streamsim_merge_" + std::to_string(::getpid()))).string();
  Out a = runCli("sweep " + f + " --seeds 6 --shard 0/2 --json " + base + "_a.json");
  Out b = runCli("sweep " + f + " --seeds 6 --shard 1/2 --json " + base + "_b.json");
  ASSERT_EQ(a.code, 0) << a.text;
  ASSERT_EQ(b.code, 0) << b.text;
  Out m = runCli("merge " + base + "_b.json " + base + "_a.json --json " + base + "_all.json");
  EXPECT_EQ(m.code, 0) << m.text;
  EXPECT_NE(m.text.find("PASS 2 reports: 6 seeds of 1 file, 0 failed"), std::string::npos) << m.text;
  std::ifstream in(base + "_all.json");
  std::string s((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::string> seeds;
  for (size_t at = s.find("\"seed\":"); at != std::string::npos; at = s.find("\"seed\":", at + 1)) {
    size_t start = s.find_first_not_of(' ', at + 7);
    seeds.push_back(s.substr(start, s.find_first_of(",}\n", start) - start));
  }
  EXPECT_EQ(seeds, (std::vector<std::string>{"0", "1", "2", "3", "4", "5"})) << s;
  // The same shard twice, or a shard left out: exit 2 naming the problem.
  Out twice = runCli("merge " + base + "_a.json " + base + "_a.json");
  EXPECT_EQ(twice.code, 2) << twice.text;
  EXPECT_NE(twice.text.find("is in both"), std::string::npos) << twice.text;
  Out partial = runCli("merge " + base + "_a.json");
  EXPECT_EQ(partial.code, 2) << partial.text;
  EXPECT_NE(partial.text.find("seeds 1,3 are missing"), std::string::npos) << partial.text;
  Out notReport = runCli("merge " + f);
  EXPECT_EQ(notReport.code, 2) << notReport.text;
  for (const char* x : {"_a.json", "_b.json", "_all.json"}) std::filesystem::remove(base + x);
}

// The TOTAL line in `text` without its wall time ("; 1.2 s").
std::string totalLine(const std::string& text) {
  size_t at = text.find("TOTAL ");
  if (at == std::string::npos) return "";
  std::string line = text.substr(at, text.find('\n', at) - at);
  return line.substr(0, line.rfind("; "));
}

// The scale-out carriers (docs/scale-out.md: a CI matrix, a Kubernetes Indexed Job) run one
// process per shard and merge the reports: three shard processes at once, merged, give the same
// results and the same TOTAL line as the sweep in one process (timings aside).
TEST(Cli, MergedShardProcessesEqualTheSingleProcessSweep) {
  std::string f = scenario("crash/offsets_after_write.yaml");
  std::string base = (std::filesystem::temp_directory_path() /
                      ("streamsim_shards_" + std::to_string(::getpid()))).string();
  std::string cli = STREAMSIM_CLI;
  std::string shards;
  for (int i = 0; i < 3; ++i)
    shards += fmt::format("{} sweep {} --seeds 12 --no-progress --shard {}/3 --json {}_{}.json > /dev/null & ",
                          cli, f, i, base, i);
  Out run = streamsim::testing::runShell("sh -c '" + shards + "wait'");
  ASSERT_EQ(run.code, 0) << run.text;
  Out m = runCli("merge " + base + "_2.json " + base + "_0.json " + base + "_1.json --json " + base + "_merged.json");
  ASSERT_EQ(m.code, 0) << m.text;
  Out one = runCli("sweep " + f + " --seeds 12 --no-progress --json " + base + "_one.json");
  ASSERT_EQ(one.code, 0) << one.text;
  auto results = [](const std::string& path) {
    std::ifstream in(path);
    auto j = nlohmann::json::parse(in, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << path;
    nlohmann::json out = nlohmann::json::array();
    if (j.is_discarded()) return out;
    for (auto r : j["results"]) {
      r.erase("seconds");
      out.push_back(r);
    }
    return out;
  };
  auto merged = results(base + "_merged.json");
  EXPECT_EQ(merged.size(), 12u);
  EXPECT_EQ(merged, results(base + "_one.json"));
  // The totals: rebuilt from the shards' results, the single process's line (faults fired, runs,
  // crashes, restarts, oracle checks), its wall time aside.
  EXPECT_NE(totalLine(one.text), "") << one.text;
  EXPECT_NE(totalLine(one.text).find("TOTAL PASS (0 failed): 1 scenario, 12 seeds"), std::string::npos) << one.text;
  EXPECT_EQ(totalLine(m.text), totalLine(one.text)) << m.text << "\n" << one.text;
  for (const char* x : {"_0.json", "_1.json", "_2.json", "_merged.json", "_one.json"}) std::filesystem::remove(base + x);
}

// A checkpoint streamsim writes to a real folder: the count processor grouped by user over a
// file source, two batches ({a.json}, {b.json}), on `store`.
std::string writeCountCheckpoint(const std::string& name, const std::string& store) {
  namespace stdfs = std::filesystem;
  using namespace streamsim;
  std::string root = (stdfs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))).string();
  stdfs::remove_all(root);
  stdfs::create_directories(root + "/landing");
  sim::VirtualClock clock(1'700'000'000'000);
  auto fs = platform::newPosixFileSystem();
  sim::SeededIdGenerator ids(3);
  Env env{&clock, fs.get(), &ids, nullptr, nullptr};
  auto query = streamsim::testing::startCountByUser(env, root + "/landing", root + "/chk", store);
  EXPECT_TRUE(query.ok()) << query.status().message();
  std::ofstream(root + "/landing/a.json") << "{\"user\":\"u1\"}\n{\"user\":\"u2\"}\n{\"user\":\"u1\"}\n";
  EXPECT_TRUE(*(*query)->triggerOnce());
  clock.advance(60'000);
  std::ofstream(root + "/landing/b.json") << "{\"user\":\"u1\"}\n{\"user\":\"u3\"}\n";
  EXPECT_TRUE(*(*query)->triggerOnce());
  (*query)->stop();
  return root;
}

TEST(Cli, StateOfAStreamsimCheckpointAfterEachBatch) {
  for (std::string store : {"memory", "rocksdb"}) {
    std::string root = writeCountCheckpoint("streamsim_cli_state_" + store, store);
    Out b0 = runCli("state " + root + "/chk --batch 0");
    EXPECT_EQ(b0.code, 0) << store << "\n" << b0.text;
    EXPECT_NE(b0.text.find("u1 = 2\n"), std::string::npos) << store << "\n" << b0.text;
    EXPECT_NE(b0.text.find("u2 = 1\n"), std::string::npos) << b0.text;
    EXPECT_EQ(b0.text.find("u3 ="), std::string::npos) << b0.text;
    Out b1 = runCli("state " + root + "/chk --batch 1");
    EXPECT_EQ(b1.code, 0) << b1.text;
    EXPECT_NE(b1.text.find("u1 = 3\n"), std::string::npos) << store << "\n" << b1.text;
    EXPECT_NE(b1.text.find("u2 = 1\n"), std::string::npos) << b1.text;
    EXPECT_NE(b1.text.find("u3 = 1\n"), std::string::npos) << b1.text;
    Out key = runCli("state " + root + "/chk --batch 1 --key u3");
    EXPECT_EQ(key.code, 0) << key.text;
    EXPECT_NE(key.text.find("u3 = 1\n"), std::string::npos) << key.text;
    EXPECT_EQ(key.text.find("u1 ="), std::string::npos) << key.text;
    Out none = runCli("state " + root + "/landing --batch 0");
    EXPECT_EQ(none.code, 2) << none.text;
    std::filesystem::remove_all(root);
  }
}

TEST(Cli, ReplayACheckpointWithItsLandingFolder) {
  std::string root = writeCountCheckpoint("streamsim_cli_ckreplay", "memory");
  std::string flags = " --landing " + root + "/landing --processor count --group-by user --schema 'user string'";
  Out o = runCli("replay --checkpoint " + root + "/chk" + flags);
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("batch 0: timestamp 1700000000000"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("batch 1: timestamp 1700000060000"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("rows in 3, out 2"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("rows in 2, out 2"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("out user=u1, count=3"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("b.json"), std::string::npos) << o.text;
  Out missing = runCli("replay --checkpoint " + root + "/nope" + flags);
  EXPECT_EQ(missing.code, 2) << missing.text;
  EXPECT_NE(missing.text.find("no such folder"), std::string::npos) << missing.text;
  std::filesystem::remove_all(root + "/chk/sources");
  Out noLog = runCli("replay --checkpoint " + root + "/chk" + flags);
  EXPECT_EQ(noLog.code, 2) << noLog.text;
  EXPECT_NE(noLog.text.find("sources/0 is missing"), std::string::npos) << noLog.text;
  Out neither = runCli("replay");
  EXPECT_EQ(neither.code, 2) << neither.text;
  std::filesystem::remove_all(root);
}

}  // namespace

// Real-world Spark checkpoints (fixtures/spark-real): `state` decodes Spark's HDFS-backed state
// files (never "corrupt": they are simply not streamsim's format) and `inspect` names the
// leftover temp file, the uncommitted batch and the verified Hadoop checksums.
TEST(Cli, StateDecodesSparkHdfsStateOfRealCheckpoints) {
  std::string real = std::string(STREAMSIM_FIXTURES_DIR) + "/../spark-real";
  if (!std::filesystem::exists(real)) GTEST_SKIP() << real << " is not there";
  Out agg = runCli("state " + real + "/agg-hdfs-lz4-1-partition");
  EXPECT_EQ(agg.code, 0) << agg.text;
  EXPECT_NE(agg.text.find("after batch 1 (the latest committed) (store version 2)"), std::string::npos) << agg.text;
  EXPECT_NE(agg.text.find("schema v2 from state/0/0/_metadata/schema"), std::string::npos) << agg.text;
  EXPECT_NE(agg.text.find("partition 0: 1 row (1.delta, 2.delta)\n    {\"key\":null} = {\"value\":100000}"),
            std::string::npos) << agg.text;
  EXPECT_EQ(agg.text.find("corrupt"), std::string::npos) << agg.text;
  Out aggJson = runCli("state --json --batch 0 " + real + "/agg-hdfs-lz4-1-partition");
  EXPECT_EQ(aggJson.code, 0) << aggJson.text;
  EXPECT_NE(aggJson.text.find("\"value\": 100000"), std::string::npos) << aggJson.text;
  EXPECT_NE(aggJson.text.find("\"format\": \"spark-hdfs\""), std::string::npos) << aggJson.text;

  std::string wm = real + "/watermark-agg-200-partitions-uncommitted";
  Out w = runCli("state " + wm);
  EXPECT_EQ(w.code, 0) << w.text;
  EXPECT_NE(w.text.find("no _metadata/schema"), std::string::npos) << w.text;
  // Partition 83 after batch 1 (version 2): the window of "FB", count 243.
  EXPECT_NE(w.text.find("partition 83: 1 row (1.delta, 2.delta)"), std::string::npos) << w.text;
  EXPECT_NE(w.text.find("\"_1\":\"FB\",\"_2\":1500463805,\"_3\":2592.0,\"_4\":2592.0,\"_5\":243"),
            std::string::npos) << w.text;
  EXPECT_NE(w.text.find("temp--7387588417774979664"), std::string::npos) << w.text;
  EXPECT_NE(w.text.find("partitions without rows"), std::string::npos) << w.text;

  Out i = runCli("inspect " + wm);
  EXPECT_EQ(i.code, 0) << i.text;
  EXPECT_NE(i.text.find("/state/0/110/temp--7387588417774979664 is a leftover temporary file"),
            std::string::npos) << i.text;
  EXPECT_NE(i.text.find("Hadoop .crc checksums: 512 files verified"), std::string::npos) << i.text;
  EXPECT_NE(i.text.find("[uncommitted-batch] offsets/2 has no commits/2"), std::string::npos) << i.text;
  Out a = runCli("inspect " + real + "/agg-hdfs-lz4-1-partition");
  EXPECT_NE(a.text.find("Hadoop .crc checksums: 10 files verified"), std::string::npos) << a.text;
  EXPECT_EQ(a.text.find("checksum-mismatch"), std::string::npos) << a.text;
}

// A Kafka source's sources/0/0 starts with a zero byte before "v1" (SPARK-19517); a changed
// byte under a Hadoop .crc is named; a RocksDB-backed Spark store whose zip is no zip is said to
// be unreadable, naming the file (never shown as empty).
TEST(Cli, InspectReadsKafkaInitialOffsetsAndChecksHadoopCrc) {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / ("streamsim_cli_kafka_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "offsets");
  fs::create_directories(root / "commits");
  fs::create_directories(root / "sources/0");
  fs::create_directories(root / "state/0/0");
  std::ofstream(root / "metadata") << "{\"id\":\"k\"}";
  std::ofstream(root / "sources/0/0", std::ios::binary)
      << std::string(1, '\0') << "v1\n{\"events\":{\"0\":10,\"1\":20}}";
  std::ofstream(root / "offsets/0") << "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1}\n"
                                       "{\"events\":{\"0\":15,\"1\":22}}";
  std::ofstream(root / "commits/0") << "v1\n{\"nextBatchWatermarkMs\":0}";
  // .0.crc of commits/0 written for other bytes: a mismatch.
  std::ofstream(root / "commits/.0.crc", std::ios::binary)
      << std::string("crc\0\0\0\x02\0\x12\x34\x56\x78", 12);
  std::ofstream(root / "state/0/0/1.zip") << "PK";
  std::ofstream(root / "state/0/0/1.changelog") << "x";
  Out o = runCli("inspect " + root.string());
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("source 0 is Kafka"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("zero byte of SPARK-19517): 1 topic, 2 partitions"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("source 0 (Kafka): 7 records"), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("malformed"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("commits/0 does not match its Hadoop checksum"), std::string::npos) << o.text;
  Out s = runCli("state " + root.string());
  EXPECT_EQ(s.code, 2) << s.text;
  EXPECT_NE(s.text.find("partition 0: cannot read version 1: " + (root / "state/0/0/1.zip").string() +
                        ": 2 bytes is too short for a zip archive"), std::string::npos) << s.text;
  EXPECT_EQ(s.text.find("without rows"), std::string::npos) << s.text;
  fs::remove_all(root);
}

// CLI conventions: --version, --seeds 0 refused, `run DIR` recursing.
TEST(Cli, VersionSeedsZeroAndRunOfAFolder) {
  Out v = runCli("--version");
  EXPECT_EQ(v.code, 0) << v.text;
  EXPECT_EQ(v.text.rfind("streamsim 0.", 0), 0u) << v.text;
  Out zero = runCli("sweep " + scenario("seeds/counter_a3_b2.yaml") + " --seeds 0");
  EXPECT_EQ(zero.code, 2) << zero.text;
  EXPECT_NE(zero.text.find("--seeds"), std::string::npos) << zero.text;
  Out dir = runCli("run " + scenario("seeds"));
  EXPECT_EQ(dir.code, 0) << dir.text;
  EXPECT_NE(dir.text.find("PASS " + scenario("seeds") + "/counter_a3_b2.yaml"), std::string::npos) << dir.text;
  EXPECT_NE(dir.text.find("PASS " + scenario("seeds") + "/initial_state_x12.yaml"), std::string::npos) << dir.text;
  Out none = runCli("run /nonexistent-streamsim-folder");
  EXPECT_EQ(none.code, 2) << none.text;
  EXPECT_NE(none.text.find("no such file or folder"), std::string::npos) << none.text;
  // Off a terminal, the sweep prints a line per file as it finishes.
  Out sweep = runCli("sweep " + scenario("seeds/counter_a3_b2.yaml") + " --seeds 2");
  EXPECT_NE(sweep.text.find("done " + scenario("seeds/counter_a3_b2.yaml") + " ("), std::string::npos) << sweep.text;
}

// `state` decodes transformWithState's rows by the kinds the checkpoint's _stateSchema records
// (tws/state_layout.h): a TTL'd list, its TTL index and timers are shown decoded, not as hex.
// Bug: TTL'd lists, timers and the TTL index were printed as raw 0x… bytes, kinds guessed from bytes.
TEST(Cli, StateDecodesTtlListsTimersAndTheTtlIndexByTheSchemasKinds) {
  namespace fs = std::filesystem;
  auto keptCheckpoint = [](const std::string& name, const std::string& file) {
    fs::path keep = fs::temp_directory_path() / ("streamsim_cli_state_kinds_" + name + std::to_string(::getpid()));
    fs::remove_all(keep);
    Out r = runCli("run --keep " + keep.string() + " " + scenario(file));
    EXPECT_EQ(r.code, 0) << r.text;
    for (const auto& e : fs::directory_iterator(keep))
      if (fs::exists(e.path() / "offsets")) return std::make_pair(keep, e.path().string());
    return std::make_pair(keep, std::string());
  };
  auto [ttlKeep, ttlChk] = keptCheckpoint("ttl", "ttl/list_element_ttl.yaml");
  ASSERT_FALSE(ttlChk.empty());
  Out ttl = runCli("state " + ttlChk);
  EXPECT_EQ(ttl.code, 0) << ttl.text;
  EXPECT_NE(ttl.text.find("u2 = [z (TTL, expires 2026-01-01T00:04:00Z)]"), std::string::npos) << ttl.text;
  EXPECT_NE(ttl.text.find("[$ttl_items]\n      u2 = expires 2026-01-01T00:04:00Z"), std::string::npos) << ttl.text;
  EXPECT_EQ(ttl.text.find("0x"), std::string::npos) << ttl.text;
  auto [timerKeep, timerChk] = keptCheckpoint("timers", "timers/data_and_due_timer_same_batch.yaml");
  ASSERT_FALSE(timerChk.empty());
  Out timers = runCli("state " + timerChk + " --key d1");
  EXPECT_EQ(timers.code, 0) << timers.text;
  EXPECT_NE(timers.text.find("[$timers_key]\n      d1 = timer at 2026-01-01T00:00:25Z"), std::string::npos) << timers.text;
  EXPECT_NE(timers.text.find("[$timers_ts]\n      d1 = timer at 2026-01-01T00:00:25Z"), std::string::npos) << timers.text;
  EXPECT_EQ(timers.text.find("0x"), std::string::npos) << timers.text;
  fs::remove_all(ttlKeep);
  fs::remove_all(timerKeep);
}

// run --keep DIR writes the simulated checkpoint, sink and landing folder; inspect (with the
// copied sink: its committed files are not orphans) and state --json read them.
TEST(Cli, RunKeepWritesTheSimulatedFilesForInspectAndState) {
  namespace fs = std::filesystem;
  fs::path keep = fs::temp_directory_path() / ("streamsim_cli_keep_" + std::to_string(::getpid()));
  fs::remove_all(keep);
  Out r = runCli("run --keep " + keep.string() + " " + scenario("crash/offsets_after_write.yaml"));
  ASSERT_EQ(r.code, 0) << r.text;
  EXPECT_NE(r.text.find("kept the simulated files"), std::string::npos) << r.text;
  ASSERT_TRUE(fs::exists(keep / "landing/a.json")) << r.text;
  ASSERT_TRUE(fs::exists(keep / "out/_spark_metadata")) << r.text;
  std::string chk;
  for (const auto& e : fs::directory_iterator(keep))
    if (fs::exists(e.path() / "offsets")) chk = e.path().string();
  ASSERT_FALSE(chk.empty()) << "no checkpoint folder under " << keep;
  Out i = runCli("inspect " + chk + " --sink " + (keep / "out").string());
  EXPECT_EQ(i.code, 0) << i.text;
  EXPECT_NE(i.text.find("0 orphan(s)"), std::string::npos) << i.text;
  EXPECT_EQ(i.text.find("[orphan-files]"), std::string::npos) << i.text;
  EXPECT_NE(i.text.find("batch 1: offsets yes, committed yes"), std::string::npos) << i.text;
  Out s = runCli("state --json " + chk);
  EXPECT_EQ(s.code, 0) << s.text;
  EXPECT_NE(s.text.find("\"format\": \"streamsim\""), std::string::npos) << s.text;
  EXPECT_NE(s.text.find("\"rows\""), std::string::npos) << s.text;
  fs::remove_all(keep);
}

// A scenario's checkpoint written with run --keep, its early batches purged by
// minBatchesToRetain: `replay --checkpoint` starts after the first batch kept (grouping columns,
// time mode and state store read from the checkpoint) and compares each replayed batch with what
// the kept sink committed -- equal, exit 0; after one committed row is altered, exit 1 naming
// that batch as the first difference.
TEST(Cli, ReplayACheckpointWithPurgedBatchesAgainstItsSink) {
  namespace fs = std::filesystem;
  fs::path keep = fs::temp_directory_path() / ("streamsim_cli_keep_purged_" + std::to_string(::getpid()));
  fs::remove_all(keep);
  Out r = runCli("run --keep " + keep.string() + " " +
                 scenario("checkpoint/min_batches_to_retain_purges_old_batches.yaml"));
  ASSERT_EQ(r.code, 0) << r.text;
  ASSERT_FALSE(fs::exists(keep / "chk/offsets/0")) << "minBatchesToRetain purged nothing";
  const std::string replay = "replay --checkpoint " + (keep / "chk").string() + " --landing " +
                             (keep / "landing").string() + " --sink " + (keep / "out").string() +
                             " --processor count --schema 'event_id string, device string, event_time timestamp'";
  Out same = runCli(replay);
  EXPECT_EQ(same.code, 0) << same.text;
  EXPECT_NE(same.text.find("grouped by device, timeMode None, memory state store"), std::string::npos) << same.text;
  EXPECT_NE(same.text.find("the replay starts at batch 3 from the state batch 2 committed"), std::string::npos)
      << same.text;
  EXPECT_EQ(same.text.find("batch 2: timestamp"), std::string::npos) << same.text;
  EXPECT_NE(same.text.find("out device=d1, count=3"), std::string::npos) << same.text;
  EXPECT_NE(same.text.find("out device=d2, count=3"), std::string::npos) << same.text;
  EXPECT_NE(same.text.find("every compared batch's output equals what the sink committed"), std::string::npos)
      << same.text;
  // Batch 3's committed data file, as its sink log entry names it, now says d1 counted 7.
  std::ifstream logIn(keep / "out/_spark_metadata/3");
  std::string line, dataFile;
  while (std::getline(logIn, line))
    if (auto at = line.find("\"path\":\""); at != std::string::npos) {
      std::string p = line.substr(at + 8, line.find('"', at + 8) - at - 8);
      dataFile = (keep / "out" / fs::path(p).filename()).string();
    }
  ASSERT_TRUE(fs::exists(dataFile)) << dataFile;
  std::ofstream(dataFile) << "{\"device\":\"d1\",\"count\":7}\n";
  Out differs = runCli(replay);
  EXPECT_EQ(differs.code, 1) << differs.text;
  EXPECT_NE(differs.text.find("DIFFERS from what the sink committed"), std::string::npos) << differs.text;
  EXPECT_NE(differs.text.find("sink device=d1, count=7"), std::string::npos) << differs.text;
  EXPECT_NE(differs.text.find("first difference from the sink: batch 3"), std::string::npos) << differs.text;
  fs::remove_all(keep);
}
