// The scenario loader's oracles, sweep knobs and services (parse_oracles.h). Keys and forms are
// documented in docs/scenarios.md; keep the two in step.
#include "scenario/parse_oracles.h"

#include <algorithm>

#include <filesystem>

#include <fmt/format.h>

#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/run/downtime_range.h"

namespace streamsim::harness::detail {
namespace {

// The oracles a scenario may list: every oracle of oracles.h.
const std::vector<std::string>& scenarioOracleNames() { return oracleNames(); }

bool hasTransformWithState(const Scenario& sc) {
  for (const auto& op : sc.query.operators)
    if (std::holds_alternative<TransformWithStateOp>(op.op)) return true;
  return false;
}

// The expression operator before the last withWatermark, if any: it may derive, filter or
// multiply the rows whose event times the watermark oracle reads from the source rows.
const OperatorSpec* exprOpBeforeWatermark(const Scenario& sc) {
  const OperatorSpec* firstExpr = nullptr;
  const OperatorSpec* found = nullptr;
  for (const auto& op : sc.query.operators) {
    if (std::holds_alternative<ExprOp>(op.op) && firstExpr == nullptr) firstExpr = &op;
    if (std::holds_alternative<WatermarkOp>(op.op) && firstExpr != nullptr) found = firstExpr;
  }
  return found;
}

}  // namespace

void parseOracles(ParseContext& pc, const YAML::Node& n, Scenario& sc) {
  sc.oraclesWhere = pc.loc(n);
  if (n.IsNull()) return;
  if (!pc.expectList(n, "oracles")) return;
  const std::vector<std::string>& known =
      pc.options().oracles.empty() ? scenarioOracleNames() : pc.options().oracles;
  for (const auto& o : n) {
    if (o.IsMap() && o.size() == 1 && o["latency_bound"]) {  // {latency_bound: {p99: 50ms}}
      const YAML::Node b = o["latency_bound"];
      if (pc.expectMap(b, "latency_bound")) {
        pc.checkKeys(b, "latency_bound", {"p50", "p95", "p99"});
        for (int pct : {50, 95, 99})
          if (auto x = b[fmt::format("p{}", pct)]; x) sc.latencyBound[pct] = pc.duration(x, "a latency bound");
        if (sc.latencyBound.empty())
          pc.error(b, "latency_bound needs at least one of p50, p95, p99 (e.g. {p99: 50ms})");
      }
      sc.oracles.push_back("latency_bound");
      continue;
    }
    if (o.IsMap() && o.size() == 1 && o["reference"]) {  // {reference: NAME}
      const YAML::Node ref = o["reference"];
      sc.reference = pc.str(ref, "reference (the name of a registered reference function, or file.py:function)");
      if (auto py = splitPythonReference(sc.reference)) {
        // A Python function (`file.py:function`, the file relative to the scenario's folder): loaded
        // when the oracle runs (oracles/reference.h).
        std::filesystem::path path(py->first);
        if (path.is_relative()) path = std::filesystem::path(pc.file()).parent_path() / path;
        sc.reference = path.lexically_normal().string() + ":" + py->second;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec))
          pc.error(ref, fmt::format("no Python reference file '{}' (looked for {})", py->first, path.lexically_normal().string()));
      } else if (ref.IsScalar()) {
        if (auto f = ReferenceRegistry::function(sc.reference); !f.ok()) pc.error(ref, f.status().message());
      }
      sc.oracles.push_back("reference");
      continue;
    }
    if (o.IsMap()) {  // {state_bound: N}, {timer_bound: N}
      if (o.size() != 1 || !(o["state_bound"] || o["timer_bound"])) {
        pc.error(o, "an oracle with a parameter is written {state_bound: N}, {state_bound: {per_key: N}}, "
                 "{timer_bound: N}, {reference: NAME} or {latency_bound: {p99: 50ms}}; expected a "
                 "name or one of those");
        continue;
      }
      if (const YAML::Node b = o["state_bound"]; b && b.IsMap()) {  // {per_key: N, total: M}
        pc.checkKeys(b, "state_bound", {"per_key", "total"});
        if (auto x = b["per_key"]; x)
          sc.stateBoundPerKey = pc.integer(x, "state_bound per_key (the most state rows of one grouping key)", 0);
        if (auto x = b["total"]; x) sc.stateBound = pc.integer(x, "state_bound total (the most state rows allowed)", 0);
        if (!sc.stateBound && !sc.stateBoundPerKey)
          pc.error(b, "state_bound needs per_key or total (e.g. {state_bound: {per_key: 10}})");
        sc.oracles.push_back("state_bound");
      } else if (b) {
        sc.stateBound = pc.integer(b, "state_bound (the most state rows allowed)", 0);
        sc.oracles.push_back("state_bound");
      } else {
        sc.timerBound = pc.integer(o["timer_bound"],
                                   "timer_bound (the most pending timers per key)", 0);
        sc.oracles.push_back("timer_bound");
      }
      continue;
    }
    std::string name = pc.str(o, "an oracle");
    if (o.IsScalar() && name == "batch_split" && !hasTransformWithState(sc)) {
      pc.error(o, "oracle 'batch_split' compares the final row per grouping key: the query needs "
               "a transformWithState (naming batch_split declares its processor split-invariant)");
      continue;
    }
    if (o.IsScalar() && std::find(known.begin(), known.end(), name) == known.end()) {
      pc.error(o, fmt::format("unknown oracle '{}'; expected one of {}", name, joinNames(known)));
      continue;
    }
    if (o.IsScalar() && name == "watermark") {
      if (const OperatorSpec* e = exprOpBeforeWatermark(sc)) {
        pc.error(o, fmt::format("oracle 'watermark' reads event times from the source rows, but the {} "
                                "at line {} changes the rows before withWatermark; watermark a source "
                                "column, or leave this oracle out",
                                e->kindName(), e->where.line));
        continue;
      }
    }
    if (o.IsScalar() && (name == "batch_split" || name == "mode_equivalence")) {
      // Both re-run the input under the scenario's one query; a restart onto another query
      // has no such counterpart.
      auto switched = std::find_if(sc.steps.begin(), sc.steps.end(), [](const Step& st) {
        auto* r = std::get_if<RestartStep>(&st.step);
        return r != nullptr && r->query.has_value();
      });
      if (switched != sc.steps.end()) {
        pc.error(o, fmt::format("oracle '{}' runs the input under the scenario's query, but the "
                                "restart at line {} switches to another query",
                                name, switched->where.line));
        continue;
      }
    }
    if (o.IsScalar() && name == "state_bound") {
      pc.error(o, "oracle 'state_bound' needs its bound: write {state_bound: N}");
      continue;
    }
    if (o.IsScalar() && name == "reference") {
      pc.error(o, fmt::format("oracle 'reference' needs the name of its reference function: write "
                              "{{reference: NAME}}; registered: {}", joinNames(ReferenceRegistry::names())));
      continue;
    }
    if (o.IsScalar() && name == "timer_bound") {
      pc.error(o, "oracle 'timer_bound' needs its bound: write {timer_bound: N}");
      continue;
    }
    sc.oracles.push_back(name);
  }
}

