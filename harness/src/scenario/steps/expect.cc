// The expect step's actions (docs/scenarios.md "Expectations"): each expectation an action that
// checks what a reader sees (the sink's view, the committed state and timers, the progress, the
// checkpoint's files) and says what differs. Its YAML is read in expect_parse.cc, its row is in
// step_table.cc.
#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "scenario/step_actions.h"
#include "streamsim/harness/committed_state.h"
#include "streamsim/harness/row_diff.h"

namespace streamsim::harness::detail {
namespace {

// Expected rows as written, with each value cast to the type its column has in `actual`.
std::vector<Row> typedLike(const std::vector<RowSpec>& expected, const std::vector<Row>& actual) {
  std::map<std::string, Field> types;  // a nested column's element types too
  for (const auto& r : actual)
    for (size_t i = 0; i < r.size(); ++i)
      if (!r[i].isNull()) types.emplace(r.schema()->field(i).name, fieldOf(r.schema()->field(i).name, r[i]));
  std::vector<Row> out;
  for (const auto& spec : expected) {
    std::vector<std::pair<std::string, Value>> named;
    for (const auto& [name, value] : spec.fields) {
      Value v = value;
      auto t = types.find(name);
      if (t != types.end() && !v.isNull() && (v.type() != t->second.type || v.isNested())) {
        auto cast = v.castTo(t->second);
        if (cast.ok()) v = *cast;
      }
      named.emplace_back(name, v);
    }
    out.push_back(Row::fromNamed(std::move(named)));
  }
  return out;
}

// Multiset difference a - b.
std::vector<Row> minus(std::vector<Row> a, const std::vector<Row>& b) {
  for (const auto& r : b) {
    auto it = std::find(a.begin(), a.end(), r);
    if (it != a.end()) a.erase(it);
  }
  return a;
}

bool sameValue(const Value& want, const Value& got) {
  if (want == got) return true;
  if (want.isNull() || got.isNull()) return false;
  if (got.isNested() && want.isNested()) {  // typed like the stored value, then strictly
    auto cast = want.castTo(fieldOf("value", got));
    return cast.ok() && *cast == got;
  }
  auto cast = want.castTo(got.type());
  if (cast.ok() && *cast == got) return true;
  return want.toString() == got.toString();
}

// The grouping key of a state/timers expectation as a Row typed like the query's input:
// `key: a` names the first transformWithState operator's single grouping column.
Result<Row> keyRow(const Scenario& scenario, const RowSpec& spec) {
  std::vector<std::string> groupBy;
  for (const auto& op : scenario.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) {
      groupBy = t->groupBy;
      break;
    }
  if (groupBy.empty())
    return Status::InvalidArgument("expect state/timers needs a transformWithState operator");
  const Schema* schema = !scenario.query.sources.empty() && scenario.query.sources[0].schema
                             ? scenario.query.sources[0].schema.get()
                             : nullptr;
  std::map<std::string, Value> given;
  for (const auto& [name, value] : spec.fields) given[name] = value;
  if (spec.fields.size() == 1 && spec.fields[0].first == "key" && groupBy.size() == 1 &&
      groupBy[0] != "key") {
    given = {{groupBy[0], spec.fields[0].second}};
  }
  if (given.size() != groupBy.size())
    return Status::InvalidArgument(fmt::format(
        "the key must give the {} grouping column(s) {}; a single value only for one column",
        groupBy.size(), fmt::join(groupBy, ", ")));
  std::vector<std::pair<std::string, Value>> named;
  for (const auto& col : groupBy) {
    auto it = given.find(col);
    if (it == given.end())
      return Status::InvalidArgument(fmt::format("the key has no grouping column '{}'", col));
    Value v = it->second;
    if (schema) {
      int idx = schema->indexOf(col);
      if (idx >= 0 && !v.isNull() && (v.type() != schema->field(idx).type || v.isNested())) {
        STREAMSIM_ASSIGN_OR_RETURN(v, v.castTo(schema->field(idx)));
      }
    }
    named.emplace_back(col, v);
  }
  return Row::fromNamed(std::move(named));
}

// The rows a sink/new_rows expectation saw: the next new_rows are those after them.
Status markSeen(ScenarioRunState& state, const Scenario& sc, StreamTestContext& ctx, const std::vector<Row>& rows) {
  state.seen = rows;
  state.seenCount = rows.size();
  if (!state.foreach && !state.kafkaView && sc.query.outputMode != "complete") {
    STREAMSIM_ASSIGN_OR_RETURN(auto batches, ctx.sink.batches());
    if (!batches.empty()) state.seenBatch = std::max(state.seenBatch, batches.rbegin()->first);
  }
  return Status::OK();
}

// Rows written since the last sink/new_rows expectation: those of the batches committed since
// (a foreach sink: every row its writer got since; complete mode: the current view minus the
// rows seen then).
Result<std::vector<Row>> newRows(ScenarioRunState& state, const Scenario& sc, StreamTestContext& ctx) {
  STREAMSIM_ASSIGN_OR_RETURN(auto rows, ctx.sink.rows());
  std::vector<Row> fresh;
  if (state.foreach || state.kafkaView) {
    fresh.assign(rows.begin() + static_cast<std::ptrdiff_t>(std::min(state.seenCount, rows.size())),
                 rows.end());
  } else if (sc.query.outputMode == "complete") {
    fresh = minus(rows, state.seen);
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(auto batches, ctx.sink.batches());
    for (const auto& [id, batchRows] : batches)
      if (id > state.seenBatch) fresh.insert(fresh.end(), batchRows.begin(), batchRows.end());
  }
  STREAMSIM_RETURN_IF_ERROR(markSeen(state, sc, ctx, rows));
  return fresh;
}

void stateExpect(StepActions& a, const StateExpectation& st) {
  ScenarioRunState* state = &a.state();
  const Scenario* sc = &a.scenario();
  auto key = keyRow(a.scenario(), st.key);
  if (!key.ok()) return a.setupFail(st.where, "state key: " + key.status().message());
  Row k = *key;
  a.push(
       AssertOnQuery{[state, sc, st, k](StreamTestContext& ctx) -> Status {
                       STREAMSIM_ASSIGN_OR_RETURN(
                           CommittedVariable stored,
                           readCommittedVariable(ctx.sim.env(), sc->query.checkpoint,
                                                 storeKindOf(sc->query), k, st.variable));
                       const CommittedVariable got =
                           st.raw ? stored : stored.visibleAt(ctx.sim.clock().nowMs());
                       using K = CommittedVariable::Kind;
                       if (st.expiresAt) {
                         std::vector<std::optional<TimeMs>> have =
                             got.kind == K::kValue  ? std::vector<std::optional<TimeMs>>{got.valueExpiresAt}
                             : got.kind == K::kList ? got.listExpiresAt
                                                    : got.mapExpiresAt;
                         auto text = [](const std::vector<std::optional<TimeMs>>& v) {
                           std::string s = "[";
                           for (size_t i = 0; i < v.size(); ++i)
                             s += (i ? ", " : "") + (v[i] ? formatTimestamp(*v[i]) : std::string("null"));
                           return s + "]";
                         };
                         if (have != *st.expiresAt)
                           return state->fail(fmt::format("state '{}' of key {}: TTL expiries {}, expected {}",
                                                          st.variable, k.toString(), text(have),
                                                          text(*st.expiresAt)));
                       }
                       std::string want;
                       bool ok = true;
                       if (st.absent) {
                         want = "absent";
                         ok = got.kind == K::kAbsent ||
                              (got.kind == K::kList && got.list.empty()) ||
                              (got.kind == K::kMap && got.map.empty());
                       } else if (st.value) {
                         want = st.value->toString();
                         ok = got.kind == K::kValue && sameValue(*st.value, got.value);
                       } else if (st.list) {
                         CommittedVariable w;
                         w.kind = K::kList;
                         w.list = *st.list;
                         want = w.toString();
                         ok = (got.kind == K::kList || got.kind == K::kAbsent) &&
                              got.list.size() == st.list->size();
                         for (size_t i = 0; ok && i < got.list.size(); ++i)
                           ok = sameValue((*st.list)[i], got.list[i]);
                       } else if (st.map) {
                         CommittedVariable w;
                         w.kind = K::kMap;
                         w.map = *st.map;
                         std::sort(w.map.begin(), w.map.end(), [](const auto& a, const auto& b) {
                           return a.first.toString() < b.first.toString();
                         });
                         want = w.toString();
                         auto g = got.map;
                         std::sort(g.begin(), g.end(), [](const auto& a, const auto& b) {
                           return a.first.toString() < b.first.toString();
                         });
                         ok = (got.kind == K::kMap || got.kind == K::kAbsent) &&
                              g.size() == w.map.size();
                         for (size_t i = 0; ok && i < g.size(); ++i)
                           ok = sameValue(w.map[i].first, g[i].first) &&
                                sameValue(w.map[i].second, g[i].second);
                       }
                       if (ok) return Status::OK();
                       return state->fail(fmt::format("state '{}' of key {} after the last commit: "
                                                      "expected {}, got {}",
                                                      st.variable, k.toString(),
                                                      want, got.toString()));
                     },
                     "expect state"},
         st.where);
}

void timersExpect(StepActions& a, const TimerExpectation& t) {
  ScenarioRunState* state = &a.state();
  const Scenario* sc = &a.scenario();
  auto key = keyRow(a.scenario(), t.key);
  if (!key.ok()) return a.setupFail(t.where, "timers key: " + key.status().message());
  Row k = *key;
  a.push(
       AssertOnQuery{[state, sc, t, k](StreamTestContext& ctx) -> Status {
                       STREAMSIM_ASSIGN_OR_RETURN(
                           auto got, readCommittedTimers(ctx.sim.env(), sc->query.checkpoint,
                                                         storeKindOf(sc->query), k));
                       if (got == t.timers) return Status::OK();
                       auto text = [](const std::vector<TimeMs>& ts) {
                         std::string s = "[";
                         for (size_t i = 0; i < ts.size(); ++i)
                           s += (i ? ", " : "") + formatTimestamp(ts[i]);
                         return s + "]";
                       };
                       return state->fail(fmt::format("timers of key {} after the last commit: "
                                                      "expected {}, got {}",
                                                      k.toString(), text(t.timers),
                                                      text(got)));
                     },
                     "expect timers"},
         t.where);
}

}  // namespace

void expectActions(StepActions& a, const ExpectStep& e, const SourceLocation& at) {
  if (a.options().skipExpectations) {
    // An expected error steers the run (the query is down after it), so a run that skips the
    // checks still takes it, or a failed start would end that run.
    if (e.error)
      a.push(ExpectFailure{*e.error, std::nullopt, e.errorCondition, e.errorParameters}, at);
    return;
  }
  ScenarioRunState* state = &a.state();
  const Scenario* sc = &a.scenario();
  const ScenarioRunOptions* options = &a.options();
  const RowMatch match{.partial = e.partialColumns};
  if (e.error)
    a.push(ExpectFailure{*e.error, std::nullopt, e.errorCondition, e.errorParameters}, at);
  for (const auto& st : e.state) stateExpect(a, st);
  for (const auto& t : e.timers) timersExpect(a, t);
  // new_rows first: both read the rows since the last sink/new_rows expectation.
  if (e.newRows) {
    auto expected = *e.newRows;
    SourceLocation w = e.newRowsWhere;
    a.push(
         AssertOnQuery{[state, sc, options, expected, w, match](StreamTestContext& ctx) -> Status {
                         STREAMSIM_ASSIGN_OR_RETURN(auto fresh, newRows(*state, *sc, ctx));
                         RowDiff d = diffRows(typedLike(expected, fresh), fresh, RowOrder::kAnyOrder, match);
                         if (options->collectActual)
                           state->actual.push_back({w, "new_rows", fresh, d.equal});
                         if (d.equal) return Status::OK();
                         state->failure = "the new rows differ:\n" + d.report;
                         return Status::FailedPrecondition(state->failure);
                       },
                       "expect new_rows"},
           at);
  }
  if (e.console) {
    std::string expected = *e.console;
    a.push(
         AssertOnQuery{[state, expected](StreamTestContext&) -> Status {
                         std::string got = state->console != nullptr ? state->console->latestText() : "";
                         if (got == expected) return Status::OK();
                         state->failure = "the console output differs: expected\n" + expected + "got\n" + got;
                         return Status::FailedPrecondition(state->failure);
                       },
                       "expect console"},
           at);
  }
  if (e.sinkContains) {
    auto expected = *e.sinkContains;
    a.push(
         AssertOnQuery{[state, expected, match](StreamTestContext& ctx) -> Status {
                         STREAMSIM_ASSIGN_OR_RETURN(auto rows, ctx.sink.rows());
                         std::vector<Row> want = typedLike(expected, rows);
                         std::vector<bool> used(rows.size(), false);
                         std::string missing;
                         for (const Row& w : want) {
                           size_t i = 0;
                           while (i < rows.size() && (used[i] || !rowMatches(w, rows[i], match))) ++i;
                           if (i < rows.size()) used[i] = true;
                           else missing += "\n  " + w.toString();
                         }
                         if (missing.empty()) return Status::OK();
                         std::string seen;
                         for (const Row& r : rows) seen += "\n  " + r.toString();
                         return state->fail(fmt::format("the sink does not contain these expected rows:{}\nthe sink "
                                                        "holds {} rows:{}",
                                                        missing, rows.size(), seen.empty() ? " (none)" : seen));
                       },
                       "expect sink_contains"},
           at);
  }
  if (e.sink) {
    auto expected = *e.sink;
    SourceLocation w = e.sinkWhere;
    a.push(
         AssertOnQuery{[state, sc, options, expected, w, match](StreamTestContext& ctx) -> Status {
                         STREAMSIM_ASSIGN_OR_RETURN(auto rows, ctx.sink.rows());
                         STREAMSIM_RETURN_IF_ERROR(markSeen(*state, *sc, ctx, rows));
                         RowDiff d = diffRows(typedLike(expected, rows), rows, RowOrder::kAnyOrder, match);
                         if (options->collectActual) state->actual.push_back({w, "sink", rows, d.equal});
                         if (d.equal) return Status::OK();
                         state->failure = "the sink differs:\n" + d.report;
                         return Status::FailedPrecondition(state->failure);
                       },
                       "expect sink"},
           at);
  }
  // Under a fault plan batch ids, re-runs and per-batch figures legitimately change: the
  // progress of the last batch is only checked in plain runs.
  if (!e.progress.empty() && !options->faultPlan) {
    auto fields = e.progress;
    auto ops = e.progressOps;
    a.push(
         AssertOnQuery{[state, fields, ops](StreamTestContext& ctx) -> Status {
                         const auto& all = ctx.sim.allProgress();
                         if (all.empty()) return state->fail("expect progress: no batch has run");
                         const QueryProgress& p = all.back();
                         auto stateSum = [&](auto member) {
                           int64_t n = 0;
                           for (const auto& s : p.stateOperators) n += s.*member;
                           return n;
                         };
                         std::string diffs;
                         for (const auto& [name, want] : fields) {
                           Value got;
                           if (name == "batchId") got = Value(p.batchId);
                           else if (name == "timestamp") got = Value::timestamp(p.timestamp);
                           else if (name == "watermark") got = Value::timestamp(p.eventTime.watermark);
                           else if (name == "numInputRows") got = Value(p.numInputRows);
                           else if (name == "numOutputRows") got = Value(p.numOutputRows);
                           else if (name == "numRowsDroppedByWatermark") got = Value(p.numRowsDroppedByWatermark);
                           else if (name == "numRowsTotal") got = Value(stateSum(&StateOperatorProgress::numRowsTotal));
                           else if (name == "numRowsUpdated") got = Value(stateSum(&StateOperatorProgress::numRowsUpdated));
                           else if (name == "numRowsRemoved") got = Value(stateSum(&StateOperatorProgress::numRowsRemoved));
                           else if (name == "numTimersFired") got = Value(stateSum(&StateOperatorProgress::numTimersFired));
                           else if (name == "numValuesRemovedByTTL") got = Value(stateSum(&StateOperatorProgress::numValuesRemovedByTTL));
                           else if (name == "rerun") got = Value(p.rerun);
                           else if (name == "batchDurationMs" && p.batchDurationMs) got = Value(*p.batchDurationMs);
                           else if (name == "latencyP50" && p.latency) got = Value(p.latency->p50);
                           else if (name == "latencyP95" && p.latency) got = Value(p.latency->p95);
                           else if (name == "latencyP99" && p.latency) got = Value(p.latency->p99);
                           else if (name == "latencyMax" && p.latency) got = Value(p.latency->max);
                           else if (name == "numExpiredTimers") got = Value(stateSum(&StateOperatorProgress::numTimersFired));
                           else if (name == "numRegisteredTimers") got = Value(stateSum(&StateOperatorProgress::numRegisteredTimers));
                           else if (name == "numDeletedTimers") got = Value(stateSum(&StateOperatorProgress::numDeletedTimers));
                           else if (name == "numValuesRemovedDueToTTLExpiry") got = Value(stateSum(&StateOperatorProgress::numValuesRemovedByTTL));
                           else if (name == "numDeletedStateVars") got = Value(stateSum(&StateOperatorProgress::numDeletedStateVars));
                           const auto op = ops.find(name);
                           const std::string how = op == ops.end() ? "==" : op->second;
                           const int c = compare(got, want);
                           const bool holds = got.isNull() ? false
                                              : how == ">=" ? c >= 0 : how == ">" ? c > 0 : how == "<=" ? c <= 0
                                              : how == "<" ? c < 0 : how == "!=" ? c != 0 : c == 0;
                           if (!holds)
                             diffs += fmt::format("\n  {}: expected {}{}, got {}", name, how == "==" ? "" : how + " ",
                                                  want.toString(), got.toString());
                         }
                         if (diffs.empty()) return Status::OK();
                         return state->fail(fmt::format("progress of batch {} differs:{}", p.batchId, diffs));
                       },
                       "expect progress"},
           at);
  }
  if (e.checkpoint) {
    const auto& c = *e.checkpoint;
    if (c.offsets || c.commits) a.push(CheckCheckpoint{c.offsets, c.commits}, at);
    if (!c.filesExist.empty() || !c.filesAbsent.empty()) {
      std::string root = sc->query.checkpoint;
      auto exist = c.filesExist;
      auto absent = c.filesAbsent;
      a.push(
           AssertOnQuery{[state, root, exist, absent](StreamTestContext& ctx) -> Status {
                           std::string diffs;
                           auto full = [&](const std::string& f) {
                             return !f.empty() && f[0] == '/' ? f : joinPath(root, f);
                           };
                           for (const auto& f : exist)
                             if (!ctx.sim.fs().exists(full(f))) diffs += "\n  missing: " + full(f);
                           for (const auto& f : absent)
                             if (ctx.sim.fs().exists(full(f))) diffs += "\n  present: " + full(f);
                           if (diffs.empty()) return Status::OK();
                           return state->fail("checkpoint files differ:" + diffs);
                         },
                         "expect checkpoint files"},
             at);
    }
  }
}

}  // namespace streamsim::harness::detail
