// Order-preserving encoding of Values and Rows (row_encoding.h). Format: docs/state-format.md
// §1. One writer (encodeOrderedValue) and one reader (decodeOrderedValue).
#include "streamsim/state/row_encoding.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace streamsim {
namespace {

// Type tags. Null sorts before every other tag; within one type the payload decides.
constexpr uint8_t kTagNull = 0x01;
constexpr uint8_t kTagFalse = 0x02;
constexpr uint8_t kTagTrue = 0x03;
constexpr uint8_t kTagInt = 0x10;
constexpr uint8_t kTagLong = 0x11;
constexpr uint8_t kTagTimestamp = 0x12;
constexpr uint8_t kTagDouble = 0x13;
constexpr uint8_t kTagDate = 0x14;
constexpr uint8_t kTagBinary = 0x21;
constexpr uint8_t kTagString = 0x20;
// Nested values: the tag, then each item preceded by kItem, then kEnd (a prefix sorts first).
// A struct's items are its fields, a map's its keys and values interleaved.
constexpr uint8_t kTagStruct = 0x30;
constexpr uint8_t kTagArray = 0x31;
constexpr uint8_t kTagMap = 0x32;
constexpr char kItem = '\x02';
constexpr char kEnd = '\x01';

// Strings: 0x00 inside the string is written 0x00 0xFF; the string ends with 0x00 0x01.
constexpr char kEscape = '\x00';
constexpr char kEscapedZero = '\xFF';
constexpr char kTerminator = '\x01';

void putBigEndian(uint64_t x, int bytes, std::string& out) {
  // One append instead of a push_back per byte (this runs for every key and value stored).
  char buf[8];
  for (int i = 0; i < bytes; ++i) buf[i] = static_cast<char>((x >> (8 * (bytes - 1 - i))) & 0xFF);
  out.append(buf, static_cast<size_t>(bytes));
}

// A type tag and `bytes` big-endian bytes of x, in one resize (state values are mostly one
// tagged number: a count).
void putTagged(uint8_t tag, uint64_t x, int bytes, std::string& out) {
  const size_t at = out.size();
  out.resize(at + 1 + static_cast<size_t>(bytes));
  char* p = out.data() + at;
  p[0] = static_cast<char>(tag);
  for (int i = 0; i < bytes; ++i) p[1 + i] = static_cast<char>((x >> (8 * (bytes - 1 - i))) & 0xFF);
}

uint64_t getBigEndian(std::string_view in, int bytes) {
  uint64_t x = 0;
  for (int i = 0; i < bytes; ++i) x = (x << 8) | static_cast<uint8_t>(in[i]);
  return x;
}

uint64_t orderedDoubleBits(double d) {
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();  // one NaN, after +inf
  if (d == 0.0) d = 0.0;                                             // -0.0 == 0.0
  uint64_t bits = std::bit_cast<uint64_t>(d);
  return (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
}

double doubleFromOrderedBits(uint64_t bits) {
  bits = (bits & (uint64_t{1} << 63)) ? bits & ~(uint64_t{1} << 63) : ~bits;
  return std::bit_cast<double>(bits);
}

Status truncated(std::string_view what) {
  return Status::Corruption(fmt::format("ordered encoding: truncated {}", what));
}

}  // namespace

void encodeOrderedValue(const Value& v, std::string& out) {
  switch (v.type()) {
    case Type::kNull:
      out.push_back(static_cast<char>(kTagNull));
      return;
    case Type::kBoolean:
      out.push_back(static_cast<char>(v.asBool() ? kTagTrue : kTagFalse));
      return;
    case Type::kInt:
      putTagged(kTagInt, static_cast<uint32_t>(static_cast<int32_t>(v.asLong())) ^ 0x80000000u, 4, out);
      return;
    case Type::kLong:
    case Type::kTimestamp:
    case Type::kDate:
      putTagged(v.type() == Type::kLong ? kTagLong : v.type() == Type::kDate ? kTagDate : kTagTimestamp,
                static_cast<uint64_t>(v.asLong()) ^ (uint64_t{1} << 63), 8, out);
      return;
    case Type::kDouble:
      out.push_back(static_cast<char>(kTagDouble));
      putBigEndian(orderedDoubleBits(v.asDouble()), 8, out);
      return;
    case Type::kString:
    case Type::kBinary: {
      const uint8_t tag = v.type() == Type::kString ? kTagString : kTagBinary;
      std::string_view s = v.asString();
      if (s.find(kEscape) == std::string_view::npos) {
        // Mostly no zero byte: tag, bytes and terminator written in one resize.
        const size_t at = out.size();
        out.resize(at + s.size() + 3);
        char* p = out.data() + at;
        p[0] = static_cast<char>(tag);
        std::memcpy(p + 1, s.data(), s.size());
        p[s.size() + 1] = kEscape;
        p[s.size() + 2] = kTerminator;
        return;
      }
      // Runs between zero bytes are appended whole; each zero byte gets its escape.
      out.reserve(out.size() + s.size() + 3);
      out.push_back(static_cast<char>(tag));
      while (true) {
        size_t zero = s.find(kEscape);
        out.append(s.substr(0, zero));
        if (zero == std::string_view::npos) break;
        out.push_back(kEscape);
        out.push_back(kEscapedZero);
        s.remove_prefix(zero + 1);
      }
      out.push_back(kEscape);
      out.push_back(kTerminator);
      return;
    }
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap:
      out.push_back(static_cast<char>(v.type() == Type::kStruct  ? kTagStruct
                                      : v.type() == Type::kArray ? kTagArray
                                                                 : kTagMap));
      for (const Value& item : v.items()) {
        out.push_back(kItem);
        encodeOrderedValue(item, out);
      }
      out.push_back(kEnd);
      return;
  }
}

void beginOrderedArray(std::string& out) { out.push_back(static_cast<char>(kTagArray)); }
void orderedArrayElement(std::string& out) { out.push_back(kItem); }
void endOrderedArray(std::string& out) { out.push_back(kEnd); }

namespace {
// Consumes the type tag of a nested value of `tag` ("an array", "a struct").
Status readNestedBegin(std::string_view& in, uint8_t tag, std::string_view what) {
  if (in.empty()) return truncated(fmt::format("{} (no type tag)", what));
  if (static_cast<uint8_t>(in[0]) != tag)
    return Status::Corruption(fmt::format("ordered encoding: expected {}, found type tag 0x{:02x}", what,
                                          static_cast<uint8_t>(in[0])));
  in.remove_prefix(1);
  return Status::OK();
}
}  // namespace

Status readOrderedArrayBegin(std::string_view& in) { return readNestedBegin(in, kTagArray, "an array"); }

// The item marker or the end of any nested value (struct, array, map).
Result<bool> readOrderedArrayNext(std::string_view& in) {
  if (in.empty()) return truncated("nested value (no end)");
  const char c = in[0];
  in.remove_prefix(1);
  if (c == kItem) return true;
  if (c == kEnd) return false;
  return Status::Corruption(
      fmt::format("ordered encoding: bad item marker 0x{:02x}", static_cast<uint8_t>(c)));
}

bool readOrderedNull(std::string_view& in) {
  if (in.empty() || static_cast<uint8_t>(in[0]) != kTagNull) return false;
  in.remove_prefix(1);
  return true;
}

namespace {
// Nested values deeper than this are corrupt bytes, not a stack overflow.
constexpr int kMaxNesting = 64;
Result<Value> decodeAt(std::string_view& in, int depth);
}  // namespace

Result<Value> decodeOrderedValue(std::string_view& in) { return decodeAt(in, 0); }

namespace {
Result<Value> decodeAt(std::string_view& in, int depth) {
  if (in.empty()) return truncated("value (no type tag)");
  uint8_t tag = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  switch (tag) {
    case kTagNull: return Value();
    case kTagFalse: return Value(false);
    case kTagTrue: return Value(true);
    case kTagInt: {
      if (in.size() < 4) return truncated("int");
      auto x = static_cast<uint32_t>(getBigEndian(in, 4)) ^ 0x80000000u;
      in.remove_prefix(4);
      return Value(static_cast<int32_t>(x));
    }
    case kTagLong:
    case kTagTimestamp:
    case kTagDate: {
      if (in.size() < 8) return truncated(tag == kTagLong ? "long" : tag == kTagDate ? "date" : "timestamp");
      auto x = static_cast<int64_t>(getBigEndian(in, 8) ^ (uint64_t{1} << 63));
      in.remove_prefix(8);
      return tag == kTagLong ? Value(x) : tag == kTagDate ? Value::date(x) : Value::timestamp(x);
    }
    case kTagDouble: {
      if (in.size() < 8) return truncated("double");
      double d = doubleFromOrderedBits(getBigEndian(in, 8));
      in.remove_prefix(8);
      return Value(d);
    }
    case kTagString:
    case kTagBinary: {
      std::string s;
      size_t i = 0;
      while (true) {
        // Bytes up to the next zero byte are copied whole.
        size_t zero = in.find(kEscape, i);
        if (zero == std::string_view::npos) return truncated("string (no terminator)");
        s.append(in.substr(i, zero - i));
        i = zero + 1;
        if (i >= in.size()) return truncated("string (escape at end)");
        char next = in[i++];
        if (next == kTerminator) break;
        if (next != kEscapedZero)
          return Status::Corruption(fmt::format(
              "ordered encoding: bad escape 0x00 0x{:02x} in string", static_cast<uint8_t>(next)));
        s.push_back('\0');
      }
      in.remove_prefix(i);
      return tag == kTagBinary ? Value::binary(std::move(s)) : Value(std::move(s));
    }
    case kTagStruct:
    case kTagArray:
    case kTagMap: {
      if (depth >= kMaxNesting)
        return Status::Corruption(fmt::format("ordered encoding: values nested deeper than {}", kMaxNesting));
      std::vector<Value> items;
      while (true) {
        STREAMSIM_ASSIGN_OR_RETURN(bool more, readOrderedArrayNext(in));
        if (!more) break;
        STREAMSIM_ASSIGN_OR_RETURN(Value item, decodeAt(in, depth + 1));
        items.push_back(std::move(item));
      }
      if (tag == kTagArray) return Value::arrayOf(std::move(items));
      if (tag == kTagMap) {
        if (items.size() % 2 != 0) return Status::Corruption("ordered encoding: a map with a key but no value");
        std::vector<std::pair<Value, Value>> entries;
        for (size_t i = 0; i < items.size(); i += 2)
          entries.emplace_back(std::move(items[i]), std::move(items[i + 1]));
        auto m = Value::mapOf(std::move(entries));
        if (!m.ok()) return Status::Corruption("ordered encoding: " + m.status().message());
        return m;
      }
      // Without the schema the fields are named _1, _2, ... (decodeOrderedValue(in, f) names them).
      std::vector<Field> fields;
      for (size_t i = 0; i < items.size(); ++i) fields.push_back(fieldOf("_" + std::to_string(i + 1), items[i]));
      return Value::structOf(makeSchema(std::move(fields)), std::move(items));
    }
    default:
      return Status::Corruption(fmt::format("ordered encoding: unknown type tag 0x{:02x}", tag));
  }
}
}  // namespace

Status encodeOrderedStructOf(std::string_view fields, std::string& out) {
  const size_t at = out.size();
  out.push_back(static_cast<char>(kTagStruct));
  for (int n = 1; !fields.empty(); ++n) {
    const std::string_view field = fields;
    auto v = decodeOrderedValue(fields);  // only to find where the field ends
    if (!v.ok()) {
      out.resize(at);
      return v.status().withContext(fmt::format("struct field {}", n));
    }
    out.push_back(kItem);
    out.append(field.substr(0, field.size() - fields.size()));
  }
  out.push_back(kEnd);
  return Status::OK();
}

Result<std::string> readOrderedStructFields(std::string_view& in) {
  std::string_view rest = in;
  STREAMSIM_RETURN_IF_ERROR(readNestedBegin(rest, kTagStruct, "a struct"));
  std::string fields;
  while (true) {
    STREAMSIM_ASSIGN_OR_RETURN(bool more, readOrderedArrayNext(rest));
    if (!more) break;
    const std::string_view field = rest;
    STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeAt(rest, 1));  // only to find where the field ends
    (void)v;
    fields.append(field.substr(0, field.size() - rest.size()));
  }
  in = rest;
  return fields;
}

