// The micro-batch loop (SEMANTICS.md §1, §4, §5; Spark's MicroBatchExecution and
// WatermarkTracker). One batch: plan (sources pick data, the file source logs its files) ->
// offsets/N -> sources told the previous batch is done -> operators (state committed per
// partition) -> sink -> watermark update -> commits/N.
#include <algorithm>
#include <charconv>

#include "streamsim/checkpoint/checkpoint_metadata.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/fault_points.h"
#include "streamsim/query.h"
#include "streamsim/trace_events.h"

#include "query/query_evolution.h"
#include "real_time_execution.h"

namespace streamsim {
namespace {

constexpr const char* kShufflePartitionsConf = "spark.sql.shuffle.partitions";
constexpr const char* kStateStoreProviderConf = "spark.sql.streaming.stateStore.providerClass";
constexpr const char* kWatermarkPolicyConf = "spark.sql.streaming.multipleWatermarkPolicy";
constexpr const char* kCheckpointFormatVersionConf = "spark.sql.streaming.stateStore.checkpointFormatVersion";
constexpr const char* kSourceEvolutionConf = "spark.sql.streaming.queryEvolution.enableSourceEvolution";

std::string offsetText(const std::optional<std::string>& o) { return o ? *o : std::string(); }

}  // namespace

StreamingQuery::StreamingQuery(const Env& env, DataFrame df, SinkFactory sink, QueryOptions options)
    : env_(env), df_(std::move(df)), sink_factory_(std::move(sink)), options_(std::move(options)) {}

StreamingQuery::~StreamingQuery() = default;

std::string StreamingQuery::sourceName(size_t i) const {
  return i < source_ids_.size() && source_ids_[i] != std::to_string(i) ? source_ids_[i] : std::string();
}

void StreamingQuery::trace(const std::string& json) const {
  if (env_.trace != nullptr) env_.trace->event(json);
}

Status StreamingQuery::fail(Status st) {
  if (!st.ok()) {
    error_ = st;
    if (active_) {
      for (auto& op : operators_) op->stop();
      active_ = false;
    }
    if (env_.trace != nullptr)
      trace(TraceEvent(events::kQueryFailed, next_batch_id_).add("error", st.toString()).done());
  }
  return st;
}

size_t StreamingQuery::addPlanNode(const DataFrame& df, size_t firstSource) {
  PlanNode node;
  node.firstSource = firstSource;
  node.numSources = df.sources().size();
  size_t next = firstSource;
  for (const DataFrame& in : df.inputs()) {
    node.inputs.push_back(addPlanNode(in, next));
    next += in.sources().size();
  }
  node.opBegin = operators_.size();
  for (const auto& f : df.operators()) operators_.push_back(f());
  node.opEnd = operators_.size();
  plan_.push_back(std::move(node));
  return plan_.size() - 1;
}

// What the operators of a plan node learn of the watermarks upstream of them
// (OperatorStartContext): the column the latest withWatermark names (or the output column that
// carries it on), its delay, and every watermarked column. A node with inputs starts from all of
// theirs (a join finds each side's watermarked column among them); the first input's event-time
// column carries on, as WatermarkSupport.findEventTimeColumn finds the first in the join's
// output, and a union's output columns are its first child's.
struct StreamingQuery::WatermarkScope {
  std::string eventTimeColumn;
  DurationMs delay = 0;
  std::vector<std::string> watermarkColumns;
  bool aggregated = false;  // a streaming aggregation ran upstream
};

Status StreamingQuery::startPlanNode(size_t node, int& statefulId, WatermarkScope& scope) {
  const PlanNode& n = plan_[node];
  if (!n.inputs.empty()) {
    WatermarkScope merged;
    for (size_t in : n.inputs) {
      WatermarkScope side;
      STREAMSIM_RETURN_IF_ERROR(startPlanNode(in, statefulId, side));
      if (!side.eventTimeColumn.empty() && merged.eventTimeColumn.empty()) {
        merged.eventTimeColumn = side.eventTimeColumn;
        merged.delay = side.delay;
      }
      merged.watermarkColumns.insert(merged.watermarkColumns.end(), side.watermarkColumns.begin(),
                                     side.watermarkColumns.end());
      merged.aggregated = merged.aggregated || side.aggregated;
    }
    scope = std::move(merged);
  }
  for (size_t i = n.opBegin; i < n.opEnd; ++i) {
    Operator* op = operators_[i].get();
    OperatorStartContext octx;
    octx.env = &env_;
    octx.checkpointRoot = options_.checkpointLocation;
    octx.planIndex = static_cast<int>(i);
    octx.shufflePartitions = options_.shufflePartitions;
    octx.outputMode = options_.outputMode;
    octx.stateStores = state_stores_.get();
    octx.eventTimeColumn = scope.eventTimeColumn;
    octx.watermarkDelayMs = scope.delay;
    octx.watermarkColumns = scope.watermarkColumns;
    octx.sqlConf = options_.sqlConf;
    octx.runId = run_id_;
    octx.afterStreamingAggregation = scope.aggregated;
    octx.operatorId = op->isStatefulIn(octx) ? statefulId++ : -1;
    STREAMSIM_RETURN_IF_ERROR(op->start(octx).withContext(op->name()));
    scope.aggregated = scope.aggregated || op->isStreamingAggregation();
    if (auto wm = op->watermark()) {
      scope.eventTimeColumn = wm->first;
      scope.delay = wm->second;
      scope.watermarkColumns.push_back(wm->first);
      operator_watermarks_.push_back(std::nullopt);  // not seen in this run
    } else if (auto out = op->outputEventTimeColumn(); out && !scope.eventTimeColumn.empty()) {
      scope.eventTimeColumn = *out;  // the watermark now rides on this output column
    }
  }
  return Status::OK();
}

Result<std::vector<Row>> StreamingQuery::runPlanNode(size_t node, std::vector<std::vector<Row>>& sourceRows,
                                                     BatchContext& ctx) {
  const PlanNode& n = plan_[node];
  std::vector<Row> rows;
  std::vector<int64_t> counts;
  auto append = [&rows](std::vector<Row>&& more) {
    if (rows.empty()) rows = std::move(more);
    else rows.insert(rows.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  };
  if (n.inputs.empty()) {
    for (size_t i = n.firstSource; i < n.firstSource + n.numSources; ++i) {
      counts.push_back(static_cast<int64_t>(sourceRows[i].size()));
      append(std::move(sourceRows[i]));
    }
  } else {
    for (size_t in : n.inputs) {
      STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> out, runPlanNode(in, sourceRows, ctx));
      counts.push_back(static_cast<int64_t>(out.size()));
      append(std::move(out));
    }
  }
  // What this node's operators see: the rows each of its inputs gave (a join's sides).
  ctx.sourceRowCounts = std::move(counts);
  for (size_t i = n.opBegin; i < n.opEnd; ++i) {
    auto out = operators_[i]->process(std::move(rows), ctx);
    if (!out.ok()) return out.status().withContext(fmt::format("batch {}: {}", ctx.batchId, operators_[i]->name()));
    rows = std::move(*out);
  }
  return rows;
}

Status StreamingQuery::open() {
  const std::string& root = options_.checkpointLocation;
  // Fresh sources, operators and sink for this run (restored and started below). A real-time
  // query they do not fit is refused before anything is written to the checkpoint.
  for (const auto& f : df_.sources()) sources_.push_back(f());
  addPlanNode(df_, 0);
  sink_ = sink_factory_();
  if (options_.trigger.kind == Trigger::Kind::kRealTime) STREAMSIM_RETURN_IF_ERROR(checkRealTimeQuery());
  // Spark 4.2's source and sink names: refused at analysis, before the checkpoint is touched.
  STREAMSIM_RETURN_IF_ERROR(detail::checkQueryEvolution(options_, sources_.size()));
  source_ids_ = detail::sourceIds(options_, sources_.size());
  // A new checkpoint's offsets format: v2 when asked for, and always under source evolution
  // (SPARK-56968); an existing checkpoint keeps the format of its latest offsets file.
  offsets_version_ = options_.sourceEvolution ? 2 : options_.offsetLogFormatVersion;
  STREAMSIM_RETURN_IF_ERROR(env_.fs->mkdirs(root).withContext("creating the checkpoint folder"));

  // metadata: the query id, written once.
  STREAMSIM_ASSIGN_OR_RETURN(auto meta, readStreamMetadata(env_, root));
  if (meta) {
    query_id_ = meta->id;
  } else {
    query_id_ = env_.ids->newUuid();
    STREAMSIM_RETURN_IF_ERROR(writeStreamMetadata(env_, root, StreamMetadata{query_id_}));
  }
  run_id_ = env_.ids->newUuid();

  // The restart rules (populateStartOffsets).
  OffsetLog offsets(env_, root);
  CommitLog commits(env_, root);
  STREAMSIM_ASSIGN_OR_RETURN(auto offsetIds, offsets.listBatchIds());
  STREAMSIM_ASSIGN_OR_RETURN(auto commitIds, commits.listBatchIds());
  for (size_t i = 1; i < offsetIds.size(); ++i) {
    if (offsetIds[i] != offsetIds[i - 1] + 1)
      return Status::FailedPrecondition(fmt::format(
          "the offsets log in {} has a gap: offsets/{} is followed by offsets/{} (batch ids in a "
          "log must be contiguous; the checkpoint is damaged — SPARK-38033)",
          root, offsetIds[i - 1], offsetIds[i]));
  }
  if (!commitIds.empty()) {
    // The sinks the latest v3 commit names (MicroBatchExecution hydrates sinkMetadataMap from it).
    STREAMSIM_ASSIGN_OR_RETURN(auto lastCommit, commits.get(commitIds.back()));
    if (lastCommit && lastCommit->formatVersion >= 3) sinks_ = lastCommit->sinks;
  }
  size_t numSources = df_.sources().size();
  committed_offsets_.assign(numSources, std::nullopt);
  if (offsetIds.empty()) {
    if (!commitIds.empty())
      return Status::FailedPrecondition(fmt::format(
          "{} has commits/{} but no offsets at all: the checkpoint is damaged", root, commitIds.back()));
  } else {
    int64_t latest = offsetIds.back();
    std::optional<int64_t> latestCommit;
    if (!commitIds.empty()) latestCommit = commitIds.back();
    if (latestCommit && *latestCommit > latest)
      return Status::FailedPrecondition(fmt::format(
          "{} has commits/{} but the offsets log ends at offsets/{}: the checkpoint is damaged",
          root, *latestCommit, latest));
    // Real time: offsets/N without commits/N is deleted and batch N planned afresh from the
    // last committed offsets (MicroBatchExecution.initializeExecution for a RealTimeTrigger,
    // StreamRealTimeModeSuite "purge offsetLog when it doesn't match with the commit log"):
    // the re-run reads for a whole new batch duration and writes its records again.
    if (options_.trigger.kind == Trigger::Kind::kRealTime && (!latestCommit || *latestCommit < latest) &&
        ((latestCommit && *latestCommit == latest - 1) || (!latestCommit && latest == 0))) {
      STREAMSIM_RETURN_IF_ERROR(offsets.purgeRange(latest, latest + 1)
                                    .withContext(fmt::format("purging offsets/{} (no commits/{})", latest, latest)));
      offsetIds.pop_back();
      if (offsetIds.empty()) latest = -1; else latest = offsetIds.back();
    }
    if (latest < 0) {
      next_batch_id_ = 0;
    } else {
      STREAMSIM_ASSIGN_OR_RETURN(auto latestSeq, offsets.get(latest));
      if (!latestSeq) return Status::NotFound(fmt::format("offsets/{} vanished while reading", latest));
      STREAMSIM_ASSIGN_OR_RETURN(
          auto latestOffsets,
          detail::offsetsForSources(*latestSeq, source_ids_, fmt::format("offsets/{} in {}", latest, root)));
      offsets_version_ = latestSeq->formatVersion;
      conf_ = latestSeq->metadata.conf;
      last_planned_timestamp_ = latestSeq->metadata.batchTimestampMs;
      if (latestCommit && *latestCommit == latest) {
        // Resume after the last commit.
        STREAMSIM_ASSIGN_OR_RETURN(auto c, commits.get(latest));
        next_batch_id_ = latest + 1;
        committed_offsets_ = latestOffsets;
        last_batch_watermark_ = latestSeq->metadata.batchWatermarkMs;
        watermark_ = std::max(latestSeq->metadata.batchWatermarkMs,
                              c && c->nextBatchWatermarkMs ? *c->nextBatchWatermarkMs : 0);
      } else if ((latestCommit && *latestCommit == latest - 1) || (!latestCommit && latest == 0)) {
        // offsets/N without commits/N: re-run batch N with the same offsets, timestamp and
        // watermark.
        TimeMs prevWatermark = 0;
        if (latest > 0) {
          STREAMSIM_ASSIGN_OR_RETURN(auto prev, offsets.get(latest - 1));
          if (!prev)
            return Status::FailedPrecondition(fmt::format(
                "offsets/{} has no commit and offsets/{} is missing in {}", latest, latest - 1, root));
          STREAMSIM_ASSIGN_OR_RETURN(
              committed_offsets_,
              detail::offsetsForSources(*prev, source_ids_, fmt::format("offsets/{} in {}", latest - 1, root)));
          prevWatermark = prev->metadata.batchWatermarkMs;
        }
        next_batch_id_ = latest;
        last_batch_watermark_ = prevWatermark;
        watermark_ = latestSeq->metadata.batchWatermarkMs;
        pending_rerun_ = PendingRerun{latest, latestOffsets, latestSeq->metadata.batchTimestampMs,
                                      latestSeq->metadata.batchWatermarkMs};
      } else {
        return Status::FailedPrecondition(fmt::format(
            "{}: offsets/{} exists but the commit log ends at {} — batches between them were never "
            "committed, so the checkpoint cannot be resumed safely (SPARK-38033); expected "
            "commits/{} to exist",
            root, latest, latestCommit ? fmt::format("commits/{}", *latestCommit) : "nothing",
            latest - 1));
      }
    }
  }
  // A checkpoint's recorded configuration wins over the new one, as in Spark.
  const bool resumed = !conf_.empty() || next_batch_id_ > 0 || pending_rerun_.has_value();
  if (auto it = conf_.find(kShufflePartitionsConf); it != conf_.end()) {
    const std::string& v = it->second;
    int n = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || end != v.data() + v.size() || n < 1 || n > kMaxShufflePartitions)
      return Status::Corruption(fmt::format(
          "{}/offsets: the recorded conf {} is '{}'; expected a whole number from 1 to {}", root,
          kShufflePartitionsConf, v, kMaxShufflePartitions));
    options_.shufflePartitions = n;
  }
  conf_[kShufflePartitionsConf] = std::to_string(options_.shufflePartitions);
  conf_[kStateStoreProviderConf] =
      options_.stateStore.kind == StateStoreKind::kRocksDB
          ? "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
          : "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
  // The watermark policy a checkpoint recorded wins, and one that recorded none ran with Spark's
  // default, min (OffsetSeqMetadata.setSessionConf / relevantSQLConfDefaultValues).
  if (resumed) {
    auto it = conf_.find(kWatermarkPolicyConf);
    const std::string recorded = it == conf_.end() ? "min" : it->second;
    if (recorded != "min" && recorded != "max")
      return Status::Corruption(fmt::format("{}/offsets: the recorded conf {} is '{}'; expected min or max", root,
                                            kWatermarkPolicyConf, recorded));
    options_.multipleWatermarkPolicy = recorded == "min" ? WatermarkPolicy::kMin : WatermarkPolicy::kMax;
  }
  conf_[kWatermarkPolicyConf] = options_.multipleWatermarkPolicy == WatermarkPolicy::kMin ? "min" : "max";
  for (const auto& op : operators_)
    for (auto& [key, value] : op->offsetsConf()) conf_.emplace(key, value);
  if (options_.checkpointFormatVersion)
    conf_[kCheckpointFormatVersionConf] = std::to_string(*options_.checkpointFormatVersion);
  // Spark persists the enforcement conf in the offsets metadata (StreamingSourceEvolutionSuite
  // "enforcement config is persisted in offset metadata").
  if (options_.sourceEvolution) conf_[kSourceEvolutionConf] = "true";

