// The query API, named after Spark's (DESIGN.md §3): a DataFrame built from readStream, shaped by
// operators, written with writeStream ... start(), which returns a StreamingQuery that runs the
// micro-batch protocol of SEMANTICS.md §1 against the Env it was given.
//
//   auto query = readStream(makeFileSource(...))
//                    .withWatermark("event_time", 10 * 60 * 1000)
//                    .dropDuplicates({"event_id"})
//                    .writeStream()
//                    .sink(makeFileSink(...))
//                    .option("checkpointLocation", "/chk")
//                    .trigger(Trigger::AvailableNow())
//                    .start(env);
//
// A DataFrame holds factories, not operator instances: every start() (a restart after a crash
// included) builds fresh sources, operators and sinks, exactly as a driver restart does.
// A StreamingQuery is driven by one thread; two queries share nothing.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/env.h"
#include "streamsim/expr/column.h"
#include "streamsim/operator.h"
#include "streamsim/progress.h"
#include "streamsim/sink.h"
#include "streamsim/source.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"
#include "streamsim/trigger.h"

namespace streamsim {

using SourceFactory = std::function<std::unique_ptr<Source>()>;
using SinkFactory = std::function<std::unique_ptr<Sink>()>;
using OperatorFactory = std::function<std::unique_ptr<Operator>()>;

enum class WatermarkPolicy { kMin, kMax };

// The most shuffle partitions a query may have: every partition's state store lives in memory
// in the simulator, so an unbounded count (10000000) would exhaust it before the first batch.
inline constexpr int kMaxShufflePartitions = 10000;

struct QueryOptions {
  std::string checkpointLocation;
  Trigger trigger;
  OutputMode outputMode = OutputMode::kAppend;
  int shufflePartitions = 4;     // 1..kMaxShufflePartitions; a checkpoint's recorded value wins on restart, as in Spark
  int taskRetries = 0;
  StateStoreOptions stateStore;
  bool noDataMicroBatches = true;
  // Not Spark: an idle trigger before this run's first batch may run the no-data batch an
  // operator asks for (Spark withholds it until a batch ran in the current run, so right after a
  // (re)start due timers and TTL cleanup wait for new data). Only for the harness's restart
  // transparency check (docs/oracles.md "Restarts and no-data batches"); not a DataStreamWriter option.
  bool noDataBatchBeforeFirstBatchOfRun = false;
  // Not Spark: every transformWithState call's output rows go into the trace (a `tws.output`
  // event naming the grouping key), so that the harness can key a processor's output by its
  // grouping key (the mode_equivalence oracle). Only for the harness; not a DataStreamWriter option.
  bool traceOutputRows = false;
  WatermarkPolicy multipleWatermarkPolicy = WatermarkPolicy::kMin;
  std::string queryName;
  // spark.sql.streaming.minBatchesToRetain: how many recent batches stay recoverable. Older
  // offsets/ and commits/ files are purged when a batch is planned, and state files not needed
  // to load the newest versions are deleted by state store maintenance (docs/checkpoint-format.md
  // "Retention"). Must be >= 1. Not recorded in the checkpoint (as in Spark).
  int minBatchesToRetain = 100;
  bool stateStoreSet = false;  // the stateStore option was given (real time defaults to RocksDB)
  // spark.sql.streaming.stateStore.checkpointFormatVersion when given (recorded in offsets/N).
  std::optional<int> checkpointFormatVersion;
  // Real-time mode (SEMANTICS.md §7, query/real_time_execution.cc):
  // spark.sql.streaming.realTimeMode.minBatchDuration, and the simulated cost model — the
  // virtual time one record takes to pass the operators (per reader task, records queue
  // behind each other) and the time the sink takes to deliver a record.
  DurationMs realTimeMinBatchMs = kDefaultRealTimeMinBatchMs;
  DurationMs realTimeRecordCostMs = 0;
  DurationMs realTimeSinkLatencyMs = 0;
  // spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled: a stateful real-time
  // query may start on checkpoint format v1 (an existing micro-batch checkpoint, or v1 asked
  // for) instead of failing with CHECKPOINT_FORMAT_V1_NOT_SUPPORTED. Spark calls it unsafe.
  bool realTimeAllowCheckpointV1 = false;
  // Spark 4.2's query evolution (docs/checkpoint-format.md "Spark 4.2"): sources named by
  // DataStreamReader.name (SPARK-54909; `sourceNames`, one per source, "" unnamed) with
  // spark.sql.streaming.queryEvolution.enableSourceEvolution keep their log in sources/<name>/
  // and are keyed by name in an offsets v2 file (OffsetMap, SPARK-54423/54583), which
  // spark.sql.streaming.offsetLog.formatVersion=2 also asks for; a sink named by
  // DataStreamWriter.name (SPARK-56719; `sinkName`) with
  // spark.sql.streaming.queryEvolution.enableSinkEvolution is recorded in commit log v3.
  std::vector<std::string> sourceNames;
  std::string sinkName;
  bool sourceEvolution = false;
  bool sinkEvolution = false;
  int offsetLogFormatVersion = 1;
  // spark.sql.execution.sortBeforeRepartition when given. Only real-time mode reads it: an
  // explicit true is refused there (SQL_CONFIGURATION_NOT_SUPPORTED); streamsim has no
  // round-robin repartition for it to sort before.
  std::optional<bool> sortBeforeRepartition;
  // The SQL settings expressions are analysed and evaluated with (expr/sql_conf.h):
  // spark.sql.ansi.enabled, spark.sql.session.timeZone, spark.sql.caseSensitive.
  expr::SqlConf sqlConf;
};

class StreamingQuery;
class DataStreamWriter;
class GroupedData;
struct StaticTable;  // ops/stream_static_join.h
struct StreamStreamJoinSpec;  // ops/stream_stream_join.h

class DataFrame {
 public:
  DataFrame() = default;
  explicit DataFrame(std::vector<SourceFactory> sources) : sources_(std::move(sources)) {}
  // `readers[i]` names the reader (Spark's source instance) source i is read through: equal
  // names are one reader read twice, Spark's reader.union(reader), which real-time mode refuses
  // (IDENTICAL_SOURCES_IN_UNION_NOT_SUPPORTED); two readers built separately over one topic are
  // two sources. Empty: every source its own reader.
  DataFrame(std::vector<SourceFactory> sources, std::vector<int> readers)
      : sources_(std::move(sources)), readers_(std::move(readers)) {}

