// Fuzzes the reader of `streamsim merge` and `streamsim report` (issue 35): the bytes as a sweep
// --json report file read by harness::mergeSweepReports, and what it accepts drawn as the sweep's
// HTML page (harness::sweepReportHtml). Nothing aborts, throws or recurses without bound (200,000
// nested brackets blew the stack before); an accepted report merges again to the same results.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "streamsim/harness/report/html_report.h"
#include "streamsim/harness/run/scenario_sweep.h"

using namespace streamsim;

namespace {
std::string writeTemp(const char* name, const uint8_t* data, size_t size) {
  static const std::string dir = "/tmp/streamsim_sweep_report_fuzz_" + std::to_string(::getpid());
  static const bool made = [] { return std::system(("mkdir -p " + dir).c_str()) == 0; }();
  if (!made) std::abort();
  const std::string path = dir + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = writeTemp("report.json", data, size);
  try {
    auto merged = harness::mergeSweepReports({path});
    if (!merged.ok()) return 0;
    (void)harness::sweepReportHtml(merged->report, nlohmann::json::object());
    // The merged report, written and read again, merges to the same results.
    const std::string text = merged->report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::string again = writeTemp("merged.json", reinterpret_cast<const uint8_t*>(text.data()), text.size());
    auto twice = harness::mergeSweepReports({again});
    if (!twice.ok() || twice->report["results"].size() != merged->report["results"].size()) std::abort();
  } catch (const std::exception&) {
    std::abort();  // every bad report is a Status, never an exception
  }
  return 0;
}
