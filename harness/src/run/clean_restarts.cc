// Clean restarts of a run, repeated in its reference (run/clean_restarts.h).
#include "streamsim/harness/run/clean_restarts.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "streamsim/fault_points.h"

namespace streamsim::harness {

std::vector<int64_t> withheldAfterCleanRestart(const std::vector<std::string>& trace) {
  std::vector<int64_t> out;
  int64_t cleanAt = -1;  // the committed batch the current run started after (-1: none)
  for (const std::string& line : trace) {
    // Cheap filter first: the trace has thousands of lines, these events are few.
    if (line.find("\"query_started\"") == std::string::npos &&
        line.find("\"no_data_batch_withheld\"") == std::string::npos &&
        line.find("\"batch_planned\"") == std::string::npos)
      continue;
    auto e = nlohmann::json::parse(line, nullptr, false);
    if (e.is_discarded() || !e.is_object()) continue;
    const std::string ev = e.value("event", "");
    if (ev == "query_started") {
      const int64_t next = e.value("nextBatch", int64_t{0});
      cleanAt = !e.value("rerun", false) && next > 0 ? next - 1 : -1;
    } else if (ev == "batch_planned") {
      cleanAt = -1;  // a batch ran in this run: no-data batches follow again
    } else if (ev == "no_data_batch_withheld" && cleanAt >= 0) {
      if (std::find(out.begin(), out.end(), cleanAt) == out.end()) out.push_back(cleanAt);
      cleanAt = -1;
    }
  }
  return out;
}

sim::FaultPlan withCleanRestarts(sim::FaultPlan reference, const std::vector<int64_t>& batches) {
  for (int64_t c : batches)
    reference.faults.push_back(sim::CrashFault{std::string(faults::kCommitsAfterWrite), c, -1, 1});
  return reference;
}

}  // namespace streamsim::harness