  DataFrame withWatermark(std::string column, DurationMs delay) const;
  DataFrame filter(RowPredicate predicate, std::string description = "filter") const;
  DataFrame map(RowMapper mapper, std::string description = "map") const;
  DataFrame select(std::vector<std::string> columns) const;
  // Spark's expression operators (ops/expr_ops.h, src/query/dataframe_exprs.cc): select with
  // Columns (functions.h: col, lit, expr, ...) or SQL strings, where/filter with a condition,
  // withColumn, withColumnRenamed, drop. A SQL string that does not parse fails start() with
  // PARSE_SYNTAX_ERROR; a name or type error fails the first batch (rows carry their schema).
  DataFrame select(std::vector<expr::Column> columns) const;
  DataFrame selectExpr(std::vector<std::string> expressions) const;
  DataFrame where(expr::Column condition) const;
  DataFrame where(std::string_view condition) const;
  DataFrame filter(expr::Column condition) const { return where(std::move(condition)); }
  DataFrame withColumn(std::string name, expr::Column value) const;
  DataFrame withColumnRenamed(std::string existing, std::string newName) const;
  DataFrame drop(std::vector<std::string> columns) const;
  // Any operator (dedup, windows, transformWithState build on this).
  DataFrame transform(OperatorFactory factory) const;
  // Spark-named stateful operators (streamsim/dataframe_ops.h, src/query/dataframe_ops.cc).
  DataFrame dropDuplicates(std::vector<std::string> columns = {}) const;
  // Spark's limit on a stream (ops/streaming_limit.h): at most `n` rows over the query's life in
  // Append mode (the count in state), refused in Update mode.
  DataFrame limit(int64_t n) const;
  DataFrame dropDuplicatesWithinWatermark(std::vector<std::string> columns = {}) const;
  GroupedData groupBy(std::vector<std::string> columns) const;
  // Spark's groupBy(Column*): grouping expressions, window(...) / session_window(...) included
  // (ops/expr_aggregation.h); then agg(Column...).
  GroupedData groupBy(std::vector<expr::Column> columns) const;
  // groupBy({"k"}) and groupBy({}) name columns (a braced list prefers this overload).
  GroupedData groupBy(std::initializer_list<std::string> columns) const;
  // Spark's join(static, usingColumns, joinType) with this stream on the left
  // (ops/stream_static_join.h): inner, left_outer, left_semi, left_anti and Spark's other names;
  // an unknown name, right_outer and full_outer fail start().
  DataFrame join(StaticTable table, std::vector<std::string> on, std::string joinType = "inner") const;
  // Spark's join of two streams (ops/stream_stream_join.h): the sources are this stream's, then
  // `right`'s. Each side keeps its own operators (per-row expressions, withWatermark, ...),
  // run on that side's rows only, before the join (a plan node with two inputs; spec.left and
  // spec.right are the sides' schemas as their operators leave them; spec.leftSources is set here).
  DataFrame join(const DataFrame& right, StreamStreamJoinSpec spec) const;
  // Spark's Union of two streams (union/unionAll): this stream's rows, then `other`'s, each
  // side through its own operators first. Given `output` (the union's columns: the first side's
  // names, types widened, ops/expr_ops.h unionByPositionSchema), every row is cast to it;
  // without, rows pass as their side left them (sides of one schema).
  DataFrame unionAll(const DataFrame& other, std::optional<Schema> output = std::nullopt) const;
  DataStreamWriter writeStream() const;

