// Offset log format (SEMANTICS.md §2, docs/checkpoint-format.md "offsets/N").
#include "streamsim/checkpoint/offset_log.h"

#include <charconv>

#include <fmt/format.h>

#include "checkpoint/json_util.h"

namespace streamsim {

namespace {

std::string metadataJson(const OffsetSeqMetadata& m, int version) {
  std::string out = fmt::format("{{\"batchWatermarkMs\":{},\"batchTimestampMs\":{}",
                                m.batchWatermarkMs, m.batchTimestampMs);
  if (m.hasConf || version >= 2) {
    out += ",\"conf\":{";
    bool first = true;
    for (const auto& [k, v] : m.conf) {
      if (!first) out.push_back(',');
      first = false;
      detail::appendQuotedJson(out, k);
      out.push_back(':');
      detail::appendQuotedJson(out, v);
    }
    out.push_back('}');
  }
  if (version >= 2) out += ",\"sourceMetadataInfo\":{}";
  out.push_back('}');
  return out;
}

Result<OffsetSeqMetadata> parseMetadata(const LogLine& line, const std::string& path) {
  OffsetSeqMetadata m;
  std::string_view text = detail::trimView(line.text);
  if (text.empty()) {  // Spark: no metadata
    m.hasConf = false;
    return m;
  }
  STREAMSIM_ASSIGN_OR_RETURN(auto j, detail::parseJsonAt(text, path, line.lineNo,
                                                         "the offset metadata object"));
  if (!j.is_object())
    return Status::Corruption(fmt::format("{}:{}: expected the offset metadata object, found {}",
                                          path, line.lineNo, j.dump()));
  STREAMSIM_ASSIGN_OR_RETURN(auto wm, detail::optionalInt(j, "batchWatermarkMs", path, line.lineNo));
  STREAMSIM_ASSIGN_OR_RETURN(auto ts, detail::optionalInt(j, "batchTimestampMs", path, line.lineNo));
  m.batchWatermarkMs = wm.value_or(0);
  m.batchTimestampMs = ts.value_or(0);
  auto conf = j.find("conf");
  m.hasConf = conf != j.end();
  if (m.hasConf) {
    if (!conf->is_object())
      return Status::Corruption(fmt::format("{}:{}: \"conf\" must be an object, found {}", path,
                                            line.lineNo, conf->dump()));
    for (auto it = conf->begin(); it != conf->end(); ++it)
      m.conf[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
  }
  return m;
}

Status checkOffsetJson(std::string_view text, const std::string& path, int lineNo) {
  STREAMSIM_ASSIGN_OR_RETURN(auto j, detail::parseJsonAt(text, path, lineNo,
                                                         "a source offset (or \"-\")"));
  (void)j;
  return Status::OK();
}

}  // namespace

std::string OffsetLogCodec::serialize(const OffsetSeq& seq) {
  std::string out = fmt::format("v{}\n", seq.formatVersion);
  out += metadataJson(seq.metadata, seq.formatVersion);
  for (size_t i = 0; i < seq.offsets.size(); ++i) {
    out.push_back('\n');
    if (seq.formatVersion >= 2) {
      out += i < seq.sourceIds.size() ? seq.sourceIds[i] : std::to_string(i);
      out.push_back(':');
    }
    out += seq.offsets[i] ? *seq.offsets[i] : std::string("-");
  }
  return out;
}

Result<OffsetSeq> OffsetLogCodec::parse(std::string_view text, const std::string& path) {
  STREAMSIM_ASSIGN_OR_RETURN(auto file, splitLogFile(text, kMaxVersion, path));
  if (file.lines.empty())
    return Status::Corruption(fmt::format(
        "{}:2: incomplete offset log file: expected the metadata JSON after \"v{}\"", path,
        file.version));
  OffsetSeq seq;
  seq.formatVersion = file.version;
  STREAMSIM_ASSIGN_OR_RETURN(seq.metadata, parseMetadata(file.lines[0], path));
  for (size_t i = 1; i < file.lines.size(); ++i) {
    const LogLine& l = file.lines[i];
    std::string_view body = l.text;
    if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
    if (file.version >= 2) {
      size_t colon = body.find(':');
      if (colon == std::string_view::npos || colon == 0)
        return Status::Corruption(fmt::format(
            "{}:{}: expected \"<sourceId>:<offset>\" in an offsets v2 file, found \"{}\"", path,
            l.lineNo, body.substr(0, 80)));
      seq.sourceIds.emplace_back(body.substr(0, colon));
      body = body.substr(colon + 1);
    }
    if (body == "-") {
      seq.offsets.emplace_back(std::nullopt);
      continue;
    }
    STREAMSIM_RETURN_IF_ERROR(checkOffsetJson(body, path, l.lineNo));
    seq.offsets.emplace_back(std::string(body));
  }
  return seq;
}

std::string fileSourceOffsetJson(int64_t logOffset) {
  // {"logOffset":K} without fmt (written and read back every batch).
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, logOffset);
  (void)ec;  // 24 chars hold any int64_t
  std::string out = "{\"logOffset\":";
  out.append(digits, end);
  out.push_back('}');
  return out;
}

std::optional<int64_t> writtenFileSourceOffset(std::string_view text) {
  constexpr std::string_view kOpen = "{\"logOffset\":";
  if (text.size() <= kOpen.size() + 1 || text.substr(0, kOpen.size()) != kOpen || text.back() != '}')
    return std::nullopt;
  std::string_view n = text.substr(kOpen.size(), text.size() - kOpen.size() - 1);
  const size_t digitsAt = !n.empty() && n[0] == '-' ? 1 : 0;
  const size_t digits = n.size() - digitsAt;
  // 1..18 digits (no overflow), no leading zero: what JSON and fileSourceOffsetJson allow.
  if (digits == 0 || digits > 18 || (n[digitsAt] == '0' && n.size() > 1)) return std::nullopt;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
  if (ec != std::errc() || ptr != n.data() + n.size()) return std::nullopt;
  return v;
}

Result<int64_t> parseFileSourceOffset(std::string_view text, const std::string& pathForErrors) {
  if (auto k = writtenFileSourceOffset(text)) return *k;
  std::string_view t = detail::trimView(text);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (!t.empty() && ec == std::errc() && ptr == t.data() + t.size()) return v;  // "345"
  STREAMSIM_ASSIGN_OR_RETURN(auto j, detail::parseJsonAt(t, pathForErrors, 1,
                                                         "a file source offset"));
  if (j.is_object()) {
    for (const char* key : {"logOffset", "batchId"}) {
      auto it = j.find(key);
      if (it != j.end() && it->is_number_integer()) return it->get<int64_t>();
    }
  }
  return Status::Corruption(fmt::format(
      "{}: expected a file source offset ({{\"logOffset\":N}}, N or {{\"batchId\":N}}), found {}",
      pathForErrors, std::string(t.substr(0, 80))));
}

}  // namespace streamsim
