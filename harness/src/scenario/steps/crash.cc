// The crash and restart steps (docs/scenarios.md "Steps", "Restarts"): the driver killed at a
// fault point (or now) and started again on its checkpoint — after a downtime, or with a changed
// query. Their rows are in step_table.cc.
#include "scenario/parse_context.h"
#include "scenario/parse_query.h"
#include "scenario/step_actions.h"

namespace streamsim::harness::detail {

CrashStep parseCrash(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  CrashStep s;
  if (v.IsScalar()) {
    s.at = v.Scalar();
    if (s.at == "now") {
      s.now = true;
      s.at.clear();
    } else {
      pc.checkFaultPoint(v, s.at);
    }
    return s;
  }
  if (!pc.expectMap(v, "crash")) return s;
  pc.checkKeys(v, "crash", {"at", "batch", "partition", "now", "nth"});
  if (auto n = v["nth"]; n) s.nth = pc.integer(n, "nth", 1);
  if (auto n = v["now"]; n) s.now = pc.boolean(n, "now");
  if (auto a = v["at"]; a) {
    s.at = pc.str(a, "crash at");
    if (a.IsScalar()) pc.checkFaultPoint(a, s.at);
  } else if (!s.now) {
    pc.error(v, "crash needs 'at' (a fault point, see streamsim list-faults) or 'now: true'");
  }
  if (auto b = v["batch"]; b) s.batch = pc.integer(b, "batch", 0);
  if (auto p = v["partition"]; p) s.partition = pc.int32(p, "partition", 0, kMaxShufflePartitions - 1);
  return s;
}

void crashActions(StepActions& a, const CrashStep& s, const SourceLocation& at) {
  if (a.options().skipCrashSteps) return;
  if (s.now) {
    a.push(Crash{}, at);
  } else {
    a.push(Crash{s.at, s.batch, s.partition, s.nth}, at);
  }
}

// `restart: {}` or `restart: {query: {...}}`: the scenario's query with the keys given
// replaced (parsed by parseQuery over the merged map, so every rule and location holds).
RestartStep parseRestart(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  RestartStep r;
  if (v.IsNull() || (v.IsMap() && v.size() == 0)) return r;
  if (!pc.expectMap(v, "restart")) return r;
  pc.checkKeys(v, "restart", {"query", "after"});
  if (auto a = v["after"]; a) {
    r.after = pc.duration(a, "restart's after (the downtime)");
    if (v["query"]) pc.error(a, "restart: `after` and `query` together are not supported; use a `restart: {after: ...}` step, then `restart: {query: ...}`");
  }
  YAML::Node q = v["query"];
  if (!q) return r;
  if (!pc.expectMap(q, "restart's query")) return r;
  pc.checkKeys(q, "restart's query (a restart keeps the query's sources, sink and checkpoint)",
               {"operators", "outputMode", "trigger", "stateStore", "shufflePartitions",
                "taskRetries", "conf"});
  // Each key is bound once: rebinding a key of `merged` would rebind the scenario's own node.
  YAML::Node merged(YAML::NodeType::Map);
  for (auto it = q.begin(); it != q.end(); ++it)
    if (it->first.IsScalar()) merged[it->first.Scalar()] = it->second;
  if (pc.queryNode().IsMap())
    for (auto it = pc.queryNode().begin(); it != pc.queryNode().end(); ++it)
      if (it->first.IsScalar() && !q[it->first.Scalar()]) merged[it->first.Scalar()] = it->second;
  QuerySpec spec;
  parseQuery(pc, merged, spec);
  spec.where = pc.loc(v);
  r.query = std::move(spec);
  return r;
}

void restartActions(StepActions& a, const RestartStep& s, const SourceLocation& at) {
  if (!s.query) {
    a.push(Restart{s.after}, at);
    return;
  }
  // The driver goes down as in a plain restart, then comes back with the other query on the
  // same checkpoint (later restarts keep it). One Restart, not Crash + StartStream: a StartStream
  // before the first step that runs the query would stop the scenario's own query from starting
  // (testStream's implicit start, Spark's rule).
  auto writer = a.writerFor(*s.query);
  if (!writer.ok()) return a.setupFail(at, writer.status().message());
  a.push(Restart{0, *writer}, at);
}

}  // namespace streamsim::harness::detail
