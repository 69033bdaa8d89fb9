// Scenario variants for the logic oracles (oracles/scenario_variants.h).
#include "streamsim/harness/oracles/scenario_variants.h"

#include <type_traits>
#include <variant>

namespace streamsim::harness {

Scenario oneBatchScenario(const Scenario& scenario) {
  Scenario out = scenario;
  out.steps.clear();
  for (const Step& s : scenario.steps) {
    bool keep = std::visit(
        [](const auto& step) {
          using T = std::decay_t<decltype(step)>;
          return std::is_same_v<T, PutStep> || std::is_same_v<T, PutPartialStep> ||
                 std::is_same_v<T, ResendStep> || std::is_same_v<T, TouchStep> ||
                 std::is_same_v<T, DeleteStep> || std::is_same_v<T, AddRowsStep> ||
                 std::is_same_v<T, AdvanceStep>;
        },
        s.step);
    if (keep) out.steps.push_back(s);
  }
  Step run;
  run.step = RunStep{};
  run.where = scenario.steps.empty() ? SourceLocation{scenario.file, 0, 0} : scenario.steps.back().where;
  out.steps.push_back(run);
  return out;
}

std::vector<std::string> finalGroupBy(const Scenario& scenario) {
  std::vector<std::string> out;
  for (const auto& op : scenario.query.operators) {
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) out = t->groupBy;
  }
  return out;
}

}  // namespace streamsim::harness
