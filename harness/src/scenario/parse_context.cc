// The scenario loader's node readers (parse_context.h): every bad node an error at file:line:col.
#include "scenario/parse_context.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "streamsim/fault_points.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness::detail {

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

SourceLocation ParseContext::loc(const YAML::Mark& m) const {
  SourceLocation l;
  l.file = file_;
  if (m.line >= 0) {
    l.line = m.line + 1;
    l.column = m.column + 1;
  }
  return l;
}

// Reports every key of `map` not in `allowed` (with the key's own position).
void ParseContext::checkKeys(const YAML::Node& map, std::string_view context,
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

bool ParseContext::expectMap(const YAML::Node& n, std::string_view what) {
  if (n.IsMap()) return true;
  error(n, fmt::format("{} must be a map; got {}", what, nodeTypeName(n)));
  return false;
}
bool ParseContext::expectList(const YAML::Node& n, std::string_view what) {
  if (n.IsSequence()) return true;
  error(n, fmt::format("{} must be a list; got {}", what, nodeTypeName(n)));
  return false;
}

// ---- scalars

std::string ParseContext::str(const YAML::Node& n, std::string_view what) {
  if (!n.IsScalar()) {
    error(n, fmt::format("{} must be a string; got {}", what, nodeTypeName(n)));
    return {};
  }
  return n.Scalar();
}
std::string ParseContext::simPath(const YAML::Node& n, std::string_view what) {
  std::string raw = str(n, what);
  if (!n.IsScalar()) return raw;
  if (raw.empty()) {
    error(n, fmt::format("{} is empty; expected a path such as /landing (Hadoop's Path refuses an empty "
                         "string)", what));
    return raw;
  }
  if (raw.find('\0') != std::string::npos) {
    error(n, fmt::format("{} holds a NUL byte; expected a path", what));
    return raw;
  }
  bool aboveRoot = false;
  std::string path = sim::normalizeSimulatedPath(raw, &aboveRoot);
  if (aboveRoot)
    error(n, fmt::format("{} '{}' goes above the root with `..`; expected a path inside the simulated "
                         "filesystem (HDFS refuses `..` in a path name, and the run's files are kept "
                         "under --keep DIR)", what, raw));
  return path;
}

// An integer from min to max (every integer of the file is range-checked into its target
// type here: nothing is narrowed by a cast later).
int64_t ParseContext::integer(const YAML::Node& n, std::string_view what, int64_t min,
                int64_t max) {
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
int ParseContext::int32(const YAML::Node& n, std::string_view what, int min, int max) {
  return static_cast<int>(integer(n, what, min, max));
}
double ParseContext::number(const YAML::Node& n, std::string_view what, double min, double max) {
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
bool ParseContext::boolean(const YAML::Node& n, std::string_view what) {
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
DurationMs ParseContext::duration(const YAML::Node& n, std::string_view what, bool negativeAllowed) {
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
TimeMs ParseContext::timestamp(const YAML::Node& n, std::string_view what) {
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
std::vector<std::string> ParseContext::names(const YAML::Node& n, std::string_view what) {
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
std::string ParseContext::oneOf(const YAML::Node& n, std::string_view what,
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
std::optional<Value> ParseContext::yamlValue(const YAML::Node& n, const std::string& what) {
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

RowSpec ParseContext::row(const YAML::Node& n, std::string_view what) {
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
std::vector<RowSpec> ParseContext::rows(const YAML::Node& n, std::string_view what) {
  std::vector<RowSpec> out;
  if (n.IsNull()) return out;  // `rows:` or `rows: []`
  if (!expectList(n, what)) return out;
  for (const auto& item : n) out.push_back(row(item, what));
  return out;
}
// Rows bound for the source: every column must be in its schema and cast to its type.
void ParseContext::checkSourceRows(const std::vector<RowSpec>& rs, int sourceIndex) {
  if (sourceIndex < 0 || sourceIndex >= static_cast<int>(sources_.size())) return;
  const SourceSpec& src = sources_[sourceIndex];
  if (!src.schema) return;
  for (const auto& r : rs) {
    auto row = r.toRow(*src.schema);
    if (!row.ok()) {
      addError({r.where, fmt::format("row does not fit the source schema: {}",
                                              row.status().message())});
    }
  }
}

std::string ParseContext::requiredStr(const YAML::Node& n, const char* key, std::string_view step) {
  if (auto v = n[key]; v) return str(v, fmt::format("{} {}", step, key));
  error(n, fmt::format("missing key '{}' in {}", key, step));
  return {};
}

void ParseContext::checkFaultPoint(const YAML::Node& n, const std::string& point) {
  if (faults::isFaultPoint(point)) return;
  std::vector<std::string> known;
  for (const auto& p : faults::allFaultPoints()) known.emplace_back(p.name);
  error(n, fmt::format("unknown fault point '{}'; expected one of {} (streamsim list-faults)",
                       point, joinNames(known)));
}


RowSpec ParseContext::keyRow(const YAML::Node& n, std::string_view what) {
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

bool ParseContext::isProcessor(const std::string& name) {
  if (options_.isProcessor) return options_.isProcessor(name);
  auto all = processorNames();
  return std::find(all.begin(), all.end(), name) != all.end();
}
std::vector<std::string> ParseContext::processorNames() {
  if (options_.processorNames) return options_.processorNames();
  return processorsOf(options_.registries.get()).names();
}

}  // namespace streamsim::harness::detail
