// Real implementations of the engine's Env interfaces: the wall clock, the POSIX filesystem and
// random UUIDs. The only code in engine/ allowed to touch the outside world (DESIGN.md §1).
// Not thread-safe; one instance per engine.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "streamsim/env.h"
#include "streamsim/status.h"
#include "streamsim/time_zone.h"

namespace streamsim::platform {

// The most bytes a file input is read into memory: a checkpoint, landing or report file.
inline constexpr int64_t kMaxInputFileBytes = int64_t{1} << 30;  // 1 GiB
// ...and a file a person writes (a scenario, a processor, a plan): its parse costs many times its size.
inline constexpr int64_t kMaxSourceFileBytes = int64_t{64} << 20;  // 64 MiB

// THE reader of a user's file, used by every command and by the POSIX FileSystem: only a regular
// file of at most `maxBytes` is read. A FIFO (opening it would block until someone writes), a
// device (/dev/zero never ends: bad_alloc), a socket or a folder is InvalidArgument naming `path`
// and what it is; a larger file is InvalidArgument with its size and the bound; a missing file
// NotFound. The file is opened non-blocking and checked on the open descriptor, so a FIFO swapped
// in after a stat does not block either.
Result<std::string> readInputFile(const std::string& path, int64_t maxBytes = kMaxInputFileBytes);

// THE writer of a file a command leaves for the user (a --json/--junit report, an --html page):
// `path` is created or replaced only as a regular file. A symbolic link (it could point outside
// the folder the user gave), a folder, a FIFO (opening it would block until someone reads), a
// device or a socket is InvalidArgument naming `path` and what it is, and nothing is written. The
// file is opened without following a link and non-blocking, and checked on the open descriptor
// before it is truncated, so a FIFO or a link swapped in after a stat is refused too.
Status writeOutputFile(const std::string& path, std::string_view data);
// A folder a command writes its outputs into (`run --html DIR`, a sweep page's `<page>-seeds`):
// absent (created, with its parents), or a folder that is not a symbolic link. Anything else is
// InvalidArgument naming `dir` and what it is.
Status prepareOutputFolder(const std::string& dir);

std::unique_ptr<Clock> newSystemClock();
std::unique_ptr<FileSystem> newPosixFileSystem();
std::unique_ptr<IdGenerator> newRandomIdGenerator();
// Region ids' TZif files under `root` (the system's tz database): tzif("America/Los_Angeles")
// reads root/America/Los_Angeles. An id that is not a region id's form (isRegionZoneId: no "..",
// no leading '/') or names no regular file is NotFound.
std::unique_ptr<TimeZoneSource> newSystemTimeZones(std::string root = "/usr/share/zoneinfo");

// An Env with all four, owning them.
struct RealEnv {
  std::unique_ptr<Clock> clock = newSystemClock();
  std::unique_ptr<FileSystem> fs = newPosixFileSystem();
  std::unique_ptr<IdGenerator> ids = newRandomIdGenerator();
  std::unique_ptr<TimeZoneSource> timeZones = newSystemTimeZones();
  Env env() const {
    Env e{clock.get(), fs.get(), ids.get(), nullptr, nullptr};
    e.timeZones = timeZones.get();
    return e;
  }
};

}  // namespace streamsim::platform
