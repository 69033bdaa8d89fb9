// Processors' promises and the oracles they turn on (oracles/promises.h).
#include "streamsim/harness/oracles/promises.h"

#include <algorithm>
#include <variant>

#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/scenario.h"

namespace streamsim::harness {

namespace {

bool named(const Scenario& sc, std::string_view oracle) {
  return std::find(sc.oracles.begin(), sc.oracles.end(), oracle) != sc.oracles.end();
}

}  // namespace

Scenario withPromisedOracles(const Scenario& sc) {
  // Real time: the reference's recording source is no real-time source, and its processor sees a
  // row per call (docs/real-time.md); its promises are the micro-batch ones.
  if (sc.fromCheckpoint || scenarioQueries(sc).size() != 1 || sc.hooks != nullptr || runsRealTime(sc)) return sc;
  const TransformWithStateOp* tws = nullptr;
  bool watermark = false;
  for (const auto& op : sc.query.operators) {
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) {
      if (tws != nullptr) return sc;  // two processors: whose promise would the oracles check?
      tws = t;
    }
    watermark = watermark || std::holds_alternative<WatermarkOp>(op.op);
  }
  if (tws == nullptr || !tws->pythonFile.empty() || tws->factory) return sc;
  std::optional<ProcessorPromises> p = processorsOf(sc.registries.get()).promises(tws->processor);
  if (!p) return sc;
  Scenario out = sc;
  if (p->timersPerKey && !sc.oracleArgs.has("timer_bound")) {
    out.oracleArgs.set("timer_bound", "bound", *p->timersPerKey);
    if (!named(sc, "timer_bound")) out.oracles.push_back("timer_bound");
  }
  // batch_split and the reference read each key's last row by its grouping columns: a memory sink
  // keeps a null key, a JSON file drops the field (enrich_with_static_table.yaml's null site).
  const bool update = tws->outputMode.value_or(sc.query.outputMode) == "update" && sc.query.outputMode == "update" &&
                      sc.query.sink.kind == SinkSpec::Kind::kMemory;
  // batch_split's cut drops restart steps: an availableNow or once query, stopped after each run,
  // would read nothing more (lab/04_renamed_resend_duplicates.yaml).
  const TriggerSpec::Kind trigger = sc.query.trigger.kind;
  const bool runsOn = trigger == TriggerSpec::Kind::kDefault || trigger == TriggerSpec::Kind::kProcessingTime;
  if (p->splitInvariant && !watermark && update && runsOn && !named(sc, "batch_split")) out.oracles.push_back("batch_split");
  const bool sourceRows = sc.query.operators.size() == 1 && sc.query.sources.size() == 1;
  if (!p->reference.empty() && sourceRows && update && !sc.oracleArgs.has("reference")) {
    out.oracleArgs.set("reference", "name", p->reference);
    if (!named(sc, "reference")) out.oracles.push_back("reference");
  }
  return out;
}

}  // namespace streamsim::harness
