#include "streamsim/value.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>

#include <fmt/format.h>
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
    case Type::kStruct: return "struct";
    case Type::kArray: return "array";
    case Type::kMap: return "map";
    case Type::kDate: return "date";
    case Type::kBinary: return "binary";
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
  if (n == "date") return Type::kDate;
  if (n == "binary") return Type::kBinary;
  if (n == "struct" || n == "array" || n == "map")
    return Status::InvalidArgument(
        fmt::format("type '{}' needs its element types, like {}<...>", name, n));
  return Status::InvalidArgument(fmt::format(
      "unknown type '{}': expected one of boolean, int, long, double, string, timestamp, date, binary", name));
}

Value Value::structOf(std::shared_ptr<const Schema> schema, std::vector<Value> fields) {
  Value v;
  v.type_ = Type::kStruct;
  v.v_ = std::make_shared<const NestedItems>(NestedItems{std::move(schema), std::move(fields)});
  return v;
}

Value Value::structOf(const Row& row) { return structOf(row.schema(), row.values()); }

Row Value::asRow() const { return Row(structSchema(), items()); }

Value Value::arrayOf(std::vector<Value> elements) {
  Value v;
  v.type_ = Type::kArray;
  v.v_ = std::make_shared<const NestedItems>(NestedItems{nullptr, std::move(elements)});
  return v;
}

Result<Value> Value::mapOf(std::vector<std::pair<Value, Value>> entries) {
  std::vector<Value> items;
  items.reserve(2 * entries.size());
  for (auto& [k, val] : entries) {
    if (k.isNull()) return Status::InvalidArgument("[NULL_MAP_KEY] Cannot use null as map key.");
    bool seen = false;
    for (size_t i = 0; i < items.size() && !seen; i += 2) {
      if (items[i] == k) {
        items[i + 1] = std::move(val);
        seen = true;
      }
    }
    if (seen) continue;
    items.push_back(std::move(k));
    items.push_back(std::move(val));
  }
  Value v;
  v.type_ = Type::kMap;
  v.v_ = std::make_shared<const NestedItems>(NestedItems{nullptr, std::move(items)});
  return v;
}

double Value::asDouble() const {
  if (type_ == Type::kDouble) return std::get<double>(v_);
  return static_cast<double>(std::get<int64_t>(v_));
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
    case Type::kDate: return formatDate(asLong());
    case Type::kBinary: {
      std::string out = "[";
      for (size_t i = 0; i < asString().size(); ++i)
        out += fmt::format("{}{:02X}", i ? " " : "", static_cast<unsigned char>(asString()[i]));
      return out + "]";
    }
    case Type::kStruct:
    case Type::kArray: {
      std::string out(1, type_ == Type::kStruct ? '{' : '[');
      for (size_t i = 0; i < items().size(); ++i) {
        if (i) out += ", ";
        out += items()[i].toString();
      }
      out.push_back(type_ == Type::kStruct ? '}' : ']');
      return out;
    }
    case Type::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < mapSize(); ++i) {
        if (i) out += ", ";
        out += mapKey(i).toString();
        out += " -> ";
        out += mapValue(i).toString();
      }
      out.push_back('}');
      return out;
    }
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
    case Type::kStruct: return 4;
    case Type::kArray: return 5;
    case Type::kMap: return 6;
    case Type::kDate: return 7;
    case Type::kBinary: return 8;
  }
  return 9;
}

int compareItems(const std::vector<Value>& a, const std::vector<Value>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (int c = compare(a[i], b[i]); c != 0) return c;
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// A map's entries (k0, v0, ...) in key order.
std::vector<Value> sortedEntries(const Value& m) {
  std::vector<size_t> order(m.mapSize());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t x, size_t y) { return compare(m.mapKey(x), m.mapKey(y)) < 0; });
  std::vector<Value> out;
  out.reserve(m.items().size());
  for (size_t i : order) {
    out.push_back(m.mapKey(i));
    out.push_back(m.mapValue(i));
  }
  return out;
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
        // SQL's order of doubles (catalyst/util/SQLOrderingUtil.scala compareDoubles): NaN equals
        // NaN and is above every other number, -0.0 equals 0.0 -- a total order, so grouping,
        // sorting and equality of rows agree with Spark's (NormalizeFloatingNumbers).
        double x = a.asDouble(), y = b.asDouble();
        if (x == y) return 0;
        bool nx = std::isnan(x), ny = std::isnan(y);
        if (nx || ny) return nx == ny ? 0 : (nx ? 1 : -1);
        return x < y ? -1 : 1;
      }
    case 3: {
      int c = a.asString().compare(b.asString());
      return c == 0 ? 0 : (c < 0 ? -1 : 1);
    }
    case 4:
    case 5: return compareItems(a.items(), b.items());
    case 7: return a.asLong() == b.asLong() ? 0 : (a.asLong() < b.asLong() ? -1 : 1);
    case 8: {  // unsigned bytes, as Spark's ByteArray.compareBinary
      int c = std::string_view(a.asString()).compare(b.asString());
      return c == 0 ? 0 : (c < 0 ? -1 : 1);
    }
    default: return compareItems(sortedEntries(a), sortedEntries(b));
  }
}

