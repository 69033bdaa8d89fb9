#include "streamsim/sim/sim_file_system.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace streamsim::sim {

std::string normalizeSimulatedPath(std::string_view p, bool* aboveRoot) {
  if (aboveRoot) *aboveRoot = false;
  const bool absolute = !p.empty() && p.front() == '/';
  std::vector<std::string_view> segs;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view seg = p.substr(i, j - i);
    if (seg.empty() || seg == ".") {
      // dropped
    } else if (seg == "..") {
      if (!segs.empty() && segs.back() != "..") segs.pop_back();
      else if (absolute) { if (aboveRoot) *aboveRoot = true; }
      else segs.push_back(seg);  // a relative path keeps its leading `..` (never copied out)
    } else {
      segs.push_back(seg);
    }
    i = j + 1;
  }
  std::string out = absolute ? "/" : "";
  for (size_t k = 0; k < segs.size(); ++k) {
    if (k) out += '/';
    out.append(segs[k]);
  }
  if (out.empty() && !p.empty()) out = ".";
  return out;
}

namespace {
// Whether `p` is normalizeSimulatedPath's already: no empty, `.` or `..` segment, no trailing
// slash. Paths are checked on every file operation: one pass from slash to slash (memchr), the
// segments' first bytes judged (a temp file's `.name.uuid.tmp` is a segment starting with a dot,
// and normal).
bool isNormal(std::string_view p) {
  const size_t n = p.size();
  if (n > 1 && p.back() == '/') return false;
  size_t s = 0;  // where a segment starts
  while (true) {
    const void* slash = s < n ? std::memchr(p.data() + s, '/', n - s) : nullptr;
    const size_t e = slash != nullptr ? static_cast<size_t>(static_cast<const char*>(slash) - p.data()) : n;
    const size_t len = e - s;
    if (len == 0 && e < n && e != 0) return false;                // "//"
    if (len == 1 && p[s] == '.') return false;                     // "/./"
    if (len == 2 && p[s] == '.' && p[s + 1] == '.') return false;  // "/../"
    if (e >= n) return true;
    s = e + 1;
  }
}
std::string normalize(const std::string& p) { return isNormal(p) ? p : normalizeSimulatedPath(p); }
// `p` normalized, copied into `buf` only when it changes.
const std::string& normalized(const std::string& p, std::string& buf) {
  if (isNormal(p)) return p;
  buf = normalizeSimulatedPath(p);
  return buf;
}
bool isUnder(const std::string& path, const std::string& dir) {
  if (dir == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}
bool hasPrefix(const std::string& path, const std::string& prefix) {
  return path.compare(0, prefix.size(), prefix) == 0;
}
// parentPath(path) as a view into `path` (checked on every write and rename: no string).
std::string_view parentView(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto pos = path.rfind('/');
  if (pos == std::string_view::npos) return {};
  if (pos == 0) return "/";
  return path.substr(0, pos);
}
}  // namespace

Status SimFileSystem::checkParent(const std::string& path) const {
  const std::string_view parent = parentView(path);
  if (parent.empty() || dirs_.count(parent)) return Status::OK();
  if (files_.count(parent))
    return Status::FailedPrecondition(fmt::format("parent {} of {} is a file, not a directory", parent, path));
  return Status::NotFound(fmt::format("parent directory {} of {} does not exist", parent, path));
}

Status SimFileSystem::checkWritable(const std::string& path) const {
  if (dirs_.count(path)) return Status::FailedPrecondition(fmt::format("cannot write {}: it is a directory", path));
  return checkParent(path);
}

Status SimFileSystem::injected(const std::string& path) {
  for (WriteFault& f : write_faults_) {
    if (f.count > 0 && hasPrefix(path, f.prefix)) {
      --f.count;
      ++injected_failures_;
      return f.status.withContext(path);
    }
  }
  return Status::OK();
}

Result<std::vector<FileInfo>> SimFileSystem::list(const std::string& rawDir) {
  std::string dir = normalize(rawDir);
  if (!dirs_.count(dir)) {
    if (files_.count(dir)) return Status::FailedPrecondition(fmt::format("cannot list {}: it is a file", dir));
    return Status::NotFound(fmt::format("directory {} does not exist", dir));
  }
  std::vector<FileInfo> out;
  std::string prefix = dir == "/" ? "/" : dir + "/";
  // (The root itself is in dirs_ and sorts first: start after it.)
  for (auto it = dir == "/" ? dirs_.upper_bound(dir) : dirs_.lower_bound(prefix);
       it != dirs_.end() && isUnder(*it, dir); ++it) {
    if (it->find('/', prefix.size()) == std::string::npos) out.push_back(FileInfo{*it, 0, 0, true});
  }
  const size_t dirCount = out.size();
  for (auto it = files_.lower_bound(prefix); it != files_.end() && isUnder(it->first, dir); ++it) {
    if (it->first.find('/', prefix.size()) == std::string::npos)
      out.push_back(FileInfo{it->first, static_cast<int64_t>(it->second.data.size()), it->second.mtime, false});
  }
  // Each run above is in path order already (set and map order): merged, not sorted again.
  std::inplace_merge(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(dirCount), out.end(),
                     [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
  return out;
}

Result<FileInfo> SimFileSystem::stat(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  if (dirs_.count(path)) return FileInfo{path, 0, 0, true};
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound(fmt::format("{} does not exist", path));
  return FileInfo{path, static_cast<int64_t>(it->second.data.size()), it->second.mtime, false};
}

bool SimFileSystem::exists(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  return dirs_.count(path) || files_.count(path);
}

Result<std::string> SimFileSystem::read(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  auto it = files_.find(path);
  if (it == files_.end()) {
    if (dirs_.count(path)) return Status::FailedPrecondition(fmt::format("cannot read {}: it is a directory", path));
    return Status::NotFound(fmt::format("{} does not exist", path));
  }
  return it->second.data;
}

Status SimFileSystem::write(const std::string& rawPath, std::string_view data) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  STREAMSIM_RETURN_IF_ERROR(checkWritable(path));
  STREAMSIM_RETURN_IF_ERROR(injected(path));
  // One descent: the lower bound is the file or the insertion hint for a new one.
  auto it = files_.lower_bound(path);
  const bool found = it != files_.end() && it->first == path;
  int64_t old = found ? static_cast<int64_t>(it->second.data.size()) : 0;
  if (capacity_ > 0 && totalBytes() - old + static_cast<int64_t>(data.size()) > capacity_) {
    ++injected_failures_;
    return Status::NoSpace(fmt::format("no space left writing {} ({} bytes, capacity {})", path, data.size(), capacity_));
  }
  File& f = found ? it->second : files_.emplace_hint(it, path, File{})->second;
  f.data.assign(data);
  f.durable = 0;
  f.pending.clear();
  f.partial = false;
  f.mtime = clock_->nowMs();
  return Status::OK();
}

Status SimFileSystem::append(const std::string& rawPath, std::string_view data) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  STREAMSIM_RETURN_IF_ERROR(checkWritable(path));
  STREAMSIM_RETURN_IF_ERROR(injected(path));
  if (capacity_ > 0 && totalBytes() + static_cast<int64_t>(data.size()) > capacity_) {
    ++injected_failures_;
    return Status::NoSpace(fmt::format("no space left appending {} bytes to {} (capacity {})", data.size(), path, capacity_));
  }
  File& f = files_[path];
  f.data.append(data);
  f.mtime = clock_->nowMs();
  return Status::OK();
}

Status SimFileSystem::sync(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound(fmt::format("cannot sync {}: it does not exist", path));
  it->second.durable = it->second.data.size();
  it->second.everSynced = true;
  return Status::OK();
}

Status SimFileSystem::rename(const std::string& rawFrom, const std::string& rawTo) {
  std::string fromBuf, toBuf;
  const std::string& from = normalized(rawFrom, fromBuf);
  const std::string& to = normalized(rawTo, toBuf);
  STREAMSIM_RETURN_IF_ERROR(injected(to));
  auto it = files_.find(from);
  if (it == files_.end()) {
    if (dirs_.count(from))
      return Status::FailedPrecondition(fmt::format("cannot rename {}: it is a directory (only files can be renamed)", from));
    return Status::NotFound(fmt::format("cannot rename {}: it does not exist", from));
  }
  if (exists(to)) return Status::FailedPrecondition(fmt::format("cannot rename {} to {}: target exists", from, to));
  STREAMSIM_RETURN_IF_ERROR(checkParent(to));
  auto node = files_.extract(it);  // moves the File without copying its data
  node.key() = to;
  files_.insert(std::move(node));
  return Status::OK();
}

Status SimFileSystem::remove(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  if (files_.erase(path)) return Status::OK();
  if (dirs_.count(path)) {
    if (path == "/") return Status::FailedPrecondition("cannot remove the root directory /");
    auto d = dirs_.lower_bound(path + "/");
    if (d != dirs_.end() && isUnder(*d, path)) return Status::FailedPrecondition(fmt::format("cannot remove {}: it is not empty", path));
    auto f = files_.lower_bound(path + "/");
    if (f != files_.end() && isUnder(f->first, path)) return Status::FailedPrecondition(fmt::format("cannot remove {}: it is not empty", path));
    dirs_.erase(path);
    return Status::OK();
  }
  return Status::NotFound(fmt::format("cannot remove {}: it does not exist", path));
}

Status SimFileSystem::removeAll(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  files_.erase(path);
  for (auto it = files_.begin(); it != files_.end();) it = isUnder(it->first, path) ? files_.erase(it) : std::next(it);
  for (auto it = dirs_.begin(); it != dirs_.end();)
    it = (isUnder(*it, path) || *it == path) && *it != "/" ? dirs_.erase(it) : std::next(it);
  return Status::OK();
}

Status SimFileSystem::mkdirs(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  if (path.empty() || dirs_.count(path)) return Status::OK();  // the usual: it is there
  std::vector<std::string> missing;
  for (std::string cur = path; !cur.empty() && !dirs_.count(cur); cur = parentPath(cur)) {
    if (files_.count(cur)) return Status::FailedPrecondition(fmt::format("cannot create directory {}: {} is a file", path, cur));
    missing.push_back(cur);
    if (cur == "/") break;
  }
  for (const std::string& d : missing) dirs_.insert(d);
  return Status::OK();
}

Status SimFileSystem::setModificationTime(const std::string& path, TimeMs t) {
  auto it = files_.find(normalize(path));
  if (it == files_.end()) return Status::NotFound(fmt::format("cannot touch {}: it does not exist", path));
  it->second.mtime = t;
  return Status::OK();
}

Status SimFileSystem::putDurable(const std::string& rawPath, std::string_view data) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  STREAMSIM_RETURN_IF_ERROR(mkdirs(parentPath(path)));
  if (dirs_.count(path)) return Status::FailedPrecondition(fmt::format("cannot put {}: it is a directory", path));
  File& f = files_[path];
  f.data.assign(data);
  f.durable = f.data.size();
  f.everSynced = true;
  f.pending.clear();
  f.partial = false;
  f.mtime = clock_->nowMs();
  return Status::OK();
}

