// Windowed streaming aggregation (ops/window_aggregation.h), after Spark's
// StateStoreRestoreExec/StateStoreSaveExec: per partition, late (key, window) groups are dropped
// with the late watermark, the rest merged into the stored aggregates, then rows are emitted and
// state evicted according to the output mode, then the store commits.
//
// State format (SEMANTICS.md §4; this file is its only writer and reader):
//   key   = encodeOrderedValue of each groupBy column, then of window_start and window_end
//           (timestamps), concatenated — so a partition's keys sort by group, then window.
//   value = one byte 0x01 (format version), then per aggregate in spec order, each slot an
//           encodeOrderedValue (row_encoding.h; self-describing type tag):
//             count -> long;  sum -> null | long | double;  min, max -> null | the value;
//             avg   -> double sum, then long count (two slots).
#include "streamsim/ops/window_aggregation.h"

#include <set>

#include "streamsim/ops/partitioning.h"
#include "streamsim/ops/stateful_support.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim {

namespace {

constexpr char kValueFormatV1 = '\x01';
constexpr std::string_view kCf = "default";

std::string_view functionName(AggregateFunction f) {
  switch (f) {
    case AggregateFunction::kCount: return "count";
    case AggregateFunction::kSum: return "sum";
    case AggregateFunction::kMin: return "min";
    case AggregateFunction::kMax: return "max";
    case AggregateFunction::kAvg: return "avg";
  }
  return "?";
}

TimeMs floorMod(TimeMs a, TimeMs b) {
  TimeMs m = a % b;
  return m < 0 ? m + b : m;
}

// One aggregate's running value: `a` (and `b` for avg's count).
struct Slot {
  Value a;
  Value b;
};

std::vector<Slot> freshSlots(const std::vector<Aggregate>& aggs) {
  std::vector<Slot> slots(aggs.size());
  for (size_t i = 0; i < aggs.size(); ++i) {
    switch (aggs[i].function) {
      case AggregateFunction::kCount: slots[i].a = Value(int64_t{0}); break;
      case AggregateFunction::kAvg:
        slots[i].a = Value(0.0);
        slots[i].b = Value(int64_t{0});
        break;
      default: break;  // null
    }
  }
  return slots;
}

std::string encodeSlots(const std::vector<Aggregate>& aggs, const std::vector<Slot>& slots) {
  std::string out(1, kValueFormatV1);
  for (size_t i = 0; i < aggs.size(); ++i) {
    encodeOrderedValue(slots[i].a, out);
    if (aggs[i].function == AggregateFunction::kAvg) encodeOrderedValue(slots[i].b, out);
  }
  return out;
}

Result<std::vector<Slot>> decodeSlots(const std::vector<Aggregate>& aggs, std::string_view in) {
  if (in.empty() || in[0] != kValueFormatV1) {
    return Status::Corruption(fmt::format(
        "window aggregation state value: expected format byte 0x01, found {} bytes starting 0x{:02x}",
        in.size(), in.empty() ? 0 : static_cast<unsigned char>(in[0])));
  }
  in.remove_prefix(1);
  std::vector<Slot> slots(aggs.size());
  for (size_t i = 0; i < aggs.size(); ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(slots[i].a, decodeOrderedValue(in));
    if (aggs[i].function == AggregateFunction::kAvg) {
      STREAMSIM_ASSIGN_OR_RETURN(slots[i].b, decodeOrderedValue(in));
    }
  }
  if (!in.empty()) {
    return Status::Corruption(fmt::format(
        "window aggregation state value: {} bytes left after {} aggregates (the aggregates "
        "changed without a new checkpoint?)",
        in.size(), aggs.size()));
  }
  return slots;
}

Status mergeRow(const std::vector<Aggregate>& aggs, std::vector<Slot>& slots, const Row& row) {
  for (size_t i = 0; i < aggs.size(); ++i) {
    const Aggregate& agg = aggs[i];
    Slot& s = slots[i];
    if (agg.function == AggregateFunction::kCount && agg.column.empty()) {
      s.a = Value(s.a.asLong() + 1);
      continue;
    }
    const Value& v = row.get(agg.column);
    if (v.isNull()) continue;
    switch (agg.function) {
      case AggregateFunction::kCount: s.a = Value(s.a.asLong() + 1); break;
      case AggregateFunction::kMin:
        if (s.a.isNull() || compare(v, s.a) < 0) s.a = v;
        break;
      case AggregateFunction::kMax:
        if (s.a.isNull() || compare(v, s.a) > 0) s.a = v;
        break;
      case AggregateFunction::kSum:
      case AggregateFunction::kAvg: {
        Value x = v;
        if (!x.isNumeric()) {
          auto cast = v.castTo(Type::kDouble);
          if (!cast.ok()) {
            return Status::InvalidArgument(fmt::format(
                "{}({}): the value '{}' in row {{{}}} is not a number", functionName(agg.function),
                agg.column, v.toString(), row.toString()));
          }
          x = *cast;
        }
        if (agg.function == AggregateFunction::kAvg) {
          s.a = Value(s.a.asDouble() + x.asDouble());
          s.b = Value(s.b.asLong() + 1);
        } else if (s.a.isNull()) {
          s.a = x.type() == Type::kDouble ? x : Value(x.asLong());
        } else if (s.a.type() == Type::kDouble || x.type() == Type::kDouble) {
          s.a = Value(s.a.asDouble() + x.asDouble());
        } else {
          // Long overflow wraps, as Spark's non-ANSI sum does.
          s.a = Value(static_cast<int64_t>(static_cast<uint64_t>(s.a.asLong()) +
                                           static_cast<uint64_t>(x.asLong())));
        }
        break;
      }
    }
  }
  return Status::OK();
}

Value finalValue(const Aggregate& agg, const Slot& s) {
  if (agg.function != AggregateFunction::kAvg) return s.a;
  int64_t n = s.b.asLong();
  if (n == 0) return Value();
  return Value(s.a.asDouble() / static_cast<double>(n));
}

struct DecodedKey {
  std::vector<Value> group;
  TimeMs start = 0;
  TimeMs end = 0;
};

Result<DecodedKey> decodeStateKey(std::string_view key, size_t groupCols) {
  DecodedKey k;
  std::string_view in = key;
  for (size_t i = 0; i < groupCols; ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
    k.group.push_back(std::move(v));
  }
  STREAMSIM_ASSIGN_OR_RETURN(Value s, decodeOrderedValue(in));
  STREAMSIM_ASSIGN_OR_RETURN(Value e, decodeOrderedValue(in));
  if (!in.empty() || s.type() != Type::kTimestamp || e.type() != Type::kTimestamp) {
    return Status::Corruption(fmt::format(
        "window aggregation state key: expected {} group values then two timestamps", groupCols));
  }
  k.start = s.asLong();
  k.end = e.asLong();
  return k;
}

class WindowAggregationOperator final : public Operator {
 public:
  explicit WindowAggregationOperator(WindowAggregationSpec spec) : spec_(std::move(spec)) {
    if (spec_.window.slideDuration == 0) spec_.window.slideDuration = spec_.window.windowDuration;
  }

