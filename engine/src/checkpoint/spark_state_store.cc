// Spark's HDFS-backed state store files (spark_state_store.h). The formats, from Spark's
// HDFSBackedStateStoreProvider (writeUpdateToDeltaFile / writeRemoveToDeltaFile /
// finalizeDeltaFile / writeSnapshotFile), UnsafeRow, UnsafeArrayData and
// StateSchemaCompatibilityChecker (SchemaReader V1/V2), and lz4-java's LZ4BlockOutputStream:
// docs/checkpoint-format.md "Spark's state store files".
#include "streamsim/checkpoint/spark_state_store.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>
#include <lz4.h>
#include <nlohmann/json.hpp>

#include "byte_order.h"
#include "checkpoint/java_data_input.h"
#include "streamsim/checkpoint/spark_rocksdb_store.h"
#include "streamsim/time.h"
#include "streamsim/json_nesting.h"

namespace streamsim {
namespace {

using detail::loadLittle32;
using detail::loadLittle64;
int32_t be32(const char* p) { return static_cast<int32_t>(detail::loadBig32(p)); }

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "<digits><suffix>" -> the number, or -1.
int64_t versionOf(std::string_view name, std::string_view suffix) {
  if (!endsWith(name, suffix) || name.size() == suffix.size()) return -1;
  std::string_view digits = name.substr(0, name.size() - suffix.size());
  if (digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 18)
    return -1;
  return std::stoll(std::string(digits));
}

constexpr std::string_view kLz4Magic = "LZ4Block";
constexpr uint32_t kLz4JavaSeed = 0x9747b28c;
constexpr size_t kLz4HeaderSize = 8 + 1 + 4 + 4 + 4;

// ---- UnsafeRow --------------------------------------------------------------------------------

using nlohmann::json;

json decodeRow(std::string_view row, const std::vector<SparkField>* schema, int depth);

// Spark's JSON type -> its name ("long", "struct", "array", "decimal", "map", ...).
std::string typeName(const json& type) {
  if (type.is_string()) {
    std::string t = type.get<std::string>();
    return t.rfind("decimal", 0) == 0 ? "decimal" : t;
  }
  if (type.is_object() && type.contains("type") && type["type"].is_string())
    return type["type"].get<std::string>();
  return "?";
}

std::vector<SparkField> structFields(const json& type) {
  std::vector<SparkField> out;
  if (!type.is_object() || !type.contains("fields") || !type["fields"].is_array()) return out;
  for (const auto& f : type["fields"]) {
    SparkField field;
    field.name = f.value("name", "");
    field.typeJson = f.contains("type") ? f["type"].dump() : "\"?\"";
    field.nullable = f.value("nullable", true);
    out.push_back(std::move(field));
  }
  return out;
}

}  // namespace

std::string sparkMicrosText(int64_t micros) {
  int64_t ms = micros >= 0 ? micros / 1000 : -((-micros + 999) / 1000);
  std::string text = formatTimestamp(ms);
  if (micros % 1000 != 0) text += fmt::format(" (+{} µs)", ((micros % 1000) + 1000) % 1000);
  return text;
}

std::string sparkDaysText(int32_t days) {
  return formatTimestamp(static_cast<int64_t>(days) * 86'400'000).substr(0, 10);
}

namespace {

// The variable-length part a word points to ((offset << 32) | size), if it lies in `base`.
std::optional<std::string_view> pointee(std::string_view base, uint64_t word) {
  uint64_t offset = word >> 32, size = word & 0xffffffffu;
  if (offset > base.size() || size > base.size() - offset) return std::nullopt;
  return base.substr(offset, size);
}

json decodeArray(std::string_view data, const json& elementType, int depth);

// One value of Spark type `type` whose 8-byte slot is at `slot` within `base` (a row or an
// array's data), for fixed-size types the value's own bytes.
json decodeValue(std::string_view base, const char* slot, size_t width, const json& type,
                 int depth) {
  std::string t = typeName(type);
  auto word = [&] { return width >= 8 ? loadLittle64(slot) : 0; };
  if (t == "boolean") return slot[0] != 0;
  if (t == "byte") return static_cast<int8_t>(slot[0]);
  if (t == "short") {
    int16_t v;
    std::memcpy(&v, slot, 2);
    return v;
  }
  if (t == "integer") return static_cast<int32_t>(loadLittle32(slot));
  if (t == "date") return sparkDaysText(static_cast<int32_t>(loadLittle32(slot)));
  if (t == "float") {
    float f;
    uint32_t bits = loadLittle32(slot);
    std::memcpy(&f, &bits, 4);
    return f;
  }
  if (t == "long") return static_cast<int64_t>(word());
  if (t == "timestamp" || t == "timestamp_ntz") return sparkMicrosText(static_cast<int64_t>(word()));
  if (t == "double") {
    double d;
    uint64_t bits = word();
    std::memcpy(&d, &bits, 8);
    return std::isfinite(d) ? json(d) : json(fmt::format("{}", d));
  }
  if (t == "void" || t == "null") return nullptr;
  if (t == "decimal") {
    int precision = 10, scale = 0;
    if (type.is_string()) std::sscanf(type.get<std::string>().c_str(), "decimal(%d,%d)", &precision, &scale);
    // Precision <= 18: the unscaled long in the slot; larger: big-endian two's complement bytes.
    if (precision <= 18) {
      auto unscaled = static_cast<int64_t>(word());
      if (scale == 0) return std::to_string(unscaled);
      std::string digits = std::to_string(unscaled < 0 ? -unscaled : unscaled);
      if (digits.size() <= static_cast<size_t>(scale))
        digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
      digits.insert(digits.size() - static_cast<size_t>(scale), ".");
      return (unscaled < 0 ? "-" : "") + digits;
    }
    auto bytes = pointee(base, word());
    if (!bytes) return "<decimal out of bounds>";
    std::string hex = "0x";
    for (unsigned char c : *bytes) hex += fmt::format("{:02x}", c);
    return fmt::format("unscaled {} scale {}", hex, scale);
  }
  auto var = pointee(base, word());
  if (!var) return fmt::format("<{} out of bounds: word 0x{:016x}>", t, word());
  if (t == "string") return std::string(*var);
  if (t == "binary") {
    std::string hex = "0x";
    for (unsigned char c : *var) hex += fmt::format("{:02x}", c);
    return hex;
  }
  if (t == "struct") {
    auto fields = structFields(type);
    return decodeRow(*var, &fields, depth + 1);
  }
  if (t == "array") return decodeArray(*var, type.value("elementType", json("?")), depth + 1);
  return fmt::format("<{}: not decoded>", t);
}

// Bytes per element of an UnsafeArrayData (UnsafeArrayWriter: the type's default size, 8 for
// anything variable-length).
size_t elementWidth(const std::string& t) {
  if (t == "boolean" || t == "byte") return 1;
  if (t == "short") return 2;
  if (t == "integer" || t == "date" || t == "float") return 4;
  return 8;
}

json decodeArray(std::string_view data, const json& elementType, int depth) {
  if (depth > 16 || data.size() < 8) return "<array: too short>";
  uint64_t n = loadLittle64(data.data());
  uint64_t bitsetBytes = ((n + 63) / 64) * 8;
  std::string t = typeName(elementType);
  size_t width = elementWidth(t);
  if (n > data.size() || 8 + bitsetBytes + n * width > data.size()) return "<array: out of bounds>";
  json out = json::array();
  for (uint64_t i = 0; i < n; ++i) {
    bool isNull = (static_cast<unsigned char>(data[8 + i / 8]) >> (i % 8)) & 1;
    const char* slot = data.data() + 8 + bitsetBytes + i * width;
    out.push_back(isNull ? json(nullptr) : decodeValue(data, slot, width, elementType, depth));
  }
  return out;
}

bool printableText(std::string_view s) {
  if (s.empty()) return false;
  for (unsigned char c : s)
    if (c < 0x20 && c != '\t' && c != '\n') return false;
  return json::accept(json(std::string(s)).dump());
}

// A schema-less guess: the fixed part ends where the first variable-length value starts.
json guessRow(std::string_view row, int depth) {
  json out = json::object();
  if (row.size() < 16 || row.size() % 8 != 0) return "0x" + [&] {
    std::string hex;
    for (unsigned char c : row) hex += fmt::format("{:02x}", c);
    return hex;
  }();
  uint64_t bitset = loadLittle64(row.data());
  size_t fixedEnd = row.size();
  for (size_t i = 0; 8 + 8 * i < fixedEnd && i < 64; ++i) {
    const char* slot = row.data() + 8 + 8 * i;
    std::string name = fmt::format("_{}", i);
    if ((bitset >> i) & 1) {
      out[name] = nullptr;
      continue;
    }
    uint64_t w = loadLittle64(slot);
    uint64_t offset = w >> 32, size = w & 0xffffffffu;
    bool pointer = offset >= 8 + 8 * (i + 1) && offset % 8 == 0 && offset < row.size() &&
                   size <= row.size() - offset && size > 0;
    if (pointer) {
      fixedEnd = std::min<size_t>(fixedEnd, offset);
      std::string_view var = row.substr(offset, size);
      if (printableText(var)) out[name] = std::string(var);
      else if (size % 8 == 0 && depth < 8) out[name] = guessRow(var, depth + 1);
      else out[name] = fmt::format("0x{:016x} (bytes at {}+{})", w, offset, size);
      continue;
    }
    auto asLong = static_cast<int64_t>(w);
    double d;
    std::memcpy(&d, &w, 8);
    if ((asLong > (int64_t{1} << 53) || asLong < -(int64_t{1} << 53)) && std::isfinite(d) &&
        std::fabs(d) >= 1e-9 && std::fabs(d) < 1e15) {
      out[name] = d;  // a long this large is far more likely a double's bits
    } else {
      out[name] = asLong;
    }
  }
  return out;
}

json decodeRow(std::string_view row, const std::vector<SparkField>* schema, int depth) {
  if (depth > 16) return "<nested too deep>";
  if (schema == nullptr) return guessRow(row, depth);
  size_t n = schema->size();
  size_t bitsetBytes = ((n + 63) / 64) * 8;
  if (row.size() < bitsetBytes + 8 * n)
    return fmt::format("<row of {} bytes is too short for {} fields>", row.size(), n);
  json out = json::object();
  for (size_t i = 0; i < n; ++i) {
    const SparkField& f = (*schema)[i];
    bool isNull = (loadLittle64(row.data() + 8 * (i / 64)) >> (i % 64)) & 1;
    json type = parseJsonBounded<json>(f.typeJson);
    out[f.name] = isNull ? json(nullptr)
                         : decodeValue(row, row.data() + bitsetBytes + 8 * i, 8, type, depth);
  }
  return out;
}

using DataReader = detail::JavaDataInput;

Result<std::vector<SparkField>> parseStructJson(const std::string& text, const std::string& path,
                                                const char* which) {
  json j = parseJsonBounded<json>(text);
  if (j.is_discarded() || typeName(j) != "struct")
    return Status::Corruption(fmt::format("{}: the {} schema is not a Spark StructType JSON: {}",
                                          path, which, text.substr(0, 80)));
  return structFields(j);
}

// SchemaReader.readJsonSchema: a count of chunks, each a writeUTF string.
bool readChunked(DataReader& in, std::string& out) {
  int32_t chunks = 0;
  if (!in.readInt(chunks) || chunks < 0 || chunks > 1 << 16) return false;
  for (int32_t c = 0; c < chunks; ++c) {
    std::string chunk;
    if (!in.readUtf(chunk)) return false;
    out += chunk;
  }
  return true;
}

// Whether a JSON text follows at `in` as readChunked reads it (a count, then a string opening
// with '{'), without moving `in`.
bool chunkedJsonAt(DataReader in) {
  int32_t chunks = 0;
  std::string first;
  return in.readInt(chunks) && chunks >= 1 && chunks <= (1 << 16) && in.readUtf(first) &&
         !first.empty() && first[0] == '{';
}

Result<SparkStateSchema> parseSchemaV3(DataReader& in, const std::string& path) {
  SparkStateSchema schema;
  schema.formatVersion = 3;
  int32_t count = 0;
  if (!in.readInt(count) || count < 0 || count > 1 << 16)
    return Status::Corruption(fmt::format("{}: v3 schema file: bad column family count", path));
  for (int32_t i = 0; i < count; ++i) {
    SparkColumnFamilySchema cf;
    std::string keyJson, valueJson, specJson, userKeyJson;
    size_t at = in.pos;
    if (!in.readUtf(cf.name))
      return Status::Corruption(fmt::format("{}: byte {}: v3 schema file ends before column family {} of {}",
                                            path, at, i + 1, count));
    // Spark 4.1 (SchemaV3Writer) writes a short schema id before the key and the value schema;
    // Spark 4.0's files have none. The JSON's opening brace tells which.
    const bool ids = !chunkedJsonAt(in);
    int16_t keyId = 0, valueId = 0;
    bool ok = (!ids || in.readShort(keyId)) && readChunked(in, keyJson) && (!ids || in.readShort(valueId)) &&
              readChunked(in, valueJson) && readChunked(in, specJson) && readChunked(in, userKeyJson);
    if (ids) {
      cf.keySchemaId = keyId;
      cf.valueSchemaId = valueId;
    }
    if (!ok)
      return Status::Corruption(fmt::format("{}: byte {}: column family {} ({}) ends early", path, at, i + 1,
                                            cf.name));
    STREAMSIM_ASSIGN_OR_RETURN(cf.key, parseStructJson(keyJson, path, "key"));
    STREAMSIM_ASSIGN_OR_RETURN(cf.value, parseStructJson(valueJson, path, "value"));
    json spec = json::parse(specJson, nullptr, false);
    if (!spec.is_object() || !spec.contains("keyStateEncoderType") || !spec["keyStateEncoderType"].is_string())
      return Status::Corruption(fmt::format("{}: column family {}: the key encoder spec is not "
                                            "{{\"keyStateEncoderType\":…}}: {}", path, cf.name, specJson.substr(0, 80)));
    cf.keyEncoder = spec["keyStateEncoderType"].get<std::string>();
    cf.numColsPrefixKey = spec.value("numColsPrefixKey", 0);
    if (spec.contains("orderingOrdinals") && spec["orderingOrdinals"].is_array())
      for (const auto& o : spec["orderingOrdinals"])
        if (o.is_number_integer()) cf.orderingOrdinals.push_back(o.get<int>());
    schema.columnFamilies.push_back(std::move(cf));
  }
  return schema;
}

}  // namespace

Status checkUnsafeRow(std::string_view row, const std::vector<SparkField>& schema) {
  size_t n = schema.size();
  size_t fixed = ((n + 63) / 64) * 8 + 8 * n;
  if (row.size() % 8 != 0 || row.size() < fixed)
    return Status::FailedPrecondition(fmt::format("{} bytes are not an UnsafeRow of {} field{} (needs a "
                                                  "multiple of 8, at least {})", row.size(), n,
                                                  n == 1 ? "" : "s", fixed));
  size_t bitsetBytes = ((n + 63) / 64) * 8;
  for (size_t i = 0; i < n; ++i) {
    if ((loadLittle64(row.data() + 8 * (i / 64)) >> (i % 64)) & 1) continue;
    json type = json::parse(schema[i].typeJson, nullptr, false);
    std::string t = typeName(type);
    bool variable = t == "string" || t == "binary" || t == "struct" || t == "array" || t == "map";
    if (t == "decimal" && type.is_string()) {
      int precision = 10, scale = 0;
      std::sscanf(type.get<std::string>().c_str(), "decimal(%d,%d)", &precision, &scale);
      variable = precision > 18;
    }
    if (!variable) continue;
    uint64_t word = loadLittle64(row.data() + bitsetBytes + 8 * i);
    uint64_t offset = word >> 32, size = word & 0xffffffffu;
    if (offset < fixed || offset > row.size() || size > row.size() - offset)
      return Status::FailedPrecondition(fmt::format("field {} ({} {}): its (offset {}, size {}) lies outside "
                                                    "the row's {} variable-length bytes at {}..{}", i,
                                                    schema[i].name, t, offset, size, row.size() - fixed,
                                                    fixed, row.size()));
  }
  return Status::OK();
}

uint32_t xxhash32(std::string_view data, uint32_t seed) {
  constexpr uint32_t p1 = 2654435761u, p2 = 2246822519u, p3 = 3266489917u, p4 = 668265263u,
                     p5 = 374761393u;
  const char* p = data.data();
  size_t n = data.size(), i = 0;
  uint32_t h;
  if (n >= 16) {
    uint32_t v[4] = {seed + p1 + p2, seed + p2, seed, seed - p1};
    for (; i + 16 <= n; i += 16)
      for (int j = 0; j < 4; ++j) v[j] = std::rotl(v[j] + loadLittle32(p + i + 4 * j) * p2, 13) * p1;
    h = std::rotl(v[0], 1) + std::rotl(v[1], 7) + std::rotl(v[2], 12) + std::rotl(v[3], 18);
  } else {
    h = seed + p5;
  }
  h += static_cast<uint32_t>(n);
  for (; i + 4 <= n; i += 4) h = std::rotl(h + loadLittle32(p + i) * p3, 17) * p4;
  for (; i < n; ++i) h = std::rotl(h + static_cast<unsigned char>(p[i]) * p5, 11) * p1;
  h ^= h >> 15;
  h *= p2;
  h ^= h >> 13;
  h *= p3;
  h ^= h >> 16;
  return h;
}

Result<std::string> decodeLz4BlockStream(std::string_view data, const std::string& path,
                                         std::string* decodedBeforeError) {
  std::string out;
  size_t pos = 0;
  // The blocks decoded so far, for a caller that names what a bad block cut off.
  auto fail = [&](Status st) -> Status {
    if (decodedBeforeError != nullptr) *decodedBeforeError = out;
    return st;
  };
  for (int block = 0;; ++block) {
    if (pos + kLz4HeaderSize > data.size())
      return fail(Status::Corruption(fmt::format(
          "{}: LZ4Block stream ends at byte {} without its end block (a write cut short?)", path, pos)));
    if (data.substr(pos, 8) != kLz4Magic)
      return fail(Status::Corruption(fmt::format("{}: byte {}: expected an LZ4Block header", path, pos)));
    int method = static_cast<unsigned char>(data[pos + 8]) & 0xf0;
    auto compressed = static_cast<int32_t>(loadLittle32(data.data() + pos + 9));
    auto original = static_cast<int32_t>(loadLittle32(data.data() + pos + 13));
    uint32_t check = loadLittle32(data.data() + pos + 17);
    pos += kLz4HeaderSize;
    if (original == 0 && compressed == 0) break;  // the end block
    if ((method != 0x10 && method != 0x20) || compressed < 0 || original < 0 ||
        static_cast<size_t>(compressed) > data.size() - pos || original > (1 << 30) ||
        (method == 0x10 && compressed != original))
      return fail(Status::Corruption(fmt::format("{}: block {}: bad LZ4Block header (method 0x{:02x}, "
                                            "lengths {}/{})", path, block, method, compressed, original)));
    size_t start = out.size();
    if (method == 0x10) {
      out.append(data.substr(pos, static_cast<size_t>(compressed)));
    } else {
      out.resize(start + static_cast<size_t>(original));
      int got = LZ4_decompress_safe(data.data() + pos, out.data() + start, compressed, original);
      if (got != original) {
        out.resize(start);
        return fail(Status::Corruption(fmt::format("{}: block {}: LZ4 data does not decompress to {} "
                                              "bytes", path, block, original)));
      }
    }
    uint32_t want = xxhash32(std::string_view(out).substr(start), kLz4JavaSeed) & 0x0fffffffu;
    if (want != check) {
      out.resize(start);
      return fail(Status::Corruption(fmt::format("{}: block {}: xxhash32 checksum 0x{:07x} does not match "
                                            "the stored 0x{:07x}", path, block, want, check)));
    }
    pos += static_cast<size_t>(compressed);
  }
  return out;
}

Result<SparkStateSchema> parseSparkStateSchema(std::string_view data, const std::string& path) {
  DataReader in{data};
  std::string version;
  if (!in.readUtf(version) || (version != "v1" && version != "v2" && version != "v3"))
    return Status::Corruption(fmt::format("{}: expected a state schema file starting with v1, v2 or v3",
                                          path));
  SparkStateSchema schema;
  std::string keyJson, valueJson;
  if (version == "v1") {
    schema.formatVersion = 1;
    if (!in.readUtf(keyJson) || !in.readUtf(valueJson))
      return Status::Corruption(fmt::format("{}: v1 schema file ends early", path));
  } else if (version == "v2") {
    schema.formatVersion = 2;
    if (!readChunked(in, keyJson) || !readChunked(in, valueJson))
      return Status::Corruption(fmt::format("{}: v2 schema file ends early", path));
  } else {
    return parseSchemaV3(in, path);
  }
  STREAMSIM_ASSIGN_OR_RETURN(schema.key, parseStructJson(keyJson, path, "key"));
  STREAMSIM_ASSIGN_OR_RETURN(schema.value, parseStructJson(valueJson, path, "value"));
  return schema;
}

std::string unsafeRowToJson(std::string_view row, const std::vector<SparkField>* schema) {
  return decodeRow(row, schema, 0).dump();
}

std::string_view stateFolderFormatName(StateFolderFormat format) {
  switch (format) {
    case StateFolderFormat::kEmpty: return "empty";
    case StateFolderFormat::kStreamsim: return "streamsim";
    case StateFolderFormat::kSparkHdfs: return "spark-hdfs";
    case StateFolderFormat::kSparkHdfsOtherCodec: return "spark-hdfs-other-codec";
    case StateFolderFormat::kUnrecognised: return "unrecognised";
    case StateFolderFormat::kSparkRocksDB: return "spark-rocksdb";
  }
  return "?";
}

Result<StateFolderInfo> classifyStateFolder(const Env& env, const std::string& dir) {
  StateFolderInfo info;
  STREAMSIM_ASSIGN_OR_RETURN(auto files, env.fs->list(dir));
  bool zip = false, sparkChangelog = false;
  for (const auto& f : files) {
    std::string name = f.path.substr(f.path.rfind('/') + 1);
    if (name.rfind("temp-", 0) == 0) info.tempFiles.push_back(f.path);
    if (int64_t v = versionOf(name, ".delta"); v >= 0) info.deltas[v] = f.path;
    if (int64_t v = versionOf(name, ".snapshot"); v >= 0) info.snapshots[v] = f.path;
    // N.zip / N.changelog, and checkpoint format v2's N_<uuid>.zip / N_<uuid>.changelog.
    if (sparkRocksDBFileVersion(name, ".zip")) zip = true;
    if (sparkRocksDBFileVersion(name, ".changelog")) sparkChangelog = true;
  }
  // The first bytes of any state file tell whose it is.
  std::optional<std::string> sample;
  for (const auto* m : {&info.deltas, &info.snapshots})
    if (!sample && !m->empty()) sample = m->begin()->second;
  if (!sample && sparkChangelog)
    for (const auto& f : files)
      if (sparkRocksDBFileVersion(baseName(f.path), ".changelog")) {
        sample = f.path;
        break;
      }
  if (sample) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string head, env.fs->read(*sample));
    std::string_view h(head);
    if (h.substr(0, 8) == "SSSTATE1") {
      info.format = StateFolderFormat::kStreamsim;
      return info;
    }
    // Spark's HDFS-backed store writes .delta/.snapshot, never .changelog: a changelog without
    // any snapshot zip yet is the RocksDB store's too.
    if (zip || (sparkChangelog && info.deltas.empty() && info.snapshots.empty())) {
      info.format = StateFolderFormat::kSparkRocksDB;
      return info;
    }
    if (h.substr(0, 8) == kLz4Magic || h.empty()) {
      info.format = StateFolderFormat::kSparkHdfs;
      return info;
    }
    info.format = StateFolderFormat::kSparkHdfsOtherCodec;
    if (h.substr(0, 8) == std::string_view("\x82SNAPPY\0", 8)) info.detail = "snappy";
    else if (h.substr(0, 4) == "\x28\xb5\x2f\xfd") info.detail = "zstd";
    else if (h.substr(0, 3) == "ZV\x01" || h.substr(0, 3) == "ZV\x00") info.detail = "lzf";
    if (!info.detail.empty()) return info;
    // Neither streamsim's header nor a codec Spark writes: corrupt, torn, or not a state file.
    info.format = StateFolderFormat::kUnrecognised;
    std::string bytes;
    for (unsigned char c : h.substr(0, 8)) bytes += fmt::format("{:02x}", c);
    info.detail = fmt::format("{} (first bytes 0x{})", *sample, bytes);
    return info;
  }
  if (zip) info.format = StateFolderFormat::kSparkRocksDB;
  return info;
}

