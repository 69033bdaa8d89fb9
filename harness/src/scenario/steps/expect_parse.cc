// The expect step's YAML (docs/scenarios.md "Expectations"): the sink's rows, the new rows, state
// and timers of a key, the last batch's progress, checkpoint files, an error, the console's
// text. Its actions are in expect.cc, its row in step_table.cc.
#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "scenario/parse_context.h"

namespace streamsim::harness::detail {

ExpectStep parseExpect(ParseContext& pc, const YAML::Node&, const YAML::Node& v) {
  ExpectStep e;
  if (!pc.expectMap(v, "expect")) return e;
  pc.checkKeys(v, "expect",
               {"sink", "new_rows", "sink_contains", "columns", "state", "timers", "progress",
                "checkpoint", "error", "console"});
  if (auto c = v["console"]; c) {
    if (pc.sinkKind() != SinkSpec::Kind::kConsole) pc.error(c, "expect console needs a console sink (sink: {kind: console})");
    else e.console = pc.str(c, "expect console");
  }
  if (auto s = v["sink"]; s) {
    e.sinkWhere = pc.loc(s);
    e.sink = pc.rows(s, "an expected sink row");
  }
  if (auto s = v["new_rows"]; s) {
    e.newRowsWhere = pc.loc(s);
    e.newRows = pc.rows(s, "an expected new row");
  }
  if (auto s = v["sink_contains"]; s) e.sinkContains = pc.rows(s, "a row the sink must contain");
  if (auto c = v["columns"]; c) {
    std::string mode = pc.str(c, "expect columns");
    if (mode == "partial") e.partialColumns = true;
    else if (mode != "all") pc.error(c, "expect columns is 'partial' (only the columns the expected rows name) or 'all' (the default), got '" + mode + "'");
    if (!v["sink"] && !v["new_rows"] && !v["sink_contains"])
      pc.error(c, "expect columns applies to sink, new_rows and sink_contains; this expect has none");
  }
  if (auto s = v["state"]; s) {
    auto one = [&](const YAML::Node& m) {
      StateExpectation st;
      st.where = pc.loc(m);
      if (!pc.expectMap(m, "a state expectation")) return;
      pc.checkKeys(m, "a state expectation",
                   {"key", "variable", "value", "values", "entries", "absent", "raw", "expires_at"});
      if (auto r = m["raw"]; r) st.raw = pc.boolean(r, "raw");
      if (auto x = m["expires_at"]; x) {
        std::vector<std::optional<TimeMs>> at;
        auto one = [&](const YAML::Node& n) {
          if (n.IsNull() || (n.IsScalar() && scalarValue(n).isNull())) at.emplace_back();
          else at.emplace_back(pc.timestamp(n, "expires_at"));
        };
        if (x.IsSequence()) {
          for (const auto& n : x) one(n);
        } else {
          one(x);
        }
        st.expiresAt = std::move(at);
      }
      if (auto k = m["key"]; k) st.key = pc.keyRow(k, "state key");
      else pc.error(m, "missing key 'key' in a state expectation");
      st.variable = pc.requiredStr(m, "variable", "a state expectation");
      int forms = 0;
      if (auto val = m["value"]; val) {
        ++forms;
        // A scalar, or a nested value ([1, 2], {a: 1}) for a Row or vector state value.
        auto v = pc.yamlValue(val, "value");
        if (v && v->isNull()) st.absent = true;
        else if (v) st.value = std::move(*v);
      }
      if (auto vals = m["values"]; vals) {
        ++forms;
        std::vector<Value> list;
        if (pc.expectList(vals, "values"))
          for (const auto& x : vals) list.push_back(pc.yamlValue(x, "an element of values").value_or(Value()));
        st.list = std::move(list);
      }
      if (auto ent = m["entries"]; ent) {
        ++forms;
        std::vector<std::pair<Value, Value>> map;
        if (pc.expectMap(ent, "entries"))
          for (auto it = ent.begin(); it != ent.end(); ++it)
            map.emplace_back(scalarValue(it->first),
                             pc.yamlValue(it->second, "a value of entries").value_or(Value()));
        st.map = std::move(map);
      }
      if (auto a = m["absent"]; a) {
        ++forms;
        st.absent = pc.boolean(a, "absent");
      }
      if (forms != 1)
        pc.error(m, "a state expectation takes exactly one of value, values, entries, absent");
      e.state.push_back(std::move(st));
    };
    if (s.IsSequence()) {
      for (const auto& m : s) one(m);
    } else {
      one(s);
    }
  }
  if (auto s = v["timers"]; s) {
    auto one = [&](const YAML::Node& m) {
      TimerExpectation t;
      t.where = pc.loc(m);
      if (!pc.expectMap(m, "a timers expectation")) return;
      pc.checkKeys(m, "a timers expectation", {"key", "timers"});
      if (auto k = m["key"]; k) t.key = pc.keyRow(k, "timers key");
      else pc.error(m, "missing key 'key' in a timers expectation");
      if (auto ts = m["timers"]; ts) {
        if (ts.IsSequence())
          for (const auto& x : ts) t.timers.push_back(pc.timestamp(x, "a timer"));
        else if (!ts.IsNull())
          pc.error(ts, "timers must be a list of timestamps ([] for none)");
        std::sort(t.timers.begin(), t.timers.end());
      } else {
        pc.error(m, "missing key 'timers' in a timers expectation (a list of timestamps)");
      }
      e.timers.push_back(std::move(t));
    };
    if (s.IsSequence()) {
      for (const auto& m : s) one(m);
    } else {
      one(s);
    }
  }
  if (auto p = v["progress"]; p && pc.expectMap(p, "progress")) {
    static const std::vector<std::string> kFields = {
        "batchId", "timestamp", "watermark", "numInputRows", "numOutputRows",
        "numRowsDroppedByWatermark", "numRowsTotal", "numRowsUpdated", "numRowsRemoved",
        "numTimersFired", "numValuesRemovedByTTL", "rerun", "batchDurationMs", "latencyP50",
        "latencyP95", "latencyP99", "latencyMax", "numExpiredTimers", "numRegisteredTimers",
        "numDeletedTimers", "numValuesRemovedDueToTTLExpiry", "numDeletedStateVars"};
    pc.checkKeys(p, "progress", kFields);
    for (auto it = p.begin(); it != p.end(); ++it) {
      const std::string& f = it->first.Scalar();
      if (f == "timestamp" || f == "watermark") {
        Value raw = it->second.IsScalar() ? scalarValue(it->second) : Value();
        e.progress[f] = raw.type() == Type::kLong ? Value::timestamp(raw.asLong())
                                                  : Value::timestamp(pc.timestamp(it->second, f));
      } else if (f == "rerun") {
        e.progress[f] = Value(pc.boolean(it->second, f));
      } else if (const std::string text = it->second.IsScalar() ? it->second.Scalar() : "";
                 !text.empty() && (text[0] == '>' || text[0] == '<' || text[0] == '!' || text[0] == '=')) {
        // A comparison: ">= 3", "> 0", "<= 10", "< 5", "!= 0", "== 2".
        const size_t opEnd = text.find_first_not_of("<>=!");
        const std::string op = text.substr(0, opEnd);
        static const std::vector<std::string> kOps = {"==", ">=", ">", "<=", "<", "!="};
        int64_t n = 0;
        const std::string number = opEnd == std::string::npos ? "" : text.substr(text.find_first_not_of(' ', opEnd));
        auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
        if (std::find(kOps.begin(), kOps.end(), op) == kOps.end() || ec != std::errc() ||
            end != number.data() + number.size()) {
          pc.error(it->second, fmt::format("progress {}: expected a whole number or a comparison such as "
                                           "\">= 3\" (==, >=, >, <=, <, !=), got '{}'", f, text));
          continue;
        }
        e.progress[f] = Value(n);
        e.progressOps[f] = op;
      } else {
        e.progress[f] = Value(pc.integer(it->second, f));
      }
    }
  }
  if (auto c = v["checkpoint"]; c && pc.expectMap(c, "checkpoint")) {
    CheckpointExpectation ce;
    pc.checkKeys(c, "checkpoint", {"offsets", "commits", "files_exist", "files_absent"});
    auto ids = [&](const YAML::Node& n, std::string_view what) {
      std::vector<int64_t> out;
      if (n.IsNull()) return out;
      if (pc.expectList(n, what))
        for (const auto& x : n) out.push_back(pc.integer(x, what, 0));
      return out;
    };
    if (auto o = c["offsets"]; o) ce.offsets = ids(o, "offsets");
    if (auto o = c["commits"]; o) ce.commits = ids(o, "commits");
    if (auto f = c["files_exist"]; f) ce.filesExist = pc.names(f, "files_exist");
    if (auto f = c["files_absent"]; f) ce.filesAbsent = pc.names(f, "files_absent");
    e.checkpoint = std::move(ce);
  }
  if (auto er = v["error"]; er && er.IsMap()) {
    pc.checkKeys(er, "error", {"message", "condition", "parameters"});
    e.error = er["message"] ? pc.str(er["message"], "error message") : std::string();
    if (auto c = er["condition"]; c) e.errorCondition = pc.str(c, "error condition");
    if (auto ps = er["parameters"]; ps && pc.expectMap(ps, "error parameters"))
      for (auto it = ps.begin(); it != ps.end(); ++it)
        e.errorParameters.emplace_back(pc.str(it->first, "parameter name"), pc.str(it->second, "parameter value"));
  } else if (er) {
    e.error = pc.str(er, "error");
  }
  return e;
}
}  // namespace streamsim::harness::detail
