// Spark-named stateful operators on DataFrame (dataframe_ops.h): thin builders over the operator
// factories of ops/ and tws/.
#include "streamsim/dataframe_ops.h"

#include <fmt/format.h>

#include "streamsim/expr/functions.h"
#include "streamsim/ops/dedup.h"
#include "streamsim/ops/expr_aggregation.h"
#include "streamsim/ops/expr_ops.h"
#include "streamsim/ops/stream_stream_join.h"
#include "streamsim/ops/streaming_limit.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim {
namespace {

// Stands where an operator could not be built; fails the query's start() with `error`.
class FailingOperator final : public Operator {
 public:
  FailingOperator(std::string name, Status error) : name_(std::move(name)), error_(std::move(error)) {}
  std::string name() const override { return name_; }
  Status start(const OperatorStartContext&) override { return error_; }
  Result<std::vector<Row>> process(std::vector<Row>, BatchContext&) override { return error_; }

 private:
  std::string name_;
  Status error_;
};

TransformWithStateSpec twsSpec(const std::vector<std::string>& groupBy, ProcessorFactory factory,
                               std::string name, TimeMode timeMode, OutputMode outputMode,
                               TransformWithStateOptions options) {
  TransformWithStateSpec spec;
  spec.groupBy = groupBy;
  spec.processorFactory = std::move(factory);
  spec.processorName = options.processorName.value_or(std::move(name));
  spec.timeMode = timeMode;
  spec.outputMode = outputMode;
  spec.eventTimeColumnName = std::move(options.eventTimeColumnName);
  spec.inputEventTimeColumn = std::move(options.inputEventTimeColumn);
  spec.initialState = std::move(options.initialState);
  spec.initialStateGroupBy = std::move(options.initialStateGroupBy);
  return spec;
}

}  // namespace

DataFrame DataFrame::limit(int64_t n) const {
  return transform([n] { return makeStreamingLimit(n); });
}

DataFrame DataFrame::dropDuplicates(std::vector<std::string> columns) const {
  return transform([columns] { return makeDropDuplicates(columns); });
}

DataFrame DataFrame::dropDuplicatesWithinWatermark(std::vector<std::string> columns) const {
  return transform([columns] { return makeDropDuplicatesWithinWatermark(columns); });
}

DataFrame DataFrame::over(std::vector<DataFrame> inputs) {
  DataFrame out;
  for (const DataFrame& in : inputs) {
    const int offset = static_cast<int>(out.sources_.size());
    for (size_t i = 0; i < in.sources_.size(); ++i) {
      out.sources_.push_back(in.sources_[i]);
      out.readers_.push_back(in.sourceReader(i) + offset);
    }
  }
  out.inputs_ = std::move(inputs);
  return out;
}

DataFrame DataFrame::join(const DataFrame& right, StreamStreamJoinSpec spec) const {
  // The join's two inputs: each side's rows through that side's own operators (Spark's plan:
  // the join's children), the left's first. The join tells them apart by the rows each input
  // gave (BatchContext::sourceRowCounts of the join's node): input 0 is the left side.
  DataFrame out = over({*this, right});
  spec.leftSources = 1;
  out.operators_.push_back([spec] { return makeStreamStreamJoin(spec); });
  return out;
}

DataFrame DataFrame::unionAll(const DataFrame& other, std::optional<Schema> output) const {
  // Spark's Union: each child's rows as its own operators leave them, concatenated.
  DataFrame out = over({*this, other});
  if (output) out.operators_.push_back([o = *output] { return makeUnionByPositionOperator(o); });
  return out;
}

DataFrame DataFrame::join(StaticTable table, std::vector<std::string> on, std::string joinType) const {
  // An unknown join type fails start(), as every other rule of the operator.
  return transform([table = std::move(table), on = std::move(on), joinType]() -> std::unique_ptr<Operator> {
    auto type = parseJoinType(joinType);
    if (!type.ok()) return std::make_unique<FailingOperator>("join", type.status());
    return makeStreamStaticJoin(table, on, *type);
  });
}

