// The commit log `<checkpoint>/commits/N` (SEMANTICS.md §2, Spark CP/CommitLog.scala): written
// after batch N completed. v1 `{"nextBatchWatermarkMs":W}`, old `{}`, v2 adds stateUniqueIds.
// One writer and one reader for the format. Not thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "streamsim/checkpoint/metadata_log.h"
#include "streamsim/time.h"

namespace streamsim {

struct CommitMetadata {
  int formatVersion = 1;                          // the "v<N>" header: 1 or 2
  std::optional<TimeMs> nextBatchWatermarkMs;     // nullopt for the old `{}` body (Spark: 0)
  std::optional<std::string> stateUniqueIdsJson;  // the raw JSON object, when present
};

struct CommitLogCodec {
  static constexpr int kMaxVersion = 2;
  static std::string serialize(const CommitMetadata& m);
  static Result<CommitMetadata> parse(std::string_view text, const std::string& pathForErrors);
};

// `<checkpoint>/commits`.
class CommitLog : public HDFSMetadataLog<CommitMetadata, CommitLogCodec> {
 public:
  CommitLog(const Env& env, const std::string& checkpointRoot)
      : HDFSMetadataLog(env, joinPath(checkpointRoot, "commits")) {}
  static std::string serialize(const CommitMetadata& m) { return CommitLogCodec::serialize(m); }
  static Result<CommitMetadata> parse(std::string_view text, const std::string& pathForErrors) {
    return CommitLogCodec::parse(text, pathForErrors);
  }
};

}  // namespace streamsim
