// The runs of one input share their files' rows (ScenarioRunOptions::parsedFiles,
// io/parsed_files.h) and nothing a run gives changes for it: a sweep seed's run under its plan,
// with every oracle's runs, is the same with the shared rows as with every file parsed anew —
// the trace (its hash), the sink, the failures, the violations and the runs it took.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "scenario_test_support.h"
#include "streamsim/harness/run/generated_scenario.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/io/parsed_files.h"

namespace streamsim::harness {
namespace parsed_files_runs_test {

std::string violationsOf(const ScenarioRunResult& r) {
  std::string out;
  for (const Violation& v : r.violations) out += v.oracle + ": " + v.message + "\n";
  return out;
}

void expectSameRun(const ScenarioRunResult& shared, const ScenarioRunResult& parsed, const std::string& what) {
  EXPECT_EQ(shared.traceHash, parsed.traceHash) << what;
  EXPECT_EQ(shared.sinkRows, parsed.sinkRows) << what;
  EXPECT_EQ(shared.report(), parsed.report()) << what;
  EXPECT_EQ(violationsOf(shared), violationsOf(parsed)) << what;
  EXPECT_EQ(shared.oracleRuns, parsed.oracleRuns) << what;
  EXPECT_EQ(shared.crashes, parsed.crashes) << what;
}

// A seed as runSweepSeed runs it, its runs sharing `parsedFiles`: the reach run that aims the
// plan, then the seed's own scenario under the plan with its oracles.
ScenarioRunResult seedWith(const WorkloadConfig& config, uint64_t seed, std::shared_ptr<ParsedFiles> parsedFiles) {
  auto sc = generatedScenario(config, seed);
  EXPECT_TRUE(sc.ok()) << sc.status().toString();
  if (!sc.ok()) return {};
  ScenarioRunOptions o;
  o.seed = seed;
  o.faultPlan = sim::FaultPlan{};
  o.parsedFiles = std::move(parsedFiles);
  const sim::FaultPlan plan = scenarioPlan(*sc, seed, runFaultFree(*sc, o)->result.reach);
  auto own = scenarioOfSeed(*sc, seed, plan);
  EXPECT_TRUE(own.ok()) << own.status().toString();
  if (!own.ok()) return {};
  o.faultPlan = plan;
  return runScenario(*own, o);
}

TEST(ParsedFilesRunsTest, ASeedsRunsAreTheSameWithTheirFilesParsedOnce) {
  for (WorkloadKind kind : {WorkloadKind::kCount, WorkloadKind::kDedup, WorkloadKind::kWindow}) {
    const WorkloadConfig config = ::streamsim::test::testWorkload(kind);
    int64_t hits = 0;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      auto kept = std::make_shared<ParsedFiles>();
      const ScenarioRunResult shared = seedWith(config, seed, kept);
      const ScenarioRunResult parsed = seedWith(config, seed, std::make_shared<ParsedFiles>(0));  // keeps nothing
      expectSameRun(shared, parsed, fmt::format("{} seed {}", config.name, seed));
      EXPECT_TRUE(shared.passed()) << shared.report();
      hits += kept->hits();
    }
    EXPECT_GT(hits, 0) << config.name << ": the runs of a seed read its files again";
  }
}

// A scenario of the library over CSV files with malformed records: its run with its oracles, and
// its sweep seeds under fault plans.
TEST(ParsedFilesRunsTest, ALibraryScenarioOverCsvFilesIsTheSame) {
  const Scenario sc = loadFile("scenarios/files/csv_source_header_nulls_and_malformed_records.yaml");
  const sim::Reach reach = scenarioReach(sc);
  for (uint64_t seed = 0; seed <= 8; ++seed) {
    ScenarioRunOptions o;
    o.seed = seed;
    if (seed > 0) o.faultPlan = scenarioPlan(sc, seed, reach);
    auto kept = std::make_shared<ParsedFiles>();
    o.parsedFiles = kept;
    const ScenarioRunResult shared = runScenario(sc, o);
    o.parsedFiles = std::make_shared<ParsedFiles>(0);
    const ScenarioRunResult parsed = runScenario(sc, o);
    expectSameRun(shared, parsed, fmt::format("seed {}", seed));
    EXPECT_TRUE(shared.passed()) << shared.report();
  }
}

}  // namespace parsed_files_runs_test
}  // namespace streamsim::harness
