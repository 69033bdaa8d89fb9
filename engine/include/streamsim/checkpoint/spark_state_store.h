// Reads Spark's own HDFS-backed state store files (HDFSBackedStateStoreProvider): the
// `state/<op>/<part>/N.delta` and `N.snapshot` files of a real Spark checkpoint, lz4-java
// LZ4Block-compressed, holding length-prefixed UnsafeRow key/value records; and the
// `_metadata/schema` file (key and value StructType as JSON, versions 1 and 2) that names the
// fields. Format and sources: docs/checkpoint-format.md "Spark's state store files".
// Read-only, through the Env; plain functions, no shared state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/status.h"

namespace streamsim {

// The bytes inside an lz4-java LZ4BlockOutputStream stream: blocks of "LZ4Block", a token
// (method | level), compressed and original length, an xxhash32 of the original bytes (seed
// 0x9747b28c, low 28 bits), ended by an empty block. Corruption naming `path` when a header,
// a block or a checksum does not hold, or the end block is missing (a torn write); then
// `decodedBeforeError`, when given, holds the bytes of the blocks before the bad one.
Result<std::string> decodeLz4BlockStream(std::string_view data, const std::string& path,
                                         std::string* decodedBeforeError = nullptr);

// XXH32 of `data` with `seed` (the hash lz4-java's block stream checks).
uint32_t xxhash32(std::string_view data, uint32_t seed);

// One field of a Spark StructType; `type` is Spark's JSON for the type ("long", "string",
// {"type":"struct",...}, {"type":"array",...}, "decimal(10,2)"), kept as JSON text.
struct SparkField {
  std::string name;
  std::string typeJson;
  bool nullable = true;
};

// One column family of a schema file v3 (Spark's StateStoreColFamilySchema): a transformWithState
// state variable or an internal family ($ttl_…, timers); its keys' encoder spec as Spark's
// KeyStateEncoderSpec JSON names it.
struct SparkColumnFamilySchema {
  std::string name;
  std::vector<SparkField> key;
  std::vector<SparkField> value;
  std::string keyEncoder;           // "NoPrefixKeyStateEncoderSpec", "PrefixKeyScanStateEncoderSpec", ...
  int numColsPrefixKey = 0;         // PrefixKeyScanStateEncoderSpec
  std::vector<int> orderingOrdinals;  // RangeKeyScanStateEncoderSpec
  // Spark 4.1's schema ids (SchemaV3Writer), which its Avro encoding writes before every key and
  // value (AvroStateEncoder); none in Spark 4.0's files.
  std::optional<int> keySchemaId, valueSchemaId;
};

// How the state readers show a Spark timestamp (microseconds) and date (days since the epoch).
std::string sparkMicrosText(int64_t micros);
std::string sparkDaysText(int32_t days);

// The fields of a struct type's JSON ({"type":"struct","fields":[...]}); empty for any other type.
std::vector<SparkField> sparkStructFields(std::string_view typeJson);

struct SparkStateSchema {
  int formatVersion = 0;  // 1, 2 or 3 (the schema file's "v1"/"v2"/"v3")
  std::vector<SparkField> key;    // v1, v2
  std::vector<SparkField> value;  // v1, v2
  std::vector<SparkColumnFamilySchema> columnFamilies;  // v3
};

// Parses `_metadata/schema` (StateSchemaCompatibilityChecker's file: writeUTF("v1") + key JSON +
// value JSON, or "v2" + each JSON in counted 65535-byte chunks) and `_stateSchema/<store>/<id>`
// files v3 (SchemaHelper.SchemaV3Reader: a count, then per column family its name, key and value
// schema, key encoder spec and user key schema, each in chunks; Spark 4.1 also writes a 2-byte
// schema id before each of key and value, Spark 4.0 did not: both are read).
Result<SparkStateSchema> parseSparkStateSchema(std::string_view data, const std::string& path);

// Whether `row` is an UnsafeRow of `schema`'s fields: its size a multiple of 8 and at least the
// null bits and the fixed slots, every variable-length value's (offset, size) word inside the row
// and past the fixed part. FailedPrecondition saying where the bytes and the schema disagree.
Status checkUnsafeRow(std::string_view row, const std::vector<SparkField>& schema);

// An UnsafeRow decoded as a JSON object text, {"field": value, ...}. Without a schema the
// fields are guessed (their count from where the variable-length data starts, a pointer word
// as a string or a nested row, anything else as a long) and named "_0", "_1", ....
std::string unsafeRowToJson(std::string_view row, const std::vector<SparkField>* schema);

// How the files of one state/<op>/<part> folder are written.
enum class StateFolderFormat {
  kEmpty,             // no state files
  kStreamsim,         // streamsim's own (SSSTATE1 header): readStateAt reads them
  kSparkHdfs,         // Spark's HDFS-backed store (.delta / .snapshot, LZ4Block)
  kSparkHdfsOtherCodec,  // the same compressed with a codec other than lz4 (not read yet)
  kSparkRocksDB,      // Spark's RocksDB-backed store (N.zip + N.changelog; spark_rocksdb_store.h)
  kUnrecognised,      // a state file no known format starts like (detail: its path, first bytes)
};
// "empty" | "streamsim" | "spark-hdfs" | "spark-hdfs-other-codec" | "spark-rocksdb" | "unrecognised"
std::string_view stateFolderFormatName(StateFolderFormat format);
struct StateFolderInfo {
  StateFolderFormat format = StateFolderFormat::kEmpty;
  std::string detail;  // e.g. the codec found ("snappy", "zstd")
  std::map<int64_t, std::string> deltas;     // version -> path
  std::map<int64_t, std::string> snapshots;  // version -> path
  std::vector<std::string> tempFiles;        // temp-… files: a write cut short
};
Result<StateFolderInfo> classifyStateFolder(const Env& env, const std::string& dir);

// The key/value records of one partition at `version` (the newest snapshot <= version, then
// the deltas after it; removals applied), keyed by the raw key bytes.
struct SparkStatePartition {
  int64_t version = 0;
  std::vector<std::string> filesRead;
  std::map<std::string, std::string> rows;  // key UnsafeRow bytes -> value UnsafeRow bytes
};
Result<SparkStatePartition> readSparkStateVersion(const Env& env, const StateFolderInfo& folder,
                                                  int64_t version);

}  // namespace streamsim
