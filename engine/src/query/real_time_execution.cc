// Real-time mode (SEMANTICS.md §7, DESIGN.md §5b): long batches in virtual time. A batch starts
// at the clock's now T0 and lasts the trigger's duration D. Every source partition has one
// long-running reader task: it takes the records readable before T0 + D in offset order, each
// as soon as it has arrived and the task finished the one before (`realTime.recordCost` of
// virtual time per record). Records go through the operators one by one at their processing
// time — stateless operators per row, stateful ones on state stores kept open for the whole
// batch (transformWithState calls handleInputRows once per row and checks its partition's
// processing-time timers after it) — and their output reaches the sink `realTime.sinkLatency`
// later: per record for the Kafka-like, foreach and memory sinks (at least once; the console
// sink prints at batch end). At T0 + D (or when the last record is done, if later) the operators
// run once more without input (timers due by then, TTL cleanup, watermark eviction), the stores
// commit, and offsets/N, the sink's end of batch and commits/N are written (offsets at the end).
// A restart runs the batch after the last commit afresh from the last committed offsets (an
// offsets/N without commits/N is purged first, streaming_query.cc) and writes the records already
// delivered again; state stays exact. With an initial state, batch 0 is a bootstrap batch that
// reads no input.
#include "real_time_execution.h"

#include <algorithm>
#include <limits>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/fault_points.h"
#include "streamsim/ops/stateful_support.h"
#include "streamsim/real_time.h"
#include "streamsim/spark_errors.h"
#include "streamsim/trace_events.h"

