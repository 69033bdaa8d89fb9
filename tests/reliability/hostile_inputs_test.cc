// Regression tests of issue 35 (reliability and security, round 3) through the CLI, one per
// defect of its "Why", each named after the bug. Before the fixes each of these crashed, hung,
// wrote outside its folder, sent control characters to the terminal, wrote invalid XML, or took
// bad input silently. Exit codes: 0 held, 1 a check failed, 2 bad input. A command that could
// hang runs under `timeout` (exit 124: the test fails instead of hanging).
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reliability/cli_test_support.h"
#include "test_paths.h"

namespace streamsim::testing {
namespace hostile_inputs_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

namespace fs = std::filesystem;

constexpr int kTimedOut = 124;

CliOut runCliTimed(const std::string& args) {
  return runShell("timeout 60 " + std::string(STREAMSIM_CLI) + " " + args);
}

bool containsByte(const std::string& s, char c) { return s.find(c) != std::string::npos; }

std::string report(const std::string& results, const std::string& totals = "") {
  return R"({"shard": {"index": 0, "count": 1}, "results": )" + results +
         (totals.empty() ? "" : ", \"totals\": " + totals) + "}";
}

constexpr const char* kOneFailing =
    R"([{"file": "x.yaml", "seed": 0, "passed": false, "replay": "streamsim replay x.yaml --seed 0"}])";

// ---------------------------------------------------------------- crashes

// Bug: `merge` aborted (terminate ... type_error.302) on a report whose totals.seconds was a
// string or null.
TEST(HostileInputs, MergeOfATotalsSecondsThatIsAStringOrNullExitsTwo) {
  ScratchDir d("merge_seconds");
  for (const char* seconds : {"\"3\"", "null", "[1]"}) {
    SCOPED_TRACE(seconds);
    std::string a = d.write("a.json", report(R"([{"file": "x.yaml", "seed": 0, "passed": true}])",
                                             std::string("{\"seconds\": ") + seconds + "}"));
    CliOut o = runCli("merge " + a);
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find("\"totals\" is not a sweep's totals"), std::string::npos) << o.text;
  }
}

// Bug: 200,000 nested brackets in a report blew the stack of `merge` and of `report --html`.
TEST(HostileInputs, MergeAndReportOfDeeplyNestedJsonExitTwo) {
  ScratchDir d("merge_deep");
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  std::string a = d.write("a.json", report(R"([{"file": "x.yaml", "seed": 0, "passed": true, "x": )" + deep + "}]"));
  CliOut merge = runCli("merge " + a);
  EXPECT_EQ(merge.code, 2) << merge.text.substr(0, 2000);
  EXPECT_NE(merge.text.find("nested deeper than 1000 levels"), std::string::npos) << merge.text.substr(0, 2000);
  CliOut html = runCli("report " + a + " --html " + d.path() + "/r.html");
  EXPECT_EQ(html.code, 2) << html.text.substr(0, 2000);
  EXPECT_NE(html.text.find("nested deeper than 1000 levels"), std::string::npos) << html.text.substr(0, 2000);
}

// A sweep's --plan and a scenario file nested as deep: bad input, never a crash.
TEST(HostileInputs, DeeplyNestedPlanAndScenarioExitTwo) {
  ScratchDir d("deep_plan");
  std::string f = d.write("s.yaml", kTiny);
  // 20,000 levels: a command-line argument holds at most 128 KiB (MAX_ARG_STRLEN).
  std::string deep = std::string(20000, '[') + std::string(20000, ']');
  d.write("plan.json", "{\"seed\": 0, \"faults\": " + deep + "}");
  CliOut plan = runCli("replay " + f + " --seed 0 --plan \"$(cat " + d.path() + "/plan.json)\"");
  EXPECT_EQ(plan.code, 2) << plan.text.substr(0, 2000);
  std::string yaml = d.write("deep.yaml", "name: deep\nquery: " + std::string(200000, '[') + "\n");
  CliOut run = runCli("run " + yaml);
  EXPECT_EQ(run.code, 2) << run.text.substr(0, 2000);
}

