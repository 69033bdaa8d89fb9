#include "streamsim/io/memory_sink.h"
#include "streamsim/trace_events.h"

namespace streamsim {

// ---- memory sink ---------------------------------------------------------------------------

bool MemorySinkData::addBatch(int64_t batchId, std::vector<Row> rows, OutputMode mode) {
  auto latest = latestBatchId();
  if (latest && batchId <= *latest) {
    ++ignored_batches_;
    return false;
  }
  batches_[batchId] = std::move(rows);
  last_mode_ = mode;
  return true;
}

void MemorySinkData::appendRecord(int64_t batchId, Row row, OutputMode mode) {
  batches_[batchId].push_back(std::move(row));
  last_mode_ = mode;
}

std::vector<Row> MemorySinkData::appendView() const {
  std::vector<Row> out;
  for (const auto& [id, rows] : batches_) out.insert(out.end(), rows.begin(), rows.end());
  return out;
}

std::vector<Row> MemorySinkData::updateView(const std::vector<std::string>& keyColumns) const {
  const std::vector<std::string>& keys = keyColumns.empty() ? key_columns_ : keyColumns;
  if (keys.empty()) return appendView();
  std::map<Row, Row> latest;  // ordered by key: deterministic
  for (const auto& [id, rows] : batches_) {
    for (const Row& r : rows) latest.insert_or_assign(project(r, keys), r);
  }
  std::vector<Row> out;
  out.reserve(latest.size());
  for (auto& [key, row] : latest) out.push_back(row);
  return out;
}

std::vector<Row> MemorySinkData::completeView() const {
  if (batches_.empty()) return {};
  return batches_.rbegin()->second;
}

std::vector<Row> MemorySinkData::currentView() const {
  switch (last_mode_) {
    case OutputMode::kAppend: return appendView();
    case OutputMode::kUpdate: return updateView();
    case OutputMode::kComplete: return completeView();
  }
  return appendView();
}

const std::vector<Row>* MemorySinkData::batch(int64_t batchId) const {
  auto it = batches_.find(batchId);
  return it == batches_.end() ? nullptr : &it->second;
}

std::optional<int64_t> MemorySinkData::latestBatchId() const {
  if (batches_.empty()) return std::nullopt;
  return batches_.rbegin()->first;
}

void MemorySinkData::clear() {
  batches_.clear();
  ignored_batches_ = 0;
  last_mode_ = OutputMode::kAppend;
}

Status MemorySink::addBatch(const SinkContext& ctx, const std::vector<Row>& rows) {
  bool added = data_->addBatch(ctx.batchId, rows, ctx.outputMode);
  if (ctx.env != nullptr && ctx.env->trace != nullptr) {
    TraceEvent(events::kSinkWrite)
        .add("sink", "memory")
        .add("batch", ctx.batchId)
        .add("rows", rows.size())
        .add("skipped", !added)
        .emit(ctx.env->trace);
  }
  return Status::OK();
}

Status MemorySink::writeRecord(const SinkContext& ctx, int task, const Row& row, TimeMs atMs) {
  (void)task;
  (void)atMs;
  data_->appendRecord(ctx.batchId, row, ctx.outputMode);
  return Status::OK();
}

std::function<std::unique_ptr<Sink>()> makeMemorySink(std::shared_ptr<MemorySinkData> data) {
  return [data = std::move(data)]() -> std::unique_ptr<Sink> {
    return std::make_unique<MemorySink>(data);
  };
}

}  // namespace streamsim
