// spark_rocksdb_rows.h. From Spark 4.1's RocksDBStateEncoder.scala (RocksDBDataEncoder.
// encodeUnsafeRow / decodeToUnsafeRow, PrefixKeyScanStateEncoder, NoPrefixKeyStateEncoder,
// MultiValuedStateEncoder, SingleValueStateEncoder) and RocksDBStateStoreProvider.scala
// (STATE_ENCODING_VERSION, VIRTUAL_COL_FAMILY_PREFIX_BYTES), RangeKeyScanStateEncoder and
// UnsafeRowDataEncoder.encodePrefixKeyForRangeScan; the Avro encoding from AvroStateEncoder
// (encodeKey, encodeRemainingKey, encodeValue, encodePrefixKeyForRangeScan,
// encodeWithStateSchemaId) and StateStoreColumnFamilySchemaUtils.convertForRangeScan.
#include "streamsim/checkpoint/spark_rocksdb_rows.h"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "checkpoint/spark_avro_binary.h"

namespace streamsim {
namespace {

constexpr unsigned char kEncodingVersion = 0;  // RocksDBStateStoreProvider.STATE_ENCODING_VERSION

// Platform.getShort / getInt: the JVM's native order, little-endian where Spark runs.
int readLe(std::string_view b, size_t pos, int width) {
  uint32_t v = 0;
  for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[pos + static_cast<size_t>(i)]);
  return width == 2 ? static_cast<int16_t>(v) : static_cast<int32_t>(v);
}

// [version byte][UnsafeRow] -> the row's JSON, checked against `fields` when there are any.
Result<std::string> decodeEncoded(std::string_view bytes, const std::vector<SparkField>* fields,
                                  const std::string& what) {
  if (bytes.empty()) return Status::FailedPrecondition(what + ": empty (no encoder version byte)");
  if (static_cast<unsigned char>(bytes[0]) != kEncodingVersion)
    return Status::FailedPrecondition(fmt::format("{}: encoder version byte {} (Spark's UnsafeRow encoding "
                                                  "writes {}; Avro-encoded state is not read yet)", what,
                                                  static_cast<unsigned char>(bytes[0]), kEncodingVersion));
  std::string_view row = bytes.substr(1);
  if (fields != nullptr) {
    if (Status st = checkUnsafeRow(row, *fields); !st.ok())
      return Status::FailedPrecondition(fmt::format("{} does not match its schema: {}", what, st.message()));
  }
  return unsafeRowToJson(row, fields);
}

// Which part of a row an encoded piece is (AvroStateEncoder frames each differently).
enum class Part { kKey, kPrefix, kRemaining, kValue };

const char* partName(Part p) {
  return p == Part::kKey ? "key" : p == Part::kPrefix ? "key prefix" : p == Part::kRemaining ? "key's remaining part" : "value";
}

// One encoded piece of a row -> its JSON object, in the store's encoding.
Result<std::string> decodePart(const SparkRocksDBLayout& layout, const SparkColumnFamilySchema* schema,
                               std::string_view bytes, const std::vector<SparkField>* fields, Part part,
                               const std::string& what) {
  if (layout.encoding == SparkStateEncoding::kUnsafeRow) return decodeEncoded(bytes, fields, what);
  if (schema == nullptr || fields == nullptr)
    return Status::FailedPrecondition(what + ": Avro-encoded, and Avro bytes do not read without their schema "
                                             "(no schema file names this column family)");
  using detail::SparkAvroSchemaStyle;
  if (!schema->keySchemaId) {
    // Spark 4.0: a whole key as the version byte and Avro, a value as Avro alone (its golden
    // checkpoint's bytes: key 00 00 02 61 = version, union branch 0, "a"; value 02 = the long 1).
    if (part == Part::kPrefix || part == Part::kRemaining)
      return Status::FailedPrecondition(fmt::format(
          "{}: Spark 4.0's Avro encoding of a {} key is not read (a schema file without schema ids is Spark "
          "4.0's, whose golden checkpoints hold whole keys and values only)", what, schema->keyEncoder));
    if (part == Part::kKey) {
      if (bytes.empty() || static_cast<unsigned char>(bytes[0]) != kEncodingVersion)
        return Status::FailedPrecondition(fmt::format("{}: {} (Spark writes the encoder version byte {} first)", what,
                                                      bytes.empty() ? std::string("empty")
                                                                    : fmt::format("first byte {}", static_cast<unsigned char>(bytes[0])),
                                                      kEncodingVersion));
      bytes.remove_prefix(1);
    }
    auto row = detail::decodeSparkAvroRow(bytes, *fields, SparkAvroSchemaStyle::kPlain);
    if (!row.ok()) return Status::FailedPrecondition(fmt::format("{} does not match its schema: {}", what, row.status().message()));
    return row->dump();
  }
  // Spark 4.1: the version byte, a schema id except before a prefix, then Avro.
  if (bytes.empty()) return Status::FailedPrecondition(what + ": empty (no encoder version byte)");
  if (static_cast<unsigned char>(bytes[0]) != kEncodingVersion)
    return Status::FailedPrecondition(fmt::format("{}: encoder version byte {} (Spark writes {})", what,
                                                  static_cast<unsigned char>(bytes[0]), kEncodingVersion));
  bytes.remove_prefix(1);
  if (part != Part::kPrefix) {
    if (bytes.size() < 2) return Status::FailedPrecondition(what + ": no 2-byte schema id after the version byte");
    const int id = readLe(bytes, 0, 2);
    const int want = part == Part::kValue ? *schema->valueSchemaId : *schema->keySchemaId;
    if (id != want)
      return Status::FailedPrecondition(fmt::format(
          "{}: written with {} schema id {}, but the schema file read records id {} for {}'s {} (a row of an "
          "evolved schema: read the schema file that has id {})", what, part == Part::kValue ? "value" : "key", id,
          want, schema->name, part == Part::kValue ? "value" : "key", id));
    bytes.remove_prefix(2);
  }
  auto row = detail::decodeSparkAvroRow(bytes, *fields, SparkAvroSchemaStyle::kWithDefaults);
  if (!row.ok())
    return Status::FailedPrecondition(fmt::format("{} ({}) does not match its schema: {}", what, partName(part),
                                                  row.status().message()));
  return row->dump();
}

std::vector<SparkField> slice(const std::vector<SparkField>& all, size_t from, size_t to) {
  return std::vector<SparkField>(all.begin() + static_cast<long>(std::min(from, all.size())),
                                 all.begin() + static_cast<long>(std::min(to, all.size())));
}

// {"a":1} + {"b":2} -> {"a":1,"b":2}
std::string joinObjects(const std::string& a, const std::string& b) {
  if (a.size() <= 2) return b;
  if (b.size() <= 2) return a;
  return a.substr(0, a.size() - 1) + "," + b.substr(1);
}

uint64_t readLe64(std::string_view b, size_t pos) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[pos + static_cast<size_t>(i)]);
  return v;
}