SweepSpec parseSweep(ParseContext& pc, const YAML::Node& n) {
  SweepSpec s;
  s.where = pc.loc(n);
  if (!pc.expectMap(n, "sweep")) return s;
  pc.checkKeys(n, "sweep",
               {"seeds", "crash_points", "max_crashes", "torn_writes", "task_failures", "io_errors",
                "landing_faults", "batches", "switches", "switch_steps", "downtime"});
  if (auto v = n["seeds"]; v) s.seeds = pc.int32(v, "seeds", 1);
  if (auto v = n["crash_points"]; v) {
    if (v.IsScalar() && v.Scalar() == "all") {
    } else if (v.IsSequence()) {
      for (const auto& p : v) {
        std::string name = pc.str(p, "a crash point");
        if (p.IsScalar()) pc.checkFaultPoint(p, name);
        s.crashPoints.push_back(name);
      }
    } else {
      pc.error(v, "crash_points must be `all` or a list of fault points");
    }
  }
  if (auto v = n["max_crashes"]; v) s.maxCrashes = pc.int32(v, "max_crashes", 0);
  if (auto v = n["torn_writes"]; v) s.tornWrites = pc.boolean(v, "torn_writes");
  if (auto v = n["task_failures"]; v) s.taskFailures = pc.number(v, "task_failures", 0, 1);
  if (auto v = n["io_errors"]; v) s.ioErrors = pc.number(v, "io_errors", 0, 1);
  if (auto v = n["landing_faults"]; v) s.landingFaults = pc.number(v, "landing_faults", 0, 1);
  if (auto v = n["batches"]; v) s.batches = pc.integer(v, "batches", 1);
  if (auto v = n["switches"]; v) s.switches = pc.number(v, "switches", 0, 1);
  if (auto v = n["switch_steps"]; v) s.switchSteps = pc.integer(v, "switch_steps", 1);
  if (auto v = n["downtime"]; v) {
    // `0..5m` (a range) or `5m` (= 0..5m).
    if (!v.IsScalar()) {
      pc.error(v, fmt::format("downtime must be a duration range such as 0..5m (or one duration, 5m = 0..5m); got {}",
                              nodeTypeName(v)));
    } else if (auto range = parseDowntimeRange(v.Scalar()); !range.ok()) {
      pc.error(v, range.status().message());
    } else {
      s.downtimeMin = range->first;
      s.downtimeMax = range->second;
    }
  }
  return s;
}

// services: [{name: scoring, latency: 10ms | [5ms, 20ms], errors: 0.1, slow: 0.05,
//             slow_latency: 5s}]
void parseServices(ParseContext& pc, const YAML::Node& n, Scenario& sc) {
  if (!pc.expectList(n, "services")) return;
  for (const auto& s : n) {
    if (!pc.expectMap(s, "a service")) continue;
    pc.checkKeys(s, "a service", {"name", "latency", "errors", "slow", "slow_latency"});
    ServiceSpec spec;
    spec.where = pc.loc(s);
    if (auto v = s["name"]; v) spec.name = pc.str(v, "name");
    else pc.error(s, "a service needs a name (what processors call getService with)");
    if (auto v = s["latency"]; v) {
      if (v.IsSequence() && v.size() == 2) {
        spec.minLatencyMs = pc.duration(v[0], "latency");
        spec.maxLatencyMs = pc.duration(v[1], "latency");
        if (spec.minLatencyMs > spec.maxLatencyMs)
          pc.error(v, "latency [min, max] needs min <= max");
      } else {
        spec.minLatencyMs = spec.maxLatencyMs = pc.duration(v, "latency");
      }
    }
    if (auto v = s["errors"]; v) spec.errors = pc.number(v, "errors", 0, 1);
    if (auto v = s["slow"]; v) spec.slow = pc.number(v, "slow", 0, 1);
    if (auto v = s["slow_latency"]; v) spec.slowLatencyMs = pc.duration(v, "slow_latency");
    sc.services.push_back(std::move(spec));
  }
}


}  // namespace streamsim::harness::detail
