#include "streamsim/sim/trace.h"

#include <ostream>

#include <fmt/format.h>

#include "streamsim/sim/random.h"
#include "streamsim/json_nesting.h"

namespace streamsim::sim {

void TraceRecorder::event(std::string_view json) {
  lines_.emplace_back(json);
  if (clock_ != nullptr) times_.push_back(clock_->nowMs());
  hash_ = fnv1a64(json, hash_);
  hash_ = fnv1a64("\n", hash_);
}

std::string TraceRecorder::fingerprintHex() const { return fmt::format("{:016x}", hash_); }

void TraceRecorder::clear() {
  lines_.clear();
  times_.clear();
  hash_ = 0xcbf29ce484222325ULL;
}

std::string TraceRecorder::text() const {
  std::string out;
  for (const std::string& l : lines_) {
    out += l;
    out += '\n';
  }
  return out;
}

Status TraceRecorder::writeTo(FileSystem& fs, const std::string& path) const {
  std::string parent = parentPath(path);
  if (!parent.empty()) STREAMSIM_RETURN_IF_ERROR(fs.mkdirs(parent));
  STREAMSIM_RETURN_IF_ERROR(fs.write(path, text()));
  return fs.sync(path);
}

void TraceRecorder::writeTo(std::ostream& out) const {
  for (const std::string& l : lines_) out << l << '\n';
}

Result<std::vector<nlohmann::json>> TraceRecorder::events() const { return parseTrace(text()); }

uint64_t traceFingerprint(std::string_view text) { return fnv1a64(text); }

Result<std::vector<nlohmann::json>> parseTrace(std::string_view text) {
  std::vector<nlohmann::json> out;
  size_t lineNo = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++lineNo;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    nlohmann::json j = parseJsonBounded<nlohmann::json>(line);
    if (j.is_discarded() || !j.is_object())
      return Status::Corruption(fmt::format("trace line {}: expected one JSON object, got: {}", lineNo, line));
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace streamsim::sim
