// HDFSMetadataLog over the engine's Env: one file per batch id, `<dir>/<N>`, written once with
// writeFileAtomically (temp `.<N>.<uuid>.tmp` + rename) and never overwritten (SEMANTICS.md §2,
// docs/checkpoint-format.md). The log object owns nothing but its path; the Env is borrowed.
// Not thread-safe: one writer per log, as in Spark.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/env.h"

namespace streamsim {

// One line of a log file with its 1-based line number in that file (for error messages).
struct LogLine {
  int lineNo = 0;
  std::string_view text;
};

// A log file split into its "v<N>" header and the lines after it. Views point into the text
// passed to splitLogFile, which must outlive this value.
struct LogFileLines {
  int version = 0;
  std::vector<LogLine> lines;  // lines after the header; an empty last line is dropped
};

// Parses the header of `text` (the content of `pathForErrors`). Corruption if the text is empty
// (a torn write), if line 1 is not "v<N>" or if N > maxSupportedVersion (the message names the
// file, the version found and the highest supported).
Result<LogFileLines> splitLogFile(std::string_view text, int maxSupportedVersion,
                                  const std::string& pathForErrors);

// Splits text on '\n' (a trailing '\r' is kept). Numbers lines from 1.
std::vector<LogLine> splitLines(std::string_view text);

// The batch id a log file name stands for: "12" -> 12; "12.compact" -> 12 when acceptCompact;
// temp files (".12.<uuid>.tmp"), "-3", "12.crc", "abc" -> nullopt.
std::optional<int64_t> batchIdFromFileName(std::string_view name, bool acceptCompact);

// The raw-bytes half of HDFSMetadataLog: naming, listing, atomic add. Typed logs wrap it.
class MetadataLogFiles {
 public:
  MetadataLogFiles(const Env& env, std::string dir) : env_(env), dir_(std::move(dir)) {}

  const std::string& dir() const { return dir_; }
  const Env& env() const { return env_; }
  std::string batchPath(int64_t batchId) const;

  // Writes `data` as batch `batchId` unless that file exists. Returns true if written, false if
  // the batch was already there (Spark's add() returning false; the existing file is untouched).
  Result<bool> addRaw(int64_t batchId, std::string_view data, const std::string& fileName);
  Result<bool> addRaw(int64_t batchId, std::string_view data) {
    return addRaw(batchId, data, std::to_string(batchId));
  }
  // The content of `<dir>/<fileName>`, or nullopt if it does not exist.
  Result<std::optional<std::string>> readRaw(const std::string& fileName);
  // Batch ids present in the folder, ascending; empty if the folder does not exist.
  Result<std::vector<int64_t>> listBatchIds(bool acceptCompact = false);
  // Spark's HDFSMetadataLog.purge: deletes every batch file with an id < thresholdBatchId
  // (exclusive), found by listing the folder. Returns how many files were deleted.
  Result<int64_t> purge(int64_t thresholdBatchId);
  // Deletes the batch files fromBatchId <= id < thresholdBatchId by name, without listing: the
  // cheap form of purge() for a writer that already purged everything below fromBatchId. A
  // missing file is not an error (the batch may never have been written or already deleted).
  Status purgeRange(int64_t fromBatchId, int64_t thresholdBatchId);

 private:
  Env env_;
  std::string dir_;
};

// A typed HDFSMetadataLog. Codec provides:
//   static constexpr int kMaxVersion;
//   static std::string serialize(const T&);
//   static Result<T> parse(std::string_view text, const std::string& pathForErrors);
template <typename T, typename Codec>
class HDFSMetadataLog {
 public:
  HDFSMetadataLog(const Env& env, std::string dir) : files_(env, std::move(dir)) {}

  const std::string& dir() const { return files_.dir(); }
  std::string batchPath(int64_t batchId) const { return files_.batchPath(batchId); }

  // Writes batch `batchId`; false (and no write) if it already exists.
  Result<bool> add(int64_t batchId, const T& value) {
    return files_.addRaw(batchId, Codec::serialize(value));
  }
  // nullopt if batch `batchId` has no file; Corruption if it cannot be parsed.
  Result<std::optional<T>> get(int64_t batchId) {
    STREAMSIM_ASSIGN_OR_RETURN(auto raw, files_.readRaw(std::to_string(batchId)));
    if (!raw) return std::optional<T>();
    STREAMSIM_ASSIGN_OR_RETURN(T v, Codec::parse(*raw, files_.batchPath(batchId)));
    return std::optional<T>(std::move(v));
  }
  // The highest batch id and its content; nullopt when the log is empty or missing.
  Result<std::optional<std::pair<int64_t, T>>> getLatest() {
    STREAMSIM_ASSIGN_OR_RETURN(auto ids, files_.listBatchIds());
    if (ids.empty()) return std::optional<std::pair<int64_t, T>>();
    STREAMSIM_ASSIGN_OR_RETURN(auto v, get(ids.back()));
    if (!v) return Status::NotFound(files_.batchPath(ids.back()) + " vanished while reading");
    return std::optional<std::pair<int64_t, T>>(std::make_pair(ids.back(), std::move(*v)));
  }
  Result<std::optional<int64_t>> getLatestBatchId() {
    STREAMSIM_ASSIGN_OR_RETURN(auto ids, files_.listBatchIds());
    if (ids.empty()) return std::optional<int64_t>();
    return std::optional<int64_t>(ids.back());
  }
  Result<std::vector<int64_t>> listBatchIds() { return files_.listBatchIds(); }
  // Deletes batches < thresholdBatchId (MetadataLogFiles::purge).
  Result<int64_t> purge(int64_t thresholdBatchId) { return files_.purge(thresholdBatchId); }
  Status purgeRange(int64_t fromBatchId, int64_t thresholdBatchId) {
    return files_.purgeRange(fromBatchId, thresholdBatchId);
  }
  MetadataLogFiles& files() { return files_; }

 private:
  MetadataLogFiles files_;
};

}  // namespace streamsim
