// The scenario loader: YAML (yaml-cpp) -> Scenario, with every error located (file:line:col) and
// explained. Keys and forms are documented in docs/scenarios.md; keep the two in step.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "streamsim/fault_points.h"
#include "streamsim/harness/foreach_writers.h"
#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/run/downtime_range.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/query.h"
#include "streamsim/spark_errors.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/trigger.h"
#include "streamsim/tws/processor_registry.h"
#include "yaml_documents.h"

namespace streamsim::harness {

std::string SourceLocation::toString() const {
  if (line <= 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

std::string ScenarioError::toString() const {
  return fmt::format("{}: {}", where.toString(), message);
}

std::string ScenarioLoad::errorText() const {
  std::string out;
  for (const auto& e : errors) {
    out += e.toString();
    out += '\n';
  }
  return out;
}

namespace {
// The oracles a scenario may list: every oracle of oracles.h.
const std::vector<std::string>& scenarioOracleNames() { return oracleNames(); }
}  // namespace

std::string_view OperatorSpec::kindName() const {
  switch (op.index()) {
    case 0: return "withWatermark";
    case 1:
      return std::get<DropDuplicatesOp>(op).withinWatermark ? "dropDuplicatesWithinWatermark"
                                                             : "dropDuplicates";
    case 2: return "select";
    case 3: return "window aggregation";
    case 4: return "transformWithState";
    default: return "join";
  }
}

std::string_view Step::kindName() const {
  static constexpr std::string_view kNames[] = {"put",     "put_partial", "resend",  "touch",
                                                "delete",  "add_rows",    "advance", "run",
                                                "crash",   "restart",     "stop",    "expect",
                                                "produce"};
  return kNames[step.index()];
}

Result<Row> RowSpec::toRow(const Schema& schema) const {
  std::vector<Value> values(schema.size());
  for (const auto& [name, value] : fields) {
    int i = schema.indexOf(name);
    if (i < 0) {
      return Status::InvalidArgument(
          fmt::format("column '{}' is not in the schema ({})", name, schema.toDDL()));
    }
    if (value.isNull()) continue;
    auto cast = value.castTo(schema.field(i));
    if (!cast.ok()) {
      return Status::InvalidArgument(fmt::format("column '{}': value '{}' is not a {}: {}", name,
                                                 value.toString(),
                                                 typeName(schema.field(i).type),
                                                 cast.status().message()));
    }
    values[i] = std::move(cast).value();
  }
  return Row(std::make_shared<const Schema>(schema), std::move(values));
}

Row RowSpec::toRow() const { return Row::fromNamed(fields); }

namespace {

// A simulated topic keeps every partition in memory, as the state stores of the shuffle
// partitions are: the same bound. A produced record's copies are appended one by one.
constexpr int kMaxTopicPartitions = kMaxShufflePartitions;
constexpr int kMaxRecordDuplicates = 10000;

std::string joinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

std::string_view nodeTypeName(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    default: return "nothing";
  }
}

bool isPlainScalar(const YAML::Node& n) { return n.IsScalar() && n.Tag() != "!"; }

// A YAML scalar typed the way docs/scenarios.md says (quoted scalars are always strings).
Value scalarValue(const YAML::Node& n) {
  if (n.IsNull()) return Value();
  const std::string& s = n.Scalar();
  if (!isPlainScalar(n)) return Value(s);
  if (s == "~" || s == "null" || s == "Null" || s == "NULL") return Value();
  if (s == "true" || s == "True" || s == "TRUE") return Value(true);
  if (s == "false" || s == "False" || s == "FALSE") return Value(false);
  if (!s.empty()) {
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    bool digits = i < s.size();
    for (size_t j = i; j < s.size(); ++j)
      if (s[j] < '0' || s[j] > '9') digits = false;
    if (digits) {
      errno = 0;
      long long v = std::strtoll(s.c_str(), nullptr, 10);
      if (errno == 0) return Value(static_cast<int64_t>(v));
    }
    bool numberish = std::isdigit(static_cast<unsigned char>(s[i < s.size() ? i : 0])) ||
                     s[i < s.size() ? i : 0] == '.';
    if (numberish) {
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (end == s.c_str() + s.size() && std::isfinite(d)) return Value(d);
    }
  }
  return Value(s);
}

class Parser {
 public:
  Parser(std::string file, const LoaderOptions& options) : file_(std::move(file)), options_(options) {}

  ScenarioLoad parse(std::string_view text) {
    ScenarioLoad out;
    YAML::Node root;
    try {
      YamlDocuments docs = readYamlDocuments(text);
      if (docs.stuck) {
        size_t at = static_cast<size_t>(docs.stuck->pos);
        error(*docs.stuck, fmt::format("not valid YAML: a document cannot start with '{}'",
                                       at < text.size() ? text.substr(at, 1) : ""));
        out.errors = std::move(errors_);
        return out;
      }
      root = docs.first;
      if (docs.second) secondDocument(text, *docs.second);
    } catch (const YAML::Exception& e) {
      error(e.mark, fmt::format("not valid YAML: {}", e.msg));
      out.errors = std::move(errors_);
      return out;
    }
    duplicateKeys(root);
    Scenario sc;
    sc.file = file_;
    auto start = parseTimestamp("2026-01-01T00:00:00Z");
    sc.start = start.ok() ? *start : 0;
    if (!root.IsMap()) {
      // An empty file (or only comments) has no node to point at: its line 1.
      error(root.Mark().line >= 0 ? root.Mark() : YAML::Mark(),
            fmt::format("a scenario file must be a map with keys name, query, steps; got {}",
                        nodeTypeName(root)));
    } else {
      checkKeys(root, "the scenario",
                {"name", "description", "start", "query", "steps", "oracles", "sweep", "services"});
      if (auto n = root["name"]; n) {
        sc.name = str(n, "name");
      } else {
        error(root, "missing key 'name' (one line saying what the scenario shows)");
      }
      if (auto n = root["description"]; n) sc.description = str(n, "description");
      if (auto n = root["start"]; n) sc.start = timestamp(n, "start");
      if (auto n = root["query"]; n) {
        query_node_ = n;
        parseQuery(n, sc.query);
        sink_kind_ = sc.query.sink.kind;
      } else {
        error(root, "missing key 'query' (source, operators, sink, ...)");
      }
      if (auto n = root["steps"]; n) {
        parseSteps(n, sc);
      } else {
        error(root, "missing key 'steps' (the list of put/run/expect/... steps)");
      }
      if (auto n = root["oracles"]; n) parseOracles(n, sc);
      if (auto n = root["sweep"]; n) sc.sweep = parseSweep(n);
      if (auto n = root["services"]; n) parseServices(n, sc);
    }
    out.errors = std::move(errors_);
    if (out.errors.empty()) out.scenario = std::move(sc);
    return out;
  }

 private:
  // ---- errors and locations

  SourceLocation loc(const YAML::Mark& m) const {
    SourceLocation l;
    l.file = file_;
    if (m.line >= 0) {
      l.line = m.line + 1;
      l.column = m.column + 1;
    }
    return l;
  }
  SourceLocation loc(const YAML::Node& n) const { return loc(n.Mark()); }
  void error(const YAML::Mark& m, std::string msg) { errors_.push_back({loc(m), std::move(msg)}); }
  void error(const YAML::Node& n, std::string msg) { error(n.Mark(), std::move(msg)); }

  // A second YAML document after the scenario's (yaml-cpp's Load would drop it silently).
  void secondDocument(std::string_view text, YAML::Mark m) {
    if (m.line < 0) {  // an empty document has no mark: point at its `---`
      m = YAML::Mark();
      size_t at = 0;
      for (int line = 0, seen = 0; at < text.size(); ++line) {
        if (text.substr(at, 3) == "---" && ++seen == (text.substr(0, 3) == "---" ? 2 : 1)) {
          m.line = line;
          m.column = 0;
          break;
        }
        size_t nl = text.find('\n', at);
        if (nl == std::string_view::npos) break;
        at = nl + 1;
      }
    }
    error(m, "a scenario file holds one YAML document; a second one starts here (remove the "
             "'---' or put it in a file of its own)");
  }

  // Every key that a map names twice (yaml-cpp keeps both and `node[key]` finds the first, so
  // a second `steps:` would be ignored), at the repeated key.
  void duplicateKeys(const YAML::Node& n, int depth = 0) {
    if (depth > 200) return;  // yaml-cpp's own parse bounds the depth well below this
    if (n.IsSequence()) {
      for (const auto& item : n) duplicateKeys(item, depth + 1);
    } else if (n.IsMap()) {
      std::map<std::string, int> first;
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (it->first.IsScalar()) {
          auto [at, fresh] = first.emplace(it->first.Scalar(), it->first.Mark().line + 1);
          if (!fresh)
            error(it->first, fmt::format("duplicate key '{}' (first at line {}); a key appears "
                                         "once in a map", it->first.Scalar(), at->second));
        }
        duplicateKeys(it->second, depth + 1);
      }
    }
  }

  // Reports every key of `map` not in `allowed` (with the key's own position).
  void checkKeys(const YAML::Node& map, std::string_view context,
                 const std::vector<std::string>& allowed) {
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(it->first, fmt::format("a key in {} must be a name", context));
        continue;
      }
      const std::string& key = it->first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        error(it->first, fmt::format("unknown key '{}' in {}; expected one of {}", key, context,
                                     joinNames(allowed)));
      }
    }
  }

  bool expectMap(const YAML::Node& n, std::string_view what) {
    if (n.IsMap()) return true;
    error(n, fmt::format("{} must be a map; got {}", what, nodeTypeName(n)));
    return false;
  }
  bool expectList(const YAML::Node& n, std::string_view what) {
    if (n.IsSequence()) return true;
    error(n, fmt::format("{} must be a list; got {}", what, nodeTypeName(n)));
    return false;
  }

  // ---- scalars

  std::string str(const YAML::Node& n, std::string_view what) {
    if (!n.IsScalar()) {
      error(n, fmt::format("{} must be a string; got {}", what, nodeTypeName(n)));
      return {};
    }
    return n.Scalar();
  }
  // An integer from min to max (every integer of the file is range-checked into its target
  // type here: nothing is narrowed by a cast later).
  int64_t integer(const YAML::Node& n, std::string_view what, int64_t min = INT64_MIN,
                  int64_t max = INT64_MAX) {
    Value v = n.IsScalar() ? scalarValue(n) : Value();
    if (!n.IsScalar() || v.type() != Type::kLong) {
      error(n, fmt::format("{} must be an integer; got {}", what,
                           n.IsScalar() ? fmt::format("'{}'", n.Scalar())
                                        : std::string(nodeTypeName(n))));
      return min == INT64_MIN ? 0 : min;
    }
    if (v.asLong() < min) {
      error(n, fmt::format("{} must be at least {}; got {}", what, min, v.asLong()));
      return min;
    }
    if (v.asLong() > max) {
      error(n, fmt::format("{} must be at most {}; got {}", what, max, v.asLong()));
      return min == INT64_MIN ? 0 : min;
    }
    return v.asLong();
  }
  // An integer into an int: at most INT_MAX unless a lower bound is given.
  int int32(const YAML::Node& n, std::string_view what, int min, int max = INT32_MAX) {
    return static_cast<int>(integer(n, what, min, max));
  }
  double number(const YAML::Node& n, std::string_view what, double min, double max) {
    Value v = n.IsScalar() ? scalarValue(n) : Value();
    if (!n.IsScalar() || !(v.type() == Type::kLong || v.type() == Type::kDouble)) {
      error(n, fmt::format("{} must be a number between {} and {}; got {}", what, min, max,
                           n.IsScalar() ? fmt::format("'{}'", n.Scalar())
                                        : std::string(nodeTypeName(n))));
      return min;
    }
    double d = v.asDouble();
    if (d < min || d > max) {
      error(n, fmt::format("{} must be between {} and {}; got {}", what, min, max, d));
      return min;
    }
    return d;
  }
  bool boolean(const YAML::Node& n, std::string_view what) {
    Value v = n.IsScalar() ? scalarValue(n) : Value();
    if (v.type() != Type::kBoolean) {
      error(n, fmt::format("{} must be true or false; got {}", what,
                           n.IsScalar() ? fmt::format("'{}'", n.Scalar())
                                        : std::string(nodeTypeName(n))));
      return false;
    }
    return v.asBool();
  }
  // A duration; negative ones only where Spark takes them (a window's startTime).
  DurationMs duration(const YAML::Node& n, std::string_view what, bool negativeAllowed = false) {
    if (!n.IsScalar()) {
      error(n, fmt::format("{} must be a duration such as 10m, 7d, 1s, 250ms; got {}", what,
                           nodeTypeName(n)));
      return 0;
    }
    auto d = parseDuration(n.Scalar());
    if (!d.ok()) {
      error(n, fmt::format("bad duration '{}' for {}; expected e.g. 10m, 7d, 1s, 250ms, 1h30m ({})",
                           n.Scalar(), what, d.status().message()));
      return 0;
    }
    if (*d < 0 && !negativeAllowed) {
      error(n, fmt::format("{} must not be negative; got '{}'", what, n.Scalar()));
      return 0;
    }
    return *d;
  }
  TimeMs timestamp(const YAML::Node& n, std::string_view what) {
    if (!n.IsScalar()) {
      error(n, fmt::format("{} must be a timestamp such as \"2026-01-01T00:00:00Z\"; got {}", what,
                           nodeTypeName(n)));
      return 0;
    }
    auto t = parseTimestamp(n.Scalar());
    if (!t.ok()) {
      error(n, fmt::format("bad timestamp '{}' for {}; expected e.g. \"2026-01-01T00:00:00Z\"",
                           n.Scalar(), what));
      return 0;
    }
    return *t;
  }
  std::vector<std::string> names(const YAML::Node& n, std::string_view what) {
    std::vector<std::string> out;
    if (n.IsScalar()) {
      out.push_back(n.Scalar());
      return out;
    }
    if (!n.IsSequence()) {
      error(n, fmt::format("{} must be a list of column names; got {}", what, nodeTypeName(n)));
      return out;
    }
    for (const auto& item : n) out.push_back(str(item, what));
    return out;
  }
  std::string oneOf(const YAML::Node& n, std::string_view what,
                    const std::vector<std::string>& allowed) {
    std::string s = str(n, what);
    if (!n.IsScalar()) return allowed.front();
    for (const auto& a : allowed) {
      if (a == s) return s;
      // Spark's names are case-insensitive (outputMode "Update", timeMode "processingTime").
      if (a.size() == s.size() && std::equal(a.begin(), a.end(), s.begin(), [](char x, char y) {
            return std::tolower(static_cast<unsigned char>(x)) ==
                   std::tolower(static_cast<unsigned char>(y));
          }))
        return a;
    }
    error(n, fmt::format("unknown {} '{}'; expected one of {}", what, s, joinNames(allowed)));
    return allowed.front();
  }

  // ---- rows

  // A value of a row: a scalar (scalarValue), a sequence (an array) or a map (a map with the
  // keys' scalar values; the column's type makes it a struct or a map: Value::castTo(Field)).
  std::optional<Value> yamlValue(const YAML::Node& n, const std::string& what) {
    if (n.IsNull() || n.IsScalar()) return scalarValue(n);
    if (n.IsSequence()) {
      std::vector<Value> elements;
      for (size_t i = 0; i < n.size(); ++i) {
        auto e = yamlValue(n[i], fmt::format("{}, element {}", what, i));
        if (!e) return std::nullopt;
        elements.push_back(std::move(*e));
      }
      return Value::arrayOf(std::move(elements));
    }
    if (n.IsMap()) {
      std::vector<std::pair<Value, Value>> entries;
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (!it->first.IsScalar()) {
          error(it->first, fmt::format("a key in {} must be a scalar; got {}", what, nodeTypeName(it->first)));
          return std::nullopt;
        }
        Value key = scalarValue(it->first);
        if (key.isNull()) {
          error(it->first, fmt::format("a key in {} is null: map keys and field names cannot be", what));
          return std::nullopt;
        }
        auto v = yamlValue(it->second, fmt::format("{}, key '{}'", what, it->first.Scalar()));
        if (!v) return std::nullopt;
        entries.emplace_back(std::move(key), std::move(*v));
      }
      auto m = Value::mapOf(std::move(entries));
      if (!m.ok()) {
        error(n, fmt::format("{}: {}", what, m.status().message()));
        return std::nullopt;
      }
      return std::move(m).value();
    }
    error(n, fmt::format("{} must be a value; got {}", what, nodeTypeName(n)));
    return std::nullopt;
  }

  RowSpec row(const YAML::Node& n, std::string_view what) {
    RowSpec r;
    r.where = loc(n);
    if (!n.IsMap()) {
      error(n, fmt::format("{} must be a map of column: value; got {}", what, nodeTypeName(n)));
      return r;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(it->first, fmt::format("a column name in {} must be a string", what));
        continue;
      }
      auto v = yamlValue(it->second, fmt::format("column '{}' in {}", it->first.Scalar(), what));
      if (!v) continue;
      r.fields.emplace_back(it->first.Scalar(), std::move(*v));
    }
    return r;
  }
  std::vector<RowSpec> rows(const YAML::Node& n, std::string_view what) {
    std::vector<RowSpec> out;
    if (n.IsNull()) return out;  // `rows:` or `rows: []`
    if (!expectList(n, what)) return out;
    for (const auto& item : n) out.push_back(row(item, what));
    return out;
  }
  // Rows bound for the source: every column must be in its schema and cast to its type.
  void checkSourceRows(const std::vector<RowSpec>& rs, int sourceIndex) {
    if (sourceIndex < 0 || sourceIndex >= static_cast<int>(sources_.size())) return;
    const SourceSpec& src = sources_[sourceIndex];
    if (!src.schema) return;
    for (const auto& r : rs) {
      auto row = r.toRow(*src.schema);
      if (!row.ok()) {
        errors_.push_back({r.where, fmt::format("row does not fit the source schema: {}",
                                                row.status().message())});
      }
    }
  }

  // ---- query

  void parseQuery(const YAML::Node& n, QuerySpec& q) {
    q.where = loc(n);
    if (!expectMap(n, "query")) return;
    checkKeys(n, "query",
              {"source", "sources", "operators", "sink", "outputMode", "trigger", "checkpoint",
               "stateStore", "shufflePartitions", "taskRetries", "conf"});
    if (auto s = n["source"]; s) {
      q.sources.push_back(parseSource(s));
    } else if (auto ss = n["sources"]; ss) {
      if (expectList(ss, "sources"))
        for (const auto& item : ss) q.sources.push_back(parseSource(item));
    } else {
      error(n, "missing key 'source' in query (kind files|memory, ...)");
    }
    sources_ = q.sources;
    std::optional<std::vector<Field>> columns;  // the input of the next operator, when known
    if (q.sources.size() == 1 && q.sources[0].schema) columns = q.sources[0].schema->fields();
    if (auto ops = n["operators"]; ops && !ops.IsNull()) {
      if (expectList(ops, "operators"))
        for (const auto& item : ops) q.operators.push_back(parseOperator(item, columns));
    }
    if (auto s = n["sink"]; s) {
      q.sink = parseSink(s);
      checkSinkIsNotASource(s, q);
    } else {
      q.sink.where = loc(n);  // memory sink by default
    }
    if (auto m = n["outputMode"]; m) q.outputMode = oneOf(m, "outputMode", {"append", "update", "complete"});
    if (auto t = n["trigger"]; t) q.trigger = parseTrigger(t);
    if (auto c = n["checkpoint"]; c) q.checkpoint = str(c, "checkpoint");
    if (auto s = n["stateStore"]; s) {
      q.stateStore = oneOf(s, "stateStore", {"memory", "rocksdb"});
      q.stateStoreSet = true;
    }
    if (auto p = n["shufflePartitions"]; p) q.shufflePartitions = int32(p, "shufflePartitions", 1, kMaxShufflePartitions);
    if (auto r = n["taskRetries"]; r) q.taskRetries = int32(r, "taskRetries", 0);
    if (auto c = n["conf"]; c && expectMap(c, "conf")) {
      for (auto it = c.begin(); it != c.end(); ++it)
        q.conf[str(it->first, "a conf name")] = str(it->second, "a conf value");
    }
  }

  SourceSpec parseSource(const YAML::Node& n) {
    SourceSpec s;
    s.where = loc(n);
    if (!expectMap(n, "source")) return s;
    checkKeys(n, "source", {"kind", "path", "format", "schema", "options", "topic", "partitions",
                            "retention"});
    if (auto k = n["kind"]; k) {
      std::string kind = oneOf(k, "source kind", {"files", "memory", "kafka"});
      s.kind = kind == "memory"  ? SourceSpec::Kind::kMemory
               : kind == "kafka" ? SourceSpec::Kind::kKafka
                                 : SourceSpec::Kind::kFiles;
    } else {
      error(n, "missing key 'kind' in source; expected files, memory or kafka");
    }
    if (s.kind == SourceSpec::Kind::kKafka) return parseKafkaSource(n, s);
    if (auto p = n["path"]; p) s.path = str(p, "source path");
    if (s.kind == SourceSpec::Kind::kFiles && s.path.empty() && n["kind"])
      error(n, "a files source needs 'path' (the landing folder)");
    if (auto f = n["format"]; f) s.format = oneOf(f, "source format", {"json"});
    if (auto d = n["schema"]; d) {
      s.schemaDDL = str(d, "schema");
      if (d.IsScalar()) {
        auto schema = parseSchema(s.schemaDDL);
        if (!schema.ok()) {
          error(d, fmt::format("bad schema \"{}\": {}; expected Spark DDL such as "
                               "\"event_id string, event_time timestamp\"",
                               s.schemaDDL, schema.status().message()));
        } else if ((*schema)->size() == 0) {
          error(d, "the schema has no columns; expected Spark DDL such as \"id string, n long\"");
        } else {
          s.schema = *schema;
        }
      }
    } else {
      error(n, "missing key 'schema' in source (Spark DDL, e.g. \"id string, t timestamp\")");
    }
    if (auto o = n["options"]; o && expectMap(o, "source options")) {
      for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it->second.IsScalar()) {
          error(it->second, fmt::format("option '{}' must be a scalar; got {}",
                                        it->first.Scalar(), nodeTypeName(it->second)));
          continue;
        }
        s.options[str(it->first, "an option name")] = it->second.Scalar();
      }
    }
    return s;
  }

  static const Field* findColumn(const std::vector<Field>& columns, const std::string& name) {
    for (const Field& f : columns)
      if (f.name == name) return &f;
    return nullptr;
  }

  void checkColumns(const YAML::Node& n, const std::vector<std::string>& cols,
                    const std::optional<std::vector<Field>>& columns, std::string_view op) {
    if (!columns) return;
    for (const auto& c : cols) {
      if (findColumn(*columns, c) == nullptr) {
        std::vector<std::string> names;
        for (const Field& f : *columns) names.push_back(f.name);
        error(n, fmt::format("column '{}' is not in the input of {}; columns: {}", c, op,
                             joinNames(names)));
      }
    }
  }

  OperatorSpec parseOperator(const YAML::Node& n, std::optional<std::vector<Field>>& columns) {
    OperatorSpec spec;
    spec.where = loc(n);
    spec.op = SelectOp{};
    if (!expectMap(n, "an operator")) return spec;
    checkKeys(n, "an operator",
              {"withWatermark", "dropDuplicates", "dropDuplicatesWithinWatermark", "select",
               "join", "groupBy", "window", "agg", "transformWithState"});
    if (auto w = n["withWatermark"]; w) {
      WatermarkOp op;
      if (expectMap(w, "withWatermark")) {
        checkKeys(w, "withWatermark", {"column", "delay"});
        if (auto c = w["column"]; c) {
          op.column = str(c, "withWatermark column");
          checkColumns(c, {op.column}, columns, "withWatermark");
          // Spark's CheckAnalysis (EventTimeWatermark): the event time must be a timestamp.
          if (const Field* f = columns ? findColumn(*columns, op.column) : nullptr; f && f->type != Type::kTimestamp)
            error(c, sparkErrorMessage("EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
                                       {{"eventName", sparkSqlId(op.column)}, {"eventType", sparkSqlType(f->type)}}));
        } else {
          error(w, "missing key 'column' in withWatermark");
        }
        if (auto d = w["delay"]; d) {
          op.delayMs = duration(d, "withWatermark delay");
        } else {
          error(w, "missing key 'delay' in withWatermark (e.g. 10m)");
        }
      }
      spec.op = op;
    } else if (auto d = n["dropDuplicates"]; d) {
      DropDuplicatesOp op{names(d, "dropDuplicates"), false};
      checkColumns(d, op.columns, columns, "dropDuplicates");
      spec.op = op;
    } else if (auto d = n["dropDuplicatesWithinWatermark"]; d) {
      DropDuplicatesOp op{names(d, "dropDuplicatesWithinWatermark"), true};
      checkColumns(d, op.columns, columns, "dropDuplicatesWithinWatermark");
      spec.op = op;
    } else if (auto s = n["select"]; s) {
      SelectOp op{names(s, "select")};
      checkColumns(s, op.columns, columns, "select");
      if (columns) {
        std::vector<Field> selected;
        for (const auto& c : op.columns)
          if (const Field* f = findColumn(*columns, c)) selected.push_back(*f);
        columns = std::move(selected);
      }
      spec.op = op;
    } else if (auto j = n["join"]; j) {
      spec.op = parseJoin(j, columns);
    } else if (auto g = n["groupBy"]; g) {
      std::vector<std::string> groupBy = names(g, "groupBy");
      checkColumns(g, groupBy, columns, "groupBy");
      if (auto t = n["transformWithState"]; t) {
        if (n["window"] || n["agg"])
          error(n, "an operator with transformWithState takes no 'window' or 'agg'");
        spec.op = parseTws(t, groupBy, columns);
      } else if (auto w = n["window"]; w) {
        spec.op = parseWindowAgg(n, w, groupBy, columns);
      } else {
        error(n, "groupBy needs 'transformWithState' or 'window' + 'agg'");
      }
      columns.reset();  // the output columns are the processor's / aggregation's
    } else if (n["window"] || n["agg"] || n["transformWithState"]) {
      error(n, "window, agg and transformWithState need 'groupBy' (use groupBy: [] for none)");
    } else {
      error(n, "an operator needs one of withWatermark, dropDuplicates, "
               "dropDuplicatesWithinWatermark, select, join, groupBy");
    }
    return spec;
  }

  // `join: {static: {schema: DDL, rows: [...]}, on: [cols], how: inner}`. Everything the engine
  // would refuse when the query starts is refused here, at its line (ops/stream_static_join.h);
  // `columns` becomes the join's output: join columns, the stream's others, the table's others.
  JoinOp parseJoin(const YAML::Node& j, std::optional<std::vector<Field>>& columns) {
    JoinOp op;
    if (!expectMap(j, "join")) return op;
    checkKeys(j, "join", {"static", "on", "how"});
    std::optional<JoinType> type;
    if (auto h = j["how"]; h) {
      op.how = str(h, "join how");
      if (auto parsed = parseJoinType(op.how); !parsed.ok()) {
        error(h, parsed.status().message());
      } else if (auto st = checkStreamStaticJoinType(*parsed); !st.ok()) {
        error(h, st.message());  // the stream is the left side
      } else {
        type = *parsed;
      }
    } else {
      type = JoinType::kInner;
    }
    if (auto o = j["on"]; o) {
      op.on = names(o, "join on");
      if (op.on.empty()) error(o, "join needs at least one column in 'on' (the columns both sides share)");
      checkColumns(o, op.on, columns, "join");
    } else {
      error(j, "missing key 'on' in join (the columns both sides share, e.g. on: [device])");
    }
    auto s = j["static"];
    if (!s) {
      error(j, "missing key 'static' in join (the table: {schema: DDL, rows: [...]})");
      return op;
    }
    if (!expectMap(s, "join static")) return op;
    checkKeys(s, "join static", {"schema", "rows"});
    if (auto d = s["schema"]; d) {
      auto schema = parseSchema(str(d, "join static schema"));
      if (!schema.ok()) {
        error(d, fmt::format("bad schema: {}; expected Spark DDL such as \"device string, site string\"",
                             schema.status().message()));
        return op;
      }
      op.schema = *schema;
    } else {
      error(s, "missing key 'schema' in join static (Spark DDL, e.g. \"device string, site string\")");
      return op;
    }
    if (auto r = s["rows"]; r) {
      for (const RowSpec& spec : rows(r, "a static row")) {
        auto row = spec.toRow(*op.schema);
        if (!row.ok()) {
          errors_.push_back({spec.where, fmt::format("row does not fit the static schema: {}", row.status().message())});
        } else {
          op.rows.push_back(std::move(row).value());
        }
      }
    }
    for (size_t k = 0; k < op.on.size(); ++k) {
      if (op.schema->indexOf(op.on[k]) < 0)
        error(j["on"], fmt::format("column '{}' is not in the static table ({})", op.on[k], op.schema->toDDL()));
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
      error(table ? s["schema"] : j["on"], shape.status.message());
      columns.reset();
      return op;
    }
    columns = std::move(shape.fields);
    return op;
  }

  WindowAggregationOp parseWindowAgg(const YAML::Node& n, const YAML::Node& w,
                                     std::vector<std::string> groupBy,
                                     const std::optional<std::vector<Field>>& columns) {
    WindowAggregationOp op;
    op.groupBy = std::move(groupBy);
    if (expectMap(w, "window")) {
      checkKeys(w, "window", {"column", "duration", "slide", "startTime"});
      if (auto c = w["column"]; c) {
        op.timeColumn = str(c, "window column");
        checkColumns(c, {op.timeColumn}, columns, "window");
      } else {
        error(w, "missing key 'column' in window");
      }
      if (auto d = w["duration"]; d) {
        op.windowMs = duration(d, "window duration");
      } else {
        error(w, "missing key 'duration' in window (e.g. 10m)");
      }
      if (auto s = w["slide"]; s) {
        op.slideMs = duration(s, "window slide");
        if (op.windowMs > 0 && op.slideMs > op.windowMs)
          error(s, "window slide must not be longer than the window duration");
      }
      if (auto s = w["startTime"]; s) op.startTimeMs = duration(s, "window startTime", true);
    }
    auto agg = n["agg"];
    if (!agg) {
      error(n, "a window aggregation needs 'agg' (e.g. agg: [count, {sum: amount}])");
      return op;
    }
    if (!expectList(agg, "agg")) return op;
    static const std::vector<std::string> kFns = {"count", "sum", "min", "max", "avg"};
    for (const auto& item : agg) {
      AggSpec a;
      if (item.IsScalar()) {  // `count`
        a.function = oneOf(item, "aggregate", {"count"});
      } else if (item.IsMap()) {  // {sum: amount, as: total}
        checkKeys(item, "an aggregate", {"count", "sum", "min", "max", "avg", "as"});
        int fns = 0;
        for (const auto& fn : kFns) {
          if (auto c = item[fn]; c) {
            ++fns;
            a.function = fn;
            a.column = str(c, fn);
            if (a.column == "*") a.column.clear();
            if (!a.column.empty()) checkColumns(c, {a.column}, columns, fn);
          }
        }
        if (fns != 1) error(item, "an aggregate names exactly one of count, sum, min, max, avg");
        if (a.function != "count" && a.column.empty() && fns == 1)
          error(item, fmt::format("{} needs a column", a.function));
        if (auto as = item["as"]; as) a.as = str(as, "as");
      } else {
        error(item, fmt::format("an aggregate must be `count` or a map like {{sum: amount}}; got {}",
                                nodeTypeName(item)));
      }
      op.aggregates.push_back(a);
    }
    return op;
  }

  // `python: processors/x.py` (relative to the scenario's folder), `class: Name`, optional
  // `outputStructType: DDL` and `inPandas: true` (transformWithStateInPandas).
  void parsePythonProcessor(const YAML::Node& t, const YAML::Node& py, TransformWithStateOp& op) {
    if (t["processor"]) error(t["processor"], "give either 'processor' or 'python', not both");
    std::string file = str(py, "python");
    std::filesystem::path path(file);
    if (path.is_relative()) path = std::filesystem::path(file_).parent_path() / path;
    op.pythonFile = path.lexically_normal().string();
    std::error_code ec;
    if (!file.empty() && !std::filesystem::is_regular_file(op.pythonFile, ec))
      error(py, fmt::format("no Python processor file '{}' (looked for {})", file, op.pythonFile));
    if (auto c = t["class"]; c) {
      op.pythonClass = str(c, "class");
    } else {
      error(t, "a Python processor needs 'class' (the StatefulProcessor subclass in the file)");
    }
    if (auto o = t["outputStructType"]; o) op.outputStructType = str(o, "outputStructType");
    if (auto i = t["inPandas"]; i) op.inPandas = i.IsScalar() && i.as<std::string>() == "true";
    op.processor = "python:" + file + ":" + op.pythonClass;
  }

  TransformWithStateOp parseTws(const YAML::Node& t, std::vector<std::string> groupBy,
                                const std::optional<std::vector<Field>>& columns) {
    TransformWithStateOp op;
    op.groupBy = std::move(groupBy);
    if (!expectMap(t, "transformWithState")) return op;
    checkKeys(t, "transformWithState",
              {"processor", "outputMode", "timeMode", "eventTimeColumn", "initialState", "ttl",
               "params", "python", "class", "outputStructType", "inPandas"});
    if (auto py = t["python"]; py) {
      parsePythonProcessor(t, py, op);
    } else if (auto p = t["processor"]; p) {
      op.processor = str(p, "processor");
      if (p.IsScalar() && !isProcessor(op.processor)) {
        error(p, fmt::format("unknown processor '{}'; known processors: {} (link yours into a "
                             "runner with streamsim_add_runner)",
                             op.processor, joinNames(processorNames())));
      }
    } else {
      error(t, "missing key 'processor' in transformWithState (a registered processor name, "
               "or python: FILE with class: NAME)");
    }
    if (auto m = t["outputMode"]; m) op.outputMode = oneOf(m, "transformWithState outputMode", {"append", "update"});
    if (auto m = t["timeMode"]; m)
      op.timeMode = oneOf(m, "timeMode", {"None", "ProcessingTime", "EventTime"});
    if (auto c = t["eventTimeColumn"]; c) {
      op.eventTimeColumn = str(c, "eventTimeColumn");
      checkColumns(c, {*op.eventTimeColumn}, columns,
                   "transformWithState's eventTimeColumn");
    }
    if (auto i = t["initialState"]; i) op.initialState = rows(i, "an initialState row");
    if (auto d = t["ttl"]; d) {
      op.ttlMs = duration(d, "ttl");
      if (op.timeMode != "ProcessingTime")
        error(d, "ttl needs timeMode: ProcessingTime (TTL is measured in processing time)");
    }
    parseProcessorParams(t, op);
    return op;
  }

  // A Kafka-like source: the topic (created with `partitions` and `retention`), Spark's
  // Kafka options; the rows have Spark's Kafka schema (io/kafka_source.h).
  SourceSpec parseKafkaSource(const YAML::Node& n, SourceSpec& s) {
    for (const char* k : {"path", "format", "schema"})
      if (n[k]) error(n[k], fmt::format("a kafka source takes no '{}': its rows are key, value, topic, "
                                        "partition, offset, timestamp, timestampType", k));
    s.topic = requiredStr(n, "topic", "a kafka source");
    if (auto p = n["partitions"]; p) s.partitions = int32(p, "partitions", 1, kMaxTopicPartitions);
    if (auto r = n["retention"]; r) s.retentionMs = duration(r, "retention");
    s.schema = kafkaSourceSchema();
    s.schemaDDL = s.schema->toDDL();
    s.options["subscribe"] = s.topic;
    if (auto o = n["options"]; o && expectMap(o, "source options")) {
      for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it->second.IsScalar()) {
          error(it->second, fmt::format("option '{}' must be a scalar; got {}",
                                        it->first.Scalar(), nodeTypeName(it->second)));
          continue;
        }
        s.options[str(it->first, "an option name")] = it->second.Scalar();
      }
    }
    return s;
  }

  // A files sink writing into a file source's folder feeds every batch's output back in as the
  // next batch's input: `run: available` would never drain. Refused at the sink's path.
  void checkSinkIsNotASource(const YAML::Node& sinkNode, const QuerySpec& q) {
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
      error(p ? p : sinkNode,
            fmt::format("the files sink writes into {}, the folder source {} reads: each batch's "
                        "output would be the next batch's input and the query never drains; "
                        "expected a sink folder of its own",
                        q.sink.path, i));
    }
  }

  SinkSpec parseSink(const YAML::Node& n) {
    SinkSpec s;
    s.where = loc(n);
    if (!expectMap(n, "sink")) return s;
    checkKeys(n, "sink", {"kind", "path", "format", "writer", "topic", "partitions", "numRows", "truncate"});
    if (auto k = n["kind"]; k) {
      std::string kind = oneOf(k, "sink kind", {"files", "memory", "foreach", "kafka", "console"});
      s.kind = kind == "files"     ? SinkSpec::Kind::kFiles
               : kind == "foreach" ? SinkSpec::Kind::kForeach
               : kind == "kafka"   ? SinkSpec::Kind::kKafka
               : kind == "console" ? SinkSpec::Kind::kConsole
                                   : SinkSpec::Kind::kMemory;
    } else {
      error(n, "missing key 'kind' in sink; expected files, memory, foreach, kafka or console");
    }
    for (const char* key : {"numRows", "truncate"}) {
      auto o = n[key];
      if (!o) continue;
      if (s.kind != SinkSpec::Kind::kConsole) {
        error(o, fmt::format("'{}' is an option of the console sink: it needs kind: console", key));
      } else if (std::string_view(key) == "numRows") {
        s.numRows = int32(o, "numRows", 0);
      } else {
        s.truncate = boolean(o, "truncate");
      }
    }
    if (s.kind == SinkSpec::Kind::kKafka) {
      s.topic = requiredStr(n, "topic", "a kafka sink");
      if (auto p = n["partitions"]; p) s.partitions = int32(p, "partitions", 1, kMaxTopicPartitions);
    }
    if (auto p = n["path"]; p) s.path = str(p, "sink path");
    if (s.kind == SinkSpec::Kind::kFiles && s.path.empty())
      error(n, "a files sink needs 'path' (the output folder)");
    if (auto f = n["format"]; f) s.format = oneOf(f, "sink format", {"json"});
    if (auto w = n["writer"]; w) {
      s.writer = str(w, "sink writer");
      if (s.kind != SinkSpec::Kind::kForeach) {
        error(w, "'writer' names a ForeachWriter: it needs kind: foreach");
      } else if (auto f = ForeachWriterRegistry::factory(s.writer); !f.ok()) {
        error(w, std::string(f.status().message()));
      }
    }
    return s;
  }

  TriggerSpec parseTrigger(const YAML::Node& n) {
    TriggerSpec t;
    const std::vector<std::string> kForms = {"default", "availableNow", "once", "realTime",
                                             "{processingTime: 1s}", "{realTime: 5m}"};
    if (n.IsScalar()) {
      std::string k = oneOf(n, "trigger", {"default", "availableNow", "once", "realTime"});
      t.kind = k == "availableNow" ? TriggerSpec::Kind::kAvailableNow
               : k == "once"       ? TriggerSpec::Kind::kOnce
               : k == "realTime"   ? TriggerSpec::Kind::kRealTime
                                   : TriggerSpec::Kind::kDefault;
      if (t.kind == TriggerSpec::Kind::kRealTime) t.intervalMs = kDefaultRealTimeBatchMs;
      return t;
    }
    if (!n.IsMap() || n.size() != 1) {
      error(n, fmt::format("trigger must be one of {}", joinNames(kForms)));
      return t;
    }
    checkKeys(n, "trigger", {"processingTime", "availableNow", "once", "realTime"});
    if (auto r = n["realTime"]; r) {
      // The engine checks the minimum (INVALID_STREAMING_REAL_TIME_MODE_TRIGGER_INTERVAL).
      t.kind = TriggerSpec::Kind::kRealTime;
      t.intervalMs = r.IsScalar() && r.Scalar().size() > 0 && r.Scalar()[0] == '-'
                         ? -1
                         : duration(r, "realTime");
    } else if (auto p = n["processingTime"]; p) {
      t.kind = TriggerSpec::Kind::kProcessingTime;
      t.intervalMs = duration(p, "processingTime");  // 0: back to back (Spark allows it)
    } else if (auto a = n["availableNow"]; a) {
      if (boolean(a, "availableNow")) t.kind = TriggerSpec::Kind::kAvailableNow;
    } else if (auto o = n["once"]; o) {
      if (boolean(o, "once")) t.kind = TriggerSpec::Kind::kOnce;
    }
    return t;
  }

  // ---- steps

  // `restart: {}` or `restart: {query: {...}}`: the scenario's query with the keys given
  // replaced (parsed by parseQuery over the merged map, so every rule and location holds).
  RestartStep parseRestart(const YAML::Node& v) {
    RestartStep r;
    if (v.IsNull() || (v.IsMap() && v.size() == 0)) return r;
    if (!expectMap(v, "restart")) return r;
    checkKeys(v, "restart", {"query", "after"});
    if (auto a = v["after"]; a) {
      r.after = duration(a, "restart's after (the downtime)");
      if (v["query"]) error(a, "restart: `after` and `query` together are not supported; use a `restart: {after: ...}` step, then `restart: {query: ...}`");
    }
    YAML::Node q = v["query"];
    if (!q) return r;
    if (!expectMap(q, "restart's query")) return r;
    checkKeys(q, "restart's query (a restart keeps the query's sources, sink and checkpoint)",
              {"operators", "outputMode", "trigger", "stateStore", "shufflePartitions",
               "taskRetries", "conf"});
    // Each key is bound once: rebinding a key of `merged` would rebind the scenario's own node.
    YAML::Node merged(YAML::NodeType::Map);
    for (auto it = q.begin(); it != q.end(); ++it)
      if (it->first.IsScalar()) merged[it->first.Scalar()] = it->second;
    if (query_node_.IsMap())
      for (auto it = query_node_.begin(); it != query_node_.end(); ++it)
        if (it->first.IsScalar() && !q[it->first.Scalar()]) merged[it->first.Scalar()] = it->second;
    QuerySpec spec;
    parseQuery(merged, spec);
    spec.where = loc(v);
    r.query = std::move(spec);
    return r;
  }

  void parseSteps(const YAML::Node& n, Scenario& sc) {
    if (n.IsNull()) return;
    if (!expectList(n, "steps")) return;
    static const std::vector<std::string> kKinds = {
        "put",   "put_partial", "resend", "touch", "delete", "add_rows",
        "advance", "run",       "crash",  "restart", "stop", "expect", "produce"};
    for (const auto& item : n) {
      if (!item.IsMap() || item.size() != 1) {
        error(item, fmt::format("a step is a map with one key, one of {}; got {}", joinNames(kKinds),
                                item.IsMap() ? fmt::format("{} keys", item.size())
                                             : std::string(nodeTypeName(item))));
        continue;
      }
      auto it = item.begin();
      const YAML::Node key = it->first;
      const YAML::Node v = it->second;
      std::string kind = key.IsScalar() ? key.Scalar() : "";
      Step step;
      step.where = loc(key);
      if (kind == "put") {
        step.step = parsePut(v);
      } else if (kind == "put_partial") {
        step.step = parsePutPartial(v);
      } else if (kind == "resend") {
        ResendStep s;
        if (expectMap(v, "resend")) {
          checkKeys(v, "resend", {"from", "to", "mtime"});
          s.from = requiredStr(v, "from", "resend");
          s.to = requiredStr(v, "to", "resend");
          if (auto m = v["mtime"]; m) s.mtime = timestamp(m, "mtime");
        }
        step.step = s;
      } else if (kind == "touch") {
        TouchStep s;
        if (expectMap(v, "touch")) {
          checkKeys(v, "touch", {"path", "mtime"});
          s.path = requiredStr(v, "path", "touch");
          if (auto m = v["mtime"]; m) {
            s.mtime = timestamp(m, "mtime");
          } else {
            error(v, "missing key 'mtime' in touch");
          }
        }
        step.step = s;
      } else if (kind == "delete") {
        DeleteStep s;
        if (v.IsScalar()) {
          s.path = v.Scalar();
        } else if (expectMap(v, "delete")) {
          checkKeys(v, "delete", {"path"});
          s.path = requiredStr(v, "path", "delete");
        }
        step.step = s;
      } else if (kind == "add_rows") {
        AddRowsStep s;
        if (v.IsSequence()) {
          s.rows = rows(v, "an add_rows row");
        } else if (expectMap(v, "add_rows")) {
          checkKeys(v, "add_rows", {"rows", "source"});
          if (auto r = v["rows"]; r) s.rows = rows(r, "an add_rows row");
          else error(v, "missing key 'rows' in add_rows");
          if (auto src = v["source"]; src) {
            // The index of one of the query's sources (sources_ is empty if the query is bad).
            const int last = std::max<int>(0, static_cast<int>(sources_.size()) - 1);
            s.source = int32(src, fmt::format("add_rows source (an index into the query's {} "
                                              "source{})", sources_.size(),
                                              sources_.size() == 1 ? "" : "s"),
                             0, last);
          }
        }
        if (s.source < static_cast<int>(sources_.size()) &&
            sources_[s.source].kind != SourceSpec::Kind::kMemory) {
          error(key, "add_rows needs a memory source (source kind: memory); use put for files");
        }
        checkSourceRows(s.rows, s.source);
        step.step = s;
      } else if (kind == "advance") {
        AdvanceStep s;
        if (v.IsScalar()) {
          s.by = duration(v, "advance");
        } else if (expectMap(v, "advance")) {
          checkKeys(v, "advance", {"by", "to", "trigger"});
          if (auto b = v["by"]; b) s.by = duration(b, "advance by");
          if (auto t = v["to"]; t) s.to = timestamp(t, "advance to");
          if (auto t = v["trigger"]; t) {
            s.triggerOnce = str(t, "advance trigger") == "once";
            if (!s.triggerOnce) error(t, "advance trigger must be 'once' (exactly one trigger at the new time)");
            if (!v["by"]) error(t, "advance trigger: once needs 'by'");
          }
          if (s.by.has_value() == s.to.has_value())
            error(v, "advance takes exactly one of 'by' (a duration) or 'to' (a timestamp)");
        }
        step.step = s;
      } else if (kind == "run") {
        RunStep s;
        if (v.IsScalar() && v.Scalar() == "available") {
        } else if (v.IsScalar() && scalarValue(v).type() == Type::kLong) {
          s.batches = int32(v, "run", 1);
        } else if (v.IsMap()) {
          checkKeys(v, "run", {"batches"});
          if (auto b = v["batches"]; b) s.batches = int32(b, "batches", 1);
          else error(v, "missing key 'batches' in run");
        } else {
          error(v, "run must be `available` or {batches: N}");
        }
        step.step = s;
      } else if (kind == "crash") {
        step.step = parseCrash(v);
      } else if (kind == "produce") {
        step.step = parseProduce(v);
      } else if (kind == "restart") {
        step.step = parseRestart(v);
      } else if (kind == "stop") {
        if (!(v.IsNull() || (v.IsMap() && v.size() == 0)))
          error(v, "stop takes no arguments: write `stop: {}`");
        step.step = StopStep{};
      } else if (kind == "expect") {
        step.step = parseExpect(v);
      } else {
        error(key, fmt::format("unknown step '{}'; expected one of {}", kind, joinNames(kKinds)));
        continue;
      }
      sc.steps.push_back(std::move(step));
    }
  }

  std::string requiredStr(const YAML::Node& n, const char* key, std::string_view step) {
    if (auto v = n[key]; v) return str(v, fmt::format("{} {}", step, key));
    error(n, fmt::format("missing key '{}' in {}", key, step));
    return {};
  }

  void checkFilesSource(const YAML::Node& at, std::string_view step) {
    if (!sources_.empty() && sources_[0].kind != SourceSpec::Kind::kFiles)
      error(at, fmt::format("{} needs a files source (source kind: files); use add_rows for memory",
                            step));
  }

  PutStep parsePut(const YAML::Node& v) {
    PutStep s;
    if (!expectMap(v, "put")) return s;
    checkKeys(v, "put", {"path", "rows", "text", "mtime"});
    s.path = requiredStr(v, "path", "put");
    if (auto r = v["rows"]; r) s.rows = rows(r, "a put row");
    if (auto t = v["text"]; t) s.text = str(t, "text");
    if (v["rows"] && v["text"]) error(v, "put takes 'rows' or 'text', not both");
    if (!v["rows"] && !v["text"]) error(v, "put needs 'rows' (a list of maps) or 'text'");
    if (auto m = v["mtime"]; m) s.mtime = timestamp(m, "mtime");
    checkFilesSource(v, "put");
    checkSourceRows(s.rows, 0);
    return s;
  }

  PutPartialStep parsePutPartial(const YAML::Node& v) {
    PutPartialStep s;
    if (!expectMap(v, "put_partial")) return s;
    checkKeys(v, "put_partial", {"path", "rows", "text", "visible_bytes", "fraction"});
    s.path = requiredStr(v, "path", "put_partial");
    if (auto r = v["rows"]; r) s.rows = rows(r, "a put_partial row");
    if (auto t = v["text"]; t) s.text = str(t, "text");
    if (!v["rows"] && !v["text"]) error(v, "put_partial needs 'rows' or 'text'");
    if (auto b = v["visible_bytes"]; b) s.visibleBytes = integer(b, "visible_bytes", 0);
    if (auto f = v["fraction"]; f) s.fraction = number(f, "fraction", 0, 1);
    if (s.visibleBytes.has_value() == s.fraction.has_value())
      error(v, "put_partial takes exactly one of 'visible_bytes' or 'fraction'");
    checkFilesSource(v, "put_partial");
    checkSourceRows(s.rows, 0);
    return s;
  }

  void checkFaultPoint(const YAML::Node& n, const std::string& point) {
    if (faults::isFaultPoint(point)) return;
    std::vector<std::string> known;
    for (const auto& p : faults::allFaultPoints()) known.emplace_back(p.name);
    error(n, fmt::format("unknown fault point '{}'; expected one of {} (streamsim list-faults)",
                         point, joinNames(known)));
  }

  // produce: {topic?, at?, records: [{key, value, at?, partition?, duplicates?}]}, or the
  // records list alone.
  ProduceStep parseProduce(const YAML::Node& v) {
    ProduceStep s;
    for (const auto& src : sources_)
      if (src.kind == SourceSpec::Kind::kKafka) {
        s.topic = src.topic;
        break;
      }
    // Bound once, never assigned: assigning a YAML::Node rebinds the node it shares (here the
    // scenario's own `produce:`), and assigning a missing key's node throws.
    const YAML::Node recs = v.IsMap() ? v["records"] : v;
    if (v.IsMap()) {
      checkKeys(v, "produce", {"topic", "at", "records"});
      if (auto t = v["topic"]; t) s.topic = str(t, "produce topic");
      if (auto a = v["at"]; a) s.at = timestamp(a, "produce at");
      if (!recs) {
        error(v, "missing key 'records' in produce");
        return s;
      }
    }
    if (s.topic.empty()) error(v, "produce needs 'topic' (there is no kafka source to default to)");
    if (!expectList(recs, "produce records")) return s;
    for (const auto& r : recs) {
      ProduceRecord rec;
      rec.where = loc(r);
      if (!expectMap(r, "a produced record")) continue;
      checkKeys(r, "a produced record", {"key", "value", "at", "partition", "duplicates"});
      if (auto k = r["key"]; k && !k.IsNull()) rec.key = str(k, "record key");
      if (auto val = r["value"]; val) {
        if (val.IsMap()) rec.value = row(val, "a record value").toRow().toJson();
        else rec.value = str(val, "record value");
      } else {
        error(r, "missing key 'value' in a produced record");
      }
      if (auto a = r["at"]; a) rec.at = timestamp(a, "record at");
      if (auto p = r["partition"]; p) rec.partition = int32(p, "partition", 0, kMaxTopicPartitions - 1);
      if (auto d = r["duplicates"]; d) rec.duplicates = int32(d, "duplicates", 0, kMaxRecordDuplicates);
      s.records.push_back(std::move(rec));
    }
    return s;
  }

  CrashStep parseCrash(const YAML::Node& v) {
    CrashStep s;
    if (v.IsScalar()) {
      s.at = v.Scalar();
      if (s.at == "now") {
        s.now = true;
        s.at.clear();
      } else {
        checkFaultPoint(v, s.at);
      }
      return s;
    }
    if (!expectMap(v, "crash")) return s;
    checkKeys(v, "crash", {"at", "batch", "partition", "now", "nth"});
    if (auto n = v["nth"]; n) s.nth = integer(n, "nth", 1);
    if (auto n = v["now"]; n) s.now = boolean(n, "now");
    if (auto a = v["at"]; a) {
      s.at = str(a, "crash at");
      if (a.IsScalar()) checkFaultPoint(a, s.at);
    } else if (!s.now) {
      error(v, "crash needs 'at' (a fault point, see streamsim list-faults) or 'now: true'");
    }
    if (auto b = v["batch"]; b) s.batch = integer(b, "batch", 0);
    if (auto p = v["partition"]; p) s.partition = int32(p, "partition", 0, kMaxShufflePartitions - 1);
    return s;
  }

  RowSpec keyRow(const YAML::Node& n, std::string_view what) {
    if (n.IsMap()) return row(n, what);
    RowSpec r;
    r.where = loc(n);
    if (!n.IsScalar()) {
      error(n, fmt::format("{} must be a value or a map of column: value", what));
      return r;
    }
    r.fields.emplace_back("key", scalarValue(n));  // a single-column key; name resolved later
    return r;
  }

  ExpectStep parseExpect(const YAML::Node& v) {
    ExpectStep e;
    if (!expectMap(v, "expect")) return e;
    checkKeys(v, "expect",
              {"sink", "new_rows", "state", "timers", "progress", "checkpoint", "error", "console"});
    if (auto c = v["console"]; c) {
      if (sink_kind_ != SinkSpec::Kind::kConsole) error(c, "expect console needs a console sink (sink: {kind: console})");
      else e.console = str(c, "expect console");
    }
    if (auto s = v["sink"]; s) {
      e.sinkWhere = loc(s);
      e.sink = rows(s, "an expected sink row");
    }
    if (auto s = v["new_rows"]; s) {
      e.newRowsWhere = loc(s);
      e.newRows = rows(s, "an expected new row");
    }
    if (auto s = v["state"]; s) {
      auto one = [&](const YAML::Node& m) {
        StateExpectation st;
        st.where = loc(m);
        if (!expectMap(m, "a state expectation")) return;
        checkKeys(m, "a state expectation",
                  {"key", "variable", "value", "values", "entries", "absent", "raw", "expires_at"});
        if (auto r = m["raw"]; r) st.raw = boolean(r, "raw");
        if (auto x = m["expires_at"]; x) {
          std::vector<std::optional<TimeMs>> at;
          auto one = [&](const YAML::Node& n) {
            if (n.IsNull() || (n.IsScalar() && scalarValue(n).isNull())) at.emplace_back();
            else at.emplace_back(timestamp(n, "expires_at"));
          };
          if (x.IsSequence()) {
            for (const auto& n : x) one(n);
          } else {
            one(x);
          }
          st.expiresAt = std::move(at);
        }
        if (auto k = m["key"]; k) st.key = keyRow(k, "state key");
        else error(m, "missing key 'key' in a state expectation");
        st.variable = requiredStr(m, "variable", "a state expectation");
        int forms = 0;
        if (auto val = m["value"]; val) {
          ++forms;
          // A scalar, or a nested value ([1, 2], {a: 1}) for a Row or vector state value.
          auto v = yamlValue(val, "value");
          if (v && v->isNull()) st.absent = true;
          else if (v) st.value = std::move(*v);
        }
        if (auto vals = m["values"]; vals) {
          ++forms;
          std::vector<Value> list;
          if (expectList(vals, "values"))
            for (const auto& x : vals) list.push_back(yamlValue(x, "an element of values").value_or(Value()));
          st.list = std::move(list);
        }
        if (auto ent = m["entries"]; ent) {
          ++forms;
          std::vector<std::pair<Value, Value>> map;
          if (expectMap(ent, "entries"))
            for (auto it = ent.begin(); it != ent.end(); ++it)
              map.emplace_back(scalarValue(it->first),
                               yamlValue(it->second, "a value of entries").value_or(Value()));
          st.map = std::move(map);
        }
        if (auto a = m["absent"]; a) {
          ++forms;
          st.absent = boolean(a, "absent");
        }
        if (forms != 1)
          error(m, "a state expectation takes exactly one of value, values, entries, absent");
        e.state.push_back(std::move(st));
      };
      if (s.IsSequence()) {
        for (const auto& m : s) one(m);
      } else {
        one(s);
      }
    }
    if (auto s = v["timers"]; s) {
      auto one = [&](const YAML::Node& m) {
        TimerExpectation t;
        t.where = loc(m);
        if (!expectMap(m, "a timers expectation")) return;
        checkKeys(m, "a timers expectation", {"key", "timers"});
        if (auto k = m["key"]; k) t.key = keyRow(k, "timers key");
        else error(m, "missing key 'key' in a timers expectation");
        if (auto ts = m["timers"]; ts) {
          if (ts.IsSequence())
            for (const auto& x : ts) t.timers.push_back(timestamp(x, "a timer"));
          else if (!ts.IsNull())
            error(ts, "timers must be a list of timestamps ([] for none)");
          std::sort(t.timers.begin(), t.timers.end());
        } else {
          error(m, "missing key 'timers' in a timers expectation (a list of timestamps)");
        }
        e.timers.push_back(std::move(t));
      };
      if (s.IsSequence()) {
        for (const auto& m : s) one(m);
      } else {
        one(s);
      }
    }
    if (auto p = v["progress"]; p && expectMap(p, "progress")) {
      static const std::vector<std::string> kFields = {
          "batchId", "timestamp", "watermark", "numInputRows", "numOutputRows",
          "numRowsDroppedByWatermark", "numRowsTotal", "numRowsUpdated", "numRowsRemoved",
          "numTimersFired", "numValuesRemovedByTTL", "rerun", "batchDurationMs", "latencyP50",
          "latencyP95", "latencyP99", "latencyMax", "numExpiredTimers", "numRegisteredTimers",
          "numDeletedTimers", "numValuesRemovedDueToTTLExpiry"};
      checkKeys(p, "progress", kFields);
      for (auto it = p.begin(); it != p.end(); ++it) {
        const std::string& f = it->first.Scalar();
        if (f == "timestamp" || f == "watermark") {
          Value raw = it->second.IsScalar() ? scalarValue(it->second) : Value();
          e.progress[f] = raw.type() == Type::kLong ? Value::timestamp(raw.asLong())
                                                    : Value::timestamp(timestamp(it->second, f));
        } else if (f == "rerun") {
          e.progress[f] = Value(boolean(it->second, f));
        } else {
          e.progress[f] = Value(integer(it->second, f));
        }
      }
    }
    if (auto c = v["checkpoint"]; c && expectMap(c, "checkpoint")) {
      CheckpointExpectation ce;
      checkKeys(c, "checkpoint", {"offsets", "commits", "files_exist", "files_absent"});
      auto ids = [&](const YAML::Node& n, std::string_view what) {
        std::vector<int64_t> out;
        if (n.IsNull()) return out;
        if (expectList(n, what))
          for (const auto& x : n) out.push_back(integer(x, what, 0));
        return out;
      };
      if (auto o = c["offsets"]; o) ce.offsets = ids(o, "offsets");
      if (auto o = c["commits"]; o) ce.commits = ids(o, "commits");
      if (auto f = c["files_exist"]; f) ce.filesExist = names(f, "files_exist");
      if (auto f = c["files_absent"]; f) ce.filesAbsent = names(f, "files_absent");
      e.checkpoint = std::move(ce);
    }
    if (auto er = v["error"]; er && er.IsMap()) {
      checkKeys(er, "error", {"message", "condition", "parameters"});
      e.error = er["message"] ? str(er["message"], "error message") : std::string();
      if (auto c = er["condition"]; c) e.errorCondition = str(c, "error condition");
      if (auto ps = er["parameters"]; ps && expectMap(ps, "error parameters"))
        for (auto it = ps.begin(); it != ps.end(); ++it)
          e.errorParameters.emplace_back(str(it->first, "parameter name"), str(it->second, "parameter value"));
    } else if (er) {
      e.error = str(er, "error");
    }
    return e;
  }

  // ---- oracles and sweep

  static bool hasTransformWithState(const Scenario& sc) {
    for (const auto& op : sc.query.operators)
      if (std::holds_alternative<TransformWithStateOp>(op.op)) return true;
    return false;
  }

  void parseOracles(const YAML::Node& n, Scenario& sc) {
    sc.oraclesWhere = loc(n);
    if (n.IsNull()) return;
    if (!expectList(n, "oracles")) return;
    const std::vector<std::string>& known =
        options_.oracles.empty() ? scenarioOracleNames() : options_.oracles;
    for (const auto& o : n) {
      if (o.IsMap() && o.size() == 1 && o["latency_bound"]) {  // {latency_bound: {p99: 50ms}}
        const YAML::Node b = o["latency_bound"];
        if (expectMap(b, "latency_bound")) {
          checkKeys(b, "latency_bound", {"p50", "p95", "p99"});
          for (int pct : {50, 95, 99})
            if (auto x = b[fmt::format("p{}", pct)]; x) sc.latencyBound[pct] = duration(x, "a latency bound");
          if (sc.latencyBound.empty())
            error(b, "latency_bound needs at least one of p50, p95, p99 (e.g. {p99: 50ms})");
        }
        sc.oracles.push_back("latency_bound");
        continue;
      }
      if (o.IsMap() && o.size() == 1 && o["reference"]) {  // {reference: NAME}
        const YAML::Node ref = o["reference"];
        sc.reference = str(ref, "reference (the name of a registered reference function)");
        if (ref.IsScalar()) {
          if (auto f = ReferenceRegistry::function(sc.reference); !f.ok()) error(ref, f.status().message());
        }
        sc.oracles.push_back("reference");
        continue;
      }
      if (o.IsMap()) {  // {state_bound: N}, {timer_bound: N}
        if (o.size() != 1 || !(o["state_bound"] || o["timer_bound"])) {
          error(o, "an oracle with a parameter is written {state_bound: N}, {state_bound: {per_key: N}}, "
                   "{timer_bound: N}, {reference: NAME} or {latency_bound: {p99: 50ms}}; expected a "
                   "name or one of those");
          continue;
        }
        if (const YAML::Node b = o["state_bound"]; b && b.IsMap()) {  // {per_key: N, total: M}
          checkKeys(b, "state_bound", {"per_key", "total"});
          if (auto x = b["per_key"]; x)
            sc.stateBoundPerKey = integer(x, "state_bound per_key (the most state rows of one grouping key)", 0);
          if (auto x = b["total"]; x) sc.stateBound = integer(x, "state_bound total (the most state rows allowed)", 0);
          if (!sc.stateBound && !sc.stateBoundPerKey)
            error(b, "state_bound needs per_key or total (e.g. {state_bound: {per_key: 10}})");
          sc.oracles.push_back("state_bound");
        } else if (b) {
          sc.stateBound = integer(b, "state_bound (the most state rows allowed)", 0);
          sc.oracles.push_back("state_bound");
        } else {
          sc.timerBound = integer(o["timer_bound"],
                                  "timer_bound (the most pending timers per key)", 0);
          sc.oracles.push_back("timer_bound");
        }
        continue;
      }
      std::string name = str(o, "an oracle");
      if (o.IsScalar() && name == "batch_split" && !hasTransformWithState(sc)) {
        error(o, "oracle 'batch_split' compares the final row per grouping key: the query needs "
                 "a transformWithState (naming batch_split declares its processor split-invariant)");
        continue;
      }
      if (o.IsScalar() && std::find(known.begin(), known.end(), name) == known.end()) {
        error(o, fmt::format("unknown oracle '{}'; expected one of {}", name, joinNames(known)));
        continue;
      }
      if (o.IsScalar() && (name == "batch_split" || name == "mode_equivalence")) {
        // Both re-run the input under the scenario's one query; a restart onto another query
        // has no such counterpart.
        auto switched = std::find_if(sc.steps.begin(), sc.steps.end(), [](const Step& st) {
          auto* r = std::get_if<RestartStep>(&st.step);
          return r != nullptr && r->query.has_value();
        });
        if (switched != sc.steps.end()) {
          error(o, fmt::format("oracle '{}' runs the input under the scenario's query, but the "
                               "restart at line {} switches to another query",
                               name, switched->where.line));
          continue;
        }
      }
      if (o.IsScalar() && name == "state_bound") {
        error(o, "oracle 'state_bound' needs its bound: write {state_bound: N}");
        continue;
      }
      if (o.IsScalar() && name == "reference") {
        error(o, fmt::format("oracle 'reference' needs the name of its reference function: write "
                             "{{reference: NAME}}; registered: {}", joinNames(ReferenceRegistry::names())));
        continue;
      }
      if (o.IsScalar() && name == "timer_bound") {
        error(o, "oracle 'timer_bound' needs its bound: write {timer_bound: N}");
        continue;
      }
      sc.oracles.push_back(name);
    }
  }

  SweepSpec parseSweep(const YAML::Node& n) {
    SweepSpec s;
    s.where = loc(n);
    if (!expectMap(n, "sweep")) return s;
    checkKeys(n, "sweep",
              {"seeds", "crash_points", "max_crashes", "torn_writes", "task_failures", "io_errors",
               "landing_faults", "batches", "switches", "switch_steps", "downtime"});
    if (auto v = n["seeds"]; v) s.seeds = int32(v, "seeds", 1);
    if (auto v = n["crash_points"]; v) {
      if (v.IsScalar() && v.Scalar() == "all") {
      } else if (v.IsSequence()) {
        for (const auto& p : v) {
          std::string name = str(p, "a crash point");
          if (p.IsScalar()) checkFaultPoint(p, name);
          s.crashPoints.push_back(name);
        }
      } else {
        error(v, "crash_points must be `all` or a list of fault points");
      }
    }
    if (auto v = n["max_crashes"]; v) s.maxCrashes = int32(v, "max_crashes", 0);
    if (auto v = n["torn_writes"]; v) s.tornWrites = boolean(v, "torn_writes");
    if (auto v = n["task_failures"]; v) s.taskFailures = number(v, "task_failures", 0, 1);
    if (auto v = n["io_errors"]; v) s.ioErrors = number(v, "io_errors", 0, 1);
    if (auto v = n["landing_faults"]; v) s.landingFaults = number(v, "landing_faults", 0, 1);
    if (auto v = n["batches"]; v) s.batches = integer(v, "batches", 1);
    if (auto v = n["switches"]; v) s.switches = number(v, "switches", 0, 1);
    if (auto v = n["switch_steps"]; v) s.switchSteps = integer(v, "switch_steps", 1);
    if (auto v = n["downtime"]; v) {
      // `0..5m` (a range) or `5m` (= 0..5m).
      if (!v.IsScalar()) {
        error(v, fmt::format("downtime must be a duration range such as 0..5m (or one duration, 5m = 0..5m); got {}",
                             nodeTypeName(v)));
      } else if (auto range = parseDowntimeRange(v.Scalar()); !range.ok()) {
        error(v, range.status().message());
      } else {
        s.downtimeMin = range->first;
        s.downtimeMax = range->second;
      }
    }
    return s;
  }

  // services: [{name: scoring, latency: 10ms | [5ms, 20ms], errors: 0.1, slow: 0.05,
  //             slow_latency: 5s}]
  void parseServices(const YAML::Node& n, Scenario& sc) {
    if (!expectList(n, "services")) return;
    for (const auto& s : n) {
      if (!expectMap(s, "a service")) continue;
      checkKeys(s, "a service", {"name", "latency", "errors", "slow", "slow_latency"});
      ServiceSpec spec;
      spec.where = loc(s);
      if (auto v = s["name"]; v) spec.name = str(v, "name");
      else error(s, "a service needs a name (what processors call getService with)");
      if (auto v = s["latency"]; v) {
        if (v.IsSequence() && v.size() == 2) {
          spec.minLatencyMs = duration(v[0], "latency");
          spec.maxLatencyMs = duration(v[1], "latency");
          if (spec.minLatencyMs > spec.maxLatencyMs)
            error(v, "latency [min, max] needs min <= max");
        } else {
          spec.minLatencyMs = spec.maxLatencyMs = duration(v, "latency");
        }
      }
      if (auto v = s["errors"]; v) spec.errors = number(v, "errors", 0, 1);
      if (auto v = s["slow"]; v) spec.slow = number(v, "slow", 0, 1);
      if (auto v = s["slow_latency"]; v) spec.slowLatencyMs = duration(v, "slow_latency");
      sc.services.push_back(std::move(spec));
    }
  }

  // `params: {name: value}` and `ttl:` (the parameter "ttl") reach the processor's factory
  // (ProcessorRegistry::factory(name, params)); checked here against what it takes.
  void parseProcessorParams(const YAML::Node& t, TransformWithStateOp& op) {
    auto p = t["params"];
    if (p) {
      if (!p.IsMap()) {
        error(p, fmt::format("params must be a map of parameter: value; got {}", nodeTypeName(p)));
      } else {
        for (const auto& kv : p) {
          std::string name = str(kv.first, "a parameter name");
          op.params[name] = str(kv.second, fmt::format("parameter '{}'", name));
        }
      }
    }
    auto ttlNode = t["ttl"];
    if (ttlNode && ttlNode.IsScalar()) {
      if (op.params.count("ttl") != 0) error(ttlNode, "ttl is given twice: as ttl: and in params:");
      op.params["ttl"] = ttlNode.Scalar();
    }
    if (op.params.empty()) return;
    const YAML::Node& where = p ? p : ttlNode;
    if (!op.pythonFile.empty()) {
      error(where, "params and ttl reach registered C++ processors; a Python processor sets its "
                   "TTL in its own init");
      return;
    }
    // A processor only a runner's own hook knows is checked when the query is built.
    auto names = ProcessorRegistry::paramNames(op.processor);
    if (!names.ok()) return;
    for (const auto& [name, value] : op.params) {
      if (std::find(names->begin(), names->end(), name) != names->end()) continue;
      const YAML::Node& at = name == "ttl" && ttlNode ? ttlNode : where;
      error(at, fmt::format("the processor '{}' takes no parameter '{}'; it takes: {}",
                            op.processor, name, names->empty() ? "none" : joinNames(*names)));
      return;
    }
    auto made = ProcessorRegistry::factory(op.processor, op.params);
    if (!made.ok()) error(where, std::string(made.status().message()));
  }

  bool isProcessor(const std::string& name) {
    if (options_.isProcessor) return options_.isProcessor(name);
    auto all = processorNames();
    return std::find(all.begin(), all.end(), name) != all.end();
  }
  std::vector<std::string> processorNames() {
    if (options_.processorNames) return options_.processorNames();
    return ProcessorRegistry::names();
  }

  std::string file_;
  const LoaderOptions& options_;
  std::vector<ScenarioError> errors_;
  std::vector<SourceSpec> sources_;
  SinkSpec::Kind sink_kind_ = SinkSpec::Kind::kMemory;  // the query's (expect console needs a console sink)
  YAML::Node query_node_;  // the scenario's `query:`, which `restart: {query: ...}` overrides
};

}  // namespace

