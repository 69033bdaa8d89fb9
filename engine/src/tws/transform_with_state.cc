// The transformWithState operator (transform_with_state.h). Per partition task, in the order of
// TWS/TransformWithStateExec.scala: init -> initial state (batch 0) -> input keys ascending ->
// expired timers ascending (ts, key) -> TTL cleanup -> commit -> close (SEMANTICS.md §6).
#include "streamsim/tws/transform_with_state.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/ops/partitioning.h"
#include "streamsim/ops/stateful_support.h"
#include "streamsim/state/row_encoding.h"
#include "streamsim/trace_events.h"
#include "tws/async_runtime.h"
#include "tws/tws_internal.h"

namespace streamsim {

int twsPartitionOf(const Row& key, int numPartitions) {
  return ops::partitionOf(encodeOrderedRow(key), numPartitions);
}

namespace {

using detail::Phase;
using detail::TaskContext;
using detail::TaskHandle;

constexpr std::string_view kOperatorName = "transformWithState";

// One partition task attempt: the processor, its handle and their shared context. Kept alive
// until close() ran after the commit.
struct PartitionRun {
  std::unique_ptr<TaskContext> task;
  std::unique_ptr<TaskHandle> handle;
  std::unique_ptr<StatefulProcessor> processor;
};

// The state schema record of the processor's variables (state/state_schema.h): value schema =
// the codec's DDL, key schema = a MapState's user key DDL (the grouping key is recorded by
// column in the operator record), kind and TTL flag.
std::vector<StateVariableSchema> variableSchemas(const std::vector<detail::StateVariable>& vars) {
  std::vector<StateVariableSchema> out;
  for (const auto& v : vars) {
    std::string kind = v.kind == detail::StateKind::kValue  ? "value"
                       : v.kind == detail::StateKind::kList ? "list"
                                                            : "map";
    out.push_back(StateVariableSchema{v.name, v.info.keySchema, v.info.valueSchema, v.ttl.has_value(),
                                      std::move(kind)});
  }
  return out;
}

class TransformWithStateOperator final : public Operator {
 public:
  explicit TransformWithStateOperator(TransformWithStateSpec spec) : spec_(std::move(spec)) {}

  std::string name() const override { return std::string(kOperatorName); }
  bool isStateful() const override { return true; }
  bool hasInitialState() const override { return spec_.initialState.has_value(); }
  std::optional<std::string> outputEventTimeColumn() const override {
    return spec_.eventTimeColumnName;
  }
  // Every time mode runs in real-time mode, event time too (Spark master's
  // RealTimeTransformWithStateSuite; seed 004, Databricks' reference, still says event-time
  // timers are not supported there — docs/real-time.md "Where the seed is stricter").
  std::string realTimeUnsupported() const override { return ""; }

