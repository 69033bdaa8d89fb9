// Commit log format (SEMANTICS.md §2, docs/checkpoint-format.md "commits/N").
#include "streamsim/checkpoint/commit_log.h"

#include <fmt/format.h>

#include "checkpoint/json_util.h"

namespace streamsim {

std::string CommitLogCodec::serialize(const CommitMetadata& m) {
  std::string out = fmt::format("v{}\n{{", m.formatVersion);
  bool first = true;
  if (m.nextBatchWatermarkMs) {
    out += fmt::format("\"nextBatchWatermarkMs\":{}", *m.nextBatchWatermarkMs);
    first = false;
  }
  if (m.stateUniqueIdsJson) {
    if (!first) out.push_back(',');
    out += "\"stateUniqueIds\":";
    out += *m.stateUniqueIdsJson;
  }
  out.push_back('}');
  return out;
}

Result<CommitMetadata> CommitLogCodec::parse(std::string_view text, const std::string& path) {
  STREAMSIM_ASSIGN_OR_RETURN(auto file, splitLogFile(text, kMaxVersion, path));
  if (file.lines.empty())
    return Status::Corruption(fmt::format(
        "{}:2: incomplete commit log file: expected {{\"nextBatchWatermarkMs\":...}} after \"v{}\"",
        path, file.version));
  const LogLine& line = file.lines[0];
  STREAMSIM_ASSIGN_OR_RETURN(auto j, detail::parseJsonAt(detail::trimView(line.text), path,
                                                         line.lineNo, "the commit metadata object"));
  if (!j.is_object())
    return Status::Corruption(fmt::format("{}:{}: expected the commit metadata object, found {}",
                                          path, line.lineNo, j.dump()));
  CommitMetadata m;
  m.formatVersion = file.version;
  STREAMSIM_ASSIGN_OR_RETURN(m.nextBatchWatermarkMs,
                             detail::optionalInt(j, "nextBatchWatermarkMs", path, line.lineNo));
  auto ids = j.find("stateUniqueIds");
  if (ids != j.end() && !ids->is_null()) {
    if (!ids->is_object())
      return Status::Corruption(fmt::format("{}:{}: \"stateUniqueIds\" must be an object, found {}",
                                            path, line.lineNo, ids->dump()));
    m.stateUniqueIdsJson = ids->dump();
  }
  return m;
}

}  // namespace streamsim