// One ordering column of a range-scan key (UnsafeRowDataEncoder.encodePrefixKeyForRangeScan): a
// binary value of a marker byte (0x00 negative, 0x01 positive, 0x02 null) and the value
// big-endian; a negative float or double with all its bits flipped.
Result<nlohmann::json> decodeOrdered(std::string_view bytes, const SparkField& field, const std::string& what) {
  nlohmann::json type = nlohmann::json::parse(field.typeJson, nullptr, false);
  std::string t = type.is_string() ? type.get<std::string>() : std::string("?");
  size_t width = (t == "byte" || t == "boolean") ? 1 : t == "short" ? 2 : (t == "integer" || t == "float") ? 4 : (t == "long" || t == "double") ? 8 : 0;
  if (width == 0)
    return Status::FailedPrecondition(fmt::format("{}: ordering column {} of type {} (Spark orders only by fixed-size "
                                                  "numbers)", what, field.name, field.typeJson));
  if (bytes.empty()) return Status::FailedPrecondition(fmt::format("{}: column {} has no marker byte", what, field.name));
  unsigned char marker = static_cast<unsigned char>(bytes[0]);
  if (marker == 0x02) return nlohmann::json(nullptr);
  if (marker > 0x02 || bytes.size() < 1 + width)
    return Status::FailedPrecondition(fmt::format("{}: column {}: marker 0x{:02x} and {} bytes (expected a marker "
                                                  "0..2 and {} bytes)", what, field.name, marker, bytes.size() - 1, width));
  uint64_t bits = 0;
  for (size_t i = 0; i < width; ++i) bits = (bits << 8) | static_cast<unsigned char>(bytes[1 + i]);
  if (t == "boolean") return nlohmann::json(bits == 1);  // AvroStateEncoder: 1 or 0 after a positive marker
  const bool negative = marker == 0x00;
  if (t == "float" || t == "double") {
    if (negative) bits = ~bits & (width == 4 ? 0xffffffffull : ~0ull);
    if (width == 4) {
      float f;
      auto b32 = static_cast<uint32_t>(bits);
      std::memcpy(&f, &b32, 4);
      return nlohmann::json(f);
    }
    double d;
    std::memcpy(&d, &bits, 8);
    return nlohmann::json(d);
  }
  // Sign-extend a two's complement value of `width` bytes.
  auto v = static_cast<int64_t>(bits << (64 - 8 * width)) >> (64 - 8 * width);
  return nlohmann::json(v);
}

