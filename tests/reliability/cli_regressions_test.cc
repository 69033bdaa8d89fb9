// Regression tests of issue 18 (reliability) through the CLI, one per defect, each named after
// the bug: before its fix each of these aborted the process, ran out of memory, or exited 0
// without doing what it said. Exit codes: 0 held, 1 a check failed, 2 bad input.
#include <sys/stat.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reliability/cli_test_support.h"
#include "test_paths.h"

namespace streamsim::testing {
namespace {

constexpr const char* kFilesToFiles = R"(name: %NAME%
query:
  source: {kind: files, path: /landing, format: json,
           schema: "id string, _corrupt_record string", options: {mode: %MODE%}}
  sink: {kind: files, path: /out}
steps:
  - put: {path: /landing/a.json, text: "{\"id\": \"a)" "\xff" R"(b\"}\n{\"id\": )" "\xfe" R"(}\n"}
  - run: available
)";

std::string scenario(std::string name, std::string mode) {
  std::string s = kFilesToFiles;
  s.replace(s.find("%NAME%"), 6, name);
  s.replace(s.find("%MODE%"), 6, mode);
  return s;
}

TEST(ReliabilityCli, InvalidUtf8InAPermissiveCorruptRecordDoesNotAbort) {
  ScratchDir d("utf8_permissive");
  std::string f = d.write("s.yaml", scenario("invalid UTF-8 in a landing file", "PERMISSIVE"));
  CliOut o = runCli("run " + f);
  EXPECT_EQ(o.code, 0) << o.text;
}

TEST(ReliabilityCli, InvalidUtf8InAFailFastErrorDoesNotAbort) {
  ScratchDir d("utf8_failfast");
  std::string f = d.write("s.yaml", scenario("invalid UTF-8 under FAILFAST", "FAILFAST"));
  CliOut o = runCli("run " + f);
  EXPECT_EQ(o.code, 1) << o.text;  // the query failed: a failed check, not an abort
  EXPECT_NE(o.text.find("FAIL"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, InvalidUtf8InAScenarioNameDoesNotAbortSweepJson) {
  ScratchDir d("utf8_name");
  std::string f = d.write("s.yaml", std::string("name: caf\xe9 in Latin-1\n") + R"(query:
  source: {kind: memory, schema: "id string"}
  sink: {kind: memory}
steps:
  - add_rows: [{id: a}]
  - run: available
)");
  CliOut o = runCli("sweep " + f + " --seeds 2 --json " + d.path() + "/r.json");
  ASSERT_EQ(o.code, 0) << o.text;
  auto j = nlohmann::json::parse(d.read("r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["results"][0]["name"], "caf\xef\xbf\xbd in Latin-1");  // U+FFFD
}

TEST(ReliabilityCli, SweepJsonIntoAMissingFolderExitsTwo) {
  ScratchDir d("sweep_json_missing");
  std::string f = d.write("s.yaml", kTiny);
  CliOut o = runCli("sweep " + f + " --seeds 1 --json " + d.path() + "/no/such/dir/x.json");
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("no/such/dir/x.json: cannot write the report"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, SweepJunitOnAFolderExitsTwo) {
  ScratchDir d("sweep_junit_folder");
  std::string f = d.write("s.yaml", kTiny);
  CliOut o = runCli("sweep " + f + " --seeds 1 --junit " + d.path());
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("is a folder"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, SweepFirstSeedNearTheLastDoesNotWrapToNoSeeds) {
  ScratchDir d("sweep_first_seed");
  std::string f = d.write("s.yaml", kTiny);
  CliOut o = runCli("sweep " + f + " --first-seed 18446744073709551614 --seeds 3");
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("runs past the last seed"), std::string::npos) << o.text;
  CliOut last = runCli("sweep " + f + " --first-seed 18446744073709551614 --seeds 2");
  EXPECT_EQ(last.code, 0) << last.text;
  EXPECT_NE(last.text.find("2 seeds, 0 failed"), std::string::npos) << last.text;
}

std::string report(const std::string& results) {
  return R"({"shard": {"index": 0, "count": 1}, "results": )" + results + "}";
}

TEST(ReliabilityCli, MergeOfAResultThatIsNotAnObjectExitsTwo) {
  ScratchDir d("merge_not_object");
  std::string a = d.write("a.json", report("[1]"));
  CliOut o = runCli("merge " + a);
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("result 0 is not a sweep result"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, MergeOfAStringSeedExitsTwo) {
  ScratchDir d("merge_string_seed");
  std::string a = d.write("a.json", report(R"([{"file": "x.yaml", "seed": "7", "passed": true}])"));
  CliOut o = runCli("merge " + a);
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("not a sweep result"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, MergeOfSeedsZeroAndMaxCountsTheGapWithoutListingIt) {
  ScratchDir d("merge_wide_gap");
  std::string a = d.write("a.json", report(R"([{"file": "x.yaml", "seed": 0, "passed": true}])"));
  std::string b = d.write(
      "b.json", report(R"([{"file": "x.yaml", "seed": 18446744073709551615, "passed": true}])"));
  CliOut o = runCli("merge " + a + " " + b);
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("(18446744073709551614 in all)"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, MergeJsonIntoAMissingFolderExitsTwo) {
  ScratchDir d("merge_json_missing");
  std::string a = d.write("a.json", report(R"([{"file": "x.yaml", "seed": 0, "passed": true}])"));
  CliOut o = runCli("merge " + a + " --json " + d.path() + "/no/such/x.json");
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("cannot write the report"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, StateOperatorFolderPastIntDoesNotAbort) {
  ScratchDir d("state_big_folder");
  std::filesystem::create_directories(d.path() + "/state/99999999999/0");
  std::filesystem::create_directories(d.path() + "/state/0/4294967296");
  CliOut o = runCli("state " + d.path() + " --batch 0");
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("no state for operator"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, StateBatchInt64MaxDoesNotOverflowTheVersion) {
  ScratchDir d("state_batch_max");
  std::filesystem::create_directories(d.path() + "/state/0/0");
  CliOut o = runCli("state " + d.path() + " --batch 9223372036854775807");
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find("--batch must be between 0 and 9223372036854775806"), std::string::npos)
      << o.text;
  EXPECT_EQ(o.text.find("version -"), std::string::npos) << o.text;
}

TEST(ReliabilityCli, BadInputFoundWhenTheQueryStartsExitsTwoWithTheScenarioLine) {
  // minBatchesToRetain: 0 is refused by DataStreamWriter::start: before the fix that was exit 1
  // ("FAIL ... reproduce") with no line of the scenario.
  ScratchDir d("start_error");
  std::string f = d.write("s.yaml", R"(name: a conf the query refuses when it starts
query:
  source: {kind: memory, schema: "id string"}
  sink: {kind: memory}
  conf: {spark.sql.streaming.minBatchesToRetain: "0"}
steps:
  - add_rows: [{id: a}]
  - run: available
)");
  CliOut o = runCli("run " + f);
  EXPECT_EQ(o.code, 2) << o.text;
  EXPECT_NE(o.text.find(f + ":3:3: the query cannot start"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("minBatchesToRetain"), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("reproduce"), std::string::npos) << o.text;
}

}  // namespace
}  // namespace streamsim::testing

namespace streamsim::testing {
namespace {

// Bug: a FIFO (or /dev/zero) where a checkpoint file belongs blocked `inspect` and `state`
// forever. Now the read refuses what is not a regular file, and the command ends (exit 2 or a
// diagnosis), naming the path. `timeout` turns a regression into a failure instead of a hang.
TEST(ReliabilityCli, AFifoWhereACheckpointFileBelongsDoesNotHangInspectOrState) {
  ScratchDir d("fifo_checkpoint");
  d.write("chk/metadata", "{\"id\":\"5f1b7e3a-0000-4000-8000-000000000001\"}\n");
  d.write("chk/commits/.keep", "");
  std::filesystem::create_directories(d.path() + "/chk/offsets");
  ASSERT_EQ(::mkfifo((d.path() + "/chk/offsets/0").c_str(), 0600), 0);
  CliOut inspect = runShell("timeout 30 " + std::string(STREAMSIM_CLI) + " inspect " + d.path() + "/chk");
  EXPECT_NE(inspect.code, 124) << "inspect hung on the FIFO:\n" << inspect.text;
  EXPECT_NE(inspect.text.find("offsets/0 is a FIFO (named pipe), not a regular file"), std::string::npos)
      << inspect.text;
  // A state file that is a FIFO, in a checkpoint with one committed batch.
  std::filesystem::remove(d.path() + "/chk/offsets/0");
  d.write("chk/offsets/0", "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,\"conf\":{}}\n{\"logOffset\":0}\n");
  d.write("chk/commits/0", "v1\n{\"nextBatchWatermarkMs\":0}\n");
  std::filesystem::create_directories(d.path() + "/chk/state/0/0");
  ASSERT_EQ(::mkfifo((d.path() + "/chk/state/0/0/1.delta").c_str(), 0600), 0);
  CliOut state = runShell("timeout 30 " + std::string(STREAMSIM_CLI) + " state " + d.path() + "/chk");
  EXPECT_NE(state.code, 124) << "state hung on the FIFO:\n" << state.text;
  EXPECT_EQ(state.code, 2) << state.text;
  EXPECT_NE(state.text.find("1.delta is a FIFO (named pipe), not a regular file"), std::string::npos)
      << state.text;
}

// Bug: a state file that starts like no known format was called "Spark's HDFS-backed state store
// compressed with unknown". Now it is named with its first bytes as corrupt, torn or not a state file.
TEST(ReliabilityCli, AnUnrecognisedStateFileIsSaidToBeSoNotAnotherCodec) {
  ScratchDir d("state_unrecognised");
  CliOut run = runCli("run --keep " + d.path() + " " + std::string(STREAMSIM_SOURCE_DIR) +
                      "/scenarios/crash/offsets_after_write.yaml");
  ASSERT_EQ(run.code, 0) << run.text;
  d.write("chk/state/0/0/1.delta", "garbage");
  CliOut state = runCli("state " + d.path() + "/chk");
  EXPECT_EQ(state.code, 2) << state.text;
  EXPECT_NE(state.text.find("1.delta (first bytes 0x67617262616765) starts like no state file"), std::string::npos)
      << state.text;
  EXPECT_EQ(state.text.find("compressed with unknown"), std::string::npos) << state.text;
}

}  // namespace
}  // namespace streamsim::testing
