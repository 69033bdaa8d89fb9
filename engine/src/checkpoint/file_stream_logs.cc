// File source and file sink log entries (SEMANTICS.md §2, docs/checkpoint-format.md).
#include <algorithm>
#include <charconv>
#include <map>
#include <cstdint>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "checkpoint/json_util.h"
#include "streamsim/checkpoint/compactible_log.h"
#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/checkpoint/file_source_log.h"

namespace streamsim {

namespace detail {
Result<std::vector<LogLine>> compactibleLogLines(std::string_view text,
                                                 const std::string& pathForErrors) {
  STREAMSIM_ASSIGN_OR_RETURN(auto file, splitLogFile(text, 1, pathForErrors));
  // The same entry twice in one file (the same file taken twice by a source batch, or listed
  // twice as a sink's output) is never written by Spark: its batch would read the file twice.
  std::map<std::string_view, int> seen;  // entry -> its first line
  for (const LogLine& l : file.lines) {
    auto [it, fresh] = seen.emplace(trimView(l.text), l.lineNo);
    if (!fresh)
      return Status::Corruption(fmt::format(
          "{}:{}: the entry of line {} repeated; expected each file listed once", pathForErrors,
          l.lineNo, it->second));
  }
  return std::move(file.lines);
}
}  // namespace detail

Result<int> deriveCompactInterval(int defaultInterval, int64_t latestCompactBatchId,
                                  const std::string& dir) {
  const int64_t n = latestCompactBatchId + 1;
  if (latestCompactBatchId < 0 || n > INT32_MAX)
    return Status::Corruption(fmt::format(
        "{}/{}.compact: a compact batch id past int's range (Spark's compact interval is an int)",
        dir, latestCompactBatchId));
  if (n <= defaultInterval || defaultInterval >= n / 2) return static_cast<int>(n);
  // The smallest divisor of n in [defaultInterval, n / 2]; divisors found in pairs (d, n / d)
  // up to sqrt(n), so at most ~46341 steps.
  int64_t best = n;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    for (int64_t c : {d, n / d})
      if (c >= defaultInterval && c <= n / 2) best = std::min(best, c);
  }
  return static_cast<int>(best);
}

Result<int> compactIntervalOf(int defaultInterval, const std::vector<int64_t>& compactBatchIds,
                              const std::string& dir) {
  if (compactBatchIds.empty()) return defaultInterval;
  const int64_t latest = compactBatchIds.back();
  if (compactBatchIds.size() == 1) return deriveCompactInterval(defaultInterval, latest, dir);
  const int64_t gap = latest - compactBatchIds[compactBatchIds.size() - 2];
  if (gap <= 0 || gap > INT32_MAX)
    return Status::Corruption(fmt::format(
        "{}: compact files {}.compact and {}.compact are {} batches apart; expected a compact "
        "interval between 1 and {}",
        dir, compactBatchIds[compactBatchIds.size() - 2], latest, gap, INT32_MAX));
  return static_cast<int>(gap);
}

namespace {
Result<detail::OJson> entryObject(std::string_view line, const std::string& path, int lineNo,
                                  std::string_view what) {
  STREAMSIM_ASSIGN_OR_RETURN(auto j, detail::parseJsonAt(detail::trimView(line), path, lineNo, what));
  if (!j.is_object())
    return Status::Corruption(
        fmt::format("{}:{}: expected {} as a JSON object, found {}", path, lineNo, what, j.dump()));
  return j;
}
}  // namespace

std::string FileSourceLogCodec::serializeEntry(const FileSourceEntry& e) {
  // {"path":<quoted>,"timestamp":T,"batchId":K}, appended without fmt (an entry per file per
  // batch, and every entry again in each compact file).
  auto appendInt = [](std::string& out, int64_t n) {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
    (void)ec;  // 24 chars hold any int64_t
    out.append(digits, end);
  };
  std::string out = "{\"path\":";
  detail::appendQuotedJson(out, e.path);
  out += ",\"timestamp\":";
  appendInt(out, e.timestamp);
  out += ",\"batchId\":";
  appendInt(out, e.batchId);
  out.push_back('}');
  return out;
}

namespace {
// The entry line serializeEntry writes, read without building a JSON DOM: the source log is
// read back at every compaction batch (all entries since the last compact file) and on restart,
// and the DOM parse was ~7% of a sweep seed's instructions. Only exactly that form is taken —
// the three keys in that order, no whitespace inside, a path of printable ASCII without escapes,
// integers of 1..18 digits without a leading zero — so the entry is the one the DOM would give;
// anything else (other spellings Spark or a person may write, errors) goes to the DOM reader,
// which decides and words errors.
std::optional<FileSourceEntry> readWrittenFileSourceEntry(std::string_view line) {
  auto literal = [&](std::string_view word) {
    if (line.substr(0, word.size()) != word) return false;
    line.remove_prefix(word.size());
    return true;
  };
  auto integer = [&](int64_t& out) {
    const bool negative = literal("-");
    size_t n = 0;
    uint64_t u = 0;
    while (n < line.size() && line[n] >= '0' && line[n] <= '9')
      u = u * 10 + static_cast<uint64_t>(line[n++] - '0');
    if (n == 0 || n > 18 || (n > 1 && line[0] == '0')) return false;
    line.remove_prefix(n);
    out = negative ? -static_cast<int64_t>(u) : static_cast<int64_t>(u);
    return true;
  };
  FileSourceEntry e;
  if (!literal("{\"path\":\"")) return std::nullopt;
  size_t end = 0;
  while (end < line.size() && line[end] != '"') {
    unsigned char c = static_cast<unsigned char>(line[end]);
    if (c < 0x20 || c >= 0x7f || c == '\\') return std::nullopt;
    ++end;
  }
  if (end == line.size()) return std::nullopt;
  e.path.assign(line.substr(0, end));
  line.remove_prefix(end + 1);
  if (!literal(",\"timestamp\":") || !integer(e.timestamp)) return std::nullopt;
  if (!literal(",\"batchId\":") || !integer(e.batchId)) return std::nullopt;
  if (!literal("}") || !line.empty()) return std::nullopt;
  return e;
}
}  // namespace

