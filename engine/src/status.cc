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
  Status out(code_, fmt::format("{}: {}", context, message_));
  out.condition_ = condition_;
  return out;
}

const std::string& Status::condition() const {
  static const std::string kNone;
  return condition_ ? condition_->name : kNone;
}

const ErrorParams& Status::parameters() const {
  static const ErrorParams kNone;
  return condition_ ? condition_->parameters : kNone;
}

std::optional<std::string> Status::parameter(std::string_view name) const {
  for (const auto& [k, v] : parameters())
    if (k == name) return v;
  return std::nullopt;
}

Status Status::withCondition(std::string condition, ErrorParams parameters) const {
  Status out = *this;
  out.condition_ = std::make_shared<const Condition>(Condition{std::move(condition), std::move(parameters)});
  return out;
}

}  // namespace streamsim
