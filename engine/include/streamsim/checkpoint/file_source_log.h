// The file source's log `<checkpoint>/sources/<i>/K` (Spark RT/FileStreamSourceLog.scala): the
// files the source took at its own offset K, one `{"path":...,"timestamp":...,"batchId":K}`
// line each. Compacted every 10 batches. Borrows the Env; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/checkpoint/compactible_log.h"
#include "streamsim/time.h"

namespace streamsim {

struct FileSourceEntry {
  std::string path;       // a URI as Spark writes it, e.g. "file:/data/in/a.json"
  TimeMs timestamp = 0;   // the file's modification time
  int64_t batchId = 0;    // the source log offset K that took the file
  bool operator==(const FileSourceEntry&) const = default;
};

struct FileSourceLogCodec {
  static std::string serializeEntry(const FileSourceEntry& e);
  static Result<FileSourceEntry> parseEntry(std::string_view line, const std::string& path,
                                            int lineNo);
  static std::vector<FileSourceEntry> compactLogs(std::vector<FileSourceEntry> all) { return all; }
};

class FileSourceLog : public CompactibleFileStreamLog<FileSourceEntry, FileSourceLogCodec> {
 public:
  // `dir` is the log folder itself, e.g. sourceLogDir(checkpoint, 0).
  FileSourceLog(const Env& env, std::string dir, int compactInterval = kDefaultCompactInterval)
      : CompactibleFileStreamLog(env, std::move(dir), compactInterval) {}

  // The entries of batch `batchId`, as Spark's FileStreamSourceLog.get: from `N` or
  // `N.compact`; when neither is there (removed after a compaction, e.g. a Spark 2.1 log holding
  // only `2.compact`, `3`, `4`), the entries of the latest compact file whose batchId is N.
  // nullopt if no file has the batch. Entries of other batches in a compact file are returned
  // too (callers keep those with batchId == N).
  Result<std::optional<std::vector<FileSourceEntry>>> get(int64_t batchId);
};

// "<checkpoint>/sources/<i>"
// sources/<sourceIndex>/, or sources/<sourceName>/ for a source named under Spark 4.2's source
// evolution.
std::string sourceLogDir(const std::string& checkpointRoot, int sourceIndex, const std::string& sourceName = "");

}  // namespace streamsim
