// The mode_equivalence oracle (real-time mode): the query over the same Kafka-like log drained in
// micro-batch and in real-time mode leaves the same final state and the same last output per
// grouping key (oracles/logic.h checkModeEquivalence). Its extra runs: those two.
#include <algorithm>

#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "scenario/sink_views.h"
#include "streamsim/harness/oracles/scenario_variants.h"
#include "streamsim/harness/oracles/table.h"

namespace streamsim::harness {
namespace unit_mode_equivalence {

using detail::outputKeys;

Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.modeRuns) return Status::FailedPrecondition("mode_equivalence needs the two mode runs");
  STREAMSIM_ASSIGN_OR_RETURN(auto m, in.modeRuns());
  return checkModeEquivalence(m.microBatchState, m.realTimeState, m.microBatchLast, m.realTimeLast,
                              m.keyColumns);
}

// The scenario run to the end of its log in real-time mode (realTime) or micro-batch mode (a
// processingTime trigger of the real-time batch duration), on RocksDB: its steps, then the
// clock moved past every produced record and everything available processed.
Scenario drainedIn(const Scenario& sc, bool realTime) {
  Scenario s = sc;
  const DurationMs d = sc.query.trigger.kind == TriggerSpec::Kind::kRealTime ||
                               sc.query.trigger.kind == TriggerSpec::Kind::kProcessingTime
                           ? std::max<DurationMs>(sc.query.trigger.intervalMs, kDefaultRealTimeMinBatchMs)
                           : kDefaultRealTimeBatchMs;
  s.query.trigger.kind = realTime ? TriggerSpec::Kind::kRealTime : TriggerSpec::Kind::kProcessingTime;
  s.query.trigger.intervalMs = d;
  s.query.outputMode = "update";
  s.query.stateStore = "rocksdb";
  s.query.stateStoreSet = true;
  TimeMs last = sc.start;
  for (const auto& step : sc.steps)
    if (auto* p = std::get_if<ProduceStep>(&step.step))
      for (const auto& r : p->records) last = std::max(last, r.at.value_or(p->at.value_or(last)));
  Step advance;
  advance.step = AdvanceStep{last - sc.start + d, std::nullopt};
  s.steps.push_back(advance);
  Step run;
  run.step = RunStep{};
  s.steps.push_back(run);
  s.oracles.clear();
  return s;
}

// mode_equivalence's input: the scenario drained in micro-batch and in real-time mode over the
// same log (no faults, no crash steps), their final state without timers and their last output
// per key: per transformWithState grouping key (the key each call was for, from the trace) when
// the query has one, else per output key (a window aggregation's groupBy and window, which Spark
// puts in its output) or the whole output. An error when either run fails.
Result<OracleInput::ModeRuns> modeRuns(const Scenario& sc, const ScenarioRunOptions& quiet) {
  ScenarioRunOptions o = quiet;
  o.skipExpectations = true;
  o.skipCrashSteps = true;
  o.faultPlan.reset();
  o.collectState = true;
  o.traceOutputRows = true;
  ScenarioRunResult mb = runScenario(drainedIn(sc, false), o);
  ScenarioRunResult rt = runScenario(drainedIn(sc, true), o);
  for (auto* run : {&mb, &rt})
    if (!run->passed())
      return Status::FailedPrecondition(fmt::format(
          "the {} run failed:\n{}", run == &mb ? "micro-batch" : "real-time", run->report()));
  OracleInput::ModeRuns m;
  m.microBatchState = std::move(mb.committedState);
  m.realTimeState = std::move(rt.committedState);
  if (!finalGroupBy(sc).empty()) {
    m.keyColumns = {"grouping key"};
    m.microBatchLast = lastOutputPerGroupingKey(mb.trace);
    m.realTimeLast = lastOutputPerGroupingKey(rt.trace);
    return m;
  }
  m.keyColumns = outputKeys(sc);
  m.microBatchLast = latestPerKey(mb.sinkRows, m.keyColumns);
  m.realTimeLast = latestPerKey(rt.sinkRows, m.keyColumns);
  return m;
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  in.modeRuns = [&run]() -> Result<OracleInput::ModeRuns> {
    run.r.oracleRuns += 2;
    return modeRuns(run.sc, run.quiet);
  };
}

std::string refuse(const Scenario& sc) { return restartOntoAnotherQuery(sc, "mode_equivalence"); }

}  // namespace unit_mode_equivalence

Oracle modeEquivalenceOracle() {
  Oracle o;
  o.name = "mode_equivalence";
  o.needs = "the same case drained in micro-batch and in real-time mode: final state and last output per key";
  o.check = unit_mode_equivalence::check;
  o.example = "mode_equivalence";
  o.refuse = unit_mode_equivalence::refuse;
  o.prepare = unit_mode_equivalence::prepare;
  return o;
}

}  // namespace streamsim::harness
