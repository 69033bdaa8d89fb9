#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "streamsim/platform/platform.h"

namespace streamsim::platform {
namespace {
namespace stdfs = std::filesystem;

Status ioError(const std::string& what, const std::string& path, const std::error_code& ec) {
  if (ec == std::errc::no_space_on_device)
    return Status::NoSpace(fmt::format("{} {}: {}", what, path, ec.message()));
  if (ec == std::errc::no_such_file_or_directory)
    return Status::NotFound(fmt::format("{} {}: {}", what, path, ec.message()));
  return Status::IOError(fmt::format("{} {}: {}", what, path, ec.message()));
}

TimeMs mtimeMs(const stdfs::path& p, std::error_code& ec) {
  auto t = stdfs::last_write_time(p, ec);
  auto sys = std::chrono::file_clock::to_sys(t);
  return std::chrono::duration_cast<std::chrono::milliseconds>(sys.time_since_epoch()).count();
}

class SystemClock final : public Clock {
 public:
  TimeMs nowMs() override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  void sleepUntil(TimeMs t) override {
    TimeMs now = nowMs();
    if (t > now) std::this_thread::sleep_for(std::chrono::milliseconds(t - now));
  }
};

// What a stat's mode is, for messages.
const char* kindOfMode(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::vector<FileInfo>> list(const std::string& dir) override {
    std::error_code ec;
    std::vector<FileInfo> out;
    stdfs::directory_iterator it(dir, ec);
    if (ec) return ioError("listing", dir, ec);
    for (const auto& entry : it) {
      FileInfo info;
      info.path = entry.path().string();
      info.isDir = entry.is_directory(ec);
      info.size = info.isDir ? 0 : static_cast<int64_t>(entry.file_size(ec));
      info.modificationTime = mtimeMs(entry.path(), ec);
      out.push_back(std::move(info));
    }
    std::sort(out.begin(), out.end(), [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return out;
  }
  Result<FileInfo> stat(const std::string& path) override {
    std::error_code ec;
    auto st = stdfs::status(path, ec);
    if (ec) return ioError("stat", path, ec);
    FileInfo info;
    info.path = path;
    info.isDir = stdfs::is_directory(st);
    info.size = info.isDir ? 0 : static_cast<int64_t>(stdfs::file_size(path, ec));
    info.modificationTime = mtimeMs(path, ec);
    return info;
  }
  bool exists(const std::string& path) override {
    std::error_code ec;
    return stdfs::exists(path, ec);
  }
  Result<std::string> read(const std::string& path) override { return readInputFile(path); }
  Status write(const std::string& path, std::string_view data) override {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Status::IOError(fmt::format("cannot open {} for writing", path));
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) return Status::IOError(fmt::format("writing {} failed", path));
    return Status::OK();
  }
  Status append(const std::string& path, std::string_view data) override {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    if (!out) return Status::IOError(fmt::format("cannot open {} for appending", path));
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) return Status::IOError(fmt::format("appending to {} failed", path));
    return Status::OK();
  }
  Status sync(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return Status::IOError(fmt::format("cannot open {} to sync", path));
    int rc = ::fsync(fd);
    ::close(fd);
    if (rc != 0) return Status::IOError(fmt::format("fsync {} failed", path));
    return Status::OK();
  }
  Status rename(const std::string& from, const std::string& to) override {
    std::error_code ec;
    if (stdfs::exists(to, ec))
      return Status::FailedPrecondition(fmt::format("cannot rename {} to {}: target exists", from, to));
    stdfs::rename(from, to, ec);
    if (ec) return ioError("renaming " + from + " to", to, ec);
    return Status::OK();
  }
  Status remove(const std::string& path) override {
    std::error_code ec;
    if (!stdfs::remove(path, ec) && !ec) return Status::NotFound(fmt::format("{} does not exist", path));
    if (ec) return ioError("removing", path, ec);
    return Status::OK();
  }
  Status removeAll(const std::string& path) override {
    std::error_code ec;
    stdfs::remove_all(path, ec);
    if (ec) return ioError("removing", path, ec);
    return Status::OK();
  }
  Status mkdirs(const std::string& path) override {
    std::error_code ec;
    stdfs::create_directories(path, ec);
    if (ec) return ioError("creating directory", path, ec);
    return Status::OK();
  }
};

class RandomIdGenerator final : public IdGenerator {
 public:
  RandomIdGenerator() : rng_(std::random_device{}()) {}
  std::string newUuid() override {
    std::uniform_int_distribution<uint32_t> d(0, 15);
    static const char* kHex = "0123456789abcdef";
    std::string s = "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx";
    for (char& c : s) {
      if (c == 'x') c = kHex[d(rng_)];
      else if (c == 'y') c = kHex[8 + d(rng_) % 4];
    }
    return s;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace

Result<std::string> readInputFile(const std::string& path, int64_t maxBytes) {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT) return Status::NotFound(fmt::format("cannot open {} for reading: no such file", path));
    if (e == ENXIO)  // a socket, or a FIFO opened for writing only
      return Status::InvalidArgument(fmt::format("{} is not a regular file: not read", path));
    return Status::IOError(fmt::format("cannot open {} for reading: {}", path, std::strerror(e)));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct ::stat st {};
  if (::fstat(fd, &st) != 0)
    return Status::IOError(fmt::format("cannot stat {}: {}", path, std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    return Status::InvalidArgument(fmt::format("{} is {}, not a regular file: not read", path, kindOfMode(st.st_mode)));
  if (st.st_size > maxBytes)
    return Status::InvalidArgument(fmt::format("{} is {} bytes, over the {} bytes a file input may have: not read",
                                               path, static_cast<int64_t>(st.st_size), maxBytes));
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  // A file that grows while it is read is cut at the bound (and said so), never read without end.
  for (;;) {
    if (got == out.size()) {
      if (static_cast<int64_t>(out.size()) >= maxBytes + 1) break;
      out.resize(std::min<size_t>(out.size() + 65536, static_cast<size_t>(maxBytes) + 1));
    }
    const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(fmt::format("reading {} failed: {}", path, std::strerror(errno)));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (static_cast<int64_t>(got) > maxBytes)
    return Status::InvalidArgument(fmt::format("{} grew past the {} bytes a file input may have while it was read: not read",
                                               path, maxBytes));
  out.resize(got);
  return out;
}

Status writeOutputFile(const std::string& path, std::string_view data) {
  auto refused = [&](std::string_view what) {
    return Status::InvalidArgument(fmt::format(
        "{} is {}: not written (an output is written only as a regular file it creates or replaces)",
        path, what));
  };
  // O_NOFOLLOW: a link is ELOOP, never followed; O_NONBLOCK: a FIFO without a reader is ENXIO
  // at once instead of a wait. No O_TRUNC before the descriptor is known to be a regular file.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int e = errno;
    if (e == ELOOP) return refused("a symbolic link (it could point outside the folder given)");
    if (e == EISDIR) return refused("a directory");
    if (e == ENXIO) return refused("a FIFO (named pipe) or a socket");
    return Status::IOError(fmt::format("cannot open {} for writing: {}", path, std::strerror(e)));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() {
      if (fd >= 0) ::close(fd);
    }
  } closer{fd};
  struct ::stat st {};
  if (::fstat(fd, &st) != 0)
    return Status::IOError(fmt::format("cannot stat {}: {}", path, std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) return refused(kindOfMode(st.st_mode));
  if (::ftruncate(fd, 0) != 0)
    return Status::IOError(fmt::format("cannot truncate {}: {}", path, std::strerror(errno)));
  // Back to blocking writes for a regular file (O_NONBLOCK has no effect on one; cleared anyway).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(fmt::format("writing {} failed: {}", path, std::strerror(errno)));
    }
    done += static_cast<size_t>(n);
  }
  const int fdToClose = closer.fd;
  closer.fd = -1;
  if (::close(fdToClose) != 0)
    return Status::IOError(fmt::format("writing {} failed: {}", path, std::strerror(errno)));
  return Status::OK();
}

Status prepareOutputFolder(const std::string& dir) {
  struct ::stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) return Status::IOError(fmt::format("cannot stat {}: {}", dir, std::strerror(errno)));
    std::error_code ec;
    stdfs::create_directories(dir, ec);
    if (ec) return Status::IOError(fmt::format("cannot create the folder {}: {}", dir, ec.message()));
    return Status::OK();
  }
  if (S_ISLNK(st.st_mode))
    return Status::InvalidArgument(fmt::format(
        "{} is a symbolic link (it could point outside the folder given): not written into", dir));
  if (!S_ISDIR(st.st_mode))
    return Status::InvalidArgument(fmt::format(
        "{} is {}, not a folder: not written into", dir,
        S_ISREG(st.st_mode) ? "a regular file" : kindOfMode(st.st_mode)));
  return Status::OK();
}

std::unique_ptr<Clock> newSystemClock() { return std::make_unique<SystemClock>(); }
std::unique_ptr<FileSystem> newPosixFileSystem() { return std::make_unique<PosixFileSystem>(); }
std::unique_ptr<IdGenerator> newRandomIdGenerator() { return std::make_unique<RandomIdGenerator>(); }

namespace {
class SystemTimeZones final : public TimeZoneSource {
 public:
  explicit SystemTimeZones(std::string root) : root_(std::move(root)) {}
  Result<std::string> tzif(std::string_view id) override {
    if (!isRegionZoneId(id)) return Status::NotFound(fmt_id("is not a region id", id));
    auto bytes = readInputFile(root_ + "/" + std::string(id), int64_t{1} << 20);
    if (!bytes.ok()) return Status::NotFound(fmt_id("is not in the tz database at " + root_, id));
    return bytes;
  }

 private:
  static std::string fmt_id(const std::string& what, std::string_view id) {
    return "time zone '" + std::string(id) + "' " + what;
  }
  std::string root_;
};
}  // namespace

std::unique_ptr<TimeZoneSource> newSystemTimeZones(std::string root) {
  return std::make_unique<SystemTimeZones>(std::move(root));
}

}  // namespace streamsim::platform
