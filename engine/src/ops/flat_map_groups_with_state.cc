// flatMapGroupsWithState / applyInPandasWithState (ops/flat_map_groups_with_state.h).
// Follows Spark 4.1.1's FlatMapGroupsWithStateExec (processDataWithPartition: late rows dropped
// under EventTimeTimeout, the function called per key with new data, then per timed-out key,
// then the store commits; callFunctionAndUpdateState's write / remove rule; shouldRunAnotherBatch),
// GroupStateImpl (the API's rules and messages) and FlatMapGroupsWithStateExecHelper's
// StateManagerImplV2 (the value row: groupState struct, timeoutTimestamp long).
#include "streamsim/ops/flat_map_groups_with_state.h"

#include <fmt/format.h>

#include "streamsim/ops/partitioning.h"
#include "streamsim/ops/stateful_support.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim {

std::string_view groupStateTimeoutName(GroupStateTimeout t) {
  switch (t) {
    case GroupStateTimeout::kNoTimeout: return "NoTimeout";
    case GroupStateTimeout::kProcessingTimeTimeout: return "ProcessingTimeTimeout";
    case GroupStateTimeout::kEventTimeTimeout: return "EventTimeTimeout";
  }
  return "NoTimeout";
}

Result<GroupStateTimeout> parseGroupStateTimeout(std::string_view name) {
  for (auto t : {GroupStateTimeout::kNoTimeout, GroupStateTimeout::kProcessingTimeTimeout,
                 GroupStateTimeout::kEventTimeTimeout})
    if (groupStateTimeoutName(t) == name) return t;
  return Status::InvalidArgument(fmt::format(
      "unknown GroupStateTimeout '{}': expected NoTimeout, ProcessingTimeTimeout or EventTimeTimeout", name));
}

// --- GroupStateImpl's rules (GroupStateImpl.scala, QueryExecutionErrors' messages) ---

const Row& GroupState::get() const {
  if (!value_)
    throw GroupStateError("NoSuchElementException", "State is either not defined or has already been removed");
  return *value_;
}

void GroupState::update(Row newValue) {
  value_ = std::move(newValue);
  updated_ = true;
  removed_ = false;
}

void GroupState::remove() {
  value_.reset();
  updated_ = false;
  removed_ = true;
}

void GroupState::setTimeoutDuration(DurationMs durationMs) {
  if (timeout_conf_ != GroupStateTimeout::kProcessingTimeTimeout)
    throw GroupStateError("UnsupportedOperationException",
                          "Cannot set timeout duration without enabling processing time timeout in "
                          "[map|flatMap]GroupsWithState");
  if (durationMs <= 0) throw GroupStateError("IllegalArgumentException", "Timeout duration must be positive");
  timeout_timestamp_ = durationMs + batch_processing_time_ms_;
}

void GroupState::setTimeoutTimestamp(TimeMs timestampMs) {
  if (timeout_conf_ != GroupStateTimeout::kEventTimeTimeout)
    throw GroupStateError("UnsupportedOperationException",
                          "Cannot set timeout timestamp without enabling event time timeout in "
                          "[map|flatMapGroupsWithState");
  if (timestampMs <= 0) throw GroupStateError("IllegalArgumentException", "Timeout timestamp must be positive");
  if (event_time_watermark_ms_ != kNoTimestamp && timestampMs < event_time_watermark_ms_)
    throw GroupStateError("IllegalArgumentException",
                          fmt::format("Timeout timestamp ({}) cannot be earlier than the current watermark ({})",
                                      timestampMs, event_time_watermark_ms_));
  timeout_timestamp_ = timestampMs;
}

TimeMs GroupState::getCurrentWatermarkMs() const {
  if (!watermark_present_)
    throw GroupStateError("UnsupportedOperationException",
                          "Cannot get event time watermark timestamp without setting watermark before "
                          "[map|flatMap]GroupsWithState");
  return event_time_watermark_ms_;
}

namespace {

// One state row: the state (absent: a removed state whose timeout is kept) and its timeout.
struct StateData {
  std::optional<Row> state;
  TimeMs timeout = GroupState::kNoTimestamp;
};

class FlatMapGroupsWithStateOperator final : public Operator {
 public:
  explicit FlatMapGroupsWithStateOperator(FlatMapGroupsWithStateSpec spec) : spec_(std::move(spec)) {}

