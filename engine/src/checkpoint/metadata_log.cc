// HDFSMetadataLog file handling (docs/checkpoint-format.md "Write protocol").
#include "streamsim/checkpoint/metadata_log.h"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "checkpoint/json_util.h"

namespace streamsim {

std::vector<LogLine> splitLines(std::string_view text) {
  std::vector<LogLine> out;
  int lineNo = 1;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      out.push_back(LogLine{lineNo, text.substr(start)});
      break;
    }
    out.push_back(LogLine{lineNo++, text.substr(start, nl - start)});
    start = nl + 1;
  }
  return out;
}

Result<LogFileLines> splitLogFile(std::string_view text, int maxSupportedVersion,
                                  const std::string& pathForErrors) {
  if (detail::trimView(text).empty())
    return Status::Corruption(fmt::format(
        "{}:1: the file is empty; expected a version line such as \"v1\" (a torn or unfinished "
        "write?)",
        pathForErrors));
  std::vector<LogLine> lines = splitLines(text);
  std::string_view header = lines.front().text;
  if (!header.empty() && header.back() == '\r') header.remove_suffix(1);
  int version = 0;
  bool ok = header.size() >= 2 && header[0] == 'v';
  if (ok) {
    auto [ptr, ec] = std::from_chars(header.data() + 1, header.data() + header.size(), version);
    ok = ec == std::errc() && ptr == header.data() + header.size() && version > 0;
  }
  if (!ok)
    return Status::Corruption(fmt::format(
        "{}:1: malformed log file: expected a version line such as \"v1\", found \"{}\"",
        pathForErrors, header.substr(0, 40)));
  if (version > maxSupportedVersion)
    return Status::Corruption(fmt::format(
        "{}:1: unsupported log version v{}; this reader supports up to v{} (the file was written "
        "by a newer Spark)",
        pathForErrors, version, maxSupportedVersion));
  LogFileLines out;
  out.version = version;
  out.lines.assign(lines.begin() + 1, lines.end());
  if (!out.lines.empty() && out.lines.back().text.empty()) out.lines.pop_back();
  return out;
}

std::optional<int64_t> batchIdFromFileName(std::string_view name, bool acceptCompact) {
  constexpr std::string_view kCompact = ".compact";
  if (acceptCompact && name.size() > kCompact.size() &&
      name.substr(name.size() - kCompact.size()) == kCompact)
    name.remove_suffix(kCompact.size());
  if (name.empty() || name.size() > 18) return std::nullopt;
  for (char c : name)
    if (c < '0' || c > '9') return std::nullopt;
  int64_t id = 0;
  std::from_chars(name.data(), name.data() + name.size(), id);
  return id;
}

std::string MetadataLogFiles::batchPath(int64_t batchId) const {
  return joinPath(dir_, std::to_string(batchId));
}

Result<bool> MetadataLogFiles::addRaw(int64_t batchId, std::string_view data,
                                      const std::string& fileName) {
  std::string path = joinPath(dir_, fileName);
  if (env_.fs->exists(path)) return false;
  FaultContext ctx;
  ctx.batchId = batchId;
  ctx.path = path;
  Status st = writeFileAtomically(env_, path, data, ctx);
  if (!st.ok()) {
    // Another writer got there first (Spark returns false too); the existing file wins.
    if (st.code() == Status::Code::kFailedPrecondition && env_.fs->exists(path)) return false;
    return st.withContext(fmt::format("writing log batch {}", path));
  }
  return true;
}

Result<std::optional<std::string>> MetadataLogFiles::readRaw(const std::string& fileName) {
  std::string path = joinPath(dir_, fileName);
  if (!env_.fs->exists(path)) return std::optional<std::string>();
  STREAMSIM_ASSIGN_OR_RETURN(std::string data, env_.fs->read(path));
  return std::optional<std::string>(std::move(data));
}

Result<std::vector<int64_t>> MetadataLogFiles::listBatchIds(bool acceptCompact) {
  if (!env_.fs->exists(dir_)) return std::vector<int64_t>();
  STREAMSIM_ASSIGN_OR_RETURN(auto entries, env_.fs->list(dir_));
  std::set<int64_t> ids;
  // A folder under a batch file's name is listed too: reading it fails naming it (as Spark's
  // HDFSMetadataLog lists it and fails to open it), instead of the batch silently not existing.
  for (const FileInfo& f : entries)
    if (auto id = batchIdFromFileName(baseName(f.path), acceptCompact)) ids.insert(*id);
  return std::vector<int64_t>(ids.begin(), ids.end());
}

Result<int64_t> MetadataLogFiles::purge(int64_t thresholdBatchId) {
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<int64_t> ids, listBatchIds());
  int64_t deleted = 0;
  for (int64_t id : ids) {
    if (id >= thresholdBatchId) break;
    bool removed = false;
    Status st = removeIfExists(env_, batchPath(id), &removed);
    if (!st.ok()) return st.withContext(fmt::format("purging {} below batch {}", dir_, thresholdBatchId));
    if (removed) ++deleted;
  }
  return deleted;
}

Status MetadataLogFiles::purgeRange(int64_t fromBatchId, int64_t thresholdBatchId) {
  for (int64_t id = fromBatchId; id < thresholdBatchId; ++id) {
    Status st = removeIfExists(env_, batchPath(id));
    if (!st.ok()) return st.withContext(fmt::format("purging {} below batch {}", dir_, thresholdBatchId));
  }
  return Status::OK();
}

}  // namespace streamsim
