// Clean restarts of a run, repeated in its reference (run/clean_restarts.h).
#include "streamsim/harness/run/clean_restarts.h"

#include <algorithm>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "streamsim/fault_points.h"
#include "streamsim/trace_events.h"
#include "streamsim/json_nesting.h"

namespace streamsim::harness {

std::vector<int64_t> withheldAfterCleanRestart(const std::vector<std::string>& trace) {
  std::vector<int64_t> out;
  int64_t cleanAt = -1;  // the committed batch the current run started after (-1: none)
  for (const std::string& line : trace) {
    // Cheap filter first: the trace has thousands of lines, these events are few.
    const std::string_view name = traceEventName(line);
    if (name != events::kQueryStarted && name != events::kNoDataBatchWithheld && name != events::kBatchPlanned)
      continue;
    auto e = parseJsonBounded<nlohmann::json>(line);
    if (e.is_discarded() || !e.is_object()) continue;
    if (name == events::kQueryStarted) {
      const int64_t next = e.value("nextBatch", int64_t{0});
      cleanAt = !e.value("rerun", false) && next > 0 ? next - 1 : -1;
    } else if (name == events::kBatchPlanned) {
      cleanAt = -1;  // a batch ran in this run: no-data batches follow again
    } else if (name == events::kNoDataBatchWithheld && cleanAt >= 0) {
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

std::vector<sim::Fault> downtimeAfterCrashes(const std::vector<std::string>& trace) {
  std::vector<sim::Fault> out;
  TimeMs from = 0, until = -1;  // a plan crash's downtime, not yet followed by a start
  int64_t crashBatch = -1;
  for (const std::string& line : trace) {
    const std::string_view name = traceEventName(line);
    if (name != events::kDriverDown && name != events::kQueryStarted) continue;
    auto e = parseJsonBounded<nlohmann::json>(line);
    if (e.is_discarded() || !e.is_object()) continue;
    if (name == events::kDriverDown) {
      if (e.value("after", "") != "crash") continue;
      if (until < 0) from = e.value("from", TimeMs{0});  // a crash during the restart adds to it
      until = e.value("until", TimeMs{0});
      crashBatch = e.value("batch", int64_t{-1});
    } else if (name == events::kQueryStarted && until >= 0) {
      const int64_t next = e.value("nextBatch", int64_t{0});
      if (e.value("rerun", false)) {
        out.push_back(sim::DowntimeFault{next, until - from});
      } else {
        const bool afterCommit = next > 0 && crashBatch == next - 1;
        sim::CrashFault c{std::string(afterCommit ? faults::kCommitsAfterWrite : faults::kOffsetsBeforeWrite),
                          afterCommit ? next - 1 : next, -1, 1, until - from};
        // The run restarted there before (a crash during a start, then one planning the batch):
        // the reference's crash is the next pass of the same point.
        for (const sim::Fault& f : out)
          if (auto* o = std::get_if<sim::CrashFault>(&f); o != nullptr && o->point == c.point && o->batch == c.batch)
            c.nth = o->nth + 1;
        out.push_back(std::move(c));
      }
      until = -1;
    }
  }
  return out;
}

std::vector<sim::CrashFault> replannedAfterCrashes(const std::vector<std::string>& trace) {
  std::vector<sim::CrashFault> out;
  std::map<int64_t, int64_t> logged;  // batch -> sources that logged its files in this attempt
  std::optional<sim::CrashFault> crash;  // the plan crash that ended this attempt
  bool down = false;                     // ... with downtime (downtimeAfterCrashes has it)
  for (const std::string& line : trace) {
    const std::string_view name = traceEventName(line);
    if (name != events::kFilesTaken && name != events::kFaultInjected && name != events::kQueryStarted &&
        name != events::kDriverDown)
      continue;
    auto e = parseJsonBounded<nlohmann::json>(line);
    if (e.is_discarded() || !e.is_object()) continue;
    if (name == events::kFilesTaken) {
      ++logged[e.value("batch", int64_t{-1})];
    } else if (name == events::kFaultInjected && e.value("kind", "") == "crash") {
      crash.reset();
      if (e.value("step", false)) continue;
      const int64_t batch = e.value("batch", int64_t{-1});
      const bool atSourceLog = e.value("point", "") == faults::kSourceLogAfterWrite;
      crash = sim::CrashFault{std::string(atSourceLog ? faults::kSourceLogAfterWrite : faults::kOffsetsBeforeWrite),
                              batch, -1, atSourceLog ? std::max<int64_t>(1, logged[batch]) : 1};
    } else if (name == events::kDriverDown) {
      if (e.value("after", "") == "crash") down = true;
    } else if (name == events::kQueryStarted) {
      const int64_t next = e.value("nextBatch", int64_t{0});
      if (crash && !down && !e.value("rerun", false) && crash->batch == next && logged[next] > 0) {
        // The run restarted there before: the reference's crash is a later pass of the point.
        int64_t before = 0;
        for (const sim::CrashFault& o : out)
          if (o.point == crash->point && o.batch == crash->batch) before = std::max(before, o.nth);
        crash->nth += before;
        out.push_back(*crash);
      }
      crash.reset();
      down = false;
      logged.clear();
    }
  }
  return out;
}

std::vector<sim::DowntimeFault> downtimeWithoutRestarts(const std::vector<std::string>& trace) {
  std::vector<sim::DowntimeFault> out;
  for (const std::string& line : trace) {
    if (traceEventName(line) != events::kDriverDown) continue;
    auto e = parseJsonBounded<nlohmann::json>(line);
    if (e.is_discarded() || !e.is_object() || e.value("after", "") != "crash") continue;
    out.push_back(sim::DowntimeFault{e.value("batch", int64_t{-1}), e.value("until", TimeMs{0}) - e.value("from", TimeMs{0})});
  }
  return out;
}

sim::FaultPlan withSameRestarts(sim::FaultPlan reference, const std::vector<std::string>& trace,
                                bool cleanRestarts) {
  // The downtime first: at a batch's commit it comes before that batch's clean restart.
  for (sim::Fault& f : downtimeAfterCrashes(trace)) reference.faults.push_back(std::move(f));
  for (sim::CrashFault& f : replannedAfterCrashes(trace)) reference.faults.push_back(std::move(f));
  if (!cleanRestarts) return reference;
  return withCleanRestarts(std::move(reference), withheldAfterCleanRestart(trace));
}

}  // namespace streamsim::harness
