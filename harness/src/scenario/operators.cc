// A scenario query's operators (operators.h): withWatermark, dropDuplicates, select, join, window
// aggregations and transformWithState with its processor's parameters -- each one's parse (what
// the engine would refuse when the query starts is refused here, at its line), its kind name and
// its apply onto a DataFrame.
#include "scenario/operators.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "scenario/group_state_functions.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/ops/dedup.h"
#include "streamsim/ops/streaming_limit.h"
#include "streamsim/ops/window_aggregation.h"
#include "streamsim/spark_errors.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness::detail {
namespace {

void parseProcessorParams(ParseContext& pc, const YAML::Node& t, TransformWithStateOp& op);

const Field* findColumn(const std::vector<Field>& columns, const std::string& name) {
  for (const Field& f : columns)
    if (f.name == name) return &f;
  return nullptr;
}

void checkColumns(ParseContext& pc, const YAML::Node& n, const std::vector<std::string>& cols,
                  const std::optional<std::vector<Field>>& columns, std::string_view op) {
  if (!columns) return;
  for (const auto& c : cols) {
    if (findColumn(*columns, c) == nullptr) {
      std::vector<std::string> names;
      for (const Field& f : *columns) names.push_back(f.name);
      pc.error(n, fmt::format("column '{}' is not in the input of {}; columns: {}", c, op,
                              joinNames(names)));
    }
  }
}

// `range: {left: col, right: col, lower: -10s, upper: 5s, lowerStrict: false, upperStrict: false}`:
// right + lower <= left <= right + upper (StreamJoinRange).
std::optional<StreamJoinRange> parseJoinRange(ParseContext& pc, const YAML::Node& r) {
  if (!pc.expectMap(r, "join range")) return std::nullopt;
  pc.checkKeys(r, "join range", {"left", "right", "lower", "upper", "lowerStrict", "upperStrict"});
  StreamJoinRange range;
  if (auto n = r["left"]; n) range.leftColumn = pc.str(n, "join range left");
  else pc.error(r, "missing key 'left' in join range (the left stream's event-time column)");
  if (auto n = r["right"]; n) range.rightColumn = pc.str(n, "join range right");
  else pc.error(r, "missing key 'right' in join range (the right stream's event-time column)");
  auto bound = [&](const char* key) -> std::optional<DurationMs> {
    auto n = r[key];
    if (!n) return std::nullopt;
    auto d = parseDuration(pc.str(n, key));
    if (!d.ok()) {
      pc.error(n, fmt::format("{}: {} (a negative one: -10m)", key, d.status().message()));
      return std::nullopt;
    }
    return *d;
  };
  range.lower = bound("lower");
  range.upper = bound("upper");
  if (!r["lower"] && !r["upper"]) pc.error(r, "a join range needs 'lower' or 'upper' (right + lower <= left <= right + upper)");
  if (auto n = r["lowerStrict"]; n) range.lowerStrict = pc.boolean(n, "lowerStrict");
  if (auto n = r["upperStrict"]; n) range.upperStrict = pc.boolean(n, "upperStrict");
  return range;
}

// The schema the sources [begin, end) share (one side of a stream-stream join) as their own
// operators leave them, or an error at `at`.
SchemaPtr sideSchema(ParseContext& pc, const YAML::Node& at, size_t begin, size_t end, std::string_view side) {
  SchemaPtr schema;
  for (size_t i = begin; i < end && i < pc.sources().size(); ++i) {
    SchemaPtr out = pc.sourceOutput(i);
    if (out == nullptr) return nullptr;  // reported with the source or its operators
    if (schema == nullptr) {
      schema = out;
    } else if (!(*schema == *out)) {
      pc.error(at, fmt::format("the {} side's sources must share a schema: source {} is ({}), source {} ({})", side,
                               begin, schema->toDDL(), i, out->toDDL()));
      return nullptr;
    }
  }
  return schema;
}

// `join: {stream: {from: N}, on: [cols], how: ..., range: {...}}`: a stream-stream join of the
// sources before N (left) with the rest (right). What the engine would refuse when the query
// starts is refused when the query is loaded (checkStreamJoins: the watermarks and the output
// mode are known then).
JoinOp parseStreamJoin(ParseContext& pc, const YAML::Node& j, std::optional<std::vector<Field>>& columns) {
  JoinOp op;
  pc.checkKeys(j, "join", {"stream", "on", "rightOn", "how", "range"});
  StreamStreamJoinSpec spec;
  columns.reset();
  const YAML::Node s = j["stream"];
  if (!pc.expectMap(s, "join stream")) return op;
  pc.checkKeys(s, "join stream", {"from"});
  const int n = static_cast<int>(pc.sources().size());
  if (auto f = s["from"]; f) {
    spec.leftSources = pc.int32(f, "join stream from", 1);
    if (spec.leftSources >= n) {
      pc.error(f, fmt::format("join stream from: {} leaves no source for the right side; the query has {} sources "
                              "(the left side is sources 0..from-1, the right from..{})",
                              spec.leftSources, n, n - 1));
      return op;
    }
  } else {
    pc.error(s, "missing key 'from' in join stream (the first source of the right side, e.g. from: 1)");
    return op;
  }
  spec.left = sideSchema(pc, s, 0, static_cast<size_t>(spec.leftSources), "left");
  spec.right = sideSchema(pc, s, static_cast<size_t>(spec.leftSources), static_cast<size_t>(n), "right");
  bool ok = spec.left != nullptr && spec.right != nullptr;
  if (auto h = j["how"]; h) {
    op.how = pc.str(h, "join how");
    if (auto parsed = parseJoinType(op.how); !parsed.ok()) {
      pc.error(h, parsed.status().message());
      ok = false;
    } else {
      spec.type = *parsed;
    }
  }
  if (auto o = j["on"]; o) {
    spec.on = pc.names(o, "join on");
    if (spec.on.empty()) pc.error(o, "join needs at least one column in 'on' (the columns both streams share)");
  } else {
    pc.error(j, "missing key 'on' in join (the columns both streams share, e.g. on: [ad_id])");
    ok = false;
  }
  if (auto o = j["rightOn"]; o) {  // a condition join: on[i] = rightOn[i]
    spec.rightOn = pc.names(o, "join rightOn");
    if (spec.rightOn.size() != spec.on.size()) {
      pc.error(o, fmt::format("join rightOn names {} columns but on {}: rightOn[i] is the right stream's column "
                              "equal to the left's on[i]",
                              spec.rightOn.size(), spec.on.size()));
      ok = false;
    }
  }
  if (auto r = j["range"]; r) {
    spec.range = parseJoinRange(pc, r);
    ok = ok && spec.range.has_value();
  }
  op.on = spec.on;
  if (!ok) return op;
  if (auto fields = streamStreamJoinFields(spec); fields.ok()) columns = std::move(*fields);
  op.stream = std::move(spec);
  return op;
}

// `join: {static: {schema: DDL, rows: [...]}, on: [cols], how: inner}`. Everything the engine
// would refuse when the query starts is refused here, at its line (ops/stream_static_join.h);
// `columns` becomes the join's output: join columns, the stream's others, the table's others.
JoinOp parseJoin(ParseContext& pc, const YAML::Node& j, std::optional<std::vector<Field>>& columns) {
  JoinOp op;
  if (!pc.expectMap(j, "join")) return op;
  pc.checkKeys(j, "join", {"static", "on", "how"});
  std::optional<JoinType> type;
  if (auto h = j["how"]; h) {
    op.how = pc.str(h, "join how");
    if (auto parsed = parseJoinType(op.how); !parsed.ok()) {
      pc.error(h, parsed.status().message());
    } else if (auto st = checkStreamStaticJoinType(*parsed); !st.ok()) {
      pc.error(h, st.message());  // the stream is the left side
    } else {
      type = *parsed;
    }
  } else {
    type = JoinType::kInner;
  }
  if (auto o = j["on"]; o) {
    op.on = pc.names(o, "join on");
    if (op.on.empty()) pc.error(o, "join needs at least one column in 'on' (the columns both sides share)");
    checkColumns(pc, o, op.on, columns, "join");
  } else {
    pc.error(j, "missing key 'on' in join (the columns both sides share, e.g. on: [device])");
  }
  auto s = j["static"];
  if (!s) {
    pc.error(j, "missing key 'static' in join (the table: {schema: DDL, rows: [...]})");
    return op;
  }
  if (!pc.expectMap(s, "join static")) return op;
  pc.checkKeys(s, "join static", {"schema", "rows"});
  if (auto d = s["schema"]; d) {
    auto schema = parseSchema(pc.str(d, "join static schema"));
    if (!schema.ok()) {
      pc.error(d, fmt::format("bad schema: {}; expected Spark DDL such as \"device string, site string\"",
                              schema.status().message()));
      return op;
    }
    op.schema = *schema;
  } else {
    pc.error(s, "missing key 'schema' in join static (Spark DDL, e.g. \"device string, site string\")");
    return op;
  }
  if (auto r = s["rows"]; r) {
    for (const RowSpec& spec : pc.rows(r, "a static row")) {
      auto row = spec.toRow(*op.schema);
      if (!row.ok()) {
        pc.addError({spec.where, fmt::format("row does not fit the static schema: {}", row.status().message())});
      } else {
        op.rows.push_back(std::move(row).value());
      }
    }
  }
  for (size_t k = 0; k < op.on.size(); ++k) {
    if (op.schema->indexOf(op.on[k]) < 0)
      pc.error(j["on"], fmt::format("column '{}' is not in the static table ({})", op.on[k], op.schema->toDDL()));
  }
  if (!columns) return op;
  if (!type) {
    columns.reset();  // the output's columns are unknown: later operators' checks are skipped
    return op;
  }
  Schema stream(*columns);
  for (const auto& c : op.on) {
    if (stream.indexOf(c) < 0 || op.schema->indexOf(c) < 0) {  // reported above
      columns.reset();
      return op;
    }
  }
  StreamStaticJoinShape shape = streamStaticJoinShape(stream, *op.schema, op.on, *type);
  if (!shape.status.ok()) {
    bool table = shape.problem == StreamStaticJoinShape::Problem::kTableColumn;
    pc.error(table ? s["schema"] : j["on"], shape.status.message());
    columns.reset();
    return op;
  }
  columns = std::move(shape.fields);
  return op;
}

WindowAggregationOp parseWindowAgg(ParseContext& pc, const YAML::Node& n, const YAML::Node& w,
                                   std::vector<std::string> groupBy,
                                   const std::optional<std::vector<Field>>& columns) {
  WindowAggregationOp op;
  op.groupBy = std::move(groupBy);
  op.windowless = !w;
  if (w && pc.expectMap(w, "window")) {
    pc.checkKeys(w, "window", {"column", "duration", "slide", "startTime"});
    if (auto c = w["column"]; c) {
      op.timeColumn = pc.str(c, "window column");
      checkColumns(pc, c, {op.timeColumn}, columns, "window");
    } else {
      pc.error(w, "missing key 'column' in window");
    }
    if (auto d = w["duration"]; d) {
      op.windowMs = pc.duration(d, "window duration");
    } else {
      pc.error(w, "missing key 'duration' in window (e.g. 10m)");
    }
    if (auto s = w["slide"]; s) {
      op.slideMs = pc.duration(s, "window slide");
      if (op.windowMs > 0 && op.slideMs > op.windowMs)
        pc.error(s, "window slide must not be longer than the window duration");
    }
    if (auto s = w["startTime"]; s) op.startTimeMs = pc.duration(s, "window startTime", true);
  }
  auto agg = n["agg"];
  if (!agg) {
    pc.error(n, "a window aggregation needs 'agg' (e.g. agg: [count, {sum: amount}])");
    return op;
  }
  if (!pc.expectList(agg, "agg")) return op;
  static const std::vector<std::string> kFns = {"count", "sum", "min", "max", "avg", "first", "last",
                                                "collect_list", "collect_set"};
  for (const auto& item : agg) {
    AggSpec a;
    if (item.IsScalar()) {  // `count`
      a.function = pc.oneOf(item, "aggregate", {"count"});
    } else if (item.IsMap()) {  // {sum: amount, as: total}
      pc.checkKeys(item, "an aggregate", {"count", "sum", "min", "max", "avg", "first", "last", "collect_list",
                                          "collect_set", "as"});
      int fns = 0;
      for (const auto& fn : kFns) {
        if (auto c = item[fn]; c) {
          ++fns;
          a.function = fn;
          a.column = pc.str(c, fn);
          if (a.column == "*") a.column.clear();
          if (!a.column.empty()) checkColumns(pc, c, {a.column}, columns, fn);
        }
      }
      if (fns != 1)
        pc.error(item, "an aggregate names exactly one of count, sum, min, max, avg, first, last, collect_list, collect_set");
      if (a.function != "count" && a.column.empty() && fns == 1)
        pc.error(item, fmt::format("{} needs a column", a.function));
      if (auto as = item["as"]; as) a.as = pc.str(as, "as");
    } else {
      pc.error(item, fmt::format("an aggregate must be `count` or a map like {{sum: amount}}; got {}",
                                 nodeTypeName(item)));
    }
    op.aggregates.push_back(a);
  }
  return op;
}

// `python: processors/x.py` (relative to the scenario's folder), `class: Name`, optional
// `outputStructType: DDL` and `inPandas: true` (transformWithStateInPandas).
void parsePythonProcessor(ParseContext& pc, const YAML::Node& t, const YAML::Node& py, TransformWithStateOp& op) {
  if (t["processor"]) pc.error(t["processor"], "give either 'processor' or 'python', not both");
  std::string file = pc.str(py, "python");
  std::filesystem::path path(file);
  if (path.is_relative()) path = std::filesystem::path(pc.file()).parent_path() / path;
  op.pythonFile = path.lexically_normal().string();
  std::error_code ec;
  if (!file.empty() && !std::filesystem::is_regular_file(op.pythonFile, ec))
    pc.error(py, fmt::format("no Python processor file '{}' (looked for {})", file, op.pythonFile));
  if (auto c = t["class"]; c) {
    op.pythonClass = pc.str(c, "class");
  } else {
    pc.error(t, "a Python processor needs 'class' (the StatefulProcessor subclass in the file)");
  }
  if (auto o = t["outputStructType"]; o) op.outputStructType = pc.str(o, "outputStructType");
  if (auto i = t["inPandas"]; i) op.inPandas = i.IsScalar() && i.as<std::string>() == "true";
  if (auto l = t["callLimit"]; l) {
    op.pythonCallLimitMs = pc.duration(l, "callLimit");
    if (op.pythonCallLimitMs <= 0) pc.error(l, "callLimit must be a positive duration (e.g. 30s)");
  }
  op.processor = "python:" + file + ":" + op.pythonClass;
}

TransformWithStateOp parseTws(ParseContext& pc, const YAML::Node& t, std::vector<std::string> groupBy) {
  TransformWithStateOp op;
  op.groupBy = std::move(groupBy);
  if (!pc.expectMap(t, "transformWithState")) return op;
  pc.checkKeys(t, "transformWithState",
               {"processor", "outputMode", "timeMode", "eventTimeColumn", "initialState", "ttl",
                "params", "python", "class", "outputStructType", "inPandas", "callLimit"});
  if (auto py = t["python"]; py) {
    parsePythonProcessor(pc, t, py, op);
  } else if (auto p = t["processor"]; p) {
    op.processor = pc.str(p, "processor");
    if (p.IsScalar() && !pc.isProcessor(op.processor)) {
      pc.error(p, fmt::format("unknown processor '{}'; known processors: {} (add yours to your "
                              "runner's processors: streamsim_add_runner(... REGISTER fn))",
                              op.processor, joinNames(pc.processorNames())));
    }
  } else {
    pc.error(t, "missing key 'processor' in transformWithState (a registered processor name, "
             "or python: FILE with class: NAME)");
  }
  if (auto m = t["outputMode"]; m) op.outputMode = pc.oneOf(m, "transformWithState outputMode", {"append", "update"});
  if (auto m = t["timeMode"]; m)
    op.timeMode = pc.oneOf(m, "timeMode", {"None", "ProcessingTime", "EventTime"});
  if (auto c = t["eventTimeColumn"]; c) {
    // Spark's eventTimeColumnName names a column of the processor's output (the watermark rides
    // on it downstream), not of its input: the engine checks the rows the processor emits.
    op.eventTimeColumn = pc.str(c, "eventTimeColumn");
  }
  if (auto i = t["initialState"]; i) {
    op.initialState = pc.rows(i, "an initialState row");
    op.initialStateGiven = true;  // `initialState: []` is an empty initial state, not none
  }
  if (auto d = t["ttl"]; d) {
    // Handed to the processor's TTLConfig as given (docs/scenarios.md): `ttl: null` is a null
    // duration, 0 no TTL, a negative one Spark's STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE.
    if (!d.IsNull()) op.ttlMs = pc.duration(d, "ttl", /*negativeAllowed=*/true);
    if (op.timeMode != "ProcessingTime")
      pc.error(d, "ttl needs timeMode: ProcessingTime (TTL is measured in processing time)");
  }
  parseProcessorParams(pc, t, op);
  return op;
}

// `params: {name: value}` of a registered processor or a built-in function, as text.
void parseParams(ParseContext& pc, const YAML::Node& p, std::map<std::string, std::string, std::less<>>& out) {
  if (!p.IsMap()) {
    pc.error(p, fmt::format("params must be a map of parameter: value; got {}", nodeTypeName(p)));
    return;
  }
  for (const auto& kv : p) {
    std::string name = pc.str(kv.first, "a parameter name");
    out[name] = pc.str(kv.second, fmt::format("parameter '{}'", name));
  }
}

// `flatMapGroupsWithState:` under a groupBy (FlatMapGroupsWithStateOp).
FlatMapGroupsWithStateOp parseFlatMapGroupsWithState(ParseContext& pc, const YAML::Node& t,
                                                     std::vector<std::string> groupBy) {
  FlatMapGroupsWithStateOp op;
  op.groupBy = std::move(groupBy);
  if (!pc.expectMap(t, "flatMapGroupsWithState")) return op;
  pc.checkKeys(t, "flatMapGroupsWithState",
               {"function", "timeout", "outputMode", "params", "stateStructType", "outputStructType", "name"});
  if (auto f = t["function"]; f) {
    op.function = pc.str(f, "function");
  } else {
    pc.error(t, fmt::format("missing key 'function' in flatMapGroupsWithState (one of: {})",
                            joinNames(builtinGroupStateFunctionNames())));
  }
  if (auto m = t["timeout"]; m)
    op.timeout = pc.oneOf(m, "flatMapGroupsWithState timeout",
                          {"NoTimeout", "ProcessingTimeTimeout", "EventTimeTimeout"});
  if (auto m = t["outputMode"]; m) op.outputMode = pc.oneOf(m, "flatMapGroupsWithState outputMode", {"append", "update"});
  if (auto p = t["params"]; p) parseParams(pc, p, op.params);
  if (auto s = t["stateStructType"]; s) op.stateStructType = pc.str(s, "stateStructType");
  if (auto s = t["outputStructType"]; s) op.outputStructType = pc.str(s, "outputStructType");
  if (auto s = t["name"]; s) op.name = pc.oneOf(s, "flatMapGroupsWithState name", {"flatMapGroupsWithState", "applyInPandasWithState"});
  // A function given in code ("job:N") is bound by the job API; a built-in is checked now.
  if (!op.function.empty() && op.function.rfind("job:", 0) != 0) {
    auto made = builtinGroupStateFunction(op.function, op.params);
    if (!made.ok()) pc.error(t["function"], std::string(made.status().message()));
  }
  return op;
}

// A Kafka-like source: the topic (created with `partitions` and `retention`), Spark's

// `params: {name: value}` and `ttl:` (the parameter "ttl") reach the processor's factory
// (ProcessorSet::factory(name, params) of the loader's RunRegistries); checked here against what it
// takes.
void parseProcessorParams(ParseContext& pc, const YAML::Node& t, TransformWithStateOp& op) {
  auto p = t["params"];
  if (p) parseParams(pc, p, op.params);
  auto ttlNode = t["ttl"];
  if (ttlNode && (ttlNode.IsScalar() || ttlNode.IsNull())) {
    if (op.params.count("ttl") != 0) pc.error(ttlNode, "ttl is given twice: as ttl: and in params:");
    op.params["ttl"] = ttlNode.IsNull() ? "null" : ttlNode.Scalar();
  }
  if (op.params.empty()) return;
  const YAML::Node& where = p ? p : ttlNode;
  if (!op.pythonFile.empty()) {
    pc.error(where, "params and ttl reach registered C++ processors; a Python processor sets its "
                 "TTL in its own init");
    return;
  }
  // A processor only a runner's own hook knows is checked when the query is built.
  const ProcessorSet& processors = processorsOf(pc.options().registries.get());
  auto names = processors.paramNames(op.processor);
  if (!names.ok()) return;
  for (const auto& [name, value] : op.params) {
    if (std::find(names->begin(), names->end(), name) != names->end()) continue;
    const YAML::Node& at = name == "ttl" && ttlNode ? ttlNode : where;
    pc.error(at, fmt::format("the processor '{}' takes no parameter '{}'; it takes: {}",
                             op.processor, name, names->empty() ? "none" : joinNames(*names)));
    return;
  }
  auto made = processors.factory(op.processor, op.params);
  if (!made.ok()) pc.error(where, std::string(made.status().message()));
}
}  // namespace

