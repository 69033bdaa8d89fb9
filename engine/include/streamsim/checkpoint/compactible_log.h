// CompactibleFileStreamLog (Spark RT/CompactibleFileStreamLog.scala): a metadata log whose
// batches hold lists of entries, one JSON line each after "v1". Batch N is a compaction batch
// when (N+1) % compactInterval == 0 and is written as `N.compact` holding every entry so far
// (after the codec's compactLogs). Readers find `N` or `N.compact`. Borrows the Env; not
// thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/checkpoint/metadata_log.h"

namespace streamsim {

namespace detail {
// Splits and validates a compactible log file; returns its entry lines.
Result<std::vector<LogLine>> compactibleLogLines(std::string_view text,
                                                 const std::string& pathForErrors);
}  // namespace detail

inline constexpr int kDefaultCompactInterval = 10;

inline bool isCompactionBatch(int64_t batchId, int compactInterval) {
  return (batchId + 1) % compactInterval == 0;
}

// Spark's CompactibleFileStreamLog.deriveCompactInterval: the interval for a log whose only
// compact file is `latestCompactBatchId.compact`, written with an interval that divides
// latestCompactBatchId + 1 (= n): n if n <= defaultInterval or defaultInterval >= n / 2, else
// the smallest divisor of n in [defaultInterval, n / 2] (n if there is none). Spark's interval
// is an Int: Corruption if n is past int's range (`dir` names the log).
Result<int> deriveCompactInterval(int defaultInterval, int64_t latestCompactBatchId,
                                  const std::string& dir);
// Spark's CompactibleFileStreamLog.compactInterval (SPARK-18187): a log on disk keeps the
// interval it was written with, whatever the default. Two or more compact files: the gap between
// the latest two; one: deriveCompactInterval; none: `defaultInterval`. `compactBatchIds` are the
// ids of the log's latest `N.compact` files (at most the two latest matter), ascending.
Result<int> compactIntervalOf(int defaultInterval, const std::vector<int64_t>& compactBatchIds,
                              const std::string& dir);

// Codec provides:
//   static std::string serializeEntry(const Entry&);   // one JSON line, no '\n'
//   static Result<Entry> parseEntry(std::string_view line, const std::string& path, int lineNo);
//   static std::vector<Entry> compactLogs(std::vector<Entry> all);
template <typename Entry, typename Codec>
class CompactibleFileStreamLog {
 public:
  // `defaultCompactInterval` is Spark's conf (fileSink/fileSource.log.compactInterval); the
  // interval used is the one the log on disk was written with (compactInterval()).
  CompactibleFileStreamLog(const Env& env, std::string dir,
                           int defaultCompactInterval = kDefaultCompactInterval)
      : files_(env, std::move(dir)), default_interval_(defaultCompactInterval) {}

  const std::string& dir() const { return files_.dir(); }
  // Spark's lazy val compactInterval: derived from the compact files on disk at first use
  // (compactIntervalOf), then fixed for this object.
  Result<int> compactInterval() {
    if (interval_) return *interval_;
    STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> ids, listBatchIds());
    std::vector<int64_t> compacts;  // the latest two, ascending
    for (auto it = ids.rbegin(); it != ids.rend() && compacts.size() < 2; ++it)
      if (isCompactFile(*it)) compacts.insert(compacts.begin(), *it);
    STREAMSIM_ASSIGN_OR_RETURN(int interval, compactIntervalOf(default_interval_, compacts, dir()));
    interval_ = interval;
    return interval;
  }

  // File name batch `batchId` is written under by this log.
  Result<std::string> fileNameFor(int64_t batchId) {
    STREAMSIM_ASSIGN_OR_RETURN(int interval, compactInterval());
    return isCompactionBatch(batchId, interval) ? std::to_string(batchId) + ".compact"
                                                : std::to_string(batchId);
  }

  static std::string serialize(const std::vector<Entry>& entries) {
    std::string out = "v1";
    for (const Entry& e : entries) {
      out.push_back('\n');
      out += Codec::serializeEntry(e);
    }
    return out;
  }
  static Result<std::vector<Entry>> parse(std::string_view text, const std::string& path) {
    STREAMSIM_ASSIGN_OR_RETURN(auto lines, detail::compactibleLogLines(text, path));
    std::vector<Entry> out;
    out.reserve(lines.size());
    for (const LogLine& l : lines) {
      STREAMSIM_ASSIGN_OR_RETURN(Entry e, Codec::parseEntry(l.text, path, l.lineNo));
      out.push_back(std::move(e));
    }
    return out;
  }

