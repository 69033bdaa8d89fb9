// Sweeps of the standard crash workloads (their generated scenarios, harness::sweepGenerated):
// 1,000 seeds per state store with zero violations, same seed -> same fingerprint for every
// workload, results independent of the thread count, shard reports that merge into the same
// totals, plans whose faults fire.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "harness/generated_sweep_support.h"
#include "streamsim/harness/oracles/not_checked.h"
#include "streamsim/harness/run/totals.h"
#include "streamsim/harness/scenario_hooks.h"

namespace streamsim::harness {
namespace {

const WorkloadKind kAllKinds[] = {WorkloadKind::kCount,     WorkloadKind::kSessionTracker,
                                  WorkloadKind::kHeartbeat, WorkloadKind::kTtlCache,
                                  WorkloadKind::kDedup,     WorkloadKind::kWindow};

TEST(Sweep, OneRunOfEachWorkloadPassesAndProducesOutput) {
  for (const char* store : {"memory", "rocksdb"}) {
    for (WorkloadKind k : kAllKinds) {
      WorkloadConfig c = ::streamsim::test::testWorkload(k, store);
      ScenarioRunResult r = testing::seedRun(c, 7, {.determinism = true});
      EXPECT_TRUE(r.passed()) << c.name << "/" << store << "\n" << r.report();
      EXPECT_GT(r.batches, 10) << c.name;
      if (k != WorkloadKind::kSessionTracker) {
        EXPECT_FALSE(r.sinkRows.empty()) << c.name;
      }
    }
  }
}

// The standard crash workload (count): 20 files of 10 events, up to 2 crashes at any fault point
// with torn writes and task failures; 1,000 seeds per store.
WorkloadConfig crashWorkload(const std::string& store) {
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount, store);
  c.spec.events = 60;
  c.spec.eventsPerFile = 3;
  c.drainMs = 2'000;
  c.knobs.files = 20;
  c.knobs.batches = 22;
  c.workloadVariety = 16;  // 16 workloads
  return c;
}

void sweepThousand(const std::string& store) {
  WorkloadConfig c = crashWorkload(store);
  SweepResult r = testing::sweepOf(c, 1000, {.determinismEvery = 50}, false, /*jobs=*/2);
  EXPECT_EQ(r.report.outcomes.size(), 1000u);
  const std::string summary = sweepSummary(r).text;
  EXPECT_EQ(r.report.totals.failed, 0u) << summary;
  int crashed = 0;
  for (const auto& out : r.report.outcomes) crashed += out.plan.find("\"crash\"") != std::string::npos;
  EXPECT_GT(crashed, 300);  // the sweep did crash the driver in many seeds
  std::cout << summary;
}

TEST(Sweep, ThousandSeedsOfTheCrashWorkloadOnTheMemoryStore) { sweepThousand("memory"); }
TEST(Sweep, ThousandSeedsOfTheCrashWorkloadOnTheRocksDbStore) { sweepThousand("rocksdb"); }

TEST(Sweep, SameSeedTwiceGivesTheSameFingerprintForEveryWorkload) {
  for (const char* store : {"memory", "rocksdb"})
    for (WorkloadKind k : kAllKinds)
      for (uint64_t seed : {1, 2, 3}) {
        WorkloadConfig c = ::streamsim::test::testWorkload(k, store);
        ScenarioRunResult a = testing::seedRun(c, seed, {.oracles = false});
        ScenarioRunResult b = testing::seedRun(c, seed, {.oracles = false});
        EXPECT_EQ(a.traceHash, b.traceHash) << c.name << "/" << store << " seed " << seed;
        EXPECT_FALSE(a.trace.empty());
      }
  // And different seeds differ.
  WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  EXPECT_NE(testing::seedRun(c, 1, {.oracles = false}).traceHash, testing::seedRun(c, 2, {.oracles = false}).traceHash);
}

// Issue 38: a generated seed runs determinism where its config decides it (every
// determinismEvery-th seed here, as the workload loop did), not on every seed as a scenario file's
// default oracles would add it: the sweep with determinism every 10th seed makes one run fewer on
// each other seed than the sweep with determinism on every seed, and the same verdicts.
TEST(Sweep, DeterminismRunsOnTheSeedsTheConfigDecides) {
  const WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  for (uint64_t seed : {0, 3, 10, 11}) {
    auto sc = generatedScenario(c, seed, {}, {.determinismEvery = 10});
    ASSERT_TRUE(sc.ok()) << sc.status().toString();
    ASSERT_TRUE(sc->hooks && sc->hooks->decidesDeterminism);
    const auto& names = sc->oracles;
    EXPECT_EQ(std::find(names.begin(), names.end(), "determinism") != names.end(), seed % 10 == 0) << seed;
    const std::vector<std::string> defaults = defaultOracles(*sc, true);
    EXPECT_EQ(std::find(defaults.begin(), defaults.end(), "determinism"), defaults.end()) << seed;
    EXPECT_NE(std::find(defaults.begin(), defaults.end(), "exactly_once"), defaults.end()) << seed;
  }
  const SweepResult every = testing::sweepOf(c, 20, {.determinism = true});
  const SweepResult tenth = testing::sweepOf(c, 20, {.determinismEvery = 10});
  ASSERT_EQ(every.report.outcomes.size(), 20u);
  ASSERT_EQ(tenth.report.outcomes.size(), 20u);
  for (size_t i = 0; i < 20; ++i) {
    const auto& a = every.report.outcomes[i];
    const auto& b = tenth.report.outcomes[i];
    const bool decided = a.seed % 10 == 0;
    EXPECT_TRUE(a.passed && b.passed) << "seed " << a.seed;
    EXPECT_EQ(a.traceHash, b.traceHash) << "seed " << a.seed;
    EXPECT_EQ(a.runs, b.runs + (decided ? 0 : 1)) << "seed " << a.seed;
    EXPECT_EQ(a.oracleChecks, b.oracleChecks + (decided ? 0 : 1)) << "seed " << a.seed;
  }
}

std::string writeReport(const SweepResult& r, const std::string& name) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("streamsim_sweep_test_" + std::to_string(::getpid()) + "_" + name)).string();
  std::ofstream(path) << sweepReportJson(r).dump();
  return path;
}

