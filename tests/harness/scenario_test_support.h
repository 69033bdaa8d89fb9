// Loading scenarios in tests: from YAML text (named `fileName` in messages and printed lines) and
// from a file of the repository. A load error fails the test and gives an empty Scenario.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "streamsim/harness/scenario.h"

namespace streamsim::harness {

inline Scenario load(const std::string& yaml, const std::string& fileName = "test.yaml") {
  ScenarioLoad l = parseScenario(yaml, fileName);
  EXPECT_TRUE(l.ok()) << l.errorText();
  return l.ok() ? *l.scenario : Scenario{};
}

// `rel` under the repository's root (STREAMSIM_SOURCE_DIR).
inline Scenario loadFile(const std::string& rel) {
  auto sc = loadScenario(std::string(STREAMSIM_SOURCE_DIR) + "/" + rel);
  EXPECT_TRUE(sc.ok()) << sc.status().message();
  return sc.ok() ? *sc : Scenario{};
}

}  // namespace streamsim::harness
