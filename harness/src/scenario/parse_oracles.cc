// The scenario loader's oracles, sweep knobs and services (parse_oracles.h). Keys and forms are
// documented in docs/scenarios.md; keep the two in step.
#include "scenario/parse_oracles.h"

#include <algorithm>

#include <fmt/format.h>

#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/downtime_range.h"

namespace streamsim::harness::detail {
namespace {

// "{state_bound: N}, ..., {timer_bound: N} or {reference: NAME}": every parameter form of the
// table's oracles.
std::string parameterForms() {
  std::vector<std::string> forms;
  for (const Oracle& o : oracleTable())
    if (!o.forms.empty()) forms.emplace_back(o.forms);
  std::string out;
  for (size_t i = 0; i < forms.size(); ++i)
    out += (i == 0 ? "" : i + 1 == forms.size() ? " or " : ", ") + forms[i];
  return out;
}

}  // namespace

// Each entry is a name or `{name: VALUE}`; the oracle's unit (oracles/table.h) parses VALUE into
// sc.oracleArgs and says why the scenario cannot name it.
void parseOracles(ParseContext& pc, const YAML::Node& n, Scenario& sc) {
  sc.oraclesWhere = pc.loc(n);
  if (n.IsNull()) return;
  if (!pc.expectList(n, "oracles")) return;
  const std::vector<std::string>& known = pc.options().oracles.empty() ? oracleNames() : pc.options().oracles;
  for (const auto& o : n) {
    if (o.IsMap()) {  // {state_bound: N}, {reference: NAME}, ...
      const Oracle* oracle = o.size() == 1 ? findOracle(o.begin()->first.as<std::string>("")) : nullptr;
      if (oracle == nullptr || oracle->parse == nullptr) {
        pc.error(o, fmt::format("an oracle with a parameter is written {}; expected a name or one of those",
                                parameterForms()));
        continue;
      }
      oracle->parse(pc, o.begin()->second, sc, sc.oracleArgs);
      sc.oracles.emplace_back(oracle->name);
      continue;
    }
    std::string name = pc.str(o, "an oracle");
    if (!o.IsScalar()) continue;
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      pc.error(o, fmt::format("unknown oracle '{}'; expected one of {}", name, joinNames(known)));
      continue;
    }
    const Oracle* oracle = findOracle(name);
    if (oracle != nullptr && oracle->refuse != nullptr)
      if (std::string why = oracle->refuse(sc); !why.empty()) {
        pc.error(o, why);
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