  // StateStoreConf.minVersionsToRetain is minBatchesToRetain in Spark too.
  options_.stateStore.minVersionsToRetain = options_.minBatchesToRetain;
  state_stores_ = makeStateStoreProvider(env_, options_.stateStore);
  // A region id as the session time zone: its rules come through the Env (time_zone.h).
  STREAMSIM_RETURN_IF_ERROR(options_.sqlConf.resolveTimeZone(env_.timeZones));

  for (size_t i = 0; i < sources_.size(); ++i) {
    SourceContext sctx{&env_, root, static_cast<int>(i), next_batch_id_, true,
                       options_.trigger.kind == Trigger::Kind::kAvailableNow, sourceName(i)};
    STREAMSIM_RETURN_IF_ERROR(sources_[i]->restore(sctx, committed_offsets_[i])
                                  .withContext(sources_[i]->description()));
  }
  int statefulId = 0;
  WatermarkScope scope;
  STREAMSIM_RETURN_IF_ERROR(startPlanNode(plan_.size() - 1, statefulId, scope));
  SinkContext skctx{&env_, next_batch_id_, options_.outputMode, root};
  STREAMSIM_RETURN_IF_ERROR(sink_->start(skctx).withContext(sink_->description()));

  if (options_.trigger.kind == Trigger::Kind::kRealTime) STREAMSIM_RETURN_IF_ERROR(checkRealTimeCheckpoint());
  active_ = true;
  if (env_.trace != nullptr)
    trace(TraceEvent(events::kQueryStarted)
              .add("nextBatch", next_batch_id_)
              .add("rerun", pending_rerun_.has_value())
              .add("watermark", watermark_)
              .done());
  return Status::OK();
}

