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
    case Type::kStruct: return "struct";
    case Type::kArray: return "array";
    case Type::kMap: return "map";
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
  if (n == "struct" || n == "array" || n == "map")
    return Status::InvalidArgument(
        fmt::format("type '{}' needs its element types, like {}<...>", name, n));
  return Status::InvalidArgument(fmt::format(
      "unknown type '{}': expected one of boolean, int, long, double, string, timestamp", name));
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

Result<Value> Value::castTo(Type t) const {
  if (isNull() || t == type_) return *this;
  if (isNested() && t != Type::kString)
    return Status::InvalidArgument(
        fmt::format("cannot read {} value '{}' as {}", typeName(type_), toString(), typeName(t)));
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
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap: return bad();  // needs the element types: castTo(Field)
  }
  return bad();
}

namespace {
std::string describe(const Value& v) {
  std::string s = v.toString();
  if (v.type() == Type::kString) s = "'" + s + "'";
  return fmt::format("{} {}", typeName(v.type()), s);
}

Result<Value> castChild(const Value& v, const Field& f, std::string_view where) {
  if (v.isNull()) {
    if (!f.nullable)
      return Status::InvalidArgument(fmt::format("{}: null where {} allows none", where, typeDDL(f)));
    return v;
  }
  auto r = v.castTo(f);
  if (!r.ok()) return r.status().withContext(std::string(where));
  return r;
}
}  // namespace

Result<Value> Value::castTo(const Field& f) const {
  if (!f.nested || isNull()) return castTo(f.type);
  const Schema& inner = *f.nested;
  auto mismatch = [&] {
    return Status::InvalidArgument(fmt::format("cannot read {} as {}", describe(*this), typeDDL(f)));
  };
  switch (f.type) {
    case Type::kArray: {
      if (type_ != Type::kArray) return mismatch();
      std::vector<Value> out;
      out.reserve(items().size());
      for (size_t i = 0; i < items().size(); ++i) {
        auto r = castChild(items()[i], inner.field(0), fmt::format("element {}", i));
        if (!r.ok()) return r.status();
        out.push_back(std::move(r).value());
      }
      return arrayOf(std::move(out));
    }
    case Type::kMap: {
      if (type_ != Type::kMap) return mismatch();
      std::vector<std::pair<Value, Value>> out;
      out.reserve(mapSize());
      for (size_t i = 0; i < mapSize(); ++i) {
        auto k = castChild(mapKey(i), inner.field(0), fmt::format("key '{}'", mapKey(i).toString()));
        if (!k.ok()) return k.status();
        auto val = castChild(mapValue(i), inner.field(1),
                             fmt::format("value of key '{}'", mapKey(i).toString()));
        if (!val.ok()) return val.status();
        out.emplace_back(std::move(k).value(), std::move(val).value());
      }
      return mapOf(std::move(out));
    }
    case Type::kStruct: {
      std::vector<Value> out(inner.size());
      if (type_ == Type::kStruct) {
        if (items().size() != inner.size())
          return Status::InvalidArgument(fmt::format("cannot read a struct of {} fields ({}) as {}",
                                                     items().size(), toString(), typeDDL(f)));
        for (size_t i = 0; i < inner.size(); ++i) {
          auto r = castChild(items()[i], inner.field(i), fmt::format("field '{}'", inner.field(i).name));
          if (!r.ok()) return r.status();
          out[i] = std::move(r).value();
        }
      } else if (type_ == Type::kMap) {
        // An object read from YAML or JSON: its keys name the fields.
        std::vector<bool> set(inner.size(), false);
        for (size_t i = 0; i < mapSize(); ++i) {
          const std::string name = mapKey(i).toString();
          int at = inner.indexOf(name);
          if (at < 0)
            return Status::InvalidArgument(fmt::format("field '{}' is not in {}", name, typeDDL(f)));
          auto r = castChild(mapValue(i), inner.field(at), fmt::format("field '{}'", name));
          if (!r.ok()) return r.status();
          out[at] = std::move(r).value();
          set[at] = true;
        }
        for (size_t i = 0; i < inner.size(); ++i)
          if (!set[i] && !inner.field(i).nullable)
            return Status::InvalidArgument(fmt::format("field '{}' of {} is missing (it is NOT NULL)",
                                                       inner.field(i).name, typeDDL(f)));
      } else {
        return mismatch();
      }
      return structOf(f.nested, std::move(out));
    }
    default: return castTo(f.type);
  }
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
  }
  return 7;
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
        double x = a.asDouble(), y = b.asDouble();
        return x == y ? 0 : (x < y ? -1 : 1);
      }
    case 3: {
      int c = a.asString().compare(b.asString());
      return c == 0 ? 0 : (c < 0 ? -1 : 1);
    }
    case 4:
    case 5: return compareItems(a.items(), b.items());
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
        if (d == std::floor(d) && std::abs(d) < 9e18) return std::hash<int64_t>()(static_cast<int64_t>(d));
        return std::hash<double>()(d);
      }
      return std::hash<int64_t>()(asLong());
    case 3: return std::hash<std::string>()(asString());
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