  std::string name() const override {
    return fmt::format("windowAggregation(groupBy={}, window({}, {}, {}))",
                       ops::formatColumnList(spec_.groupBy), spec_.window.timeColumn,
                       formatDuration(spec_.window.windowDuration),
                       formatDuration(spec_.window.slideDuration));
  }
  bool isStateful() const override { return true; }
  // Tumbling and sliding windows run in real-time mode (there are no session windows here).
  std::string realTimeUnsupported() const override { return ""; }

  Status start(const OperatorStartContext& ctx) override {
    STREAMSIM_RETURN_IF_ERROR(validateWindowAggregation(spec_));
    operator_id_ = ctx.operatorId;
    mode_ = ctx.outputMode;
    watermark_on_time_ =
        !ctx.eventTimeColumn.empty() && ctx.eventTimeColumn == spec_.window.timeColumn;
    last_eviction_watermark_.reset();
    if (mode_ == OutputMode::kAppend && !watermark_on_time_) {
      return Status::FailedPrecondition(fmt::format(
          "Append output mode is not supported for a streaming aggregation without a watermark "
          "on its window column '{}'{}: add withWatermark(\"{}\", delay) before the aggregation, "
          "or use Update or Complete mode",
          spec_.window.timeColumn,
          ctx.eventTimeColumn.empty() ? "" : fmt::format(" (the watermark is on '{}')", ctx.eventTimeColumn),
          spec_.window.timeColumn));
    }
    ops::StateLayout layout;
    layout.operatorName = "stateStoreSave";
    layout.keyColumns = spec_.groupBy;
    layout.keyColumns.push_back("window_start");
    layout.keyColumns.push_back("window_end");
    std::string aggregates;
    for (size_t i = 0; i < spec_.aggregates.size(); ++i) {
      const Aggregate& a = spec_.aggregates[i];
      if (i) aggregates += ", ";
      aggregates += fmt::format("{}({}) AS {}", functionName(a.function),
                                a.column.empty() ? "*" : a.column, a.resolvedName());
    }
    layout.details = fmt::format("{}; window({}, {}ms, {}ms, {}ms)", aggregates,
                                 spec_.window.timeColumn, spec_.window.windowDuration,
                                 spec_.window.slideDuration, spec_.window.startTime);
    // The aggregation buffers' types depend on the input's: the aggregates are recorded in
    // details (compared exactly), the store as one variable without a typed schema, and the
    // key's and buffers' types with the first rows (StateSchemaRecord; stateRowTypes).
    layout.variables.push_back(StateVariableSchema{"default", "", "", false, ""});
    return schema_record_.start(
        ctx, std::move(layout), [this](const std::vector<Row>& rows) { return stateRowTypes(rows); },
        "window aggregation");
  }