ScenarioLoad parseScenario(std::string_view yaml, const std::string& fileName,
                           const LoaderOptions& options) {
  Parser parser(fileName, options);
  return parser.parse(yaml);
}

ScenarioLoad loadScenarioFile(const std::string& path, const LoaderOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ScenarioLoad out;
    out.errors.push_back({SourceLocation{path, 0, 0}, "cannot open the scenario file"});
    return out;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseScenario(buffer.str(), path, options);
}

Result<Scenario> loadScenario(const std::string& path, const LoaderOptions& options) {
  ScenarioLoad load = loadScenarioFile(path, options);
  if (!load.ok()) {
    std::string text = load.errorText();
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return Status::InvalidArgument(text);
  }
  return std::move(*load.scenario);
}

bool overrideStateStore(Scenario& scenario, const std::string& store) {
  auto realTime = [](const QuerySpec& q) { return q.trigger.kind == TriggerSpec::Kind::kRealTime; };
  bool anyRealTime = realTime(scenario.query);
  for (const Step& st : scenario.steps)
    if (auto* r = std::get_if<RestartStep>(&st.step); r != nullptr && r->query && realTime(*r->query))
      anyRealTime = true;
  if (anyRealTime) return false;
  scenario.query.stateStore = store;
  for (Step& st : scenario.steps)
    if (auto* r = std::get_if<RestartStep>(&st.step); r != nullptr && r->query) r->query->stateStore = store;
  return true;
}

}  // namespace streamsim::harness
