#include "streamsim/value.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>

#include <nlohmann/json.hpp>

#include "json_text.h"

namespace streamsim {

std::string_view typeName(Type t) {
  switch (t) {
    case Type::kNull: return "null";
    case Type::kBoolean: return "boolean";
    case Type::kInt: return "int";
    case Type::kLong: return "long";
    case Type::kDouble: return "double";
    case Type::kString: return "string";
    case Type::kTimestamp: return "timestamp";
  }
  return "?";
}

Result<Type> parseTypeName(std::string_view name) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (n == "boolean" || n == "bool") return Type::kBoolean;
  if (n == "int" || n == "integer") return Type::kInt;
  if (n == "long" || n == "bigint") return Type::kLong;
  if (n == "double" || n == "float") return Type::kDouble;
  if (n == "string") return Type::kString;
  if (n == "timestamp") return Type::kTimestamp;
  return Status::InvalidArgument(fmt::format(
      "unknown type '{}': expected one of boolean, int, long, double, string, timestamp", name));
}

double Value::asDouble() const {
  if (type_ == Type::kDouble) return std::get<double>(v_);
  return static_cast<double>(std::get<int64_t>(v_));
}

Result<Value> Value::castTo(Type t) const {
  if (isNull() || t == type_) return *this;
  auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("cannot read {} value '{}' as {}", typeName(type_), toString(), typeName(t)));
  };
  switch (t) {
    case Type::kNull: return Value();
    case Type::kBoolean:
      if (type_ == Type::kString) {
        if (asString() == "true") return Value(true);
        if (asString() == "false") return Value(false);
      }
      return bad();
    case Type::kInt:
    case Type::kLong:
    case Type::kTimestamp: {
      int64_t n;
      if (type_ == Type::kInt || type_ == Type::kLong || type_ == Type::kTimestamp) {
        n = asLong();
      } else if (type_ == Type::kDouble) {
        // A double outside int64's range (1e300, NaN, infinities) is no integer: the cast
        // would be undefined behaviour. 2^63 itself is out of range, -2^63 is in.
        const double d = t == Type::kTimestamp ? asDouble() * 1000 : asDouble();  // seconds
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return bad();
        if (t == Type::kTimestamp) n = static_cast<int64_t>(d);
        else if (d == std::floor(d)) n = static_cast<int64_t>(d);
        else return bad();
      } else if (type_ == Type::kString) {
        if (t == Type::kTimestamp) {
          auto ts = parseTimestamp(asString());
          if (!ts.ok()) return ts.status();
          return Value::timestamp(*ts);
        }
        const std::string& s = asString();
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (ec != std::errc() || p != s.data() + s.size()) return bad();
      } else {
        return bad();
      }
      if (t == Type::kTimestamp) return Value::timestamp(n);
      if (t == Type::kInt) {
        if (n < INT32_MIN || n > INT32_MAX) return bad();
        return Value(static_cast<int32_t>(n));
      }
      return Value(n);
    }
    case Type::kDouble:
      if (isNumeric()) return Value(asDouble());
      if (type_ == Type::kString) {
        try {
          size_t used = 0;
          double d = std::stod(asString(), &used);
          if (used == asString().size()) return Value(d);
        } catch (...) {
        }
      }
      return bad();
    case Type::kString:
      return Value(toString());
  }
  return bad();
}

std::string Value::toString() const {
  switch (type_) {
    case Type::kNull: return "null";
    case Type::kBoolean: return asBool() ? "true" : "false";
    case Type::kInt:
    case Type::kLong: return std::to_string(asLong());
    case Type::kDouble: return nlohmann::json(std::get<double>(v_)).dump();
    case Type::kString: return asString();
    case Type::kTimestamp: return formatTimestamp(asLong());
  }
  return "?";
}

namespace {
int group(Type t) {
  switch (t) {
    case Type::kNull: return 0;
    case Type::kBoolean: return 1;
    case Type::kInt:
    case Type::kLong:
    case Type::kTimestamp:
    case Type::kDouble: return 2;
    case Type::kString: return 3;
  }
  return 4;
}
}  // namespace

int compare(const Value& a, const Value& b) {
  int ga = group(a.type_), gb = group(b.type_);
  if (ga != gb) return ga < gb ? -1 : 1;
  switch (ga) {
    case 0: return 0;
    case 1: return a.asBool() == b.asBool() ? 0 : (a.asBool() ? 1 : -1);
    case 2:
      if (a.type_ != Type::kDouble && b.type_ != Type::kDouble) {
        return a.asLong() == b.asLong() ? 0 : (a.asLong() < b.asLong() ? -1 : 1);
      } else {
        double x = a.asDouble(), y = b.asDouble();
        return x == y ? 0 : (x < y ? -1 : 1);
      }
    default: {
      int c = a.asString().compare(b.asString());
      return c == 0 ? 0 : (c < 0 ? -1 : 1);
    }
  }
}

