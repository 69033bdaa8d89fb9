// Lists a registered oracle must be in (issue 33 item 6): every row of the oracle table is a row
// of docs/oracles.md's oracle table and is named in docs/scenarios.md's `oracles` key, so a new
// oracle cannot land undocumented for scenario authors (latency_bound and mode_equivalence had
// been left out of the latter).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "streamsim/harness/oracles/table.h"
#include "test_paths.h"

namespace streamsim::harness {
namespace {

std::string readDoc(const std::string& name) {
  std::ifstream in(std::string(test_paths::sourceDir()) + "/docs/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OracleLists, EveryOracleOfTheTableIsARowOfDocsOracles) {
  const std::string doc = readDoc("oracles.md");
  ASSERT_FALSE(doc.empty());
  for (const Oracle& o : oracleTable())
    EXPECT_NE(doc.find("| `" + std::string(o.name) + "`"), std::string::npos)
        << "docs/oracles.md has no table row for oracle " << o.name;
}

TEST(OracleLists, EveryOracleOfTheTableIsNamedInTheScenarioOraclesKey) {
  const std::string doc = readDoc("scenarios.md");
  const size_t at = doc.find("| `oracles` |");
  ASSERT_NE(at, std::string::npos) << "docs/scenarios.md lost its `oracles` key row";
  const std::string row = doc.substr(at, doc.find('\n', at) - at);
  for (const Oracle& o : oracleTable()) {
    const std::string n(o.name);
    EXPECT_TRUE(row.find("`" + n + "`") != std::string::npos || row.find("{" + n + ":") != std::string::npos)
        << "docs/scenarios.md's `oracles` row does not name oracle " << n;
  }
}

}  // namespace
}  // namespace streamsim::harness