  const std::vector<SourceFactory>& sources() const { return sources_; }
  // The reader of source i (its index when the DataFrame names none).
  int sourceReader(size_t i) const { return i < readers_.size() ? readers_[i] : static_cast<int>(i); }
  // The operators after this DataFrame's inputs (a leaf: after its sources).
  const std::vector<OperatorFactory>& operators() const { return operators_; }
  // A join's or union's inputs, each with its own operators; their sources, in order, are this
  // DataFrame's sources(). Empty: a leaf, whose input is its sources' rows concatenated.
  const std::vector<DataFrame>& inputs() const { return inputs_; }

 private:
  // A node over `inputs` (their sources and readers concatenated, readers renumbered).
  static DataFrame over(std::vector<DataFrame> inputs);

  std::vector<SourceFactory> sources_;
  std::vector<int> readers_;
  std::vector<OperatorFactory> operators_;
  std::vector<DataFrame> inputs_;
};

// One source (Spark's spark.readStream...load()). Several sources are rows concatenated in
// source order (a union), each with its own offsets column.
DataFrame readStream(SourceFactory source);
DataFrame readStream(std::vector<SourceFactory> sources);
// Sources with their readers (DataFrame's constructor): readers {0, 0} is reader.union(reader).
DataFrame readStream(std::vector<SourceFactory> sources, std::vector<int> readers);

class DataStreamWriter {
 public:
  explicit DataStreamWriter(DataFrame df) : df_(std::move(df)) {}
  DataStreamWriter& sink(SinkFactory sink);
  DataStreamWriter& outputMode(OutputMode mode);
  DataStreamWriter& trigger(Trigger trigger);
  DataStreamWriter& queryName(std::string name);
  // Spark 4.2's DataStreamWriter.name: the sink's name, recorded in commit log v3 with
  // spark.sql.streaming.queryEvolution.enableSinkEvolution.
  DataStreamWriter& name(std::string sinkName);
  // DataStreamReader.name of each source, in source order ("" for an unnamed one).
  DataStreamWriter& sourceNames(std::vector<std::string> names);
  // The user-defined functions the query's expressions call (expr/user_functions.h).
  DataStreamWriter& userFunctions(std::shared_ptr<const expr::UserFunctions> functions);
  // checkpointLocation, spark.sql.shuffle.partitions, stateStore (memory|rocksdb),
  // taskRetries, noDataMicroBatches.enabled, multipleWatermarkPolicy (min|max),
  // spark.sql.streaming.minBatchesToRetain (>= 1).
  DataStreamWriter& option(const std::string& key, const std::string& value);
  DataStreamWriter& options(QueryOptions options);
  const QueryOptions& queryOptions() const { return options_; }
  // Validates the options, opens the checkpoint and restores the sources (restart rules of
  // SEMANTICS.md §1). No batch runs yet: call processAllAvailable / triggerOnce / runBatches.
  Result<std::unique_ptr<StreamingQuery>> start(const Env& env) const;

