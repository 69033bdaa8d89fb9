// The scenario loader's query part (parse_query.h): `query:`, its sources, sink and trigger.
// Keys and forms are documented in docs/scenarios.md; keep the two in step.
#include "scenario/parse_query.h"

#include "streamsim/ops/expr_ops.h"

#include "scenario/operators.h"

#include <filesystem>

#include <fmt/format.h>

#include "streamsim/harness/foreach_writers.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/rate_micro_batch_source.h"
#include "streamsim/io/rate_source.h"
#include "streamsim/trigger.h"

namespace streamsim::harness::detail {
namespace {

SourceSpec parseKafkaSource(ParseContext& pc, const YAML::Node& n, SourceSpec& s);
SourceSpec parseRateSource(ParseContext& pc, const YAML::Node& n, SourceSpec& s);
SinkSpec parseSink(ParseContext& pc, const YAML::Node& n);
void checkSinkIsNotASource(ParseContext& pc, const YAML::Node& sinkNode, const QuerySpec& q);
TriggerSpec parseTrigger(ParseContext& pc, const YAML::Node& n);

// `options:` of a source: Spark's option names, scalar values.
void parseSourceOptions(ParseContext& pc, const YAML::Node& n, SourceSpec& s) {
  if (auto o = n["options"]; o && pc.expectMap(o, "source options")) {
    for (auto it = o.begin(); it != o.end(); ++it) {
      if (!it->second.IsScalar()) {
        pc.error(it->second, fmt::format("option '{}' must be a scalar; got {}",
                                         it->first.Scalar(), nodeTypeName(it->second)));
        continue;
      }
      s.options[pc.str(it->first, "an option name")] = it->second.Scalar();
    }
  }
}

SourceSpec parseSource(ParseContext& pc, const YAML::Node& n) {
  SourceSpec s;
  s.where = pc.loc(n);
  if (!pc.expectMap(n, "source")) return s;
  pc.checkKeys(n, "source", {"kind", "path", "format", "schema", "options", "topic", "partitions",
                             "retention", "name", "keyValueType", "operators"});
  // Spark 4.2's DataStreamReader.name (checked when the query starts: query_evolution.h).
  if (auto nm = n["name"]; nm) s.name = pc.str(nm, "a source name");
  if (auto k = n["kind"]; k) {
    std::string kind = pc.oneOf(k, "source kind", {"files", "memory", "kafka", "rate", "rate-micro-batch"});
    s.kind = kind == "memory"             ? SourceSpec::Kind::kMemory
             : kind == "kafka"            ? SourceSpec::Kind::kKafka
             : kind == "rate"             ? SourceSpec::Kind::kRate
             : kind == "rate-micro-batch" ? SourceSpec::Kind::kRateMicroBatch
                                          : SourceSpec::Kind::kFiles;
  } else {
    pc.error(n, "missing key 'kind' in source; expected files, memory, kafka, rate or rate-micro-batch");
  }
  if (s.kind == SourceSpec::Kind::kKafka) return parseKafkaSource(pc, n, s);
  if (s.kind == SourceSpec::Kind::kRate || s.kind == SourceSpec::Kind::kRateMicroBatch)
    return parseRateSource(pc, n, s);
  if (auto p = n["path"]; p) s.path = pc.simPath(p, "source path");
  if (s.kind == SourceSpec::Kind::kFiles && s.path.empty() && n["kind"])
    pc.error(n, "a files source needs 'path' (the landing folder)");
  if (auto f = n["format"]; f) s.format = pc.oneOf(f, "source format", {"json", "csv", "text", "parquet"});
  if (auto d = n["schema"]; d) {
    s.schemaDDL = pc.str(d, "schema");
    if (d.IsScalar()) {
      auto schema = parseSchema(s.schemaDDL);
      if (!schema.ok()) {
        pc.error(d, fmt::format("bad schema \"{}\": {}; expected Spark DDL such as "
                                "\"event_id string, event_time timestamp\"",
                                s.schemaDDL, schema.status().message()));
      } else if ((*schema)->size() == 0) {
        pc.error(d, "the schema has no columns; expected Spark DDL such as \"id string, n long\"");
      } else {
        s.schema = *schema;
      }
    }
  } else {
    pc.error(n, "missing key 'schema' in source (Spark DDL, e.g. \"id string, t timestamp\")");
  }
  parseSourceOptions(pc, n, s);
  return s;
}

SourceSpec parseKafkaSource(ParseContext& pc, const YAML::Node& n, SourceSpec& s) {
  for (const char* k : {"path", "format", "schema"})
    if (n[k]) pc.error(n[k], fmt::format("a kafka source takes no '{}': its rows are key, value, topic, "
                                         "partition, offset, timestamp, timestampType", k));
  parseSourceOptions(pc, n, s);
  // `topic` is created with `partitions` and `retention`, and read unless the options name
  // what to read (subscribe, subscribePattern or assign: io/kafka_source.h).
  bool strategyGiven = false;
  for (const auto& [k, v] : s.options) {
    std::string low = k;
    for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    strategyGiven = strategyGiven || low == "subscribe" || low == "subscribepattern" || low == "assign";
  }
  if (strategyGiven) {
    if (auto t = n["topic"]; t) s.topic = pc.str(t, "topic");
  } else {
    s.topic = pc.requiredStr(n, "topic", "a kafka source");
    s.options["subscribe"] = s.topic;
  }
  if (auto p = n["partitions"]; p) s.partitions = pc.int32(p, "partitions", 1, kMaxTopicPartitions);
  if (auto r = n["retention"]; r) s.retentionMs = pc.duration(r, "retention");
  // `keyValueType: binary`: key and value BINARY as Spark's; `string` (the default) as text.
  if (auto b = n["keyValueType"]; b) s.binaryKeyValue = pc.oneOf(b, "keyValueType", {"string", "binary"}) == "binary";
  s.schema = kafkaSourceSchema(s.binaryKeyValue, kafkaOptionsIncludeHeaders(s.options));
  s.schemaDDL = s.schema->toDDL();
  return s;
}

// `kind: rate`: Spark's rate source, its options checked here (rowsPerSecond, rampUpTime,
// numPartitions: io/rate_source.h); `kind: rate-micro-batch`: Spark's RatePerMicroBatchProvider
// (rowsPerBatch, numPartitions, startTimestamp, advanceMillisPerBatch:
// io/rate_micro_batch_source.h). Both have the rows (timestamp, value).
SourceSpec parseRateSource(ParseContext& pc, const YAML::Node& n, SourceSpec& s) {
  for (const char* k : {"path", "format", "schema", "topic", "partitions", "retention"})
    if (n[k]) pc.error(n[k], fmt::format("a rate source takes no '{}': its rows are timestamp, value", k));
  s.schema = rateSourceSchema();
  s.schemaDDL = s.schema->toDDL();
  parseSourceOptions(pc, n, s);
  const Status checked = s.kind == SourceSpec::Kind::kRate ? RateSourceOptions::fromMap(s.options).status()
                                                           : RateMicroBatchOptions::fromMap(s.options).status();
  if (!checked.ok()) pc.error(n["options"] ? n["options"] : n, std::string(checked.message()));
  return s;
}

// A files sink writing into a file source's folder feeds every batch's output back in as the
// next batch's input: `run: available` would never drain. Refused at the sink's path.
void checkSinkIsNotASource(ParseContext& pc, const YAML::Node& sinkNode, const QuerySpec& q) {
  if (q.sink.kind != SinkSpec::Kind::kFiles || q.sink.path.empty()) return;
  auto norm = [](const std::string& p) {
    std::string s = std::filesystem::path(p).lexically_normal().string();
    while (s.size() > 1 && s.back() == '/') s.pop_back();
    return s;
  };
  for (size_t i = 0; i < q.sources.size(); ++i) {
    const SourceSpec& src = q.sources[i];
    if (src.kind != SourceSpec::Kind::kFiles || norm(src.path) != norm(q.sink.path)) continue;
    const YAML::Node p = sinkNode["path"];
    pc.error(p ? p : sinkNode,
             fmt::format("the files sink writes into {}, the folder source {} reads: each batch's "
                         "output would be the next batch's input and the query never drains; "
                         "expected a sink folder of its own",
                         q.sink.path, i));
  }
}

SinkSpec parseSink(ParseContext& pc, const YAML::Node& n) {
  SinkSpec s;
  s.where = pc.loc(n);
  if (!pc.expectMap(n, "sink")) return s;
  pc.checkKeys(n, "sink", {"kind", "path", "format", "compression", "options", "writer", "topic", "partitions",
                           "numRows", "truncate", "name"});
  // Spark 4.2's DataStreamWriter.name (checked when the query starts: query_evolution.h).
  if (auto nm = n["name"]; nm) s.name = pc.str(nm, "a sink name");
  if (auto k = n["kind"]; k) {
    std::string kind = pc.oneOf(k, "sink kind", {"files", "memory", "foreach", "kafka", "console"});
    s.kind = kind == "files"     ? SinkSpec::Kind::kFiles
             : kind == "foreach" ? SinkSpec::Kind::kForeach
             : kind == "kafka"   ? SinkSpec::Kind::kKafka
             : kind == "console" ? SinkSpec::Kind::kConsole
                                 : SinkSpec::Kind::kMemory;
  } else {
    pc.error(n, "missing key 'kind' in sink; expected files, memory, foreach, kafka or console");
  }
  for (const char* key : {"numRows", "truncate"}) {
    auto o = n[key];
    if (!o) continue;
    if (s.kind != SinkSpec::Kind::kConsole) {
      pc.error(o, fmt::format("'{}' is an option of the console sink: it needs kind: console", key));
    } else if (std::string_view(key) == "numRows") {
      s.numRows = pc.int32(o, "numRows", 0);
    } else {
      s.truncate = pc.boolean(o, "truncate");
    }
  }
  if (s.kind == SinkSpec::Kind::kKafka) {
    s.topic = pc.requiredStr(n, "topic", "a kafka sink");
    if (auto p = n["partitions"]; p) s.partitions = pc.int32(p, "partitions", 1, kMaxTopicPartitions);
  }
  if (auto p = n["path"]; p) s.path = pc.simPath(p, "sink path");
  if (s.kind == SinkSpec::Kind::kFiles && s.path.empty())
    pc.error(n, "a files sink needs 'path' (the output folder)");
  if (auto f = n["format"]; f) s.format = pc.oneOf(f, "sink format", {"json", "parquet", "csv", "text"});
  // A CSV files sink's options (Spark's names: sep, header, quote, ...; io/csv_rows.h).
  if (auto o = n["options"]; o) {
    if (s.format != "csv") {
      pc.error(o, "'options' of a sink are the CSV writer's: it needs format: csv");
    } else if (pc.expectMap(o, "sink options")) {
      for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it->second.IsScalar()) {
          pc.error(it->second, fmt::format("option '{}' must be a scalar; got {}", it->first.Scalar(),
                                           nodeTypeName(it->second)));
          continue;
        }
        s.options[pc.str(it->first, "an option name")] = it->second.Scalar();
      }
    }
  }
  // A Parquet files sink's codec (Spark's `compression` option; engine io/parquet.h).
  if (auto c = n["compression"]; c) {
    if (s.format != "parquet") {
      pc.error(c, "'compression' is an option of the parquet files sink: it needs format: parquet");
    } else {
      s.compression = pc.oneOf(c, "parquet compression", {"snappy", "gzip", "none", "uncompressed"});
    }
  }
  if (auto w = n["writer"]; w) {
    s.writer = pc.str(w, "sink writer");
    if (s.kind != SinkSpec::Kind::kForeach) {
      pc.error(w, "'writer' names a ForeachWriter: it needs kind: foreach");
    } else if (auto f = foreachWritersOf(pc.options().registries.get()).factory(s.writer); !f.ok()) {
      pc.error(w, std::string(f.status().message()));
    }
  }
  return s;
}