// The ordering columns of a range-scan key in the Avro encoding (AvroStateEncoder.
// encodePrefixKeyForRangeScan): the version byte, then a record (toAvroTypeWithDefaults of
// convertForRangeScan's schema) of two fields per column, its marker and its big-endian value, each
// a union of null and bytes.
Status decodeAvroRangePrefix(std::string_view prefix, const SparkColumnFamilySchema& schema, const std::string& what,
                             nlohmann::json& out) {
  if (!schema.keySchemaId)
    return Status::FailedPrecondition(what + ": Spark 4.0's Avro encoding of a range-scan key is not read (a schema "
                                             "file without schema ids is Spark 4.0's)");
  if (static_cast<unsigned char>(prefix[0]) != kEncodingVersion)
    return Status::FailedPrecondition(fmt::format("{}: encoder version byte {}", what, static_cast<unsigned char>(prefix[0])));
  size_t pos = 1;
  for (int ordinal : schema.orderingOrdinals) {
    const SparkField& field = schema.key[static_cast<size_t>(ordinal)];
    std::string both;
    for (const char* part : {"marker", "value"}) {
      const size_t at = pos;
      auto branch = detail::readAvroLong(prefix, pos);
      if (!branch.ok() || *branch != 1)
        return Status::FailedPrecondition(fmt::format("{}: column {}: Avro byte {}: expected the bytes branch (1) of its "
                                                      "{}'s union", what, field.name, at, part));
      auto bytes = detail::readAvroBytes(prefix, pos);
      if (!bytes.ok())
        return Status::FailedPrecondition(fmt::format("{}: column {}'s {}: {}", what, field.name, part,
                                                      bytes.status().message()));
      both.append(*bytes);
    }
    STREAMSIM_ASSIGN_OR_RETURN(out[field.name], decodeOrdered(both, field, what));
  }
  if (pos != prefix.size())
    return Status::FailedPrecondition(fmt::format("{}: {} bytes left after the {} ordering column(s)", what,
                                                  prefix.size() - pos, schema.orderingOrdinals.size()));
  return Status::OK();
}

Status decodeUnsafeRangePrefix(std::string_view prefix, const SparkColumnFamilySchema& schema, const std::string& what,
                               nlohmann::json& out);