Result<bool> StreamingQuery::triggerOnce() {
  last_trigger_time_ = env_.clock->nowMs();
  first_trigger_ = false;
  return runTrigger(/*allowTimeDrivenNoData=*/true);
}

Result<bool> StreamingQuery::awaitNextTrigger() {
  if (!first_trigger_) env_.clock->sleepUntil(options_.trigger.nextBatchTime(last_trigger_time_));
  return triggerOnce();
}

Result<bool> StreamingQuery::runTrigger(bool allowTimeDrivenNoData, std::optional<TimeMs> at) {
  if (!active_)
    return Status::FailedPrecondition(
        error_.ok() ? std::string("the query is stopped") : "the query has failed: " + error_.toString());
  if (options_.trigger.kind == Trigger::Kind::kRealTime) return runRealTimeTrigger();
  if (pending_rerun_) {
    PendingRerun r = *pending_rerun_;
    pending_rerun_.reset();
    STREAMSIM_RETURN_IF_ERROR(fail(runBatch(r.batchId, committed_offsets_, r.end, r.timestamp,
                                            last_batch_watermark_, r.watermark, /*rerun=*/true)));
    return true;
  }
  if (available_now_done_) return false;

  // Plan.
  TimeMs now = at ? *at : env_.clock->nowMs();
  std::vector<std::optional<std::string>> end(sources_.size());
  bool hasNewData = false;
  for (size_t i = 0; i < sources_.size(); ++i) {
    SourceContext sctx{&env_, options_.checkpointLocation, static_cast<int>(i), next_batch_id_,
                       !started_batches_, options_.trigger.kind == Trigger::Kind::kAvailableNow, sourceName(i)};
    auto latest = sources_[i]->latestOffset(sctx, committed_offsets_[i]);
    if (!latest.ok()) return fail(latest.status().withContext(sources_[i]->description()));
    end[i] = *latest;
    if (end[i] && end[i] != committed_offsets_[i]) hasNewData = true;
  }
  started_batches_ = true;
  bool watermarkMoved = watermark_ > last_batch_watermark_;
  bool noData = false;
  if (!hasNewData && options_.noDataMicroBatches && next_batch_id_ > 0) {
    for (const auto& op : operators_) {
      if (op->needsNoDataBatch(watermark_, watermarkMoved) && (allowTimeDrivenNoData || watermarkMoved)) {
        noData = true;
        break;
      }
    }
    if (noData && progress_.empty() && !options_.noDataBatchBeforeFirstBatchOfRun) {
      // Spark's constructNextBatch asks the previous batch of this run (lastExecution) for a
      // no-data batch: right after a (re)start none ran (a re-run counts), so due timers, TTL
      // cleanup and the watermark's follow-up batch wait for new data. Traced: a reference run
      // repeats the restart (harness/run/clean_restarts.h).
      noData = false;
      if (env_.trace != nullptr)
        trace(TraceEvent(events::kNoDataBatchWithheld).add("batch", next_batch_id_).done());
    }
  }
  if (!hasNewData && !noData) {
    if (options_.trigger.kind == Trigger::Kind::kAvailableNow) available_now_done_ = true;
    return false;
  }
  for (size_t i = 0; i < end.size(); ++i)
    if (!end[i]) end[i] = committed_offsets_[i];
  STREAMSIM_RETURN_IF_ERROR(fail(runBatch(next_batch_id_, committed_offsets_, end, now,
                                          last_batch_watermark_, watermark_, /*rerun=*/false)));
  return true;
}