TriggerSpec parseTrigger(ParseContext& pc, const YAML::Node& n) {
  TriggerSpec t;
  const std::vector<std::string> kForms = {"default", "availableNow", "once", "realTime",
                                           "{processingTime: 1s}", "{realTime: 5m}"};
  if (n.IsScalar()) {
    std::string k = pc.oneOf(n, "trigger", {"default", "availableNow", "once", "realTime"});
    t.kind = k == "availableNow" ? TriggerSpec::Kind::kAvailableNow
             : k == "once"       ? TriggerSpec::Kind::kOnce
             : k == "realTime"   ? TriggerSpec::Kind::kRealTime
                                 : TriggerSpec::Kind::kDefault;
    if (t.kind == TriggerSpec::Kind::kRealTime) t.intervalMs = kDefaultRealTimeBatchMs;
    return t;
  }
  if (!n.IsMap() || n.size() != 1) {
    pc.error(n, fmt::format("trigger must be one of {}", joinNames(kForms)));
    return t;
  }
  pc.checkKeys(n, "trigger", {"processingTime", "availableNow", "once", "realTime"});
  if (auto r = n["realTime"]; r) {
    // The engine checks the minimum (INVALID_STREAMING_REAL_TIME_MODE_TRIGGER_INTERVAL).
    t.kind = TriggerSpec::Kind::kRealTime;
    t.intervalMs = r.IsScalar() && r.Scalar().size() > 0 && r.Scalar()[0] == '-'
                       ? -1
                       : pc.duration(r, "realTime");
  } else if (auto p = n["processingTime"]; p) {
    t.kind = TriggerSpec::Kind::kProcessingTime;
    t.intervalMs = pc.duration(p, "processingTime");  // 0: back to back (Spark allows it)
  } else if (auto a = n["availableNow"]; a) {
    if (pc.boolean(a, "availableNow")) t.kind = TriggerSpec::Kind::kAvailableNow;
  } else if (auto o = n["once"]; o) {
    if (pc.boolean(o, "once")) t.kind = TriggerSpec::Kind::kOnce;
  }
  return t;
}
}  // namespace

