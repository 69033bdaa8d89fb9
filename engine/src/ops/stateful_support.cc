// Partition tasks and state layout records for the built-in stateful operators
// (ops/stateful_support.h).
#include "streamsim/ops/stateful_support.h"

#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/env.h"
#include "streamsim/fault_points.h"

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
  result.metrics = store->metrics();
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
  for (int p = 0; p < ctx.shufflePartitions; ++p) {
    for (int attempt = 0;; ++attempt) {
      // For the oracles (harness/oracles.h): events after this belong to this attempt.
      if (ctx.env->trace != nullptr)
        ctx.env->trace->event(fmt::format(
            R"({{"event":"task_attempt","operator":{},"batch":{},"partition":{},"attempt":{}}})",
            operatorId, ctx.batchId, p, attempt));
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

Status checkOrRecordStateLayout(const OperatorStartContext& ctx, const StateLayout& layout,
                                std::string_view what) {
  if (ctx.env == nullptr || ctx.env->fs == nullptr) {
    return Status::FailedPrecondition(fmt::format("{}: start() needs an Env with a FileSystem", what));
  }
  FileSystem& fs = *ctx.env->fs;
  StateOperatorSchema op{layout.operatorName, layout.keyColumns, layout.details, layout.properties};
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

}  // namespace streamsim::ops