Status StreamingQuery::runBatch(int64_t batchId, const std::vector<std::optional<std::string>>& start,
                                const std::vector<std::optional<std::string>>& end,
                                TimeMs batchTimestampMs, TimeMs lateWatermark,
                                TimeMs evictionWatermark, bool rerun) {
  const std::string& root = options_.checkpointLocation;
  FaultContext fctx{batchId, -1, -1, ""};
  if (env_.trace != nullptr) {  // no JSON built without a trace sink
    trace(TraceEvent(events::kBatchPlanned, batchId)
              .add("rerun", rerun)
              .add("timestamp", batchTimestampMs)
              .add("watermark", evictionWatermark)
              .done());
  }

  // offsets/N before any processing.
  if (!rerun) STREAMSIM_RETURN_IF_ERROR(writeOffsets(batchId, end, batchTimestampMs, evictionWatermark));
  last_planned_timestamp_ = batchTimestampMs;

  // The previous batch is done: sources may clean up (cleanSource).
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (!start[i]) continue;
    SourceContext sctx{&env_, root, static_cast<int>(i), batchId, false,
                       options_.trigger.kind == Trigger::Kind::kAvailableNow, sourceName(i)};
    STREAMSIM_RETURN_IF_ERROR(sources_[i]->commit(sctx, *start[i]).withContext(sources_[i]->description()));
  }
  // Then, as Spark's constructNextBatch, old log entries go. A re-run batch was constructed by
  // the run that crashed, so it purges nothing (Spark skips constructNextBatch for it too).
  if (!rerun) STREAMSIM_RETURN_IF_ERROR(purgeLogs(batchId));

  // Read the batch's input.
  QueryProgress progress;
  progress.id = query_id_;
  progress.runId = run_id_;
  progress.batchId = batchId;
  progress.timestamp = batchTimestampMs;
  progress.rerun = rerun;
  std::vector<std::vector<Row>> sourceRows(sources_.size());
  for (size_t i = 0; i < sources_.size(); ++i) {
    SourceProgress sp;
    sp.description = sources_[i]->description();
    sp.startOffset = offsetText(start[i]);
    sp.endOffset = offsetText(end[i]);
    if (end[i] && end[i] != start[i]) {
      SourceContext sctx{&env_, root, static_cast<int>(i), batchId, false,
                         options_.trigger.kind == Trigger::Kind::kAvailableNow, sourceName(i)};
      auto batch = sources_[i]->getBatch(sctx, start[i], *end[i]);
      if (!batch.ok()) return batch.status().withContext(fmt::format("batch {}: {}", batchId, sp.description));
      sp.numInputRows = static_cast<int64_t>(batch->size());
      sourceRows[i] = std::move(*batch);
    }
    progress.numInputRows += sp.numInputRows;
    progress.sources.push_back(std::move(sp));
  }
  if (env_.trace != nullptr) {
    trace(TraceEvent(events::kInput, batchId).add("rows", progress.numInputRows).done());
  }

  // Run the operators.
  BatchContext ctx;
  ctx.env = &env_;
  ctx.checkpointRoot = root;
  ctx.query = QueryInfo{query_id_, run_id_, batchId};
  ctx.batchId = batchId;
  ctx.batchTimestampMs = batchTimestampMs;
  ctx.lateWatermarkMs = lateWatermark;
  ctx.evictionWatermarkMs = evictionWatermark;
  ctx.hasWatermark = !operator_watermarks_.empty();
  ctx.shufflePartitions = options_.shufflePartitions;
  ctx.taskRetries = options_.taskRetries;
  ctx.stateStores = state_stores_.get();
  ctx.outputMode = options_.outputMode;
  ctx.traceOutputRows = options_.traceOutputRows;
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> rows, runPlanNode(plan_.size() - 1, sourceRows, ctx));

  // The sink adds batch N.
  SinkContext skctx{&env_, batchId, options_.outputMode, root};
  STREAMSIM_RETURN_IF_ERROR(sink_->addBatch(skctx, rows).withContext(fmt::format("batch {}: {}", batchId, sink_->description())));
  progress.numOutputRows = static_cast<int64_t>(rows.size());
  if (env_.trace != nullptr) {
    trace(TraceEvent(events::kSinkWrite, batchId).add("rows", progress.numOutputRows).done());
  }

  advanceWatermark(ctx, progress, evictionWatermark);
  STREAMSIM_RETURN_IF_ERROR(writeCommit(batchId));
  finishBatch(batchId, end, evictionWatermark, ctx, std::move(progress));
  return Status::OK();
}