Status SimFileSystem::putPartial(const std::string& rawPath, std::string_view fullContent, size_t visibleBytes) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  size_t visible = std::min(visibleBytes, fullContent.size());
  STREAMSIM_RETURN_IF_ERROR(putDurable(path, fullContent.substr(0, visible)));
  File& f = files_[path];
  f.pending.assign(fullContent.substr(visible));
  f.partial = true;
  return Status::OK();
}

Status SimFileSystem::extendPartial(const std::string& rawPath, size_t visibleBytes) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  auto it = files_.find(path);
  if (it == files_.end() || !it->second.partial)
    return Status::NotFound(fmt::format("cannot extend {}: it is not a partially written file", path));
  File& f = it->second;
  if (visibleBytes <= f.data.size()) return Status::OK();
  size_t more = std::min(visibleBytes - f.data.size(), f.pending.size());
  f.data.append(f.pending, 0, more);
  f.pending.erase(0, more);
  f.durable = f.data.size();
  f.mtime = clock_->nowMs();
  if (f.pending.empty()) f.partial = false;
  return Status::OK();
}

Status SimFileSystem::completePartial(const std::string& rawPath) {
  std::string buf;
  const std::string& path = normalized(rawPath, buf);
  auto it = files_.find(path);
  if (it == files_.end() || !it->second.partial)
    return Status::NotFound(fmt::format("cannot complete {}: it is not a partially written file", path));
  File& f = it->second;
  f.data.append(f.pending);
  f.pending.clear();
  f.partial = false;
  f.durable = f.data.size();
  f.mtime = clock_->nowMs();
  return Status::OK();
}

