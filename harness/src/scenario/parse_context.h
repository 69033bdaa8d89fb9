// What every part of the scenario loader reads YAML nodes with: the node readers (str, int32,
// duration, rows, ...), each reporting a bad node as a ScenarioError at file:line:col and
// returning a usable default, and what later parts need of earlier ones (the query's sources,
// sink kind and node). One per file loaded (a local of parseScenario): not for several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "streamsim/harness/scenario.h"
#include "streamsim/expr/sql_conf.h"
#include "streamsim/query.h"

namespace streamsim::harness::detail {

// A simulated topic keeps every partition in memory, as the state stores of the shuffle
// partitions are: the same bound. A produced record's copies are appended one by one.
constexpr int kMaxTopicPartitions = kMaxShufflePartitions;
constexpr int kMaxRecordDuplicates = 10000;

std::string joinNames(const std::vector<std::string>& names);  // "a, b, c"
std::string_view nodeTypeName(const YAML::Node& n);            // "a map", "a list", ...
// A YAML scalar typed the way docs/scenarios.md says (quoted scalars are always strings).
Value scalarValue(const YAML::Node& n);

class ParseContext {
 public:
  // The query's SQL settings (`conf:` spark.sql.ansi.enabled, session time zone, case
  // sensitivity), read before its operators so expressions are analysed with them.
  const expr::SqlConf& sqlConf() const { return sql_conf_; }
  void setSqlConf(expr::SqlConf conf) { sql_conf_ = std::move(conf); }

  ParseContext(std::string file, const LoaderOptions& options)
      : file_(std::move(file)), options_(options) {}

  // ---- errors and locations
  SourceLocation loc(const YAML::Mark& m) const;
  SourceLocation loc(const YAML::Node& n) const { return loc(n.Mark()); }
  void error(const YAML::Mark& m, std::string msg) { errors_.push_back({loc(m), std::move(msg)}); }
  void error(const YAML::Node& n, std::string msg) { error(n.Mark(), std::move(msg)); }
  void addError(ScenarioError e) { errors_.push_back(std::move(e)); }
  std::vector<ScenarioError> takeErrors() { return std::move(errors_); }
  bool hasErrors() const { return !errors_.empty(); }

  // Reports every key of `map` not in `allowed` (with the key's own position).
  void checkKeys(const YAML::Node& map, std::string_view context,
                 const std::vector<std::string>& allowed);
  bool expectMap(const YAML::Node& n, std::string_view what);
  bool expectList(const YAML::Node& n, std::string_view what);

  // ---- scalars
  std::string str(const YAML::Node& n, std::string_view what);
  // A simulated path (a source, sink, checkpoint or landing file): a non-empty string without a
  // NUL and without a `..` above the root (HDFS refuses `..` in a path, and such a path would
  // leave `--keep DIR`); normalised as Hadoop's Path keeps it (sim::normalizeSimulatedPath).
  std::string simPath(const YAML::Node& n, std::string_view what);
  // `n[key]` as a string, an error at `n` when it is missing.
  std::string requiredStr(const YAML::Node& n, const char* key, std::string_view step);
  // An integer from min to max (every integer of the file is range-checked into its target
  // type here: nothing is narrowed by a cast later).
  int64_t integer(const YAML::Node& n, std::string_view what, int64_t min = INT64_MIN,
                  int64_t max = INT64_MAX);
  // An integer into an int: at most INT_MAX unless a lower bound is given.
  int int32(const YAML::Node& n, std::string_view what, int min, int max = INT32_MAX);
  double number(const YAML::Node& n, std::string_view what, double min, double max);
  bool boolean(const YAML::Node& n, std::string_view what);
  // A duration; negative ones only where Spark takes them (a window's startTime).
  DurationMs duration(const YAML::Node& n, std::string_view what, bool negativeAllowed = false);
  TimeMs timestamp(const YAML::Node& n, std::string_view what);
  std::vector<std::string> names(const YAML::Node& n, std::string_view what);
  // One of `allowed`, case-insensitively (Spark's names are); the first one on an error.
  std::string oneOf(const YAML::Node& n, std::string_view what,
                    const std::vector<std::string>& allowed);
  void checkFaultPoint(const YAML::Node& n, const std::string& point);

  // ---- rows
  // A value of a row: a scalar (scalarValue), a sequence (an array) or a map (a map with the
  // keys' scalar values; the column's type makes it a struct or a map: Value::castTo(Field)).
  std::optional<Value> yamlValue(const YAML::Node& n, const std::string& what);
  RowSpec row(const YAML::Node& n, std::string_view what);
  std::vector<RowSpec> rows(const YAML::Node& n, std::string_view what);
  // `key: a` (a single-column key, its column resolved when the scenario runs) or a row.
  RowSpec keyRow(const YAML::Node& n, std::string_view what);
  // Rows bound for the source: every column must be in its schema and cast to its type.
  void checkSourceRows(const std::vector<RowSpec>& rs, int sourceIndex);

  // ---- what the file's other parts need
  const std::string& file() const { return file_; }
  const LoaderOptions& options() const { return options_; }
  bool isProcessor(const std::string& name);
  std::vector<std::string> processorNames();
  // The query's sources (empty until parseQuery, or when the query is bad), its sink kind
  // (expect console needs a console sink) and its node (what `restart: {query: ...}` overrides).
  const std::vector<SourceSpec>& sources() const { return sources_; }
  void setSources(std::vector<SourceSpec> s) { sources_ = std::move(s); }
  // Each source's rows as its own `operators:` leave them (null when unknown); a join's sides
  // and a union are checked against these.
  SchemaPtr sourceOutput(size_t i) const {
    if (i < source_outputs_.size()) return source_outputs_[i];
    return i < sources_.size() ? sources_[i].schema : nullptr;
  }
  void setSourceOutputs(std::vector<SchemaPtr> s) { source_outputs_ = std::move(s); }
  SinkSpec::Kind sinkKind() const { return sink_kind_; }
  void setSinkKind(SinkSpec::Kind k) { sink_kind_ = k; }
  const YAML::Node& queryNode() const { return query_node_; }
  void setQueryNode(const YAML::Node& n) { query_node_ = n; }

 private:
  std::string file_;
  const LoaderOptions& options_;
  std::vector<ScenarioError> errors_;
  expr::SqlConf sql_conf_;
  std::vector<SourceSpec> sources_;
  std::vector<SchemaPtr> source_outputs_;
  SinkSpec::Kind sink_kind_ = SinkSpec::Kind::kMemory;
  YAML::Node query_node_;
};

}  // namespace streamsim::harness::detail
