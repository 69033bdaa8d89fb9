// StateCodec<T>: how a transformWithState state variable turns a C++ value into the bytes kept in
// the state store and back (DESIGN.md §3). Built-ins: int32_t, int64_t, double, bool, std::string,
// Row (with a schema, nested struct/array/map columns included), std::tuple, std::vector (an
// array) and std::optional (a nullable value) of codec-able types. Users specialise StateCodec for their own
// structs (docs/processors.md). Codecs are small immutable values; thread-safe to share.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "streamsim/state/row_encoding.h"
#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

// Thrown by state variables, the handle and codecs when processor code breaks a rule of the
// transformWithState API (SEMANTICS.md §6). It carries Spark's error condition and its message
// parameters (spark_errors.h); the message reads "[CONDITION] Spark's message (streamsim hint)".
// The operator turns it into a failed task whose Status carries the condition, the parameters and
// the message (a processor that catches it still fails: the handle remembers the first violation).
class StatefulProcessorError : public std::runtime_error {
 public:
  StatefulProcessorError(std::string condition, ErrorParams parameters, const std::string& message)
      : std::runtime_error(message), rule_(std::move(condition)), parameters_(std::move(parameters)) {}
  // A streamsim-only rule without parameters.
  StatefulProcessorError(std::string rule, const std::string& message)
      : StatefulProcessorError(std::move(rule), {}, message) {}
  // Spark's condition: "STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
  // "ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE", ... (a few streamsim-only rules have a
  // STREAMSIM_ name: docs/processors.md "Error conditions").
  const std::string& rule() const { return rule_; }
  const std::string& condition() const { return rule_; }
  const ErrorParams& parameters() const { return parameters_; }

 private:
  std::string rule_;
  ErrorParams parameters_;
};

// The codec contract (a specialisation must provide all three; isNull is optional):
//   std::string schemaDDL() const;                      // e.g. "value long", recorded as schema
//   void encode(const T& v, std::string& out) const;    // appends a self-delimiting encoding
//   Result<T> decode(std::string_view& in) const;       // reads one value, advancing `in`
//   bool isNull(const T& v) const;                      // optional: values ListState/MapState reject
// A codec without typeName() is a struct codec (Row, std::tuple, a user's struct): its encoding is
// its columns one after another, one ordered value (row_encoding.h) per schemaDDL() field — a state
// value's layout. Inside another value (a vector's element, a tuple's field) it is one struct
// value, as its recorded type `struct<...>` says: detail::encodeNested frames it.
// The primary template is deliberately undefined: using a type without a codec fails to compile
// here, naming StateCodec<YourType>.
template <class T>
struct StateCodec;

namespace detail {
// Decodes one ordered Value and checks its type group.
Result<Value> decodeStateValue(std::string_view& in, Type expected);
// Reads `v` as `t` (with Spark's casts: int <-> long, ...). Throws StatefulProcessorError.
Value castForCodec(const Value& v, Type t, std::string_view what);
// The same for a column of any type (nested included).
Value castForCodec(const Value& v, const Field& f, std::string_view what);

// The type a codec's values have in a DDL ("long", "struct<count long>", "array<long>").
template <class C>
std::string codecTypeName(const C& c) {
  if constexpr (requires { c.typeName(); }) {
    return std::string(c.typeName());
  } else {
    return "struct<" + c.schemaDDL() + ">";
  }
}

// A struct codec's columns as one struct value (row_encoding.h's encodeOrderedStructOf; read back
// with readOrderedStructFields). Throws StatefulProcessorError (STATE_VALUE_TYPE) when the
// columns are not ordered values.
void frameStructColumns(std::string_view columns, std::string& out);

// How a value of codec `c` is written inside another value: a struct codec framed as one struct
// value, any other codec as it encodes itself (std::optional frames what it holds).
template <class C, class T>
void encodeNested(const C& c, const T& v, std::string& out) {
  if constexpr (requires { c.encodeNested(v, out); }) {
    c.encodeNested(v, out);
  } else if constexpr (requires { c.typeName(); }) {
    c.encode(v, out);
  } else {
    std::string columns;
    c.encode(v, columns);
    frameStructColumns(columns, out);
  }
}
template <class C>
auto decodeNested(const C& c, std::string_view& in) -> decltype(c.decode(in)) {
  if constexpr (requires { c.decodeNested(in); }) {
    return c.decodeNested(in);
  } else if constexpr (requires { c.typeName(); }) {
    return c.decode(in);
  } else {
    auto columns = readOrderedStructFields(in);
    if (!columns.ok()) return columns.status();
    std::string_view rest = *columns;
    auto r = c.decode(rest);
    if (!r.ok()) return r.status();
    if (!rest.empty())
      return Status::Corruption(std::to_string(rest.size()) + " bytes of a struct after its columns");
    return r;
  }
}
}  // namespace detail

