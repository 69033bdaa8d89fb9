// The watermark oracle: no on-time row is dropped as late. Rows with event ids: each on-time
// event's id is in the sink; aggregated output: no more rows dropped as late than arrived late.
// It reads the scenario's input in arrival order; a scenario may name it only when its
// withWatermark reads the source rows as they are.
#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/workload_config.h"
#include "streamsim/io/json_rows.h"

namespace streamsim::harness {
namespace unit_watermark {

Violation violation(std::string message) {
  Violation v;
  v.oracle = "watermark";
  v.message = std::move(message);
  return v;
}

// The last attempt of each batch counts.
Result<std::optional<Violation>> check(OracleInput& in) {
  if (!in.watermarkDelay || !in.arrivals)
    return std::optional<Violation>(violation("the query has no withWatermark operator to check"));
  const DurationMs delay = *in.watermarkDelay;
  auto events = in.arrivals();
  bool hasIds = std::any_of(in.run.sinkRows.begin(), in.run.sinkRows.end(),
                            [](const Row& row) { return row.schema()->indexOf("event_id") >= 0; });
  if (hasIds) return checkWatermark(events, delay, in.run.sinkRows);
  int64_t late = 0;
  TimeMs maxSeen = INT64_MIN;
  for (const auto& e : events) {
    if (maxSeen != INT64_MIN && e.eventTime <= maxSeen - delay) ++late;
    maxSeen = std::max(maxSeen, e.eventTime);
  }
  std::map<int64_t, int64_t> dropped;
  for (const auto& p : in.run.progress) dropped[p.batchId] = p.numRowsDroppedByWatermark;
  int64_t total = 0;
  for (const auto& [id, n] : dropped) total += n;
  if (total <= late) return std::optional<Violation>();
  return std::optional<Violation>(violation(
      fmt::format("{} row(s) were dropped as late but only {} arrived later than the "
                  "max event time before them minus {}: an on-time row was dropped",
                  total, late, formatDuration(delay))));
}

// The input rows in arrival order (put and add_rows steps; half-written files left out) as
// events for the watermark oracle: id from `event_id` (else the arrival index), event time
// from the watermark column.
std::vector<sim::Event> arrivals(const Scenario& sc, const std::string& column) {
  std::vector<sim::Event> out;
  const Schema* schema = !sc.query.sources.empty() && sc.query.sources[0].schema
                             ? sc.query.sources[0].schema.get()
                             : nullptr;
  auto addRow = [&](const Row& r) {
    int t = r.schema()->indexOf(column);
    if (t < 0 || r[static_cast<size_t>(t)].isNull()) return;
    Value time = r[static_cast<size_t>(t)];
    if (time.type() != Type::kTimestamp) {
      auto cast = time.castTo(Type::kTimestamp);
      if (!cast.ok()) return;
      time = *cast;
    }
    sim::Event e;
    int id = r.schema()->indexOf("event_id");
    e.eventId = id >= 0 ? r[static_cast<size_t>(id)].toString() : std::to_string(out.size());
    e.eventTime = time.asLong();
    out.push_back(std::move(e));
  };
  auto add = [&](const std::vector<RowSpec>& rows) {
    for (const auto& spec : rows) {
      Row r = spec.toRow();
      if (schema) {
        auto typed = spec.toRow(*schema);
        if (typed.ok()) r = *typed;
      }
      addRow(r);
    }
  };
  auto addText = [&](const std::string& text) {  // a file's JSON lines
    if (schema == nullptr) return;
    JsonReadOptions lenient;
    lenient.mode = ParseMode::kDropMalformed;
    auto rows = parseJsonLines(text, sc.query.sources[0].schema, lenient);
    if (rows.ok())
      for (const Row& r : *rows) addRow(r);
  };
  for (const auto& step : sc.steps) {
    if (auto* p = std::get_if<PutStep>(&step.step)) {
      add(p->rows);
      if (p->text) addText(*p->text);  // a file put as text
    }
    if (auto* a = std::get_if<AddRowsStep>(&step.step)) add(a->rows);
  }
  // A generated workload's files (ScenarioHooks::landing), in landing order, each once, without
  // the files written half (they may be read cut).
  if (sc.hooks) {
    std::set<int64_t> half, done;
    for (const auto& a : sc.hooks->landing)
      if (a.kind == sim::LandingActionKind::kPutPartial) half.insert(a.file);
    for (const auto& a : sc.hooks->landing)
      if (a.kind == sim::LandingActionKind::kPut && a.file >= 0 && !half.count(a.file) && done.insert(a.file).second)
        addText(a.content);
  }
  return out;
}

void prepare(ScenarioOracleRun& run, OracleInput& in) {
  const WatermarkOp* wm = nullptr;
  for (const auto& op : run.sc.query.operators)
    if (auto* w = std::get_if<WatermarkOp>(&op.op)) wm = w;
  if (!wm) return;
  in.watermarkDelay = wm->delayMs;
  in.arrivals = [&run, wm] { return arrivals(run.sc, wm->column); };
}

// The expression operator before the last withWatermark, if any: it may derive, filter or
// multiply the rows whose event times the oracle reads from the source rows.
std::string refuse(const Scenario& sc) {
  const OperatorSpec* firstExpr = nullptr;
  const OperatorSpec* found = nullptr;
  for (const auto& op : sc.query.operators) {
    if (std::holds_alternative<ExprOp>(op.op) && firstExpr == nullptr) firstExpr = &op;
    if (std::holds_alternative<WatermarkOp>(op.op) && firstExpr != nullptr) found = firstExpr;
  }
  if (found == nullptr) return "";
  return fmt::format("oracle 'watermark' reads event times from the source rows, but the {} "
                     "at line {} changes the rows before withWatermark; watermark a source "
                     "column, or leave this oracle out",
                     found->kindName(), found->where.line);
}

}  // namespace unit_watermark

Oracle watermarkOracle() {
  Oracle o;
  o.name = "watermark";
  o.needs = "the input in arrival order, the delay, the sink (or the progress' drop counts)";
  o.check = unit_watermark::check;
  o.example = "watermark";
  o.refuse = unit_watermark::refuse;
  o.prepare = unit_watermark::prepare;
  // The dedup workload: its rows carry event ids.
  o.workloadDefault = [](const WorkloadConfig& c) { return c.kind == WorkloadKind::kDedup; };
  return o;
}

}  // namespace streamsim::harness
