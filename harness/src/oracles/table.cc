// The oracle table and the one function that applies it (oracles/table.h).
#include "streamsim/harness/oracles/table.h"

#include "streamsim/harness/oracles/logic.h"

#include <algorithm>
#include <climits>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim::harness {
namespace {

Violation violation(std::string_view oracle, std::string message) {
  Violation v;
  v.oracle = std::string(oracle);
  v.message = std::move(message);
  return v;
}

const std::vector<CommittedBatch>& committed(OracleInput& in) {
  if (!in.committed) in.committed = committedBatches(in.run.trace);
  return *in.committed;
}

Result<std::optional<Violation>> exactlyOnce(OracleInput& in) {
  if (!in.reference) return Status::FailedPrecondition("exactly_once needs a reference run");
  STREAMSIM_ASSIGN_OR_RETURN(auto expected, in.reference());
  return checkExactlyOnce(expected, in.run.sinkRows, in.run.sinkBatchOf, in.sinkKind);
}

Result<std::optional<Violation>> ttl(OracleInput& in) {
  // The oracle acts only on its own events: a trace without any passes without being parsed.
  if (!traceMayHaveEvents(in.run.trace, "tws.ttl_")) return std::optional<Violation>();
  return checkTtl(committed(in));
}

Result<std::optional<Violation>> timers(OracleInput& in) {
  if (!traceMayHaveEvents(in.run.trace, "tws.timer_")) return std::optional<Violation>();
  return checkTimers(committed(in), in.timerClock);
}

// Rows with event ids: each on-time event's id must be in the sink. Aggregated output has no
// ids: no more rows may be dropped as late than arrived late (later than the max event time
// before them minus the delay); the last attempt of each batch counts.
Result<std::optional<Violation>> watermark(OracleInput& in) {
  if (!in.watermarkDelay || !in.arrivals)
    return std::optional<Violation>(violation("watermark", "the query has no withWatermark operator to check"));
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
      "watermark", fmt::format("{} row(s) were dropped as late but only {} arrived later than the "
                               "max event time before them minus {}: an on-time row was dropped",
                               total, late, formatDuration(delay))));
}

Result<std::optional<Violation>> determinism(OracleInput& in) {
  if (!in.again) return Status::FailedPrecondition("determinism needs a second run");
  RunOutcome again = in.again();
  return checkDeterminism(in.run, again);
}

Result<std::optional<Violation>> stateBound(OracleInput& in) {
  if (in.stateBound)
    if (auto v = checkStateBound(in.run.progress, *in.stateBound)) return v;
  if (!in.stateBoundPerKey) return std::optional<Violation>();
  if (!in.stateRowsPerKey) return Status::FailedPrecondition("state_bound per key needs the committed state");
  STREAMSIM_ASSIGN_OR_RETURN(auto rows, in.stateRowsPerKey());
  return checkStateBoundPerKey(rows, *in.stateBoundPerKey);
}

Result<std::optional<Violation>> timerBound(OracleInput& in) {
  if (!in.timerBound) return std::optional<Violation>();
  if (!traceMayHaveEvents(in.run.trace, "tws.timer_")) return std::optional<Violation>();
  return checkTimerBound(committed(in), *in.timerBound);
}

Result<std::optional<Violation>> processIsolation(OracleInput& in) {
  if (!in.againAfterOther)
    return Status::FailedPrecondition("process_isolation needs a run after another case");
  RunOutcome after = in.againAfterOther();
  if (!in.againInFreshRegistry) return checkProcessIsolation(in.run, after);
  RunOutcome fresh = in.againInFreshRegistry();
  return checkProcessIsolation(in.run, after, &fresh);
}

// batch_split matches each grouping key's final row by the key's columns. Output rows without
// them cannot be matched: every row would count as one key's, and which comes last depends on the
// batching, so a correct processor would fail (the false alarm of bug batch_split_output_without_key).
Status batchSplitKeyColumns(const std::vector<Row>& rows, const std::vector<std::string>& keyColumns) {
  for (const Row& r : rows) {
    for (const std::string& c : keyColumns) {
      if (r.has(c)) continue;
      std::vector<std::string> names;
      for (const Field& f : r.schema()->fields()) names.push_back(f.name);
      return Status::InvalidArgument(fmt::format(
          "oracle batch_split compares each grouping key's final output row, but the output has no "
          "column '{}' (its columns: {}): emit the grouping column, or leave batch_split out",
          c, fmt::join(names, ", ")));
    }
  }
  return Status::OK();
}

Result<std::optional<Violation>> batchSplit(OracleInput& in) {
  if (!in.batchSplit) return Status::FailedPrecondition("batch_split needs the one-batch run");
  auto [a, b] = in.batchSplit();
  STREAMSIM_RETURN_IF_ERROR(batchSplitKeyColumns(a, in.keyColumns));
  STREAMSIM_RETURN_IF_ERROR(batchSplitKeyColumns(b, in.keyColumns));
  auto v = checkBatchSplitInvariance(a, b, in.keyColumns);
  if (v && !in.batchCut.empty()) v->message += fmt::format(" (the other batching: {})", in.batchCut);
  return v;
}

Result<std::optional<Violation>> interleaving(OracleInput& in) {
  if (!in.sequential) return std::optional<Violation>();
  auto seq = in.sequential();
  if (!seq) return std::optional<Violation>();
  return checkInterleaving(seq->sinkRows, in.run.sinkRows, seq->committedState, in.run.committedState,
                           in.run.trace);
}

Result<std::optional<Violation>> latencyBound(OracleInput& in) {
  return checkLatencyBound(in.run.progress, in.latencyBound);
}

