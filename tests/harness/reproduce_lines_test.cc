// Every kind of reproduce line the CLI prints runs as printed and reproduces the trace hash it
// printed: `run`'s line (of a path with a space too), a sweep's (shrunk plan), a sweep's ERROR
// line, `replay`'s own shrink, and a generated workload's `replay <workload> --seed --plan
// --files` line (its scenario's, sweepGenerated's) — of a standard workload and, printed by a failing,
// shrunk sweep, of a processor registered in a user's runner; from the project's `streamsim` and
// from a runner built with streamsim_add_runner, whose lines name it. A workload sweep no CLI can
// rebuild (a test's own processor class) prints no line and says why.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "streamsim/fault_points.h"
#include "streamsim/harness/run/shell_quote.h"
#include "streamsim/harness/run/generated_scenario.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/tws/processor_registry.h"
#include "../reliability/cli_test_support.h"
#include "test_paths.h"
#include "test_registries.h"

// The test runner's processors (tests/runner/runner_processors.cc, linked into this test too): a
// sweep this program runs resolves them in its own set.
void registerRunnerTestProcessors(streamsim::ProcessorSet& set);
void registerRunnerTestRun(streamsim::harness::RunRegistries& registries);
void streamsim::test::addTestProcessors(ProcessorSet& set) { registerRunnerTestProcessors(set); }
void streamsim::test::addTestRegistries(harness::RunRegistries& registries) { registerRunnerTestRun(registries); }

namespace {

using Out = streamsim::testing::CliOut;
Out shell(const std::string& line) { return streamsim::testing::runShell(line); }

std::string after(const std::string& text, const std::string& marker, size_t from = 0) {
  return streamsim::testing::lineAfter(text, marker, from);
}
std::string traceHash(const std::string& text, size_t from = 0) { return streamsim::testing::traceHashIn(text, from); }

std::string writeTemp(const std::string& name, const std::string& text) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("streamsim_repro_" + std::to_string(::getpid()) + "_" + name)).string();
  std::ofstream(path) << text;
  return path;
}

// A count scenario with a wrong expectation (count 4 where 3 came), on `processor`.
std::string failingScenario(const std::string& processor) {
  return R"(name: a wrong expectation
query:
  source: {kind: files, path: /landing, format: json, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: )" + processor + R"(, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
  checkpoint: /chk
steps:
  - put: {path: /landing/a.json, rows: [{device: d1}, {device: d1}]}
  - run: {batches: 1}
  - put: {path: /landing/b.json, rows: [{device: d1}]}
  - run: available
  - expect:
      sink: [{device: d1, count: 4}]
sweep: {crash_points: all, max_crashes: 2}
)";
}

void checkScenarioLines(const std::string& program, const std::string& processor) {
  std::string f = writeTemp(processor + ".yaml", failingScenario(processor));
  // run: "FAIL ... trace H" and "reproduce: <program> run F --seed 0".
  Out run = shell(program + " run " + f);
  ASSERT_EQ(run.code, 1) << run.text;
  std::string line = after(run.text, "reproduce: ");
  ASSERT_EQ(line.rfind(program + " run ", 0), 0u) << run.text;
  Out again = shell(line);
  EXPECT_EQ(again.code, 1) << line << "\n" << again.text;
  EXPECT_EQ(traceHash(again.text), traceHash(run.text)) << line << "\n" << again.text;

  // sweep: "minimal: ..., trace H" and "replay: <program> replay F --seed S --plan '...'".
  Out sweep = shell(program + " sweep " + f + " --seeds 3 --no-progress");
  ASSERT_EQ(sweep.code, 1) << sweep.text;
  size_t seed2 = sweep.text.find("seed 2 (");
  ASSERT_NE(seed2, std::string::npos) << sweep.text;
  std::string replay = after(sweep.text, "replay: ", seed2);
  ASSERT_EQ(replay.rfind(program + " replay " + f + " --seed 2 --plan '", 0), 0u) << sweep.text;
  std::string printed = traceHash(sweep.text, sweep.text.find("minimal:", seed2));
  Out replayed = shell(replay);
  EXPECT_EQ(replayed.code, 1) << replay << "\n" << replayed.text;
  EXPECT_EQ(traceHash(replayed.text), printed) << replay << "\n" << replayed.text;

  // replay of the seed itself: it shrinks and prints the same line.
  Out own = shell(program + " replay " + f + " --seed 2");
  EXPECT_EQ(own.code, 1) << own.text;
  EXPECT_EQ(after(own.text, "replay: "), replay) << own.text;
  EXPECT_EQ(traceHash(own.text, own.text.find("minimal case")), printed) << own.text;
  std::filesystem::remove(f);
}