// ---------------------------------------------------------------- hangs: not regular files

// Bug: a FIFO named *.yaml in a swept folder, `run fifo.yaml` and `merge fifo.json` blocked
// forever; `merge /dev/zero` never ended and `run /dev/zero` died of bad_alloc.
TEST(HostileInputs, AFifoOrADeviceGivenAsAFileIsRefusedUnread) {
  ScratchDir d("fifo_inputs");
  d.write("folder/good.yaml", kTiny);
  ASSERT_EQ(::mkfifo((d.path() + "/folder/fifo.yaml").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((d.path() + "/fifo.json").c_str(), 0600), 0);
  struct Case {
    std::string args, expected;
  };
  for (const Case& c : {Case{"sweep " + d.path() + "/folder --seeds 1", "fifo.yaml is a FIFO (named pipe), not a regular file"},
                        Case{"run " + d.path() + "/folder/fifo.yaml", "fifo.yaml is a FIFO (named pipe), not a regular file"},
                        Case{"merge " + d.path() + "/fifo.json", "fifo.json is a FIFO (named pipe), not a regular file"},
                        Case{"merge /dev/zero", "/dev/zero is a character device, not a regular file"},
                        Case{"run /dev/zero", "/dev/zero is a character device, not a regular file"},
                        Case{"report /dev/zero --html " + d.path() + "/r.html", "/dev/zero is a character device"}}) {
    SCOPED_TRACE(c.args);
    CliOut o = runCliTimed(c.args);
    ASSERT_NE(o.code, kTimedOut) << "hung:\n" << o.text;
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(c.expected), std::string::npos) << o.text;
  }
}

// ---------------------------------------------------------------- paths

constexpr const char* kSinkAt = R"(name: a files sink somewhere
query:
  source: {kind: files, path: %SOURCE%, format: json, schema: "id string"}
  sink: {kind: files, path: "%SINK%", format: json}
steps:
  - put: {path: "%PUT%", rows: [{id: a}]}
  - run: available
)";

std::string sinkAt(const std::string& source, const std::string& sink, const std::string& put) {
  std::string s = kSinkAt;
  s.replace(s.find("%SOURCE%"), 8, source);
  s.replace(s.find("%SINK%"), 6, sink);
  s.replace(s.find("%PUT%"), 5, put);
  return s;
}

// Bug: the simulator kept `..` in paths and --keep joined them onto DIR, so a sink at
// "/../../../x" wrote outside DIR (run and replay alike, exit 0, PASS).
TEST(HostileInputs, NoSimulatedPathEscapesTheKeepFolder) {
  ScratchDir d("keep_escape");
  struct Case {
    std::string source, sink, put, where;
  };
  for (const Case& c : {Case{"/landing", "/../../../x", "/landing/a.json", "sink path"},
                        Case{"/landing", "/out/../../x", "/landing/a.json", "sink path"},
                        Case{"/../landing", "/out", "/landing/a.json", "source path"},
                        Case{"/landing", "/out", "/landing/../../../a.json", "put path"}}) {
    SCOPED_TRACE(c.sink + " " + c.source + " " + c.put);
    fs::remove_all(d.path() + "/k");
    std::string f = d.write("s.yaml", sinkAt(c.source, c.sink, c.put));
    for (std::string cmd : {"run --keep " + d.path() + "/k/in " + f,
                            "replay " + f + " --seed 0 --keep " + d.path() + "/k/in"}) {
      CliOut o = runCli(cmd);
      EXPECT_EQ(o.code, 2) << cmd << "\n" << o.text;
      EXPECT_NE(o.text.find(c.where), std::string::npos) << o.text;
      EXPECT_NE(o.text.find("goes above the root"), std::string::npos) << o.text;
    }
    EXPECT_FALSE(fs::exists(d.path() + "/k/x")) << "written outside --keep";
    EXPECT_FALSE(fs::exists(d.path() + "/x"));
    EXPECT_FALSE(fs::exists(d.path() + "/k/a.json"));
  }
  // `..` inside the root is resolved as Hadoop's Path resolves it: /out/../out2 is /out2.
  fs::remove_all(d.path() + "/k");
  std::string f = d.write("s.yaml", sinkAt("/landing/./", "/out/../out2//", "/landing//a.json"));
  CliOut o = runCli("run --keep " + d.path() + "/k " + f);
  ASSERT_EQ(o.code, 0) << o.text;
  EXPECT_TRUE(fs::is_directory(d.path() + "/k/out2/_spark_metadata")) << o.text;
  EXPECT_TRUE(fs::exists(d.path() + "/k/landing/a.json")) << o.text;
}

