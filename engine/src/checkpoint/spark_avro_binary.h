// Avro binary (the Avro 1.11 specification's binary encoding) of a Spark row, as Spark's
// AvroSerializer writes it with the schema SchemaConverters derives from the row's StructType:
// toAvroTypeWithDefaults (Spark 4.1's AvroStateEncoder: every field a union of null first and the
// type, a nested struct, array or map itself such a union) or toAvroType (Spark 4.0's: a nullable
// field a union of the type first and null; a non-nullable one the type alone). The types:
// boolean, byte/short/integer/date as int, long/timestamp/timestamp_ntz as long, float, double,
// string, binary as bytes, decimal as fixed (Decimal.minBytesForPrecision bytes, big-endian
// two's complement), struct as record, array, map with string keys.
// Plain functions over bytes; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/spark_state_store.h"
#include "streamsim/status.h"

namespace streamsim::detail {

enum class SparkAvroSchemaStyle {
  kWithDefaults,  // SchemaConverters.toAvroTypeWithDefaults (Spark 4.1)
  kPlain,         // SchemaConverters.toAvroType (Spark 4.0)
};

// The record of `fields` at `pos` in `bytes`, as JSON {"field": value, ...}; `pos` moves past it.
// FailedPrecondition naming the field and the byte offset where the bytes and the schema disagree.
Result<nlohmann::json> decodeSparkAvroRecord(std::string_view bytes, size_t& pos,
                                             const std::vector<SparkField>& fields, SparkAvroSchemaStyle style);

// A whole encoded row: the record and nothing after it.
Result<nlohmann::json> decodeSparkAvroRow(std::string_view bytes, const std::vector<SparkField>& fields,
                                          SparkAvroSchemaStyle style);

// Avro's bytes value (a zig-zag varint length, then the bytes) at `pos`.
Result<std::string_view> readAvroBytes(std::string_view bytes, size_t& pos);
// Avro's int/long (a zig-zag varint) at `pos`.
Result<int64_t> readAvroLong(std::string_view bytes, size_t& pos);

}  // namespace streamsim::detail