  Status start(const OperatorStartContext& ctx) override {
    if (!spec_.processorFactory)
      return Status::InvalidArgument("transformWithState: no processor factory given");
    OutputMode mode = spec_.outputMode.value_or(ctx.outputMode);
    STREAMSIM_RETURN_IF_ERROR(checkOutputMode(mode));
    operator_id_ = ctx.operatorId;
    input_event_column_ = spec_.inputEventTimeColumn.value_or(ctx.eventTimeColumn);
    if (spec_.timeMode == TimeMode::kEventTime && input_event_column_.empty())
      return Status::InvalidArgument(
          "transformWithState with TimeMode EventTime needs an event-time column: add "
          "withWatermark(column, delay) before it or set inputEventTimeColumn");
    // Run init() once without a store to learn the state variables (as Spark's driver does),
    // so handle-rule violations in init surface at start, and record the layout.
    TaskContext task;
    task.handleState = HandleState::kPreInit;
    task.timeMode = spec_.timeMode;
    task.query.batchId = -1;
    TaskHandle handle(task);
    std::unique_ptr<StatefulProcessor> processor = spec_.processorFactory();
    if (!processor)
      return Status::InvalidArgument(
          fmt::format("transformWithState: the factory of '{}' returned no processor",
                      spec_.processorName));
    if (spec_.initialState &&
        dynamic_cast<StatefulProcessorWithInitialState*>(processor.get()) == nullptr)
      return Status::InvalidArgument(fmt::format(
          "transformWithState: initial state was given but processor '{}' does not derive from "
          "StatefulProcessorWithInitialState",
          spec_.processorName));
    processor->setHandle(&handle);
    task.phase = Phase::kInit;
    try {
      processor->init(handle);
    } catch (const StatefulProcessorError& e) {
      if (!task.violation) task.violation = e;
    } catch (const std::exception& e) {
      return userFunctionError("init", e.what())
          .withContext(fmt::format("transformWithState: processor '{}'", spec_.processorName));
    }
    if (task.violation)
      return violationStatus(*task.violation)
          .withContext(fmt::format("transformWithState: processor '{}' broke a handle rule in init",
                                   spec_.processorName));
    ops::StateLayout layout;
    layout.operatorName = "transformWithStateExec";
    layout.keyColumns = spec_.groupBy;
    layout.details = fmt::format("timeMode={}", timeModeName(spec_.timeMode));
    // Spark's operator properties, checked on restart (TransformWithStateVariableUtils).
    layout.properties = {{"timeMode", std::string(detail::sparkTimeModeName(spec_.timeMode))},
                         {"outputMode", outputModeSparkName(mode)}};
    layout.variables = variableSchemas(task.variables);
    // The grouping key's types (Spark's key schema of its ValueState and ListState column
    // families); Spark's TWS value schemas are the declared ones (layout.variables).
    auto keyTypes = [groupBy = spec_.groupBy](const std::vector<Row>& rows) -> std::optional<ops::StateRowTypes> {
      std::optional<Schema> key = ops::keyTypesOf(rows, groupBy);
      if (!key) return std::nullopt;
      return ops::StateRowTypes{std::move(*key), std::nullopt};
    };
    STREAMSIM_RETURN_IF_ERROR(schema_record_.start(ctx, std::move(layout), keyTypes, "transformWithState"));
    started_ = true;
    return Status::OK();
  }

  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    if (!started_)
      return Status::FailedPrecondition("transformWithState: process() called before start()");
    STREAMSIM_RETURN_IF_ERROR(checkOutputMode(spec_.outputMode.value_or(ctx.outputMode)));
    const int n = ctx.shufflePartitions;
    if (n <= 0)
      return Status::InvalidArgument(
          fmt::format("spark.sql.shuffle.partitions must be > 0, got {}", n));

    // Late rows (EventTime mode): eventTime <= late watermark, dropped before the processor.
    int64_t dropped = 0;
    std::vector<Row> late;
    if (spec_.timeMode == TimeMode::kEventTime && ctx.hasWatermark) {
      std::erase_if(input, [&](const Row& r) {
        auto t = eventTimeOf(r, input_event_column_);
        bool isLate = t.has_value() && *t <= ctx.lateWatermarkMs;
        dropped += isLate ? 1 : 0;
        if (isLate && ctx.realTime()) late.push_back(r);
        return isLate;
      });
    }
    // Real time: a late row is not passed to the processor but its partition still scans its
    // timers (RealTimeTransformWithStateSuite "uses fixed between-batch watermarks for
    // incremental event-time timers": "The late 280 row still triggers the per-row timer scan").
    ops::PartitionedGroups lateGroups(n);
    if (!late.empty()) {
      STREAMSIM_ASSIGN_OR_RETURN(lateGroups, group(std::move(late), spec_.groupBy, n, "input"));
    }
    STREAMSIM_RETURN_IF_ERROR(schema_record_.beforeBatch(ctx, input));
    STREAMSIM_ASSIGN_OR_RETURN(ops::PartitionedGroups groups,
                               group(std::move(input), spec_.groupBy, n, "input"));
    ops::PartitionedGroups initial(n);
    // Real time: batch 0's first call applies the initial state (to every partition).
    const bool applyInitial = ctx.batchId == 0 && spec_.initialState && !initial_applied_;
    if (ctx.realTime()) initial_applied_ = initial_applied_ || ctx.batchId == 0;
    if (applyInitial) {
      STREAMSIM_ASSIGN_OR_RETURN(
          initial, group(*spec_.initialState, spec_.initialStateGroupBy.value_or(spec_.groupBy),
                         n, "initial state"));
    }