OperatorSpec parseOperator(ParseContext& pc, const YAML::Node& n, std::optional<std::vector<Field>>& columns) {
  OperatorSpec spec;
  spec.where = pc.loc(n);
  spec.op = SelectOp{};
  if (!pc.expectMap(n, "an operator")) return spec;
  pc.checkKeys(n, "an operator",
               {"withWatermark", "dropDuplicates", "dropDuplicatesWithinWatermark", "select",
                "join", "groupBy", "window", "agg", "transformWithState", "flatMapGroupsWithState",
                "selectExpr", "where",
                "filter", "withColumn", "withColumns", "withColumnRenamed", "withColumnsRenamed",
                "drop", "explode", "limit"});
  if (parseExprOperator(pc, n, columns, spec)) return spec;
  if (auto l = n["limit"]; l) {  // a limit keeps its input's columns
    spec.op = LimitOp{pc.int32(l, "limit", 0)};
    return spec;
  }
  if (auto w = n["withWatermark"]; w) {
    WatermarkOp op;
    if (pc.expectMap(w, "withWatermark")) {
      pc.checkKeys(w, "withWatermark", {"column", "delay"});
      if (auto c = w["column"]; c) {
        op.column = pc.str(c, "withWatermark column");
        checkColumns(pc, c, {op.column}, columns, "withWatermark");
        // Spark's CheckAnalysis (EventTimeWatermark): the event time must be a timestamp.
        if (const Field* f = columns ? findColumn(*columns, op.column) : nullptr; f && f->type != Type::kTimestamp)
          pc.error(c, sparkErrorMessage("EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
                                        {{"eventName", sparkSqlId(op.column)}, {"eventType", sparkSqlType(f->type)}}));
      } else {
        pc.error(w, "missing key 'column' in withWatermark");
      }
      if (auto d = w["delay"]; d) {
        op.delayMs = pc.duration(d, "withWatermark delay");
      } else {
        pc.error(w, "missing key 'delay' in withWatermark (e.g. 10m)");
      }
    }
    spec.op = op;
  } else if (auto d = n["dropDuplicates"]; d) {
    DropDuplicatesOp op{pc.names(d, "dropDuplicates"), false};
    checkColumns(pc, d, op.columns, columns, "dropDuplicates");
    spec.op = op;
  } else if (auto d = n["dropDuplicatesWithinWatermark"]; d) {
    DropDuplicatesOp op{pc.names(d, "dropDuplicatesWithinWatermark"), true};
    checkColumns(pc, d, op.columns, columns, "dropDuplicatesWithinWatermark");
    spec.op = op;
  } else if (auto s = n["select"]; s) {
    SelectOp op{pc.names(s, "select")};
    checkColumns(pc, s, op.columns, columns, "select");
    if (columns) {
      std::vector<Field> selected;
      for (const auto& c : op.columns)
        if (const Field* f = findColumn(*columns, c)) selected.push_back(*f);
      columns = std::move(selected);
    }
    spec.op = op;
  } else if (auto j = n["join"]; j && j.IsMap() && j["stream"]) {
    spec.op = parseStreamJoin(pc, j, columns);
  } else if (auto j = n["join"]; j) {
    spec.op = parseJoin(pc, j, columns);
  } else if (auto g = n["groupBy"]; g) {
    if (auto agg = parseExprAggregation(pc, n, columns)) {
      spec.op = std::move(*agg);
      columns.reset();  // the output columns are the aggregation's
      return spec;
    }
    std::vector<std::string> groupBy = pc.names(g, "groupBy");
    checkColumns(pc, g, groupBy, columns, "groupBy");
    if (auto t = n["transformWithState"]; t) {
      if (n["window"] || n["agg"] || n["flatMapGroupsWithState"])
        pc.error(n, "an operator with transformWithState takes no 'window', 'agg' or 'flatMapGroupsWithState'");
      spec.op = parseTws(pc, t, groupBy);
    } else if (auto f = n["flatMapGroupsWithState"]; f) {
      if (n["window"] || n["agg"]) pc.error(n, "an operator with flatMapGroupsWithState takes no 'window' or 'agg'");
      spec.op = parseFlatMapGroupsWithState(pc, f, groupBy);
    } else if (n["window"] || n["agg"]) {
      spec.op = parseWindowAgg(pc, n, n["window"], groupBy, columns);
    } else {
      pc.error(n, "groupBy needs 'transformWithState', 'flatMapGroupsWithState' or 'agg' (and optionally 'window')");
    }
    columns.reset();  // the output columns are the processor's / aggregation's
  } else if (n["window"] || n["agg"] || n["transformWithState"] || n["flatMapGroupsWithState"]) {
    pc.error(n, "window, agg, transformWithState and flatMapGroupsWithState need 'groupBy' (use groupBy: [] for none)");
  } else {
    pc.error(n, "an operator needs one of withWatermark, dropDuplicates, "
             "dropDuplicatesWithinWatermark, select, selectExpr, where, filter, withColumn, "
             "withColumnRenamed, drop, explode, join, groupBy, limit");
  }
  return spec;
}

