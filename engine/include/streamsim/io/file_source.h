// The file source: JSON-lines files landing in one folder (SEMANTICS.md §3, Spark
// RT/FileStreamSource.scala). Each planning lists the folder, picks the files never seen, logs
// them in sources/<i>/K and returns {"logOffset":K}; getBatch reads the files of log entries
// (start, end] back from that log, so a re-run after a crash reads exactly the same files.
// A FileSource belongs to one query run (a restart builds a new one); not thread-safe.
//
// Paths in sources/<i>/K are written as the FileSystem names them ("/landing/a.json"); entries
// written by Spark as URIs ("file:/landing/a.json", "file:///landing/a.json") are read too.
// Listing is non-recursive and skips directories and, as Spark's file index does, names that
// start with '.' or '_' and names ending in "._COPYING_" or ".tmp" (files still being copied).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "streamsim/io/csv_rows.h"
#include "streamsim/io/json_rows.h"
#include "streamsim/source.h"

namespace streamsim {

enum class CleanSourceMode { kOff, kArchive, kDelete };

inline constexpr DurationMs kDefaultMaxFileAgeMs = 7LL * 24 * 60 * 60 * 1000;

// Every option of SEMANTICS.md §3, with Spark's names and defaults.
struct FileSourceOptions {
  std::string path;  // the folder files land in
  SchemaPtr schema;  // required, as for Spark's streaming file sources
  std::optional<int64_t> maxFilesPerTrigger;  // > 0
  std::optional<int64_t> maxBytesPerTrigger;  // > 0; excludes maxFilesPerTrigger
  bool latestFirst = false;
  bool fileNameOnly = false;
  DurationMs maxFileAge = kDefaultMaxFileAgeMs;
  CleanSourceMode cleanSource = CleanSourceMode::kOff;
  std::string sourceArchiveDir;  // required with cleanSource=archive
  ParseMode mode = ParseMode::kPermissive;
  std::string columnNameOfCorruptRecord = "_corrupt_record";
  // The files' format: json (JSON lines), csv or text (io/csv_rows.h), and its own options
  // (CSV's sep, header, ...; text's wholetext).
  std::string format = "json";
  std::map<std::string, std::string> formatOptions;

  // Options as strings, the way scenarios and Spark pass them: maxFilesPerTrigger,
  // maxBytesPerTrigger, latestFirst, fileNameOnly, maxFileAge ("7d", "1h", or ms),
  // cleanSource (off|archive|delete), sourceArchiveDir, mode, columnNameOfCorruptRecord.
  // Keys are case-insensitive. Unknown keys and bad values are InvalidArgument.
  static Result<FileSourceOptions> fromMap(std::string path, SchemaPtr schema,
                                           const std::map<std::string, std::string>& options,
                                           std::string format = "json");
  // InvalidArgument naming the option: missing path/schema, non-positive caps, both caps,
  // archive without sourceArchiveDir or with an archive folder inside the source folder.
  Status validate() const;
  // The JSON reader of these options (format "json": mode, the corrupt-record column and the
  // datetime options of formatOptions, io/json_rows.h jsonReadOptions).
  Result<JsonRowParser> jsonParser() const;
};

class FileSource final : public Source {
 public:
  // REQUIRES: options.validate().ok() (use makeFileSource, which checks).
  explicit FileSource(FileSourceOptions options);

  std::string description() const override;
  std::string sparkClassName() const override {
    return "org.apache.spark.sql.execution.streaming.runtime.FileStreamSource";
  }
  Status restore(const SourceContext& ctx, const std::optional<std::string>& committed) override;
  Result<std::optional<std::string>> latestOffset(const SourceContext& ctx,
                                                  const std::optional<std::string>& start) override;
  Result<std::vector<Row>> getBatch(const SourceContext& ctx,
                                    const std::optional<std::string>& start,
                                    const std::string& end) override;
  Status commit(const SourceContext& ctx, const std::string& end) override;

  const FileSourceOptions& options() const { return options_; }
  // The source log's latest batch id K (-1 when nothing was ever taken).
  int64_t currentLogOffset() const { return log_offset_; }
  // Files read by the last getBatch, in read order (for tests and the trace).
  const std::vector<std::string>& lastBatchFiles() const { return last_batch_files_; }

 private:
  struct Candidate {
    std::string path;
    int64_t size = 0;
    TimeMs timestamp = 0;
  };
  // parseFileSourceOffset with "<description><which>" as the context of its error.
  Result<int64_t> readOffset(std::string_view text, std::string_view which) const;
  std::string identity(const std::string& path) const;
  bool isNewFile(const std::string& path, TimeMs timestamp) const;
  void markSeen(const std::string& path, TimeMs timestamp);
  void purge();
  DurationMs effectiveMaxFileAge() const;
  Result<std::vector<Candidate>> listCandidates(const SourceContext& ctx);
  Status ensureRestored(const SourceContext& ctx);
  void trace(const SourceContext& ctx, const std::string& json) const;
  void cleanFile(const SourceContext& ctx, const std::string& path);

  FileSourceOptions options_;
  // The reader of the format (one of them is set once the options are valid).
  std::optional<JsonRowParser> parser_;
  std::optional<CsvRowParser> csv_;
  std::optional<TextRowParser> text_;
  bool ready() const { return parser_ || csv_ || text_ || options_.format == "parquet"; }
  // The rows of file `path` (content `text`) appended to `rows`: the reader of the format, or
  // the rows the Env's ParsedFiles kept for the same bytes and reader_key_.
  Status readFile(const SourceContext& ctx, const std::string& path, std::string_view text, std::vector<Row>& rows);
  // What the rows of a file depend on besides its bytes and the schema: the format and its
  // options (ParsedFiles' `reader`).
  std::string reader_key_;
  bool restored_ = false;
  int64_t log_offset_ = -1;       // latest K in sources/<i>/
  int64_t cleaned_through_ = -1;  // log batches whose files cleanSource handled (this run)
  // Seen files (Spark's SeenFilesMap): identity -> modification time; files older than
  // latest_timestamp_ - maxFileAge are no longer new once the first batch has been taken.
  std::map<std::string, TimeMs, std::less<>> seen_;  // by identity(); found by string_view
  TimeMs latest_timestamp_ = 0;
  TimeMs last_purge_timestamp_ = std::numeric_limits<TimeMs>::min();
  // AvailableNow: identities present at the run's first planning.
  std::optional<std::set<std::string>> available_now_;
  std::vector<std::string> last_batch_files_;
};

// Checks the options; the factory builds a fresh FileSource per query run.
Result<std::function<std::unique_ptr<Source>()>> makeFileSource(FileSourceOptions options);
Result<std::function<std::unique_ptr<Source>()>> makeFileSource(
    std::string path, SchemaPtr schema, const std::map<std::string, std::string>& options = {},
    std::string format = "json");

// "file:/a/b", "file:///a/b" -> "/a/b"; anything else unchanged.
std::string stripFileUri(std::string_view path);

}  // namespace streamsim
