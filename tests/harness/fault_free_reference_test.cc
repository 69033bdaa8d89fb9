// A sweep seed's fault-free run as exactly_once's reference (issue 38, runSweepSeed): the reach
// run, made with the options of the reference (runFaultFree), is taken as the reference only where
// sameFaultFreeRun says it is that run. A false alarm is the worst outcome, so here the claim is
// checked against the run it replaces: for every scenario under scenarios/ and every generated
// workload kind, on several seeds, wherever sameFaultFreeRun holds, the reference run made as
// before (runScenario with faultFreeReferenceOf) has the same sink rows, batches and verdict; and a
// seed's judged run under its plan gives the same verdict, violations and report both ways.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "streamsim/harness/run/generated_scenario.h"
#include "streamsim/harness/oracles/partitioning.h"
#include "streamsim/harness/oracles/promises.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

const WorkloadKind kAllKinds[] = {WorkloadKind::kCount,     WorkloadKind::kSessionTracker,
                                  WorkloadKind::kHeartbeat, WorkloadKind::kTtlCache,
                                  WorkloadKind::kDedup,     WorkloadKind::kWindow};

ScenarioRunOptions underPlan(uint64_t seed, const sim::FaultPlan& plan) {
  ScenarioRunOptions o;
  o.seed = seed;
  o.faultPlan = plan;
  return o;
}

// The reference exactly_once runs without the shared run (applyScenarioOracles: runScenario on the
// scenario as runScenario promised it, with the reference's options).
ScenarioRunResult referenceRun(const Scenario& sc, uint64_t seed) {
  return runScenario(withPromisedOracles(sc), faultFreeReferenceOf(underPlan(seed, sim::FaultPlan{})));
}

// The run `asked` makes of `sc`, made again, against the run sameRun took for it: the same run.
void expectSameRun(const ScenarioRunResult& shared, const Scenario& sc, const ScenarioRunOptions& asked,
                   const std::string& what) {
  const ScenarioRunResult again = runScenario(sc, asked);
  EXPECT_EQ(ranClean(shared), ranClean(again)) << what << "\n" << again.report();
  EXPECT_EQ(shared.setupError.toString(), again.setupError.toString()) << what;
  ASSERT_EQ(shared.failures.size(), again.failures.size()) << what;
  for (size_t i = 0; i < shared.failures.size(); ++i)
    EXPECT_EQ(shared.failures[i].message, again.failures[i].message) << what;
  EXPECT_EQ(shared.sinkRows, again.sinkRows) << what;
  EXPECT_EQ(shared.sinkBatchOf, again.sinkBatchOf) << what;
  EXPECT_EQ(shared.batches, again.batches) << what;
  EXPECT_EQ(shared.restarts, again.restarts) << what;
  EXPECT_EQ(shared.crashes, again.crashes) << what;
  EXPECT_EQ(shared.trace, again.trace) << what;
}

// partitioning's run with the query's partitions (partitioningHereOptions), where sameRun says
// the seed's fault-free run is it: made again, the same run and the same rows. True when shared.
bool expectSamePartitioningRun(const FaultFreeRun& shared, const Scenario& sc, uint64_t seed,
                               const std::string& what) {
  const ScenarioRunOptions here = partitioningHereOptions(seed);
  if (!sameRun(shared.scenario, shared.options, shared.result, sc, here)) return false;
  expectSameRun(shared.result, withPromisedOracles(sc), here, what + " (partitioning's run)");
  auto rows = variantSinkOf(shared.result);
  auto again = variantSink(withPromisedOracles(sc), seed, std::nullopt, /*skipCrashSteps=*/true);
  EXPECT_EQ(rows.ok(), again.ok()) << what;
  if (rows.ok() && again.ok()) EXPECT_EQ(*rows, *again) << what;
  return true;
}

