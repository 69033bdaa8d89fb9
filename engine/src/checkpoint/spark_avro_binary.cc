// spark_avro_binary.h. From Spark 4.1's sql/avro SchemaConverters (toAvroType,
// toAvroTypeWithDefaults: the union each field becomes), AvroSerializer (the value each Spark type
// is written as) and Decimal.minBytesForPrecision; the encoding itself is Avro's binary encoding
// (zig-zag varints, length-prefixed strings and bytes, little-endian float/double, blocked arrays
// and maps, a union as its branch index then the value).
#include "spark_avro_binary.h"

#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace streamsim::detail {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 64;

Status bad(size_t at, const std::string& what) {
  return Status::FailedPrecondition(fmt::format("Avro byte {}: {}", at, what));
}

std::string typeNameOf(const json& type) {
  if (type.is_string()) {
    std::string t = type.get<std::string>();
    return t.rfind("decimal", 0) == 0 ? "decimal" : t;
  }
  if (type.is_object() && type.contains("type") && type["type"].is_string()) return type["type"].get<std::string>();
  return "?";
}

// Decimal.minBytesForPrecision: the fewest bytes whose two's complement holds 10^precision.
int minBytesForPrecision(int precision) {
  int n = 1;
  while (std::pow(2.0, 8 * n - 1) < std::pow(10.0, precision)) ++n;
  return n;
}

// An unscaled big-endian two's complement integer with `scale` digits after the point.
std::string decimalText(std::string_view be, int scale) {
  __int128 v = (!be.empty() && (static_cast<unsigned char>(be[0]) & 0x80)) ? -1 : 0;
  for (unsigned char c : be) v = (v << 8) | c;
  const bool negative = v < 0;
  unsigned __int128 mag = negative ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  } while (mag != 0);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  return (negative ? "-" : "") + digits;
}

struct Reader {
  std::string_view bytes;
  size_t& pos;
  SparkAvroSchemaStyle style;

  Result<json> value(const json& type, const std::string& name, int depth);

  // A value that Spark's schema wraps in a union with null: its branch index first.
  Result<json> maybeNull(const json& type, bool wrapped, const std::string& name, int depth) {
    if (!wrapped) return value(type, name, depth);
    const size_t at = pos;
    STREAMSIM_ASSIGN_OR_RETURN(int64_t branch, readAvroLong(bytes, pos));
    const int64_t nullBranch = style == SparkAvroSchemaStyle::kWithDefaults ? 0 : 1;
    if (branch == nullBranch) return json(nullptr);
    if (branch != 1 - nullBranch)
      return bad(at, fmt::format("{}: union branch {} (the schema's union of {} has branches 0 and 1)", name, branch,
                                 style == SparkAvroSchemaStyle::kWithDefaults ? "null and the type" : "the type and null"));
    return value(type, name, depth);
  }

  // Whether a nested value (array element, map value) is a union with null.
  bool nestedWrapped(const json& type, bool containsNull) const {
    if (style == SparkAvroSchemaStyle::kPlain) return containsNull;
    std::string t = typeNameOf(type);
    return t == "struct" || t == "array" || t == "map";
  }

  Result<json> record(const std::vector<SparkField>& fields, int depth) {
    json out = json::object();
    for (const auto& f : fields) {
      json type = json::parse(f.typeJson, nullptr, false);
      std::string t = typeNameOf(type);
      const bool isNull = t == "null" || t == "void";
      const bool wrapped = !isNull && (style == SparkAvroSchemaStyle::kWithDefaults || f.nullable);
      STREAMSIM_ASSIGN_OR_RETURN(out[f.name], maybeNull(type, wrapped, f.name, depth + 1));
    }
    return out;
  }

  // Avro's blocks: a count (negative: its absolute value, then the block's byte size), items,
  // ended by a zero count.
  template <typename Item>
  Status blocks(const std::string& name, Item item) {
    for (;;) {
      const size_t at = pos;
      STREAMSIM_ASSIGN_OR_RETURN(int64_t count, readAvroLong(bytes, pos));
      if (count == 0) return Status::OK();
      if (count < 0) {
        count = -count;
        STREAMSIM_ASSIGN_OR_RETURN(int64_t size, readAvroLong(bytes, pos));
        (void)size;
      }
      if (static_cast<uint64_t>(count) > bytes.size() - pos + 1)
        return bad(at, fmt::format("{}: a block of {} items in {} bytes", name, count, bytes.size() - pos));
      for (int64_t i = 0; i < count; ++i) STREAMSIM_RETURN_IF_ERROR(item());
    }
  }
};