namespace {

// Spark's DDL for a table schema (SqlBaseParser colType / complexColType / dataType): columns
// "name type [NOT NULL]" separated by commas; types are primitive names or
// ARRAY<type>, MAP<type, type>, STRUCT<name[:] type [NOT NULL], ...>; keywords case-insensitive.
class DdlParser {
 public:
  explicit DdlParser(std::string_view ddl) : ddl_(ddl) {}

  Result<Schema> columns() {
    std::vector<Field> fields;
    skipSpace();
    if (pos_ == ddl_.size()) return Schema();
    while (true) {
      auto f = column(/*inStruct=*/false);
      if (!f.ok()) return f.status();
      for (const auto& other : fields)
        if (other.name == f->name)
          return Status::InvalidArgument(
              fmt::format("schema '{}' names column '{}' twice", ddl_, f->name));
      fields.push_back(std::move(f).value());
      skipSpace();
      if (pos_ == ddl_.size()) break;
      if (ddl_[pos_] != ',') return expected("',' between columns");
      ++pos_;
    }
    return Schema(std::move(fields));
  }

 private:
  Status expected(std::string_view what) {
    skipSpace();  // the position and text of the offending token
    std::string got = pos_ < ddl_.size() ? fmt::format("'{}'", ddl_.substr(pos_, 12)) : "the end";
    return Status::InvalidArgument(fmt::format("bad schema '{}' at character {}: expected {}, got {}",
                                               ddl_, pos_, what, got));
  }
  void skipSpace() {
    while (pos_ < ddl_.size() && std::isspace(static_cast<unsigned char>(ddl_[pos_]))) ++pos_;
  }
  static bool isWordChar(char c) {
    return !std::isspace(static_cast<unsigned char>(c)) && c != ',' && c != ':' && c != '<' &&
           c != '>' && c != '(' && c != ')' && c != '`';
  }
  // A name or keyword; `backquoted` names may hold anything but a backquote ("``" is one).
  std::string word() {
    skipSpace();
    if (pos_ < ddl_.size() && ddl_[pos_] == '`') {
      std::string w;
      ++pos_;
      while (pos_ < ddl_.size()) {
        if (ddl_[pos_] == '`') {
          if (pos_ + 1 < ddl_.size() && ddl_[pos_ + 1] == '`') {
            w.push_back('`');
            pos_ += 2;
            continue;
          }
          ++pos_;
          return w;
        }
        w.push_back(ddl_[pos_++]);
      }
      return w;
    }
    size_t start = pos_;
    while (pos_ < ddl_.size() && isWordChar(ddl_[pos_])) ++pos_;
    return std::string(ddl_.substr(start, pos_ - start));
  }
  static std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  bool take(char c) {
    skipSpace();
    if (pos_ < ddl_.size() && ddl_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  // name [:] type [NOT NULL]; the colon only inside a struct in Spark, accepted everywhere.
  Result<Field> column(bool inStruct) {
    skipSpace();
    const size_t at = pos_;
    std::string name = word();
    if (name.empty() && !(at < ddl_.size() && ddl_[at] == '`'))
      return expected(inStruct ? "a field name" : "a column name ('name type' pairs separated by "
                                                  "commas, like \"id string, count long\")");
    take(':');
    auto f = type(name);
    if (!f.ok()) return f.status();
    skipSpace();
    const size_t save = pos_;
    if (lower(word()) == "not") {
      const size_t nullAt = pos_;
      if (lower(word()) != "null") {
        pos_ = nullAt;
        return expected(fmt::format("NULL after NOT in column '{}'", name));
      }
      f->nullable = false;
    } else {
      pos_ = save;
    }
    return f;
  }

  Result<Field> type(const std::string& name) {
    skipSpace();
    const size_t at = pos_;
    if (depth_ >= kMaxDepth) return expected(fmt::format("types nested at most {} deep", kMaxDepth));
    struct Deeper {
      int& d;
      explicit Deeper(int& x) : d(++x) {}
      ~Deeper() { --d; }
    } deeper(depth_);
    std::string t = word();
    if (t.empty())
      return expected(fmt::format("a type for '{}' ('name type' pairs separated by commas, like "
                                  "\"id string, count long\")", name));
    const std::string k = lower(t);
    if (k == "array") {
      if (!take('<')) return expected("'<' after ARRAY");
      auto e = type("element");
      if (!e.ok()) return e.status();
      if (!take('>')) return expected("'>' closing ARRAY<");
      return arrayField(name, std::move(e).value());
    }
    if (k == "map") {
      if (!take('<')) return expected("'<' after MAP");
      auto key = type("key");
      if (!key.ok()) return key.status();
      if (!take(',')) return expected("',' between the key and value types of MAP<");
      auto value = type("value");
      if (!value.ok()) return value.status();
      if (!take('>')) return expected("'>' closing MAP<");
      key->nullable = false;
      return mapField(name, std::move(key).value(), std::move(value).value());
    }
    if (k == "struct") {
      if (!take('<')) return expected("'<' after STRUCT");
      std::vector<Field> fields;
      if (!take('>')) {
        while (true) {
          auto f = column(/*inStruct=*/true);
          if (!f.ok()) return f.status();
          for (const auto& other : fields)
            if (lower(other.name) == lower(f->name))
              return Status::InvalidArgument(fmt::format(
                  "schema '{}': struct '{}' names field '{}' twice", ddl_, name, f->name));
          fields.push_back(std::move(f).value());
          if (take('>')) break;
          if (!take(',')) return expected("',' or '>' in STRUCT<");
        }
      }
      return structField(name, makeSchema(std::move(fields)));
    }
    auto p = parseTypeName(t);
    if (!p.ok()) {
      pos_ = at;
      return p.status().withContext(
          fmt::format("schema '{}' at character {}, column '{}'", ddl_, at, name));
    }
    return Field{name, *p, true, nullptr};
  }

  static constexpr int kMaxDepth = 64;
  std::string_view ddl_;
  size_t pos_ = 0;
  int depth_ = 0;
};

// A name as Spark's quoteIfNeeded writes it: backquoted unless letters, digits and '_'.
std::string quoteIfNeeded(const std::string& name) {
  bool plain = !name.empty();
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (plain) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  out.push_back('`');
  return out;
}

}  // namespace

Result<Schema> Schema::parseDDL(std::string_view ddl) { return DdlParser(ddl).columns(); }

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

std::string typeDDL(const Field& f) {
  if (!f.nested) return std::string(typeName(f.type));
  const Schema& inner = *f.nested;
  switch (f.type) {
    case Type::kArray: return "array<" + typeDDL(inner.field(0)) + ">";
    case Type::kMap: return "map<" + typeDDL(inner.field(0)) + ", " + typeDDL(inner.field(1)) + ">";
    default: {
      std::string out = "struct<";
      for (size_t i = 0; i < inner.size(); ++i) {
        if (i) out += ", ";
        out += quoteIfNeeded(inner.field(i).name);
        out += ": ";
        out += typeDDL(inner.field(i));
        if (!inner.field(i).nullable) out += " NOT NULL";
      }
      return out + ">";
    }
  }
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

std::string Schema::toDDL() const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (i) out += ", ";
    out += fields_[i].name;
    out += ' ';
    out += typeDDL(fields_[i]);
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

namespace {
nlohmann::ordered_json toJsonValue(const Value& v) {
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
    case Type::kStruct: {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      for (size_t i = 0; i < v.items().size() && i < v.structSchema()->size(); ++i)
        if (!v.items()[i].isNull()) j[v.structSchema()->field(i).name] = toJsonValue(v.items()[i]);
      return j;
    }
    case Type::kArray: {
      nlohmann::ordered_json j = nlohmann::ordered_json::array();
      for (const Value& e : v.items()) j.push_back(toJsonValue(e));
      return j;
    }
    case Type::kMap: {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      for (size_t i = 0; i < v.mapSize(); ++i) j[v.mapKey(i).toString()] = toJsonValue(v.mapValue(i));
      return j;
    }
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

namespace detail {
void appendJsonValue(std::string& out, const Value& v) {
  switch (v.type()) {
    case Type::kNull: out += "null"; break;
    case Type::kBoolean: out += v.asBool() ? "true" : "false"; break;
    case Type::kInt:
    case Type::kLong: appendJsonInt(out, v.asLong()); break;
    case Type::kDouble: appendJsonDouble(out, v.asDouble()); break;
    case Type::kString: appendJsonString(out, v.asString()); break;
    case Type::kTimestamp:
      out.push_back('"');
      appendTimestamp(out, v.asLong());
      out.push_back('"');
      break;
    case Type::kStruct: {
      // Spark's JacksonGenerator: null fields omitted (ignoreNullFields); a repeated name the DOM
      // way (as Row::toJson).
      const Schema& schema = *v.structSchema();
      bool repeated = false;
      for (size_t i = 1; i < schema.size() && !repeated; ++i)
        for (size_t k = 0; k < i && !repeated; ++k) repeated = schema.field(i).name == schema.field(k).name;
      if (repeated) {
        out += toJsonValue(v).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        break;
      }
      out.push_back('{');
      bool first = true;
      for (size_t i = 0; i < v.items().size() && i < schema.size(); ++i) {
        if (v.items()[i].isNull()) continue;
        if (!first) out.push_back(',');
        first = false;
        appendJsonString(out, schema.field(i).name);
        out.push_back(':');
        appendJsonValue(out, v.items()[i]);
      }
      out.push_back('}');
      break;
    }
    case Type::kArray:
      out.push_back('[');
      for (size_t i = 0; i < v.items().size(); ++i) {
        if (i) out.push_back(',');
        appendJsonValue(out, v.items()[i]);  // a null element as null, as Spark writes it
      }
      out.push_back(']');
      break;
    case Type::kMap:
      out.push_back('{');
      for (size_t i = 0; i < v.mapSize(); ++i) {
        if (i) out.push_back(',');
        appendJsonString(out, v.mapKey(i).toString());
        out.push_back(':');
        appendJsonValue(out, v.mapValue(i));  // a null value as null
      }
      out.push_back('}');
      break;
  }
}
}  // namespace detail

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
    detail::appendJsonValue(out, v);
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
