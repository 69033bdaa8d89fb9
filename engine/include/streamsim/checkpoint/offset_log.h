// The offset log `<checkpoint>/offsets/N` (SEMANTICS.md §2, Spark CP/OffsetSeqLog.scala):
// "v1", the OffsetSeqMetadata JSON, then one line per source ("-" when it has no offset).
// One writer (serialize) and one reader (parse) for the format. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/checkpoint/metadata_log.h"
#include "streamsim/time.h"

namespace streamsim {

struct OffsetSeqMetadata {
  TimeMs batchWatermarkMs = 0;
  TimeMs batchTimestampMs = 0;
  std::map<std::string, std::string> conf;  // written sorted by key (Spark's order is a hash map's)
  bool hasConf = true;                      // false for Spark 2.1 files (no "conf" key)
};

struct OffsetSeq {
  int formatVersion = 1;  // 1 or 2
  OffsetSeqMetadata metadata;
  std::vector<std::optional<std::string>> offsets;  // one JSON text per source; nullopt = "-"
  std::vector<std::string> sourceIds;               // v2 only: same length as offsets
};

struct OffsetLogCodec {
  static constexpr int kMaxVersion = 2;
  static std::string serialize(const OffsetSeq& seq);
  static Result<OffsetSeq> parse(std::string_view text, const std::string& pathForErrors);
};

// `<checkpoint>/offsets`. Batch N's file is written before batch N runs.
class OffsetLog : public HDFSMetadataLog<OffsetSeq, OffsetLogCodec> {
 public:
  OffsetLog(const Env& env, const std::string& checkpointRoot)
      : HDFSMetadataLog(env, joinPath(checkpointRoot, "offsets")) {}
  static std::string serialize(const OffsetSeq& seq) { return OffsetLogCodec::serialize(seq); }
  static Result<OffsetSeq> parse(std::string_view text, const std::string& pathForErrors) {
    return OffsetLogCodec::parse(text, pathForErrors);
  }
};

// File source offsets (RT/FileStreamSourceOffset.scala). Written as {"logOffset":K}; read in
// all three legacy encodings: {"logOffset":345}, 345, { "batchId": 345 }.
std::string fileSourceOffsetJson(int64_t logOffset);
Result<int64_t> parseFileSourceOffset(std::string_view text, const std::string& pathForErrors);
// K of an offset exactly as fileSourceOffsetJson writes it ({"logOffset":K}, no spaces, no
// leading zeros); nullopt for any other text, which parseFileSourceOffset reads or rejects. Lets
// the file source read its own offsets without building the context of an error message.
std::optional<int64_t> writtenFileSourceOffset(std::string_view text);

}  // namespace streamsim