TEST(Sweep, ResultsDoNotDependOnThreadsAndShardsMerge) {
  WorkloadConfig c = crashWorkload("memory");
  ScenarioSweepOptions one;
  one.seeds = 24;
  one.jobs = 1;
  one.shrink = false;
  ScenarioSweepOptions two = one;
  two.jobs = 2;
  auto a = sweepGenerated(c, one), b = sweepGenerated(c, two);
  ASSERT_TRUE(a.ok() && b.ok());
  const auto& ao = a->report.outcomes;
  ASSERT_EQ(ao.size(), b->report.outcomes.size());
  for (size_t i = 0; i < ao.size(); ++i) {
    EXPECT_EQ(ao[i].seed, b->report.outcomes[i].seed);
    EXPECT_EQ(ao[i].traceHash, b->report.outcomes[i].traceHash);
  }
  ScenarioSweepOptions s0 = one, s1 = one;
  s0.shardCount = s1.shardCount = 2;
  s0.shardIndex = 0;
  s1.shardIndex = 1;
  auto r0 = sweepGenerated(c, s0), r1 = sweepGenerated(c, s1);
  ASSERT_TRUE(r0.ok() && r1.ok());
  for (const auto& o : r0->report.outcomes) EXPECT_EQ(o.seed % 2, 0u);
  for (const auto& o : r1->report.outcomes) EXPECT_EQ(o.seed % 2, 1u);
  // Through their --json reports, as shards on different machines would.
  const std::string f0 = writeReport(*r0, "0.json"), f1 = writeReport(*r1, "1.json");
  auto merged = mergeSweepReports({f0, f1});
  ASSERT_TRUE(merged.ok()) << merged.status().toString();
  EXPECT_TRUE(merged->gaps.empty());
  const auto& results = merged->report.at("results");
  ASSERT_EQ(results.size(), ao.size());
  for (size_t i = 0; i < ao.size(); ++i) {
    EXPECT_EQ(results[i].at("seed").get<uint64_t>(), ao[i].seed);
    EXPECT_EQ(results[i].at("traceHash").get<std::string>(), ao[i].traceHash);
  }
  // The merged shards' totals are the single sweep's (their wall time aside), faults included.
  const SweepTotals& t = merged->totals;
  const SweepTotals& single = a->report.totals;
  EXPECT_EQ(t.seeds, single.seeds);
  EXPECT_EQ(t.runs, single.runs);
  EXPECT_EQ(t.oracleChecks, single.oracleChecks);
  EXPECT_EQ(t.crashes, single.crashes);
  EXPECT_EQ(t.seedsWhoseFaultsFired, single.seedsWhoseFaultsFired);
  EXPECT_EQ(t.firedByPoint, single.firedByPoint);
  const std::string summary = sweepSummary(*a).text;
  EXPECT_NE(summary.find("TOTAL PASS (0 failed): 1 workload, 24 seeds"), std::string::npos) << summary;
  EXPECT_FALSE(mergeSweepReports({f0, f1, f0}).ok());  // overlapping seeds are refused
  std::filesystem::remove(f0);
  std::filesystem::remove(f1);
}