  // Adds batch `batchId`. A compaction batch is written as `N.compact` with allFiles() before
  // it plus `entries`, compacted. False (nothing written) if batch N exists under either name.
  Result<bool> add(int64_t batchId, const std::vector<Entry>& entries) {
    if (files_.env().fs->exists(files_.batchPath(batchId)) ||
        files_.env().fs->exists(files_.batchPath(batchId) + ".compact"))
      return false;
    STREAMSIM_ASSIGN_OR_RETURN(std::string name, fileNameFor(batchId));
    STREAMSIM_ASSIGN_OR_RETURN(int interval, compactInterval());
    if (!isCompactionBatch(batchId, interval))
      return files_.addRaw(batchId, serialize(entries), name);
    std::vector<Entry> all;
    if (batchId > 0) {
      STREAMSIM_ASSIGN_OR_RETURN(all, allFilesUpTo(batchId - 1));
    }
    all.insert(all.end(), entries.begin(), entries.end());
    return files_.addRaw(batchId, serialize(Codec::compactLogs(std::move(all))), name);
  }

  // Entries of batch `batchId` as stored (`N` or else `N.compact`); nullopt if neither exists.
  Result<std::optional<std::vector<Entry>>> get(int64_t batchId) {
    for (const std::string& name :
         {std::to_string(batchId), std::to_string(batchId) + ".compact"}) {
      STREAMSIM_ASSIGN_OR_RETURN(auto raw, files_.readRaw(name));
      if (!raw) continue;
      STREAMSIM_ASSIGN_OR_RETURN(auto v, parse(*raw, joinPath(files_.dir(), name)));
      return std::optional<std::vector<Entry>>(std::move(v));
    }
    return std::optional<std::vector<Entry>>();
  }

  // Batch ids present (`N` and `N.compact` alike), ascending, without duplicates.
  Result<std::vector<int64_t>> listBatchIds() { return files_.listBatchIds(true); }
  Result<std::optional<int64_t>> getLatestBatchId() {
    STREAMSIM_ASSIGN_OR_RETURN(auto ids, listBatchIds());
    if (ids.empty()) return std::optional<int64_t>();
    return std::optional<int64_t>(ids.back());
  }
  // True if `N.compact` exists.
  bool isCompactFile(int64_t batchId) {
    return files_.env().fs->exists(files_.batchPath(batchId) + ".compact");
  }

  // Every entry up to the latest batch: the latest compact file plus the batches after it,
  // through Codec::compactLogs. Empty if the log is empty or missing.
  Result<std::vector<Entry>> allFiles() {
    STREAMSIM_ASSIGN_OR_RETURN(auto latest, getLatestBatchId());
    if (!latest) return std::vector<Entry>();
    return allFilesUpTo(*latest);
  }
  // Same, up to and including `lastBatchId`. Corruption if a batch between the last compact
  // file and `lastBatchId` is missing; NotFound if the log starts after batch 0 without a
  // compact file (the one listing the earlier batches is gone).
  Result<std::vector<Entry>> allFilesUpTo(int64_t lastBatchId) {
    STREAMSIM_ASSIGN_OR_RETURN(auto ids, listBatchIds());
    int64_t start = -1;  // first batch to read
    bool any = false;
    for (int64_t id : ids) {
      if (id > lastBatchId) break;
      any = true;
      if (start < 0) start = id;
      if (isCompactFile(id)) start = id;
    }
    std::vector<Entry> all;
    if (!any) return all;
    // Batches before the first one are in a compact file or nowhere: a log that starts at
    // batch K > 0 with a plain file lost the compact file (K-1).compact and every batch it
    // listed. Spark fails likewise (CompactibleFileStreamLog.allFiles: "... doesn't exist").
    if (start > 0 && !isCompactFile(start))
      return Status::NotFound(fmt::format(
          "{}: batches 0 to {} are missing: the log starts at batch {} with no compact file "
          "before it ({}/{}.compact, which would list every file up to batch {}, is gone)",
          files_.dir(), start - 1, start, files_.dir(), start - 1, start - 1));
    for (int64_t id = start; id <= lastBatchId; ++id) {
      STREAMSIM_ASSIGN_OR_RETURN(auto batch, get(id));
      if (!batch)
        return Status::Corruption(fmt::format(
            "{}: batch {} is missing (needed to list files up to batch {}; batch ids must be "
            "contiguous after the last compact file {})",
            files_.dir(), id, lastBatchId, start));
      all.insert(all.end(), std::make_move_iterator(batch->begin()),
                 std::make_move_iterator(batch->end()));
    }
    return Codec::compactLogs(std::move(all));
  }

 private:
  MetadataLogFiles files_;
  int default_interval_;
  std::optional<int> interval_;
};

}  // namespace streamsim