Result<json> Reader::value(const json& type, const std::string& name, int depth) {
  if (depth > kMaxDepth) return bad(pos, name + ": nested deeper than " + std::to_string(kMaxDepth));
  const std::string t = typeNameOf(type);
  const size_t at = pos;
  auto fixed = [&](size_t n) -> Result<std::string_view> {
    if (bytes.size() - pos < n) return bad(at, fmt::format("{}: {} needs {} bytes, {} left", name, t, n, bytes.size() - pos));
    std::string_view v = bytes.substr(pos, n);
    pos += n;
    return v;
  };
  if (t == "null" || t == "void") return json(nullptr);
  if (t == "boolean") {
    STREAMSIM_ASSIGN_OR_RETURN(std::string_view b, fixed(1));
    if (b[0] != 0 && b[0] != 1) return bad(at, fmt::format("{}: boolean byte {}", name, static_cast<int>(b[0])));
    return json(b[0] == 1);
  }
  if (t == "byte" || t == "short" || t == "integer" || t == "date") {
    STREAMSIM_ASSIGN_OR_RETURN(int64_t v, readAvroLong(bytes, pos));
    const int64_t lo = t == "byte" ? -128 : t == "short" ? -32768 : INT32_MIN;
    const int64_t hi = t == "byte" ? 127 : t == "short" ? 32767 : INT32_MAX;
    if (v < lo || v > hi) return bad(at, fmt::format("{}: {} is outside Spark's {}", name, v, t));
    if (t == "date") return json(sparkDaysText(static_cast<int32_t>(v)));
    return json(v);
  }
  if (t == "long" || t == "timestamp" || t == "timestamp_ntz") {
    STREAMSIM_ASSIGN_OR_RETURN(int64_t v, readAvroLong(bytes, pos));
    if (t != "long") return json(sparkMicrosText(v));
    return json(v);
  }
  if (t == "float" || t == "double") {  // IEEE 754, little-endian
    const size_t width = t == "float" ? 4 : 8;
    STREAMSIM_ASSIGN_OR_RETURN(std::string_view b, fixed(width));
    uint64_t bits = 0;
    for (size_t i = width; i-- > 0;) bits = (bits << 8) | static_cast<unsigned char>(b[i]);
    double d;
    if (width == 4) {
      float f;
      const auto b32 = static_cast<uint32_t>(bits);
      std::memcpy(&f, &b32, 4);
      d = f;
    } else {
      std::memcpy(&d, &bits, 8);
    }
    if (!std::isfinite(d)) return json(fmt::format("{}", d));
    return width == 4 ? json(static_cast<float>(d)) : json(d);
  }
  if (t == "string" || t == "binary") {
    STREAMSIM_ASSIGN_OR_RETURN(std::string_view b, readAvroBytes(bytes, pos));
    if (t == "string") return json(std::string(b));
    std::string hex = "0x";
    for (unsigned char c : b) hex += fmt::format("{:02x}", c);
    return json(hex);
  }
  if (t == "decimal") {
    int precision = 10, scale = 0;
    if (type.is_string()) std::sscanf(type.get<std::string>().c_str(), "decimal(%d,%d)", &precision, &scale);
    if (precision < 1 || precision > 38) return bad(at, fmt::format("{}: decimal precision {}", name, precision));
    STREAMSIM_ASSIGN_OR_RETURN(std::string_view b, fixed(static_cast<size_t>(minBytesForPrecision(precision))));
    return json(decimalText(b, scale));
  }
  if (t == "struct") return record(sparkStructFields(type.dump()), depth);
  if (t == "array") {
    const json element = type.value("elementType", json("?"));
    const bool wrapped = nestedWrapped(element, type.value("containsNull", true));
    json out = json::array();
    STREAMSIM_RETURN_IF_ERROR(blocks(name, [&]() -> Status {
      STREAMSIM_ASSIGN_OR_RETURN(json v, maybeNull(element, wrapped, name + "[]", depth + 1));
      out.push_back(std::move(v));
      return Status::OK();
    }));
    return out;
  }
  if (t == "map") {
    if (typeNameOf(type.value("keyType", json("?"))) != "string")
      return bad(at, fmt::format("{}: a map whose keys are not strings (Spark's Avro writes only string keys)", name));
    const json valueType = type.value("valueType", json("?"));
    const bool wrapped = nestedWrapped(valueType, type.value("valueContainsNull", true));
    json out = json::object();
    STREAMSIM_RETURN_IF_ERROR(blocks(name, [&]() -> Status {
      STREAMSIM_ASSIGN_OR_RETURN(std::string_view k, readAvroBytes(bytes, pos));
      STREAMSIM_ASSIGN_OR_RETURN(json v, maybeNull(valueType, wrapped, name + "[" + std::string(k) + "]", depth + 1));
      out[std::string(k)] = std::move(v);
      return Status::OK();
    }));
    return out;
  }
  return bad(at, fmt::format("{}: Spark type {} has no Avro form in SchemaConverters", name, type.dump()));
}

}  // namespace

Result<int64_t> readAvroLong(std::string_view bytes, size_t& pos) {
  const size_t at = pos;
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    if (pos >= bytes.size()) return bad(at, "a varint runs past the end");
    if (shift > 63) return bad(at, "a varint longer than 10 bytes");
    auto b = static_cast<unsigned char>(bytes[pos++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));  // zig-zag
}

Result<std::string_view> readAvroBytes(std::string_view bytes, size_t& pos) {
  const size_t at = pos;
  STREAMSIM_ASSIGN_OR_RETURN(int64_t len, readAvroLong(bytes, pos));
  if (len < 0 || static_cast<uint64_t>(len) > bytes.size() - pos)
    return bad(at, fmt::format("a length of {} with {} bytes left", len, bytes.size() - pos));
  std::string_view out = bytes.substr(pos, static_cast<size_t>(len));
  pos += static_cast<size_t>(len);
  return out;
}

Result<json> decodeSparkAvroRecord(std::string_view bytes, size_t& pos, const std::vector<SparkField>& fields,
                                   SparkAvroSchemaStyle style) {
  Reader r{bytes, pos, style};
  return r.record(fields, 0);
}

Result<json> decodeSparkAvroRow(std::string_view bytes, const std::vector<SparkField>& fields,
                                SparkAvroSchemaStyle style) {
  size_t pos = 0;
  STREAMSIM_ASSIGN_OR_RETURN(json out, decodeSparkAvroRecord(bytes, pos, fields, style));
  if (pos != bytes.size())
    return bad(pos, fmt::format("{} bytes left after the record of {} field(s)", bytes.size() - pos, fields.size()));
  return out;
}

}  // namespace streamsim::detail