namespace {

// Each source's `operators:` (sourceOperators): per-row expressions and withWatermark, parsed
// against the source's columns; the columns they leave become the source's output
// (ParseContext::sourceOutput). A lone source's go to the front of the query's operators.
void parseSourceOperators(ParseContext& pc, const std::vector<YAML::Node>& nodes, QuerySpec& q) {
  std::vector<std::vector<OperatorSpec>> chains(q.sources.size());
  std::vector<SchemaPtr> outputs(q.sources.size());
  bool any = false;
  for (size_t i = 0; i < q.sources.size(); ++i) {
    outputs[i] = q.sources[i].schema;
    const YAML::Node ops = i < nodes.size() && nodes[i].IsMap() ? nodes[i]["operators"] : YAML::Node();
    if (!ops || ops.IsNull() || !pc.expectList(ops, "a source's operators")) continue;
    std::optional<std::vector<Field>> columns;
    if (q.sources[i].schema) columns = q.sources[i].schema->fields();
    for (const auto& item : ops) {
      OperatorSpec op = parseOperator(pc, item, columns);
      const bool perRow = std::holds_alternative<ExprOp>(op.op) || std::holds_alternative<SelectOp>(op.op) ||
                          std::holds_alternative<WatermarkOp>(op.op);
      if (!perRow)
        pc.error(item, fmt::format("{} in a source's operators: a source's own operators are per-row ones (select, "
                                   "selectExpr, where, withColumn, withColumnRenamed, drop, explode) and "
                                   "withWatermark; put {} in the query's operators, after the union or join",
                                   op.kindName(), op.kindName()));
      chains[i].push_back(std::move(op));
      any = true;
    }
    outputs[i] = columns ? makeSchema(*columns) : nullptr;
  }
  pc.setSourceOutputs(outputs);
  if (!any) return;
  if (q.sources.size() == 1) {
    q.operators = std::move(chains[0]);
    return;
  }
  q.sourceOperators = std::move(chains);
}

}  // namespace