Status StreamingQuery::writeOffsets(int64_t batchId, const std::vector<std::optional<std::string>>& end,
                                    TimeMs batchTimestampMs, TimeMs evictionWatermark) {
  const std::string& root = options_.checkpointLocation;
  FaultContext fctx{batchId, -1, -1, ""};
  STREAMSIM_RETURN_IF_ERROR(passFaultPoint(env_, faults::kOffsetsBeforeWrite, fctx));
  OffsetSeq seq;
  seq.metadata.batchWatermarkMs = evictionWatermark;
  seq.metadata.batchTimestampMs = batchTimestampMs;
  seq.metadata.conf = conf_;
  seq.formatVersion = offsets_version_;
  detail::setSourceOffsets(seq, source_ids_, end);
  OffsetLog offsets(env_, root);
  STREAMSIM_ASSIGN_OR_RETURN(bool written, offsets.add(batchId, seq));
  if (!written)
    return Status::FailedPrecondition(fmt::format(
        "offsets/{} already exists in {}: another run is using this checkpoint (SPARK-26425)",
        batchId, root));
  if (env_.trace != nullptr) {
    trace(TraceEvent(events::kOffsetsWritten, batchId).done());
  }
  return passFaultPoint(env_, faults::kOffsetsAfterWrite, fctx);
}

