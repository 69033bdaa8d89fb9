// The scenario loader: every bad file in tests/harness/bad_scenarios/ is rejected with the exact
// file:line:column and message its `# error: LINE:COL: text` header lines name; good files load
// into the typed Scenario.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "streamsim/harness/scenario.h"
#include "streamsim/time.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

struct ExpectedError {
  int line = 0;
  int column = 0;
  std::string text;
};

std::vector<ExpectedError> expectedErrors(const std::string& path) {
  std::ifstream in(path);
  std::vector<ExpectedError> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# error: ", 0) != 0) continue;
    ExpectedError e;
    std::istringstream s(line.substr(9));
    char colon = 0;
    s >> e.line >> colon >> e.column >> colon;
    std::getline(s, e.text);
    if (!e.text.empty() && e.text[0] == ' ') e.text.erase(0, 1);
    out.push_back(e);
  }
  return out;
}

std::vector<std::string> badFiles() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(STREAMSIM_SOURCE_DIR) + "/tests/harness/bad_scenarios")) {
    if (entry.path().extension() == ".yaml") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ScenarioLoaderTest, EveryBadFileIsRejectedWithTheExactLocationAndMessage) {
  auto files = badFiles();
  ASSERT_GE(files.size(), 15u);
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    auto expected = expectedErrors(path);
    ASSERT_FALSE(expected.empty()) << "a bad scenario needs a `# error: LINE:COL: text` header";
    ScenarioLoad load = loadScenarioFile(path, ::streamsim::test::testLoader());
    ASSERT_FALSE(load.ok()) << "loaded although it is bad";
    EXPECT_FALSE(load.scenario.has_value());
    ASSERT_EQ(load.errors.size(), expected.size()) << load.errorText();
    for (size_t i = 0; i < expected.size(); ++i) {
      const ScenarioError& got = load.errors[i];
      EXPECT_EQ(got.where.file, path);
      EXPECT_EQ(got.where.line, expected[i].line) << got.toString();
      EXPECT_EQ(got.where.column, expected[i].column) << got.toString();
      EXPECT_NE(got.message.find(expected[i].text), std::string::npos)
          << "message: " << got.message << "\nexpected to contain: " << expected[i].text;
      // The printed form starts with file:line:col.
      EXPECT_EQ(got.toString().rfind(path + ":" + std::to_string(expected[i].line) + ":" +
                                         std::to_string(expected[i].column) + ": ",
                                     0),
                0u)
          << got.toString();
    }
  }
}

TEST(ScenarioLoaderTest, LoadScenarioJoinsEveryErrorIntoTheStatus) {
  std::string path = std::string(STREAMSIM_SOURCE_DIR) +
                     "/tests/harness/bad_scenarios/several_errors.yaml";
  auto sc = loadScenario(path, ::streamsim::test::testLoader());
  ASSERT_FALSE(sc.ok());
  EXPECT_EQ(sc.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(sc.status().message().find("bad schema"), std::string::npos);
  EXPECT_NE(sc.status().message().find("unknown key 'sinks'"), std::string::npos);
}

TEST(ScenarioLoaderTest, AMissingFileIsAnError) {
  auto load = loadScenarioFile("/nonexistent/x.yaml");
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_NE(load.errors[0].toString().find("/nonexistent/x.yaml: cannot open"), std::string::npos);
}

constexpr const char* kFull = R"(name: crash after offsets are written re-runs the same batch
description: the batch is replayed with the same files and the same timestamp
start: "2026-01-01T00:00:00Z"
query:
  source: {kind: files, path: /landing, format: json,
           schema: "event_id string, device string, event_time timestamp",
           options: {maxFilesPerTrigger: 1, cleanSource: archive}}
  operators:
    - withWatermark: {column: event_time, delay: 10m}
    - dropDuplicates: [event_id, event_time]
    - dropDuplicatesWithinWatermark: event_id
    - select: [event_id, device, event_time]
    - groupBy: device
      window: {column: event_time, duration: 10m, slide: 5m}
      agg: [count, {sum: event_time, as: s}]
    - groupBy: [device]
      transformWithState:
        processor: ttl_cache
        outputMode: Update
        timeMode: processingTime
        eventTimeColumn: event_time
        initialState: [{device: x, count: 12}]
        ttl: 7d
  sink: {kind: files, path: /out, format: json}
  outputMode: update
  trigger: {processingTime: 1s}
  checkpoint: /chk
  stateStore: rocksdb
  shufflePartitions: 2
  taskRetries: 1
steps:
  - put: {path: /landing/a.json, rows: [{event_id: e1, device: d1, event_time: "2026-01-01T00:00:00Z"}], mtime: "2026-01-01T00:00:01Z"}
  - put: {path: /landing/bad.json, text: "{not json\n"}
  - put_partial: {path: /landing/b.json, rows: [{event_id: e2}], fraction: 0.5}
  - resend: {from: /landing/a.json, to: /landing/a-copy.json}
  - touch: {path: /landing/a.json, mtime: "2025-12-01T00:00:00Z"}
  - delete: {path: /landing/bad.json}
  - advance: {by: 10m}
  - advance: 1h30m
  - advance: {to: "2026-01-02T00:00:00Z"}
  - crash: {at: offsets.after_write, batch: 1}
  - crash: {now: true}
  - run: {batches: 1}
  - run: 3
  - restart: {}
  - stop:
  - run: available
  - expect:
      sink: [{device: d1, count: 1}]
      new_rows: []
      state: [{key: d1, variable: count, value: 1}, {key: {device: d2}, variable: count, absent: true}]
      timers: {key: d1, timers: ["2026-01-01T00:10:00Z"]}
      progress: {watermark: "2025-12-31T23:50:00Z", numRowsDroppedByWatermark: 0, batchId: 1, rerun: false}
      checkpoint: {offsets: [0, 1], commits: [0], files_exist: [offsets/1], files_absent: [commits/1]}
  - expect: {error: "boom"}
oracles: [exactly_once, timers, ttl, determinism]
sweep: {seeds: 50, crash_points: [offsets.after_write, commits.before_write], max_crashes: 3,
        torn_writes: true, task_failures: 0.05, io_errors: 0.01, landing_faults: 0.1, batches: 6}
)";