// Bug: --keep into a folder holding an earlier run mixed the two checkpoints (offsets/0,1,7).
TEST(HostileInputs, KeepRefusesANonEmptyFolderUnlessToldToReplaceOneItKept) {
  ScratchDir d("keep_nonempty");
  std::string f = d.write("s.yaml", kTwoBatches);
  d.write("mine/notes.txt", "a user's file");
  CliOut mine = runCli("run --keep " + d.path() + "/mine " + f);
  EXPECT_EQ(mine.code, 2) << mine.text;
  EXPECT_NE(mine.text.find("the folder is not empty"), std::string::npos) << mine.text;
  CliOut mineReplace = runCli("run --keep " + d.path() + "/mine --replace " + f);
  EXPECT_EQ(mineReplace.code, 2) << mineReplace.text;
  EXPECT_NE(mineReplace.text.find("streamsim did not keep"), std::string::npos) << mineReplace.text;
  EXPECT_EQ(d.read("mine/notes.txt"), "a user's file");

  ASSERT_EQ(runCli("run --keep " + d.path() + "/k " + f).code, 0);
  ASSERT_TRUE(fs::exists(d.path() + "/k/chk/offsets/1"));
  d.write("k/chk/offsets/7", "left over");
  CliOut again = runCli("run --keep " + d.path() + "/k " + f);
  EXPECT_EQ(again.code, 2) << again.text;
  CliOut replayAgain = runCli("replay " + f + " --seed 0 --keep " + d.path() + "/k");
  EXPECT_EQ(replayAgain.code, 2) << replayAgain.text;
  CliOut replaced = runCli("run --keep " + d.path() + "/k --replace " + f);
  EXPECT_EQ(replaced.code, 0) << replaced.text;
  EXPECT_FALSE(fs::exists(d.path() + "/k/chk/offsets/7")) << "the earlier run's file stayed";
  EXPECT_TRUE(fs::exists(d.path() + "/k/chk/offsets/1"));
}

// ---------------------------------------------------------------- terminal and file output

// Bug: `merge` printed a report's `file` and `replay` raw: ESC sequences reached the terminal.
TEST(HostileInputs, MergePrintsControlCharactersShownNotSent) {
  ScratchDir d("merge_escape");
  std::string a = d.write("a.json", report(R"([{"file": "x\u001b]0;owned\u0007.yaml", "seed": 0, "passed": false,
                                               "replay": "streamsim \u001b[2J replay"}])"));
  CliOut o = runCli("merge " + a);
  EXPECT_EQ(o.code, 1) << o.text;
  EXPECT_FALSE(containsByte(o.text, '\x1b')) << o.text;
  EXPECT_FALSE(containsByte(o.text, '\x07')) << o.text;
  EXPECT_NE(o.text.find("x\\x1b]0;owned\\x07.yaml"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("streamsim \\x1b[2J replay"), std::string::npos) << o.text;
}