 private:
  DataFrame df_;
  SinkFactory sink_;
  QueryOptions options_;
  Status option_error_;
};

class StreamingQuery {
 public:
  ~StreamingQuery();
  StreamingQuery(const StreamingQuery&) = delete;
  StreamingQuery& operator=(const StreamingQuery&) = delete;

  // One trigger at the clock's current time, without waiting: plans a batch and runs it when a
  // source has new data, an uncommitted batch must be re-run, or (noDataMicroBatches) an
  // operator needs a batch anyway. Returns whether a batch ran.
  Result<bool> triggerOnce();
  // Waits (on the Clock) for the trigger's next batch time, then triggerOnce(). For
  // ProcessingTime the first trigger of a run fires at once; an overrunning batch is followed
  // at once.
  Result<bool> awaitNextTrigger();
  // Runs triggers until one finds no new data (no-data batches only where the watermark moved).
  // With a source that has new rows at every trigger (rate-micro-batch) under a processing-time
  // trigger: the batches of the triggers that fell due since the last one (runDueTriggers).
  Status processAllAvailable();
  // Runs up to `n` triggers on the trigger's schedule, stopping early when one runs no batch.
  // Returns how many batches ran.
  Result<int> runBatches(int n);
  // AvailableNow / Once: runs to completion and stops. Other triggers: not allowed.
  Status awaitTermination();
  void stop();

  bool isActive() const { return active_; }
  const Status& exception() const { return error_; }
  // The last batch that ran in this run (nullptr before the first).
  const QueryProgress* lastProgress() const;
  const std::vector<QueryProgress>& recentProgress() const { return progress_; }
  // The id the next batch will get.
  int64_t nextBatchId() const { return next_batch_id_; }
  TimeMs currentWatermark() const { return watermark_; }
  const std::string& id() const { return query_id_; }
  const std::string& runId() const { return run_id_; }
  const QueryOptions& options() const { return options_; }

 private:
  friend class DataStreamWriter;
  StreamingQuery(const Env& env, DataFrame df, SinkFactory sink, QueryOptions options);
  Status open();
  // One trigger; a batch it plans is stamped `at` (default: the clock's now).
  Result<bool> runTrigger(bool allowTimeDrivenNoData, std::optional<TimeMs> at = std::nullopt);
  // processAllAvailable when a source has new rows at every trigger (Source::newRowsEveryTrigger).
  Status runDueTriggers();
  // Real-time mode (query/real_time_execution.cc): one long batch from the clock's now.
  Result<bool> runRealTimeTrigger();
  Status runRealTimeBatch(int64_t batchId, TimeMs startMs);
  // Whether a record is readable now beyond the committed offsets (processAllAvailable).
  Result<bool> realTimeHasBacklog();
  // The allowlist and configuration checks of real-time mode, on this run's instances, before
  // the checkpoint is touched; then, once the checkpoint is read, its format (v2).
  Status checkRealTimeQuery();
  Status checkRealTimeCheckpoint();
  Status runBatch(int64_t batchId, const std::vector<std::optional<std::string>>& start,
                  const std::vector<std::optional<std::string>>& end, TimeMs batchTimestampMs,
                  TimeMs lateWatermark, TimeMs evictionWatermark, bool rerun);
  Status fail(Status st);
  // The steps of a batch both execution paths share: offsets/N (with its fault points), the
  // watermark update from the batch's event times, commits/N, and the bookkeeping after it.
  Status writeOffsets(int64_t batchId, const std::vector<std::optional<std::string>>& end,
                      TimeMs batchTimestampMs, TimeMs evictionWatermark);
  void advanceWatermark(const BatchContext& ctx, QueryProgress& progress, TimeMs evictionWatermark);
  Status writeCommit(int64_t batchId);
  void finishBatch(int64_t batchId, const std::vector<std::optional<std::string>>& end,
                   TimeMs evictionWatermark, BatchContext& ctx, QueryProgress progress);
  // Spark's purge in constructNextBatch: keeps offsets/commits of the last minBatchesToRetain
  // batches before `batchId` (and batch `batchId` itself).
  Status purgeLogs(int64_t batchId);
  void trace(const std::string& json) const;
  // The folder name of source i under sources/ when it is not its index: its name under source
  // evolution (SourceContext::sourceName).
  std::string sourceName(size_t i) const;

