// Scenarios in tests: loaded from YAML text (named `fileName` in messages and printed lines) or
// from a file of the repository (a load error fails the test and gives an empty Scenario), and
// the checks the oracle tests share.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {

inline Scenario load(const std::string& yaml, const std::string& fileName = "test.yaml") {
  ScenarioLoad l = parseScenario(yaml, fileName, ::streamsim::test::testLoader());
  EXPECT_TRUE(l.ok()) << l.errorText();
  return l.ok() ? *l.scenario : Scenario{};
}

// `rel` under the repository's root (STREAMSIM_SOURCE_DIR).
inline Scenario loadFile(const std::string& rel) {
  auto sc = loadScenario(std::string(STREAMSIM_SOURCE_DIR) + "/" + rel, ::streamsim::test::testLoader());
  EXPECT_TRUE(sc.ok()) << sc.status().message();
  return sc.ok() ? *sc : Scenario{};
}

// The oracles the run's violations name, in order.
inline std::vector<std::string> violated(const ScenarioRunResult& r) {
  std::vector<std::string> out;
  for (const auto& v : r.violations) out.push_back(v.oracle);
  return out;
}

// The first seeds of a sweep of `sc` (generated fault plans): every one passes.
inline void expectSweepPasses(const Scenario& sc, int seeds) {
  auto reach = scenarioReach(sc);
  for (int s = 1; s <= seeds; ++s) {
    auto r = runScenarioSeed(sc, static_cast<uint64_t>(s), scenarioPlan(sc, static_cast<uint64_t>(s), reach));
    ASSERT_TRUE(r.passed()) << "seed " << s << ":\n" << r.report();
  }
}

}  // namespace streamsim::harness