#define STREAMSIM_PRIMITIVE_STATE_CODEC(CppType, TypeEnum, DdlType, FromValue)              \
  template <>                                                                              \
  struct StateCodec<CppType> {                                                             \
    std::string schemaDDL() const { return "value " DdlType; }                             \
    std::string_view typeName() const { return DdlType; }                                  \
    void encode(const CppType& v, std::string& out) const { encodeOrderedValue(Value(v), out); } \
    Result<CppType> decode(std::string_view& in) const {                                   \
      auto r = detail::decodeStateValue(in, TypeEnum);                                     \
      if (!r.ok()) return r.status();                                                      \
      const Value& value = r.value();                                                      \
      return FromValue;                                                                    \
    }                                                                                      \
  }

STREAMSIM_PRIMITIVE_STATE_CODEC(int32_t, Type::kInt, "int", static_cast<int32_t>(value.asLong()));
STREAMSIM_PRIMITIVE_STATE_CODEC(int64_t, Type::kLong, "long", value.asLong());
STREAMSIM_PRIMITIVE_STATE_CODEC(double, Type::kDouble, "double", value.asDouble());
STREAMSIM_PRIMITIVE_STATE_CODEC(bool, Type::kBoolean, "boolean", value.asBool());
STREAMSIM_PRIMITIVE_STATE_CODEC(std::string, Type::kString, "string", value.asString());

#undef STREAMSIM_PRIMITIVE_STATE_CODEC

// Rows are stored column by column in the codec's schema order (missing columns as null, values
// cast to the declared type). A Row with no columns counts as null.
template <>
struct StateCodec<Row> {
  StateCodec() : schema(makeSchema({})) {}
  explicit StateCodec(SchemaPtr s) : schema(std::move(s)) {}
  // From a DDL string ("count long, name string"); throws StatefulProcessorError if malformed.
  explicit StateCodec(std::string_view ddl);
  SchemaPtr schema;
  std::string schemaDDL() const { return schema->toDDL(); }
  void encode(const Row& row, std::string& out) const;
  Result<Row> decode(std::string_view& in) const;
  bool isNull(const Row& row) const { return row.size() == 0; }
};

// Shorthand: handle.getValueState<Row>("v", rowCodec("count long")).
inline StateCodec<Row> rowCodec(std::string_view ddl) { return StateCodec<Row>(ddl); }

// Tuples: the elements one after another (an element of a struct codec as one struct value).
// Schema "_1 long, _2 string" (element names _1.._n).
template <class... Ts>
struct StateCodec<std::tuple<Ts...>> {
  std::tuple<StateCodec<Ts>...> elements;

  std::string schemaDDL() const {
    std::string ddl;
    size_t i = 0;
    std::apply(
        [&](const auto&... c) {
          ((ddl += (i ? ", " : ""), ddl += "_" + std::to_string(++i) + " " + elementType(c)), ...);
        },
        elements);
    return ddl;
  }
  void encode(const std::tuple<Ts...>& v, std::string& out) const {
    encodeAt(v, out, std::index_sequence_for<Ts...>{});
  }
  Result<std::tuple<Ts...>> decode(std::string_view& in) const {
    std::tuple<Ts...> v;
    Status st = decodeAt(v, in, std::index_sequence_for<Ts...>{});
    if (!st.ok()) return st;
    return v;
  }