TEST(ScenarioLoaderTest, AFullScenarioLoadsEveryKey) {
  ScenarioLoad load = parseScenario(kFull, "full.yaml", ::streamsim::test::testLoader());
  ASSERT_TRUE(load.ok()) << load.errorText();
  const Scenario& sc = *load.scenario;
  EXPECT_EQ(sc.name, "crash after offsets are written re-runs the same batch");
  EXPECT_EQ(sc.start, *parseTimestamp("2026-01-01T00:00:00Z"));
  ASSERT_EQ(sc.query.sources.size(), 1u);
  const SourceSpec& src = sc.query.sources[0];
  EXPECT_EQ(src.kind, SourceSpec::Kind::kFiles);
  EXPECT_EQ(src.path, "/landing");
  ASSERT_TRUE(src.schema);
  EXPECT_EQ(src.schema->size(), 3u);
  EXPECT_EQ(src.options.at("maxFilesPerTrigger"), "1");
  EXPECT_EQ(src.options.at("cleanSource"), "archive");

  ASSERT_EQ(sc.query.operators.size(), 6u);
  const auto& wm = std::get<WatermarkOp>(sc.query.operators[0].op);
  EXPECT_EQ(wm.column, "event_time");
  EXPECT_EQ(wm.delayMs, 10 * 60 * 1000);
  EXPECT_EQ(sc.query.operators[0].where.line, 9);
  EXPECT_EQ(std::get<DropDuplicatesOp>(sc.query.operators[1].op).columns,
            (std::vector<std::string>{"event_id", "event_time"}));
  EXPECT_TRUE(std::get<DropDuplicatesOp>(sc.query.operators[2].op).withinWatermark);
  EXPECT_EQ(std::get<SelectOp>(sc.query.operators[3].op).columns.size(), 3u);
  const auto& win = std::get<WindowAggregationOp>(sc.query.operators[4].op);
  EXPECT_EQ(win.groupBy, std::vector<std::string>{"device"});
  EXPECT_EQ(win.windowMs, 600000);
  EXPECT_EQ(win.slideMs, 300000);
  ASSERT_EQ(win.aggregates.size(), 2u);
  EXPECT_EQ(win.aggregates[0].function, "count");
  EXPECT_EQ(win.aggregates[1].function, "sum");
  EXPECT_EQ(win.aggregates[1].as, "s");
  const auto& tws = std::get<TransformWithStateOp>(sc.query.operators[5].op);
  EXPECT_EQ(tws.processor, "ttl_cache");
  EXPECT_EQ(tws.outputMode, std::optional<std::string>("update"));
  EXPECT_EQ(tws.timeMode, "ProcessingTime");
  EXPECT_EQ(tws.eventTimeColumn, std::optional<std::string>("event_time"));
  ASSERT_EQ(tws.initialState.size(), 1u);
  EXPECT_EQ(tws.initialState[0].toRow().get("count"), Value(int64_t{12}));
  EXPECT_EQ(tws.ttlMs, std::optional<DurationMs>(7LL * 24 * 3600 * 1000));
  EXPECT_EQ(tws.params.at("ttl"), "7d");  // ttl: reaches the processor's factory as a parameter

  EXPECT_EQ(sc.query.sink.kind, SinkSpec::Kind::kFiles);
  EXPECT_EQ(sc.query.sink.path, "/out");
  EXPECT_EQ(sc.query.outputMode, "update");
  EXPECT_EQ(sc.query.trigger.kind, TriggerSpec::Kind::kProcessingTime);
  EXPECT_EQ(sc.query.trigger.intervalMs, 1000);
  EXPECT_EQ(sc.query.stateStore, "rocksdb");
  EXPECT_EQ(sc.query.shufflePartitions, 2);
  EXPECT_EQ(sc.query.taskRetries, 1);

  ASSERT_EQ(sc.steps.size(), 18u);
  const auto& put = std::get<PutStep>(sc.steps[0].step);
  EXPECT_EQ(put.path, "/landing/a.json");
  ASSERT_EQ(put.rows.size(), 1u);
  auto row = put.rows[0].toRow(*src.schema);
  ASSERT_TRUE(row.ok()) << row.status().toString();
  EXPECT_EQ(row->get("event_time"), Value::timestamp(*parseTimestamp("2026-01-01T00:00:00Z")));
  EXPECT_EQ(put.mtime, std::optional<TimeMs>(*parseTimestamp("2026-01-01T00:00:01Z")));
  EXPECT_EQ(std::get<PutStep>(sc.steps[1].step).text, std::optional<std::string>("{not json\n"));
  EXPECT_EQ(std::get<PutPartialStep>(sc.steps[2].step).fraction, std::optional<double>(0.5));
  EXPECT_EQ(std::get<ResendStep>(sc.steps[3].step).to, "/landing/a-copy.json");
  EXPECT_EQ(std::get<TouchStep>(sc.steps[4].step).mtime, *parseTimestamp("2025-12-01T00:00:00Z"));
  EXPECT_EQ(std::get<DeleteStep>(sc.steps[5].step).path, "/landing/bad.json");
  EXPECT_EQ(std::get<AdvanceStep>(sc.steps[6].step).by, std::optional<DurationMs>(600000));
  EXPECT_EQ(std::get<AdvanceStep>(sc.steps[7].step).by, std::optional<DurationMs>(5400000));
  EXPECT_EQ(std::get<AdvanceStep>(sc.steps[8].step).to,
            std::optional<TimeMs>(*parseTimestamp("2026-01-02T00:00:00Z")));
  const auto& crash = std::get<CrashStep>(sc.steps[9].step);
  EXPECT_EQ(crash.at, "offsets.after_write");
  EXPECT_EQ(crash.batch, 1);
  EXPECT_FALSE(crash.now);
  EXPECT_TRUE(std::get<CrashStep>(sc.steps[10].step).now);
  EXPECT_EQ(std::get<RunStep>(sc.steps[11].step).batches, std::optional<int>(1));
  EXPECT_EQ(std::get<RunStep>(sc.steps[12].step).batches, std::optional<int>(3));
  EXPECT_TRUE(std::holds_alternative<RestartStep>(sc.steps[13].step));
  EXPECT_TRUE(std::holds_alternative<StopStep>(sc.steps[14].step));
  EXPECT_FALSE(std::get<RunStep>(sc.steps[15].step).batches.has_value());
  EXPECT_EQ(sc.steps[15].kindName(), "run");

  const auto& ex = std::get<ExpectStep>(sc.steps[16].step);
  ASSERT_TRUE(ex.sink.has_value());
  ASSERT_EQ(ex.sink->size(), 1u);
  EXPECT_EQ((*ex.sink)[0].toRow(), (Row{{"device", "d1"}, {"count", int64_t{1}}}));
  EXPECT_EQ(ex.sinkWhere.line, 49);
  ASSERT_TRUE(ex.newRows.has_value());
  EXPECT_TRUE(ex.newRows->empty());
  ASSERT_EQ(ex.state.size(), 2u);
  EXPECT_EQ(ex.state[0].variable, "count");
  EXPECT_EQ(ex.state[0].value, std::optional<Value>(Value(int64_t{1})));
  EXPECT_TRUE(ex.state[1].absent);
  EXPECT_EQ(ex.state[1].key.toRow(), (Row{{"device", "d2"}}));
  ASSERT_EQ(ex.timers.size(), 1u);
  EXPECT_EQ(ex.timers[0].timers, std::vector<TimeMs>{*parseTimestamp("2026-01-01T00:10:00Z")});
  EXPECT_EQ(ex.progress.at("watermark"),
            Value::timestamp(*parseTimestamp("2025-12-31T23:50:00Z")));
  EXPECT_EQ(ex.progress.at("batchId"), Value(int64_t{1}));
  EXPECT_EQ(ex.progress.at("rerun"), Value(false));
  ASSERT_TRUE(ex.checkpoint.has_value());
  EXPECT_EQ(ex.checkpoint->offsets, (std::optional<std::vector<int64_t>>(std::vector<int64_t>{0, 1})));
  EXPECT_EQ(ex.checkpoint->commits, (std::optional<std::vector<int64_t>>(std::vector<int64_t>{0})));
  EXPECT_EQ(ex.checkpoint->filesExist, std::vector<std::string>{"offsets/1"});
  EXPECT_EQ(ex.checkpoint->filesAbsent, std::vector<std::string>{"commits/1"});
  EXPECT_EQ(std::get<ExpectStep>(sc.steps[17].step).error, std::optional<std::string>("boom"));

  EXPECT_EQ(sc.oracles, (std::vector<std::string>{"exactly_once", "timers", "ttl", "determinism"}));
  ASSERT_TRUE(sc.sweep.has_value());
  EXPECT_EQ(sc.sweep->seeds, 50);
  EXPECT_EQ(sc.sweep->crashPoints.size(), 2u);
  EXPECT_EQ(sc.sweep->maxCrashes, 3);
  EXPECT_TRUE(sc.sweep->tornWrites);
  EXPECT_DOUBLE_EQ(sc.sweep->taskFailures, 0.05);
  EXPECT_DOUBLE_EQ(sc.sweep->landingFaults, 0.1);
  EXPECT_EQ(sc.sweep->batches, 6);
}

