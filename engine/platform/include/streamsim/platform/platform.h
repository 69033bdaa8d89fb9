// Real implementations of the engine's Env interfaces: the wall clock, the POSIX filesystem and
// random UUIDs. The only code in engine/ allowed to touch the outside world (DESIGN.md §1).
// Not thread-safe; one instance per engine.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "streamsim/env.h"
#include "streamsim/status.h"

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

std::unique_ptr<Clock> newSystemClock();
std::unique_ptr<FileSystem> newPosixFileSystem();
std::unique_ptr<IdGenerator> newRandomIdGenerator();

// An Env with all three, owning them.
struct RealEnv {
  std::unique_ptr<Clock> clock = newSystemClock();
  std::unique_ptr<FileSystem> fs = newPosixFileSystem();
  std::unique_ptr<IdGenerator> ids = newRandomIdGenerator();
  Env env() const { return Env{clock.get(), fs.get(), ids.get(), nullptr, nullptr}; }
};

}  // namespace streamsim::platform
