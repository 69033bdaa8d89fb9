#include "streamsim/io/foreach_sink.h"
#include "streamsim/trace_events.h"

#include <exception>

namespace streamsim {

namespace {
// open() and close() of the writer, a std::exception from them failing the task as one from
// process() does (Spark's foreach task fails on any exception of the writer's methods).
Result<bool> openWriter(ForeachWriter& w, int64_t partitionId, int64_t batchId) {
  try {
    return w.open(partitionId, batchId);
  } catch (const std::exception& e) {
    return Status::TaskFailed(fmt::format("foreach writer open() threw in batch {}, partition {}: {}",
                                          batchId, partitionId, e.what()));
  }
}
Status closeWriter(ForeachWriter& w, const Status& error, int64_t partitionId, int64_t batchId) {
  try {
    w.close(error);
  } catch (const std::exception& e) {
    if (!error.ok()) return error;
    return Status::TaskFailed(fmt::format("foreach writer close() threw in batch {}, partition {}: {}",
                                          batchId, partitionId, e.what()));
  }
  return error;
}
}  // namespace

Status ForeachSink::addBatch(const SinkContext& ctx, const std::vector<Row>& rows) {
  const size_t n = rows.size();
  const size_t parts = static_cast<size_t>(num_partitions_);
  for (size_t p = 0; p < parts; ++p) {
    size_t begin = n * p / parts;
    size_t end = n * (p + 1) / parts;
    const int64_t partitionId = static_cast<int64_t>(p);
    STREAMSIM_ASSIGN_OR_RETURN(bool process, openWriter(*writer_, partitionId, ctx.batchId));
    if (process) {
      for (size_t i = begin; i < end; ++i) {
        try {
          writer_->process(rows[i]);
        } catch (const std::exception& e) {
          Status error = Status::TaskFailed(fmt::format(
              "foreach writer process() threw in batch {}, partition {} on row {}: {}", ctx.batchId,
              partitionId, rows[i].toString(), e.what()));
          return closeWriter(*writer_, error, partitionId, ctx.batchId);
        }
      }
    }
    STREAMSIM_RETURN_IF_ERROR(closeWriter(*writer_, Status::OK(), partitionId, ctx.batchId));
  }
  if (ctx.env != nullptr && ctx.env->trace != nullptr) {
    TraceEvent(events::kSinkWrite).add("sink", "foreach").add("batch", ctx.batchId).add("rows", n).emit(ctx.env->trace);
  }
  return Status::OK();
}

Status ForeachSink::writeRecord(const SinkContext& ctx, int task, const Row& row, TimeMs atMs) {
  (void)atMs;
  auto it = open_.find(task);
  if (it == open_.end()) {
    STREAMSIM_ASSIGN_OR_RETURN(bool process, openWriter(*writer_, task, ctx.batchId));
    it = open_.emplace(task, process).first;
  }
  if (!it->second) return Status::OK();
  try {
    writer_->process(row);
  } catch (const std::exception& e) {
    Status error = Status::TaskFailed(fmt::format(
        "foreach writer process() threw in batch {}, partition {} on row {}: {}", ctx.batchId,
        task, row.toString(), e.what()));
    open_.erase(task);
    return closeWriter(*writer_, error, task, ctx.batchId);
  }
  return Status::OK();
}

Status ForeachSink::endBatch(const SinkContext& ctx) {
  Status st;
  for (const auto& [task, opened] : open_) {
    Status closed = closeWriter(*writer_, Status::OK(), task, ctx.batchId);
    if (st.ok()) st = closed;
  }
  open_.clear();
  return st;
}

std::function<std::unique_ptr<Sink>()> makeForeachSink(std::shared_ptr<ForeachWriter> writer,
                                                       int numPartitions) {
  return [writer = std::move(writer), numPartitions]() -> std::unique_ptr<Sink> {
    return std::make_unique<ForeachSink>(writer, numPartitions);
  };
}

}  // namespace streamsim