TEST(ScenarioLoaderTest, ScalarsAreTypedAsDocumented) {
  ScenarioLoad load = parseScenario(R"(name: typed
query: {source: {kind: memory, schema: "a long, b double, c boolean, d string, e string"}}
steps:
  - add_rows: [{a: 1, b: 1.5, c: true, d: "42", e: ~}]
)",
                                    "typed.yaml", ::streamsim::test::testLoader());
  ASSERT_TRUE(load.ok()) << load.errorText();
  const auto& add = std::get<AddRowsStep>(load.scenario->steps[0].step);
  Row r = add.rows[0].toRow();
  EXPECT_EQ(r.get("a").type(), Type::kLong);
  EXPECT_EQ(r.get("b").type(), Type::kDouble);
  EXPECT_EQ(r.get("c").type(), Type::kBoolean);
  EXPECT_EQ(r.get("d").type(), Type::kString);  // quoted: a string
  EXPECT_TRUE(r.get("e").isNull());
}

TEST(ScenarioLoaderTest, ProcessorNamesComeFromTheOptionsWhenGiven) {
  LoaderOptions options;
  options.isProcessor = [](std::string_view name) { return name == "mine"; };
  options.processorNames = [] { return std::vector<std::string>{"mine"}; };
  const char* yaml = R"(name: custom
query:
  source: {kind: memory, schema: "id string"}
  operators: [{groupBy: [id], transformWithState: {processor: mine}}]
steps: []
)";
  EXPECT_TRUE(parseScenario(yaml, "c.yaml", options).ok());
  auto load = parseScenario(yaml, "c.yaml", ::streamsim::test::testLoader());  // the test set does not know "mine"
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_NE(load.errors[0].message.find("unknown processor 'mine'"), std::string::npos);
}

TEST(ScenarioLoaderTest, EveryScenarioOfTheLibraryLoads) {
  std::string dir = std::string(STREAMSIM_SOURCE_DIR) + "/scenarios";
  int n = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    ++n;
    ScenarioLoad load = loadScenarioFile(entry.path().string(), ::streamsim::test::testLoader());
    EXPECT_TRUE(load.ok()) << load.errorText();
  }
  (void)n;
}

}  // namespace
}  // namespace streamsim::harness
