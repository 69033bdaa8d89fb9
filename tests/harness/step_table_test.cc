// The scenario step table (streamsim/harness/scenario/step_table.h): every row has a name, a
// parse and its actions; the table and StepVariant agree, row for alternative; each row's
// example parses into that row's alternative under that row's name.
#include "streamsim/harness/scenario/step_table.h"

#include "streamsim/harness/oracles/scenario_variants.h"
#include "test_registries.h"

#include <set>
#include <string>
#include <variant>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace streamsim::harness {
namespace {

TEST(StepTable, EveryRowHasANameAParseActionsAndAnExample) {
  ASSERT_FALSE(stepTable().empty());
  for (const StepKind& k : stepTable()) {
    EXPECT_FALSE(k.name.empty()) << "row " << k.index;
    EXPECT_NE(k.parse, nullptr) << k.name;
    EXPECT_NE(k.toActions, nullptr) << k.name;
    EXPECT_FALSE(k.example.empty()) << k.name;
    // Issue 33: the oracles' variants keep a step by its role; a row without one was a step the
    // variant classification forgot (produce was: batch_split dropped a Kafka scenario's input).
    EXPECT_NE(k.role, StepRole::kUnset) << k.name << " has no role (data, time, control, check)";
  }
  EXPECT_EQ(stepKindNamed("produce")->role, StepRole::kData);
  EXPECT_EQ(stepKindNamed("advance")->role, StepRole::kTime);
}

TEST(StepTable, OneRowPerAlternativeOfStepVariantInItsOrder) {
  ASSERT_EQ(stepTable().size(), std::variant_size_v<StepVariant>);
  std::set<std::string_view> names;
  for (size_t i = 0; i < stepTable().size(); ++i) {
    const StepKind& k = stepTable()[i];
    EXPECT_EQ(k.index, i) << k.name;
    EXPECT_TRUE(names.insert(k.name).second) << "two rows named " << k.name;
    EXPECT_EQ(stepKindOf(i), &k);
    EXPECT_EQ(stepKindNamed(k.name), &k);
  }
  EXPECT_EQ(stepKindOf(stepTable().size()), nullptr);
  EXPECT_EQ(stepKindNamed("teleport"), nullptr);
}

TEST(StepTable, EachExampleLoadsAsItsRowsStep) {
  for (const StepKind& k : stepTable()) {
    const std::string yaml = fmt::format(R"(name: the {0} step
query:
  sources:
    - {{kind: files, path: /landing, schema: "id string"}}
    - {{kind: memory, schema: "id string"}}
steps:
  - {0}: {1}
)",
                                         k.name, k.example);
    ScenarioLoad load = parseScenario(yaml, "step_table_test.yaml", ::streamsim::test::testLoader());
    ASSERT_TRUE(load.ok()) << k.name << ":\n" << load.errorText();
    ASSERT_EQ(load.scenario->steps.size(), 1u) << k.name;
    const Step& step = load.scenario->steps[0];
    EXPECT_EQ(step.step.index(), k.index) << k.name;
    EXPECT_EQ(step.kindName(), k.name);
    EXPECT_EQ(step.where.line, 7) << k.name;
  }
}

TEST(StepTable, AnUnknownStepListsTheTablesNamesInItsOrder) {
  std::string names;
  for (const StepKind& k : stepTable()) names += (names.empty() ? "" : ", ") + std::string(k.name);
  ScenarioLoad load = parseScenario(R"(name: x
query: {source: {kind: files, path: /landing, schema: "id string"}}
steps:
  - teleport: {}
)",
                                    "unknown.yaml", ::streamsim::test::testLoader());
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_EQ(load.errors[0].toString(),
            "unknown.yaml:4:5: unknown step 'teleport'; expected one of " + names);
}

}  // namespace
// Bug (issue 33): the one-batch variant of batch_split kept its data steps by a list of step types
// that had no `produce`, so a Kafka scenario's variant ran with no input at all.
TEST(StepTable, TheOneBatchVariantKeepsAKafkaScenariosProduceSteps) {
  auto load = parseScenario(R"(name: kafka
query:
  source: {kind: kafka, topic: events, partitions: 1}
  sink: {kind: memory}
  outputMode: update
steps:
  - produce: {records: [{value: a}]}
  - run: available
  - advance: 1s
  - produce: {records: [{value: b}]}
  - expect: {sink: []}
)", "kafka.yaml", ::streamsim::test::testLoader());
  ASSERT_TRUE(load.ok()) << load.errorText();
  const Scenario one = oneBatchScenario(*load.scenario);
  std::vector<std::string_view> kinds;
  for (const Step& s : one.steps) kinds.push_back(s.kindName());
  EXPECT_EQ(kinds, (std::vector<std::string_view>{"produce", "advance", "produce", "run"}));
}

}  // namespace streamsim::harness