Result<FileSourceEntry> FileSourceLogCodec::parseEntry(std::string_view line,
                                                       const std::string& path, int lineNo) {
  if (auto fast = readWrittenFileSourceEntry(detail::trimView(line))) return std::move(*fast);
  STREAMSIM_ASSIGN_OR_RETURN(auto j, entryObject(line, path, lineNo, "a file source log entry"));
  FileSourceEntry e;
  STREAMSIM_ASSIGN_OR_RETURN(e.path, detail::requireString(j, "path", path, lineNo));
  STREAMSIM_ASSIGN_OR_RETURN(e.timestamp, detail::requireInt(j, "timestamp", path, lineNo));
  STREAMSIM_ASSIGN_OR_RETURN(e.batchId, detail::requireInt(j, "batchId", path, lineNo));
  return e;
}

Result<std::optional<std::vector<FileSourceEntry>>> FileSourceLog::get(int64_t batchId) {
  STREAMSIM_ASSIGN_OR_RETURN(auto stored, CompactibleFileStreamLog::get(batchId));
  if (stored) return stored;
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> ids, listBatchIds());
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
    if (*it <= batchId || !isCompactFile(*it)) continue;
    STREAMSIM_ASSIGN_OR_RETURN(auto compacted, CompactibleFileStreamLog::get(*it));
    std::vector<FileSourceEntry> out;
    if (compacted)
      for (FileSourceEntry& e : *compacted)
        if (e.batchId == batchId) out.push_back(std::move(e));
    if (out.empty()) break;
    return std::optional<std::vector<FileSourceEntry>>(std::move(out));
  }
  return std::optional<std::vector<FileSourceEntry>>();
}

std::string sourceLogDir(const std::string& checkpointRoot, int sourceIndex, const std::string& sourceName) {
  return joinPath(joinPath(checkpointRoot, "sources"), sourceName.empty() ? std::to_string(sourceIndex) : sourceName);
}

std::string FileSinkLogCodec::serializeEntry(const SinkFileStatus& e) {
  return fmt::format(
      "{{\"path\":{},\"size\":{},\"isDir\":{},\"modificationTime\":{},\"blockReplication\":{},"
      "\"blockSize\":{},\"action\":{}}}",
      detail::quoteJson(e.path), e.size, e.isDir ? "true" : "false", e.modificationTime,
      e.blockReplication, e.blockSize, detail::quoteJson(e.action));
}

Result<SinkFileStatus> FileSinkLogCodec::parseEntry(std::string_view line, const std::string& path,
                                                    int lineNo) {
  STREAMSIM_ASSIGN_OR_RETURN(auto j, entryObject(line, path, lineNo, "a file sink log entry"));
  SinkFileStatus e;
  STREAMSIM_ASSIGN_OR_RETURN(e.path, detail::requireString(j, "path", path, lineNo));
  STREAMSIM_ASSIGN_OR_RETURN(e.size, detail::requireInt(j, "size", path, lineNo));
  auto isDir = j.find("isDir");
  e.isDir = isDir != j.end() && isDir->is_boolean() && isDir->get<bool>();
  STREAMSIM_ASSIGN_OR_RETURN(e.modificationTime,
                             detail::requireInt(j, "modificationTime", path, lineNo));
  STREAMSIM_ASSIGN_OR_RETURN(auto repl, detail::optionalInt(j, "blockReplication", path, lineNo));
  e.blockReplication = static_cast<int>(repl.value_or(1));
  STREAMSIM_ASSIGN_OR_RETURN(auto bs, detail::optionalInt(j, "blockSize", path, lineNo));
  e.blockSize = bs.value_or(0);
  STREAMSIM_ASSIGN_OR_RETURN(e.action, detail::requireString(j, "action", path, lineNo));
  if (e.action != kSinkAddAction && e.action != kSinkDeleteAction)
    return Status::Corruption(fmt::format(
        "{}:{}: unknown sink log action \"{}\" (expected \"add\" or \"delete\")", path, lineNo,
        e.action));
  return e;
}

std::vector<SinkFileStatus> FileSinkLogCodec::compactLogs(std::vector<SinkFileStatus> all) {
  std::set<std::string> deleted;
  for (const auto& e : all)
    if (e.action == kSinkDeleteAction) deleted.insert(e.path);
  if (deleted.empty()) return all;
  std::vector<SinkFileStatus> out;
  for (auto& e : all)
    if (!deleted.count(e.path)) out.push_back(std::move(e));
  return out;
}

}  // namespace streamsim
