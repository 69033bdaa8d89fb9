// Streaming aggregation (ops/window_aggregation.h), after Spark's StateStoreRestoreExec /
// StateStoreSaveExec (time windows, no window) and SessionWindowStateStoreRestoreExec /
// SessionWindowStateStoreSaveExec with MergingSessionsIterator (session windows): per partition,
// late groups are dropped with the late watermark, the rest merged into the stored aggregates,
// then rows are emitted and state evicted according to the output mode, then the store commits.
//
// State format (SEMANTICS.md §4; this file is its only writer and reader):
//   key   = encodeOrderedValue of each groupBy column, then (time and session windows) of the
//           window's start and end (timestamps), concatenated -- so a partition's keys sort by
//           group, then window, and a group's sessions are the keys with the group's prefix.
//   value = aggregate_buffers.h: one byte 0x01 (format version), then per aggregate its slots.
// Session windows are partitioned by the group alone (every session of a group in one store).
#include "streamsim/ops/window_aggregation.h"

#include <algorithm>
#include <set>

#include "ops/aggregate_buffers.h"
#include "streamsim/ops/hyperloglog.h"
#include "streamsim/ops/partitioning.h"
#include "streamsim/ops/stateful_support.h"
#include "streamsim/spark_errors.h"
#include "streamsim/state/row_encoding.h"