Result<Value> decodeOrderedValue(std::string_view& in, const Field& f) {
  STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
  if (v.isNull()) return v;
  if (v.type() != f.type)
    return Status::Corruption(fmt::format("ordered encoding: field '{}' holds a {}, its type is {}", f.name,
                                          typeName(v.type()), typeDDL(f)));
  if (!f.nested) return v;
  auto typed = v.castTo(f);
  if (!typed.ok()) return Status::Corruption(fmt::format("ordered encoding: field '{}': {}", f.name, typed.status().message()));
  return typed;
}

Status decodeOrderedValueInto(std::string_view& in, Value& out) {
  // A string without zero bytes (the usual key) is copied straight into `out`.
  if (!in.empty() && static_cast<uint8_t>(in[0]) == kTagString) {
    size_t zero = in.find(kEscape, 1);
    if (zero != std::string_view::npos && zero + 1 < in.size() && in[zero + 1] == kTerminator) {
      out.setString(in.substr(1, zero - 1));
      in.remove_prefix(zero + 2);
      return Status::OK();
    }
  }
  STREAMSIM_ASSIGN_OR_RETURN(out, decodeOrderedValue(in));
  return Status::OK();
}

std::string encodeOrderedRow(const Row& row) {
  std::string out;
  for (const Value& v : row.values()) encodeOrderedValue(v, out);
  return out;
}