namespace {

Result<OperatorFactory> buildOperator(const OperatorSpec& spec, int64_t pandasChunkRows, const RunRegistries* registries) {
  if (auto* l = std::get_if<LimitOp>(&spec.op)) return OperatorFactory([n = l->n] { return makeStreamingLimit(n); });
  if (auto* d = std::get_if<DropDuplicatesOp>(&spec.op)) {
    auto cols = d->columns;
    if (d->withinWatermark) return OperatorFactory([cols] { return makeDropDuplicatesWithinWatermark(cols); });
    return OperatorFactory([cols] { return makeDropDuplicates(cols); });
  }
  if (auto* w = std::get_if<WindowAggregationOp>(&spec.op)) {
    WindowAggregationSpec s;
    s.groupBy = w->groupBy;
    s.window = {w->timeColumn, w->windowMs, w->slideMs, w->startTimeMs};
    if (w->windowless) s.kind = WindowKind::kNone;
    for (const auto& a : w->aggregates) {
      Aggregate agg;
      agg.function = a.function == "sum"            ? AggregateFunction::kSum
                     : a.function == "min"          ? AggregateFunction::kMin
                     : a.function == "max"          ? AggregateFunction::kMax
                     : a.function == "avg"          ? AggregateFunction::kAvg
                     : a.function == "first"        ? AggregateFunction::kFirst
                     : a.function == "last"         ? AggregateFunction::kLast
                     : a.function == "collect_list" ? AggregateFunction::kCollectList
                     : a.function == "collect_set"  ? AggregateFunction::kCollectSet
                                                    : AggregateFunction::kCount;
      agg.column = a.column;
      agg.outputName = a.as;
      s.aggregates.push_back(agg);
    }
    STREAMSIM_RETURN_IF_ERROR(validateWindowAggregation(s));
    return OperatorFactory([s] { return makeWindowAggregation(s); });
  }
  if (auto* t = std::get_if<TransformWithStateOp>(&spec.op)) {
    TransformWithStateSpec s;
    s.groupBy = t->groupBy;
    if (t->factory) {
      s.processorFactory = t->factory;
    } else if (!t->pythonFile.empty()) {
      STREAMSIM_ASSIGN_OR_RETURN(
          s.processorFactory,
          loadPythonProcessor(registries, {t->pythonFile, t->pythonClass, t->outputStructType, t->inPandas, {},
                                           t->pythonCallLimitMs, pandasChunkRows, t->timeMode}));
    } else {
      STREAMSIM_ASSIGN_OR_RETURN(s.processorFactory,
                                 processorsOf(registries).factory(t->processor, t->params));
    }
    s.processorName = t->processor;
    STREAMSIM_ASSIGN_OR_RETURN(s.timeMode, parseTimeMode(t->timeMode));
    if (t->outputMode) {
      STREAMSIM_ASSIGN_OR_RETURN(OutputMode m, parseOutputMode(*t->outputMode));
      s.outputMode = m;
    }
    s.eventTimeColumnName = t->eventTimeColumn;
    if (t->initialStateGiven) {
      std::vector<Row> rows;
      for (const auto& r : t->initialState) rows.push_back(r.toRow());
      s.initialState = rows;
    }
    return OperatorFactory([s] { return makeTransformWithState(s); });
  }
  if (auto* f = std::get_if<FlatMapGroupsWithStateOp>(&spec.op)) {
    FlatMapGroupsWithStateSpec s;
    s.groupBy = f->groupBy;
    s.functionName = f->function;
    s.operatorName = f->name;
    s.stateSchemaDDL = f->stateStructType;
    if (f->factory) {
      s.function = f->factory;
    } else {
      STREAMSIM_ASSIGN_OR_RETURN(BuiltinGroupStateFunction b, builtinGroupStateFunction(f->function, f->params));
      s.function = b.factory;
      if (s.stateSchemaDDL.empty()) s.stateSchemaDDL = b.stateSchemaDDL;
    }
    STREAMSIM_ASSIGN_OR_RETURN(s.timeout, parseGroupStateTimeout(f->timeout));
    STREAMSIM_ASSIGN_OR_RETURN(s.outputMode, parseOutputMode(f->outputMode));
    return OperatorFactory([s] { return makeFlatMapGroupsWithState(s); });
  }
  return Status::InvalidArgument("unsupported operator");
}

}  // namespace

