// Every registered fault point has a crash scenario: some scenario under scenarios/ has a
// `crash: {at: <point>}` step (docs/contributing.md "Add a fault point").
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "streamsim/fault_points.h"
#include "streamsim/harness/scenario.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

TEST(FaultPointScenarios, EveryRegisteredFaultPointHasACrashScenario) {
  std::set<std::string> crashed;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(STREAMSIM_SOURCE_DIR) + "/scenarios")) {
    if (e.path().extension() != ".yaml") continue;
    auto sc = loadScenario(e.path().string(), ::streamsim::test::testLoader());
    ASSERT_TRUE(sc.ok()) << sc.status().message();
    for (const auto& step : sc->steps)
      if (auto* c = std::get_if<CrashStep>(&step.step); c && !c->now) crashed.insert(c->at);
  }
  for (const auto& p : faults::allFaultPoints())
    EXPECT_TRUE(crashed.count(std::string(p.name))) << "no scenario crashes at " << p.name;
}

}  // namespace
}  // namespace streamsim::harness
