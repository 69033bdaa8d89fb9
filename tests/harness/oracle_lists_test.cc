// Lists a registered oracle must be in (issue 33 item 6): every row of the oracle table is a row
// of docs/oracles.md's oracle table and is named in docs/scenarios.md's `oracles` key, so a new
// oracle cannot land undocumented for scenario authors (latency_bound and mode_equivalence had
// been left out of the latter).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "harness/scenario_test_support.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/generated_scenario.h"
#include "test_paths.h"
#include "test_registries.h"

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

// The row of docs/oracles.md's table for `oracle` ("" when none).
std::string docsRow(const std::string& doc, std::string_view oracle) {
  const size_t at = doc.find("| `" + std::string(oracle) + "`");
  return at == std::string::npos ? "" : doc.substr(at, doc.find('\n', at) - at);
}

// docs/scenarios.md's `oracles` key sends the reader to docs/oracles.md's table, which names each
// oracle and its parameter forms (a new oracle: its unit, its table.cc row and its docs row).
TEST(OracleLists, TheScenarioOraclesKeyPointsAtTheOraclesTable) {
  const std::string doc = readDoc("scenarios.md");
  const size_t at = doc.find("| `oracles` |");
  ASSERT_NE(at, std::string::npos) << "docs/scenarios.md lost its `oracles` key row";
  const std::string row = doc.substr(at, doc.find('\n', at) - at);
  EXPECT_NE(row.find("docs/oracles.md"), std::string::npos) << row;
}

// Every parameter form an oracle's unit parses is written in its docs/oracles.md row.
TEST(OracleLists, EveryParameterFormIsInItsDocsOraclesRow) {
  const std::string doc = readDoc("oracles.md");
  for (const Oracle& o : oracleTable()) {
    const std::string row = docsRow(doc, o.name);
    std::string forms(o.forms);
    for (size_t from = 0; from < forms.size();) {
      size_t comma = forms.find("}, {", from);
      const std::string form = forms.substr(from, comma == std::string::npos ? std::string::npos : comma + 1 - from);
      EXPECT_NE(row.find(form), std::string::npos) << "docs/oracles.md's row for " << o.name << " lacks " << form;
      from = comma == std::string::npos ? forms.size() : comma + 3;
    }
  }
}

// An oracle unit is whole: its name, what it reads, its check and an example entry; a parameter
// form has its parse; an oracle that applies only with parameters refuses its bare name.
TEST(OracleLists, EveryOracleUnitIsComplete) {
  for (const Oracle& o : oracleTable()) {
    SCOPED_TRACE(std::string(o.name));
    EXPECT_FALSE(o.name.empty());
    EXPECT_FALSE(o.needs.empty());
    EXPECT_NE(o.check, nullptr);
    EXPECT_FALSE(o.example.empty());
    EXPECT_EQ(o.forms.empty(), o.parse == nullptr) << "a parameter form without its parse, or the reverse";
    if (o.needsArgs) {
      EXPECT_NE(o.parse, nullptr);
      ASSERT_NE(o.refuse, nullptr) << "an oracle that needs parameters must refuse its bare name";
      EXPECT_FALSE(o.refuse(Scenario{}).empty());
    }
    EXPECT_EQ(findOracle(o.name), &o);
  }
  EXPECT_EQ(findOracle("nosuchoracle"), nullptr);
}

// A count query every oracle's example may be named in (a withWatermark the watermark oracle reads).
std::string countScenarioNaming(std::string_view example) {
  return std::string(R"(
name: oracle example
query:
  source: {kind: memory, schema: "key string, t timestamp"}
  operators:
    - withWatermark: {column: t, delay: 5s}
    - groupBy: [key]
      transformWithState: {processor: count, outputMode: update, timeMode: None}
  sink: {kind: memory}
  outputMode: update
steps:
  - add_rows: [{key: a, t: "2026-01-01T00:00:00Z"}, {key: b, t: "2026-01-01T00:00:01Z"}]
  - run: 1
  - add_rows: [{key: a, t: "2026-01-01T00:00:02Z"}]
  - run: 1
oracles: [)") + std::string(example) + "]\n";
}

// Each oracle's example loads as that oracle (its parameters in Scenario::oracleArgs), and a run
// naming it gets from its unit everything its check reads: no "<oracle> needs ..." error (an
// oracle whose check reads an extra run its unit does not prepare fails here).
TEST(OracleLists, EveryOraclesExampleLoadsAndItsUnitPreparesWhatItsCheckReads) {
  for (const Oracle& o : oracleTable()) {
    SCOPED_TRACE(std::string(o.name));
    ScenarioLoad l = parseScenario(countScenarioNaming(o.example), "example.yaml", ::streamsim::test::testLoader());
    ASSERT_TRUE(l.ok()) << l.errorText();
    EXPECT_EQ(l.scenario->oracles, std::vector<std::string>{std::string(o.name)});
    EXPECT_EQ(l.scenario->oracleArgs.has(o.name), !o.forms.empty());
    ScenarioRunResult r = runScenario(*l.scenario);
    for (const Violation& v : r.violations)
      EXPECT_EQ(v.message.find(std::string(o.name) + " needs"), std::string::npos) << v.message;
  }
}

// A map entry names an oracle with a parameter form; any other is an error listing every form.
TEST(OracleLists, AnOracleWithoutAParameterFormRefusesOne) {
  ScenarioLoad l = parseScenario(countScenarioNaming("{ttl: 3}"), "bad.yaml", ::streamsim::test::testLoader());
  ASSERT_FALSE(l.ok());
  const std::string text = l.errorText();
  EXPECT_NE(text.find("bad.yaml:"), std::string::npos) << text;
  for (const Oracle& o : oracleTable())
    if (!o.forms.empty()) EXPECT_NE(text.find(std::string(o.forms)), std::string::npos) << text;
}

}  // namespace
}  // namespace streamsim::harness

namespace streamsim::harness {
namespace {

// A generated workload naming no oracles runs those whose unit puts them on by default for its kind
// (Oracle::workloadDefault), the opt-in ones only when named.
TEST(OracleLists, AWorkloadsDefaultOraclesAreTheirUnitsChoice) {
  const std::vector<std::string> always = {"exactly_once", "interleaving", "hash_seed", "pandas_chunks", "partitioning"};
  auto expected = [&](std::vector<std::string> extra) {
    std::vector<std::string> out;
    for (const Oracle& o : oracleTable())
      if (std::find(always.begin(), always.end(), o.name) != always.end() ||
          std::find(extra.begin(), extra.end(), o.name) != extra.end())
        out.emplace_back(o.name);
    return out;
  };
  EXPECT_EQ(workloadOracles(::streamsim::test::testWorkload(WorkloadKind::kCount)), expected({"timers", "ttl"}));
  EXPECT_EQ(workloadOracles(::streamsim::test::testWorkload(WorkloadKind::kDedup)), expected({"watermark"}));
  EXPECT_EQ(workloadOracles(::streamsim::test::testWorkload(WorkloadKind::kWindow)), expected({}));
  WorkloadConfig named = ::streamsim::test::testWorkload(WorkloadKind::kCount);
  named.oracles = {"restart_equivalence"};
  EXPECT_EQ(workloadOracles(named), std::vector<std::string>{"restart_equivalence"});
}

}  // namespace
}  // namespace streamsim::harness
