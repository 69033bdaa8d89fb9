// TraceRecorder: an in-memory TraceSink (DESIGN.md §2, §4). It keeps the run's events as JSON
// lines, writes them out, and hashes them into the run fingerprint (FNV-1a 64 over each line
// plus '\n', updated as events arrive). With a clock it also keeps the virtual time of each event
// (for the run's picture, harness/report/html_report.h); times are not part of the fingerprint.
// parseTrace reads the lines back for oracles.
// Not thread-safe: one recorder per simulated run.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/env.h"

namespace streamsim::sim {

class TraceRecorder final : public TraceSink {
 public:
  TraceRecorder() = default;
  // Each event is stamped with clock->nowMs() (clock may be null: no times kept).
  explicit TraceRecorder(Clock* clock) : clock_(clock) {}

  // Stores one event line (a complete JSON object, without the newline).
  void event(std::string_view json) override;

  const std::vector<std::string>& lines() const { return lines_; }
  size_t size() const { return lines_.size(); }
  // The virtual time of each line, in ms (empty without a clock).
  const std::vector<TimeMs>& times() const { return times_; }
  // The run fingerprint: FNV-1a 64 over every line followed by '\n'. The empty trace hashes to
  // the FNV offset basis. Stable across runs, processes and platforms.
  uint64_t fingerprint() const { return hash_; }
  // The fingerprint as 16 lowercase hex digits.
  std::string fingerprintHex() const;
  void clear();

  // All lines, each followed by '\n'.
  std::string text() const;
  // Writes text() to `path` through `fs` (creating its parent directories), synced.
  Status writeTo(FileSystem& fs, const std::string& path) const;
  void writeTo(std::ostream& out) const;

  // The stored events parsed (Corruption naming the line if one is not a JSON object).
  Result<std::vector<nlohmann::json>> events() const;

 private:
  Clock* clock_ = nullptr;
  std::vector<std::string> lines_;
  std::vector<TimeMs> times_;
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// FNV-1a 64 of a trace text (lines joined with '\n' and ending with '\n'); equals
// TraceRecorder::fingerprint() of the same lines.
uint64_t traceFingerprint(std::string_view text);

// Parses JSON-lines trace text (blank lines skipped). Corruption names the 1-based line.
Result<std::vector<nlohmann::json>> parseTrace(std::string_view text);

}  // namespace streamsim::sim