// Bug: `state` printed a checkpoint's keys and values raw, so an ESC sequence in a key (the data of
// a production checkpoint) reached the terminal, and `--json` threw on a byte that is not UTF-8.
TEST(HostileInputs, StatePrintsTheCheckpointsKeysShownNotSent) {
  ScratchDir d("state_escape");
  std::string f = d.write("s.yaml", std::string(R"(name: a key holding control characters
query:
  source: {kind: memory, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{device: "d\e[2J\a1)") + "\xff" + R"("}]
  - run: available
)");
  ASSERT_EQ(runCli("run --keep " + d.path() + "/k " + f).code, 0);
  CliOut text = runCli("state " + d.path() + "/k/chk");
  EXPECT_EQ(text.code, 0) << text.text;
  EXPECT_FALSE(containsByte(text.text, '\x1b')) << text.text;
  EXPECT_FALSE(containsByte(text.text, '\x07')) << text.text;
  EXPECT_NE(text.text.find("\\x1b[2J"), std::string::npos) << text.text;
  CliOut json = runCli("state --json " + d.path() + "/k/chk");
  EXPECT_EQ(json.code, 0) << json.text;
  EXPECT_FALSE(nlohmann::json::parse(json.text, nullptr, false).is_discarded()) << json.text;
}

// A scenario whose failure message holds NUL, ESC, \x01 and a byte that is not UTF-8.
std::string failingWithBytes() {
  return std::string(R"(name: "bytes in a failure \e[31m"
query:
  source: {kind: memory, schema: "id string"}
  sink: {kind: memory}
steps:
  - add_rows: [{id: "a\0b\e[2J\x01c)") + "\xff\xfe" + R"("}]
  - run: available
  - expect: {sink: [{id: "something else"}]}
)";
}

// Bug: the JUnit XML was not well-formed when a failure message held ESC, \x01 or NUL. Now every
// output is read back by real parsers: python3's xml.etree and json; and the run's and the
// sweep's terminal output holds no control character.
TEST(HostileInputs, JunitAndJsonReportsParseWhateverBytesAMessageHolds) {
  ScratchDir d("junit_bytes");
  std::string f = d.write("s.yaml", failingWithBytes());
  CliOut o = runCli("sweep " + f + " --seeds 2 --junit " + d.path() + "/r.xml --json " + d.path() + "/r.json");
  ASSERT_EQ(o.code, 1) << o.text;
  for (char c : {'\x1b', '\x01', '\0'}) EXPECT_FALSE(containsByte(o.text, c)) << o.text;
  const std::string xml = d.read("r.xml");
  ASSERT_NE(xml.find("<failure"), std::string::npos) << xml;
  CliOut parsed = runShell("python3 -c 'import sys, xml.etree.ElementTree as E; "
                           "t = E.parse(sys.argv[1]); f = t.getroot().find(\".//failure\"); "
                           "print(\"PARSED\", \"\\\\x1b\" in f.text)' " + d.path() + "/r.xml");
  EXPECT_EQ(parsed.code, 0) << parsed.text << xml;
  EXPECT_NE(parsed.text.find("PARSED True"), std::string::npos) << parsed.text << xml;
  CliOut json = runShell("python3 -c 'import sys, json; j = json.load(open(sys.argv[1], encoding=\"utf-8\")); "
                         "print(\"PARSED\", len(j[\"results\"]))' " + d.path() + "/r.json");
  EXPECT_EQ(json.code, 0) << json.text;
  EXPECT_NE(json.text.find("PARSED 2"), std::string::npos) << json.text;
  CliOut run = runCli("run " + f);
  EXPECT_EQ(run.code, 1) << run.text;
  for (char c : {'\x1b', '\x01', '\0'}) EXPECT_FALSE(containsByte(run.text, c)) << run.text;
}

// Bug: two inputs named x.yaml in different folders wrote the same HTML page (and --keep folder).
TEST(HostileInputs, TwoFilesWithOneNameKeepTheirOwnPagesAndFolders) {
  ScratchDir d("same_name");
  std::string a = d.write("a/x.yaml", kTwoBatches);
  std::string b = d.write("b/x.yaml", kTwoBatches);
  CliOut o = runCli("run " + a + " " + b + " --html " + d.path() + "/pages --keep " + d.path() + "/k");
  ASSERT_EQ(o.code, 0) << o.text;
  int pages = 0, kept = 0;
  for (const auto& e : fs::directory_iterator(d.path() + "/pages")) pages += e.path().extension() == ".html";
  for (const auto& e : fs::directory_iterator(d.path() + "/k")) kept += e.is_directory();
  EXPECT_EQ(pages, 2) << o.text;
  EXPECT_EQ(kept, 2) << o.text;
}

