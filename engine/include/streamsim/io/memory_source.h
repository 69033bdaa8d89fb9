// The memory source, like Spark's MemoryStream: a test adds rows; the engine reads them by
// offset. The rows live in a MemoryStreamData the test holds through a shared_ptr, outside the
// engine, so they survive a simulated crash and restart. Offset JSON: {"offset":N} where N is the
// number of rows added so far; getBatch(start, end) returns rows with index in [start, end).
// Not thread-safe: the test and the engine take turns on one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/source.h"

namespace streamsim {

class MemoryStreamData {
 public:
  // With a schema, added rows are matched to it by column name (missing columns are null) and
  // cast (castTo); without one, rows are kept as given.
  explicit MemoryStreamData(SchemaPtr schema = nullptr) : schema_(std::move(schema)) {}

  // Appends rows (Spark's AddData). InvalidArgument if a value does not cast to the schema.
  Status addData(std::vector<Row> rows);
  // The offset the data has reached: {"offset":<rows so far>}.
  std::string currentOffset() const;
  int64_t size() const { return static_cast<int64_t>(rows_.size()); }
  const std::vector<Row>& rows() const { return rows_; }
  const SchemaPtr& schema() const { return schema_; }

 private:
  SchemaPtr schema_;
  std::vector<Row> rows_;
};

std::string memoryOffsetJson(int64_t offset);
// {"offset":N} (a bare N is accepted too). Corruption naming `where` otherwise.
Result<int64_t> parseMemoryOffset(std::string_view json, std::string_view where);

class MemorySource final : public Source {
 public:
  explicit MemorySource(std::shared_ptr<MemoryStreamData> data, std::string name = "memory")
      : data_(std::move(data)), name_(std::move(name)) {}

  std::string description() const override { return "MemoryStream[" + name_ + "]"; }
  std::string sparkClassName() const override {
    return "org.apache.spark.sql.execution.streaming.runtime.MemoryStream";
  }
  Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) override;
  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override;
  Result<std::vector<Row>> getBatch(const SourceContext& ctx,
                                    const std::optional<std::string>& start,
                                    const std::string& end) override;

 private:
  std::shared_ptr<MemoryStreamData> data_;
  std::string name_;
  std::optional<int64_t> available_now_limit_;  // AvailableNow: rows present at first planning
};

// A factory building a fresh MemorySource over the same data for every query run.
std::function<std::unique_ptr<Source>()> makeMemorySource(std::shared_ptr<MemoryStreamData> data,
                                                          std::string name = "memory");

}  // namespace streamsim