// Whether the shared run, where sameFaultFreeRun holds, equals the reference run; true when shared.
// Also partitioning's run (counted in `partitioning`).
bool expectSameReference(const Scenario& sc, uint64_t seed, const std::string& what, int* partitioning = nullptr) {
  const auto shared = runFaultFree(sc, underPlan(seed, sim::FaultPlan{}));
  if (expectSamePartitioningRun(*shared, sc, seed, what) && partitioning != nullptr) ++*partitioning;
  const ScenarioRunOptions ref = faultFreeReferenceOf(underPlan(seed, sim::FaultPlan{}));
  EXPECT_FALSE(sameFaultFreeRun(*shared, withPromisedOracles(sc), ref)) << what << ": another object";
  if (!sameFaultFreeRun(*shared, sc, ref)) {
    EXPECT_FALSE(shared->result.reach.switches.empty()) << what << ": not shared, yet no scheduling choice";
    return false;
  }
  const ScenarioRunResult again = referenceRun(sc, seed);
  EXPECT_EQ(shared->result.passed(), again.passed()) << what << "\n" << again.report();
  EXPECT_EQ(shared->result.report(), again.report()) << what;
  EXPECT_EQ(shared->result.sinkRows, again.sinkRows) << what;
  EXPECT_EQ(shared->result.sinkBatchOf, again.sinkBatchOf) << what;
  EXPECT_EQ(shared->result.batches, again.batches) << what;
  EXPECT_EQ(shared->result.restarts, again.restarts) << what;
  EXPECT_EQ(shared->result.crashes, again.crashes) << what;
  return true;
}

// A seed's run under its plan (aimed at the shared run's reach), judged with the shared reference
// and without it: the same verdict. Returns whether the reference was shared.
bool expectSameVerdict(const Scenario& sc, uint64_t seed, const std::string& what) {
  ScenarioRunOptions o = underPlan(seed, sim::FaultPlan{});
  o.faultFreeRun = runFaultFree(sc, o);
  o.faultPlan = scenarioPlan(sc, seed, o.faultFreeRun->result.reach);
  if (!o.faultPlan->landingFaults().empty()) return false;  // runSweepSeed shares none then
  const ScenarioRunResult shared = runScenario(sc, o);
  o.faultFreeRun.reset();
  const ScenarioRunResult ran = runScenario(sc, o);
  EXPECT_FALSE(ran.referenceFromFaultFreeRun);
  EXPECT_EQ(shared.passed(), ran.passed()) << what << " plan " << o.faultPlan->toJson() << "\n" << ran.report();
  EXPECT_EQ(shared.report(), ran.report()) << what << " plan " << o.faultPlan->toJson();
  EXPECT_EQ(shared.violations.size(), ran.violations.size()) << what;
  EXPECT_EQ(shared.sinkRows, ran.sinkRows) << what;
  EXPECT_EQ(shared.traceHash, ran.traceHash) << what;
  // The shared run saves exactly_once's reference, partitioning's run and restart transparency's
  // fault-free run where it is each of them.
  EXPECT_LE(shared.oracleRuns + (shared.referenceFromFaultFreeRun ? 1 : 0), ran.oracleRuns) << what;
  return shared.referenceFromFaultFreeRun;
}

// Restart transparency's two runs (exactly_once), taken where sameRun says so: the run under the
// plan with the no-data rule off is the judged run when its rule withheld nothing; the fault-free
// run with that rule off is the seed's fault-free run (no downtime) or exactly_once's reference
// (the same restarts) when their rule withheld nothing. Each claim, wherever it holds, against the
// run made again. Counts the claims that held.
struct TransparencyShared {
  int judged = 0, faultFree = 0, reference = 0, seeds = 0;
};