Result<std::optional<Violation>> modeEquivalence(OracleInput& in) {
  if (!in.modeRuns) return Status::FailedPrecondition("mode_equivalence needs the two mode runs");
  STREAMSIM_ASSIGN_OR_RETURN(auto m, in.modeRuns());
  return checkModeEquivalence(m.microBatchState, m.realTimeState, m.microBatchLast, m.realTimeLast,
                              m.keyColumns);
}

Result<std::optional<Violation>> restartEquivalence(OracleInput& in) {
  if (!in.restartRuns) return Status::FailedPrecondition("restart_equivalence needs the restarted and the paused run");
  STREAMSIM_ASSIGN_OR_RETURN(RestartRuns runs, in.restartRuns());
  return checkRestartEquivalence(runs);
}

Result<std::optional<Violation>> reference(OracleInput& in) {
  if (!in.referenceViews) return Status::FailedPrecondition("reference needs a reference function");
  STREAMSIM_ASSIGN_OR_RETURN(ReferenceViews views, in.referenceViews());
  return checkReference(views);
}

Result<std::optional<Violation>> hashSeed(OracleInput& in) {
  if (!in.hashSeedRuns) return std::optional<Violation>();  // no Python processor, or no worker to run it
  STREAMSIM_ASSIGN_OR_RETURN(VariantSinks runs, in.hashSeedRuns());
  return checkVariantSinks(
      "hash_seed", runs,
      "the output depends on the iteration order of a set (or of a dict built from one) of str/bytes, which "
      "Python's hash seed (PYTHONHASHSEED) decides; sort it, or keep insertion order in a list or dict");
}

Result<std::optional<Violation>> pandasChunks(OracleInput& in) {
  if (!in.pandasChunkRuns) return std::optional<Violation>();  // no pandas processor
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<VariantSinks> runs, in.pandasChunkRuns());
  if (!runs) return std::optional<Violation>();
  return checkVariantSinks(
      "pandas_chunks", *runs,
      "PySpark hands a transformWithStateInPandas handler a key's rows as several DataFrames when they are more "
      "than spark.sql.execution.arrow.maxRecordsPerBatch (or maxBytesPerBatch) allows; read every DataFrame of "
      "`rows` (for pdf in rows: ..., or pd.concat(list(rows))), not only the first, and emit per key, not per "
      "DataFrame");
}

Result<std::optional<Violation>> partitioning(OracleInput& in) {
  if (!in.partitioningRuns) return std::optional<Violation>();
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<VariantSinks> runs, in.partitioningRuns());
  if (!runs) return std::optional<Violation>();
  return checkVariantSinks(
      "partitioning", *runs,
      "Spark runs one processor instance per partition task, and which keys share a task is the number of "
      "shuffle partitions' choice: keep a key's data in its state variables, not in members or statics that "
      "outlive one key's call");
}

}  // namespace

const std::vector<Oracle>& oracleTable() {
  static const std::vector<Oracle> kTable = {
      {"exactly_once", "the sink after the run and the fault-free reference run's sink", exactlyOnce},
      {"timers", "the trace's committed tws.timer_* events and the time mode", timers},
      {"ttl", "the trace's committed tws.ttl_* events", ttl},
      {"watermark", "the input in arrival order, the delay, the sink (or the progress' drop counts)", watermark},
      {"state_bound", "the progress records' numRowsTotal and the bound", stateBound},
      {"determinism", "a second run of the same case: its trace, sink rows and committed state", determinism},
      {"batch_split", "the final output with all input in one batch and as planned", batchSplit},
      {"timer_bound", "the trace's committed tws.timer_* events per key and the bound", timerBound},
      {"process_isolation", "the same case run again after another case in this process", processIsolation},
      {"interleaving", "the same case without its context switches: its sink and committed state", interleaving},
      {"latency_bound", "the progress records' latency percentiles (real time) and the bounds", latencyBound},
      {"mode_equivalence", "the same case drained in micro-batch and in real-time mode: final state and last output per key", modeEquivalence},
      {"restart_equivalence", "the same case restarted after each batch (with and without downtime) and down as long without restarts: sink and committed state", restartEquivalence},
      {"reference", "the user's reference function over the rows the sources delivered, and the final view", reference},
      {"hash_seed", "the fault-free run's final sink here and in a process whose Python hashes str with another seed", hashSeed},
      {"pandas_chunks", "the fault-free run's final sink with the seed's DataFrame size and with maxRecordsPerBatch", pandasChunks},
      {"partitioning", "the fault-free run's final sink with the query's and with the seed's number of shuffle partitions", partitioning},
  };
  return kTable;
}

const std::vector<std::string>& oracleNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const Oracle& o : oracleTable()) names.emplace_back(o.name);
    return names;
  }();
  return kNames;
}

Status checkOracleNames(const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (std::find(oracleNames().begin(), oracleNames().end(), n) == oracleNames().end())
      return Status::InvalidArgument(
          fmt::format("unknown oracle '{}'; expected one of {}", n, fmt::join(oracleNames(), ", ")));
  return Status::OK();
}

std::vector<OracleError> applyOracles(const std::vector<std::string>& names, OracleInput& in,
                                      RunOutcome& out) {
  std::vector<OracleError> errors;
  for (const auto& n : names)
    if (std::none_of(oracleTable().begin(), oracleTable().end(), [&](const Oracle& o) { return o.name == n; }))
      errors.push_back({n, Status::InvalidArgument(fmt::format("unknown oracle '{}'", n))});
  for (const Oracle& o : oracleTable()) {
    if (std::find(names.begin(), names.end(), o.name) == names.end()) continue;
    ++out.oracleChecks;
    auto v = o.check(in);
    if (!v.ok()) {
      errors.push_back({std::string(o.name), v.status()});
      continue;
    }
    if (*v) out.violations.push_back(std::move(**v));
  }
  return errors;
}

}  // namespace streamsim::harness
