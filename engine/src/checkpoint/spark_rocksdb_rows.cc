// spark_rocksdb_rows.h. From Spark 4.1's RocksDBStateEncoder.scala (RocksDBDataEncoder.
// encodeUnsafeRow / decodeToUnsafeRow, PrefixKeyScanStateEncoder, NoPrefixKeyStateEncoder,
// MultiValuedStateEncoder, SingleValueStateEncoder) and RocksDBStateStoreProvider.scala
// (STATE_ENCODING_VERSION, VIRTUAL_COL_FAMILY_PREFIX_BYTES), RangeKeyScanStateEncoder and
// UnsafeRowDataEncoder.encodePrefixKeyForRangeScan.
#include "streamsim/checkpoint/spark_rocksdb_rows.h"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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
  size_t width = t == "byte" ? 1 : t == "short" ? 2 : (t == "integer" || t == "float") ? 4 : (t == "long" || t == "double") ? 8 : 0;
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

// RangeKeyScanStateEncoder: [4-byte length][version + row of the ordering columns, each a binary
// as decodeOrdered reads it][version + row of the other columns], fields back in schema order.
Result<std::string> decodeRangeKey(std::string_view key, const SparkColumnFamilySchema& schema, const std::string& what) {
  if (key.size() < 4) return Status::FailedPrecondition(what + ": range-scan key shorter than its length");
  int prefixLen = readLe(key, 0, 4);
  if (prefixLen < 1 || static_cast<size_t>(prefixLen) > key.size() - 4)
    return Status::FailedPrecondition(fmt::format("{}: range-scan prefix length {} of {} bytes", what, prefixLen, key.size() - 4));
  std::string_view prefix = key.substr(4, static_cast<size_t>(prefixLen));
  if (static_cast<unsigned char>(prefix[0]) != kEncodingVersion)
    return Status::FailedPrecondition(fmt::format("{}: encoder version byte {}", what, static_cast<unsigned char>(prefix[0])));
  std::string_view row = prefix.substr(1);
  const size_t n = schema.orderingOrdinals.size();
  const size_t bitset = ((n + 63) / 64) * 8;
  if (row.size() < bitset + 8 * n)
    return Status::FailedPrecondition(fmt::format("{}: range-scan prefix row of {} bytes for {} columns", what, row.size(), n));
  nlohmann::json out = nlohmann::json::object();
  std::vector<bool> ordering(schema.key.size(), false);
  for (size_t i = 0; i < n; ++i) {
    int ordinal = schema.orderingOrdinals[i];
    if (ordinal < 0 || static_cast<size_t>(ordinal) >= schema.key.size())
      return Status::FailedPrecondition(fmt::format("{}: ordering ordinal {} outside the key's {} fields", what, ordinal,
                                                    schema.key.size()));
    ordering[static_cast<size_t>(ordinal)] = true;
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
  std::vector<SparkField> rest;
  for (size_t i = 0; i < schema.key.size(); ++i)
    if (!ordering[i]) rest.push_back(schema.key[i]);
  if (!rest.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string restJson,
                               decodeEncoded(key.substr(4 + static_cast<size_t>(prefixLen)), &rest, what));
    const nlohmann::json others = nlohmann::json::parse(restJson);  // kept alive for items()
    for (const auto& item : others.items()) out[item.key()] = item.value();
  }
  return out.dump();
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
    STREAMSIM_ASSIGN_OR_RETURN(std::string a, decodeEncoded(key.substr(4, static_cast<size_t>(prefixLen)),
                                                            &prefixFields, "key prefix" + where));
    STREAMSIM_ASSIGN_OR_RETURN(std::string b, decodeEncoded(key.substr(4 + static_cast<size_t>(prefixLen)),
                                                            &restFields, "key" + where));
    out.keyJson = joinObjects(a, b);
  } else if (schema != nullptr && schema->keyEncoder == "RangeKeyScanStateEncoderSpec") {
    STREAMSIM_ASSIGN_OR_RETURN(out.keyJson, decodeRangeKey(key, *schema, "range-scan key" + where));
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(out.keyJson, decodeEncoded(key, schema ? &schema->key : nullptr, "key" + where));
  }
  const std::vector<SparkField>* valueFields = schema ? &schema->value : nullptr;
  if (!layout.listFamilies.count(out.columnFamily)) {
    STREAMSIM_ASSIGN_OR_RETURN(out.valueJson, decodeEncoded(value, valueFields, "value" + where));
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
                               decodeEncoded(value.substr(pos, static_cast<size_t>(len)), valueFields,
                                             fmt::format("list{} element {}", where, n)));
    list += (n ? "," : "") + element;
    pos += static_cast<size_t>(len) + 1;  // the ',' delimiter
  }
  out.valueJson = list + "]";
  return out;
}

}  // namespace streamsim
