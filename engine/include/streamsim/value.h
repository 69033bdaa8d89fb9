// Values, schemas and rows (DESIGN.md §3). A Schema is written as a Spark DDL string
// ("id string, count long, t timestamp", nested: "s struct<a: int, b: string>, xs array<long>,
// m map<string, int>"). A Row is a vector of Values plus a shared, immutable Schema.
// Thread-safety: plain values; Schemas and nested values are immutable once built and shared.
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

// kStruct, kArray and kMap are Spark's StructType, ArrayType and MapType: their element types
// are on the Field (Field::nested), their items in the Value (Value::items). kDate is Spark's
// DateType (days since 1970-01-01), kBinary its BinaryType (bytes).
enum class Type { kNull, kBoolean, kInt, kLong, kDouble, kString, kTimestamp, kStruct, kArray, kMap, kDate, kBinary };

// "boolean", "int", "long", "double", "string", "timestamp", "date", "binary", "struct", "array",
// "map" (Spark's names; "bigint", "integer" accepted on input). A nested type's whole name: typeDDL(Field).
std::string_view typeName(Type t);
// A primitive type's name (a nested type needs its element types: Schema::parseDDL).
Result<Type> parseTypeName(std::string_view name);

class Schema;
class Row;
struct Field;
struct NestedItems;

// A single value: null, boolean, int (32), long (64), double, string, timestamp (ms), or a nested
// struct, array or map (immutable items shared between copies).
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
  // A date: days since 1970-01-01 (Spark's DateType).
  static Value date(int64_t days) {
    Value v(days);
    v.type_ = Type::kDate;
    return v;
  }
  // Bytes (Spark's BinaryType); asString() reads them.
  static Value binary(std::string bytes) {
    Value v(std::move(bytes));
    v.type_ = Type::kBinary;
    return v;
  }

  // A struct: its fields' values positioned by `schema` (Spark's Row inside a Row).
  static Value structOf(std::shared_ptr<const Schema> schema, std::vector<Value> fields);
  static Value structOf(const Row& row);
  // An array of elements (nulls allowed: Spark's containsNull).
  static Value arrayOf(std::vector<Value> elements);
  // A map: keys in insertion order, never null (InvalidArgument); a repeated key keeps its first
  // place and its last value (Spark's LAST_WIN map key dedup policy).
  static Result<Value> mapOf(std::vector<std::pair<Value, Value>> entries);

  Type type() const { return type_; }
  bool isNull() const { return type_ == Type::kNull; }
  bool isNested() const {
    return type_ == Type::kStruct || type_ == Type::kArray || type_ == Type::kMap;
  }
  // REQUIRES: isNested(). A struct's field values, an array's elements, a map's keys and
  // values interleaved (k0, v0, k1, v1, ...).
  const std::vector<Value>& items() const;
  // REQUIRES: kStruct. The struct's fields (names and types).
  const std::shared_ptr<const Schema>& structSchema() const;
  // REQUIRES: kStruct. The struct as a Row of its schema.
  Row asRow() const;
  // REQUIRES: kMap.
  size_t mapSize() const { return items().size() / 2; }
  const Value& mapKey(size_t i) const { return items()[2 * i]; }
  const Value& mapValue(size_t i) const { return items()[2 * i + 1]; }
  bool asBool() const { return std::get<bool>(v_); }
  // Int, long, timestamp and date values are all stored as int64.
  int64_t asLong() const { return std::get<int64_t>(v_); }
  double asDouble() const;  // REQUIRES: numeric
  const std::string& asString() const { return std::get<std::string>(v_); }  // string, binary
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
  // Casts to the type of `f`, nested types element by element: an array to an array, a struct
  // to a struct (position by position, taking f's field names), a map to a map, and a map with
  // string keys (a YAML or JSON object) to a struct by field name (missing fields null, unknown
  // ones an error). Nulls where f's type does not allow them are an error. Errors name the path
  // ("field 'a': ...", "element 2: ...").
  Result<Value> castTo(const Field& f) const;

  // Human form: null, true, 42, 1.5, abc, 2026-01-01T00:00:00Z, 2026-01-01 (a date), [53 70]
  // (binary, as Spark's show); nested as Spark's cast to string writes them: {1, x} (struct),
  // [1, 2] (array), {a -> 1} (map).
  std::string toString() const;

  // Total order: null first, then by type group, then by value. Int/long/timestamp/double compare
  // numerically with each other, doubles as SQL orders them (NaN equals NaN and is above every
  // number, -0.0 equals 0.0; hash() agrees); dates with dates, binaries bytewise (after the nested groups). Arrays and structs compare element by element (a prefix
  // first); maps (not orderable in Spark) compare as their entries sorted by key, so two maps
  // with the same entries in another order are equal.
  friend int compare(const Value& a, const Value& b);
  friend bool operator==(const Value& a, const Value& b) { return compare(a, b) == 0; }
  friend bool operator<(const Value& a, const Value& b) { return compare(a, b) < 0; }
  size_t hash() const;

 private:
  Type type_ = Type::kNull;
  std::variant<std::monostate, bool, int64_t, double, std::string,
               std::shared_ptr<const NestedItems>>
      v_;
};