void parseQuery(ParseContext& pc, const YAML::Node& n, QuerySpec& q) {
  q.where = pc.loc(n);
  if (!pc.expectMap(n, "query")) return;
  pc.checkKeys(n, "query",
               {"source", "sources", "operators", "sink", "outputMode", "trigger", "checkpoint",
                "stateStore", "shufflePartitions", "taskRetries", "conf"});
  std::vector<YAML::Node> sourceNodes;  // each source's node (its `operators:`), in order
  if (auto s = n["source"]; s) {
    q.sources.push_back(parseSource(pc, s));
    sourceNodes.push_back(s);
  } else if (auto ss = n["sources"]; ss) {
    if (pc.expectList(ss, "sources"))
      for (const auto& item : ss) {
        // {sameReaderAs: i}: source i's reader once more (reader.union(reader)).
        if (item.IsMap() && item["sameReaderAs"]) {
          pc.checkKeys(item, "source", {"sameReaderAs"});
          const int i = pc.int32(item["sameReaderAs"], "sameReaderAs", 0);
          if (static_cast<size_t>(i) >= q.sources.size()) {
            pc.error(item["sameReaderAs"], fmt::format("sameReaderAs: {} names no earlier source; expected "
                                                       "the index of one listed before it (0..{})",
                                                       i, static_cast<int>(q.sources.size()) - 1));
            continue;
          }
          SourceSpec same = q.sources[static_cast<size_t>(i)];
          same.where = pc.loc(item);
          same.sameReaderAs = q.sources[static_cast<size_t>(i)].sameReaderAs >= 0
                                  ? q.sources[static_cast<size_t>(i)].sameReaderAs : i;
          q.sources.push_back(std::move(same));
          sourceNodes.push_back(YAML::Node());
          continue;
        }
        q.sources.push_back(parseSource(pc, item));
        sourceNodes.push_back(item);
      }
  } else {
    pc.error(n, "missing key 'source' in query (kind files|memory, ...)");
  }
  pc.setSources(q.sources);
  expr::SqlConf sql;
  sql.userFunctions = pc.options().userFunctions;
  q.userFunctions = sql.userFunctions;
  if (auto c = n["conf"]; c && pc.expectMap(c, "conf")) {
    for (auto it = c.begin(); it != c.end(); ++it) {
      std::string key = pc.str(it->first, "a conf name");
      std::string value = pc.str(it->second, "a conf value");
      q.conf[key] = value;
      const size_t digits = value.rfind('-', 0) == 0 ? 1 : 0;
      if (key == kArrowMaxRecordsPerBatchConf &&
          (value.size() == digits || value.find_first_not_of("0123456789", digits) != std::string::npos))
        pc.error(it->second, fmt::format("{} must be an integer (rows per DataFrame; <= 0: no limit), got '{}'",
                                         key, value));
      if (expr::SqlConf::isSqlConf(key))
        if (Status st = sql.set(key, value); !st.ok()) pc.error(it->second, std::string(st.message()));
    }
  }
  pc.setSqlConf(sql);
  parseSourceOperators(pc, sourceNodes, q);
  std::optional<std::vector<Field>> columns;  // the input of the next operator, when known
  if (q.sources.size() == 1 && pc.sourceOutput(0)) columns = pc.sourceOutput(0)->fields();
  // A stream-stream join takes its sides from the sources as they are: no union of them.
  bool streamJoin = false;
  if (auto ops = n["operators"]; ops && ops.IsSequence())
    for (const auto& item : ops)
      streamJoin = streamJoin || (item.IsMap() && item["join"] && item["join"].IsMap() && item["join"]["stream"]);
  if (q.sources.size() > 1 && !streamJoin) {
    std::vector<Schema> inputs;
    for (size_t i = 0; i < q.sources.size(); ++i)
      if (SchemaPtr out = pc.sourceOutput(i)) inputs.push_back(*out);
    if (inputs.size() == q.sources.size()) {
      auto u = unionByPositionSchema(inputs, sql);
      if (!u.ok()) {
        pc.error(n["sources"], std::string(u.status().message()));
      } else {
        bool same = true;
        for (const Schema& s : inputs) same = same && s == *u;
        if (!same) q.unionSchema = std::make_shared<const Schema>(*u);
        columns = u->fields();
      }
    }
  }
  if (auto ops = n["operators"]; ops && !ops.IsNull()) {
    if (pc.expectList(ops, "operators"))
      for (const auto& item : ops) q.operators.push_back(parseOperator(pc, item, columns));
  }
  if (auto s = n["sink"]; s) {
    q.sink = parseSink(pc, s);
    checkSinkIsNotASource(pc, s, q);
  } else {
    q.sink.where = pc.loc(n);  // memory sink by default
  }
  if (auto m = n["outputMode"]; m) q.outputMode = pc.oneOf(m, "outputMode", {"append", "update", "complete"});
  if (auto t = n["trigger"]; t) q.trigger = parseTrigger(pc, t);
  if (streamJoin) checkStreamJoins(pc, q);
  if (auto c = n["checkpoint"]; c) q.checkpoint = pc.simPath(c, "checkpoint");
  if (auto s = n["stateStore"]; s) {
    q.stateStore = pc.oneOf(s, "stateStore", {"memory", "rocksdb"});
    q.stateStoreSet = true;
  }
  if (auto p = n["shufflePartitions"]; p) q.shufflePartitions = pc.int32(p, "shufflePartitions", 1, kMaxShufflePartitions);
  if (auto r = n["taskRetries"]; r) q.taskRetries = pc.int32(r, "taskRetries", 0);
}

}  // namespace streamsim::harness::detail