// RangeKeyScanStateEncoder: [4-byte length][version + row of the ordering columns, each a binary
// as decodeOrdered reads it][version + row of the other columns], fields back in schema order.
Result<std::string> decodeRangeKey(const SparkRocksDBLayout& layout, std::string_view key,
                                   const SparkColumnFamilySchema& schema, const std::string& what) {
  if (key.size() < 4) return Status::FailedPrecondition(what + ": range-scan key shorter than its length");
  int prefixLen = readLe(key, 0, 4);
  if (prefixLen < 1 || static_cast<size_t>(prefixLen) > key.size() - 4)
    return Status::FailedPrecondition(fmt::format("{}: range-scan prefix length {} of {} bytes", what, prefixLen, key.size() - 4));
  std::string_view prefix = key.substr(4, static_cast<size_t>(prefixLen));
  nlohmann::json out = nlohmann::json::object();
  std::vector<bool> ordering(schema.key.size(), false);
  for (int ordinal : schema.orderingOrdinals) {
    if (ordinal < 0 || static_cast<size_t>(ordinal) >= schema.key.size())
      return Status::FailedPrecondition(fmt::format("{}: ordering ordinal {} outside the key's {} fields", what, ordinal,
                                                    schema.key.size()));
    ordering[static_cast<size_t>(ordinal)] = true;
  }
  if (layout.encoding == SparkStateEncoding::kAvro) {
    STREAMSIM_RETURN_IF_ERROR(decodeAvroRangePrefix(prefix, schema, what, out));
  } else {
    STREAMSIM_RETURN_IF_ERROR(decodeUnsafeRangePrefix(prefix, schema, what, out));
  }
  std::vector<SparkField> rest;
  for (size_t i = 0; i < schema.key.size(); ++i)
    if (!ordering[i]) rest.push_back(schema.key[i]);
  if (!rest.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string restJson, decodePart(layout, &schema, key.substr(4 + static_cast<size_t>(prefixLen)),
                                                                &rest, Part::kRemaining, what));
    const nlohmann::json others = nlohmann::json::parse(restJson);  // kept alive for items()
    for (const auto& item : others.items()) out[item.key()] = item.value();
  }
  return out.dump();
}

// The ordering columns of a range-scan key in the UnsafeRow encoding: the version byte, then an
// UnsafeRow of one binary per column, as decodeOrdered reads it.
Status decodeUnsafeRangePrefix(std::string_view prefix, const SparkColumnFamilySchema& schema, const std::string& what,
                               nlohmann::json& out) {
  if (static_cast<unsigned char>(prefix[0]) != kEncodingVersion)
    return Status::FailedPrecondition(fmt::format("{}: encoder version byte {}", what, static_cast<unsigned char>(prefix[0])));
  std::string_view row = prefix.substr(1);
  const size_t n = schema.orderingOrdinals.size();
  const size_t bitset = ((n + 63) / 64) * 8;
  if (row.size() < bitset + 8 * n)
    return Status::FailedPrecondition(fmt::format("{}: range-scan prefix row of {} bytes for {} columns", what, row.size(), n));
  for (size_t i = 0; i < n; ++i) {
    const int ordinal = schema.orderingOrdinals[i];
    const SparkField& field = schema.key[static_cast<size_t>(ordinal)];
    if ((readLe64(row, 8 * (i / 64)) >> (i % 64)) & 1) {
      out[field.name] = nullptr;
      continue;
    }
    uint64_t word = readLe64(row, bitset + 8 * i);
    uint64_t offset = word >> 32, size = word & 0xffffffffu;
    if (offset > row.size() || size > row.size() - offset)
      return Status::FailedPrecondition(fmt::format("{}: column {}: (offset {}, size {}) outside the {}-byte row", what,
                                                    field.name, offset, size, row.size()));
    STREAMSIM_ASSIGN_OR_RETURN(out[field.name], decodeOrdered(row.substr(offset, size), field, what));
  }
  return Status::OK();
}

}  // namespace