  Result<std::vector<Row>> process(std::vector<Row> input, BatchContext& ctx) override {
    const bool filterLate = watermark_on_time_ && mode_ != OutputMode::kComplete;
    const bool evict = watermark_on_time_ && mode_ != OutputMode::kComplete;
    STREAMSIM_RETURN_IF_ERROR(schema_record_.beforeBatch(ctx, input));
    std::vector<std::pair<std::string, Row>> keyed;
    keyed.reserve(input.size());
    for (auto& row : input) {
      std::optional<TimeMs> t = eventTimeOf(row, spec_.window.timeColumn);
      if (!t) continue;
      std::string group = ops::encodeKey(row, spec_.groupBy);
      for (auto [start, end] : assignWindows(*t, spec_.window)) {
        std::string key = group;
        encodeOrderedValue(Value::timestamp(start), key);
        encodeOrderedValue(Value::timestamp(end), key);
        keyed.emplace_back(std::move(key), row);
      }
    }
    ops::PartitionedGroups parts =
        ops::groupByPartitionAndKey(std::move(keyed), ctx.shufflePartitions);
    const auto& aggs = spec_.aggregates;

    auto task = [&](int p, StateStore& store, ops::TaskOutput& out,
                    const ops::MidwayFn& midway) -> Status {
      auto& groups = parts[static_cast<size_t>(p)];
      if (!ctx.runsPartition(!groups.empty())) return Status::OK();
      std::vector<std::pair<std::string, std::string>> updated;  // key order
      for (size_t i = 0; i < groups.size(); ++i) {
        if (i == groups.size() / 2) STREAMSIM_RETURN_IF_ERROR(midway());
        const ops::KeyGroup& g = groups[i];
        STREAMSIM_ASSIGN_OR_RETURN(DecodedKey k, decodeStateKey(g.key, spec_.groupBy.size()));
        if (filterLate && k.end <= ctx.lateWatermarkMs) {
          ++out.droppedByWatermark;
          continue;
        }
        std::vector<Slot> slots;
        if (auto old = store.get(kCf, g.key)) {
          STREAMSIM_ASSIGN_OR_RETURN(slots, decodeSlots(aggs, *old));
        } else {
          slots = freshSlots(aggs);
        }
        for (const Row& row : g.rows) STREAMSIM_RETURN_IF_ERROR(mergeRow(aggs, slots, row));
        std::string value = encodeSlots(aggs, slots);
        store.put(kCf, g.key, value);
        if (mode_ == OutputMode::kUpdate) updated.emplace_back(g.key, std::move(value));
      }
      for (const auto& [key, value] : updated) {
        STREAMSIM_ASSIGN_OR_RETURN(Row r, outputRow(key, value));
        out.rows.push_back(std::move(r));
      }
      if (mode_ == OutputMode::kComplete || (evict && (!ctx.realTime() || ctx.realTimeFinal))) {
        // Collect first: a scan visitor must not modify the store.
        std::vector<std::pair<std::string, std::string>> hits;
        Status scanStatus;
        store.scan(kCf, "", "", [&](std::string_view key, std::string_view value) {
          if (mode_ == OutputMode::kComplete) {
            hits.emplace_back(key, value);
            return true;
          }
          auto k = decodeStateKey(key, spec_.groupBy.size());
          if (!k.ok()) {
            scanStatus = k.status();
            return false;
          }
          if (k->end <= ctx.evictionWatermarkMs) hits.emplace_back(key, value);
          return true;
        });
        STREAMSIM_RETURN_IF_ERROR(scanStatus);
        for (const auto& [key, value] : hits) {
          if (mode_ != OutputMode::kUpdate) {  // Complete: everything; Append: what is final
            STREAMSIM_ASSIGN_OR_RETURN(Row r, outputRow(key, value));
            out.rows.push_back(std::move(r));
          }
          if (mode_ != OutputMode::kComplete) store.remove(kCf, key);
        }
      }
      return Status::OK();
    };
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Row> out,
                               ops::runPartitionTasks(ctx, operator_id_, "stateStoreSave", task));
    if (evict) last_eviction_watermark_ = ctx.evictionWatermarkMs;
    return out;
  }

