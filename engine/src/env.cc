#include "streamsim/env.h"

#include "streamsim/fault_points.h"

namespace streamsim {

std::string joinPath(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  std::string out(a);
  if (out.back() != '/') out.push_back('/');
  if (b.front() == '/') b.remove_prefix(1);
  out.append(b);
  return out;
}

std::string parentPath(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto pos = path.rfind('/');
  if (pos == std::string_view::npos) return "";
  if (pos == 0) return "/";
  return std::string(path.substr(0, pos));
}

std::string baseName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto pos = path.rfind('/');
  return std::string(pos == std::string_view::npos ? path : path.substr(pos + 1));
}

Status writeFileAtomically(const Env& env, const std::string& path, std::string_view data,
                           const FaultContext& ctx) {
  if (env.fs->exists(path))
    return Status::FailedPrecondition(fmt::format("{} already exists; log files are never overwritten", path));
  std::string dir = parentPath(path);
  STREAMSIM_RETURN_IF_ERROR(env.fs->mkdirs(dir));
  // ".<name>.<uuid>.tmp" next to the target, built without fmt (one per checkpoint file).
  std::string tmpName = ".";
  tmpName += baseName(path);
  tmpName += '.';
  tmpName += env.ids->newUuid();
  tmpName += ".tmp";
  std::string tmp = joinPath(dir, tmpName);
  STREAMSIM_RETURN_IF_ERROR(env.fs->write(tmp, data));
  STREAMSIM_RETURN_IF_ERROR(env.fs->sync(tmp));
  FaultContext mid = ctx;
  mid.path = path;
  STREAMSIM_RETURN_IF_ERROR(passFaultPoint(env, faults::kLogMidWrite, mid));
  Status st = env.fs->rename(tmp, path);
  if (!st.ok()) {
    (void)env.fs->remove(tmp);
    return st;
  }
  return Status::OK();
}

Status removeIfExists(const Env& env, const std::string& path, bool* removed) {
  Status st = env.fs->remove(path);
  if (removed != nullptr) *removed = st.ok();
  return st.code() == Status::Code::kNotFound ? Status::OK() : st;
}

}  // namespace streamsim