TEST(ReproduceLines, ScenarioLinesRunAsPrintedFromStreamsim) { checkScenarioLines(STREAMSIM_CLI, "count"); }

// Bug reproduce_line_of_a_path_with_a_space: `run`'s "reproduce:" line named the file unquoted,
// so a path with a space ran as two arguments (exit 2).
TEST(ReproduceLines, RunsReproduceLineOfAPathWithASpaceRunsAsPrinted) {
  const std::string program = STREAMSIM_CLI;
  std::string f = writeTemp("with space.yaml", failingScenario("count"));
  Out run = shell(program + " run " + streamsim::harness::shellQuote(f));
  ASSERT_EQ(run.code, 1) << run.text;
  std::string line = after(run.text, "reproduce: ");
  EXPECT_EQ(line, program + " run " + streamsim::harness::shellQuote(f) + " --seed 0") << run.text;
  Out again = shell(line);
  EXPECT_EQ(again.code, 1) << line << "\n" << again.text;
  EXPECT_EQ(traceHash(again.text), traceHash(run.text)) << line << "\n" << again.text;
  std::filesystem::remove(f);
}

// A sweep's seed that cannot run at all (a user's runner built without Python, on a scenario with
// a Python processor) prints "ERROR ... replay: LINE": the line runs as printed and fails the same
// way (exit 2).
TEST(ReproduceLines, ASweepsErrorLineRunsAsPrinted) {
  const std::string program = STREAMSIM_RUNNER;
  std::string f = writeTemp("error.yaml", R"(name: a Python processor in a runner without Python
query:
  source: {kind: memory, schema: "key string"}
  operators:
    - groupBy: [key]
      transformWithState: {python: )" + std::string(STREAMSIM_SOURCE_DIR) +
                                              R"(/tests/python/scenarios/processors/traps.py, class: CountProcessor, outputStructType: "key string, count long"}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{key: a}]
  - run: available
)");
  Out sweep = shell(program + " sweep " + f + " --seeds 2 --no-progress");
  ASSERT_EQ(sweep.code, 2) << sweep.text;
  const size_t error = sweep.text.find("ERROR " + f + " seed 1: ");
  ASSERT_NE(error, std::string::npos) << sweep.text;
  const std::string why = after(sweep.text, "seed 1: ", error);
  EXPECT_NE(why.find("without Python support"), std::string::npos) << sweep.text;
  std::string line = after(sweep.text, "replay: ", error);
  ASSERT_EQ(line.rfind(program + " replay " + f + " --seed 1 --plan '", 0), 0u) << sweep.text;
  Out replayed = shell(line);
  EXPECT_EQ(replayed.code, 2) << line << "\n" << replayed.text;
  EXPECT_NE(replayed.text.find(f + ": cannot run: " + why), std::string::npos) << line << "\n" << replayed.text;
  std::filesystem::remove(f);
}

TEST(ReproduceLines, ScenarioLinesNameAUsersRunnerAndRunFromIt) {
  checkScenarioLines(STREAMSIM_RUNNER, "runner_count");
  // The plain binary does not know the runner's processor: the line must name the runner.
  std::string f = writeTemp("plain.yaml", failingScenario("runner_count"));
  Out plain = shell(std::string(STREAMSIM_CLI) + " run " + f);
  EXPECT_EQ(plain.code, 2) << plain.text;
  std::filesystem::remove(f);
}

// A runner's REGISTER_RUN functions hand its runs their ForeachWriters and reference functions:
// the runner runs a scenario naming both (the reference checked on the writer's rows); the plain
// binary, which has neither, refuses it at the writer's line (exit 2).
TEST(UsersRunner, ItsRegisterRunFunctionsHandItsRunsAWriterAndAReference) {
  const auto yaml = [](const std::string& reference) {
    return R"(name: a runner's writer and reference
query:
  source: {kind: files, path: /landing, format: json, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: foreach, writer: runner_discarding_writer}
  outputMode: update
  checkpoint: /chk
steps:
  - put: {path: /landing/a.json, rows: [{device: d1}, {device: d1}, {device: d2}]}
  - run: available
oracles: [exactly_once, {reference: )" + reference + R"(}]
)";
  };
  std::string f = writeTemp("runner_registries.yaml", yaml("runner_count_reference"));
  Out runner = shell(std::string(STREAMSIM_RUNNER) + " run " + f);
  EXPECT_EQ(runner.code, 0) << runner.text;
  Out plain = shell(std::string(STREAMSIM_CLI) + " run " + f);
  EXPECT_EQ(plain.code, 2) << plain.text;
  EXPECT_NE(plain.text.find("no ForeachWriter named 'runner_discarding_writer'"), std::string::npos) << plain.text;
  // The reference is applied to the writer's rows: one that expects none fails the run.
  std::ofstream(f, std::ios::trunc) << yaml("runner_no_rows_reference");
  Out wrong = shell(std::string(STREAMSIM_RUNNER) + " run " + f);
  EXPECT_EQ(wrong.code, 1) << wrong.text;
  EXPECT_NE(wrong.text.find("runner_no_rows_reference"), std::string::npos) << wrong.text;
  std::filesystem::remove(f);
}

