// Operators between source and sink, and the context a batch runs them in (SEMANTICS.md §1, §4).
// The batch loop calls process() once per batch on each operator in plan order; stateful
// operators partition their input into shufflePartitions tasks, each with its own state store,
// and commit one store version per partition (store version = batch id + 1).
// Operators belong to one query run; they are not shared between threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/expr/sql_conf.h"
#include "streamsim/progress.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

namespace ops {
class RealTimeStateStores;  // ops/stateful_support.h
}

enum class OutputMode { kAppend, kUpdate, kComplete };
std::string_view outputModeName(OutputMode m);
Result<OutputMode> parseOutputMode(std::string_view name);  // append | update | complete

struct QueryInfo {
  std::string queryId;
  std::string runId;
  int64_t batchId = -1;
};

// What one batch of one query run sees. Owned by the batch loop.
struct BatchContext {
  const Env* env = nullptr;
  std::string checkpointRoot;
  QueryInfo query;
  int64_t batchId = 0;
  TimeMs batchTimestampMs = 0;
  // Late rows are filtered with the previous batch's watermark; state is evicted with this
  // batch's (both inclusive: a row is late when eventTime <= lateWatermarkMs).
  TimeMs lateWatermarkMs = 0;
  TimeMs evictionWatermarkMs = 0;
  bool hasWatermark = false;  // a withWatermark operator exists upstream
  int shufflePartitions = 4;
  int taskRetries = 0;
  StateStoreProvider* stateStores = nullptr;
  OutputMode outputMode = OutputMode::kAppend;
  bool traceOutputRows = false;  // QueryOptions::traceOutputRows
  // How many rows each source read in this batch, in source order: the input is their rows
  // concatenated in that order (a stream-stream join tells its two sides apart by it).
  std::vector<int64_t> sourceRowCounts;
  // Event times seen by each withWatermark operator in this batch (by operator id).
  struct EventTimeObservation {
    int64_t count = 0;
    TimeMs min = 0, max = 0;
    double sum = 0;
  };
  std::map<int, EventTimeObservation> eventTimes;
  // Filled by stateful operators.
  std::vector<StateOperatorProgress> stateProgress;
  // Real-time mode (SEMANTICS.md §7, query/real_time_execution.cc): the batch calls process()
  // once per input record (batchTimestampMs = the record's processing time) and once more at
  // batch end with no input (realTimeFinal). Stateful operators keep their stores open in
  // realTimeStores across these calls (committed once, at batch end), run only the partitions
  // that got input until the final call, and evict state in the final call only (the
  // watermark is fixed within the batch). Null in micro-batch mode.
  ops::RealTimeStateStores* realTimeStores = nullptr;
  bool realTimeFinal = false;
  bool realTime() const { return realTimeStores != nullptr; }
  // Whether a partition task runs in this call (always, but in a real-time per-record call
  // only with input).
  bool runsPartition(bool hasInput) const { return !realTime() || realTimeFinal || hasInput; }
};

// Once per query run (start or restart), before the first batch of that run.
struct OperatorStartContext {
  const Env* env = nullptr;
  std::string checkpointRoot;
  int operatorId = 0;        // position among stateful operators (state/<operatorId>/)
  int planIndex = 0;         // position in the plan (for watermark operators)
  int shufflePartitions = 4;
  OutputMode outputMode = OutputMode::kAppend;
  StateStoreProvider* stateStores = nullptr;
  std::string eventTimeColumn;  // the watermarked column upstream, if any
  DurationMs watermarkDelayMs = 0;
  // Every column a withWatermark upstream names, in plan order (a stream-stream join finds
  // each side's watermarked column among them).
  std::vector<std::string> watermarkColumns;
  // spark.sql.ansi.enabled, spark.sql.session.timeZone, spark.sql.caseSensitive (expressions).
  expr::SqlConf sqlConf;
  std::string runId;  // this query run's id (expressions' random seed: expr::runSeedOf)
  // A streaming aggregation runs before this operator (a limit after one in Complete mode is
  // the batch's, StreamingGlobalLimitStrategy).
  bool afterStreamingAggregation = false;
};

class Operator {
 public:
  virtual ~Operator() = default;
  virtual std::string name() const = 0;
  virtual bool isStateful() const { return false; }
  // Whether the operator keeps state in this query (its state/<operatorId>/): isStateful(),
  // unless the plan around it decides (a streaming limit after an aggregation in Complete mode).
  virtual bool isStatefulIn(const OperatorStartContext& ctx) const {
    (void)ctx;
    return isStateful();
  }
  // A streaming aggregation (Spark's Aggregate: windowed or not).
  virtual bool isStreamingAggregation() const { return false; }
  // transformWithState given an initial state: real-time mode loads it in a bootstrap batch 0
  // that reads no input (query/real_time_execution.cc).
  virtual bool hasInitialState() const { return false; }
  // The event-time column this operator watermarks (withWatermark only).
  virtual std::optional<std::pair<std::string, DurationMs>> watermark() const { return std::nullopt; }
  // The output column that carries the watermark on to downstream operators (transformWithState's
  // eventTimeColumnName, Spark's UpdateEventTimeWatermarkColumn): operators after this one get it
  // as OperatorStartContext::eventTimeColumn, with the upstream delay. Watermark values do not
  // change: the global watermark still comes from the withWatermark operators.
  virtual std::optional<std::string> outputEventTimeColumn() const { return std::nullopt; }
  // Called at the start of each query run; stateful operators check / record their state schema
  // under state/<operatorId>/_stateSchema/ here (transformWithState: a fresh one at its 1st batch).
  virtual Status start(const OperatorStartContext& ctx) {
    (void)ctx;
    return Status::OK();
  }
  virtual Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) = 0;
  // True when this operator wants a batch even without new input: the watermark moved past
  // something it holds, or (transformWithState, ProcessingTime) on every trigger.
  virtual bool needsNoDataBatch(TimeMs nextEvictionWatermark, bool watermarkMoved) const {
    (void)nextEvictionWatermark;
    (void)watermarkMoved;
    return false;
  }
  // SQL confs Spark records in every batch's offsets for this kind of operator
  // (OffsetSeqMetadata.relevantSQLConfs, e.g. flatMapGroupsWithState's state format version), so
  // that a restart, or Spark, reads the state as it was written. A value the checkpoint recorded
  // already is kept.
  virtual std::vector<std::pair<std::string, std::string>> offsetsConf() const { return {}; }
  // Called when the query stops (processors' close()).
  virtual void stop() {}
  // Real-time mode's allowlist (SEMANTICS.md §7): "" when the operator may run there, else the
  // Spark error condition that rejects it (checked when the query starts).
  virtual std::string realTimeUnsupported() const {
    return "STREAMING_REAL_TIME_MODE.OPERATOR_OR_SINK_NOT_IN_ALLOWLIST";
  }
};

// Stateless operators.
using RowPredicate = std::function<bool(const Row&)>;
using RowMapper = std::function<Row(const Row&)>;
std::unique_ptr<Operator> makeFilter(RowPredicate predicate, std::string description = "filter");
std::unique_ptr<Operator> makeMap(RowMapper mapper, std::string description = "map");
std::unique_ptr<Operator> makeSelect(std::vector<std::string> columns);
// withWatermark(column, delay): records event times for the watermark; passes rows through.
std::unique_ptr<Operator> makeWithWatermark(std::string column, DurationMs delay);

// Reads `column` of `row` as event time (timestamp or long ms); nullopt when null or absent.
std::optional<TimeMs> eventTimeOf(const Row& row, std::string_view column);

}  // namespace streamsim
