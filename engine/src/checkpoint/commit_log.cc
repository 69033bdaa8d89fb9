// Commit log format (SEMANTICS.md §2, docs/checkpoint-format.md "commits/N").
#include "streamsim/checkpoint/commit_log.h"

#include <fmt/format.h>

#include "checkpoint/json_util.h"

namespace streamsim {

const SinkMetadataInfo* CommitMetadata::activeSink() const {
  for (const SinkMetadataInfo& s : sinks)
    if (s.isActive) return &s;
  return nullptr;
}

std::string CommitLogCodec::serialize(const CommitMetadata& m) {
  std::string out = fmt::format("v{}\n{{", m.formatVersion);
  bool first = true;
  // json4s writes a case class's fields in declaration order, a Long always (v3: CommitMetadataV3
  // has nextBatchWatermarkMs = 0 by default), an Option only when set.
  const std::optional<TimeMs> watermark =
      m.formatVersion >= 3 ? std::optional<TimeMs>(m.nextBatchWatermarkMs.value_or(0)) : m.nextBatchWatermarkMs;
  if (watermark) {
    out += fmt::format("\"nextBatchWatermarkMs\":{}", *watermark);
    first = false;
  }
  if (m.stateUniqueIdsJson) {
    if (!first) out.push_back(',');
    out += "\"stateUniqueIds\":";
    out += *m.stateUniqueIdsJson;
    first = false;
  }
  if (m.formatVersion >= 3) {
    if (!first) out.push_back(',');
    out += "\"sinkMetadataMap\":{";
    for (size_t i = 0; i < m.sinks.size(); ++i) {
      const SinkMetadataInfo& s = m.sinks[i];
      if (i > 0) out.push_back(',');
      detail::appendQuotedJson(out, s.sinkName);
      out += ":{\"sinkName\":";
      detail::appendQuotedJson(out, s.sinkName);
      out += ",\"commitOffset\":";
      detail::appendQuotedJson(out, s.commitOffset);
      out += ",\"providerName\":";
      detail::appendQuotedJson(out, s.providerName);
      if (s.apiVersion) {
        out += ",\"apiVersion\":";
        detail::appendQuotedJson(out, *s.apiVersion);
      }
      out += s.isActive ? ",\"isActive\":true}" : ",\"isActive\":false}";
    }
    out.push_back('}');
  }
  out.push_back('}');
  return out;
}

namespace {

// sinkMetadataMap of a v3 commit: an object of sink name -> SinkMetadataInfo, exactly one active
// (Spark's CommitMetadataV3 requires one: CommitLogSuite "CommitMetadataV3 requires exactly one
// active sink"; createMetadata requires a non-empty map).
Status parseSinks(const detail::OJson& j, const std::string& path, int lineNo, CommitMetadata& m) {
  auto map = j.find("sinkMetadataMap");
  if (map == j.end() || !map->is_object() || map->empty())
    return Status::Corruption(fmt::format(
        "{}:{}: a v3 commit needs \"sinkMetadataMap\", an object naming at least one sink; found {}",
        path, lineNo, map == j.end() ? std::string("none") : map->dump()));
  for (auto it = map->begin(); it != map->end(); ++it) {
    const detail::OJson& v = it.value();
    if (!v.is_object())
      return Status::Corruption(fmt::format("{}:{}: sinkMetadataMap \"{}\" must be an object, found {}", path,
                                            lineNo, it.key(), v.dump()));
    SinkMetadataInfo s;
    STREAMSIM_ASSIGN_OR_RETURN(s.sinkName, detail::requireString(v, "sinkName", path, lineNo));
    STREAMSIM_ASSIGN_OR_RETURN(s.commitOffset, detail::requireString(v, "commitOffset", path, lineNo));
    STREAMSIM_ASSIGN_OR_RETURN(s.providerName, detail::requireString(v, "providerName", path, lineNo));
    if (auto a = v.find("apiVersion"); a != v.end()) {
      if (!a->is_string())
        return Status::Corruption(fmt::format("{}:{}: sinkMetadataMap \"{}\" apiVersion must be a string, found {}",
                                              path, lineNo, it.key(), a->dump()));
      s.apiVersion = a->get<std::string>();
    }
    if (auto a = v.find("isActive"); a != v.end()) {  // json4s: the default (true) when absent
      if (!a->is_boolean())
        return Status::Corruption(fmt::format("{}:{}: sinkMetadataMap \"{}\" isActive must be true or false, found {}",
                                              path, lineNo, it.key(), a->dump()));
      s.isActive = a->get<bool>();
    }
    if (s.sinkName != it.key())
      return Status::Corruption(fmt::format("{}:{}: sinkMetadataMap key \"{}\" holds the sink \"{}\"", path,
                                            lineNo, it.key(), s.sinkName));
    m.sinks.push_back(std::move(s));
  }
  int active = 0;
  for (const SinkMetadataInfo& s : m.sinks) active += s.isActive;
  if (active != 1)
    return Status::Corruption(fmt::format(
        "{}:{}: sinkMetadataMap has {} active sinks; expected exactly one (Spark's CommitMetadataV3)", path,
        lineNo, active));
  return Status::OK();
}

}  // namespace

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
  if (m.formatVersion >= 3) STREAMSIM_RETURN_IF_ERROR(parseSinks(j, path, line.lineNo, m));
  return m;
}

}  // namespace streamsim