// A generated workload's line (what its sweep prints: replayLine of its scenario's replay target),
// with a crash and a file subset.
void checkWorkloadLine(const std::string& program, const std::string& store) {
  using namespace streamsim;
  harness::WorkloadConfig c = ::streamsim::test::testWorkload(harness::WorkloadKind::kCount, store);
  auto sc = harness::generatedScenario(c, 7);
  ASSERT_TRUE(sc.ok()) << sc.status().toString();
  sim::FaultPlan plan = harness::scenarioPlan(*sc, 7, harness::scenarioReach(*sc));
  plan.faults.push_back(sim::CrashFault{std::string(faults::kCommitsBeforeWrite), 1, -1, 1});
  const std::vector<int64_t> files{0, 3};
  auto done = harness::runGeneratedSeed(c, 7, {}, plan, files);
  ASSERT_TRUE(done.ok()) << done.status().toString();
  const harness::ScenarioRunResult& r = done->result;
  ASSERT_TRUE(r.passed()) << r.report();
  const std::string line = harness::replayLine(program, sc->hooks->replayTarget, 7, sc->hooks->replayOptions, plan, files);
  ASSERT_EQ(line.rfind(program + " replay count --seed 7", 0), 0u) << line;
  EXPECT_NE(line.find("--files 0,3"), std::string::npos) << line;
  Out o = shell(line);
  EXPECT_EQ(o.code, 0) << line << "\n" << o.text;
  EXPECT_EQ(traceHash(o.text), r.traceHash) << line << "\n" << o.text;
}

TEST(ReproduceLines, GeneratedWorkloadLinesRunAsPrinted) {
  checkWorkloadLine(STREAMSIM_CLI, "memory");
  checkWorkloadLine(STREAMSIM_RUNNER, "rocksdb");
}

// A sweep of `config` (shrunk, `seeds` seeds), its replay lines naming `program`.
streamsim::harness::SweepResult sweepOf(const streamsim::harness::WorkloadConfig& config, const std::string& program,
                                        streamsim::harness::RunOptions run, int seeds, bool shrink = true) {
  streamsim::harness::ScenarioSweepOptions o;
  o.seeds = seeds;
  o.shrink = shrink;
  o.shrinkMaxRuns = 60;
  o.program = program;
  auto r = streamsim::harness::sweepGenerated(config, o, run);
  EXPECT_TRUE(r.ok()) << r.status().toString();
  return r.ok() ? std::move(*r) : streamsim::harness::SweepResult{};
}

// Its first failing seed.
const streamsim::harness::ScenarioSeedOutcome* firstFailure(const streamsim::harness::SweepResult& r) {
  for (const auto& o : r.report.outcomes)
    if (!o.passed) return &o;
  ADD_FAILURE() << (r.scenarios.empty() ? std::string("no sweep") : streamsim::harness::sweepSummary(r).text);
  return nullptr;
}

// A C++ user's sweep of a processor registered in their runner (processorRef: its name): the line
// the failing, shrunk seed prints names the runner and the processor, runs as printed and
// reproduces the shrunk case's fingerprint and its violation.
TEST(ReproduceLines, AFailingSweepOfARunnersProcessorPrintsALineTheRunnerRuns) {
  using namespace streamsim::harness;
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCustom);
  c.processorRef = "runner_caching_count";
  c.processor = *::streamsim::test::testProcessors()->factory("runner_caching_count");
  c.outputSchema = "key string, count long";
  const std::string program = STREAMSIM_RUNNER;
  const SweepResult sweep = sweepOf(c, program, {.batchSplit = true}, 2);
  const ScenarioSeedOutcome* failed = firstFailure(sweep);
  ASSERT_NE(failed, nullptr);
  ASSERT_TRUE(failed->shrunk.has_value());
  EXPECT_EQ(failed->noReplay, "");
  ASSERT_EQ(failed->replay.rfind(program + " replay runner_caching_count --seed " + std::to_string(failed->seed), 0), 0u)
      << failed->replay;
  EXPECT_NE(failed->replay.find(" --batch-split "), std::string::npos) << failed->replay;
  Out o = shell(failed->replay);
  EXPECT_EQ(o.code, 1) << failed->replay << "\n" << o.text;
  EXPECT_EQ(traceHash(o.text), failed->shrunk->result.traceHash) << failed->replay << "\n" << o.text;
  // The violation the sweep shrank (the caching count fails partitioning and batch_split).
  ASSERT_FALSE(failed->shrunk->result.violations.empty()) << failed->report;
  const std::string oracle = failed->shrunk->result.violations.front().oracle;
  EXPECT_TRUE(oracle == "partitioning" || oracle == "batch_split") << oracle;
  EXPECT_NE(o.text.find("oracle " + oracle), std::string::npos) << o.text;
  // The plain binary does not know the processor: the line must name the runner.
  Out plain = shell(std::string(STREAMSIM_CLI) + failed->replay.substr(program.size()));
  EXPECT_EQ(plain.code, 2) << plain.text;
}

