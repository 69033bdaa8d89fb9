// The commit log `<checkpoint>/commits/N` (SEMANTICS.md §2, Spark CP/CommitLog.scala): written
// after batch N completed. v1 `{"nextBatchWatermarkMs":W}`, old `{}`, v2 adds stateUniqueIds,
// v3 (Spark 4.2, sink evolution: SPARK-56719/56971/56972) adds sinkMetadataMap, the sinks by
// name. One writer and one reader for the format (docs/checkpoint-format.md). Not thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/checkpoint/metadata_log.h"
#include "streamsim/time.h"

namespace streamsim {

// One sink of a v3 commit (Spark CP/CommitLog.scala SinkMetadataInfo): written in this field order.
struct SinkMetadataInfo {
  std::string sinkName;
  std::string commitOffset = "-";  // the sink's committed offset JSON, "-" for none
  std::string providerName;        // the sink's class name
  std::optional<std::string> apiVersion;  // Spark 4.2's field; absent in master's first shape
  bool isActive = true;
};

struct CommitMetadata {
  int formatVersion = 1;                          // the "v<N>" header: 1, 2 or 3
  std::optional<TimeMs> nextBatchWatermarkMs;     // nullopt for the old `{}` body (Spark: 0)
  std::optional<std::string> stateUniqueIdsJson;  // the raw JSON object, when present
  std::vector<SinkMetadataInfo> sinks;            // v3: sinkMetadataMap in file order, one active
  // The active sink of a v3 commit, nullptr otherwise.
  const SinkMetadataInfo* activeSink() const;
};

struct CommitLogCodec {
  static constexpr int kMaxVersion = 3;
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