// Bug: a scenario in deep folders gave seed page names over 255 bytes (the page was not written).
TEST(HostileInputs, SeedPageNamesOfDeepFoldersStayWithin255Bytes) {
  ScratchDir d("deep_pages");
  const std::string deep = std::string(100, 'a') + "/" + std::string(100, 'b') + "/" + std::string(100, 'c');
  std::string f = d.write(deep + "/s.yaml", failingWithBytes());
  CliOut o = runCli("sweep " + f + " --seeds 1 --html " + d.path() + "/sweep.html");
  EXPECT_EQ(o.code, 1) << o.text;
  ASSERT_TRUE(fs::is_directory(d.path() + "/sweep-seeds")) << o.text;
  int pages = 0;
  for (const auto& e : fs::directory_iterator(d.path() + "/sweep-seeds")) {
    ++pages;
    EXPECT_LE(e.path().filename().string().size(), 255u) << e.path();
  }
  EXPECT_EQ(pages, 1) << o.text;
}

// Bug: the --json/--junit/--html outputs were opened with std::ofstream: a FIFO at the path hung
// the command, a device was written to, and a symbolic link -- at the path, at a sweep page's
// `<page>-seeds` folder, at a seed page inside it, or at `run --html DIR` -- sent the write outside
// the folder given. Now each is exit 2 naming what is there, and nothing outside is touched.
TEST(HostileInputs, OutputsAreWrittenOnlyAsRegularFilesInTheirFolder) {
  ScratchDir d("output_escapes");
  std::string ok = d.write("ok.yaml", kTiny);
  std::string failing = d.write("f/s.yaml", failingWithBytes());
  d.write("outside/victim.txt", "untouched");
  const std::string outside = d.path() + "/outside";
  ASSERT_EQ(::mkfifo((d.path() + "/fifo.json").c_str(), 0600), 0);
  fs::create_symlink(outside + "/victim.txt", d.path() + "/link.xml");
  fs::create_symlink(outside, d.path() + "/page-seeds");
  fs::create_symlink(outside, d.path() + "/pages");
  struct Case {
    std::string args, expected;
  };
  for (const Case& c :
       {Case{"sweep " + ok + " --seeds 1 --json " + d.path() + "/fifo.json", "fifo.json is a FIFO (named pipe)"},
        Case{"sweep " + ok + " --seeds 1 --junit /dev/null", "/dev/null is a character device: not written"},
        Case{"sweep " + ok + " --seeds 1 --junit " + d.path() + "/link.xml", "link.xml is a symbolic link"},
        Case{"sweep " + failing + " --seeds 1 --html " + d.path() + "/page.html", "page-seeds is a symbolic link"},
        Case{"run " + ok + " " + failing + " --html " + d.path() + "/pages", "pages is a symbolic link"}}) {
    SCOPED_TRACE(c.args);
    CliOut o = runCliTimed(c.args);
    ASSERT_NE(o.code, kTimedOut) << "hung:\n" << o.text;
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(c.expected), std::string::npos) << o.text;
  }
  // A link planted where a seed page goes, inside a real `<page>-seeds` folder.
  fs::create_directories(d.path() + "/real-seeds");
  CliOut first = runCli("sweep " + failing + " --seeds 1 --html " + d.path() + "/real.html");
  ASSERT_EQ(first.code, 1) << first.text;
  std::string pageName;
  for (const auto& e : fs::directory_iterator(d.path() + "/real-seeds")) pageName = e.path().filename().string();
  ASSERT_FALSE(pageName.empty()) << first.text;
  fs::remove(d.path() + "/real-seeds/" + pageName);
  fs::create_symlink(outside + "/victim.txt", d.path() + "/real-seeds/" + pageName);
  CliOut again = runCli("sweep " + failing + " --seeds 1 --html " + d.path() + "/real.html");
  EXPECT_EQ(again.code, 2) << again.text;
  EXPECT_NE(again.text.find("is a symbolic link"), std::string::npos) << again.text;
  // Nothing reached the folder the links point to.
  EXPECT_EQ(d.read("outside/victim.txt"), "untouched");
  int outsideFiles = 0;
  for (const auto& e : fs::directory_iterator(outside)) outsideFiles += e.is_regular_file();
  EXPECT_EQ(outsideFiles, 1);
  // A report naming a file with `..` in its path: its seed page is written inside `<page>-seeds`.
  const std::string dotted = d.path() + "/f/../f/s.yaml";
  std::string r = d.write("r.json", report(R"([{"file": ")" + dotted + R"(", "seed": 0, "passed": false}])"));
  CliOut html = runCli("report " + r + " --html " + d.path() + "/rep/out.html");
  ASSERT_EQ(html.code, 0) << html.text;
  int pages = 0;
  for (const auto& e : fs::recursive_directory_iterator(d.path() + "/rep")) {
    pages += e.is_regular_file();
    EXPECT_EQ(e.path().parent_path().filename() == "out-seeds" || e.path().filename() == "out.html" ||
                  e.path().filename() == "out-seeds",
              true)
        << e.path();
  }
  EXPECT_EQ(pages, 2) << html.text;
}

