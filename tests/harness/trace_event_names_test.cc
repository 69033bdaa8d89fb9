// Every event in the traces of the scenarios under scenarios/ (run as written, crash steps and
// all) is named in the registry (trace_events.h): an event written under a new name without a
// registry entry fails here.
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/trace_events.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

TEST(TraceEventNames, EveryEventTheScenariosTraceIsRegistered) {
  std::set<std::string> seen;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(STREAMSIM_SOURCE_DIR) + "/scenarios")) {
    if (e.path().extension() != ".yaml") continue;
    if (e.path().string().find("/python/") != std::string::npos) continue;  // the same engine, slower
    auto sc = loadScenario(e.path().string(), ::streamsim::test::testLoader());
    ASSERT_TRUE(sc.ok()) << sc.status().message();
    ScenarioRunOptions options;
    options.applyOracles = false;
    ScenarioRunResult r = runScenario(*sc, options);
    for (const std::string& line : r.trace) {
      auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      ASSERT_TRUE(j.is_object()) << e.path() << ": " << line;
      std::string name = j.value("event", "");
      EXPECT_TRUE(events::isEvent(name)) << e.path() << " traced an unregistered event: " << line;
      seen.insert(name);
    }
  }
  // The scenarios reach the events of every layer (a check that the walk above saw traces).
  for (auto name : {events::kBatchPlanned, events::kCommit, events::kFilesTaken, events::kTaskAttempt,
                    events::kStateCommit, events::kTimerFired, events::kTtlRead, events::kFaultInjected,
                    events::kCrashApplied})
    EXPECT_TRUE(seen.count(std::string(name))) << "no scenario traced " << name;
}

}  // namespace
}  // namespace streamsim::harness
