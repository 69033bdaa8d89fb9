#include "streamsim/status.h"

namespace streamsim {

const char* Status::codeName(Code code) {
  switch (code) {
    case Code::kOk: return "OK";
    case Code::kInvalidArgument: return "InvalidArgument";
    case Code::kNotFound: return "NotFound";
    case Code::kCorruption: return "Corruption";
    case Code::kIOError: return "IOError";
    case Code::kNoSpace: return "NoSpace";
    case Code::kFailedPrecondition: return "FailedPrecondition";
    case Code::kTaskFailed: return "TaskFailed";
    case Code::kAborted: return "Aborted";
  }
  return "Unknown";
}

std::string Status::toString() const {
  if (ok()) return "OK";
  return fmt::format("{}: {}", codeName(code_), message_);
}

Status Status::withContext(std::string_view context) const {
  if (ok()) return *this;
  return Status(code_, fmt::format("{}: {}", context, message_));
}

}  // namespace streamsim