Result<DataFrame> applyOperator(DataFrame df, const OperatorSpec& op, int64_t pandasChunkRows,
                                const ScenarioHooks* hooks, const RunRegistries* registries) {
  if (auto* w = std::get_if<WatermarkOp>(&op.op)) return df.withWatermark(w->column, w->delayMs);
  if (auto* s = std::get_if<SelectOp>(&op.op)) return df.select(s->columns);
  if (auto* e = std::get_if<ExprOp>(&op.op)) return applyExprOp(std::move(df), *e);
  if (auto* j = std::get_if<JoinOp>(&op.op); j && j->stream) {
    StreamStreamJoinSpec spec = *j->stream;
    return df.transform([spec] { return makeStreamStreamJoin(spec); });
  }
  if (auto* j = std::get_if<JoinOp>(&op.op)) return df.join(StaticTable{j->schema, j->rows}, j->on, j->how);
  if (auto* w = std::get_if<WindowAggregationOp>(&op.op); w && !w->aggExprs.empty()) {
    auto applied = applyExprAggregation(std::move(df), *w);
    if (!applied.ok()) return applied.status().withContext(op.where.toString() + ": " + std::string(op.kindName()));
    return applied;
  }
  auto f = buildOperator(op, pandasChunkRows, registries);
  if (!f.ok()) return f.status().withContext(op.where.toString() + ": " + std::string(op.kindName()));
  if (hooks != nullptr && hooks->wrapOperator) return df.transform(hooks->wrapOperator(std::move(*f)));
  return df.transform(*f);
}