    std::vector<PartitionRun> runs(n);
    // Each partition's figures of its last attempt (a retried attempt's are dropped).
    std::vector<StateOperatorProgress> figures(n);
    ops::PartitionTask body = [&](int partition, StateStore& store, ops::TaskOutput& out,
                                  const ops::MidwayFn& midway) -> Status {
      PartitionRun& run = runs[partition];
      run = PartitionRun{};
      // Real time, per record: only the partition that got the record runs (its timers are
      // checked after it); every partition runs in the final call and with initial state.
      if (!ctx.runsPartition(!groups[partition].empty() || !initial[partition].empty() ||
                             !lateGroups[partition].empty()))
        return Status::OK();
      STREAMSIM_RETURN_IF_ERROR(runPartition(ctx, partition, store, groups[partition],
                                             initial[partition], run, out, midway));
      figures[partition] = taskFigures(*run.task);
      run.task->store = nullptr;  // committed by the runner next
      return Status::OK();
    };
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> output,
                               ops::runPartitionTasks(ctx, operator_id_, kOperatorName, body));
    // close() after every partition committed (Spark calls it when the task completes).
    for (int p = 0; p < n; ++p) {
      PartitionRun& run = runs[p];
      if (!run.processor) continue;
      run.task->hasKey = false;
      Status st = invoke(ctx, p, *run.task, Phase::kClose, [&] { run.processor->close(); });
      run.task->handleState = HandleState::kClosed;
      if (!st.ok()) return st;
    }
    if (!ctx.stateProgress.empty()) {
      StateOperatorProgress& progress = ctx.stateProgress.back();
      for (const StateOperatorProgress& f : figures) addFigures(f, progress);
      progress.numRowsDroppedByWatermark += dropped;
    }
    return output;
  }

  bool needsNoDataBatch(TimeMs nextEvictionWatermark, bool watermarkMoved) const override {
    (void)nextEvictionWatermark;
    if (spec_.timeMode == TimeMode::kProcessingTime) return true;
    if (spec_.timeMode == TimeMode::kEventTime) return watermarkMoved;
    return false;
  }

 private:
  // A task's custom metrics, counted as Spark's StatefulProcessorHandleImpl and
  // TransformWithStateExec count them.
  static StateOperatorProgress taskFigures(const TaskContext& task) {
    StateOperatorProgress f;
    f.numTimersFired = task.timersFired;
    f.numValuesRemovedByTTL = task.ttlRemoved;
    f.numRegisteredTimers = task.registerTimerCalls;
    f.numDeletedTimers = task.deleteTimerCalls + task.timersFired;
    f.numDeletedStateVars = task.deletedStateVars;
    for (size_t i = 0; i < task.variables.size(); ++i) {
      const detail::StateVariable& v = task.variables[i];
      const bool ttl = v.ttl.has_value();
      int64_t& count = v.kind == detail::StateKind::kValue ? (ttl ? f.numValueStateWithTTLVars : f.numValueStateVars)
                       : v.kind == detail::StateKind::kList ? (ttl ? f.numListStateWithTTLVars : f.numListStateVars)
                                                            : (ttl ? f.numMapStateWithTTLVars : f.numMapStateVars);
      ++count;
      if (ttl)
        f.ttlRemovedByVariable.emplace_back(
            v.name, i < task.ttlRemovedByVariable.size() ? task.ttlRemovedByVariable[i] : 0);
    }
    return f;
  }
  static void addFigures(const StateOperatorProgress& f, StateOperatorProgress& into) {
    into.numTimersFired += f.numTimersFired;
    into.numValuesRemovedByTTL += f.numValuesRemovedByTTL;
    into.numRegisteredTimers += f.numRegisteredTimers;
    into.numDeletedTimers += f.numDeletedTimers;
    into.numDeletedStateVars += f.numDeletedStateVars;
    into.numValueStateVars += f.numValueStateVars;
    into.numListStateVars += f.numListStateVars;
    into.numMapStateVars += f.numMapStateVars;
    into.numValueStateWithTTLVars += f.numValueStateWithTTLVars;
    into.numListStateWithTTLVars += f.numListStateWithTTLVars;
    into.numMapStateWithTTLVars += f.numMapStateWithTTLVars;
    // Not a structured binding: clang 14 (the sanitized build) cannot capture one in a lambda.
    for (const auto& variable : f.ttlRemovedByVariable) {
      const auto& [name, removed] = variable;
      auto it = std::find_if(into.ttlRemovedByVariable.begin(), into.ttlRemovedByVariable.end(),
                             [&](const auto& e) { return e.first == variable.first; });
      if (it == into.ttlRemovedByVariable.end())
        into.ttlRemovedByVariable.emplace_back(name, removed);
      else
        it->second += removed;
    }
  }