bool SimFileSystem::isPartial(const std::string& path) const {
  auto it = files_.find(normalize(path));
  return it != files_.end() && it->second.partial;
}

void SimFileSystem::crash(const CrashPolicy& policy) {
  for (auto it = files_.begin(); it != files_.end();) {
    File& f = it->second;
    size_t keep = f.durable;
    if (f.data.size() > f.durable) keep = std::clamp(policy(it->first, f.durable, f.data.size()), f.durable, f.data.size());
    if (keep == 0 && !f.everSynced) {
      it = files_.erase(it);
      continue;
    }
    f.data.resize(keep);
    f.durable = keep;
    ++it;
  }
}

void SimFileSystem::failWrites(std::string prefix, Status status, int count) {
  write_faults_.clear();
  addWriteFault(std::move(prefix), std::move(status), count);
}

void SimFileSystem::addWriteFault(std::string prefix, Status status, int count) {
  write_faults_.push_back(WriteFault{std::move(prefix), std::move(status), count});
}

std::vector<std::string> SimFileSystem::allFiles() const {
  std::vector<std::string> out;
  for (const auto& [p, f] : files_) out.push_back(p);
  return out;
}

int64_t SimFileSystem::totalBytes() const {
  int64_t n = 0;
  for (const auto& [p, f] : files_) n += static_cast<int64_t>(f.data.size());
  return n;
}

}  // namespace streamsim::sim