Result<SparkRocksDBRow> decodeSparkRocksDBRow(const SparkRocksDBLayout& layout, std::string_view key,
                                              std::string_view value) {
  SparkRocksDBRow out;
  out.columnFamily = "default";
  if (!layout.familyById.empty()) {
    if (key.size() < 2) return Status::FailedPrecondition("key shorter than its 2-byte column family id");
    int id = readLe(key, 0, 2);
    auto it = layout.familyById.find(id);
    if (it == layout.familyById.end())
      return Status::FailedPrecondition(fmt::format("column family id {} is not in the snapshot's "
                                                    "columnFamilyMapping", id));
    out.columnFamily = it->second;
    key.remove_prefix(2);
  }
  const SparkColumnFamilySchema* schema = nullptr;
  if (auto it = layout.families.find(out.columnFamily); it != layout.families.end()) schema = &it->second;
  const std::string where = out.columnFamily == "default" ? std::string() : " of " + out.columnFamily;
  if (schema != nullptr && schema->keyEncoder == "PrefixKeyScanStateEncoderSpec") {
    if (key.size() < 4) return Status::FailedPrecondition("prefix-scan key" + where + " shorter than its length");
    int prefixLen = readLe(key, 0, 4);
    if (prefixLen < 0 || static_cast<size_t>(prefixLen) > key.size() - 4)
      return Status::FailedPrecondition(fmt::format("prefix-scan key{}: prefix length {} of {} bytes", where,
                                                    prefixLen, key.size() - 4));
    auto prefixFields = slice(schema->key, 0, static_cast<size_t>(schema->numColsPrefixKey));
    auto restFields = slice(schema->key, static_cast<size_t>(schema->numColsPrefixKey), schema->key.size());
    STREAMSIM_ASSIGN_OR_RETURN(std::string a, decodePart(layout, schema, key.substr(4, static_cast<size_t>(prefixLen)),
                                                         &prefixFields, Part::kPrefix, "key prefix" + where));
    STREAMSIM_ASSIGN_OR_RETURN(std::string b, decodePart(layout, schema, key.substr(4 + static_cast<size_t>(prefixLen)),
                                                         &restFields, Part::kRemaining, "key" + where));
    out.keyJson = joinObjects(a, b);
  } else if (schema != nullptr && schema->keyEncoder == "RangeKeyScanStateEncoderSpec") {
    STREAMSIM_ASSIGN_OR_RETURN(out.keyJson, decodeRangeKey(layout, key, *schema, "range-scan key" + where));
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(out.keyJson, decodePart(layout, schema, key, schema ? &schema->key : nullptr, Part::kKey,
                                                       "key" + where));
  }
  const std::vector<SparkField>* valueFields = schema ? &schema->value : nullptr;
  if (!layout.listFamilies.count(out.columnFamily)) {
    STREAMSIM_ASSIGN_OR_RETURN(out.valueJson, decodePart(layout, schema, value, valueFields, Part::kValue, "value" + where));
    return out;
  }
  // MultiValuedStateEncoder.decodeValues: [4-byte length][encoded value] joined by ','.
  std::string list = "[";
  size_t pos = 0;
  for (int n = 0; pos < value.size(); ++n) {
    if (value.size() - pos < 4)
      return Status::FailedPrecondition(fmt::format("list{}: element {} at byte {}: no 4-byte length", where, n, pos));
    int len = readLe(value, pos, 4);
    pos += 4;
    if (len < 0 || static_cast<size_t>(len) > value.size() - pos)
      return Status::FailedPrecondition(fmt::format("list{}: element {}: length {} runs past the value's {} bytes",
                                                    where, n, len, value.size()));
    STREAMSIM_ASSIGN_OR_RETURN(std::string element,
                               decodePart(layout, schema, value.substr(pos, static_cast<size_t>(len)), valueFields, Part::kValue,
                                             fmt::format("list{} element {}", where, n)));
    list += (n ? "," : "") + element;
    pos += static_cast<size_t>(len) + 1;  // the ',' delimiter
  }
  out.valueJson = list + "]";
  return out;
}

}  // namespace streamsim