size_t Value::hash() const {
  switch (group(type_)) {
    case 0: return 0x9e3779b9;
    case 1: return asBool() ? 1 : 2;
    case 2:
      if (type_ == Type::kDouble) {
        double d = asDouble();
        if (std::isnan(d)) return 0x7ff8;  // every NaN is one value (compare)
        if (d == std::floor(d) && std::abs(d) < 9e18) return std::hash<int64_t>()(static_cast<int64_t>(d));
        return std::hash<double>()(d);
      }
      return std::hash<int64_t>()(asLong());
    case 3: return std::hash<std::string>()(asString());
    case 7: return std::hash<int64_t>()(asLong()) ^ 0x7d;
    case 8: return std::hash<std::string>()(asString()) ^ 0xb1;
    case 4:
    case 5: {
      size_t h = type_ == Type::kStruct ? 0x51ed27 : 0xa2b4c6;
      for (const Value& v : items()) h = h * 1000003 ^ v.hash();
      return h;
    }
    default: {
      size_t h = 0x3c6ef372;  // entry order does not matter (equal maps, equal hashes)
      for (size_t i = 0; i < mapSize(); ++i) h += mapKey(i).hash() * 31 + mapValue(i).hash();
      return h;
    }
  }
}


bool operator==(const Field& a, const Field& b) {
  if (a.name != b.name || a.type != b.type || a.nullable != b.nullable) return false;
  if (a.nested == b.nested) return true;
  if (!a.nested || !b.nested) return false;
  return *a.nested == *b.nested;
}

Field structField(std::string name, std::shared_ptr<const Schema> fields, bool nullable) {
  return Field{std::move(name), Type::kStruct, nullable, std::move(fields)};
}

Field arrayField(std::string name, Field element, bool nullable) {
  element.name = "element";
  return Field{std::move(name), Type::kArray, nullable, makeSchema({std::move(element)})};
}

Field mapField(std::string name, Field key, Field value, bool nullable) {
  key.name = "key";
  key.nullable = false;
  value.name = "value";
  return Field{std::move(name), Type::kMap, nullable, makeSchema({std::move(key), std::move(value)})};
}

Field fieldOf(std::string name, const Value& v) {
  switch (v.type()) {
    case Type::kStruct: return structField(std::move(name), v.structSchema());
    case Type::kArray: {
      for (const Value& e : v.items())
        if (!e.isNull()) return arrayField(std::move(name), fieldOf("element", e));
      return arrayField(std::move(name), Field{"element", Type::kString, true, nullptr});
    }
    case Type::kMap: {
      Field key{"key", Type::kString, false, nullptr}, value{"value", Type::kString, true, nullptr};
      if (v.mapSize() > 0) key = fieldOf("key", v.mapKey(0));
      for (size_t i = 0; i < v.mapSize(); ++i)
        if (!v.mapValue(i).isNull()) {
          value = fieldOf("value", v.mapValue(i));
          break;
        }
      return mapField(std::move(name), std::move(key), std::move(value));
    }
    default: return Field{std::move(name), inferredType(v), true, nullptr};
  }
}

bool hasInferredType(const Field& f, const Value& v) {
  if (f.type != inferredType(v)) return false;
  if (!v.isNested()) return true;
  Field g = fieldOf(f.name, v);
  return g == f;
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
  std::vector<Field> fields;
  fields.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) fields.push_back(fieldOf(std::string(name(i)), values[i]));
  return makeSchema(std::move(fields));
}

namespace {
std::vector<Value> valuesOf(std::vector<std::pair<std::string, Value>>& named) {
  std::vector<Value> values;
  values.reserve(named.size());
  for (auto& [name, value] : named) values.push_back(std::move(value));
  return values;
}
}  // namespace

Row Row::fromNamed(std::vector<std::pair<std::string, Value>> named) {
  std::vector<Value> values = valuesOf(named);
  SchemaPtr schema =
      inferSchema(values, [&](size_t i) -> std::string_view { return named[i].first; });
  return Row(std::move(schema), std::move(values));
}

SchemaPtr RowShapes::infer(const std::vector<Value>& values,
                           const std::function<std::string_view(size_t)>& name) {
  bool same = last_ != nullptr && last_->size() == values.size();
  for (size_t i = 0; same && i < values.size(); ++i)
    same = hasInferredType(last_->field(i), values[i]) && last_->field(i).name == name(i);
  if (!same) last_ = inferSchema(values, name);
  return last_;
}

Row RowShapes::fromNamed(std::vector<std::pair<std::string, Value>> named) {
  std::vector<Value> values = valuesOf(named);
  SchemaPtr schema = infer(values, [&](size_t i) -> std::string_view { return named[i].first; });
  return Row(std::move(schema), std::move(values));
}

Row RowShapes::appended(const Row& row, std::string_view name, Value value) {
  std::vector<Value> values;
  values.reserve(row.size() + 1);
  for (size_t i = 0; i < row.size(); ++i) values.push_back(row[i]);
  values.push_back(std::move(value));
  bool same = appended_out_ != nullptr && row.schema() == appended_in_ &&
              appended_name_ == name && appended_out_->size() == values.size();
  for (size_t i = 0; same && i < values.size(); ++i)
    same = hasInferredType(appended_out_->field(i), values[i]);
  if (!same) {
    appended_out_ = infer(values, [&](size_t i) -> std::string_view {
      return i < row.size() ? std::string_view(row.schema()->field(i).name) : name;
    });
    appended_in_ = row.schema();
    appended_name_ = std::string(name);
  }
  return Row(appended_out_, std::move(values));
}

const Value& Row::get(std::string_view name) const {
  static const Value kNull;
  int i = schema_->indexOf(name);
  return i < 0 || static_cast<size_t>(i) >= values_.size() ? kNull : values_[i];
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
      fields.push_back(Field{c, Type::kString, true, nullptr});
      values.emplace_back();
    } else {
      fields.push_back(row.schema()->field(i));
      values.push_back(row[i]);
    }
  }
  return Row(makeSchema(std::move(fields)), std::move(values));
}

}  // namespace streamsim
