#include "streamsim/sim/sim_file_system.h"

#include <algorithm>

#include <fmt/format.h>

namespace streamsim::sim {
namespace {
std::string normalize(const std::string& p) {
  if (p.size() > 1 && p.back() == '/') return p.substr(0, p.size() - 1);
  return p;
}
bool isUnder(const std::string& path, const std::string& dir) {
  if (dir == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}
}  // namespace

Status SimFileSystem::checkParent(const std::string& path) const {
  std::string parent = parentPath(path);
  if (parent.empty() || dirs_.count(parent)) return Status::OK();
  return Status::NotFound(fmt::format("parent directory {} of {} does not exist", parent, path));
}

Status SimFileSystem::injected(const std::string& path) {
  if (fail_count_ > 0 && path.compare(0, fail_prefix_.size(), fail_prefix_) == 0) {
    --fail_count_;
    return fail_status_.withContext(path);
  }
  return Status::OK();
}

Result<std::vector<FileInfo>> SimFileSystem::list(const std::string& rawDir) {
  std::string dir = normalize(rawDir);
  if (!dirs_.count(dir)) return Status::NotFound(fmt::format("directory {} does not exist", dir));
  std::vector<FileInfo> out;
  std::string prefix = dir == "/" ? "/" : dir + "/";
  for (auto it = dirs_.lower_bound(prefix); it != dirs_.end() && isUnder(*it, dir); ++it) {
    if (it->find('/', prefix.size()) == std::string::npos)
      out.push_back(FileInfo{*it, 0, 0, true});
  }
  for (auto it = files_.lower_bound(prefix); it != files_.end() && isUnder(it->first, dir); ++it) {
    if (it->first.find('/', prefix.size()) == std::string::npos)
      out.push_back(FileInfo{it->first, static_cast<int64_t>(it->second.data.size()), it->second.mtime, false});
  }
  std::sort(out.begin(), out.end(), [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
  return out;
}

Result<FileInfo> SimFileSystem::stat(const std::string& rawPath) {
  std::string path = normalize(rawPath);
  if (dirs_.count(path)) return FileInfo{path, 0, 0, true};
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound(fmt::format("{} does not exist", path));
  return FileInfo{path, static_cast<int64_t>(it->second.data.size()), it->second.mtime, false};
}

bool SimFileSystem::exists(const std::string& rawPath) {
  std::string path = normalize(rawPath);
  return dirs_.count(path) || files_.count(path);
}

Result<std::string> SimFileSystem::read(const std::string& path) {
  auto it = files_.find(normalize(path));
  if (it == files_.end()) return Status::NotFound(fmt::format("{} does not exist", path));
  return it->second.data;
}

Status SimFileSystem::write(const std::string& path, std::string_view data) {
  STREAMSIM_RETURN_IF_ERROR(checkParent(path));
  STREAMSIM_RETURN_IF_ERROR(injected(path));
  auto it = files_.find(path);
  int64_t old = it == files_.end() ? 0 : static_cast<int64_t>(it->second.data.size());
  if (capacity_ > 0 && totalBytes() - old + static_cast<int64_t>(data.size()) > capacity_)
    return Status::NoSpace(fmt::format("no space left writing {}", path));
  File& f = files_[path];
  f.data.assign(data);
  f.durable = 0;
  f.mtime = clock_->nowMs();
  return Status::OK();
}

Status SimFileSystem::append(const std::string& path, std::string_view data) {
  STREAMSIM_RETURN_IF_ERROR(checkParent(path));
  STREAMSIM_RETURN_IF_ERROR(injected(path));
  if (capacity_ > 0 && totalBytes() + static_cast<int64_t>(data.size()) > capacity_)
    return Status::NoSpace(fmt::format("no space left appending to {}", path));
  File& f = files_[path];
  f.data.append(data);
  f.mtime = clock_->nowMs();
  return Status::OK();
}

Status SimFileSystem::sync(const std::string& path) {
  auto it = files_.find(normalize(path));
  if (it == files_.end()) return Status::NotFound(fmt::format("cannot sync {}: it does not exist", path));
  it->second.durable = it->second.data.size();
  it->second.everSynced = true;
  return Status::OK();
}

Status SimFileSystem::rename(const std::string& from, const std::string& to) {
  STREAMSIM_RETURN_IF_ERROR(injected(to));
  auto it = files_.find(from);
  if (it == files_.end()) return Status::NotFound(fmt::format("cannot rename {}: it does not exist", from));
  if (exists(to)) return Status::FailedPrecondition(fmt::format("cannot rename {} to {}: target exists", from, to));
  STREAMSIM_RETURN_IF_ERROR(checkParent(to));
  File f = std::move(it->second);
  files_.erase(it);
  files_[to] = std::move(f);
  return Status::OK();
}

Status SimFileSystem::remove(const std::string& rawPath) {
  std::string path = normalize(rawPath);
  if (files_.erase(path)) return Status::OK();
  if (dirs_.count(path)) {
    for (const auto& d : dirs_) if (isUnder(d, path)) return Status::FailedPrecondition(fmt::format("{} is not empty", path));
    for (const auto& [p, f] : files_) if (isUnder(p, path)) return Status::FailedPrecondition(fmt::format("{} is not empty", path));
    dirs_.erase(path);
    return Status::OK();
  }
  return Status::NotFound(fmt::format("cannot remove {}: it does not exist", path));
}

Status SimFileSystem::removeAll(const std::string& rawPath) {
  std::string path = normalize(rawPath);
  files_.erase(path);
  for (auto it = files_.begin(); it != files_.end();) it = isUnder(it->first, path) ? files_.erase(it) : std::next(it);
  for (auto it = dirs_.begin(); it != dirs_.end();) it = (isUnder(*it, path) || *it == path) && *it != "/" ? dirs_.erase(it) : std::next(it);
  return Status::OK();
}

Status SimFileSystem::mkdirs(const std::string& rawPath) {
  std::string path = normalize(rawPath);
  if (path.empty()) return Status::OK();
  if (files_.count(path)) return Status::FailedPrecondition(fmt::format("{} is a file", path));
  std::string cur = path;
  while (!cur.empty() && cur != "/" && !dirs_.count(cur)) {
    dirs_.insert(cur);
    cur = parentPath(cur);
  }
  return Status::OK();
}

Status SimFileSystem::setModificationTime(const std::string& path, TimeMs t) {
  auto it = files_.find(normalize(path));
  if (it == files_.end()) return Status::NotFound(fmt::format("cannot touch {}: it does not exist", path));
  it->second.mtime = t;
  return Status::OK();
}

Status SimFileSystem::putDurable(const std::string& path, std::string_view data) {
  STREAMSIM_RETURN_IF_ERROR(mkdirs(parentPath(path)));
  File& f = files_[normalize(path)];
  f.data.assign(data);
  f.durable = f.data.size();
  f.everSynced = true;
  f.mtime = clock_->nowMs();
  return Status::OK();
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
  fail_prefix_ = std::move(prefix);
  fail_status_ = std::move(status);
  fail_count_ = count;
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
