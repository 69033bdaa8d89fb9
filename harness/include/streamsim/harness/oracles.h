// Oracles (DESIGN.md §5): checks over a simulated run's sink view, trace and progress that say
// whether the engine kept its promises — exactly_once, ttl, timers, watermark, determinism,
// state_bound and (opt-in) batch-split invariance. Each returns the FIRST violation with the
// batch, the key and the trace events that show it. Pure functions over values; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/progress.h"
#include "streamsim/sim/workload.h"
#include "streamsim/value.h"

namespace streamsim::harness {

// One broken promise.
struct Violation {
  std::string oracle;    // "exactly_once", "ttl", "timers", "watermark", "determinism", ...
  int64_t batch = -1;    // the batch it shows in (-1: the whole run)
  std::string key;       // the grouping key (JSON) or the row, "" when none
  std::string message;   // what was expected and what happened
  std::vector<std::string> events;  // trace lines that show it (a few)
  // "timers: batch 3, key {"key":"k1"}: ...\n    event...\n"
  std::string toString() const;
  nlohmann::json toJson() const;
  static Violation fromJson(const nlohmann::json& j);
};

// Every oracle name, in report order: the names of oracleTable() (oracles/table.h); a scenario's
// `oracles:` list takes these.
const std::vector<std::string>& oracleNames();

// --- the committed view of a trace ---------------------------------------------------------
// The events of the attempts that count: for each committed batch (in commit order) the events
// of its last attempt (an attempt ends with "commit"; a crash or a failure before it discards
// it), and inside it, for each (operator, partition), only the events after its last
// "task_attempt" (a failed task's events are discarded).
struct CommittedBatch {
  int64_t batch = -1;
  TimeMs timestamp = 0;
  TimeMs watermark = 0;  // the eviction watermark the batch ran with
  std::vector<nlohmann::json> events;  // in trace order
  std::vector<std::string> lines;      // the same events as trace lines
};
std::vector<CommittedBatch> committedBatches(const std::vector<std::string>& traceLines);

// Whether some line holds an event whose name starts with `eventPrefix` (traceEventName: the
// lines are not parsed). The timers and ttl oracles only look at "tws.timer_" and "tws.ttl_"
// events, so a trace without any need not be parsed for them.
bool traceMayHaveEvents(const std::vector<std::string>& traceLines, std::string_view eventPrefix);

// --- oracles ----------------------------------------------------------------------------------

// exactly_once: what a reader of the sink sees after the faulty run equals the fault-free run
// of the same batch plan (a multiset of rows). `actualBatchOf` (optional) maps a row's index in
// `actual` to the batch that wrote it, for the report. For a foreach sink `actual` lists every
// row the writer processed: duplicates are reported as such.
std::optional<Violation> checkExactlyOnce(const std::vector<Row>& expected,
                                          const std::vector<Row>& actual,
                                          const std::vector<int64_t>& actualBatchOf = {},
                                          std::string_view sinkKind = "memory");

enum class TimerClock { kProcessingTime, kEventTime };
// timers: every registered, undeleted timer fires exactly once, in the first committed batch
// that is due (ts <= batch timestamp, or <= the eviction watermark in event time), never early,
// after all input rows of its partition in that batch. Only committed attempts count, so a timer
// fires once across crashes and task retries.
std::optional<Violation> checkTimers(const std::vector<CommittedBatch>& batches, TimerClock clock);

// ttl (state variables with TTL, from the tws.ttl_* events, docs/oracles.md "TTL events"): per
// ValueState value, ListState element (put restamps all, append stamps the new ones) and MapState
// entry (updateValue restamps that entry): no read returns one whose expiry <= the batch
// timestamp; no read misses one written with a later expiry and not cleared or removed, nor
// returns one that was; by the end of each batch those expired at its timestamp were removed
// (tws.ttl_expired counts per operator and state cover the model's).
std::optional<Violation> checkTtl(const std::vector<CommittedBatch>& batches);

// watermark: no on-time row is dropped. `arrivals` are the input events in arrival order
// (events of half-written files left out); an event is on time when its event time is more than
// `delay` ms later than... precisely: eventTime > (max event time of the events before it) -
// delay. Each on-time event's id must appear in `sinkRows` (column `idColumn`).
std::optional<Violation> checkWatermark(const std::vector<sim::Event>& arrivals, DurationMs delay,
                                        const std::vector<Row>& sinkRows,
                                        std::string_view idColumn = "event_id");

// state_bound: every state operator's numRowsTotal stays <= bound in every batch.
std::optional<Violation> checkStateBound(const std::vector<QueryProgress>& progress, int64_t bound);

// latency_bound (real-time mode): in every batch with output, each bounded percentile (50, 95,
// 99 -> ms) of the end-to-end latency in virtual time is within its bound.
std::optional<Violation> checkLatencyBound(const std::vector<QueryProgress>& progress,
                                           const std::map<int, DurationMs>& bounds);

// mode_equivalence: the same query over the same Kafka-like log in micro-batch and in real-time
// mode ends with the same committed state (dumpCommittedState lines without timers, any order)
// and the same last output row per key (`keyColumns`; duplicates of an at-least-once sink and
// real time's per-row intermediate updates do not count). Catches a processor that assumes one
// handleInputRows call per key and batch.
std::optional<Violation> checkModeEquivalence(std::vector<std::string> microBatchState,
                                              std::vector<std::string> realTimeState,
                                              const std::vector<Row>& microBatchLast,
                                              const std::vector<Row>& realTimeLast,
                                              const std::vector<std::string>& keyColumns);

// batch-split invariance (opt-in): the final row per key (the last one in `a`/`b` order for
// each value of `keyColumns`) is the same whatever the batches were.
std::optional<Violation> checkBatchSplitInvariance(const std::vector<Row>& a,
                                                   const std::vector<Row>& b,
                                                   const std::vector<std::string>& keyColumns);

// interleaving (async processors, DESIGN.md §5a): a run whose keys interleaved at awaits (the
// plan's context switches) shows the reader the same rows and commits the same state
// (dumpCommittedState lines) as the sequential run. The violation's events are the run's
// tws.switch trace lines: the interleaving that broke it.
std::optional<Violation> checkInterleaving(const std::vector<Row>& sequentialRows,
                                          const std::vector<Row>& rows,
                                          const std::vector<std::string>& sequentialState,
                                          const std::vector<std::string>& state,
                                          const std::vector<std::string>& traceLines);

}  // namespace streamsim::harness
