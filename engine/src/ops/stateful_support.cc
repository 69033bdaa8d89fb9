// Partition tasks and state layout records for the built-in stateful operators
// (ops/stateful_support.h).
#include "streamsim/ops/stateful_support.h"

#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/env.h"
#include "streamsim/fault_points.h"
#include "streamsim/trace_events.h"

namespace streamsim::ops {

namespace {

struct AttemptResult {
  TaskOutput out;
  StateStoreMetrics metrics;
};

Result<AttemptResult> runOneAttempt(BatchContext& ctx, int operatorId, int partition,
                                    const PartitionTask& task) {
  STREAMSIM_ASSIGN_OR_RETURN(
      std::unique_ptr<StateStore> store,
      ctx.stateStores->open(ctx.checkpointRoot, operatorId, partition, ctx.batchId));
  AttemptResult result;
  bool midwayPassed = false;
  FaultContext fc;
  fc.batchId = ctx.batchId;
  fc.partition = partition;
  fc.operatorId = operatorId;
  MidwayFn midway = [&]() -> Status {
    if (midwayPassed) return Status::OK();
    midwayPassed = true;
    return passFaultPoint(*ctx.env, faults::kTaskMidPartition, fc);
  };
  Status st = task(partition, *store, result.out, midway);
  if (st.ok()) st = midway();  // a task with nothing to do still passes the point
  if (!st.ok()) {
    store->abort();
    return st;
  }
  result.metrics = result.out.figures ? *result.out.figures : store->metrics();
  STREAMSIM_RETURN_IF_ERROR(store->commit());
  return result;
}

Status writeNew(const OperatorStartContext& ctx, const std::string& dir, const std::string& path,
                const std::string& content) {
  STREAMSIM_RETURN_IF_ERROR(ctx.env->fs->mkdirs(dir));
  FaultContext fc;
  fc.operatorId = ctx.operatorId;
  fc.path = path;
  Status st = writeFileAtomically(*ctx.env, path, content, fc);
  // Another writer got there first with the same content: nothing to do.
  if (st.code() == Status::Code::kFailedPrecondition && ctx.env->fs->exists(path)) return Status::OK();
  return st;
}

}  // namespace

std::string formatColumnList(const std::vector<std::string>& cols) {
  std::string out = "[";
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i) out += ", ";
    out += cols[i];
  }
  return out + "]";
}

Result<std::vector<Row>> runPartitionTasks(BatchContext& ctx, int operatorId,
                                           std::string_view operatorName,
                                           const PartitionTask& task) {
  if (ctx.env == nullptr || ctx.stateStores == nullptr) {
    return Status::FailedPrecondition(fmt::format(
        "operator {} ({}) needs a state store provider and an Env in its BatchContext",
        operatorId, operatorName));
  }
  if (ctx.shufflePartitions <= 0) {
    return Status::InvalidArgument(fmt::format(
        "spark.sql.shuffle.partitions must be > 0, got {}", ctx.shufflePartitions));
  }
  StateOperatorProgress progress;
  progress.operatorName = std::string(operatorName);
  progress.numShufflePartitions = ctx.shufflePartitions;
  std::vector<Row> all;
  if (ctx.realTimeStores != nullptr) {
    const MidwayFn none = [] { return Status::OK(); };
    for (int p = 0; p < ctx.shufflePartitions; ++p) {
      STREAMSIM_ASSIGN_OR_RETURN(StateStore* store, ctx.realTimeStores->get(ctx, operatorId, p));
      TaskOutput out;
      Status st = task(p, *store, out, none);
      if (!st.ok())
        return st.withContext(fmt::format("batch {}, operator {} ({}), partition {} (real-time mode: "
                                          "the batch fails and re-runs from the last committed offsets)",
                                          ctx.batchId, operatorId, operatorName, p));
      if (ctx.realTimeFinal) {
        StateStoreMetrics m = out.figures ? *out.figures : store->metrics();
        progress.numRowsTotal += m.numKeys;
        progress.numRowsUpdated += m.numUpdated;
        progress.numRowsRemoved += m.numRemoved;
      }
      progress.numRowsDroppedByWatermark += out.droppedByWatermark;
      for (auto& row : out.rows) all.push_back(std::move(row));
    }
    ctx.stateProgress.push_back(progress);
    return all;
  }
  for (int p = 0; p < ctx.shufflePartitions; ++p) {
    for (int attempt = 0;; ++attempt) {
      // For the oracles (harness/oracles.h): events after this belong to this attempt.
      if (ctx.env->trace != nullptr)
        TraceEvent(events::kTaskAttempt)
            .add("operator", operatorId)
            .add("batch", ctx.batchId)
            .add("partition", p)
            .add("attempt", attempt)
            .emit(ctx.env->trace);
      Result<AttemptResult> r = runOneAttempt(ctx, operatorId, p, task);
      if (r.ok()) {
        progress.numRowsTotal += r->metrics.numKeys;
        progress.numRowsUpdated += r->metrics.numUpdated;
        progress.numRowsRemoved += r->metrics.numRemoved;
        progress.numRowsDroppedByWatermark += r->out.droppedByWatermark;
        if (all.empty()) {
          all = std::move(r->out.rows);  // the first partition's vector, not a copy of it
        } else {
          for (auto& row : r->out.rows) all.push_back(std::move(row));
        }
        break;
      }
      if (attempt >= ctx.taskRetries) {
        return r.status().withContext(fmt::format(
            "batch {}, operator {} ({}), partition {}, attempt {} of {}", ctx.batchId, operatorId,
            operatorName, p, attempt + 1, ctx.taskRetries + 1));
      }
    }
  }
  ctx.stateProgress.push_back(progress);
  return all;
}