  // Spark's StateStoreSaveExec.shouldRunAnotherBatch: Append or Update, a watermark on the
  // window column, and it moved past the one this operator last evicted with.
  bool needsNoDataBatch(TimeMs nextEvictionWatermark, bool watermarkMoved) const override {
    if (!watermark_on_time_ || mode_ == OutputMode::kComplete) return false;
    if (last_eviction_watermark_) return nextEvictionWatermark > *last_eviction_watermark_;
    return watermarkMoved;
  }

 private:
  // Spark's state schema of StateStoreSaveExec (state format 2), typed by the rows: the key is
  // the grouping columns, then `window struct<start: timestamp, end: timestamp>`; the value is
  // the aggregation buffers (count: count long NOT NULL; sum: sum long for integral input, else
  // double; avg: sum double, count long; min, max: the column's type). A buffer name the value
  // already has is suffixed with the aggregate's output column ("count_avg_v"), so the record's
  // DDL reads back. nullopt while a grouping or aggregated column has no non-null value.
  std::optional<ops::StateRowTypes> stateRowTypes(const std::vector<Row>& rows) const {
    std::vector<std::string> typed = spec_.groupBy;
    for (const Aggregate& a : spec_.aggregates)
      if (!a.column.empty() && a.function != AggregateFunction::kCount) typed.push_back(a.column);
    std::optional<Schema> types;
    if (!typed.empty()) {
      types = ops::keyTypesOf(rows, typed);
      if (!types) return std::nullopt;
    }
    auto typeOf = [&](const std::string& column) -> const Field& {
      for (size_t i = 0;; ++i)
        if (typed[i] == column) return types->field(i);
    };
    std::vector<Field> key;
    for (const std::string& c : spec_.groupBy) key.push_back(typeOf(c));
    key.push_back(structField("window", makeSchema({Field{"start", Type::kTimestamp, true, nullptr}, Field{"end", Type::kTimestamp, true, nullptr}})));
    std::vector<Field> value;
    auto buffer = [&](std::string name, Field f, const Aggregate& a) {
      for (const Field& v : value)
        if (v.name == name) name += "_" + a.resolvedName();
      f.name = std::move(name);
      value.push_back(std::move(f));
    };
    for (const Aggregate& a : spec_.aggregates) {
      switch (a.function) {
        case AggregateFunction::kCount: buffer("count", Field{"", Type::kLong, false, nullptr}, a); break;
        case AggregateFunction::kSum: {
          Type t = typeOf(a.column).type;
          bool integral = t == Type::kInt || t == Type::kLong || t == Type::kTimestamp;
          buffer("sum", Field{"", integral ? Type::kLong : Type::kDouble, true, nullptr}, a);
          break;
        }
        case AggregateFunction::kAvg:
          buffer("sum", Field{"", Type::kDouble, true, nullptr}, a);
          buffer("count", Field{"", Type::kLong, true, nullptr}, a);
          break;
        case AggregateFunction::kMin: buffer("min", typeOf(a.column), a); break;
        case AggregateFunction::kMax: buffer("max", typeOf(a.column), a); break;
      }
    }
    return ops::StateRowTypes{Schema(std::move(key)), Schema(std::move(value))};
  }

