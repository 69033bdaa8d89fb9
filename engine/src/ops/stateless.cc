// Stateless operators: filter, map, select, and withWatermark (which only observes event times;
// late rows are dropped by the stateful operators downstream, as in Spark).
#include <nlohmann/json.hpp>

#include "streamsim/operator.h"
#include "streamsim/spark_errors.h"

namespace streamsim {

std::string_view outputModeName(OutputMode m) {
  switch (m) {
    case OutputMode::kAppend: return "append";
    case OutputMode::kUpdate: return "update";
    case OutputMode::kComplete: return "complete";
  }
  return "?";
}

Result<OutputMode> parseOutputMode(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (n == "append") return OutputMode::kAppend;
  if (n == "update") return OutputMode::kUpdate;
  if (n == "complete") return OutputMode::kComplete;
  return Status::InvalidArgument(
      fmt::format("unknown output mode '{}': expected append, update or complete", name));
}

std::optional<TimeMs> eventTimeOf(const Row& row, std::string_view column) {
  const Value& v = row.get(column);
  if (v.isNull()) return std::nullopt;
  switch (v.type()) {
    case Type::kTimestamp:
    case Type::kLong:
    case Type::kInt: return v.asLong();
    case Type::kString: {
      auto t = parseTimestamp(v.asString());
      if (t.ok()) return *t;
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

namespace {

class FilterOperator final : public Operator {
 public:
  std::string realTimeUnsupported() const override { return ""; }
  FilterOperator(RowPredicate p, std::string d) : p_(std::move(p)), d_(std::move(d)) {}
  std::string name() const override { return d_; }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext&) override {
    std::vector<Row> out;
    out.reserve(input.size());
    for (auto& r : input)
      if (p_(r)) out.push_back(std::move(r));
    return out;
  }

 private:
  RowPredicate p_;
  std::string d_;
};

class MapOperator final : public Operator {
 public:
  std::string realTimeUnsupported() const override { return ""; }
  MapOperator(RowMapper m, std::string d) : m_(std::move(m)), d_(std::move(d)) {}
  std::string name() const override { return d_; }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext&) override {
    for (auto& r : input) r = m_(r);
    return input;
  }

 private:
  RowMapper m_;
  std::string d_;
};

class SelectOperator final : public Operator {
 public:
  std::string realTimeUnsupported() const override { return ""; }
  explicit SelectOperator(std::vector<std::string> cols) : cols_(std::move(cols)) {}
  std::string name() const override { return "select"; }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext&) override {
    for (auto& r : input) {
      for (const auto& c : cols_)
        if (!r.has(c))
          return Status::InvalidArgument(fmt::format(
              "select: column '{}' does not exist in row ({}); columns: {}", c, r.toString(),
              r.schema()->toDDL()));
      r = project(r, cols_);
    }
    return input;
  }

 private:
  std::vector<std::string> cols_;
};

class WithWatermarkOperator final : public Operator {
 public:
  std::string realTimeUnsupported() const override { return ""; }
  WithWatermarkOperator(std::string col, DurationMs delay) : col_(std::move(col)), delay_(delay) {}
  std::string name() const override { return fmt::format("withWatermark({}, {})", col_, formatDuration(delay_)); }
  std::optional<std::pair<std::string, DurationMs>> watermark() const override {
    return std::make_pair(col_, delay_);
  }
  Status start(const OperatorStartContext& ctx) override {
    plan_index_ = ctx.planIndex;
    return Status::OK();
  }
  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    auto& obs = ctx.eventTimes[plan_index_];
    for (const auto& r : input) {
      if (r.schema() != schema_) {  // the column's position, once per input schema
        schema_ = r.schema();
        index_ = schema_->indexOf(col_);
      }
      if (index_ < 0) continue;
      const Value& v = r[static_cast<size_t>(index_)];
      if (v.isNull()) continue;
      // Spark's CheckAnalysis (EventTimeWatermark): the event time must be a timestamp. Spark
      // knows the column's type when the query starts; the C++ DataFrame has no plan schema, so
      // the first row of another type fails the batch (scenarios are checked at load).
      if (v.type() != Type::kTimestamp)
        return sparkError(Status::Code::kInvalidArgument, "EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
                          {{"eventName", sparkSqlId(col_)}, {"eventType", sparkSqlType(v.type())}});
      TimeMs t = v.asLong();
      if (obs.count == 0 || t < obs.min) obs.min = t;
      if (obs.count == 0 || t > obs.max) obs.max = t;
      obs.sum += static_cast<double>(t);
      ++obs.count;
    }
    return input;
  }

 private:
  std::string col_;
  DurationMs delay_;
  int plan_index_ = 0;
  SchemaPtr schema_;  // the input schema index_ is the column's position in (-1: absent)
  int index_ = -1;
};

}  // namespace

std::unique_ptr<Operator> makeFilter(RowPredicate p, std::string d) {
  return std::make_unique<FilterOperator>(std::move(p), std::move(d));
}
std::unique_ptr<Operator> makeMap(RowMapper m, std::string d) {
  return std::make_unique<MapOperator>(std::move(m), std::move(d));
}
std::unique_ptr<Operator> makeSelect(std::vector<std::string> cols) {
  return std::make_unique<SelectOperator>(std::move(cols));
}
std::unique_ptr<Operator> makeWithWatermark(std::string column, DurationMs delay) {
  return std::make_unique<WithWatermarkOperator>(std::move(column), delay);
}

}  // namespace streamsim
