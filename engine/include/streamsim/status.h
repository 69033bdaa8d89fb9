// Status and Result<T>: expected failures as values (STYLE.md "Ownership and errors").
// A Status is cheap to copy; its message says what was wrong and where (file, line, expected).
// Thread-safety: plain values.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

namespace streamsim {

// The message parameters of an error condition, in Spark's order: {"operationType", "get"}, ...
using ErrorParams = std::vector<std::pair<std::string, std::string>>;

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk,
    kInvalidArgument,  // bad input from a user: schema, option, file content
    kNotFound,         // a file or key that must exist does not
    kCorruption,       // a log or state file that cannot be parsed
    kIOError,          // the filesystem failed (may be retryable)
    kNoSpace,          // the filesystem is full
    kFailedPrecondition,  // a protocol rule was broken (gap in logs, changed sink path, handle rule)
    kTaskFailed,       // user processor code threw
    kAborted,          // the query was stopped
  };

  Status() = default;
  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string m) { return Status(Code::kInvalidArgument, std::move(m)); }
  static Status NotFound(std::string m) { return Status(Code::kNotFound, std::move(m)); }
  static Status Corruption(std::string m) { return Status(Code::kCorruption, std::move(m)); }
  static Status IOError(std::string m) { return Status(Code::kIOError, std::move(m)); }
  static Status NoSpace(std::string m) { return Status(Code::kNoSpace, std::move(m)); }
  static Status FailedPrecondition(std::string m) { return Status(Code::kFailedPrecondition, std::move(m)); }
  static Status TaskFailed(std::string m) { return Status(Code::kTaskFailed, std::move(m)); }
  static Status Aborted(std::string m) { return Status(Code::kAborted, std::move(m)); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string toString() const;
  static const char* codeName(Code code);

  // Returns a copy with `context` put in front of the message ("reading offsets/3: ...").
  Status withContext(std::string_view context) const;

  // Spark's error condition of this failure ("STATE_STORE_INVALID_CONFIG_AFTER_RESTART"), or ""
  // when it has none; its message parameters; one parameter's value (nullopt: not a parameter).
  // The message then reads "[CONDITION] Spark's message ..." (spark_errors.h makes such a Status).
  const std::string& condition() const;
  const ErrorParams& parameters() const;
  std::optional<std::string> parameter(std::string_view name) const;
  // A copy carrying `condition` and `parameters` (the message is unchanged).
  Status withCondition(std::string condition, ErrorParams parameters) const;

 private:
  struct Condition {
    std::string name;
    ErrorParams parameters;
  };
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}
  Code code_ = Code::kOk;
  std::string message_;
  std::shared_ptr<const Condition> condition_;  // shared: a Status stays cheap to copy
};

// A value or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T&& operator*() && { return std::move(*value_); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace streamsim

// Propagate a non-ok Status from the enclosing function.
#define STREAMSIM_RETURN_IF_ERROR(expr)            \
  do {                                             \
    ::streamsim::Status _st = (expr);              \
    if (!_st.ok()) return _st;                     \
  } while (0)

#define STREAMSIM_CONCAT_INNER(a, b) a##b
#define STREAMSIM_CONCAT(a, b) STREAMSIM_CONCAT_INNER(a, b)
// `STREAMSIM_ASSIGN_OR_RETURN(auto x, makeX());`
#define STREAMSIM_ASSIGN_OR_RETURN(lhs, expr) \
  STREAMSIM_ASSIGN_OR_RETURN_IMPL(STREAMSIM_CONCAT(_res_, __LINE__), lhs, expr)
#define STREAMSIM_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = std::move(tmp).value()