  Result<Row> outputRow(std::string_view key, std::string_view value) const {
    STREAMSIM_ASSIGN_OR_RETURN(DecodedKey k, decodeStateKey(key, spec_.groupBy.size()));
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<Slot> slots, decodeSlots(spec_.aggregates, value));
    std::vector<std::pair<std::string, Value>> named;
    named.reserve(spec_.groupBy.size() + 2 + slots.size());
    for (size_t i = 0; i < spec_.groupBy.size(); ++i) named.emplace_back(spec_.groupBy[i], k.group[i]);
    named.emplace_back("window_start", Value::timestamp(k.start));
    named.emplace_back("window_end", Value::timestamp(k.end));
    for (size_t i = 0; i < slots.size(); ++i) {
      named.emplace_back(spec_.aggregates[i].resolvedName(), finalValue(spec_.aggregates[i], slots[i]));
    }
    return shapes_.fromNamed(std::move(named));
  }

  WindowAggregationSpec spec_;
  int operator_id_ = 0;
  OutputMode mode_ = OutputMode::kAppend;
  bool watermark_on_time_ = false;
  std::optional<TimeMs> last_eviction_watermark_;
  // The result rows' schemas (outputRow is const: the schemas are a cache, not state).
  mutable RowShapes shapes_;
  ops::StateSchemaRecord schema_record_;  // the state schema record and its restart check
};

}  // namespace

std::string Aggregate::resolvedName() const {
  if (!outputName.empty()) return outputName;
  if (column.empty()) return std::string(functionName(function));
  return fmt::format("{}_{}", functionName(function), column);
}

Status validateWindowAggregation(const WindowAggregationSpec& spec) {
  const TimeWindow& w = spec.window;
  DurationMs slide = w.slideDuration == 0 ? w.windowDuration : w.slideDuration;
  if (w.timeColumn.empty()) return Status::InvalidArgument("window(): the time column is empty");
  if (w.windowDuration <= 0) {
    return Status::InvalidArgument(fmt::format(
        "window({}): the window duration must be > 0, got {}ms", w.timeColumn, w.windowDuration));
  }
  if (slide < 0 || slide > w.windowDuration) {
    return Status::InvalidArgument(fmt::format(
        "window({}): the slide duration ({}ms) must be > 0 and <= the window duration ({}ms)",
        w.timeColumn, slide, w.windowDuration));
  }
  if (w.startTime <= -slide || w.startTime >= slide) {
    return Status::InvalidArgument(fmt::format(
        "window({}): the start time ({}ms) must be less than the slide duration ({}ms) in "
        "absolute value",
        w.timeColumn, w.startTime, slide));
  }
  if (spec.aggregates.empty()) {
    return Status::InvalidArgument("window aggregation: no aggregates (use Aggregate::count())");
  }
  std::set<std::string> names(spec.groupBy.begin(), spec.groupBy.end());
  names.insert("window_start");
  names.insert("window_end");
  for (const Aggregate& a : spec.aggregates) {
    if (a.column.empty() && a.function != AggregateFunction::kCount) {
      return Status::InvalidArgument(fmt::format(
          "window aggregation: {}() needs a column", functionName(a.function)));
    }
    if (!names.insert(a.resolvedName()).second) {
      return Status::InvalidArgument(fmt::format(
          "window aggregation: output column '{}' appears twice; give the aggregate another "
          "name",
          a.resolvedName()));
    }
  }
  return Status::OK();
}

std::vector<std::pair<TimeMs, TimeMs>> assignWindows(TimeMs t, const TimeWindow& window) {
  const DurationMs size = window.windowDuration;
  const DurationMs slide = window.slideDuration == 0 ? size : window.slideDuration;
  std::vector<std::pair<TimeMs, TimeMs>> out;
  if (size <= 0 || slide <= 0) return out;
  const TimeMs lastStart = t - floorMod(t - window.startTime, slide);
  const int64_t overlapping = (size + slide - 1) / slide;
  for (int64_t k = overlapping - 1; k >= 0; --k) {
    TimeMs start = lastStart - k * slide;
    if (start <= t && t < start + size) out.emplace_back(start, start + size);
  }
  return out;
}

std::unique_ptr<Operator> makeWindowAggregation(WindowAggregationSpec spec) {
  return std::make_unique<WindowAggregationOperator>(std::move(spec));
}

}  // namespace streamsim