 private:
  template <class C>
  static std::string elementType(const C& c) {
    return detail::codecTypeName(c);
  }
  template <size_t... I>
  void encodeAt(const std::tuple<Ts...>& v, std::string& out, std::index_sequence<I...>) const {
    (detail::encodeNested(std::get<I>(elements), std::get<I>(v), out), ...);
  }
  template <size_t... I>
  Status decodeAt(std::tuple<Ts...>& v, std::string_view& in, std::index_sequence<I...>) const {
    Status st;
    auto one = [&](auto& slot, const auto& codec) {
      if (!st.ok()) return;
      auto r = detail::decodeNested(codec, in);
      if (!r.ok()) {
        st = r.status();
        return;
      }
      slot = std::move(r).value();
    };
    (one(std::get<I>(v), std::get<I>(elements)), ...);
    return st;
  }
};

// Vectors: an array of the elements (Spark's ArrayType; schema "value array<long>"; a Row or
// tuple element is a struct value: "value array<struct<a long>>").
template <class T>
struct StateCodec<std::vector<T>> {
  StateCodec<T> element;
  std::string typeName() const { return "array<" + detail::codecTypeName(element) + ">"; }
  std::string schemaDDL() const { return "value " + typeName(); }
  void encode(const std::vector<T>& v, std::string& out) const {
    beginOrderedArray(out);
    for (const T& e : v) {
      orderedArrayElement(out);
      detail::encodeNested(element, e, out);
    }
    endOrderedArray(out);
  }
  Result<std::vector<T>> decode(std::string_view& in) const {
    std::vector<T> v;
    Status st = readOrderedArrayBegin(in);
    if (!st.ok()) return st;
    while (true) {
      auto more = readOrderedArrayNext(in);
      if (!more.ok()) return more.status();
      if (!*more) return v;
      auto e = detail::decodeNested(element, in);
      if (!e.ok()) return e.status().withContext("element " + std::to_string(v.size()));
      v.push_back(std::move(e).value());
    }
  }
};

// Optionals: the value, or a null (std::nullopt; a ValueState's update rejects it as Spark
// rejects a null value, a field of a tuple or an element of a vector may be one).
template <class T>
struct StateCodec<std::optional<T>> {
  StateCodec<T> inner;
  std::string typeName() const { return detail::codecTypeName(inner); }
  std::string schemaDDL() const { return inner.schemaDDL(); }
  void encode(const std::optional<T>& v, std::string& out) const {
    if (v) {
      inner.encode(*v, out);
    } else {
      encodeOrderedValue(Value(), out);
    }
  }
  Result<std::optional<T>> decode(std::string_view& in) const {
    if (readOrderedNull(in)) return std::optional<T>();
    auto r = inner.decode(in);
    if (!r.ok()) return r.status();
    return std::optional<T>(std::move(r).value());
  }
  // Inside another value: null, or the value as its codec writes it there.
  void encodeNested(const std::optional<T>& v, std::string& out) const {
    if (v) {
      detail::encodeNested(inner, *v, out);
    } else {
      encodeOrderedValue(Value(), out);
    }
  }
  Result<std::optional<T>> decodeNested(std::string_view& in) const {
    if (readOrderedNull(in)) return std::optional<T>();
    auto r = detail::decodeNested(inner, in);
    if (!r.ok()) return r.status();
    return std::optional<T>(std::move(r).value());
  }
  bool isNull(const std::optional<T>& v) const { return !v.has_value(); }
};

namespace detail {
template <class C, class T>
bool codecIsNull(const C& codec, const T& v) {
  if constexpr (requires { codec.isNull(v); }) {
    return codec.isNull(v);
  } else {
    return false;
  }
}

template <class C, class T>
std::string encodeWith(const C& codec, const T& v) {
  std::string out;
  codec.encode(v, out);
  return out;
}

// Decodes a whole stored value; throws StatefulProcessorError naming the state variable when the
// bytes do not decode (a schema mismatch or corrupt state).
[[noreturn]] void throwDecodeError(std::string_view stateName, const Status& st);

template <class C>
auto decodeWith(const C& codec, std::string_view bytes, std::string_view stateName) {
  std::string_view in = bytes;
  auto r = codec.decode(in);
  if (!r.ok()) throwDecodeError(stateName, r.status());
  if (!in.empty())
    throwDecodeError(stateName, Status::Corruption(std::to_string(in.size()) +
                                                   " trailing bytes after the value"));
  return std::move(r).value();
}
}  // namespace detail

}  // namespace streamsim
