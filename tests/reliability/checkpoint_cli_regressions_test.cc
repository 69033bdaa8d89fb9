// Regression tests of issue 18 (reliability) for the commands that read a checkpoint through
// the CLI (`replay --checkpoint`, `inspect`, `state`), one per defect and named after it. Each
// test writes a real checkpoint with `streamsim run --keep`, damages it as the defect needs and
// checks the exit code (0 held, 1 a check failed, 2 bad input) and that the message names the
// user's own file.
#include <filesystem>

#include <gtest/gtest.h>

#include "reliability/cli_test_support.h"
#include "test_paths.h"

namespace streamsim::testing {
namespace {

namespace fs = std::filesystem;

using streamsim::testing::kTwoBatches;

// Runs `scenario` and keeps its simulated folders in d/kept; returns that folder.
std::string keep(const ScratchDir& d, const std::string& scenario) {
  std::string f = d.write("s.yaml", scenario);
  CliOut o = runCli("run " + f + " --keep " + d.path() + "/kept");
  EXPECT_EQ(o.code, 0) << o.text;
  return d.path() + "/kept";
}

std::string replayArgs(const std::string& chk, const std::string& landing) {
  return "replay --checkpoint " + chk + " --landing " + landing +
         " --processor count --group-by device --schema 'device string'";
}

TEST(ReliabilityCheckpointCli, ReplayOfACorruptOffsetsFileExitsTwoNamingTheUsersFile) {
  ScratchDir d("replay_corrupt_offsets");
  std::string kept = keep(d, kTwoBatches);
  ASSERT_EQ(runCli(replayArgs(kept + "/chk", kept + "/landing")).code, 0);
  d.write("kept/chk/offsets/1", "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":17\n");
  CliOut o = runCli(replayArgs(kept + "/chk", kept + "/landing"));
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("cannot be replayed: [unreadable] " + kept + "/chk/offsets/1:2"),
            std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("/replay/checkpoint"), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("batch 0:"), std::string::npos) << "replayed past the bad file: " << o.text;
}

TEST(ReliabilityCheckpointCli, ReplayOfACorruptSourceLogExitsTwoNamingTheUsersFile) {
  ScratchDir d("replay_corrupt_source_log");
  std::string kept = keep(d, kTwoBatches);
  d.write("kept/chk/sources/0/1", "v1\n{\"path\":\"file:///landing/b.json\",\"timestamp\":17");
  CliOut o = runCli(replayArgs(kept + "/chk", kept + "/landing"));
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find(kept + "/chk/sources/0/1:2"), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("/replay/checkpoint"), std::string::npos) << o.text;
}

// Spark 2.1's compacted source log (2.compact, 3, 4): batches 0 and 1 are read from 2.compact.
TEST(ReliabilityCheckpointCli, ReplayOfASpark21CompactedSourceLogReadsRemovedBatches) {
  ScratchDir d("replay_spark21_compact");
  const fs::path log = fs::path(STREAMSIM_FIXTURES_DIR) / "file-source-log-version-2.1.0";
  fs::create_directories(d.path() + "/chk/sources/0");
  for (const auto& f : fs::directory_iterator(log))
    fs::copy_file(f.path(), d.path() + "/chk/sources/0/" + f.path().filename().string());
  for (int i = 0; i < 5; ++i) {
    d.write("chk/offsets/" + std::to_string(i),
            "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":148073095" + std::to_string(i) +
                "000,\"conf\":{}}\n{\"logOffset\":" + std::to_string(i) + "}");
    d.write("landing/" + std::to_string(i), "{\"device\":\"d" + std::to_string(i) + "\"}\n");
  }
  CliOut o = runCli(replayArgs(d.path() + "/chk", d.path() + "/landing"));
  ASSERT_EQ(o.code, 0) << o.text;
  for (int i = 0; i < 5; ++i) {
    EXPECT_NE(o.text.find("batch " + std::to_string(i) + ": timestamp 148073095" +
                          std::to_string(i) + "000"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("  file /a/b/" + std::to_string(i) + "\n"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("out device=d" + std::to_string(i) + ", count=1"), std::string::npos)
        << o.text;
  }
}

TEST(ReliabilityCheckpointCli, InspectOfASinkLogLackingItsCompactFileSaysItIsMissing) {
  ScratchDir d("inspect_sink_without_compact");
  std::string kept = keep(d, kTwoBatches);
  const fs::path log = fs::path(STREAMSIM_FIXTURES_DIR) / "file-sink-log-version-2.1.0";
  fs::create_directories(d.path() + "/sink/_spark_metadata");
  for (std::string n : {"8", "9"})
    fs::copy_file(log / n, d.path() + "/sink/_spark_metadata/" + n);
  CliOut o = runCli("inspect " + kept + "/chk --sink " + d.path() + "/sink");
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("[missing] " + d.path() + "/sink/_spark_metadata: batches 0 to 7 are "
                        "missing"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find(d.path() + "/sink/_spark_metadata/7.compact"), std::string::npos) << o.text;
}

TEST(ReliabilityCheckpointCli, StateSaysWhichCorruptSnapshotItReadAround) {
  ScratchDir d("state_corrupt_snapshot");
  std::string scenario = R"(name: eleven batches write a snapshot at version 10
query:
  source: {kind: memory, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
  shufflePartitions: 1
steps:
)";
  for (int i = 1; i <= 11; ++i)
    scenario += "  - add_rows: [{device: d" + std::to_string(i) + "}]\n  - run: 1\n";
  std::string kept = keep(d, scenario);
  const std::string snapshot = kept + "/chk/state/0/0/10.snapshot";
  ASSERT_TRUE(fs::exists(snapshot));
  CliOut good = runCli("state " + kept + "/chk");
  ASSERT_EQ(good.code, 0) << good.text;
  EXPECT_EQ(good.text.find("WARNING"), std::string::npos) << good.text;
  d.write("kept/chk/state/0/0/10.snapshot", "SSSTATE1 torn in the middle of a record");
  CliOut o = runCli("state " + kept + "/chk");
  EXPECT_EQ(o.code, 0) << o.text;  // the deltas still give version 11
  EXPECT_NE(o.text.find("11 entries"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("WARNING: " + snapshot + " is unreadable ("), std::string::npos) << o.text;
}

}  // namespace
}  // namespace streamsim::testing
