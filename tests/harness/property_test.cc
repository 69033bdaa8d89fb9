// Properties of the engine under generated fault plans (DESIGN.md §5), on both state stores:
// exactly-once, the TTL and timer oracles and determinism hold for count, session_tracker,
// heartbeat, ttl_cache, dedup and windowed aggregation. Case counts are modest so the binary
// stays fast; failures shrink through the generators (faults dropped).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "streamsim/harness/run/generators.h"
#include "streamsim/harness/run/generated_scenario.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

WorkloadConfig propertyWorkload(WorkloadKind kind, const char* store) {
  WorkloadConfig c = ::streamsim::test::testWorkload(kind, store);
  c.spec.events = 40;
  c.spec.eventsPerFile = 4;
  c.drainMs = kind == WorkloadKind::kTtlCache || kind == WorkloadKind::kHeartbeat ? 6'000 : 3'000;
  c.knobs.batches = 14;
  c.knobs.files = 10;
  c.workloadVariety = 8;
  return c;
}

void holds(WorkloadKind kind, const char* store, int cases) {
  WorkloadConfig c = propertyWorkload(kind, store);
  rc::Gen<sim::FaultPlan> gen = genWorkloadPlan(c, 3);
  bool ok = rc::check(std::string(workloadKindName(kind)) + "/" + store + " holds under any fault plan",
                      [&] {
                        const sim::FaultPlan plan = *gen;  // plan.seed: the run's seed
                        auto run = runGeneratedSeed(c, plan.seed, {}, plan);
                        if (!run.ok()) RC_FAIL(run.status().toString());
                        const ScenarioRunResult& r = run->result;
                        // The replay line, or why the CLI cannot rebuild this workload.
                        auto sc = generatedScenario(c, plan.seed);
                        const std::string replay =
                            !sc.ok()                           ? sc.status().message()
                            : sc->hooks->replayTarget.empty() ? sc->hooks->notReplayable
                                                              : replayLine("streamsim", sc->hooks->replayTarget,
                                                                           plan.seed, sc->hooks->replayOptions, plan);
                        if (!r.passed()) RC_FAIL(r.report() + replay);
                      });
  EXPECT_TRUE(ok);
  (void)cases;
}

class Property : public ::testing::TestWithParam<std::tuple<WorkloadKind, const char*>> {};

TEST_P(Property, OraclesHoldUnderGeneratedFaultPlans) {
  auto [kind, store] = GetParam();
  holds(kind, store, 30);
}

INSTANTIATE_TEST_SUITE_P(
    AllWorkloads, Property,
    ::testing::Combine(::testing::Values(WorkloadKind::kCount, WorkloadKind::kSessionTracker,
                                         WorkloadKind::kHeartbeat, WorkloadKind::kTtlCache,
                                         WorkloadKind::kDedup, WorkloadKind::kWindow),
                       ::testing::Values("memory", "rocksdb")),
    [](const auto& info) {
      return std::string(workloadKindName(std::get<0>(info.param))) + "_" + std::get<1>(info.param);
    });

RC_GTEST_PROP(Determinism, SameCaseSameFingerprint, ()) {
  WorkloadConfig c = propertyWorkload(*rc::gen::element(WorkloadKind::kCount, WorkloadKind::kHeartbeat,
                                                        WorkloadKind::kTtlCache, WorkloadKind::kDedup),
                                      *rc::gen::element("memory", "rocksdb"));
  const sim::FaultPlan plan = *genWorkloadPlan(c, 2);
  auto a = runGeneratedSeed(c, plan.seed, {.oracles = false}, plan);
  auto b = runGeneratedSeed(c, plan.seed, {.oracles = false}, plan);
  RC_ASSERT(a.ok() && b.ok());
  RC_ASSERT(!a->result.trace.empty());
  RC_ASSERT(a->result.traceHash == b->result.traceHash);
}

RC_GTEST_PROP(Generators, EventStreamsAreWellFormed, ()) {
  auto events = *genEventStream(50);
  RC_ASSERT(!events.empty());
  for (const auto& e : events) {
    RC_ASSERT(!e.eventId.empty());
    RC_ASSERT(e.key.rfind("k", 0) == 0);
  }
  Row row = *genEventRow(4);
  RC_ASSERT(row.has("event_time"));
}

RC_GTEST_PROP(Generators, FaultPlansAreValidAndRoundTripThroughJson, ()) {
  sim::FaultPlan p = *genFaultPlan(defaultFaultKnobs(), 5);
  RC_ASSERT(sim::validate(p).ok());
  auto back = sim::FaultPlan::fromJson(p.toJson());
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == p);
}

}  // namespace
}  // namespace streamsim::harness
