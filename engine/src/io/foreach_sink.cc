#include "streamsim/io/foreach_sink.h"
#include "streamsim/trace_events.h"

#include <exception>

namespace streamsim {

Status ForeachSink::addBatch(const SinkContext& ctx, const std::vector<Row>& rows) {
  const size_t n = rows.size();
  const size_t parts = static_cast<size_t>(num_partitions_);
  for (size_t p = 0; p < parts; ++p) {
    size_t begin = n * p / parts;
    size_t end = n * (p + 1) / parts;
    const int64_t partitionId = static_cast<int64_t>(p);
    if (writer_->open(partitionId, ctx.batchId)) {
      for (size_t i = begin; i < end; ++i) {
        try {
          writer_->process(rows[i]);
        } catch (const std::exception& e) {
          Status error = Status::TaskFailed(fmt::format(
              "foreach writer process() threw in batch {}, partition {} on row {}: {}", ctx.batchId,
              partitionId, rows[i].toString(), e.what()));
          writer_->close(error);
          return error;
        }
      }
    }
    writer_->close(Status::OK());
  }
  if (ctx.env != nullptr && ctx.env->trace != nullptr) {
    TraceEvent(events::kSinkWrite).add("sink", "foreach").add("batch", ctx.batchId).add("rows", n).emit(ctx.env->trace);
  }
  return Status::OK();
}

Status ForeachSink::writeRecord(const SinkContext& ctx, int task, const Row& row, TimeMs atMs) {
  (void)atMs;
  auto it = open_.find(task);
  if (it == open_.end()) it = open_.emplace(task, writer_->open(task, ctx.batchId)).first;
  if (!it->second) return Status::OK();
  try {
    writer_->process(row);
  } catch (const std::exception& e) {
    Status error = Status::TaskFailed(fmt::format(
        "foreach writer process() threw in batch {}, partition {} on row {}: {}", ctx.batchId,
        task, row.toString(), e.what()));
    writer_->close(error);
    open_.erase(task);
    return error;
  }
  return Status::OK();
}

Status ForeachSink::endBatch(const SinkContext& ctx) {
  (void)ctx;
  for (size_t i = 0; i < open_.size(); ++i) writer_->close(Status::OK());
  open_.clear();
  return Status::OK();
}

std::function<std::unique_ptr<Sink>()> makeForeachSink(std::shared_ptr<ForeachWriter> writer,
                                                       int numPartitions) {
  return [writer = std::move(writer), numPartitions]() -> std::unique_ptr<Sink> {
    return std::make_unique<ForeachSink>(writer, numPartitions);
  };
}

}  // namespace streamsim