  Env env_;
  DataFrame df_;
  SinkFactory sink_factory_;
  QueryOptions options_;

  std::vector<std::unique_ptr<Source>> sources_;
  // Every operator of the plan, inputs' before their node's (plan order: state/<id>/ and
  // withWatermark ids follow it), and the plan's nodes in that order, the root last.
  std::vector<std::unique_ptr<Operator>> operators_;
  struct PlanNode {
    size_t firstSource = 0, numSources = 0;
    std::vector<size_t> inputs;  // indices into plan_; empty: the sources' rows
    size_t opBegin = 0, opEnd = 0;
  };
  std::vector<PlanNode> plan_;
  size_t addPlanNode(const DataFrame& df, size_t firstSource);
  struct WatermarkScope;  // streaming_query.cc
  // Starts node `node`'s operators, its inputs' first; `scope` ends as the node's output's.
  Status startPlanNode(size_t node, int& statefulId, WatermarkScope& scope);
  // Runs node `node` on the batch's rows per source (its inputs first).
  Result<std::vector<Row>> runPlanNode(size_t node, std::vector<std::vector<Row>>& sourceRows, BatchContext& ctx);
  std::unique_ptr<Sink> sink_;
  std::unique_ptr<StateStoreProvider> state_stores_;
  std::map<std::string, std::string> conf_;

  std::string query_id_;
  std::string run_id_;
  bool active_ = false;
  bool started_batches_ = false;
  bool first_trigger_ = true;
  bool available_now_done_ = false;
  TimeMs last_trigger_time_ = 0;
  // The timestamp of the latest batch planned (offsets/N's batchTimestampMs; read back on a
  // restart): where runDueTriggers' trigger schedule goes on from.
  std::optional<TimeMs> last_planned_timestamp_;
  Status error_;

  int64_t next_batch_id_ = 0;
  // End offsets of the last committed batch, per source (nullopt: none yet).
  std::vector<std::optional<std::string>> committed_offsets_;
  // A batch whose offsets were written but which has no commit: re-run before anything else.
  struct PendingRerun {
    int64_t batchId;
    std::vector<std::optional<std::string>> end;
    TimeMs timestamp;
    TimeMs watermark;
  };
  std::optional<PendingRerun> pending_rerun_;
  TimeMs watermark_ = 0;           // the eviction watermark the next batch will use
  TimeMs last_batch_watermark_ = 0;  // the watermark the last batch ran with (late filter)
  std::vector<std::optional<TimeMs>> operator_watermarks_;  // per withWatermark operator, in plan order
  std::vector<QueryProgress> progress_;
  // Every offsets/ and commits/ file below this batch id is already purged in this run
  // (nullopt: no purge yet, the first one lists the folders as Spark does).
  std::optional<int64_t> purged_below_;
  // Spark 4.2 (query/query_evolution.h): each source's id in offsets v2, the offsets format this
  // checkpoint writes, and the sinks the last v3 commit recorded.
  std::vector<std::string> source_ids_;
  int offsets_version_ = 1;
  std::vector<SinkMetadataInfo> sinks_;
};

}  // namespace streamsim

// GroupedData and the transformWithState options of DataFrame::groupBy.
#include "streamsim/dataframe_ops.h"  // IWYU pragma: export