struct NestedItems {
  std::shared_ptr<const Schema> schema;  // a struct's; null for arrays and maps
  std::vector<Value> items;
};

inline const std::vector<Value>& Value::items() const {
  return std::get<std::shared_ptr<const NestedItems>>(v_)->items;
}
inline const std::shared_ptr<const Schema>& Value::structSchema() const {
  return std::get<std::shared_ptr<const NestedItems>>(v_)->schema;
}

struct Field {
  std::string name;
  Type type = Type::kString;
  bool nullable = true;
  // The element types of a nested type (null for the others): kStruct its fields; kArray one
  // field "element" (nullable: Spark's containsNull); kMap the fields "key" (never nullable)
  // and "value" (nullable: valueContainsNull).
  std::shared_ptr<const Schema> nested;
  // Compares nested types by content.
  friend bool operator==(const Field& a, const Field& b);
};

// Nested fields: structField("s", schema), arrayField("xs", Field{"element", Type::kLong}),
// mapField("m", Field{"key", Type::kString, false}, Field{"value", Type::kInt}).
Field structField(std::string name, std::shared_ptr<const Schema> fields, bool nullable = true);
Field arrayField(std::string name, Field element, bool nullable = true);
Field mapField(std::string name, Field key, Field value, bool nullable = true);
// The type of `f` in DDL form: "long", "struct<a: int, b: string NOT NULL>", "array<long>",
// "map<string, int>" (the form Schema::toDDL and errors use).
std::string typeDDL(const Field& f);
// The field a value of `v`'s own type would have (a null is typed string; an empty array's or
// map's elements string).
Field fieldOf(std::string name, const Value& v);

class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Field> fields) : fields_(std::move(fields)) {}
  // "id string, count long, t timestamp" (optionally "name type NOT NULL"), with Spark's nested
  // types: "struct<a: int, b string>" (colon optional), "array<long>", "map<string, int>",
  // nested freely; names and keywords case-insensitive, `backquoted` names. A bad DDL is an
  // InvalidArgument naming the character position and what was expected.
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
// Whether fieldOf(f.name, v) has f's type (nested element types included; cheap for the rest).
bool hasInferredType(const Field& f, const Value& v);

// The schema of a row whose column i is named name(i) and holds values[i], with types inferred
// from the values as Row::fromNamed does (a null is typed string). A new schema every call: a
// producer of many rows of one shape asks its RowShapes instead.
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

  // {"a":1,"b":"x"} — Spark's JSON form (timestamps as ISO strings, nulls omitted; a struct an
  // object, an array a JSON array, a map an object keyed by its keys' strings, nulls inside
  // arrays and maps written as null, inside structs omitted).
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

// The schemas of the rows one producer builds from named values (a processor's output, an
// operator's result rows, a view of a sink), shared while the shape repeats: rows of one shape
// in a row get one schema object instead of a new one each. Schemas are immutable, so sharing
// is invisible to the rows' readers. Owned by the producer; not thread-safe.
class RowShapes {
 public:
  // inferSchema's schema, the previous one again while the names and types repeat.
  SchemaPtr infer(const std::vector<Value>& values,
                  const std::function<std::string_view(size_t)>& name);
  // Row::fromNamed with the schema from infer().
  Row fromNamed(std::vector<std::pair<std::string, Value>> named);
  // `row`'s columns followed by one more, `name` = `value`. While the row's schema object, the
  // name and the value types repeat, the previous output schema is reused without comparing
  // column names (a processor emitting {key..., count} per key).
  Row appended(const Row& row, std::string_view name, Value value);

 private:
  SchemaPtr last_;
  // appended()'s previous input schema (held so its address cannot be reused), name and output.
  SchemaPtr appended_in_;
  std::string appended_name_;
  SchemaPtr appended_out_;
};

// Rows whose columns are `cols` of `row`, for grouping and dedup keys.
Row project(const Row& row, const std::vector<std::string>& cols);

}  // namespace streamsim
