// Running the built `streamsim` binary (STREAMSIM_CLI) from a test, and scratch folders for the
// inputs it reads: shared by the tests that run the CLI (reliability/, harness/cli_test, harness/async_sweep_test).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include "test_paths.h"

namespace streamsim::testing {

struct CliOut {
  int code = -1;  // the exit code; -1 if the process died of a signal (an abort)
  std::string text;
};

// Runs a shell command line exactly as given (a printed reproduce line), stderr with stdout.
inline CliOut runShell(const std::string& line) {
  CliOut out;
  std::string cmd = line + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.text.append(buf, n);
  int status = pclose(p);
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

#ifdef STREAMSIM_CLI
// Runs the built `streamsim` with `args`.
inline CliOut runCli(const std::string& args) { return runShell(std::string(STREAMSIM_CLI) + " " + args); }
#endif

// The rest of the first line of `text` after `marker` (searched from `from`); "" when absent.
inline std::string lineAfter(const std::string& text, const std::string& marker, size_t from = 0) {
  size_t at = text.find(marker, from);
  if (at == std::string::npos) return "";
  at += marker.size();
  return text.substr(at, text.find('\n', at) - at);
}

// The 16-hex-digit trace hash after "trace " in `text` (from `from` on).
inline std::string traceHashIn(const std::string& text, size_t from = 0) {
  return lineAfter(text, "trace ", from).substr(0, 16);
}

// A fresh folder under the temp dir, removed when the object goes.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_((std::filesystem::temp_directory_path() /
               ("streamsim_" + name + "_" + std::to_string(::getpid())))
                  .string()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  // Writes `text` (bytes as given) to path()/rel, creating folders; returns the full path.
  std::string write(const std::string& rel, const std::string& text) const {
    std::filesystem::path p = std::filesystem::path(path_) / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string read(const std::string& rel) const {
    std::ifstream in(std::filesystem::path(path_) / rel, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  }

 private:
  std::string path_;
};

// The smallest scenario: one row through a memory source and sink, no check.
inline constexpr const char* kTiny = R"(name: tiny
query:
  source: {kind: memory, schema: "id string"}
  sink: {kind: memory}
steps:
  - add_rows: [{id: a}]
  - run: available
)";

// A files-to-files count query in two batches, for the tests that keep its checkpoint
// (`run --keep`: chk/offsets/{0,1}, chk/sources/0/{0,1}, out/) and damage it.
inline constexpr const char* kTwoBatches = R"(name: two batches to keep
query:
  source: {kind: files, path: /landing, format: json, schema: "device string"}
  operators:
    - groupBy: [device]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: files, path: /out, format: json}
  outputMode: update
  shufflePartitions: 1
steps:
  - put: {path: /landing/a.json, rows: [{device: d1}]}
  - run: 1
  - put: {path: /landing/b.json, rows: [{device: d1}, {device: d2}]}
  - run: 1
)";

}  // namespace streamsim::testing