// The plans aim at what the fault-free run of the seed's workload reaches (sim::Reach, as in
// scenario sweeps): in every standard workload at least 95% of the seeds with a planned fault
// see one fire (with the fixed knobs of before, 71-94%: docs/oracles.md "Standard workloads"),
// and each seed's faults are in its outcome.
TEST(Sweep, PlannedFaultsFireInAtLeast95PercentOfTheSeedsOfEveryStandardWorkload) {
  for (WorkloadKind k : kAllKinds) {
    WorkloadConfig c = ::streamsim::test::testWorkload(k, "memory");
    SweepResult r = testing::sweepOf(c, 20, {}, false, /*jobs=*/2);
    const SweepTotals& t = r.report.totals;
    std::cout << t.line() << "\n";
    EXPECT_EQ(t.failed, 0u) << sweepSummary(r).text;
    EXPECT_GE(t.seedsWithFaults, 19u) << t.line();
    EXPECT_GE(t.seedsWhoseFaultsFired * 100, t.seedsWithFaults * 95) << t.line();
    for (const ScenarioSeedOutcome& out : r.report.outcomes) {
      EXPECT_EQ(out.faults.plan.toJson(), out.plan) << c.name << " seed " << out.seed;
      EXPECT_EQ(out.toJson(r.scenarios[0]).at("faults").at("planned"), out.faults.executablePlanned());
    }
  }
}

TEST(Sweep, FileAndForeachSinks) {
  // Files: exactly once across crashes. Foreach: at least once — the oracle shows duplicates
  // when a crash lands between the sink and the commit.
  WorkloadConfig files = crashWorkload("memory");
  files.sink = SinkKind::kFiles;
  SweepResult f = testing::sweepOf(files, 60);
  EXPECT_EQ(f.report.totals.failed, 0u) << sweepSummary(f).text;

  WorkloadConfig fe = crashWorkload("memory");
  fe.sink = SinkKind::kForeach;
  fe.knobs.points = {"commits.before_write"};
  fe.knobs.maxCrashes = 1;
  SweepResult r = testing::sweepOf(fe, 60);
  ASSERT_GT(r.report.totals.failed, 0u);
  for (const auto& out : r.report.outcomes)
    if (!out.passed) {
      EXPECT_TRUE(testing::violated(out, "exactly_once")) << out.report;
      EXPECT_NE(out.report.find("duplicate"), std::string::npos) << out.report;
      break;
    }
}

}  // namespace
}  // namespace streamsim::harness