void StreamingQuery::advanceWatermark(const BatchContext& ctx, QueryProgress& progress,
                                      TimeMs evictionWatermark) {
  // Update the watermark from this batch's event times (applies from the next batch).
  size_t w = 0;
  EventTimeStats& et = progress.eventTime;
  et.watermark = evictionWatermark;
  int64_t etCount = 0;
  double etSum = 0;
  for (size_t i = 0; i < operators_.size(); ++i) {
    auto wm = operators_[i]->watermark();
    if (!wm) continue;
    auto it = ctx.eventTimes.find(static_cast<int>(i));
    if (it != ctx.eventTimes.end() && it->second.count > 0) {
      const auto& obs = it->second;
      TimeMs candidate = obs.max - wm->second;
      if (!operator_watermarks_[w] || candidate > *operator_watermarks_[w]) operator_watermarks_[w] = candidate;
      et.min = et.min ? std::min(*et.min, obs.min) : obs.min;
      et.max = et.max ? std::max(*et.max, obs.max) : obs.max;
      etCount += obs.count;
      etSum += obs.sum;
    }
    ++w;
  }
  if (etCount > 0) et.avg = etSum / static_cast<double>(etCount);
  if (!operator_watermarks_.empty()) {
    // WatermarkTracker.updateWatermark: an operator that saw no data in this run counts as 0.
    std::vector<TimeMs> values;
    for (const auto& v : operator_watermarks_) values.push_back(v.value_or(0));
    TimeMs chosen = options_.multipleWatermarkPolicy == WatermarkPolicy::kMin
                        ? *std::min_element(values.begin(), values.end())
                        : *std::max_element(values.begin(), values.end());
    if (chosen > watermark_) watermark_ = chosen;
  }
}

