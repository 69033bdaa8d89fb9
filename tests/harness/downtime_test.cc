// Outage-shaped faults (issue 13 §2): a crash's downtime (CrashFault::downtime, `sweep: {downtime:
// 0..5m}`) and `restart: {after: 2m}` leave the driver down while the clock moves on and files keep
// landing; the reference takes the same downtime at the same batch boundaries
// (run/clean_restarts.h), so processing-time processors are judged like with like; and an engine
// that re-plans a logged batch from the current listing is caught only with downtime.
#include <gtest/gtest.h>

#include <iostream>

#include "harness/generated_sweep_support.h"
#include "harness/scenario_test_support.h"
#include "streamsim/harness/run/clean_restarts.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/sim/random.h"
#include "streamsim/source.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace downtime_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

TEST(Downtime, PlansCarryItAndHalfTheSeedsHaveNone) {
  sim::FaultKnobs k;
  k.points = {"offsets.after_write"};
  k.maxCrashes = 2;
  k.downtimeMin = 1'000;
  k.downtimeMax = 300'000;
  int with = 0, crashed = 0;
  for (uint64_t s = 0; s < 200; ++s) {
    sim::FaultPlan p = sim::generateFaultPlan(sim::Random(s), k);
    DurationMs d = -1;
    for (const sim::Fault& f : p.faults) {
      const auto& c = std::get<sim::CrashFault>(f);
      if (d >= 0) {
        EXPECT_EQ(c.downtime, d) << "one value per seed";
      }
      d = c.downtime;
      EXPECT_TRUE(c.downtime == 0 || (c.downtime >= 1'000 && c.downtime <= 300'000)) << c.downtime;
    }
    if (d < 0) continue;
    ++crashed;
    with += d > 0;
    // The crashes themselves do not depend on the downtime knob (their own stream).
    sim::FaultKnobs none = k;
    none.downtimeMax = 0;
    none.downtimeMin = 0;
    sim::FaultPlan q = sim::generateFaultPlan(sim::Random(s), none);
    ASSERT_EQ(q.faults.size(), p.faults.size());
    for (size_t i = 0; i < q.faults.size(); ++i)
      EXPECT_EQ(std::get<sim::CrashFault>(q.faults[i]).batch, std::get<sim::CrashFault>(p.faults[i]).batch);
  }
  EXPECT_GT(with, crashed / 4);
  EXPECT_LT(with, crashed * 3 / 4);
}