// ---------------------------------------------------------------- silent accepts

// Bug: replay plans with a negative batch or partition ran as "any", a downtime of INT64_MAX
// was taken, `--seed ''` ran seed 0, and `--files` was ignored for a scenario.
TEST(HostileInputs, ReplayRefusesWhatItUsedToTakeSilently) {
  ScratchDir d("replay_silent");
  std::string f = d.write("s.yaml", kTiny);
  struct Case {
    std::string args, expected;
  };
  const std::string crash = R"({"type": "crash", "point": "offsets.after_write")";
  for (const Case& c :
       {Case{"--seed 0 --plan '{\"seed\": 0, \"faults\": [" + crash + ", \"batch\": -5}]}'", "batch must be >= 0, or -1"},
        Case{"--seed 0 --plan '{\"seed\": 0, \"faults\": [" + crash + ", \"partition\": -2}]}'", "partition must be >= 0, or -1"},
        Case{"--seed 0 --plan '{\"seed\": 0, \"faults\": [" + crash + ", \"downtime\": 9223372036854775807}]}'",
             "downtime must be at most 3155760000000 ms (100 years)"},
        Case{"--seed ''", "is not a seed"},
        Case{"--seed 0 --files 0", "--files is a generated workload's option"}}) {
    SCOPED_TRACE(c.args);
    CliOut o = runCli("replay " + f + " " + c.args);
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_NE(o.text.find(c.expected), std::string::npos) << o.text;
  }
  CliOut downtime = runCli("sweep " + f + " --seeds 1 --downtime 0..9223372036854775807ms");
  EXPECT_EQ(downtime.code, 2) << downtime.text;
}


// ---------------------------------------------------------------- Kafka options

std::string kafkaScenario(const std::string& topic, const std::string& options, const std::string& produce) {
  return "name: kafka options\nquery:\n  source: {kind: kafka, topic: " + topic + ", partitions: 2, options: " + options +
         "}\n  sink: {kind: memory}\nsteps:\n  - produce: {records: [" + produce + "]}\n  - run: available\n";
}

