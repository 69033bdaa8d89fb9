// Real implementations of the engine's Env interfaces: the wall clock, the POSIX filesystem and
// random UUIDs. The only code in engine/ allowed to touch the outside world (DESIGN.md §1).
// Not thread-safe; one instance per engine.
#pragma once

#include <memory>

#include "streamsim/env.h"

namespace streamsim::platform {

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