size_t Value::hash() const {
  switch (group(type_)) {
    case 0: return 0x9e3779b9;
    case 1: return asBool() ? 1 : 2;
    case 2:
      if (type_ == Type::kDouble) {
        double d = asDouble();
        if (d == std::floor(d) && std::abs(d) < 9e18) return std::hash<int64_t>()(static_cast<int64_t>(d));
        return std::hash<double>()(d);
      }
      return std::hash<int64_t>()(asLong());
    default: return std::hash<std::string>()(asString());
  }
}

Result<Schema> Schema::parseDDL(std::string_view ddl) {
  std::vector<Field> fields;
  size_t pos = 0;
  auto skipSpace = [&] {
    while (pos < ddl.size() && std::isspace(static_cast<unsigned char>(ddl[pos]))) ++pos;
  };
  auto word = [&] {
    skipSpace();
    size_t start = pos;
    if (pos < ddl.size() && ddl[pos] == '`') {
      ++pos;
      start = pos;
      while (pos < ddl.size() && ddl[pos] != '`') ++pos;
      std::string w(ddl.substr(start, pos - start));
      if (pos < ddl.size()) ++pos;
      return w;
    }
    while (pos < ddl.size() && !std::isspace(static_cast<unsigned char>(ddl[pos])) &&
           ddl[pos] != ',' && ddl[pos] != ':')
      ++pos;
    return std::string(ddl.substr(start, pos - start));
  };
  skipSpace();
  if (pos == ddl.size()) return Schema();
  while (true) {
    std::string name = word();
    skipSpace();
    if (pos < ddl.size() && ddl[pos] == ':') ++pos;
    std::string type = word();
    if (name.empty() || type.empty())
      return Status::InvalidArgument(fmt::format(
          "bad schema '{}' at character {}: expected 'name type' pairs separated by commas, "
          "like \"id string, count long\"", ddl, pos));
    auto t = parseTypeName(type);
    if (!t.ok()) return t.status().withContext(fmt::format("schema '{}', column '{}'", ddl, name));
    Field f{name, *t, true};
    skipSpace();
    size_t save = pos;
    std::string next = word();
    std::string lower;
    for (char c : next) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (lower == "not") {
      std::string n2 = word();
      for (char& c : n2) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (n2 != "null")
        return Status::InvalidArgument(fmt::format(
            "bad schema '{}' at character {}: expected NULL after NOT in column '{}', got '{}'",
            ddl, pos - n2.size(), name, n2));
      f.nullable = false;
    } else {
      pos = save;
    }
    for (const auto& other : fields)
      if (other.name == name)
        return Status::InvalidArgument(fmt::format("schema '{}' names column '{}' twice", ddl, name));
    fields.push_back(f);
    skipSpace();
    if (pos == ddl.size()) break;
    if (ddl[pos] != ',')
      return Status::InvalidArgument(fmt::format(
          "bad schema '{}' at character {}: expected ',' between columns", ddl, pos));
    ++pos;
  }
  return Schema(std::move(fields));
}

std::string Schema::toDDL() const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) out += ", ";
    out += fields_[i].name;
    out += ' ';
    out += typeName(fields_[i].type);
    if (!fields_[i].nullable) out += " NOT NULL";
  }
  return out;
}

int Schema::indexOf(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i)
    if (fields_[i].name == name) return static_cast<int>(i);
  return -1;
}

SchemaPtr makeSchema(std::vector<Field> fields) {
  return std::make_shared<const Schema>(std::move(fields));
}

Result<SchemaPtr> parseSchema(std::string_view ddl) {
  auto s = Schema::parseDDL(ddl);
  if (!s.ok()) return s.status();
  return SchemaPtr(std::make_shared<const Schema>(std::move(s).value()));
}

Row::Row(std::initializer_list<std::pair<std::string, Value>> named)
    : Row(fromNamed(std::vector<std::pair<std::string, Value>>(named))) {}