namespace streamsim {
namespace {

constexpr const char* kFormatVersionConf = "spark.sql.streaming.stateStore.checkpointFormatVersion";
constexpr const char* kAllowV1Conf = "spark.sql.streaming.realTimeMode.dangerouslyAllowCheckpointV1.enabled";
constexpr const char* kProviderConf = "spark.sql.streaming.stateStore.providerClass";
constexpr const char* kSortBeforeRepartitionConf = "spark.sql.execution.sortBeforeRepartition";

// A real-time refusal: Spark's condition with the parameters its suites assert (checkError),
// and a streamsim hint saying what to change.
Status rtmError(std::string condition, ErrorParams params, std::string_view hint) {
  return sparkError(Status::Code::kInvalidArgument, std::move(condition), std::move(params), hint);
}

// One input record of the batch and when its reader task is done with it.
struct Scheduled {
  TimeMs doneMs = 0;
  int task = 0;
  int64_t offset = 0;
  TimeMs arrivalMs = 0;
  size_t index = 0;  // into the batch's rows
};

// StreamRealTimeModeDefaultConfsSuite "switching an existing v1 checkpoint to Real-Time Mode
// fails fast": parameter `config` names the escape hatch.
Status checkpointV1Error(const std::string& checkpoint) {
  return rtmError("STREAMING_REAL_TIME_MODE.CHECKPOINT_FORMAT_V1_NOT_SUPPORTED", {{"config", kAllowV1Conf}},
                  fmt::format("real-time queries need state checkpoint format v2 ({} = 2); the "
                              "checkpoint {} uses v1. Use a fresh checkpoint location, or accept the "
                              "risk of losing state on a failure with {} = true",
                              kFormatVersionConf, checkpoint, kAllowV1Conf));
}

}  // namespace

Status prepareRealTimeOptions(QueryOptions& o) {
  // StreamRealTimeModeSuite "error: batch duration is set less than minimum".
  if (o.trigger.intervalMs <= 0 || o.trigger.intervalMs < o.realTimeMinBatchMs)
    return rtmError("INVALID_STREAMING_REAL_TIME_MODE_TRIGGER_INTERVAL",
                    {{"interval", std::to_string(o.trigger.intervalMs)},
                     {"minBatchDuration", std::to_string(o.realTimeMinBatchMs)}},
                    "spark.sql.streaming.realTimeMode.minBatchDuration, in ms");
  // StreamRealTimeModeDefaultConfsSuite "an explicit incompatible config is rejected up front":
  // Spark's pre-flight (StreamingQueryManager) refuses, for every real-time query, stateless
  // too, an explicit checkpoint format below 2 (unless the escape hatch is on), an explicit
  // provider other than RocksDB and an explicit sortBeforeRepartition=true, in one error.
  std::vector<std::string> refused;
  if (o.checkpointFormatVersion && *o.checkpointFormatVersion < 2 && !o.realTimeAllowCheckpointV1)
    refused.push_back(fmt::format("{}={}", kFormatVersionConf, *o.checkpointFormatVersion));
  if (o.stateStoreSet && o.stateStore.kind != StateStoreKind::kRocksDB)
    refused.push_back(fmt::format(
        "{}=org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider", kProviderConf));
  if (o.sortBeforeRepartition.value_or(false)) refused.push_back(fmt::format("{}=true", kSortBeforeRepartitionConf));
  if (!refused.empty()) {
    std::string list;
    for (const auto& r : refused) list += (list.empty() ? "" : ", ") + r;
    // Spark's suite reads the parameters back from the error (not pinned): streamsim names
    // the refused settings in `config`.
    return rtmError("STREAMING_REAL_TIME_MODE.SQL_CONFIGURATION_NOT_SUPPORTED", {{"config", list}},
                    "real time needs checkpoint format v2, the RocksDB provider and no sort before "
                    "repartition; leave these settings unset");
  }
  // The defaults real time applies where the user set nothing (StreamRealTimeModeDefaultConfsSuite).
  if (!o.stateStoreSet) o.stateStore.kind = StateStoreKind::kRocksDB;
  return Status::OK();
}

Status StreamingQuery::checkRealTimeQuery() {
  if (options_.outputMode != OutputMode::kUpdate)
    // UnsupportedOperationChecker: outputMode is Spark's OutputMode.toString ("Append", "Complete").
    return rtmError("STREAMING_REAL_TIME_MODE.OUTPUT_MODE_NOT_SUPPORTED",
                    {{"outputMode", options_.outputMode == OutputMode::kAppend ? "Append" : "Complete"}},
                    "real time runs in Update mode only");
  // StreamRealTimeModeSuite "error when unsupported source is used": className.
  for (const auto& s : sources_)
    if (dynamic_cast<RealTimeSource*>(s.get()) == nullptr)
      return rtmError("STREAMING_REAL_TIME_MODE.INPUT_STREAM_NOT_SUPPORTED", {{"className", s->sparkClassName()}},
                      fmt::format("{}: read from a Kafka-like source", s->description()));
  // KafkaRealTimeModeSuite "self union - not allowed" / "self union workaround": one reader read
  // twice (reader.union(reader)) is refused, two readers of one topic run (MicroBatchExecution
  // compares the distinct source instances with all of them).
  std::set<int> readers;
  for (size_t i = 0; i < sources_.size(); ++i) readers.insert(df_.sourceReader(i));
  if (readers.size() != sources_.size()) {
    std::string all;
    for (const auto& s : sources_) all += (all.empty() ? "" : ", ") + s->description();
    return rtmError("STREAMING_REAL_TIME_MODE.IDENTICAL_SOURCES_IN_UNION_NOT_SUPPORTED", {{"sources", all}},
                    "read the topic through two readers built separately");
  }
  for (const auto& s : sources_)
    STREAMSIM_RETURN_IF_ERROR(dynamic_cast<RealTimeSource*>(s.get())->prepareForRealTimeMode()
                                  .withContext(s->description()));
  for (const auto& op : operators_) {
    std::string condition = op->realTimeUnsupported();
    if (condition.empty() && plan_.size() > 1)
      return Status::InvalidArgument(fmt::format(
          "real-time mode in streamsim runs one chain of operators over the sources; this query's inputs each "
          "have their own operators ({} is on one of them): not built, see docs/semantics (SEMANTICS.md §7)",
          op->name()));
    if (!condition.empty())
      return rtmError(condition, {{"errorType", "operator"}, {"message", op->name() + " is"}},
                      fmt::format("the operator {} is not supported in real-time mode", op->name()));
  }
  if (dynamic_cast<RealTimeSink*>(sink_.get()) == nullptr)
    return rtmError("STREAMING_REAL_TIME_MODE.SINK_NOT_SUPPORTED", {{"className", sink_->sparkClassName()}},
                    fmt::format("{}: use a Kafka-like, foreach, memory or console sink", sink_->description()));
  return Status::OK();
}

Status StreamingQuery::checkRealTimeCheckpoint() {
  // Checkpoint format v2 for every real-time query, stateless too
  // (StreamRealTimeModeDefaultConfsSuite "switching an existing v1 checkpoint to Real-Time Mode
  // fails fast"): an existing checkpoint written without the setting (v1 is the default) or
  // recorded as 1 is refused; an explicit 1 was refused or allowed by prepareRealTimeOptions.
  const bool fresh = next_batch_id_ == 0 && !pending_rerun_;
  auto recorded = conf_.find(kFormatVersionConf);
  bool v1 = (options_.checkpointFormatVersion && *options_.checkpointFormatVersion == 1) ||
            (recorded != conf_.end() && recorded->second == "1") || (!fresh && recorded == conf_.end());
  if (v1 && !options_.realTimeAllowCheckpointV1) return checkpointV1Error(options_.checkpointLocation);
  // Allowed on v1 (the escape hatch): the checkpoint stays v1, a later start without it fails.
  if (v1) return Status::OK();
  conf_[kFormatVersionConf] = "2";
  return Status::OK();
}

Result<bool> StreamingQuery::realTimeHasBacklog() {
  const TimeMs now = env_.clock->nowMs();
  for (size_t i = 0; i < sources_.size(); ++i) {
    SourceContext sctx{&env_, options_.checkpointLocation, static_cast<int>(i), next_batch_id_, false, false, sourceName(i)};
    auto* rts = dynamic_cast<RealTimeSource*>(sources_[i].get());
    STREAMSIM_ASSIGN_OR_RETURN(RealTimeRead read, rts->readUntil(sctx, committed_offsets_[i], now + 1));
    if (!read.rows.empty()) return true;
  }
  return false;
}

Result<bool> StreamingQuery::runRealTimeTrigger() {
  // A restart never re-runs a recorded batch in real time: offsets/N without commits/N was
  // purged when the query opened (streaming_query.cc), so batch N is planned afresh.
  STREAMSIM_RETURN_IF_ERROR(fail(runRealTimeBatch(next_batch_id_, env_.clock->nowMs())));
  return true;
}

Status StreamingQuery::runRealTimeBatch(int64_t batchId, TimeMs startMs) {
  const std::string& root = options_.checkpointLocation;
  // A transformWithState with an initial state: batch 0 is a finite bootstrap batch that loads
  // it and reads no input (numInputRows 0, no duration); the input waits for batch 1
  // (RealTimeTransformWithStateSuite "hydrates ... initial state in a finite batch and recovers it").
  bool bootstrap = false;
  for (const auto& op : operators_) bootstrap = bootstrap || (batchId == 0 && op->hasInitialState());
  const TimeMs plannedEnd = bootstrap ? startMs : startMs + options_.trigger.intervalMs;
  // Records readable before this: none in the bootstrap batch.
  const TimeMs readBefore = bootstrap ? std::numeric_limits<TimeMs>::min() + 1 : plannedEnd;
  const TimeMs evictionWatermark = watermark_;
  if (env_.trace != nullptr)
    trace(TraceEvent(events::kBatchPlanned, batchId)
              .add("realTime", true)
              .add("rerun", false)
              .add("timestamp", startMs)
              .add("until", plannedEnd)
              .add("watermark", evictionWatermark)
              .done());
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (!committed_offsets_[i]) continue;
    SourceContext sctx{&env_, root, static_cast<int>(i), batchId, false, false, sourceName(i)};
    STREAMSIM_RETURN_IF_ERROR(sources_[i]->commit(sctx, *committed_offsets_[i]).withContext(sources_[i]->description()));
  }
  STREAMSIM_RETURN_IF_ERROR(purgeLogs(batchId));