std::vector<SparkField> sparkStructFields(std::string_view typeJson) {
  return structFields(json::parse(typeJson, nullptr, false));
}

Result<SparkStatePartition> readSparkStateVersion(const Env& env, const StateFolderInfo& folder,
                                                  int64_t version) {
  SparkStatePartition out;
  out.version = version;
  // HDFSBackedStateStoreProvider.loadMap: the newest snapshot <= version, then each delta.
  int64_t from = 0;
  auto snap = folder.snapshots.upper_bound(version);
  std::vector<std::string> files;
  if (snap != folder.snapshots.begin()) {
    --snap;
    from = snap->first;
    files.push_back(snap->second);
  }
  for (int64_t v = from + 1; v <= version; ++v) {
    auto it = folder.deltas.find(v);
    if (it == folder.deltas.end()) {
      if (folder.deltas.empty() && folder.snapshots.empty()) break;  // no state written yet
      return Status::NotFound(fmt::format("version {} needs {}.delta, which is not there (files: "
                                          "deltas {}..{}{})", version, v,
                                          folder.deltas.empty() ? 0 : folder.deltas.begin()->first,
                                          folder.deltas.empty() ? 0 : folder.deltas.rbegin()->first,
                                          folder.snapshots.empty() ? "" : ", and snapshots"));
    }
    files.push_back(it->second);
  }
  for (const std::string& path : files) {
    STREAMSIM_ASSIGN_OR_RETURN(std::string raw, env.fs->read(path));
    STREAMSIM_ASSIGN_OR_RETURN(std::string data, decodeLz4BlockStream(raw, path));
    size_t pos = 0;
    for (;;) {
      if (pos + 4 > data.size())
        return Status::Corruption(fmt::format("{}: records end at byte {} without the -1 end "
                                              "marker", path, pos));
      int32_t keySize = be32(data.data() + pos);
      pos += 4;
      if (keySize == -1) break;
      if (keySize < 0 || static_cast<size_t>(keySize) + 4 > data.size() - pos)
        return Status::Corruption(fmt::format("{}: byte {}: bad key size {}", path, pos - 4, keySize));
      std::string key(data.substr(pos, static_cast<size_t>(keySize)));
      pos += static_cast<size_t>(keySize);
      int32_t valueSize = be32(data.data() + pos);
      pos += 4;
      if (valueSize == -1) {  // a removal (deltas only)
        out.rows.erase(key);
        continue;
      }
      if (valueSize < 0 || static_cast<size_t>(valueSize) > data.size() - pos)
        return Status::Corruption(fmt::format("{}: byte {}: bad value size {}", path, pos - 4,
                                              valueSize));
      out.rows[std::move(key)] = std::string(data.substr(pos, static_cast<size_t>(valueSize)));
      pos += static_cast<size_t>(valueSize);
    }
    out.filesRead.push_back(path);
  }
  return out;
}

}  // namespace streamsim
