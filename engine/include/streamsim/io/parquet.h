// Parquet files <-> Rows, written from the Apache Parquet format spec (apache/parquet-format:
// README.md "File format", Encodings.md, Compression.md, LogicalTypes.md, parquet.thrift).
// Pure bytes in, bytes out: callers read and write files through the Env.
//
// Writer (what Spark's ParquetWriteSupport writes with its defaults, one row group, one data
// page v1 per column, PLAIN values, RLE levels): boolean BOOLEAN, int INT32, long INT64, double
// DOUBLE, string BYTE_ARRAY (STRING), binary BYTE_ARRAY, date INT32 (DATE), timestamp INT96
// (spark.sql.parquet.outputTimestampType's default), struct a group, array
// `group (LIST) { repeated group list { element } }`, map
// `group (MAP) { repeated group key_value { required key; value } }`; nullable fields
// OPTIONAL, the others REQUIRED. Codec UNCOMPRESSED or SNAPPY (libsnappy).
//
// Reader: any writer's flat and nested files (data pages v1 and v2, dictionary pages; PLAIN,
// PLAIN_DICTIONARY/RLE_DICTIONARY, RLE booleans; RLE/bit-packed levels; UNCOMPRESSED, SNAPPY,
// GZIP), mapped to Spark's types as ParquetToSparkSchemaConverter does, within the engine's
// types: INT32 int (INT(8/16/32), unsigned INT(8/16) too), INT(32, unsigned) and INT64 long,
// FLOAT and DOUBLE double (the engine has no float), BYTE_ARRAY with STRING/ENUM/JSON string, other
// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY binary, DATE date, INT96 and TIMESTAMP(MILLIS/MICROS/
// NANOS) timestamp (cut to the engine's milliseconds), LIST array, MAP map, other groups struct,
// and a repeated field outside a LIST a required array (LogicalTypes.md "Nested Types" and its
// backward-compatibility rules). Not read (an error naming the column): DECIMAL, TIME,
// INTERVAL, UINT64, FLOAT16, DELTA_* and BYTE_STREAM_SPLIT encodings, LZO/BROTLI/LZ4/ZSTD,
// encrypted files, column chunks in other files.
//
// Errors (never a crash, for any bytes): Corruption naming the file, the byte offset and what
// was expected; InvalidArgument naming the column for what is valid Parquet but not read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/value.h"

namespace streamsim {

enum class ParquetCodec { kUncompressed, kSnappy, kGzip };

// Spark's parquet `compression` option / spark.sql.parquet.compression.codec names
// (case-insensitive): "none" and "uncompressed", "snappy", "gzip". The codecs Spark has and
// streamsim does not write (lzo, brotli, lz4, lz4_raw, zstd) are InvalidArgument saying so.
Result<ParquetCodec> parseParquetCodec(std::string_view name);
// The part of a data file's name Spark puts before ".parquet": ".snappy", ".gz", or ""
// uncompressed.
std::string_view parquetCodecFileInfix(ParquetCodec codec);

// A whole Parquet file of `rows` (of `schema`): "PAR1", one row group (none when `rows` is
// empty), the footer, its length, "PAR1". InvalidArgument when a row's value does not fit its
// field (a null in a non-nullable one, another type).
Result<std::string> writeParquet(const Schema& schema, const std::vector<Row>& rows,
                                 ParquetCodec codec = ParquetCodec::kSnappy);

struct ParquetContents {
  SchemaPtr schema;
  std::vector<Row> rows;
  std::string createdBy;  // the footer's created_by ("" when absent)
};

// The schema (as Spark reads it) of the Parquet file `bytes`, from its footer only.
Result<SchemaPtr> readParquetSchema(std::string_view bytes, std::string_view fileName);
// Every row of every row group of the Parquet file `bytes`.
Result<ParquetContents> readParquet(std::string_view bytes, std::string_view fileName);
// The rows of the file as rows of `schema` (the file's own when null): columns matched by
// name, case-insensitively (Spark's spark.sql.caseSensitive=false), a column the file lacks
// null, another type cast (Value::castTo) or an InvalidArgument naming the file and column.
Result<std::vector<Row>> readParquetAs(std::string_view bytes, std::string_view fileName, const SchemaPtr& schema);

}  // namespace streamsim