  // What the reader tasks read, and when each record is done with.
  QueryProgress progress;
  progress.id = query_id_;
  progress.runId = run_id_;
  progress.batchId = batchId;
  progress.timestamp = startMs;
  std::vector<TimedRow> rows;
  std::vector<std::optional<std::string>> end(sources_.size());
  int taskBase = 0;
  for (size_t i = 0; i < sources_.size(); ++i) {
    SourceContext sctx{&env_, root, static_cast<int>(i), batchId, !started_batches_, false, sourceName(i)};
    auto* rts = dynamic_cast<RealTimeSource*>(sources_[i].get());
    auto read = rts->readUntil(sctx, committed_offsets_[i], readBefore);
    if (!read.ok()) return read.status().withContext(fmt::format("batch {}: {}", batchId, sources_[i]->description()));
    SourceProgress sp;
    sp.description = sources_[i]->description();
    sp.startOffset = committed_offsets_[i].value_or("");
    sp.endOffset = read->end;
    sp.numInputRows = static_cast<int64_t>(read->rows.size());
    progress.numInputRows += sp.numInputRows;
    progress.sources.push_back(std::move(sp));
    end[i] = read->end;
    for (TimedRow& r : read->rows) {
      r.task += taskBase;
      rows.push_back(std::move(r));
    }
    taskBase += read->numTasks;
  }
  started_batches_ = true;
  std::vector<Scheduled> order;
  order.reserve(rows.size());
  {
    std::map<int, TimeMs> free;  // task -> when it is done with its previous record
    for (size_t i = 0; i < rows.size(); ++i) {
      auto [it, fresh] = free.emplace(rows[i].task, startMs);
      TimeMs begin = std::max(it->second, rows[i].arrivalMs);
      it->second = begin + options_.realTimeRecordCostMs;
      order.push_back(Scheduled{it->second, rows[i].task, rows[i].offset, rows[i].arrivalMs, i});
    }
  }
  std::sort(order.begin(), order.end(), [](const Scheduled& a, const Scheduled& b) {
    return std::tie(a.doneMs, a.task, a.offset) < std::tie(b.doneMs, b.task, b.offset);
  });
  if (env_.trace != nullptr)
    trace(TraceEvent(events::kInput, batchId).add("rows", progress.numInputRows).done());