  std::string name() const override {
    return fmt::format("{}{}({})", spec_.operatorName, ops::formatColumnList(spec_.groupBy), spec_.functionName);
  }
  bool isStateful() const override { return true; }

  Status start(const OperatorStartContext& ctx) override {
    operator_id_ = ctx.operatorId;
    event_time_column_ = ctx.eventTimeColumn;
    last_eviction_watermark_.reset();
    if (spec_.outputMode == OutputMode::kComplete)
      return Status::FailedPrecondition(fmt::format(
          "{}: output mode Complete is not supported (Spark's UnsupportedOperationChecker): use Append "
          "or Update", spec_.operatorName));
    if (spec_.timeout == GroupStateTimeout::kEventTimeTimeout && event_time_column_.empty())
      return Status::FailedPrecondition(
          "Watermark must be specified in the query using '[Dataset/DataFrame].withWatermark()' for "
          "using event-time timeout in a [map|flatMap]GroupsWithState. Event-time timeout not "
          "supported without watermark.");
    auto schema = parseSchema(spec_.stateSchemaDDL);
    if (!schema.ok())
      return schema.status().withContext(fmt::format("{}: stateStructType '{}'", spec_.operatorName,
                                                     spec_.stateSchemaDDL));
    state_schema_ = *schema;
    state_field_ = structField("groupState", state_schema_);
    if (!spec_.function) return Status::FailedPrecondition(fmt::format("{}: no function", spec_.operatorName));
    STREAMSIM_ASSIGN_OR_RETURN(func_, spec_.function());

    ops::StateLayout layout;
    layout.operatorName = spec_.operatorName;
    layout.keyColumns = spec_.groupBy;
    layout.details = fmt::format("timeout={}", groupStateTimeoutName(spec_.timeout));
    layout.properties = {{"timeoutConf", std::string(groupStateTimeoutName(spec_.timeout))},
                         {"stateFormatVersion", "2"}};
    layout.valueSchema = valueSchemaDDL();
    layout.variables.push_back(StateVariableSchema{"default", "", valueSchemaDDL(), false, ""});
    auto keyTypes = [groupBy = spec_.groupBy](const std::vector<Row>& rows) -> std::optional<ops::StateRowTypes> {
      std::optional<Schema> key = ops::keyTypesOf(rows, groupBy);
      if (!key) return std::nullopt;
      return ops::StateRowTypes{std::move(*key), std::nullopt};
    };
    return schema_record_.start(ctx, std::move(layout), keyTypes, spec_.operatorName);
  }

  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    if (!func_) return Status::FailedPrecondition(fmt::format("{}: process() before start()", spec_.operatorName));
    const bool watermarkOn = !event_time_column_.empty();
    // Late rows go before the function only under EventTimeTimeout (processDataWithPartition).
    int64_t dropped = 0;
    if (spec_.timeout == GroupStateTimeout::kEventTimeTimeout && watermarkOn) {
      std::erase_if(input, [&](const Row& r) {
        auto t = eventTimeOf(r, event_time_column_);
        bool late = t.has_value() && *t <= ctx.lateWatermarkMs;
        dropped += late ? 1 : 0;
        return late;
      });
    }
    STREAMSIM_RETURN_IF_ERROR(schema_record_.beforeBatch(ctx, input));
    ops::PartitionedGroups parts = ops::partitionRows(std::move(input), spec_.groupBy, ctx.shufflePartitions);
    const TimeMs watermark = watermarkOn ? ctx.evictionWatermarkMs : GroupState::kNoTimestamp;