Status StreamingQuery::writeCommit(int64_t batchId) {
  // commits/N after everything.
  const std::string& root = options_.checkpointLocation;
  FaultContext fctx{batchId, -1, -1, ""};
  STREAMSIM_RETURN_IF_ERROR(passFaultPoint(env_, faults::kCommitsBeforeWrite, fctx));
  CommitLog commits(env_, root);
  CommitMetadata cm;
  cm.nextBatchWatermarkMs = watermark_;
  if (options_.sinkEvolution) {
    // Spark 4.2 (SPARK-56972): commit log v3 naming the sink, earlier sinks kept inactive.
    cm.formatVersion = 3;
    SinkMetadataInfo active;
    active.sinkName = options_.sinkName;
    active.providerName = sink_->sparkClassName();
    active.apiVersion = sink_->sparkApiVersion();
    cm.sinks = detail::nextSinks(sinks_, std::move(active));
  }
  STREAMSIM_ASSIGN_OR_RETURN(bool committed, commits.add(batchId, cm));
  if (committed && cm.formatVersion >= 3) sinks_ = cm.sinks;
  if (!committed)
    return Status::FailedPrecondition(fmt::format(
        "commits/{} already exists in {}: another run is using this checkpoint (SPARK-26425)", batchId, root));
  if (env_.trace != nullptr) {
    trace(TraceEvent(events::kCommit, batchId).add("nextWatermark", watermark_).done());
  }
  return passFaultPoint(env_, faults::kCommitsAfterWrite, fctx);
}

void StreamingQuery::finishBatch(int64_t batchId, const std::vector<std::optional<std::string>>& end,
                                 TimeMs evictionWatermark, BatchContext& ctx, QueryProgress progress) {
  for (const auto& s : ctx.stateProgress) progress.numRowsDroppedByWatermark += s.numRowsDroppedByWatermark;
  progress.stateOperators = std::move(ctx.stateProgress);
  committed_offsets_ = end;
  last_batch_watermark_ = evictionWatermark;
  next_batch_id_ = batchId + 1;
  // Formatted only for a trace sink: the progress JSON is the costliest event of a batch.
  if (env_.trace != nullptr)
    trace(TraceEvent(events::kProgress).addJson("progress", progress.toJson()).done());
  progress_.push_back(std::move(progress));
  if (progress_.size() > 1000) progress_.erase(progress_.begin(), progress_.begin() + 500);
}

Status StreamingQuery::purgeLogs(int64_t batchId) {
  const int64_t keep = options_.minBatchesToRetain;
  if (keep >= batchId) return Status::OK();
  // Exclusive: batches < threshold go, so offsets keep threshold..batchId (keep + 1 files, the
  // running batch included) and commits threshold..batchId-1.
  const int64_t threshold = batchId - keep;
  if (purged_below_ && *purged_below_ >= threshold) return Status::OK();
  OffsetLog offsets(env_, options_.checkpointLocation);
  CommitLog commits(env_, options_.checkpointLocation);
  if (!purged_below_) {
    // The first purge of a run lists the folders (HDFSMetadataLog.purge): a checkpoint written
    // with a larger minBatchesToRetain, or by Spark, may hold anything below the threshold.
    STREAMSIM_RETURN_IF_ERROR(offsets.purge(threshold).status());
    STREAMSIM_RETURN_IF_ERROR(commits.purge(threshold).status());
  } else {
    // Later ones delete by name what became old since: this run is the only writer and the
    // ids are contiguous, so that is exactly what a listing would find.
    STREAMSIM_RETURN_IF_ERROR(offsets.purgeRange(*purged_below_, threshold));
    STREAMSIM_RETURN_IF_ERROR(commits.purgeRange(*purged_below_, threshold));
  }
  purged_below_ = threshold;
  if (env_.trace != nullptr)
    trace(TraceEvent(events::kLogsPurged).add("batch", batchId).add("below", threshold).done());
  return Status::OK();
}