namespace streamsim {

namespace {

using ops::AggBuffer;
using ops::aggregateFunctionName;

constexpr std::string_view kCf = "default";

TimeMs floorMod(TimeMs a, TimeMs b) {
  TimeMs m = a % b;
  return m < 0 ? m + b : m;
}

struct DecodedKey {
  std::vector<Value> group;
  TimeMs start = 0;
  TimeMs end = 0;
};

Result<DecodedKey> decodeStateKey(std::string_view key, size_t groupCols, bool windowed) {
  DecodedKey k;
  std::string_view in = key;
  for (size_t i = 0; i < groupCols; ++i) {
    STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
    k.group.push_back(std::move(v));
  }
  if (!windowed) {
    if (!in.empty())
      return Status::Corruption(fmt::format("aggregation state key: {} bytes after {} group values", in.size(), groupCols));
    return k;
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

void appendWindow(std::string& key, TimeMs start, TimeMs end) {
  encodeOrderedValue(Value::timestamp(start), key);
  encodeOrderedValue(Value::timestamp(end), key);
}

// One session of a group while merging: its bounds, buffers, and the stored keys it replaces.
struct Session {
  TimeMs start = 0;
  TimeMs end = 0;
  std::vector<AggBuffer> buffers;
  std::vector<std::string> storedKeys;  // the state entries merged into it
  bool changed = false;                 // holds rows of this batch
};

class WindowAggregationOperator final : public Operator {
 public:
  bool isStreamingAggregation() const override { return true; }
  explicit WindowAggregationOperator(WindowAggregationSpec spec) : spec_(std::move(spec)) {
    if (spec_.window.slideDuration == 0) spec_.window.slideDuration = spec_.window.windowDuration;
  }

  std::string name() const override {
    switch (spec_.kind) {
      case WindowKind::kNone: return fmt::format("aggregation(groupBy={})", ops::formatColumnList(spec_.groupBy));
      case WindowKind::kSession:
        return fmt::format("sessionWindowAggregation(groupBy={}, session_window({}, {}))",
                           ops::formatColumnList(spec_.groupBy), spec_.window.timeColumn,
                           formatDuration(spec_.sessionGap));
      case WindowKind::kTime: break;
    }
    return fmt::format("windowAggregation(groupBy={}, window({}, {}, {}))",
                       ops::formatColumnList(spec_.groupBy), spec_.window.timeColumn,
                       formatDuration(spec_.window.windowDuration),
                       formatDuration(spec_.window.slideDuration));
  }
  bool isStateful() const override { return true; }
  // Tumbling and sliding windows and window-less aggregation run in real-time mode; session
  // windows do not (Spark's real-time mode supports no session window).
  std::string realTimeUnsupported() const override {
    return spec_.kind == WindowKind::kSession ? "session window aggregation" : "";
  }

  Status start(const OperatorStartContext& ctx) override {
    STREAMSIM_RETURN_IF_ERROR(validateWindowAggregation(spec_));
    operator_id_ = ctx.operatorId;
    mode_ = ctx.outputMode;
    ansi_ = ctx.sqlConf.ansi;
    event_group_index_ = -1;
    if (spec_.kind == WindowKind::kNone) {
      for (size_t i = 0; i < spec_.groupBy.size(); ++i)
        if (!ctx.eventTimeColumn.empty() && spec_.groupBy[i] == ctx.eventTimeColumn) event_group_index_ = static_cast<int>(i);
      watermark_on_time_ = event_group_index_ >= 0;
    } else {
      watermark_on_time_ = !ctx.eventTimeColumn.empty() && ctx.eventTimeColumn == spec_.window.timeColumn;
    }
    last_eviction_watermark_.reset();
    // UnsupportedOperationChecker.checkForStreaming: Append needs a watermarked grouping
    // expression; Update refuses session windows.
    if (mode_ == OutputMode::kAppend && !watermark_on_time_) {
      std::string column = spec_.kind == WindowKind::kNone ? std::string("withWatermark on a groupBy column")
                                                           : fmt::format("withWatermark(\"{}\", delay)", spec_.window.timeColumn);
      return sparkError(Status::Code::kFailedPrecondition, "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
                        {{"outputMode", "append"}, {"operation", "streaming aggregations without watermark"}},
                        fmt::format("add {}{} before the aggregation, or use Update or Complete mode",
                                    column, ctx.eventTimeColumn.empty() ? "" : fmt::format(" (the watermark is on '{}')", ctx.eventTimeColumn)));
    }
    if (mode_ == OutputMode::kUpdate && spec_.kind == WindowKind::kSession) {
      return sparkError(Status::Code::kFailedPrecondition, "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
                        {{"outputMode", "update"}, {"operation", "session window streaming aggregations"}});
    }
    ops::StateLayout layout;
    layout.operatorName = spec_.kind == WindowKind::kSession ? "sessionWindowStateStoreSaveExec" : "stateStoreSave";
    layout.keyColumns = spec_.groupBy;
    if (windowed()) {
      layout.keyColumns.push_back("window_start");
      layout.keyColumns.push_back("window_end");
    }
    std::string aggregates;
    for (size_t i = 0; i < spec_.aggregates.size(); ++i) {
      const Aggregate& a = spec_.aggregates[i];
      if (i) aggregates += ", ";
      aggregates += fmt::format("{}({}{}) AS {}", aggregateFunctionName(a.function),
                                a.column.empty() ? "*" : a.column, a.ignoreNulls ? ", true" : "", a.resolvedName());
    }
    switch (spec_.kind) {
      case WindowKind::kTime:
        layout.details = fmt::format("{}; window({}, {}ms, {}ms, {}ms)", aggregates,
                                     spec_.window.timeColumn, spec_.window.windowDuration,
                                     spec_.window.slideDuration, spec_.window.startTime);
        break;
      case WindowKind::kSession:
        layout.details = fmt::format("{}; session_window({}, {}ms)", aggregates, spec_.window.timeColumn, spec_.sessionGap);
        break;
      case WindowKind::kNone: layout.details = aggregates; break;
    }
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
      if (spec_.kind == WindowKind::kNone) {
        keyed.emplace_back(ops::encodeKey(row, spec_.groupBy), std::move(row));
        continue;
      }
      std::optional<TimeMs> t = eventTimeOf(row, spec_.window.timeColumn);
      if (!t) continue;  // a null time is in no window (TimeWindowing / SessionWindowing filter it)
      std::string group = ops::encodeKey(row, spec_.groupBy);
      if (spec_.kind == WindowKind::kSession) {
        keyed.emplace_back(std::move(group), std::move(row));
        continue;
      }
      for (auto [start, end] : assignWindows(*t, spec_.window)) {
        std::string key = group;
        appendWindow(key, start, end);
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
        if (spec_.kind == WindowKind::kSession) {
          STREAMSIM_RETURN_IF_ERROR(mergeSessions(g, store, out, filterLate ? std::optional<TimeMs>(ctx.lateWatermarkMs) : std::nullopt));
          continue;
        }
        STREAMSIM_ASSIGN_OR_RETURN(DecodedKey k, decodeStateKey(g.key, spec_.groupBy.size(), windowed()));
        if (filterLate) {
          if (std::optional<TimeMs> t = keyTime(k); t && *t <= ctx.lateWatermarkMs) {
            out.droppedByWatermark += spec_.kind == WindowKind::kNone ? static_cast<int64_t>(g.rows.size()) : 1;
            continue;
          }
        }
        std::vector<AggBuffer> buffers;
        if (auto old = store.get(kCf, g.key)) {
          STREAMSIM_ASSIGN_OR_RETURN(buffers, ops::decodeBuffers(aggs, *old));
        } else {
          buffers = ops::freshBuffers(aggs);
        }
        for (const Row& row : g.rows) STREAMSIM_RETURN_IF_ERROR(ops::updateBuffers(aggs, buffers, row, ansi_));
        std::string value = ops::encodeBuffers(aggs, buffers);
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
          auto k = decodeStateKey(key, spec_.groupBy.size(), windowed());
          if (!k.ok()) {
            scanStatus = k.status();
            return false;
          }
          if (std::optional<TimeMs> t = keyTime(*k); t && *t <= ctx.evictionWatermarkMs) hits.emplace_back(key, value);
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
  bool windowed() const { return spec_.kind != WindowKind::kNone; }

  // The time the watermark compares a key with: the window's end, or (no window) the
  // watermarked groupBy column's value; nullopt when there is none.
  std::optional<TimeMs> keyTime(const DecodedKey& k) const {
    if (windowed()) return k.end;
    if (event_group_index_ < 0) return std::nullopt;
    const Value& v = k.group[static_cast<size_t>(event_group_index_)];
    if (v.isNull()) return std::nullopt;
    return v.asLong();
  }

  // One group's session windows (SessionWindowStateStoreRestoreExec + MergingSessionsIterator +
  // SessionWindowStateStoreSaveExec): the stored sessions and one [t, t + gap) per row of this
  // batch, by start (stored first on a tie), each merged into the previous when it starts at or
  // before the previous one's end. Sessions holding new rows replace the stored ones they absorb.
  Status mergeSessions(const ops::KeyGroup& g, StateStore& store, ops::TaskOutput& out,
                       std::optional<TimeMs> lateWatermark) {
    const auto& aggs = spec_.aggregates;
    std::vector<Session> pieces;
    Status scanStatus;
    std::vector<std::pair<std::string, std::string>> stored;
    store.scanPrefix(kCf, g.key, [&](std::string_view key, std::string_view value) {
      stored.emplace_back(key, value);
      return true;
    });
    for (auto& [key, value] : stored) {
      STREAMSIM_ASSIGN_OR_RETURN(DecodedKey k, decodeStateKey(key, spec_.groupBy.size(), true));
      Session s{k.start, k.end, {}, {key}, false};
      STREAMSIM_ASSIGN_OR_RETURN(s.buffers, ops::decodeBuffers(aggs, value));
      pieces.push_back(std::move(s));
    }
    for (const Row& row : g.rows) {
      TimeMs t = *eventTimeOf(row, spec_.window.timeColumn);
      TimeMs end = t + spec_.sessionGap;
      if (lateWatermark && end <= *lateWatermark) {
        ++out.droppedByWatermark;
        continue;
      }
      Session s{t, end, ops::freshBuffers(aggs), {}, true};
      STREAMSIM_RETURN_IF_ERROR(ops::updateBuffers(aggs, s.buffers, row, ansi_));
      pieces.push_back(std::move(s));
    }
    std::stable_sort(pieces.begin(), pieces.end(), [](const Session& a, const Session& b) { return a.start < b.start; });
    std::vector<Session> merged;
    for (Session& s : pieces) {
      if (!merged.empty() && s.start <= merged.back().end) {
        Session& cur = merged.back();
        cur.end = std::max(cur.end, s.end);
        STREAMSIM_RETURN_IF_ERROR(ops::mergeBuffers(aggs, cur.buffers, s.buffers, ansi_));
        cur.storedKeys.insert(cur.storedKeys.end(), s.storedKeys.begin(), s.storedKeys.end());
        cur.changed = cur.changed || s.changed;
      } else {
        merged.push_back(std::move(s));
      }
    }
    for (const Session& s : merged) {
      if (!s.changed) continue;
      for (const std::string& old : s.storedKeys) store.remove(kCf, old);
      std::string key(g.key);
      appendWindow(key, s.start, s.end);
      store.put(kCf, key, ops::encodeBuffers(aggs, s.buffers));
    }
    return Status::OK();
  }

  // Spark's state schema of StateStoreSaveExec (state format 2), typed by the rows: the key is
  // the grouping columns, then `window struct<start: timestamp, end: timestamp>`; the value is
  // the aggregation buffers (count: count long NOT NULL; sum: sum long for integral input, else
  // double; avg: sum double, count long; min, max, first, last: the column's type (first / last
  // also valueSet boolean); collect_list / collect_set: an array of it). A buffer name the value
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
    if (windowed())
      key.push_back(structField(spec_.kind == WindowKind::kSession ? "session_window" : "window",
                                makeSchema({Field{"start", Type::kTimestamp, true, nullptr}, Field{"end", Type::kTimestamp, true, nullptr}})));
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
        case AggregateFunction::kFirst:
        case AggregateFunction::kLast:
          buffer(a.function == AggregateFunction::kFirst ? "first" : "last", typeOf(a.column), a);
          buffer("valueSet", Field{"", Type::kBoolean, false, nullptr}, a);
          break;
        case AggregateFunction::kCollectList:
        case AggregateFunction::kCollectSet: {
          Field element = typeOf(a.column);
          element.name = "element";
          element.nullable = false;
          buffer("buf", arrayField("", element, false), a);
          break;
        }
        case AggregateFunction::kApproxCountDistinct: {
          // HyperLogLogPlusPlus.aggBufferAttributes: MS[0] .. MS[numWords - 1], longs.
          auto h = ops::HyperLogLogPlusPlus::make(a.relativeSD);
          for (size_t w = 0; h.ok() && w < h->numWords(); ++w)
            buffer(fmt::format("MS[{}]", w), Field{"", Type::kLong, true, nullptr}, a);
          break;
        }
      }
    }
    return ops::StateRowTypes{Schema(std::move(key)), Schema(std::move(value))};
  }

  Result<Row> outputRow(std::string_view key, std::string_view value) const {
    STREAMSIM_ASSIGN_OR_RETURN(DecodedKey k, decodeStateKey(key, spec_.groupBy.size(), windowed()));
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<AggBuffer> buffers, ops::decodeBuffers(spec_.aggregates, value));
    std::vector<std::pair<std::string, Value>> named;
    named.reserve(spec_.groupBy.size() + 2 + buffers.size());
    auto window = [&] {
      if (!windowed()) return;
      if (spec_.windowColumn.empty()) {
        named.emplace_back("window_start", Value::timestamp(k.start));
        named.emplace_back("window_end", Value::timestamp(k.end));
        return;
      }
      static const SchemaPtr kWindow = makeSchema({Field{"start", Type::kTimestamp, true, nullptr}, Field{"end", Type::kTimestamp, true, nullptr}});
      named.emplace_back(spec_.windowColumn, Value::structOf(kWindow, {Value::timestamp(k.start), Value::timestamp(k.end)}));
    };
    for (size_t i = 0; i < spec_.groupBy.size(); ++i) {
      if (!spec_.windowColumn.empty() && i == spec_.windowPosition) window();
      named.emplace_back(spec_.groupBy[i], k.group[i]);
    }
    if (spec_.windowColumn.empty() || spec_.windowPosition >= spec_.groupBy.size()) window();
    for (size_t i = 0; i < buffers.size(); ++i) {
      named.emplace_back(spec_.aggregates[i].resolvedName(), ops::finalValue(spec_.aggregates[i], buffers[i]));
    }
    return shapes_.fromNamed(std::move(named));
  }

  WindowAggregationSpec spec_;
  int operator_id_ = 0;
  OutputMode mode_ = OutputMode::kAppend;
  bool ansi_ = true;
  bool watermark_on_time_ = false;
  int event_group_index_ = -1;  // kNone: the groupBy column carrying the watermark
  std::optional<TimeMs> last_eviction_watermark_;
  // The result rows' schemas (outputRow is const: the schemas are a cache, not state).
  mutable RowShapes shapes_;
  ops::StateSchemaRecord schema_record_;  // the state schema record and its restart check
};

}  // namespace

std::string Aggregate::resolvedName() const {
  if (!outputName.empty()) return outputName;
  if (column.empty()) return std::string(ops::aggregateFunctionName(function));
  return fmt::format("{}_{}", ops::aggregateFunctionName(function), column);
}

Status validateWindowAggregation(const WindowAggregationSpec& spec) {
  const TimeWindow& w = spec.window;
  DurationMs slide = w.slideDuration == 0 ? w.windowDuration : w.slideDuration;
  if (spec.kind == WindowKind::kSession) {
    if (w.timeColumn.empty()) return Status::InvalidArgument("session_window(): the time column is empty");
    if (spec.sessionGap <= 0)
      return Status::InvalidArgument(fmt::format("session_window({}): the gap duration must be > 0, got {}ms", w.timeColumn, spec.sessionGap));
  } else if (spec.kind == WindowKind::kTime) {
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
  }
  if (spec.aggregates.empty()) {
    return Status::InvalidArgument("window aggregation: no aggregates (use Aggregate::count())");
  }
  std::set<std::string> names(spec.groupBy.begin(), spec.groupBy.end());
  if (spec.kind != WindowKind::kNone) {
    if (spec.windowColumn.empty()) {
      names.insert("window_start");
      names.insert("window_end");
    } else if (!names.insert(spec.windowColumn).second) {
      return Status::InvalidArgument(fmt::format("aggregation: output column '{}' appears twice", spec.windowColumn));
    }
  }
  for (const Aggregate& a : spec.aggregates) {
    if (a.column.empty() && a.function != AggregateFunction::kCount) {
      return Status::InvalidArgument(fmt::format(
          "window aggregation: {}() needs a column", ops::aggregateFunctionName(a.function)));
    }
    if (a.function == AggregateFunction::kApproxCountDistinct) {
      auto h = ops::HyperLogLogPlusPlus::make(a.relativeSD);
      if (!h.ok()) return h.status();
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