GroupedData DataFrame::groupBy(std::vector<std::string> columns) const {
  return GroupedData(*this, std::move(columns));
}

GroupedData DataFrame::groupBy(std::initializer_list<std::string> columns) const {
  return GroupedData(*this, std::vector<std::string>(columns));
}

GroupedData DataFrame::groupBy(std::vector<expr::Column> columns) const {
  return GroupedData(*this, std::move(columns));
}

DataFrame GroupedData::transformWithState(ProcessorFactory processorFactory, TimeMode timeMode,
                                          OutputMode outputMode,
                                          TransformWithStateOptions options) const {
  TransformWithStateSpec spec = twsSpec(columns_, std::move(processorFactory), "processor",
                                        timeMode, outputMode, std::move(options));
  return df_.transform([spec] { return makeTransformWithState(spec); });
}

DataFrame GroupedData::transformWithState(const ProcessorSet& processors, const std::string& registryName,
                                          TimeMode timeMode, OutputMode outputMode,
                                          TransformWithStateOptions options) const {
  auto factory = processors.factory(registryName);
  if (!factory.ok()) {
    Status error = factory.status().withContext("transformWithState");
    return df_.transform([error] {
      return std::unique_ptr<Operator>(std::make_unique<FailingOperator>("transformWithState", error));
    });
  }
  TransformWithStateSpec spec = twsSpec(columns_, std::move(factory).value(), registryName, timeMode,
                                        outputMode, std::move(options));
  return df_.transform([spec] { return makeTransformWithState(spec); });
}

GroupedData GroupedData::window(std::string timeColumn, DurationMs windowDuration,
                                DurationMs slideDuration, DurationMs startTime) const {
  GroupedData out = *this;
  out.window_ = TimeWindow{std::move(timeColumn), windowDuration, slideDuration, startTime};
  return out;
}

GroupedData GroupedData::sessionWindow(std::string timeColumn, DurationMs gap) const {
  GroupedData out = *this;
  out.window_ = TimeWindow{std::move(timeColumn), 0, 0, 0};
  out.session_gap_ = gap;
  return out;
}

DataFrame GroupedData::agg(std::vector<Aggregate> aggregates) const {
  WindowAggregationSpec spec;
  spec.groupBy = columns_;
  spec.aggregates = std::move(aggregates);
  if (!window_) {
    spec.kind = WindowKind::kNone;
  } else {
    spec.window = *window_;
    if (session_gap_) {
      spec.kind = WindowKind::kSession;
      spec.sessionGap = *session_gap_;
    }
  }
  return df_.transform([spec] { return makeWindowAggregation(spec); });
}

DataFrame GroupedData::agg(std::vector<expr::Column> aggregates) const {
  std::vector<expr::Column> keys;
  if (keys_) {
    keys = *keys_;
  } else {
    for (const auto& c : columns_) keys.push_back(functions::col(c));
  }
  if (window_ || (keys_ && !columns_.empty())) {
    Status st = Status::InvalidArgument("agg(Column...): group by a window(...) or session_window(...) Column instead of window() / sessionWindow()");
    return df_.transform([st] { return std::make_unique<FailingOperator>("aggregation", st); });
  }
  auto plan = planAggregation(keys, aggregates);
  if (!plan.ok()) {
    Status st = plan.status();
    return df_.transform([st] { return std::make_unique<FailingOperator>("aggregation", st); });
  }
  DataFrame df = df_;
  if (!plan->projectNames.empty()) {
    auto names = plan->projectNames;
    auto values = plan->projectValues;
    df = df.transform([names, values] { return makeWithColumnsOperator(names, values); });
  }
  WindowAggregationSpec spec = plan->spec;
  df = df.transform([spec] { return makeWindowAggregation(spec); });
  if (!plan->resultColumns.empty()) df = df.select(plan->resultColumns);
  return df;
}

}  // namespace streamsim
