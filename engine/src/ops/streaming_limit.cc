// The streaming limit (ops/streaming_limit.h), after Spark 4.1's StreamingGlobalLimitExec.
#include "streamsim/ops/streaming_limit.h"

#include <fmt/format.h>

#include "streamsim/ops/stateful_support.h"
#include "streamsim/state/row_encoding.h"

#include "byte_order.h"

namespace streamsim {
namespace {

// The count's value: a long as 8 bytes big-endian.
std::string encodeCount(int64_t n) {
  std::string out;
  detail::storeBig64(static_cast<uint64_t>(n), out);
  return out;
}

Result<int64_t> decodeCount(std::string_view v) {
  if (v.size() != 8)
    return Status::Corruption(fmt::format("globalLimit: the stored count is {} bytes, expected 8", v.size()));
  return static_cast<int64_t>(detail::loadBig64(v.data()));
}

class StreamingLimit final : public Operator {
 public:
  explicit StreamingLimit(int64_t limit) : limit_(limit) {}

  std::string name() const override { return fmt::format("limit({})", limit_); }
  bool isStateful() const override { return true; }
  // StreamingGlobalLimitStrategy: after a streaming aggregation in Complete mode the limit is
  // the batch's (no state, no operator id).
  bool isStatefulIn(const OperatorStartContext& ctx) const override { return !perBatch(ctx); }

  Status start(const OperatorStartContext& ctx) override {
    if (limit_ < 0)
      return Status::InvalidArgument(fmt::format(
                 "The limit like expression \"{}\" is invalid. The limit expression must be equal to or greater "
                 "than 0, but got {}.",
                 limit_, limit_))
          .withCondition("INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE",
                         {{"name", "limit"}, {"expr", std::to_string(limit_)}, {"v", std::to_string(limit_)}});
    if (ctx.outputMode == OutputMode::kUpdate) {
      std::string msg = "Limits are not supported on streaming DataFrames/Datasets in Update output mode";
      return Status::InvalidArgument(msg).withCondition("_LEGACY_ERROR_TEMP_3102", {{"msg", msg}});
    }
    per_batch_ = perBatch(ctx);
    operator_id_ = ctx.operatorId;
    if (per_batch_) return Status::OK();
    ops::StateLayout layout;
    layout.operatorName = "globalLimit";  // the limit itself may change on restart, as in Spark
    // The one key is a null (Spark's key schema: `key void`, which streamsim's DDL lacks).
    layout.variables.push_back(StateVariableSchema{"default", "", "value long", false, ""});
    return ops::checkOrRecordStateLayout(ctx, layout, "limit");
  }

  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    if (per_batch_) {
      if (static_cast<int64_t>(input.size()) > limit_) input.resize(static_cast<size_t>(limit_));
      return input;
    }
    std::string key;
    encodeOrderedValue(Value(), key);  // the one key: null
    // AllTuples: one task over every row, on partition 0's store (the operator's only one).
    BatchContext one = ctx;
    one.shufflePartitions = 1;
    one.stateProgress.clear();
    auto task = [&](int, StateStore& store, ops::TaskOutput& out, const ops::MidwayFn& midway) -> Status {
      int64_t before = 0;
      if (auto v = store.get("default", key)) {
        STREAMSIM_ASSIGN_OR_RETURN(before, decodeCount(*v));
      }
      int64_t count = before;
      for (const Row& row : input) {  // copied: a retried task reads them again
        if (count >= limit_) break;
        out.rows.push_back(row);
        ++count;
      }
      STREAMSIM_RETURN_IF_ERROR(midway());
      if (count > before) store.put("default", key, encodeCount(count));
      return Status::OK();
    };
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> out, ops::runPartitionTasks(one, operator_id_, "globalLimit", task));
    // numShufflePartitions: the tasks that ran, one (StateStoreWriter.setOperatorMetrics).
    for (auto& p : one.stateProgress) ctx.stateProgress.push_back(std::move(p));
    return out;
  }

 private:
  static bool perBatch(const OperatorStartContext& ctx) {
    return ctx.outputMode == OutputMode::kComplete && ctx.afterStreamingAggregation;
  }

  int64_t limit_;
  bool per_batch_ = false;
  int operator_id_ = 0;
};

}  // namespace

std::unique_ptr<Operator> makeStreamingLimit(int64_t limit) { return std::make_unique<StreamingLimit>(limit); }

}  // namespace streamsim