TEST(Downtime, ThePlanJsonKeepsItAndRejectsANegativeOne) {
  sim::FaultPlan p;
  p.faults.push_back(sim::CrashFault{"offsets.after_write", 2, -1, 1, 120'000});
  p.faults.push_back(sim::DowntimeFault{3, 300'000});
  auto back = sim::FaultPlan::fromJson(p.toJson());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, p);
  EXPECT_NE(sim::describe(p.faults[0]).find("then down 2m"), std::string::npos) << sim::describe(p.faults[0]);
  auto bad = sim::FaultPlan::fromJson(R"({"faults":[{"type":"crash","point":"offsets.after_write","downtime":-5}]})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("downtime must be >= 0"), std::string::npos) << bad.status().message();
  auto badDown = sim::FaultPlan::fromJson(R"({"faults":[{"type":"downtime","batch":1,"downtime":-5}]})");
  ASSERT_FALSE(badDown.ok());
  EXPECT_NE(badDown.status().message().find("downtime must be >= 0"), std::string::npos) << badDown.status().message();
}

std::string down(int64_t batch, TimeMs from, TimeMs until) {
  return R"({"event":"driver_down","after":"crash","batch":)" + std::to_string(batch) + R"(,"from":)" +
         std::to_string(from) + R"(,"until":)" + std::to_string(until) + "}";
}
std::string started(int64_t next, bool rerun) {
  return R"({"event":"query_started","nextBatch":)" + std::to_string(next) + R"(,"rerun":)" +
         (rerun ? "true" : "false") + "}";
}

// The boundary of each downtime: a re-run batch is followed by downtime without a crash; a clean
// restart is the same restart (after the commit it crashed at, or before the batch it planned).
TEST(Downtime, TheReferenceTakesItAtTheSameBatchBoundary) {
  auto faults = downtimeAfterCrashes({down(4, 1000, 61000), started(4, true),     // re-ran batch 4
                                      down(6, 9000, 69000), started(7, false),    // crashed after commits/6
                                      down(8, 12000, 20000), started(8, false)});  // batch 8 was being planned
  ASSERT_EQ(faults.size(), 3u);
  EXPECT_EQ(std::get<sim::DowntimeFault>(faults[0]), (sim::DowntimeFault{4, 60000}));
  EXPECT_EQ(std::get<sim::CrashFault>(faults[1]), (sim::CrashFault{"commits.after_write", 6, -1, 1, 60000}));
  EXPECT_EQ(std::get<sim::CrashFault>(faults[2]), (sim::CrashFault{"offsets.before_write", 8, -1, 1, 8000}));
  // A restart step's downtime is the scenario's own (its reference has the step too).
  EXPECT_TRUE(downtimeAfterCrashes({R"({"event":"driver_down","after":"restart","batch":-1,"from":0,"until":5})",
                                    started(2, false)})
                  .empty());
}

// --- generated workloads ---------------------------------------------------------------------

WorkloadConfig small(WorkloadKind kind) {
  WorkloadConfig c = ::streamsim::test::testWorkload(kind, "memory");
  c.spec.events = 60;
  c.spec.eventsPerFile = 3;
  c.drainMs = 6'000;
  c.knobs.files = 20;
  c.knobs.batches = 26;
  return c;
}

SweepResult sweep(const WorkloadConfig& c, int seeds) { return testing::sweepOf(c, seeds, {}, false, /*jobs=*/2); }

// No false alarms: processing-time processors (a heartbeat's timers, a TTL cache) and the others
// under crashes with downtime, compared with the reference with the same downtime.
TEST(Downtime, CorrectProcessorsPassSweepsWithDowntime) {
  for (WorkloadKind kind : {WorkloadKind::kHeartbeat, WorkloadKind::kTtlCache, WorkloadKind::kCount,
                            WorkloadKind::kDedup}) {
    WorkloadConfig c = small(kind);
    c.knobs.downtimeMax = 20'000;
    SweepResult r = sweep(c, 150);
    SCOPED_TRACE(c.name);
    EXPECT_EQ(r.report.totals.failed, 0u) << sweepSummary(r).text;
    int64_t downSeeds = 0;
    for (const ScenarioSeedOutcome& o : r.report.outcomes) downSeeds += o.downtimeMs > 0;
    EXPECT_GE(downSeeds, 20) << "seeds whose crashes left the driver down";
  }
}

// The planted engine bug: on a re-run of a logged batch the source re-plans from the current
// listing instead of the logged offsets (getBatch called before any latestOffset of this run: the
// re-run after a restart). Without downtime the listing at the restart is the logged one; with
// downtime files landed meanwhile and the batch takes them.
class ReplanningSource final : public Source {
 public:
  explicit ReplanningSource(std::unique_ptr<Source> inner) : inner_(std::move(inner)) {}
  std::string description() const override { return inner_->description(); }
  Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) override {
    return inner_->restore(ctx, committed);
  }
  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override {
    planned_ = true;
    return inner_->latestOffset(ctx, start);
  }
  Result<std::vector<Row>> getBatch(const SourceContext& ctx, const std::optional<std::string>& start,
                                    const std::string& end) override {
    if (planned_) return inner_->getBatch(ctx, start, end);
    planned_ = true;  // the bug: a logged batch planned again from what is listed now
    STREAMSIM_ASSIGN_OR_RETURN(std::optional<std::string> now, inner_->latestOffset(ctx, start));
    return inner_->getBatch(ctx, start, now.value_or(end));
  }
  Status commit(const SourceContext& ctx, const std::string& end) override { return inner_->commit(ctx, end); }

 private:
  std::unique_ptr<Source> inner_;
  bool planned_ = false;
};

WorkloadConfig replanning(DurationMs downtimeMax) {
  WorkloadConfig c = small(WorkloadKind::kCount);
  c.knobs.points = {"offsets.after_write", "state.after_commit", "sink.after_data_files", "commits.before_write"};
  c.knobs.downtimeMax = downtimeMax;
  c.wrapSource = [](SourceFactory inner) -> SourceFactory {
    return [inner] { return std::unique_ptr<Source>(new ReplanningSource(inner())); };
  };
  return c;
}

TEST(Downtime, AnEngineThatReplansALoggedBatchIsCaughtOnlyWithDowntime) {
  SweepResult without = sweep(replanning(0), 300);
  EXPECT_EQ(without.report.totals.failed, 0u) << "without downtime the bug hides\n" << sweepSummary(without).text;
  auto with = testing::firstFailingSeed(replanning(10'000), 300, {}, /*shrink=*/false);
  ASSERT_TRUE(with.has_value()) << "the bug was not caught with downtime in 300 seeds";
  const ScenarioSeedOutcome& failing = with->report.outcomes.at(0);
  EXPECT_GT(failing.downtimeMs, 0);
  EXPECT_TRUE(testing::violated(failing, "exactly_once")) << sweepSummary(*with).text;
  std::cout << "caught at seed " << failing.seed << "\n";
}

// --- scenarios ---------------------------------------------------------------------------------

// `restart: {after: 2m}`: the files put while the driver is down are taken by the first batch after
// it comes back, at the end of the downtime; the clock is at the end of the downtime then.
TEST(Downtime, ARestartStepWithAfterLeavesTheDriverDownWhileFilesLand) {
  Scenario sc = load(R"(name: the driver is down for 2 minutes
query:
  source: {kind: files, path: /landing, format: json, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update}
  sink: {kind: memory}
  outputMode: update
  trigger: {processingTime: 1s}
steps:
  - put: {path: /landing/a.json, rows: [{device: d1}]}
  - run: available
  - restart: {after: 2m}
  - put: {path: /landing/b.json, rows: [{device: d1}, {device: d2}]}
  - advance: 30s
  - put: {path: /landing/c.json, rows: [{device: d2}]}
  - expect:
      sink: [{device: d1, count: 1}]
  - run: available
  - expect:
      new_rows: [{device: d1, count: 2}, {device: d2, count: 2}]
      progress: {batchId: 1, timestamp: "2026-01-01T00:02:00Z"}
oracles: [exactly_once]
)");
  ScenarioRunResult r = runScenario(sc);
  EXPECT_TRUE(r.passed()) << r.report();
  bool traced = false;
  for (const auto& line : r.trace) traced |= line.find(R"("driver_down","after":"restart")") != std::string::npos;
  EXPECT_TRUE(traced);
}

TEST(Downtime, TheLoaderRejectsABadRange) {
  ScenarioLoad l = parseScenario(R"(name: x
query:
  source: {kind: memory, schema: "device string"}
  sink: {kind: memory}
steps: []
sweep: {downtime: 5m..1m}
)",
                                 "bad.yaml", ::streamsim::test::testLoader());
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.errorText().find("bad downtime range '5m..1m'"), std::string::npos) << l.errorText();
}

}  // namespace
}  // namespace downtime_test
}  // namespace streamsim::harness
