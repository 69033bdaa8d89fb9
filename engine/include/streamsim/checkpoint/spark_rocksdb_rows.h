// Decodes the keys and values of Spark's RocksDB state store (RocksDBStateEncoder, UnsafeRow
// encoding): a 2-byte virtual column family id first when the store has column families
// (transformWithState; RocksDBStateStoreProvider.encodeStateRowWithPrefix, native byte order),
// then per part a 1-byte encoder version (STATE_ENCODING_VERSION, 0) and an UnsafeRow; prefix-scan
// keys (MapState) as a 4-byte length, the prefix part and the rest; list values (ListState) as
// 4-byte-length-prefixed values joined by ','; range-scan keys (timers, TTL index:
// RangeKeyScanStateEncoderSpec) as a 4-byte length, the ordering columns each a marker byte and
// its big-endian value, then the other columns. Rows shown as JSON by spark_state_store.h's
// UnsafeRow decoder. The Avro encoding (spark.sql.streaming.stateStore.encodingFormat=avro,
// AvroStateEncoder) in the same frames: Spark 4.1 writes the version byte, then for a whole key, a
// key's remaining part and a value the 2-byte schema id its schema file v3 records, then Avro
// binary (spark_avro_binary.h, toAvroTypeWithDefaults; a range-scan prefix as a record of a marker
// and a big-endian value per ordering column, each Avro bytes); Spark 4.0 (its schema file has no
// ids) wrote a key as the version byte and Avro binary (toAvroType), a value as Avro binary
// alone, as its golden checkpoint checkpoint-version-4.0.0-tws-avro shows.
// Plain functions; thread-safe.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/status.h"

namespace streamsim {

// How one store's rows are laid out.
enum class SparkStateEncoding { kUnsafeRow, kAvro };

struct SparkRocksDBLayout {
  SparkStateEncoding encoding = SparkStateEncoding::kUnsafeRow;
  // Virtual column families (the snapshot metadata's columnFamilyMapping, inverted): a key's
  // first 2 bytes name its family. Empty: keys have no family prefix.
  std::map<int, std::string> familyById;
  // The schema of each family by name (schema file v3); a store without families: its one
  // schema (v1/v2 `_metadata/schema`) under "default". A family without one: fields guessed.
  std::map<std::string, SparkColumnFamilySchema> families;
  std::set<std::string> listFamilies;  // ListState variables: several values per key
};

struct SparkRocksDBRow {
  std::string columnFamily;  // "default" in a store without families
  std::string keyJson;       // {"field": value, ...}
  std::string valueJson;     // an object, or for a list family an array of objects
};

// One raw RocksDB row decoded. FailedPrecondition saying which part (family id, key, value,
// list element) does not follow the layout or does not match its schema.
Result<SparkRocksDBRow> decodeSparkRocksDBRow(const SparkRocksDBLayout& layout, std::string_view key,
                                              std::string_view value);

}  // namespace streamsim
