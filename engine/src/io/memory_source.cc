#include "streamsim/io/memory_source.h"
#include "streamsim/json_nesting.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace streamsim {

Status MemoryStreamData::addData(std::vector<Row> rows) {
  if (schema_ == nullptr) {
    rows_.insert(rows_.end(), std::make_move_iterator(rows.begin()),
                 std::make_move_iterator(rows.end()));
    return Status::OK();
  }
  std::vector<Row> converted;
  converted.reserve(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& in = rows[r];
    for (size_t c = 0; c < in.size() && c < in.schema()->size(); ++c) {
      if (schema_->indexOf(in.schema()->field(c).name) < 0) {
        return Status::InvalidArgument(fmt::format(
            "addData row {} ({}): column '{}' is not in the stream's schema ({})", r,
            in.toString(), in.schema()->field(c).name, schema_->toDDL()));
      }
    }
    std::vector<Value> values;
    values.reserve(schema_->size());
    for (const Field& f : schema_->fields()) {
      auto v = in.get(f.name).castTo(f);
      if (!v.ok()) {
        return Status::InvalidArgument(fmt::format("addData row {} ({}), column '{}': {}", r,
                                                   in.toString(), f.name, v.status().message()));
      }
      values.push_back(std::move(v).value());
    }
    converted.emplace_back(schema_, std::move(values));
  }
  rows_.insert(rows_.end(), std::make_move_iterator(converted.begin()),
               std::make_move_iterator(converted.end()));
  return Status::OK();
}

std::string memoryOffsetJson(int64_t offset) { return fmt::format("{{\"offset\":{}}}", offset); }

std::string MemoryStreamData::currentOffset() const { return memoryOffsetJson(size()); }

Result<int64_t> parseMemoryOffset(std::string_view text, std::string_view where) {
  auto j = parseJsonBounded<nlohmann::json>(text);
  if (!j.is_discarded()) {
    if (j.is_number_integer()) return j.get<int64_t>();
    if (j.is_object() && j.contains("offset") && j["offset"].is_number_integer())
      return j["offset"].get<int64_t>();
  }
  return Status::Corruption(
      fmt::format("{}: memory source offset '{}' is not {{\"offset\":N}}", where, text));
}

Status MemorySource::restore(const SourceContext& ctx, const std::optional<std::string>& committed) {
  (void)ctx;
  available_now_limit_.reset();
  if (committed) {
    STREAMSIM_ASSIGN_OR_RETURN(int64_t n, parseMemoryOffset(*committed, description()));
    if (n > data_->size()) {
      return Status::FailedPrecondition(fmt::format(
          "{}: the checkpoint has committed offset {} but the stream holds only {} rows; the "
          "memory stream's data must outlive the query (hold the shared MemoryStreamData)",
          description(), n, data_->size()));
    }
  }
  return Status::OK();
}

Result<std::optional<std::string>> MemorySource::latestOffset(
    const SourceContext& ctx, const std::optional<std::string>& start) {
  int64_t end = data_->size();
  if (ctx.availableNow) {
    if (!available_now_limit_) available_now_limit_ = end;
    end = std::min(end, *available_now_limit_);
  }
  if (end == 0 && !start) return std::optional<std::string>();
  if (start) {
    STREAMSIM_ASSIGN_OR_RETURN(int64_t s, parseMemoryOffset(*start, description()));
    end = std::max(end, s);
  }
  return std::optional<std::string>(memoryOffsetJson(end));
}

Result<std::vector<Row>> MemorySource::getBatch(const SourceContext& ctx,
                                                const std::optional<std::string>& start,
                                                const std::string& end) {
  (void)ctx;
  int64_t from = 0;
  if (start) {
    STREAMSIM_ASSIGN_OR_RETURN(from, parseMemoryOffset(*start, description()));
  }
  STREAMSIM_ASSIGN_OR_RETURN(int64_t to, parseMemoryOffset(end, description()));
  if (from < 0 || to < from || to > data_->size()) {
    return Status::FailedPrecondition(fmt::format(
        "{}: cannot read rows ({}, {}]: the stream holds {} rows", description(), from, to,
        data_->size()));
  }
  const auto& rows = data_->rows();
  return std::vector<Row>(rows.begin() + from, rows.begin() + to);
}

std::function<std::unique_ptr<Source>()> makeMemorySource(std::shared_ptr<MemoryStreamData> data,
                                                          std::string name) {
  return [data = std::move(data), name = std::move(name)]() -> std::unique_ptr<Source> {
    return std::make_unique<MemorySource>(data, name);
  };
}

}  // namespace streamsim