void expectSameTransparencyRuns(const Scenario& sc, uint64_t seed, const std::string& what, TransparencyShared& n) {
  ScenarioRunOptions o = underPlan(seed, sim::FaultPlan{});
  o.faultFreeRun = runFaultFree(sc, o);
  o.faultPlan = scenarioPlan(sc, seed, o.faultFreeRun->result.reach);
  if (!o.faultPlan->landingFaults().empty()) return;  // runSweepSeed shares none then
  const ScenarioRunResult r = runScenario(sc, o);
  if (!ranClean(r)) return;  // no oracle judged it
  ++n.seeds;
  ScenarioRunOptions judged = o;  // as the oracles see it (runScenario's restart judgement)
  if (!r.judgedAgainstRestartReference.empty()) judged.skipExpectations = true;
  const std::string plan = " plan " + o.faultPlan->toJson();
  const ScenarioRunOptions faulted = restartTransparencyRun(judged);
  const ScenarioRunResult* t = &r;
  ScenarioRunResult ranT;
  if (sameRun(&sc, judged, r, sc, faulted)) {
    ++n.judged;
    expectSameRun(r, sc, faulted, what + plan + " (the judged run with the no-data rule off)");
  } else {
    ranT = runScenario(sc, faulted);
    t = &ranT;
  }
  const ScenarioRunOptions plain = restartTransparencyFaultFree(judged, t->trace);
  if (sameFaultFreeRun(*o.faultFreeRun, sc, plain)) {
    ++n.faultFree;
    expectSameRun(o.faultFreeRun->result, sc, plain, what + plan + " (the fault-free run with the no-data rule off)");
  }
  const ScenarioRunOptions refOptions = exactlyOnceReferenceOf(judged, r);
  const ScenarioRunResult ref = runScenario(sc, refOptions);
  if (sameRun(&sc, refOptions, ref, sc, plain)) {
    ++n.reference;
    expectSameRun(ref, sc, plain, what + plan + " (the reference with the no-data rule off)");
  }
}

std::vector<std::string> scenarioFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(STREAMSIM_SOURCE_DIR) + "/scenarios"))
    if (e.path().extension() == ".yaml" || e.path().extension() == ".yml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FaultFreeReference, EveryScenarioFilesSharedRunIsItsReferenceRun) {
  int shared = 0;
  int loaded = 0;
  int partitioning = 0;
  for (const std::string& file : scenarioFiles()) {
    auto sc = loadScenario(file, ::streamsim::test::testLoader());
    if (!sc.ok()) continue;  // a file of several scenarios, a fragment: the loader's tests cover them
    ++loaded;
    for (uint64_t seed : {0u, 3u, 1000001u})
      shared += expectSameReference(*sc, seed, fmt::format("{} seed {}", file, seed), &partitioning) ? 1 : 0;
  }
  EXPECT_GT(loaded, 150);
  EXPECT_GT(shared, 3 * 140);  // nearly every scenario: only a scheduling choice keeps it apart
  // A scenario file's fault-free run has no plan and partitioning's an empty one: its driver is
  // supervised only under a plan, so they are not provably one run.
  EXPECT_EQ(partitioning, 0);
}

TEST(FaultFreeReference, EveryGeneratedKindsSharedRunIsItsReferenceRun) {
  for (const char* store : {"memory", "rocksdb"})
    for (WorkloadKind k : kAllKinds)
      for (uint64_t seed : {0u, 5u, 77u}) {
        auto sc = generatedScenario(::streamsim::test::testWorkload(k, store), seed);
        ASSERT_TRUE(sc.ok()) << sc.status().toString();
        int partitioning = 0;
        EXPECT_TRUE(
            expectSameReference(*sc, seed, fmt::format("{}/{} seed {}", sc->name, store, seed), &partitioning));
        // A generated scenario's driver restarts after any failure: partitioning's run is the
        // seed's fault-free run (it has no crash step, no expectation).
        EXPECT_EQ(partitioning, 1) << sc->name << " seed " << seed;
      }
}

// Issue 38: restart transparency's runs, shared, are the runs made the old way.
TEST(FaultFreeReference, RestartTransparencysSharedRunsAreItsRunsForEveryGeneratedKind) {
  TransparencyShared n;
  for (const char* store : {"memory", "rocksdb"})
    for (WorkloadKind k : kAllKinds)
      for (uint64_t seed = 0; seed < 6; ++seed) {
        auto sc = generatedScenario(::streamsim::test::testWorkload(k, store), seed);
        ASSERT_TRUE(sc.ok()) << sc.status().toString();
        expectSameTransparencyRuns(*sc, seed, fmt::format("{}/{} seed {}", sc->name, store, seed), n);
      }
  std::cout << fmt::format("restart transparency, generated: of {} judged seeds, the judged run shared on {}, the "
                           "fault-free run on {}, the reference on {}\n", n.seeds, n.judged, n.faultFree, n.reference);
  // Each claim held on a good part of the seeds (this test compares something).
  EXPECT_GT(n.judged * 2, n.seeds) << n.judged << " of " << n.seeds;
  EXPECT_GT(n.faultFree * 4, n.seeds) << n.faultFree << " of " << n.seeds;
  EXPECT_GT(n.reference * 4, n.seeds) << n.reference << " of " << n.seeds;
}

