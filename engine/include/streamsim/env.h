// The engine's window on the outside world (DESIGN.md §1–§2). The engine never reads ambient
// time, randomness or files: everything comes through these interfaces, bundled in an Env
// that callers own and hand to the engine. engine/platform implements them for real use,
// sim/ for simulation. Implementations need not be thread-safe: one engine, one Env.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim {

class Scheduler;
class ParsedFiles;
class ServiceDirectory;
class TimeZoneSource;

// Time source and waiting. Under a virtual clock, sleepUntil is a jump in time.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimeMs nowMs() = 0;
  // Blocks (or jumps) until nowMs() >= t. REQUIRES: nothing else moves a virtual clock backwards.
  virtual void sleepUntil(TimeMs t) = 0;
};

struct FileInfo {
  std::string path;  // full path, '/'-separated
  int64_t size = 0;
  TimeMs modificationTime = 0;
  bool isDir = false;
};

// A hierarchical filesystem with RocksDB-FileSystem-like narrow operations.
// Durability model (for crash simulation): write() makes bytes visible but not durable;
// sync(path) makes a file's current bytes durable; rename() is atomic and durable for the
// name change itself. A crash may lose or tear whatever was not synced.
class FileSystem {
 public:
  virtual ~FileSystem() = default;
  // Entries directly under `dir`, sorted by path. NotFound if `dir` does not exist.
  virtual Result<std::vector<FileInfo>> list(const std::string& dir) = 0;
  virtual Result<FileInfo> stat(const std::string& path) = 0;
  virtual bool exists(const std::string& path) = 0;
  virtual Result<std::string> read(const std::string& path) = 0;
  // Creates or replaces `path` with `data` (parents must exist). Not durable until sync().
  virtual Status write(const std::string& path, std::string_view data) = 0;
  virtual Status append(const std::string& path, std::string_view data) = 0;
  virtual Status sync(const std::string& path) = 0;
  // Atomic. Fails with FailedPrecondition if `to` exists (never overwrites, as HDFS rename).
  virtual Status rename(const std::string& from, const std::string& to) = 0;
  virtual Status remove(const std::string& path) = 0;           // a file, or an empty dir
  virtual Status removeAll(const std::string& path) = 0;        // recursively; ok if missing
  virtual Status mkdirs(const std::string& path) = 0;           // ok if it exists
};

// Unique names for temp files and query ids; random in real use, seeded in simulation.
class IdGenerator {
 public:
  virtual ~IdGenerator() = default;
  virtual std::string newUuid() = 0;
};

// Where the engine is at when it passes a fault point (fault_points.h).
struct FaultContext {
  int64_t batchId = -1;
  int partition = -1;
  int operatorId = -1;
  std::string path;
};

// Called at every named fault point. The default does nothing. A simulation may throw its own
// exception from here (a crash) — the engine is exception-neutral and never swallows it — or
// return a non-ok Status (an injected failure, e.g. a task failure) that the engine handles as
// it would a real one.
class FaultHook {
 public:
  virtual ~FaultHook() = default;
  virtual Status at(std::string_view point, const FaultContext& ctx) {
    (void)point;
    (void)ctx;
    return Status::OK();
  }
};

// Receives one structured event per engine step (DESIGN.md §4 "Trace"). Default: ignore.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // `json` is one complete JSON object, e.g. {"event":"commit","batch":3}.
  virtual void event(std::string_view json) { (void)json; }
};

// What the engine is constructed with. Non-owning; the caller keeps these alive.
struct Env {
  Clock* clock = nullptr;
  FileSystem* fs = nullptr;
  IdGenerator* ids = nullptr;
  FaultHook* faults = nullptr;  // may be null: no faults
  TraceSink* trace = nullptr;   // may be null: no trace
  // Async processors (scheduler.h): who resumes at an await (null: the sequential order) and
  // the outside services they call (null: none).
  Scheduler* scheduler = nullptr;
  ServiceDirectory* services = nullptr;
  // Region ids' TZif data for spark.sql.session.timeZone (time_zone.h); null: fixed offsets only.
  TimeZoneSource* timeZones = nullptr;
  // Rows of files read before, for a reader of the same bytes (io/parsed_files.h); null: every
  // read parses. A simulation shares one across the runs of one input.
  ParsedFiles* parsedFiles = nullptr;
};

// Passes a fault point: returns the hook's Status (OK without a hook).
inline Status passFaultPoint(const Env& env, std::string_view point, const FaultContext& ctx) {
  if (env.faults == nullptr) return Status::OK();
  return env.faults->at(point, ctx);
}

// Path helpers ('/'-separated, no normalisation beyond joining).
std::string joinPath(std::string_view a, std::string_view b);
std::string parentPath(std::string_view path);
std::string baseName(std::string_view path);

// Writes `data` to `path` the HDFSMetadataLog way: into `.<name>.<uuid>.tmp` beside it, synced,
// then renamed into place. Returns FailedPrecondition if `path` already exists (never
// overwrites). Passes the fault point log.mid_write between the temp write and the rename.
Status writeFileAtomically(const Env& env, const std::string& path, std::string_view data,
                           const FaultContext& ctx);

// Deletes the file `path`; one already gone is not an error (Spark's CheckpointFileManager.delete
// ignores a missing file: a purge may repeat after a crash). Sets *removed to whether it deleted.
Status removeIfExists(const Env& env, const std::string& path, bool* removed = nullptr);

}  // namespace streamsim
