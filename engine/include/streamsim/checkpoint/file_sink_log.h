// The file sink's log `<sinkPath>/_spark_metadata/N` (Spark sinks/FileStreamSinkLog.scala): the
// output files batch N committed. Readers of the output folder see only files listed here.
// Compaction drops files with a "delete" action. Borrows the Env; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/checkpoint/compactible_log.h"
#include "streamsim/time.h"

namespace streamsim {

struct SinkFileStatus {
  std::string path;
  int64_t size = 0;
  bool isDir = false;
  TimeMs modificationTime = 0;
  int blockReplication = 1;
  int64_t blockSize = 0;
  std::string action = "add";  // "add" or "delete"
  bool operator==(const SinkFileStatus&) const = default;
};

inline constexpr std::string_view kSinkAddAction = "add";
inline constexpr std::string_view kSinkDeleteAction = "delete";

struct FileSinkLogCodec {
  static std::string serializeEntry(const SinkFileStatus& e);
  static Result<SinkFileStatus> parseEntry(std::string_view line, const std::string& path,
                                           int lineNo);
  // Removes every entry whose path has a "delete" entry (and the delete entries themselves).
  static std::vector<SinkFileStatus> compactLogs(std::vector<SinkFileStatus> all);
};

class FileSinkLog : public CompactibleFileStreamLog<SinkFileStatus, FileSinkLogCodec> {
 public:
  // `sinkPath` is the output folder; the log lives in `<sinkPath>/_spark_metadata`.
  FileSinkLog(const Env& env, const std::string& sinkPath,
              int compactInterval = kDefaultCompactInterval)
      : CompactibleFileStreamLog(env, sinkLogDir(sinkPath), compactInterval) {}
  static std::string sinkLogDir(const std::string& sinkPath) {
    return joinPath(sinkPath, "_spark_metadata");
  }
};

}  // namespace streamsim
