// spark_rocksdb_rows.h. From Spark 4.1's RocksDBStateEncoder.scala (RocksDBDataEncoder.
// encodeUnsafeRow / decodeToUnsafeRow, PrefixKeyScanStateEncoder, NoPrefixKeyStateEncoder,
// MultiValuedStateEncoder, SingleValueStateEncoder) and RocksDBStateStoreProvider.scala
// (STATE_ENCODING_VERSION, VIRTUAL_COL_FAMILY_PREFIX_BYTES).
#include "streamsim/checkpoint/spark_rocksdb_rows.h"

#include <cstdint>

#include <fmt/format.h>

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
    return Status::FailedPrecondition("range-scan keys" + where + " (timers) are not decoded yet");
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