void checkStreamJoins(ParseContext& pc, const QuerySpec& q) {
  std::vector<std::string> watermarked;
  for (const auto& chain : q.sourceOperators)
    for (const OperatorSpec& op : chain)
      if (auto* w = std::get_if<WatermarkOp>(&op.op)) watermarked.push_back(w->column);
  for (size_t i = 0; i < q.operators.size(); ++i) {
    const OperatorSpec& op = q.operators[i];
    if (auto* w = std::get_if<WatermarkOp>(&op.op)) {
      watermarked.push_back(w->column);
      continue;
    }
    auto* j = std::get_if<JoinOp>(&op.op);
    if (j == nullptr || !j->stream) continue;
    for (size_t b = 0; b < i; ++b)
      if (!q.sourceOperators.empty())
        pc.addError({q.operators[b].where,
                     fmt::format("{} before a stream-stream join whose sources have their own operators: put it in "
                                 "the operators of the source(s) of its side",
                                 q.operators[b].kindName())});
      else if (!std::holds_alternative<WatermarkOp>(q.operators[b].op))
        pc.addError({q.operators[b].where,
                     fmt::format("{} before a stream-stream join: only withWatermark may stand between the sources "
                                 "and the join; give a source its own operators (`operators:` in the source) to "
                                 "transform one side",
                                 q.operators[b].kindName())});
    auto mode = parseOutputMode(q.outputMode);
    if (Status st = checkStreamStreamJoin(*j->stream, watermarked, mode.ok() ? *mode : OutputMode::kAppend); !st.ok())
      pc.addError({op.where, st.condition().empty() ? std::string(st.message())
                                                    : fmt::format("[{}] {}", st.condition(), st.message())});
  }
}

}  // namespace streamsim::harness::detail

namespace streamsim::harness {

std::string_view OperatorSpec::kindName() const {
  switch (op.index()) {
    case 0: return "withWatermark";
    case 1:
      return std::get<DropDuplicatesOp>(op).withinWatermark ? "dropDuplicatesWithinWatermark"
                                                             : "dropDuplicates";
    case 2: return "select";
    case 3: return "aggregation";
    case 4: return "transformWithState";
    case 6: return std::get<ExprOp>(op).keyword;
    case 7: return std::get<FlatMapGroupsWithStateOp>(op).name;
    case 8: return "limit";
    default: return "join";
  }
}

}  // namespace streamsim::harness