Status StreamingQuery::processAllAvailable() {
  first_trigger_ = false;
  const bool endless = std::any_of(sources_.begin(), sources_.end(),
                                   [](const auto& s) { return s->newRowsEveryTrigger(); });
  if (endless && (options_.trigger.kind == Trigger::Kind::kProcessingTime ||
                  options_.trigger.kind == Trigger::Kind::kDefault))
    return runDueTriggers();
  for (int guard = 0; guard < 1000000; ++guard) {
    last_trigger_time_ = env_.clock->nowMs();
    if (options_.trigger.kind == Trigger::Kind::kRealTime && active_ && !pending_rerun_) {
      // A long batch always runs; "available" = records readable now beyond the commit.
      auto backlog = realTimeHasBacklog();
      if (!backlog.ok()) return fail(backlog.status());
      if (!*backlog) return Status::OK();
    }
    auto ran = runTrigger(/*allowTimeDrivenNoData=*/false);
    if (!ran.ok()) return ran.status();
    if (!*ran) return Status::OK();
  }
  return Status::Aborted("processAllAvailable ran a million batches without draining the sources");
}

// A source with new rows at every trigger (rate-micro-batch) never runs dry: Spark's
// processAllAvailable would wait forever. "Available" is then what Spark's trigger loop would
// have run while the clock moved to now: a pending re-run, then one batch per trigger time since
// the last planned batch's (ProcessingTimeExecutor's schedule; with a zero interval, one batch when
// the clock moved), each stamped with its trigger time. The schedule follows the planned batches,
// so how many batches exist by a given time does not depend on crashes and restarts between them
// (Spark's loop also fires at once after a restart: the batch comes at its trigger time here).
Status StreamingQuery::runDueTriggers() {
  constexpr int64_t kMostDueTriggers = 100000;
  const TimeMs now = env_.clock->nowMs();
  last_trigger_time_ = now;
  if (pending_rerun_) {
    auto ran = runTrigger(/*allowTimeDrivenNoData=*/false);
    if (!ran.ok()) return ran.status();
  }
  for (int64_t n = 0;; ++n) {
    std::optional<TimeMs> at;
    if (!last_planned_timestamp_) {
      at = now;  // the checkpoint's first batch
    } else if (options_.trigger.intervalMs <= 0) {
      if (now > *last_planned_timestamp_) at = now;
    } else if (TimeMs t = options_.trigger.nextBatchTime(*last_planned_timestamp_); t <= now) {
      at = t;
    }
    if (!at) return Status::OK();
    if (n >= kMostDueTriggers)
      return Status::FailedPrecondition(fmt::format(
          "processAllAvailable: more than {} triggers of {} fell due since the last batch, each a batch of a "
          "source with new rows at every trigger; advance the clock in smaller steps",
          kMostDueTriggers, options_.trigger.toString()));
    auto ran = runTrigger(/*allowTimeDrivenNoData=*/false, at);
    if (!ran.ok()) return ran.status();
    if (!*ran) return Status::OK();
  }
}

Result<int> StreamingQuery::runBatches(int n) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    auto ran = awaitNextTrigger();
    if (!ran.ok()) return ran.status();
    if (!*ran) break;
    ++count;
  }
  return count;
}

Status StreamingQuery::awaitTermination() {
  switch (options_.trigger.kind) {
    case Trigger::Kind::kOnce: {
      auto ran = triggerOnce();
      if (!ran.ok()) return ran.status();
      stop();
      return Status::OK();
    }
    case Trigger::Kind::kAvailableNow: {
      STREAMSIM_RETURN_IF_ERROR(processAllAvailable());
      stop();
      return Status::OK();
    }
    default:
      return Status::FailedPrecondition(
          "awaitTermination only ends by itself with the availableNow or once trigger; use "
          "processAllAvailable or runBatches");
  }
}

void StreamingQuery::stop() {
  if (!active_) return;
  for (auto& op : operators_) op->stop();
  active_ = false;
  if (env_.trace != nullptr)
    trace(TraceEvent(events::kQueryStopped).add("nextBatch", next_batch_id_).done());
}

const QueryProgress* StreamingQuery::lastProgress() const {
  return progress_.empty() ? nullptr : &progress_.back();
}

}  // namespace streamsim