// Bug: a startingOffsets JSON missing a partition or naming another topic ran (Spark asserts that
// every TopicPartition is given: KafkaOffsetReaderAdmin.fetchPartitionOffsets); an offset past
// the end re-read from 0 (Spark: data loss, "Partition events-0's offset was changed from 10 to
// 1", fatal under failOnDataLoss); a negative offset failed later with a wrong cause; illegal or
// 300-character topic names were taken (Kafka's Topic.validate).
TEST(HostileInputs, KafkaOptionsFollowSparksAndKafkasRules) {
  ScratchDir d("kafka_options");
  const std::string one = "{key: a, value: e1, partition: 0}";
  struct Case {
    std::string topic, options, expected;
    int code;
  };
  for (const Case& c : {
           Case{"events", R"({startingOffsets: '{"events":{"0":0}}'})",
                "you must specify all TopicPartitions.\nUse -1 for latest, -2 for earliest, if you don't care.\n"
                "Specified: Set(events-0) Assigned: Set(events-0, events-1)", 2},
           Case{"events", R"({startingOffsets: '{"events":{"0":0,"1":0},"other":{"0":0}}'})",
                "Specified: Set(events-0, events-1, other-0) Assigned: Set(events-0, events-1)", 2},
           Case{"events", R"({startingOffsets: '{"events":{"0":10,"1":0}}'})",
                "Partition events-0's offset was changed from 10 to 1, some data may have been missed", 1},
           Case{"events", R"({startingOffsets: '{"events":{"0":-5,"1":0}}'})",
                "offset -5 of events-0: seek offset must not be a negative number", 2},
           Case{"events", "{endingOffsets: latest}", "ending offset not valid in streaming queries", 2},
           Case{"\"ev ents\"", "{}", "it contains a character other than ASCII alphanumerics, '.', '_' and '-'", 2},
           Case{std::string(300, 't'), "{}", "it can't be longer than 249 characters", 2},
       }) {
    SCOPED_TRACE(c.options + " " + c.topic.substr(0, 20));
    std::string f = d.write("k.yaml", kafkaScenario(c.topic, c.options, one));
    CliOut o = runCli("run " + f);
    EXPECT_EQ(o.code, c.code) << o.text;
    EXPECT_NE(o.text.find(c.expected), std::string::npos) << o.text;
  }
  // Past the end with failOnDataLoss false: the batch reads nothing of events-0 and the query
  // goes on from the end (no re-read from 0).
  std::string f = d.write("k.yaml", "name: past the end\nquery:\n  source: {kind: kafka, topic: events, partitions: 1, "
                                    "options: {failOnDataLoss: 'false', startingOffsets: '{\"events\":{\"0\":10}}'}}\n"
                                    "  operators: [{select: [key, value]}]\n  sink: {kind: memory}\nsteps:\n  - produce: {records: [" + one + "]}\n"
                                    "  - run: available\n  - expect: {sink: []}\n"
                                    "  - produce: {records: [{key: b, value: e2, partition: 0}]}\n"
                                    "  - run: available\n  - expect: {new_rows: [{key: b, value: e2}]}\n");
  CliOut o = runCli("run " + f);
  EXPECT_EQ(o.code, 0) << o.text;
}

// ---------------------------------------------------------------- inspect of a moved sink

// Bug: `inspect --sink DIR` on a sink folder copied elsewhere called every committed file an
// orphan (the log holds the original absolute paths). Now: "this sink folder was moved from
// /out", files matched by their path relative to the sink root -- and a file of the folder
// the log does not list is still an orphan.
TEST(HostileInputs, InspectOfAMovedSinkFolderSaysFromWhereAndMatchesRelativePaths) {
  ScratchDir d("inspect_moved");
  std::string f = d.write("s.yaml", kTwoBatches);
  ASSERT_EQ(runCli("run --keep " + d.path() + "/k " + f).code, 0);
  fs::rename(d.path() + "/k/out", d.path() + "/elsewhere");
  CliOut o = runCli("inspect " + d.path() + "/k/chk --sink " + d.path() + "/elsewhere");
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("this sink folder was moved from /out"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("FileNotFoundException"), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("[orphan-files]"), std::string::npos) << o.text;
  d.write("elsewhere/part-99999-stray.json", "{}\n");
  CliOut stray = runCli("inspect " + d.path() + "/k/chk --sink " + d.path() + "/elsewhere");
  EXPECT_NE(stray.text.find("[orphan-files] 1 data file(s)"), std::string::npos) << stray.text;
  EXPECT_NE(stray.text.find("part-99999-stray.json"), std::string::npos) << stray.text;
}

}  // namespace
}  // namespace hostile_inputs_test
}  // namespace streamsim::testing