  ops::RealTimeStateStores stores;
  BatchContext ctx;
  ctx.env = &env_;
  ctx.checkpointRoot = root;
  ctx.query = QueryInfo{query_id_, run_id_, batchId};
  ctx.batchId = batchId;
  ctx.lateWatermarkMs = last_batch_watermark_;
  ctx.evictionWatermarkMs = evictionWatermark;
  ctx.hasWatermark = !operator_watermarks_.empty();
  ctx.shufflePartitions = options_.shufflePartitions;
  ctx.taskRetries = 0;
  ctx.stateStores = state_stores_.get();
  ctx.outputMode = options_.outputMode;
  ctx.traceOutputRows = options_.traceOutputRows;
  ctx.realTimeStores = &stores;

  SinkContext skctx{&env_, batchId, options_.outputMode, root};
  auto* rtSink = dynamic_cast<RealTimeSink*>(sink_.get());
  const bool perRecord = rtSink->writesPerRecord();
  std::vector<Row> buffered;
  std::vector<DurationMs> latencies;
  std::vector<StateOperatorProgress> stateProgress;
  int64_t emitted = 0;
  auto mergeProgress = [&] {
    if (stateProgress.empty()) {
      stateProgress = std::move(ctx.stateProgress);
    } else {
      for (size_t i = 0; i < ctx.stateProgress.size() && i < stateProgress.size(); ++i) {
        StateOperatorProgress& to = stateProgress[i];
        const StateOperatorProgress& from = ctx.stateProgress[i];
        to.numRowsTotal = ctx.realTimeFinal ? from.numRowsTotal : to.numRowsTotal;
        to.numRowsUpdated += from.numRowsUpdated;
        to.numRowsRemoved += from.numRowsRemoved;
        to.numRowsDroppedByWatermark += from.numRowsDroppedByWatermark;
        to.numTimersFired += from.numTimersFired;
        to.numValuesRemovedByTTL += from.numValuesRemovedByTTL;
      }
    }
    ctx.stateProgress.clear();
  };
  // Runs `input` through the operators at `nowMs` and delivers what comes out.
  auto pass = [&](std::vector<Row> input, int task, TimeMs nowMs, std::optional<TimeMs> arrival) -> Status {
    ctx.batchTimestampMs = nowMs;
    for (auto& op : operators_) {
      auto out = op->process(std::move(input), ctx);
      if (!out.ok()) return out.status().withContext(fmt::format("batch {}: {}", batchId, op->name()));
      input = std::move(*out);
    }
    mergeProgress();
    const TimeMs deliveredAt = nowMs + options_.realTimeSinkLatencyMs;
    for (Row& row : input) {
      ++emitted;
      if (arrival) latencies.push_back(deliveredAt - *arrival);
      if (!perRecord) {
        buffered.push_back(std::move(row));
        continue;
      }
      STREAMSIM_RETURN_IF_ERROR(rtSink->writeRecord(skctx, task, row, deliveredAt)
                                    .withContext(fmt::format("batch {}: {}", batchId, sink_->description())));
      FaultContext fc{batchId, task, -1, ""};
      STREAMSIM_RETURN_IF_ERROR(passFaultPoint(env_, faults::kRealTimeAfterRecord, fc));
    }
    return Status::OK();
  };
  TimeMs endMs = plannedEnd;
  for (const Scheduled& s : order) {
    env_.clock->sleepUntil(s.doneMs);
    Status st = pass({rows[s.index].row}, s.task, s.doneMs, s.arrivalMs);
    if (!st.ok()) {
      stores.abortAll();
      return st;
    }
    endMs = std::max(endMs, s.doneMs);
  }
  // The batch's end: timers due by now, TTL cleanup, eviction; then the commit.
  env_.clock->sleepUntil(endMs);
  ctx.realTimeFinal = true;
  if (Status st = pass({}, 0, endMs, std::nullopt); !st.ok()) {
    stores.abortAll();
    return st;
  }
  STREAMSIM_RETURN_IF_ERROR(stores.commitAll());
  // offsets/N at the batch's end (its end offsets are known only now), then the sink's end of
  // batch and commits/N.
  STREAMSIM_RETURN_IF_ERROR(writeOffsets(batchId, end, startMs, evictionWatermark));
  if (perRecord) {
    STREAMSIM_RETURN_IF_ERROR(rtSink->endBatch(skctx).withContext(fmt::format("batch {}: {}", batchId, sink_->description())));
  } else {
    STREAMSIM_RETURN_IF_ERROR(sink_->addBatch(skctx, buffered).withContext(fmt::format("batch {}: {}", batchId, sink_->description())));
  }
  progress.numOutputRows = emitted;
  if (env_.trace != nullptr)
    trace(TraceEvent(events::kSinkWrite, batchId).add("rows", emitted).done());

  ctx.stateProgress = std::move(stateProgress);
  advanceWatermark(ctx, progress, evictionWatermark);
  STREAMSIM_RETURN_IF_ERROR(writeCommit(batchId));
  progress.batchDurationMs = endMs - startMs;
  progress.latency = LatencyStats::of(std::move(latencies));
  finishBatch(batchId, end, evictionWatermark, ctx, std::move(progress));
  return Status::OK();
}

}  // namespace streamsim