SchemaPtr inferSchema(const std::vector<Value>& values,
                      const std::function<std::string_view(size_t)>& name) {
  // Code building rows from named values (processors emitting output) mostly builds many rows
  // of one shape in a row: the schema inferred last on this thread is reused when names and
  // types match, instead of allocating a new one per row. Schemas are immutable, so sharing
  // one is invisible to callers.
  thread_local SchemaPtr last;
  bool same = last != nullptr && last->size() == values.size();
  for (size_t i = 0; same && i < values.size(); ++i)
    same = last->field(i).type == inferredType(values[i]) && last->field(i).name == name(i);
  if (!same) {
    std::vector<Field> fields;
    fields.reserve(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      fields.push_back(Field{std::string(name(i)), inferredType(values[i]), true});
    last = makeSchema(std::move(fields));
  }
  return last;
}

Row Row::fromNamed(std::vector<std::pair<std::string, Value>> named) {
  std::vector<Value> values;
  values.reserve(named.size());
  for (auto& [name, value] : named) values.push_back(std::move(value));
  SchemaPtr schema =
      inferSchema(values, [&](size_t i) -> std::string_view { return named[i].first; });
  return Row(std::move(schema), std::move(values));
}

const Value& Row::get(std::string_view name) const {
  static const Value kNull;
  int i = schema_->indexOf(name);
  return i < 0 || static_cast<size_t>(i) >= values_.size() ? kNull : values_[i];
}

namespace {
nlohmann::json toJsonValue(const Value& v) {
  switch (v.type()) {
    case Type::kNull: return nullptr;
    case Type::kBoolean: return v.asBool();
    case Type::kInt:
    case Type::kLong: return v.asLong();
    case Type::kDouble: {
      const double d = v.asDouble();  // non-finite as Spark writes them (appendJsonDouble)
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return d;
    }
    case Type::kString: return v.asString();
    case Type::kTimestamp: return formatTimestamp(v.asLong());
  }
  return nullptr;
}

// Row::toJson as an ordered_json DOM (for a schema naming a column twice).
std::string rowJsonThroughDom(const Row& row) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (size_t i = 0; i < row.size() && i < row.schema()->size(); ++i) {
    if (row[i].isNull()) continue;
    j[row.schema()->field(i).name] = toJsonValue(row[i]);
  }
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}
}  // namespace

// Written straight into the string, the bytes nlohmann::ordered_json gave (the sink writers and
// the sweep's fingerprint call this per row). A schema naming one column twice keeps the DOM:
// there the later value replaces the earlier in the first one's place.
std::string Row::toJson() const {
  const size_t n = std::min(values_.size(), schema_->size());
  for (size_t i = 1; i < n; ++i)
    for (size_t k = 0; k < i; ++k)
      if (schema_->field(i).name == schema_->field(k).name) return rowJsonThroughDom(*this);
  std::string out;
  out.reserve(16 * n + 2);
  out.push_back('{');
  bool first = true;
  for (size_t i = 0; i < n; ++i) {
    const Value& v = values_[i];
    if (v.isNull()) continue;
    if (!first) out.push_back(',');
    first = false;
    detail::appendJsonString(out, schema_->field(i).name);
    out.push_back(':');
    switch (v.type()) {
      case Type::kNull: break;
      case Type::kBoolean: out += v.asBool() ? "true" : "false"; break;
      case Type::kInt:
      case Type::kLong: detail::appendJsonInt(out, v.asLong()); break;
      case Type::kDouble: detail::appendJsonDouble(out, v.asDouble()); break;
      case Type::kString: detail::appendJsonString(out, v.asString()); break;
      case Type::kTimestamp:
        out.push_back('"');
        appendTimestamp(out, v.asLong());
        out.push_back('"');
        break;
    }
  }
  out.push_back('}');
  return out;
}

std::string Row::toString() const {
  std::string out;
  for (size_t i = 0; i < values_.size() && i < schema_->size(); ++i) {
    if (i) out += ", ";
    out += schema_->field(i).name;
    out += '=';
    out += values_[i].toString();
  }
  return out;
}

bool operator==(const Row& a, const Row& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string& name = a.schema_->field(i).name;
    int j = b.schema_->indexOf(name);
    if (j < 0) return false;
    if (!(a.values_[i] == b.values_[j])) return false;
  }
  return true;
}

bool operator<(const Row& a, const Row& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int c = compare(a.values_[i], b.values_[i]);
    if (c != 0) return c < 0;
  }
  return a.size() < b.size();
}

Row project(const Row& row, const std::vector<std::string>& cols) {
  std::vector<Field> fields;
  std::vector<Value> values;
  for (const auto& c : cols) {
    int i = row.schema()->indexOf(c);
    if (i < 0) {
      fields.push_back(Field{c, Type::kString, true});
      values.emplace_back();
    } else {
      fields.push_back(row.schema()->field(i));
      values.push_back(row[i]);
    }
  }
  return Row(makeSchema(std::move(fields)), std::move(values));
}

}  // namespace streamsim
