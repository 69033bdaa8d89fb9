// An in-memory filesystem for simulation (DESIGN.md §4). Each file has content, a modification
// time from the virtual clock, and a durable prefix: what the last sync made safe. crash()
// applies a crash policy: each file keeps its durable part, a torn prefix of the rest, or
// everything. Renames are atomic and durable. Listings are sorted by path. A landing file can
// be visible while it is still being written (putPartial / completePartial).
// Not thread-safe: one simulated run, one filesystem.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "streamsim/env.h"

namespace streamsim::sim {

// A simulated path as Hadoop's Path keeps it: repeated and trailing slashes dropped, `.`
// segments dropped and `x/..` resolved (java.net.URI.normalize, which Path applies). A `..` above
// the root of an absolute path is dropped too, as POSIX resolves `/..` (HDFS refuses such a path
// outright: the scenario loader refuses it, `aboveRoot` says it happened). So no simulated path
// holds a `..` and a kept copy (`--keep`) stays inside its folder.
std::string normalizeSimulatedPath(std::string_view path, bool* aboveRoot = nullptr);

class SimFileSystem final : public FileSystem {
 public:
  explicit SimFileSystem(Clock* clock) : clock_(clock) {}

  Result<std::vector<FileInfo>> list(const std::string& dir) override;
  Result<FileInfo> stat(const std::string& path) override;
  bool exists(const std::string& path) override;
  Result<std::string> read(const std::string& path) override;
  Status write(const std::string& path, std::string_view data) override;
  Status append(const std::string& path, std::string_view data) override;
  Status sync(const std::string& path) override;
  Status rename(const std::string& from, const std::string& to) override;
  Status remove(const std::string& path) override;
  Status removeAll(const std::string& path) override;
  Status mkdirs(const std::string& path) override;

  // --- simulation controls (not part of the engine's interface) ---

  // Sets a file's modification time (the `touch` step, files with old mtimes).
  Status setModificationTime(const std::string& path, TimeMs t);
  // Writes a file durably in one step (a landing file that appears atomically). Creates the
  // parent directories.
  Status putDurable(const std::string& path, std::string_view data);

  // A landing file written in place by an outside writer: visible now with the first
  // `visibleBytes` of `fullContent` (durable: the writer is not the crashing driver); the rest
  // is pending until extendPartial / completePartial. Creates the parent directories.
  Status putPartial(const std::string& path, std::string_view fullContent, size_t visibleBytes);
  // Makes `visibleBytes` (at least the current size) of the final content visible.
  Status extendPartial(const std::string& path, size_t visibleBytes);
  // Makes the whole final content visible (mtime = now). NotFound if `path` is not partial.
  Status completePartial(const std::string& path);
  bool isPartial(const std::string& path) const;

  // What survives of one file's unsynced bytes in a crash: given the file, the durable length
  // and the full length, return how many bytes to keep (durable..full).
  using CrashPolicy = std::function<size_t(const std::string& path, size_t durable, size_t full)>;
  // Applies a crash: every file keeps durable + policy(...) bytes; a file never synced and
  // policy 0 disappears.
  void crash(const CrashPolicy& policy);
  // Crash that loses every unsynced byte.
  void crashLosingUnsynced() {
    crash([](const std::string&, size_t durable, size_t) { return durable; });
  }

  // Faults on writes under a path prefix: the next `count` writes/appends/renames there fail
  // with `status`. failWrites replaces every armed rule; addWriteFault adds one (rules are
  // tried in the order they were added).
  void failWrites(std::string prefix, Status status, int count);
  void addWriteFault(std::string prefix, Status status, int count);
  void clearWriteFaults() { write_faults_.clear(); }
  // How many writes/appends/renames failed because of failWrites/addWriteFault/capacity.
  int64_t injectedFailures() const { return injected_failures_; }
  // When set, writes fail with NoSpace once the total size would exceed `bytes` (0 = no limit).
  void setCapacity(int64_t bytes) { capacity_ = bytes; }

  // Every file path, sorted (for inspection and hashing).
  std::vector<std::string> allFiles() const;
  int64_t totalBytes() const;

 private:
  struct File {
    std::string data;
    size_t durable = 0;
    bool everSynced = false;
    TimeMs mtime = 0;
    std::string pending;  // a partial landing file's bytes not yet visible
    bool partial = false;
  };
  struct WriteFault {
    std::string prefix;
    Status status;
    int count = 0;
  };
  Status checkParent(const std::string& path) const;
  Status injected(const std::string& path);
  Status checkWritable(const std::string& path) const;

  Clock* clock_;
  // Transparent comparators: paths are looked up as views (a parent path without a string).
  std::map<std::string, File, std::less<>> files_;
  std::set<std::string, std::less<>> dirs_{"/"};
  int64_t capacity_ = 0;
  std::vector<WriteFault> write_faults_;
  int64_t injected_failures_ = 0;
};

}  // namespace streamsim::sim
