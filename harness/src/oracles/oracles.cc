// Oracles over a run's sink view, trace and progress (oracles.h).
#include "streamsim/harness/oracles.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "streamsim/harness/row_diff.h"
#include "streamsim/trace_events.h"
#include "oracles/trace_fields.h"
#include "streamsim/json_nesting.h"

namespace streamsim::harness {

std::string Violation::toString() const {
  std::string out = oracle + ":";
  if (batch >= 0) out += fmt::format(" batch {}", batch);
  if (!key.empty()) out += fmt::format("{} key {}", batch >= 0 ? "," : "", key);
  out += (batch >= 0 || !key.empty() ? ": " : " ") + message + "\n";
  for (const auto& e : events) out += "    " + e + "\n";
  return out;
}

nlohmann::json Violation::toJson() const {
  return {{"oracle", oracle}, {"batch", batch}, {"key", key}, {"message", message}, {"events", events}};
}

Violation Violation::fromJson(const nlohmann::json& j) {
  Violation v;
  v.oracle = j.value("oracle", "");
  v.batch = j.value("batch", int64_t{-1});
  v.key = j.value("key", "");
  v.message = j.value("message", "");
  if (j.contains("events")) v.events = j["events"].get<std::vector<std::string>>();
  return v;
}

// ---------------------------------------------------------------------------------------------

namespace {

bool startsWith(const std::string& s, std::string_view p) { return s.compare(0, p.size(), p) == 0; }

}  // namespace

std::vector<CommittedBatch> committedBatches(const std::vector<std::string>& traceLines) {
  std::vector<CommittedBatch> out;
  struct Pending {
    CommittedBatch batch;
    std::vector<std::pair<nlohmann::json, std::string>> driver;  // batch-level events
    // (operator, partition) -> events of the current attempt
    std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<nlohmann::json, std::string>>> tasks;
    std::vector<std::pair<int64_t, int64_t>> taskOrder;
  };
  std::optional<Pending> cur;
  for (const std::string& line : traceLines) {
    auto e = parseJsonBounded<nlohmann::json>(line);
    if (e.is_discarded() || !e.is_object()) continue;
    const std::string ev = e.value("event", "");
    if (ev == events::kBatchPlanned) {
      cur.emplace();
      cur->batch.batch = eventInt(e, "batch");
      cur->batch.timestamp = eventInt(e, "timestamp", 0);
      cur->batch.watermark = eventInt(e, "watermark", 0);
      cur->driver.emplace_back(e, line);
      continue;
    }
    if (!cur) continue;
    if (ev == events::kQueryStarted || ev == events::kQueryFailed || ev == events::kCrashApplied ||
        (ev == events::kFaultInjected && e.value("kind", "") == "crash")) {
      cur.reset();  // this attempt never committed
      continue;
    }
    if (ev == events::kTaskAttempt) {
      auto k = std::make_pair(eventInt(e, "operator"), eventInt(e, "partition"));
      auto it = cur->tasks.find(k);
      if (it == cur->tasks.end()) cur->taskOrder.push_back(k);
      cur->tasks[k].clear();
      cur->tasks[k].emplace_back(e, line);
      continue;
    }
    if (startsWith(ev, "tws.")) {
      auto k = std::make_pair(eventInt(e, "operator"), eventInt(e, "partition"));
      if (cur->tasks.find(k) == cur->tasks.end()) cur->taskOrder.push_back(k);
      cur->tasks[k].emplace_back(e, line);
      continue;
    }
    if (ev == events::kCommit && eventInt(e, "batch") == cur->batch.batch) {
      // Keep trace order: driver events first, then each task's final attempt in order.
      for (auto& [j, l] : cur->driver) {
        cur->batch.events.push_back(std::move(j));
        cur->batch.lines.push_back(std::move(l));
      }
      for (const auto& k : cur->taskOrder)
        for (auto& [j, l] : cur->tasks[k]) {
          cur->batch.events.push_back(std::move(j));
          cur->batch.lines.push_back(std::move(l));
        }
      cur->batch.events.push_back(e);
      cur->batch.lines.push_back(line);
      out.push_back(std::move(cur->batch));
      cur.reset();
      continue;
    }
    cur->driver.emplace_back(e, line);
  }
  return out;
}

bool traceMayHaveEvents(const std::vector<std::string>& traceLines, std::string_view eventPrefix) {
  for (const std::string& line : traceLines)
    if (traceEventName(line).starts_with(eventPrefix)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------

std::optional<Violation> checkExactlyOnce(const std::vector<Row>& expected,
                                          const std::vector<Row>& actual,
                                          const std::vector<int64_t>& actualBatchOf,
                                          std::string_view sinkKind) {
  RowDiff d = diffRows(expected, actual);
  if (d.equal) return std::nullopt;
  Violation v;
  v.oracle = "exactly_once";
  auto batchOf = [&](const Row& r) -> int64_t {
    for (size_t i = 0; i < actual.size() && i < actualBatchOf.size(); ++i)
      if (actual[i] == r) return actualBatchOf[i];
    return -1;
  };
  if (!d.unexpected.empty()) {
    const Row& r = d.unexpected.front();
    bool dup = std::find(expected.begin(), expected.end(), r) != expected.end();
    v.key = formatRow(r);
    // The last batch that wrote it is where the extra copy came from.
    for (size_t i = actual.size(); i-- > 0;)
      if (actual[i] == r && i < actualBatchOf.size()) {
        v.batch = actualBatchOf[i];
        break;
      }
    if (dup) v.message = fmt::format("the {} sink shows a duplicate: one more copy of {} than the fault-free run ({} rows extra, {} missing)",
                                     sinkKind, formatRow(r), d.unexpected.size(), d.missing.size());
    else v.message = fmt::format("the {} sink shows {} which the fault-free run never produced ({} rows extra, {} missing)",
                                 sinkKind, formatRow(r), d.unexpected.size(), d.missing.size());
  } else {
    const Row& r = d.missing.front();
    v.key = formatRow(r);
    v.batch = batchOf(r);
    v.message = fmt::format("the {} sink lost {}: the fault-free run has it ({} rows missing)",
                            sinkKind, formatRow(r), d.missing.size());
  }
  return v;
}

// ---------------------------------------------------------------------------------------------

std::optional<Violation> checkTimers(const std::vector<CommittedBatch>& batches, TimerClock clock) {
  struct Timer {
    int64_t registeredIn = -1;
    bool afterScan = false;  // registered by a timer handler after this batch's due scan began
    std::string line;
  };
  // (operator, key, ts) -> registration
  std::map<std::tuple<int64_t, std::string, int64_t>, Timer> pending;
  for (const CommittedBatch& b : batches) {
    const TimeMs threshold = clock == TimerClock::kProcessingTime ? b.timestamp : b.watermark;
    std::set<std::pair<int64_t, int64_t>> scanned;  // (operator, partition) whose timers fired
    for (auto& [k, t] : pending) t.afterScan = false;
    for (size_t i = 0; i < b.events.size(); ++i) {
      const auto& e = b.events[i];
      const std::string ev = e.value("event", "");
      if (!startsWith(ev, "tws.")) continue;
      auto part = std::make_pair(eventInt(e, "operator"), eventInt(e, "partition"));
      auto tk = std::make_tuple(eventInt(e, "operator"), eventKey(e), eventInt(e, "ts"));
      if (ev == events::kTwsRows && scanned.count(part)) {
        return Violation{"timers", b.batch, eventKey(e),
                         "input rows were handled after timers fired in the same partition: timers "
                         "must fire after all input of the batch",
                         {b.lines[i]}};
      } else if (ev == events::kTimerRegistered) {
        pending[tk] = Timer{b.batch, scanned.count(part) > 0, b.lines[i]};
      } else if (ev == events::kTimerDeleted) {
        pending.erase(tk);
      } else if (ev == events::kTimerFired) {
        scanned.insert(part);
        auto it = pending.find(tk);
        if (it == pending.end())
          return Violation{"timers", b.batch, eventKey(e),
                           fmt::format("timer {} fired but is not registered (deleted, or it fired "
                                       "already: a timer fires exactly once)",
                                       std::get<2>(tk)),
                           {b.lines[i]}};
        if (std::get<2>(tk) > threshold)
          return Violation{"timers", b.batch, eventKey(e),
                           fmt::format("timer {} fired early: the batch's {} is {}", std::get<2>(tk),
                                       clock == TimerClock::kProcessingTime ? "timestamp" : "watermark",
                                       threshold),
                           {it->second.line, b.lines[i]}};
        pending.erase(it);
      }
    }
    for (const auto& [tk, t] : pending) {
      if (std::get<2>(tk) <= threshold && !t.afterScan)
        return Violation{"timers", b.batch, std::get<1>(tk),
                         fmt::format("timer {} (registered in batch {}) is due at this batch's {} {} "
                                     "but did not fire",
                                     std::get<2>(tk), t.registeredIn,
                                     clock == TimerClock::kProcessingTime ? "timestamp" : "watermark",
                                     threshold),
                         {t.line, b.lines.empty() ? "" : b.lines.front()}};
    }
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------

std::optional<Violation> checkWatermark(const std::vector<sim::Event>& arrivals, DurationMs delay,
                                        const std::vector<Row>& sinkRows, std::string_view idColumn) {
  std::set<std::string> seen;
  for (const Row& r : sinkRows)
    if (r.has(idColumn)) seen.insert(r.get(idColumn).toString());
  std::optional<TimeMs> maxBefore;
  for (const sim::Event& e : arrivals) {
    bool onTime = !maxBefore || e.eventTime > *maxBefore - delay;
    if (onTime && !seen.count(e.eventId))
      return Violation{"watermark", -1, e.key,
                       fmt::format("on-time row {} (event time {}, max event time before it {}, "
                                   "delay {} ms) was dropped: it is not in the sink",
                                   e.eventId, formatTimestamp(e.eventTime),
                                   maxBefore ? formatTimestamp(*maxBefore) : "none", delay),
                       {e.toJsonLine()}};
    maxBefore = maxBefore ? std::max(*maxBefore, e.eventTime) : e.eventTime;
  }
  return std::nullopt;
}

std::optional<Violation> checkStateBound(const std::vector<QueryProgress>& progress, int64_t bound) {
  for (const QueryProgress& p : progress)
    for (const StateOperatorProgress& s : p.stateOperators)
      if (s.numRowsTotal > bound)
        return Violation{"state_bound", p.batchId, "",
                         fmt::format("operator {} holds {} state rows, over the bound {} (state "
                                     "that only grows: e.g. dropDuplicates without a watermark)",
                                     s.operatorName, s.numRowsTotal, bound),
                         {}};
  return std::nullopt;
}

std::optional<Violation> checkLatencyBound(const std::vector<QueryProgress>& progress,
                                           const std::map<int, DurationMs>& bounds) {
  for (const QueryProgress& p : progress) {
    if (!p.latency || p.latency->count == 0) continue;
    for (const auto& [pct, bound] : bounds) {
      DurationMs got = pct == 50 ? p.latency->p50 : pct == 95 ? p.latency->p95 : p.latency->p99;
      if (got > bound)
        return Violation{"latency_bound", p.batchId, "",
                         fmt::format("p{} end-to-end latency {} ms over the bound {} ms ({} output "
                                     "records; p50 {} ms, p95 {} ms, p99 {} ms, max {} ms, in "
                                     "virtual time)",
                                     pct, got, bound, p.latency->count, p.latency->p50,
                                     p.latency->p95, p.latency->p99, p.latency->max),
                         {}};
    }
  }
  return std::nullopt;
}

std::optional<Violation> checkModeEquivalence(std::vector<std::string> microBatchState,
                                              std::vector<std::string> realTimeState,
                                              const std::vector<Row>& microBatchLast,
                                              const std::vector<Row>& realTimeLast,
                                              const std::vector<std::string>& keyColumns) {
  Violation v;
  v.oracle = "mode_equivalence";
  std::sort(microBatchState.begin(), microBatchState.end());
  std::sort(realTimeState.begin(), realTimeState.end());
  if (microBatchState != realTimeState) {
    std::vector<std::string> onlyMb, onlyRt;
    std::set_difference(microBatchState.begin(), microBatchState.end(), realTimeState.begin(),
                        realTimeState.end(), std::back_inserter(onlyMb));
    std::set_difference(realTimeState.begin(), realTimeState.end(), microBatchState.begin(),
                        microBatchState.end(), std::back_inserter(onlyRt));
    v.message = fmt::format("the final state differs between micro-batch and real-time mode "
                            "({} entries only in micro-batch, {} only in real time): a processor "
                            "that depends on how rows are split into handleInputRows calls",
                            onlyMb.size(), onlyRt.size());
    for (size_t i = 0; i < onlyMb.size() && i < 3; ++i) v.events.push_back("micro-batch: " + onlyMb[i]);
    for (size_t i = 0; i < onlyRt.size() && i < 3; ++i) v.events.push_back("real-time:   " + onlyRt[i]);
    return v;
  }
  RowDiff d = diffRows(microBatchLast, realTimeLast);
  if (d.equal) return std::nullopt;
  v.message = fmt::format("the {} differs between micro-batch and real-time mode: {} row(s) only "
                          "in micro-batch, {} only in real time",
                          keyColumns.empty() ? std::string("output")
                                             : fmt::format("last output per key ({})", fmt::join(keyColumns, ", ")),
                          d.missing.size(), d.unexpected.size());
  if (!d.missing.empty()) v.key = formatRow(d.missing.front());
  for (size_t i = 0; i < d.missing.size() && i < 3; ++i) v.events.push_back("micro-batch: " + formatRow(d.missing[i]));
  for (size_t i = 0; i < d.unexpected.size() && i < 3; ++i) v.events.push_back("real-time:   " + formatRow(d.unexpected[i]));
  return v;
}

std::optional<Violation> checkBatchSplitInvariance(const std::vector<Row>& a,
                                                   const std::vector<Row>& b,
                                                   const std::vector<std::string>& keyColumns) {
  auto last = [&](const std::vector<Row>& rows) {
    std::map<std::string, Row> out;
    for (const Row& r : rows) {
      std::string k;
      for (const auto& c : keyColumns) k += (r.has(c) ? r.get(c).toString() : "null") + "\x1f";
      out.insert_or_assign(k, r);
    }
    return out;
  };
  auto la = last(a), lb = last(b);
  for (const auto& [k, r] : la) {
    auto it = lb.find(k);
    if (it == lb.end() || !(it->second == r))
      return Violation{"batch_split", -1, formatRow(r),
                       fmt::format("the final row differs with another batching: {} vs {}",
                                   formatRow(r), it == lb.end() ? "(none)" : formatRow(it->second)),
                       {}};
  }
  for (const auto& [k, r] : lb)
    if (!la.count(k))
      return Violation{"batch_split", -1, formatRow(r),
                       "a key's final row appears only with another batching: " + formatRow(r), {}};
  return std::nullopt;
}

std::optional<Violation> checkInterleaving(const std::vector<Row>& sequentialRows,
                                          const std::vector<Row>& rows,
                                          const std::vector<std::string>& sequentialState,
                                          const std::vector<std::string>& state,
                                          const std::vector<std::string>& traceLines) {
  std::optional<Violation> v = checkExactlyOnce(sequentialRows, rows);
  if (v) {
    v->message = "the reader's view differs from the sequential run's (keys one after the other): " +
                 v->message;
  } else if (sequentialState != state) {
    v = Violation{};
    size_t i = 0;
    while (i < state.size() && i < sequentialState.size() && state[i] == sequentialState[i]) ++i;
    v->message = fmt::format(
        "the committed state differs from the sequential run's: first difference at entry {}: "
        "sequential {}, interleaved {}",
        i, i < sequentialState.size() ? sequentialState[i] : "(none)",
        i < state.size() ? state[i] : "(none)");
  }
  if (!v) return std::nullopt;
  v->oracle = "interleaving";
  v->key.clear();
  v->events.clear();
  for (const std::string& line : traceLines)
    if (traceEventName(line) == events::kTwsSwitch) v->events.push_back(line);
  v->message += fmt::format(" — after {} context switch{} (events below: which key resumed at "
                            "which await instead of which)",
                            v->events.size(), v->events.size() == 1 ? "" : "es");
  return v;
}

}  // namespace streamsim::harness