    auto task = [&](int p, StateStore& store, ops::TaskOutput& out, const ops::MidwayFn& midway) -> Status {
      const auto& groups = parts[static_cast<size_t>(p)];
      if (!ctx.runsPartition(!groups.empty())) return Status::OK();
      for (size_t i = 0; i < groups.size(); ++i) {
        if (i == groups.size() / 2) STREAMSIM_RETURN_IF_ERROR(midway());
        const ops::KeyGroup& g = groups[i];
        STREAMSIM_ASSIGN_OR_RETURN(StateData data, readState(store, g.key));
        std::vector<Row> values(g.rows.begin(), g.rows.end());  // copied: a retried task reads them again
        STREAMSIM_RETURN_IF_ERROR(
            call(store, g.key, keyRowOf(g.rows.front()), std::move(data), values, false, ctx, watermark, out));
      }
      if (spec_.timeout == GroupStateTimeout::kNoTimeout) return Status::OK();
      // processTimedOutState: every state whose timeout is set and below the threshold, after
      // the new data's calls (which may have moved timeouts), in key order.
      const TimeMs threshold = spec_.timeout == GroupStateTimeout::kProcessingTimeTimeout
                                   ? ctx.batchTimestampMs
                                   : ctx.evictionWatermarkMs;
      std::vector<std::pair<std::string, std::string>> timingOut;
      Status scanned = Status::OK();
      store.scan("default", "", "", [&](std::string_view key, std::string_view value) {
        auto d = decodeState(value);
        if (!d.ok()) {
          scanned = d.status();
          return false;
        }
        if (d->timeout != GroupState::kNoTimestamp && d->timeout < threshold)
          timingOut.emplace_back(std::string(key), std::string(value));
        return true;
      });
      STREAMSIM_RETURN_IF_ERROR(scanned);
      for (const auto& [key, value] : timingOut) {
        STREAMSIM_ASSIGN_OR_RETURN(StateData data, decodeState(value));
        STREAMSIM_ASSIGN_OR_RETURN(Row keyRow, decodeKey(key));
        STREAMSIM_RETURN_IF_ERROR(call(store, key, keyRow, std::move(data), {}, true, ctx, watermark, out));
      }
      return Status::OK();
    };
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> out,
                               ops::runPartitionTasks(ctx, operator_id_, spec_.operatorName, task));
    if (!ctx.stateProgress.empty()) ctx.stateProgress.back().numRowsDroppedByWatermark += dropped;
    if (watermarkOn) last_eviction_watermark_ = ctx.evictionWatermarkMs;
    return out;
  }

  // Spark 4.1.1 records its state format (2, StateManagerImplV2) in the offsets; a checkpoint
  // without it is read as format 1 by Spark (OffsetSeqMetadata.relevantSQLConfDefaultValues).
  std::vector<std::pair<std::string, std::string>> offsetsConf() const override {
    return {{"spark.sql.streaming.flatMapGroupsWithState.stateFormatVersion", "2"}};
  }

  // Spark's shouldRunAnotherBatch: ProcessingTimeTimeout always; EventTimeTimeout when the
  // watermark moved past the one of the last batch.
  bool needsNoDataBatch(TimeMs nextEvictionWatermark, bool watermarkMoved) const override {
    switch (spec_.timeout) {
      case GroupStateTimeout::kProcessingTimeTimeout: return true;
      case GroupStateTimeout::kEventTimeTimeout:
        if (event_time_column_.empty()) return false;
        if (last_eviction_watermark_) return nextEvictionWatermark > *last_eviction_watermark_;
        return watermarkMoved;
      case GroupStateTimeout::kNoTimeout: return false;
    }
    return false;
  }

 private:
  bool storesTimeout() const { return spec_.timeout != GroupStateTimeout::kNoTimeout; }

  // StateManagerImplV2.stateSchema.
  std::string valueSchemaDDL() const {
    std::string ddl = fmt::format("groupState {}", typeDDL(state_field_));
    if (storesTimeout()) ddl += ", timeoutTimestamp long NOT NULL";
    return ddl;
  }

  Row keyRowOf(const Row& row) const {
    std::vector<Field> fields;
    std::vector<Value> values;
    for (const auto& c : spec_.groupBy) {
      const Value& v = row.get(c);
      fields.push_back(fieldOf(c, v));
      values.push_back(v);
    }
    return Row(makeSchema(std::move(fields)), std::move(values));
  }

  Result<Row> decodeKey(std::string_view key) const {
    std::string_view in = key;
    std::vector<Field> fields;
    std::vector<Value> values;
    for (const auto& c : spec_.groupBy) {
      STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
      fields.push_back(fieldOf(c, v));
      values.push_back(std::move(v));
    }
    return Row(makeSchema(std::move(fields)), std::move(values));
  }

  std::string encodeState(const std::optional<Row>& state, TimeMs timeout) const {
    std::string out;
    encodeOrderedValue(state ? Value::structOf(state_schema_, state->values()) : Value(), out);
    if (storesTimeout()) encodeOrderedValue(Value(int64_t{timeout}), out);
    return out;
  }

  Result<StateData> decodeState(std::string_view value) const {
    std::string_view in = value;
    StateData d;
    STREAMSIM_ASSIGN_OR_RETURN(Value s, decodeOrderedValue(in, state_field_));
    if (!s.isNull()) d.state = s.asRow();
    if (storesTimeout()) {
      STREAMSIM_ASSIGN_OR_RETURN(Value t, decodeOrderedValue(in));
      d.timeout = t.asLong();
    }
    if (!in.empty())
      return Status::Corruption(fmt::format("{}: {} bytes after a state row", spec_.operatorName, in.size()));
    return d;
  }

  Result<StateData> readState(StateStore& store, std::string_view key) const {
    std::optional<std::string> v = store.get("default", key);
    if (!v) return StateData{};
    return decodeState(*v);
  }

  // The value of update() as a row of the state schema: same number of fields, each null or of
  // the field's type.
  Result<Row> conform(const Row& row) const {
    const auto& fields = state_schema_->fields();
    if (row.size() != fields.size())
      return Status::InvalidArgument(fmt::format(
          "{}: the state value ({}) has {} fields; stateStructType '{}' has {}", spec_.operatorName,
          row.toString(), row.size(), spec_.stateSchemaDDL, fields.size()));
    for (size_t i = 0; i < fields.size(); ++i) {
      if (row[i].isNull() || hasInferredType(fields[i], row[i])) continue;
      return Status::InvalidArgument(fmt::format(
          "{}: state field '{}' is {} but the value {} is {}", spec_.operatorName, fields[i].name,
          typeDDL(fields[i]), row[i].toString(), typeDDL(fieldOf(fields[i].name, row[i]))));
    }
    return Row(state_schema_, row.values());
  }

  // callFunctionAndUpdateState.
  Status call(StateStore& store, std::string_view key, const Row& keyRow, StateData data,
              const std::vector<Row>& values, bool timedOut, const BatchContext& ctx, TimeMs watermark,
              ops::TaskOutput& out) {
    GroupState state(std::move(data.state), ctx.batchTimestampMs, watermark, spec_.timeout, timedOut,
                     !event_time_column_.empty());
    std::vector<Row> rows;
    try {
      rows = func_(keyRow, values, state);
    } catch (const std::exception& e) {
      // FlatMapGroupsWithStateUserFuncException (a failed task: retried, then the query fails).
      return sparkError(Status::Code::kTaskFailed, "FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
                        {{"reason", e.what()}})
          .withContext(fmt::format("{}: function '{}', key ({})", spec_.operatorName, spec_.functionName,
                                   keyRow.toString()));
    }
    for (auto& r : rows) out.rows.push_back(std::move(r));
    const std::optional<TimeMs> timeout = state.timeoutTimestamp();
    if (state.isRemoved() && !timeout) {
      store.remove("default", key);
      return Status::OK();
    }
    const TimeMs newTimeout = timeout.value_or(GroupState::kNoTimestamp);
    if (!(state.isUpdated() || state.isRemoved() || newTimeout != data.timeout)) return Status::OK();
    std::optional<Row> value;
    if (state.exists()) {
      auto conformed = conform(*state.getOption());
      if (!conformed.ok())
        return conformed.status().withContext(fmt::format("function '{}', key ({})", spec_.functionName,
                                                          keyRow.toString()));
      value = std::move(*conformed);
    }
    store.put("default", key, encodeState(value, newTimeout));
    return Status::OK();
  }

  FlatMapGroupsWithStateSpec spec_;
  GroupStateFunction func_;
  int operator_id_ = 0;
  std::string event_time_column_;
  SchemaPtr state_schema_;
  Field state_field_;
  std::optional<TimeMs> last_eviction_watermark_;
  ops::StateSchemaRecord schema_record_;
};

}  // namespace

std::unique_ptr<Operator> makeFlatMapGroupsWithState(FlatMapGroupsWithStateSpec spec) {
  return std::make_unique<FlatMapGroupsWithStateOperator>(std::move(spec));
}

}  // namespace streamsim