// A sweep of a processor only this program knows (a factory, no processorRef) prints no line that
// looks runnable: it says why, and how to reproduce the case in the program.
TEST(ReproduceLines, AFailingSweepOfAFactoryOnlyThisProgramKnowsSaysWhyThereIsNoLine) {
  using namespace streamsim::harness;
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCustom);
  c.processor = *::streamsim::test::testProcessors()->factory("runner_caching_count");
  c.name = "caching-count";
  const SweepResult sweep = sweepOf(c, "streamsim", {.batchSplit = true}, 2, /*shrink=*/false);
  const ScenarioSeedOutcome* failed = firstFailure(sweep);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->replay, "");
  EXPECT_NE(failed->noReplay.find("no replay line: its processor is a factory only this program knows"),
            std::string::npos) << failed->noReplay;
  const std::string summary = sweepSummary(sweep).text;
  EXPECT_EQ(summary.find("replay: "), std::string::npos) << summary;
  EXPECT_NE(summary.find("in this program, runScenarioSeed(*scenarioOfSeed(scenario, "), std::string::npos) << summary;
}

// process_isolation (issue 13 §1) on the runner's count kept in a cache its factory captured: the
// run is right (first in its process), the run after another case is not, the run in a fresh
// processor registry is; the lines `run` and `sweep` print reproduce the violation as printed.
TEST(ReproduceLines, AProcessIsolationViolationReplaysAsPrinted) {
  std::string f = writeTemp("isolation.yaml", R"(name: a count in a cache its factory captured
query:
  source: {kind: memory, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: runner_factory_cache_count, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{device: d1}, {device: d2}]
  - run: 1
  - add_rows: [{device: d1}]
  - run: 1
oracles: [process_isolation]
sweep: {crash_points: [commits.before_write], max_crashes: 1}
)");
  const std::string program = STREAMSIM_RUNNER;
  Out run = shell(program + " run " + f);
  ASSERT_EQ(run.code, 1) << run.text;
  const std::string verdict = after(run.text, "run again after another seed's run in the same process, the case ");
  EXPECT_EQ(verdict.rfind("differed", 0), 0u) << run.text;
  EXPECT_NE(verdict.find("in a fresh processor registry (new factories), the case was the same"), std::string::npos)
      << run.text;
  std::string line = after(run.text, "reproduce: ");
  ASSERT_EQ(line.rfind(program + " run ", 0), 0u) << run.text;
  Out again = shell(line);
  EXPECT_EQ(again.code, 1) << line << "\n" << again.text;
  EXPECT_EQ(after(again.text, "run again after another seed's run in the same process, the case "), verdict)
      << line << "\n" << again.text;

  // A sweep's seeds run in one process: a later seed's run already differs from the case in a
  // fresh registry. Its replay line (a process of its own) reproduces a process_isolation violation.
  Out sweep = shell(program + " sweep " + f + " --seeds 3 --no-progress");
  ASSERT_EQ(sweep.code, 1) << sweep.text;
  EXPECT_NE(sweep.text.find("in a fresh processor registry (new factories), the case differed"), std::string::npos)
      << sweep.text;
  std::string replay = after(sweep.text, "replay: ");
  ASSERT_EQ(replay.rfind(program + " replay " + f + " --seed ", 0), 0u) << sweep.text;
  Out replayed = shell(replay);
  EXPECT_EQ(replayed.code, 1) << replay << "\n" << replayed.text;
  EXPECT_NE(replayed.text.find("process_isolation"), std::string::npos) << replay << "\n" << replayed.text;
  std::filesystem::remove(f);
}

}  // namespace