Result<StateStore*> RealTimeStateStores::get(BatchContext& ctx, int operatorId, int partition) {
  auto key = std::make_pair(operatorId, partition);
  auto it = stores_.find(key);
  if (it != stores_.end()) return it->second.get();
  if (ctx.env->trace != nullptr)
    TraceEvent(events::kTaskAttempt)
        .add("operator", operatorId)
        .add("batch", ctx.batchId)
        .add("partition", partition)
        .add("attempt", 0)
        .emit(ctx.env->trace);
  STREAMSIM_ASSIGN_OR_RETURN(
      std::unique_ptr<StateStore> store,
      ctx.stateStores->open(ctx.checkpointRoot, operatorId, partition, ctx.batchId));
  StateStore* raw = store.get();
  stores_.emplace(key, std::move(store));
  return raw;
}

Status RealTimeStateStores::commitAll() {
  for (auto it = stores_.begin(); it != stores_.end();) {
    Status st = it->second->commit();
    if (!st.ok()) {
      stores_.clear();  // as a failed commit in micro-batch mode: dropped, not aborted
      return st;
    }
    it = stores_.erase(it);
  }
  return Status::OK();
}

void RealTimeStateStores::abortAll() {
  for (auto& [k, s] : stores_) s->abort();
  stores_.clear();
}

Status checkOrRecordStateLayout(const OperatorStartContext& ctx, const StateLayout& layout,
                                std::string_view what) {
  if (ctx.env == nullptr || ctx.env->fs == nullptr) {
    return Status::FailedPrecondition(fmt::format("{}: start() needs an Env with a FileSystem", what));
  }
  FileSystem& fs = *ctx.env->fs;
  StateOperatorSchema op{layout.operatorName, layout.keyColumns, layout.details, layout.properties,
                         layout.keySchema, layout.valueSchema};
  STREAMSIM_RETURN_IF_ERROR(
      checkAndRecordStateSchema(*ctx.env, ctx.checkpointRoot, ctx.operatorId, op, layout.variables, what));

  // Spark's operator metadata v1 (checkpoint/operator_metadata.h writes the format), so that
  // `inspect` reads our checkpoints like Spark's.
  const std::string metaPath = operatorMetadataV1Path(ctx.checkpointRoot, ctx.operatorId);
  if (!fs.exists(metaPath)) {
    OperatorMetadata m;
    m.version = 1;
    m.operatorId = ctx.operatorId;
    m.operatorName = layout.operatorName;
    StateStoreMetadataInfo store;
    store.numPartitions = ctx.shufflePartitions;
    m.stateStores.push_back(store);
    STREAMSIM_RETURN_IF_ERROR(
        writeNew(ctx, parentPath(metaPath), metaPath, serializeOperatorMetadata(m) + "\n"));
  }
  return Status::OK();
}

std::optional<Schema> keyTypesOf(const std::vector<Row>& rows, const std::vector<std::string>& keyColumns) {
  if (keyColumns.empty()) return std::nullopt;  // no key: nothing to record
  std::vector<std::optional<Field>> fields(keyColumns.size());
  size_t known = 0;
  for (const Row& row : rows) {
    for (size_t c = 0; c < keyColumns.size(); ++c) {
      if (fields[c]) continue;
      const int i = row.schema()->indexOf(keyColumns[c]);
      if (i < 0 || static_cast<size_t>(i) >= row.size() || row[i].isNull()) continue;
      fields[c] = fieldOf(keyColumns[c], row[i]);
      ++known;
    }
    if (known == keyColumns.size()) break;
  }
  if (known < keyColumns.size()) return std::nullopt;
  std::vector<Field> key;
  for (auto& f : fields) key.push_back(std::move(*f));
  return Schema(std::move(key));
}

Status StateSchemaRecord::start(const OperatorStartContext& ctx, StateLayout layout, StateRowTypesFn types,
                                std::string_view what) {
  types_ = std::move(types);
  what_ = std::string(what);
  operator_id_ = ctx.operatorId;
  types_checked_ = false;
  pending_layout_.reset();
  if (ctx.env == nullptr || ctx.env->fs == nullptr) return checkOrRecordStateLayout(ctx, layout, what);
  STREAMSIM_ASSIGN_OR_RETURN(std::optional<StateOperatorSchema> recorded,
                             readStateOperatorSchema(*ctx.env, ctx.checkpointRoot, ctx.operatorId));
  if (recorded) return checkOrRecordStateLayout(ctx, layout, what);
  pending_layout_ = std::move(layout);
  start_ctx_ = ctx;
  return Status::OK();
}

Status StateSchemaRecord::beforeBatch(const BatchContext& ctx, const std::vector<Row>& input) {
  if (types_checked_) return Status::OK();
  std::optional<StateRowTypes> types = types_(input);
  if (pending_layout_) {
    if (types) {
      pending_layout_->keySchema = types->key.toDDL();
      if (types->value) pending_layout_->valueSchema = types->value->toDDL();
    }
    STREAMSIM_RETURN_IF_ERROR(checkOrRecordStateLayout(start_ctx_, *pending_layout_, what_));
    pending_layout_.reset();
    types_checked_ = types.has_value();
    return Status::OK();
  }
  if (!types || ctx.env == nullptr || ctx.env->fs == nullptr) return Status::OK();  // a later batch tells
  Status st = checkAndRecordStateKeySchema(*ctx.env, ctx.checkpointRoot, operator_id_, types->key, what_,
                                           types->value);
  types_checked_ = st.ok();
  return st;
}

}  // namespace streamsim::ops
