// The oracles a sweep leaves to the user's intent (oracles/not_checked.h).
#include "streamsim/harness/oracles/not_checked.h"

#include <algorithm>
#include <variant>

#include "streamsim/harness/oracles/partitioning.h"
#include "streamsim/harness/oracles/promises.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_hooks.h"

namespace streamsim::harness {

std::vector<std::string> defaultOracles(const Scenario& sc, bool underPlan) {
  std::vector<std::string> out;
  const bool realTime = runsRealTime(sc);
  // ttl and timers: their models are the micro-batch ones (a value expires against the batch
  // timestamp; a timer fires in the first batch whose timestamp passes it, after the batch's
  // input); real-time mode expires state and fires timers within a long batch as processing time
  // moves (docs/real-time.md, RealTimeTransformWithStateSuite), which the models do not know.
  if (!realTime) {
    out.push_back("ttl");
    out.push_back("timers");
  }
  if (sc.query.sink.kind == SinkSpec::Kind::kMemory || sc.query.sink.kind == SinkSpec::Kind::kFiles) {
    // A generated workload's seed has it where its config decided (ScenarioHooks::decidesDeterminism).
    if (!sc.hooks || !sc.hooks->decidesDeterminism) out.push_back("determinism");
    // exactly_once: not in real-time mode, whose memory sink is at least once as Spark's
    // ContinuousMemorySink is (a purged batch writes its records again: docs/real-time.md).
    if (underPlan && !realTime) out.push_back("exactly_once");
  }
  if (partitioningApplies(sc)) out.push_back("partitioning");
  return out;
}

std::vector<NotChecked> notCheckedOracles(const Scenario& given) {
  // What the processor promises is checked (oracles/promises.h): not listed.
  const Scenario promised = withPromisedOracles(given);
  const Scenario& sc = promised;
  auto named = [&](const char* n) { return std::find(sc.oracles.begin(), sc.oracles.end(), n) != sc.oracles.end(); };
  // Every query the scenario runs: its own and those its restarts switch to (a timer-using
  // processor may come only with a restart's new version).
  const std::vector<const QuerySpec*> queries = scenarioQueries(sc);
  bool tws = false, timers = false;
  const bool realTime = runsRealTime(sc);
  for (const QuerySpec* q : queries)
    for (const auto& op : q->operators)
      if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) {
        tws = true;
        timers = timers || (t->timeMode != "None" && !t->timeMode.empty());
      }
  // batch_split and mode_equivalence re-run the input under one query: the loader refuses them
  // when a restart switches to another (parse_oracles.cc), so they are not offered then.
  const bool oneQuery = queries.size() == 1;
  std::vector<NotChecked> out;
  if (!tws) return out;  // the intent oracles below are about a processor's logic
  if (oneQuery && !named("batch_split"))
    out.push_back({"batch_split", "each key's final output must not depend on how the input is cut into batches"});
  if (timers && !sc.oracleArgs.has("timer_bound"))
    out.push_back({"{timer_bound: N}", "a key never holds more than N pending timers (a timer leak piles them up)"});
  if (!sc.oracleArgs.integer("state_bound", "per_key"))
    out.push_back({"{state_bound: {per_key: N}}", "a key's state never holds more than N rows (a list never trimmed grows)"});
  if (!sc.oracleArgs.has("reference"))
    out.push_back({"{reference: NAME | file.py:function}", "the final view is a plain function of the input rows"});
  if (!named("restart_equivalence"))
    out.push_back({"restart_equivalence", "the output must not depend on restarts at batch boundaries (state scoped to a run)"});
  if (realTime && !sc.oracleArgs.has("latency_bound"))
    out.push_back({"{latency_bound: {p99: D}}", "batches have a latency budget"});
  if (realTime && oneQuery && !named("mode_equivalence"))
    out.push_back({"mode_equivalence", "micro-batch and real-time mode must agree on the final state and output"});
  return out;
}

}  // namespace streamsim::harness
