// An incident as a sweepable scenario (issue 39 item 4, docs/incident-replay.md): a scenario's
// `from_checkpoint: {path, batch}` starts its run after a real checkpoint's committed batch on the
// state that batch committed (Spark's RocksDB store carried over, checkpoint_replay.h's
// checkpointStartFiles). A sweep of it prints a reproduce line that runs as printed and gives the
// same failure; bad `from_checkpoint` input is an error at its line naming the checkpoint file.
// The passing library scenario is scenarios/incidents/running_count_from_spark_checkpoint.yaml
// (run and swept by CTest).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "streamsim/harness/scenario.h"
#include "../reliability/cli_test_support.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

using Out = streamsim::testing::CliOut;
Out shell(const std::string& line) { return streamsim::testing::runShell(line); }

using streamsim::testing::lineAfter;
using streamsim::testing::traceHashIn;

std::string fixture() {
  return (std::filesystem::path(STREAMSIM_FIXTURES_DIR).parent_path() / "spark-rocksdb" /
          "tws-valuestate-unsaferow-4.0").string();
}

// Spark's running count continued from the fixture's batch 1, with `expect` after the first new
// batch and `fromCheckpoint` as the scenario's key.
std::string incident(const std::string& fromCheckpoint, const std::string& expect) {
  return "name: an incident\n" + fromCheckpoint + R"(
query:
  source: {kind: files, path: /landing, format: json, schema: "value string"}
  operators:
    - groupBy: [value]
      transformWithState: {python: )" + std::string(STREAMSIM_SOURCE_DIR) +
         R"(/scenarios/incidents/processors/spark_running_count.py, class: RunningCountStatefulProcessor,
                           outputStructType: "_1 string, _2 string", outputMode: update, timeMode: None}
  sink: {kind: files, path: /out, format: json}
  outputMode: update
  stateStore: rocksdb
steps:
  - put: {path: /landing/1.json, rows: [{value: a}, {value: b}, {value: c}]}
  - run: available
  - expect:
      sink: )" + expect + R"(
sweep: {crash_points: all, max_crashes: 2}
)";
}

std::string from(int batch) {
  return "from_checkpoint: {path: " + fixture() + ", batch: " + std::to_string(batch) + "}";
}

std::string writeTemp(const std::string& name, const std::string& text) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("streamsim_incident_" + std::to_string(::getpid()) + "_" + name)).string();
  std::ofstream(path) << text;
  return path;
}

TEST(IncidentScenario, StartsOnTheCheckpointsStateAndItsSweepsReproduceLineRunsAsPrinted) {
  ASSERT_TRUE(std::filesystem::exists(fixture())) << fixture() << " is missing";
  // What Spark's processor does on the state batch 1 committed (a -> 2, b -> 1): a reaches 3 and
  // is cleared, b continues at 2, c starts at 1.
  auto load = parseScenario(incident(from(1), R"([{_1: b, _2: "2"}, {_1: c, _2: "1"}])"), "incident.yaml", ::streamsim::test::testLoader());
  ASSERT_TRUE(load.ok()) << load.errorText();
  ASSERT_TRUE(load.scenario->fromCheckpoint);
  EXPECT_NE(load.scenario->fromCheckpoint->stateLoaded.find("countState"), std::string::npos);
  EXPECT_TRUE(load.scenario->fromCheckpoint->files.count("offsets/1"));
  EXPECT_TRUE(load.scenario->fromCheckpoint->files.count("commits/1"));
  EXPECT_TRUE(load.scenario->fromCheckpoint->files.count("state/0/0/2.snapshot"));
  const std::string program = STREAMSIM_CLI;
  std::string good = writeTemp("good.yaml", incident(from(1), R"([{_1: b, _2: "2"}, {_1: c, _2: "1"}])"));
  Out pass = shell(program + " sweep " + good + " --seeds 5 --no-progress");
  EXPECT_EQ(pass.code, 0) << pass.text;

  // The on-call's belief that the state was lost (b would start again at 1): every seed fails, and
  // the line a seed prints reproduces its failure and trace.
  std::string bad = writeTemp("bad.yaml", incident(from(1), R"([{_1: a, _2: "1"}, {_1: b, _2: "1"}, {_1: c, _2: "1"}])"));
  Out sweep = shell(program + " sweep " + bad + " --seeds 3 --no-progress");
  ASSERT_EQ(sweep.code, 1) << sweep.text;
  size_t seed2 = sweep.text.find("seed 2 (");
  ASSERT_NE(seed2, std::string::npos) << sweep.text;
  std::string replay = lineAfter(sweep.text, "replay: ", seed2);
  // (a Python processor's line also names the seed's hash seed: --hash-seed H, the hash_seed oracle)
  ASSERT_EQ(replay.rfind(program + " replay " + bad + " --seed 2 ", 0), 0u) << sweep.text;
  ASSERT_NE(replay.find(" --plan '"), std::string::npos) << sweep.text;
  std::string printed = traceHashIn(sweep.text, sweep.text.find("minimal:", seed2));
  ASSERT_EQ(printed.size(), 16u) << sweep.text;
  Out replayed = shell(replay);
  EXPECT_EQ(replayed.code, 1) << replay << "\n" << replayed.text;
  EXPECT_EQ(traceHashIn(replayed.text), printed) << replay << "\n" << replayed.text;
  EXPECT_NE(replayed.text.find("{_1=\"b\", _2=\"2\"}"), std::string::npos) << replayed.text;  // what b really emitted
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

TEST(IncidentScenario, BadFromCheckpointIsAnErrorAtItsLineNamingTheCheckpoint) {
  auto errorOf = [](const std::string& yaml) {
    auto load = parseScenario(yaml, "incident.yaml", ::streamsim::test::testLoader());
    EXPECT_FALSE(load.ok());
    return load.errorText();
  };
  // A batch the checkpoint never committed.
  std::string e = errorOf(incident(from(7), "[]"));
  EXPECT_NE(e.find("incident.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("has no committed batch 7 (offsets/7 and commits/7)"), std::string::npos) << e;
  // No such folder.
  e = errorOf(incident("from_checkpoint: {path: /no/such/checkpoint, batch: 1}", "[]"));
  EXPECT_NE(e.find("from_checkpoint: /no/such/checkpoint: no such folder"), std::string::npos) << e;
  // A key missing, and an unknown one.
  e = errorOf(incident("from_checkpoint: {path: " + fixture() + "}", "[]"));
  EXPECT_NE(e.find("from_checkpoint needs path"), std::string::npos) << e;
  // The grouping column's type contradicts the state's key (a long where Spark's key is a string).
  std::string yaml = incident(from(1), "[]");
  yaml.replace(yaml.find("\"value string\""), 14, "\"value long\"");
  yaml.replace(yaml.find("{value: a}, {value: b}, {value: c}"), 34, "{value: 1}");
  e = errorOf(yaml);
  EXPECT_NE(e.find("grouping key field value"), std::string::npos) << e;
}

}  // namespace
}  // namespace streamsim::harness
