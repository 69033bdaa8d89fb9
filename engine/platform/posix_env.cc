#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

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

// What a path that is not a regular file is, for messages.
const char* kindOf(const stdfs::file_status& st) {
  switch (st.type()) {
    case stdfs::file_type::directory: return "a directory";
    case stdfs::file_type::fifo: return "a FIFO (named pipe)";
    case stdfs::file_type::character: return "a character device";
    case stdfs::file_type::block: return "a block device";
    case stdfs::file_type::socket: return "a socket";
    default: return "not a regular file";
  }
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
  Result<std::string> read(const std::string& path) override {
    // Only a regular file is read: opening a FIFO blocks until someone writes, and a device
    // (/dev/zero) never ends. A checkpoint or landing file that is one is bad input, said so.
    std::error_code ec;
    auto st = stdfs::status(path, ec);
    if (!ec && stdfs::exists(st) && !stdfs::is_regular_file(st))
      return Status::InvalidArgument(fmt::format("{} is {}, not a regular file: not read", path, kindOf(st)));
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::NotFound(fmt::format("cannot open {} for reading", path));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
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

std::unique_ptr<Clock> newSystemClock() { return std::make_unique<SystemClock>(); }
std::unique_ptr<FileSystem> newPosixFileSystem() { return std::make_unique<PosixFileSystem>(); }
std::unique_ptr<IdGenerator> newRandomIdGenerator() { return std::make_unique<RandomIdGenerator>(); }

}  // namespace streamsim::platform