  static std::string outputModeSparkName(OutputMode mode) {
    return mode == OutputMode::kAppend ? "Append" : mode == OutputMode::kUpdate ? "Update" : "Complete";
  }

  // TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR: processor code threw (TaskFailed: retried).
  static Status userFunctionError(std::string_view function, std::string_view reason) {
    return sparkError(Status::Code::kTaskFailed, "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                      {{"function", std::string(function)}, {"reason", std::string(reason)}});
  }
  // A broken handle rule: its condition, parameters and message.
  static Status violationStatus(const StatefulProcessorError& e) {
    return Status::FailedPrecondition(e.what()).withCondition(e.condition(), e.parameters());
  }

  static Status checkOutputMode(OutputMode mode) {
    if (mode == OutputMode::kComplete)
      return Status::InvalidArgument(
          "transformWithState does not support output mode Complete: use Append or Update");
    return Status::OK();
  }

  Result<ops::PartitionedGroups> group(std::vector<Row> rows, const std::vector<std::string>& cols,
                                       int n, std::string_view what) const {
    // Keys are encoded one after the other into one buffer (no string per row).
    std::string keys;
    keys.reserve(rows.size() * 16);
    std::vector<uint32_t> keyEnds;
    keyEnds.reserve(rows.size());
    // The grouping columns' positions, looked up again only when a row's schema differs from
    // the previous row's (rows of one source share one schema).
    const Schema* schema = nullptr;
    std::vector<int> positions(cols.size());
    const Value null;
    for (const Row& r : rows) {
      if (r.schema().get() != schema) {
        for (size_t i = 0; i < cols.size(); ++i) {
          positions[i] = r.schema()->indexOf(cols[i]);
          if (positions[i] < 0)
            return Status::InvalidArgument(fmt::format(
                "transformWithState: {} row {{{}}} has no grouping column '{}' (grouping by {})",
                what, r.toString(), cols[i], ops::formatColumnList(cols)));
        }
        schema = r.schema().get();
        // A struct key's field names (and nested element types) are not in its encoding: the
        // decoded key takes them from the input's schema.
        if (&cols == &spec_.groupBy) {
          key_fields_.resize(cols.size());
          for (size_t i = 0; i < cols.size(); ++i)
            if (schema->field(positions[i]).nested) key_fields_[i] = schema->field(positions[i]);
        }
      }
      for (int i : positions) encodeOrderedValue(static_cast<size_t>(i) < r.size() ? r[i] : null, keys);
      keyEnds.push_back(static_cast<uint32_t>(keys.size()));
    }
    return ops::groupEncodedRows(std::move(keys), keyEnds, std::move(rows), n);
  }

  // The grouping key as a Row (columns named by groupBy), decoded from its encoding into
  // `row`. The column types come from the values (a null is typed string). While they repeat,
  // as they nearly always do, the schema is the previous key's and the previous key's row is
  // overwritten in place (no allocation per key).
  void decodeKeyRow(std::string_view encoded, Row& row, SchemaPtr& cached) const {
    const size_t n = spec_.groupBy.size();
    const bool inPlace = cached != nullptr && row.schema() == cached && row.size() == n;
    std::vector<Value> fresh(inPlace ? 0 : n);
    std::string_view in = encoded;
    bool same = cached != nullptr;
    for (size_t i = 0; i < n; ++i) {
      Value& slot = inPlace ? row[i] : fresh[i];
      if (!decodeOrderedValueInto(in, slot).ok()) slot = Value();
      if (slot.isNested() && i < key_fields_.size() && key_fields_[i].type == slot.type()) {
        if (auto typed = slot.castTo(key_fields_[i]); typed.ok()) slot = std::move(typed).value();
      }
      same = same && hasInferredType(cached->field(i), slot);
    }
    if (inPlace && same) return;
    std::vector<Value> values = inPlace ? row.values() : std::move(fresh);
    if (!same) {
      std::vector<Field> fields;
      fields.reserve(n);
      for (size_t i = 0; i < n; ++i) fields.push_back(fieldOf(spec_.groupBy[i], values[i]));
      cached = makeSchema(std::move(fields));
    }
    row = Row(cached, std::move(values));
  }

  // The grouping key as Spark's keyObj.toString shows it: the value of a one-column key, else
  // "(a,b)" as a Scala tuple.
  static std::string sparkKeyString(const Row& key) {
    if (key.size() == 1) return key[0].toString();
    std::string out = "(";
    for (size_t i = 0; i < key.size(); ++i) out += (i ? "," : "") + key[i].toString();
    return out + ")";
  }

  void setKey(TaskContext& task, std::string_view encoded) const {
    task.hasKey = true;
    task.key = encoded;
    decodeKeyRow(encoded, task.keyRow, task.keySchema);
  }

  // Runs one processor call; an exception becomes a Status naming batch, partition, key and
  // method (TaskFailed: retried by the runner), a broken handle rule FailedPrecondition.
  template <class F>
  Status invoke(const BatchContext& ctx, int partition, TaskContext& task, Phase phase, F&& f) {
    task.phase = phase;
    auto where = [&] {
      return fmt::format("transformWithState: processor '{}' (batch {}, partition {}, key {})",
                         spec_.processorName, ctx.batchId, partition,
                         task.hasKey ? task.keyRow.toJson() : "(none)");
    };
    try {
      f();
    } catch (const StatefulProcessorError& e) {
      if (!task.violation) task.violation = e;
    } catch (const std::exception& e) {
      task.phase = Phase::kNone;
      return userFunctionError(detail::phaseMethod(phase), e.what()).withContext(where());
    }
    task.phase = Phase::kNone;
    if (task.violation)
      return violationStatus(*task.violation)
          .withContext(fmt::format("{} broke a handle rule in {}", where(), detail::phaseMethod(phase)));
    return Status::OK();
  }

  // Checks and collects what a handler emitted.
  Status collect(const BatchContext& ctx, int partition, const TaskContext& task, Output& o,
                 ops::TaskOutput& out) const {
    if (spec_.eventTimeColumnName) {
      for (const Row& r : o.rows()) {
        auto t = eventTimeOf(r, *spec_.eventTimeColumnName);
        if (t && *t <= ctx.lateWatermarkMs)  // Spark's parameters: watermark ms, event time us
          return sparkError(Status::Code::kFailedPrecondition,
                            "EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED",
                            {{"currentWatermark", std::to_string(ctx.lateWatermarkMs)},
                             {"emittedRowEventTime", std::to_string(*t * 1000)}},
                            fmt::format("{} = {}, watermark {}", *spec_.eventTimeColumnName,
                                        formatTimestamp(*t), formatTimestamp(ctx.lateWatermarkMs)))
              .withContext(fmt::format(
                  "transformWithState: processor '{}' (batch {}, partition {}, key {})",
                  spec_.processorName, ctx.batchId, partition, task.keyRow.toJson()));
      }
    }
    if (ctx.traceOutputRows && task.trace && !o.rows().empty()) {
      std::string rows = "\"rows\":[";
      for (size_t i = 0; i < o.rows().size(); ++i) rows += (i ? "," : "") + o.rows()[i].toJson();
      task.trace(events::kTwsOutput, rows + "]");
    }
    o.moveRowsTo(out.rows);
    return Status::OK();
  }

  // Runs one phase of an async processor's calls (async_runtime.h): the Env's scheduler picks
  // who resumes at each await; a failure is reported as invoke() reports it, a failed state
  // operation as a task failure the processor's code never saw.
  template <class KeyFn, class StartFn, class DoneFn, class CollectFn>
  Status runAsync(BatchContext& ctx, int partition, TaskContext& task, Phase phase, size_t calls,
                  int64_t& steps, KeyFn key, StartFn start, DoneFn done, CollectFn collectRows) {
    detail::AsyncPhase p;
    p.env = ctx.env;
    p.scheduler = ctx.env != nullptr ? ctx.env->scheduler : nullptr;
    p.where = SchedulingPoint{ctx.batchId, operator_id_, partition, 0, detail::phaseMethod(phase)};
    p.steps = &steps;
    p.calls = calls;
    p.encodedKey = key;
    p.enter = [&](size_t i) { setKey(task, key(i)); };
    p.keyJson = [&](size_t i) {
      Row row;
      SchemaPtr schema;
      decodeKeyRow(key(i), row, schema);
      return row.toJson();
    };
    p.start = start;
    p.done = done;
    p.collect = collectRows;
    p.failed = [&](size_t i, std::exception_ptr error, const detail::PendingOp* op) {
      setKey(task, key(i));
      if (op != nullptr) {
        try {
          std::rethrow_exception(error);
        } catch (const StatefulProcessorError& e) {
          if (!task.violation) task.violation = e;
        } catch (const std::exception& e) {
          return Status::TaskFailed(fmt::format(
              "transformWithState: state operation {} of async processor '{}' failed in {} "
              "(batch {}, partition {}, key {}): {} (the task fails and is retried; the "
              "processor's code did not see the error)",
              detail::describeAwait(op), spec_.processorName, detail::phaseMethod(phase),
              ctx.batchId, partition, task.keyRow.toJson(), e.what()));
        }
      }
      return invoke(ctx, partition, task, phase, [&] {
        if (op == nullptr) std::rethrow_exception(error);
      });
    };
    if (task.trace) p.trace = task.trace;
    task.phase = phase;
    Status st = runAsyncPhase(p);
    task.phase = Phase::kNone;
    return st;
  }

  Status runPartition(BatchContext& ctx, int partition, StateStore& store,
                      const std::vector<ops::KeyGroup>& groups,
                      const std::vector<ops::KeyGroup>& initialGroups, PartitionRun& run,
                      ops::TaskOutput& out, const ops::MidwayFn& midway) {
    run.task = std::make_unique<TaskContext>();
    TaskContext& task = *run.task;
    task.store = &store;
    task.env = ctx.env;
    task.timeMode = spec_.timeMode;
    task.batchTimestampMs = ctx.batchTimestampMs;
    task.query = ctx.query;
    task.query.batchId = ctx.batchId;
    if (ctx.env != nullptr && ctx.env->trace != nullptr) {
      TraceSink* sink = ctx.env->trace;
      int op = operator_id_;
      int64_t batch = ctx.batchId;
      task.trace = [sink, op, batch, partition, &task](std::string_view event,
                                                       const std::string& fields) {
        TraceEvent(event)
            .add("operator", op)
            .add("batch", batch)
            .add("partition", partition)
            .addJson("key", task.hasKey ? task.keyRow.toJson() : "null")
            .addMembers(fields)
            .emit(sink);
      };
    }
    run.handle = std::make_unique<TaskHandle>(task);
    run.processor = spec_.processorFactory();
    if (!run.processor)
      return Status::InvalidArgument(fmt::format(
          "transformWithState: the factory of '{}' returned no processor", spec_.processorName));
    run.processor->setHandle(run.handle.get());
    StatefulProcessor& processor = *run.processor;
    const TimerValues timerValues(ctx.batchTimestampMs, ctx.evictionWatermarkMs);
    // One buffer for every handler call of the task; collect() empties it after each call.
    Output o;

    task.handleState = HandleState::kCreated;
    STREAMSIM_RETURN_IF_ERROR(
        invoke(ctx, partition, task, Phase::kInit, [&] { processor.init(*run.handle); }));
    task.handleState = HandleState::kInitialized;

    // Initial state: batch 0 only, before any input.
    if (!initialGroups.empty()) {
      auto* withInitial = dynamic_cast<StatefulProcessorWithInitialState*>(&processor);
      if (withInitial == nullptr)
        return Status::InvalidArgument(fmt::format(
            "transformWithState: initial state was given but processor '{}' does not derive "
            "from StatefulProcessorWithInitialState",
            spec_.processorName));
      for (const ops::KeyGroup& g : initialGroups) {
        setKey(task, g.key);
        // Micro-batch: Spark fails on the key's second initial state row. Real time takes them
        // all, in order (RealTimeTransformWithStateSuite "processes non-contiguous duplicate
        // initial-state keys without sorting": a -> 1, b -> 5, a -> 2 give a count of 3).
        if (g.rows.size() > 1 && !ctx.realTime())
          return sparkError(Status::Code::kFailedPrecondition,
                            "STATEFUL_PROCESSOR_CANNOT_REINITIALIZE_STATE_ON_KEY",
                            {{"groupingKey", sparkKeyString(task.keyRow)}},
                            fmt::format("{} initial state rows for one key", g.rows.size()))
              .withContext(fmt::format("transformWithState: processor '{}' (batch {}, partition {})",
                                       spec_.processorName, ctx.batchId, partition));
        for (const Row& row : g.rows) {
          STREAMSIM_RETURN_IF_ERROR(invoke(ctx, partition, task, Phase::kInitialState, [&] {
            withInitial->handleInitialState(task.keyRow, row, timerValues, o);
          }));
          STREAMSIM_RETURN_IF_ERROR(collect(ctx, partition, task, o, out));
        }
      }
    }

    // Input rows, keys ascending; task.mid_partition after half of them.
    const size_t half = (groups.size() + 1) / 2;
    auto* async = dynamic_cast<detail::AsyncProcessorAdapter*>(&processor);
    int64_t asyncSteps = 0;
    if (async != nullptr) {
      // Async: every key's handler at once, interleaved by the scheduler (async_runtime.h).
      std::vector<Row> keys(groups.size());
      size_t finished = 0;
      STREAMSIM_RETURN_IF_ERROR(runAsync(
          ctx, partition, task, Phase::kInputRows, groups.size(), asyncSteps,
          [&](size_t i) -> std::string_view { return groups[i].key; },
          [&](size_t i, Output& o) {
            keys[i] = task.keyRow;
            return async->processor().handleInputRows(keys[i], RowRange(groups[i].rows),
                                                      timerValues, o);
          },
          [&](size_t) { return ++finished == half ? midway() : Status::OK(); },
          [&](size_t i, Output& o) {
            if (task.trace)
              task.trace(events::kTwsRows, fmt::format(R"("in":{},"out":{})", groups[i].rows.size(),
                                                 o.rows().size()));
            return collect(ctx, partition, task, o, out);
          }));
    }
    for (size_t i = 0; async == nullptr && i < groups.size(); ++i) {
      const ops::KeyGroup& g = groups[i];
      setKey(task, g.key);
      STREAMSIM_RETURN_IF_ERROR(invoke(ctx, partition, task, Phase::kInputRows, [&] {
        processor.handleInputRows(task.keyRow, RowRange(g.rows), timerValues, o);
      }));
      if (task.trace) {
        // Once per key of every traced batch: written without fmt (same text).
        std::string fields = "\"in\":";
        fields += std::to_string(g.rows.size());
        fields += ",\"out\":";
        fields += std::to_string(o.rows().size());
        task.trace(events::kTwsRows, fields);
      }
      STREAMSIM_RETURN_IF_ERROR(collect(ctx, partition, task, o, out));
      if (i + 1 == half) STREAMSIM_RETURN_IF_ERROR(midway());
    }

    // Expired timers, ascending (ts, key), also for keys without input; deleted after firing.
    task.handleState = HandleState::kDataProcessed;
    if (spec_.timeMode != TimeMode::kNone) {
      TimeMs threshold = spec_.timeMode == TimeMode::kProcessingTime ? ctx.batchTimestampMs
                                                                     : ctx.evictionWatermarkMs;
      const int64_t deletedBefore = task.timersDeleted;
      const detail::DueTimers due = detail::dueTimers(store, threshold);
      if (async != nullptr) {
        std::vector<Row> keys(due.timers.size());
        std::vector<char> skipped(due.timers.size(), 0);
        std::vector<ExpiredTimerInfo> infos;
        infos.reserve(due.timers.size());
        for (const detail::DueTimer& t : due.timers) infos.emplace_back(t.ts);
        STREAMSIM_RETURN_IF_ERROR(runAsync(
            ctx, partition, task, Phase::kExpiredTimer, due.timers.size(), asyncSteps,
            [&](size_t i) { return due.timers[i].key; },
            [&](size_t i, Output& o) -> Task<> {
              const detail::DueTimer& t = due.timers[i];
              if (task.timersDeleted != deletedBefore && !detail::timerExists(store, task.timerKeys, t.key, t.ts)) {
                skipped[i] = 1;
                return Task<>();
              }
              if (task.trace) task.trace(events::kTimerFired, fmt::format(R"("ts":{})", t.ts));
              keys[i] = task.keyRow;
              return async->processor().handleExpiredTimer(keys[i], timerValues, infos[i], o);
            },
            [&](size_t i) {
              if (skipped[i]) return Status::OK();
              detail::deleteTimerEntries(store, task.timerKeys, due.timers[i].key, due.timers[i].ts);
              ++task.timersFired;
              return Status::OK();
            },
            [&](size_t, Output& o) { return collect(ctx, partition, task, o, out); }));
      }
      for (const detail::DueTimer& t : async != nullptr ? std::span<const detail::DueTimer>()
                                                        : std::span(due.timers)) {
        // An earlier handler of this scan may have deleted it (only deleteTimer can: a handler
        // registers timers at any time, but the scan's list is fixed when it starts).
        if (task.timersDeleted != deletedBefore && !detail::timerExists(store, task.timerKeys, t.key, t.ts)) continue;
        setKey(task, t.key);
        if (task.trace) task.trace(events::kTimerFired, fmt::format(R"("ts":{})", t.ts));
        STREAMSIM_RETURN_IF_ERROR(invoke(ctx, partition, task, Phase::kExpiredTimer, [&] {
          processor.handleExpiredTimer(task.keyRow, timerValues, ExpiredTimerInfo(t.ts), o);
        }));
        STREAMSIM_RETURN_IF_ERROR(collect(ctx, partition, task, o, out));
        detail::deleteTimerEntries(store, task.timerKeys, t.key, t.ts);
        ++task.timersFired;
      }
    }

    // TTL cleanup: physically remove what expired at this batch's timestamp.
    task.handleState = HandleState::kTimerProcessed;
    task.hasKey = false;
    task.ttlRemovedByVariable.assign(task.variables.size(), 0);
    for (size_t vi = 0; vi < task.variables.size(); ++vi) {
      const detail::StateVariable& v = task.variables[vi];
      if (!v.ttl) continue;
      int64_t removed = 0;
      try {
        removed = detail::cleanupExpired(store, v, ctx.batchTimestampMs);
      } catch (const StatefulProcessorError& e) {
        return Status::Corruption(fmt::format(
            "transformWithState: TTL cleanup of '{}' (batch {}, partition {}): {}", v.name,
            ctx.batchId, partition, e.what()));
      }
      task.ttlRemoved += removed;
      task.ttlRemovedByVariable[vi] = removed;
      if (task.trace && removed > 0)
        task.trace(events::kTtlExpired, fmt::format(R"("state":{},"count":{})",
                                                  nlohmann::json(v.name).dump(), removed));
    }
    return Status::OK();
  }

  TransformWithStateSpec spec_;
  // The input's nested grouping columns (Field::nested set), by groupBy position (group()).
  mutable std::vector<Field> key_fields_;
  bool started_ = false;
  ops::StateSchemaRecord schema_record_;  // the state schema record and its restart check
  bool initial_applied_ = false;  // real time: batch 0's initial state went in
  int operator_id_ = 0;
  std::string input_event_column_;
};

}  // namespace

std::unique_ptr<Operator> makeTransformWithState(TransformWithStateSpec spec) {
  return std::make_unique<TransformWithStateOperator>(std::move(spec));
}

}  // namespace streamsim
