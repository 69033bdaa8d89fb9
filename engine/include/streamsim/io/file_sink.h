// The file sink: JSON-lines, Parquet (io/parquet.h), CSV or text (io/csv_rows.h) output files plus `<path>/_spark_metadata/N` (SEMANTICS.md §1-§2,
// Spark sinks/FileStreamSink.scala). Batch N writes its data files, then the metadata log entry
// listing them; a batch id at or below the log's latest is skipped, so a re-run after a crash
// never doubles the output. Readers go through readFileSinkOutput, which sees only files listed
// in the log: files a crashed batch left behind (orphans) never show up.
//
// The sink records its output path in `<checkpoint>/sink_path` ({"path":"/out"}, written once,
// atomically) and refuses a restart that points the same checkpoint at another path. Paths in
// the log are written as the FileSystem names them; "file:" URIs written by Spark are read too.
// A FileSink belongs to one query run; not thread-safe. The free functions only read.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/checkpoint/compactible_log.h"
#include "streamsim/io/parquet.h"
#include "streamsim/sink.h"

namespace streamsim {

struct FileSinkOptions {
  std::string path;                               // the output folder
  int compactInterval = kDefaultCompactInterval;  // _spark_metadata compaction (Spark: 10)
  std::string format = "json";                    // "json" | "parquet" | "csv" | "text"
  ParquetCodec parquetCodec = ParquetCodec::kSnappy;  // Spark's default compression
  std::map<std::string, std::string> formatOptions;   // csv: the CSV writer's options (io/csv_rows.h)
};

// The options a file sink (or a batch file writer) refuses before anything runs: the CSV
// writer's bad options, JSON's writer patterns (not built).
Status checkFileSinkOptions(const FileSinkOptions& o);

// `rows` (non-empty, of one schema) as one data file of `o.format`, named as Spark's file writers
// name it: part-00000-<uuid>-c000[.<codec>].<ext>. InvalidArgument for a bad option or a column
// type the format cannot hold. The streaming sink writes each batch so; a batch writer too.
struct EncodedDataFile {
  std::string name;
  std::string data;
};
Result<EncodedDataFile> encodeDataFile(const FileSinkOptions& o, const std::vector<Row>& rows,
                                       std::string_view uuid);

class FileSink final : public Sink {
 public:
  explicit FileSink(FileSinkOptions options) : options_(std::move(options)) {}

  std::string description() const override { return "FileSink[" + options_.path + "]"; }

  std::string sparkClassName() const override { return "org.apache.spark.sql.execution.streaming.sinks.FileStreamSink"; }

  std::string sparkApiVersion() const override { return "v1"; }
  // Creates the output folder and checks/records the path in <checkpoint>/sink_path
  // (FailedPrecondition when the checkpoint was written with another path); InvalidArgument for
  // a bad CSV option.
  Status start(const SinkContext& ctx) override;
  // Writes `part-00000-<uuid>-c000.json` (Parquet: `...-c000.snappy.parquet`, or
  // `-c000.parquet` uncompressed, as Spark names them; CSV `.csv`, text `.txt`; none for an
  // empty batch; a schema the CSV or text writer refuses fails the batch with Spark's
  // condition, as FileFormatWriter does), passes
  // sink.after_data_files, writes _spark_metadata/N (N.compact on compaction batches), passes
  // sink.after_metadata. Skips batch ids <= the log's latest.
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override;

  const FileSinkOptions& options() const { return options_; }

 private:
  FileSinkOptions options_;
};

// The file that records the sink path in a checkpoint, and the path it records (nullopt when
// the checkpoint has no such file; Corruption naming it when it is not {"path":"..."}).
std::string sinkPathRecordFile(const std::string& checkpointRoot);
Result<std::optional<std::string>> readSinkPathRecord(const Env& env, const std::string& checkpointRoot);

// Rows a reader of the output folder sees: the files listed in _spark_metadata (after
// compaction and "delete" entries), in log order, parsed with `schema` (FAILFAST: a corrupt
// data file is an error naming it; files named *.parquet are read as Parquet, their columns
// matched to `schema` by name: readParquetAs). NotFound if `path` does not exist; empty when
// no batch was committed yet.
Result<std::vector<Row>> readFileSinkOutput(const Env& env, const std::string& path,
                                            SchemaPtr schema);
// The files a batch reader of `path` reads (Spark's file index, MetadataLogFileIndex for a sink
// folder): a file sink's folder, the files its _spark_metadata log committed (log order); another
// folder, its files whose names do not start with '_' or '.' (sorted); a file, itself. NotFound
// (Spark's PATH_NOT_FOUND message) when `path` does not exist.
Result<std::vector<std::string>> filesToRead(const Env& env, const std::string& path);
// What spark.read.parquet(path) reads: a file sink's folder (its committed files), a folder's
// Parquet files (names not starting with '_' or '.', sorted), or one file; with `schema` (the
// first file's when null) as readParquetAs. NotFound naming `path` when it does not exist;
// `schema` null and no file: InvalidArgument (Spark's UNABLE_TO_INFER_SCHEMA).
Result<ParquetContents> readParquetPath(const Env& env, const std::string& path, SchemaPtr schema);

// Data files in `path` (not hidden, not folders) that _spark_metadata does not list, sorted.
Result<std::vector<std::string>> listFileSinkOrphans(const Env& env, const std::string& path);

std::function<std::unique_ptr<Sink>()> makeFileSink(std::string path);
std::function<std::unique_ptr<Sink>()> makeFileSink(FileSinkOptions options);

}  // namespace streamsim