Result<Row> decodeOrderedRow(std::string_view in, const SchemaPtr& schema) {
  std::vector<Value> values;
  values.reserve(schema->size());
  while (!in.empty()) {
    if (values.size() == schema->size())
      return Status::Corruption(fmt::format(
          "ordered encoding: more than {} values for schema '{}'", schema->size(), schema->toDDL()));
    const Field& f = schema->field(values.size());
    if (f.nested) {
      auto typed = decodeOrderedValue(in, f);
      if (!typed.ok()) return typed.status().withContext(fmt::format("schema '{}'", schema->toDDL()));
      values.push_back(std::move(typed).value());
      continue;
    }
    STREAMSIM_ASSIGN_OR_RETURN(Value v, decodeOrderedValue(in));
    if (!v.isNull() && v.type() != f.type)
      return Status::Corruption(fmt::format("ordered encoding: field '{}' holds a {}, schema '{}' says {}",
                                            f.name, typeName(v.type()), schema->toDDL(), typeName(f.type)));
    values.push_back(std::move(v));
  }
  // A row written before nullable fields were appended to the schema (schema evolution,
  // state_schema.h) reads back with nulls in the new trailing fields.
  for (size_t i = values.size(); i < schema->size(); ++i) {
    if (!schema->field(i).nullable)
      return Status::Corruption(fmt::format(
          "ordered encoding: {} values for schema '{}'; missing field '{}' is not nullable",
          values.size(), schema->toDDL(), schema->field(i).name));
    values.emplace_back();
  }
  return Row(schema, std::move(values));
}

}  // namespace streamsim