TEST(FaultFreeReference, RestartTransparencysSharedRunsAreItsRunsForEveryScenarioFile) {
  TransparencyShared n;
  for (const std::string& file : scenarioFiles()) {
    auto sc = loadScenario(file, ::streamsim::test::testLoader());
    if (!sc.ok()) continue;
    for (uint64_t seed : {3u, 1000001u})
      expectSameTransparencyRuns(*sc, seed, fmt::format("{} seed {}", file, seed), n);
  }
  std::cout << fmt::format("restart transparency, files: of {} judged seeds, the judged run shared on {}, the "
                           "fault-free run on {}, the reference on {}\n", n.seeds, n.judged, n.faultFree, n.reference);
  EXPECT_GT(n.seeds, 2 * 100);
  EXPECT_GT(n.judged, 10) << n.judged << " of " << n.seeds;
  EXPECT_GT(n.reference, 10) << n.reference << " of " << n.seeds;
}

TEST(FaultFreeReference, AGeneratedSeedsVerdictIsTheSameWithTheSharedReference) {
  int shared = 0;
  for (const char* store : {"memory", "rocksdb"})
    for (WorkloadKind k : kAllKinds)
      for (uint64_t seed = 0; seed < 4; ++seed) {
        auto sc = generatedScenario(::streamsim::test::testWorkload(k, store), seed);
        ASSERT_TRUE(sc.ok()) << sc.status().toString();
        shared += expectSameVerdict(*sc, seed, fmt::format("{}/{} seed {}", sc->name, store, seed)) ? 1 : 0;
      }
  EXPECT_GT(shared, 12);  // the reference was shared on many seeds: this test compares something
}

TEST(FaultFreeReference, AScenarioFilesVerdictIsTheSameWithTheSharedReference) {
  const std::vector<std::string> files = scenarioFiles();
  int shared = 0, sampled = 0;
  for (size_t i = 0; i < files.size(); i += 6) {  // a broad sample: every sixth file, buggy ones too
    auto sc = loadScenario(files[i], ::streamsim::test::testLoader());
    if (!sc.ok()) continue;
    ++sampled;
    shared += expectSameVerdict(*sc, 11, fmt::format("{} seed 11", files[i])) ? 1 : 0;
  }
  // The reference was shared on a good part of the sample (this test compares something). A
  // fraction, not a count: a new scenario file shifts which files the sample takes.
  EXPECT_GT(sampled, 25);
  EXPECT_GE(shared * 4, sampled) << shared << " of " << sampled << " sampled files shared their reference";
}

// A replay without --plan aims as the sweep did: runGeneratedSeed's plan is the sweep seed's.
TEST(FaultFreeReference, AGeneratedReplayWithoutAPlanAimsAsTheSweep) {
  const WorkloadConfig c = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  ScenarioSweepOptions o;
  o.seeds = 6;
  o.firstSeed = 40;
  auto sweep = sweepGenerated(c, o, {});
  ASSERT_TRUE(sweep.ok()) << sweep.status().toString();
  ASSERT_EQ(sweep->report.outcomes.size(), 6u);
  for (const auto& seed : sweep->report.outcomes) {
    auto replayed = runGeneratedSeed(c, seed.seed, {}, std::nullopt);
    ASSERT_TRUE(replayed.ok()) << replayed.status().toString();
    EXPECT_EQ(replayed->plan.toJson(), seed.plan) << "seed " << seed.seed;
    EXPECT_EQ(replayed->result.traceHash, seed.traceHash) << "seed " << seed.seed;
  }
}

}  // namespace
}  // namespace streamsim::harness
