// Values, schemas and rows (DESIGN.md §3). A Schema is written as a Spark DDL string
// ("id string, count long, t timestamp"). A Row is a vector of Values plus a shared, immutable
// Schema. Thread-safety: plain values; Schemas are immutable once built and shared freely.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim {

enum class Type { kNull, kBoolean, kInt, kLong, kDouble, kString, kTimestamp };

// "boolean", "int", "long", "double", "string", "timestamp" (Spark's names; "bigint",
// "integer" accepted on input).
std::string_view typeName(Type t);
Result<Type> parseTypeName(std::string_view name);

// A single value: null, boolean, int (32), long (64), double, string or timestamp (ms).
class Value {
 public:
  Value() = default;  // null
  Value(std::nullptr_t) {}  // NOLINT
  Value(bool b) : type_(Type::kBoolean), v_(b) {}  // NOLINT
  Value(int32_t i) : type_(Type::kInt), v_(int64_t{i}) {}  // NOLINT
  Value(int64_t i) : type_(Type::kLong), v_(i) {}  // NOLINT
  Value(double d) : type_(Type::kDouble), v_(d) {}  // NOLINT
  Value(std::string s) : type_(Type::kString), v_(std::move(s)) {}  // NOLINT
  Value(const char* s) : type_(Type::kString), v_(std::string(s)) {}  // NOLINT
  Value(std::string_view s) : type_(Type::kString), v_(std::string(s)) {}  // NOLINT
  static Value timestamp(TimeMs t) {
    Value v(int64_t{t});
    v.type_ = Type::kTimestamp;
    return v;
  }

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::kNull; }
  bool asBool() const { return std::get<bool>(v_); }
  // Int, long and timestamp values are all stored as int64.
  int64_t asLong() const { return std::get<int64_t>(v_); }
  double asDouble() const;  // REQUIRES: numeric
  const std::string& asString() const { return std::get<std::string>(v_); }
  bool isNumeric() const {
    return type_ == Type::kInt || type_ == Type::kLong || type_ == Type::kDouble ||
           type_ == Type::kTimestamp;
  }

  // Makes this the string `s`, reusing the buffer of the string it holds (no allocation when
  // it fits).
  void setString(std::string_view s) {
    if (auto* held = std::get_if<std::string>(&v_)) {
      held->assign(s);
    } else {
      v_ = std::string(s);
    }
    type_ = Type::kString;
  }

  // Casts to `t` (long->timestamp, string->timestamp via parseTimestamp, int<->long, ...).
  Result<Value> castTo(Type t) const;

  // Human form: null, true, 42, 1.5, abc, 2026-01-01T00:00:00Z.
  std::string toString() const;

  // Total order: null first, then by type group, then by value. Int/long/timestamp compare
  // numerically with each other.
  friend int compare(const Value& a, const Value& b);
  friend bool operator==(const Value& a, const Value& b) { return compare(a, b) == 0; }
  friend bool operator<(const Value& a, const Value& b) { return compare(a, b) < 0; }
  size_t hash() const;

 private:
  Type type_ = Type::kNull;
  std::variant<std::monostate, bool, int64_t, double, std::string> v_;
};

struct Field {
  std::string name;
  Type type = Type::kString;
  bool nullable = true;
  friend bool operator==(const Field&, const Field&) = default;
};

class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Field> fields) : fields_(std::move(fields)) {}
  // "id string, count long, t timestamp" (optionally "name type NOT NULL").
  static Result<Schema> parseDDL(std::string_view ddl);
  std::string toDDL() const;

  const std::vector<Field>& fields() const { return fields_; }
  size_t size() const { return fields_.size(); }
  const Field& field(size_t i) const { return fields_[i]; }
  // -1 when absent.
  int indexOf(std::string_view name) const;
  friend bool operator==(const Schema&, const Schema&) = default;

 private:
  std::vector<Field> fields_;
};

using SchemaPtr = std::shared_ptr<const Schema>;
SchemaPtr makeSchema(std::vector<Field> fields);
Result<SchemaPtr> parseSchema(std::string_view ddl);

// The column type a row built from named values gives `v`: its own, or string for a null.
inline Type inferredType(const Value& v) { return v.isNull() ? Type::kString : v.type(); }

// The schema of a row whose column i is named name(i) and holds values[i], with types inferred
// from the values as Row::fromNamed does (a null is typed string). The schema returned last on
// this thread is returned again while names and types repeat.
SchemaPtr inferSchema(const std::vector<Value>& values,
                      const std::function<std::string_view(size_t)>& name);

// A row: values positioned by a schema. Rows built from named pairs get a schema inferred from
// the values ({"device", "d1"}, {"count", int64_t{3}}).
class Row {
 public:
  Row() : schema_(makeSchema({})) {}
  Row(SchemaPtr schema, std::vector<Value> values)
      : schema_(std::move(schema)), values_(std::move(values)) {}
  Row(std::initializer_list<std::pair<std::string, Value>> named);  // NOLINT
  static Row fromNamed(std::vector<std::pair<std::string, Value>> named);

  const SchemaPtr& schema() const { return schema_; }
  size_t size() const { return values_.size(); }
  const Value& operator[](size_t i) const { return values_[i]; }
  Value& operator[](size_t i) { return values_[i]; }
  // The value of column `name`; a null Value if there is no such column.
  const Value& get(std::string_view name) const;
  bool has(std::string_view name) const { return schema_->indexOf(name) >= 0; }
  const std::vector<Value>& values() const { return values_; }

  // {"a":1,"b":"x"} — Spark's JSON form (timestamps as ISO strings, nulls omitted).
  std::string toJson() const;
  // a=1, b=x
  std::string toString() const;

  // Equal when the same column names hold equal values (order of columns ignored).
  friend bool operator==(const Row& a, const Row& b);
  // Order by values position-wise (used to sort rows for comparisons).
  friend bool operator<(const Row& a, const Row& b);

 private:
  SchemaPtr schema_;
  std::vector<Value> values_;
};

// Rows whose columns are `cols` of `row`, for grouping and dedup keys.
Row project(const Row& row, const std::vector<std::string>& cols);

}  // namespace streamsim
