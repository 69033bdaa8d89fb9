// Scenario variants for the logic oracles (oracles/scenario_variants.h). Which steps they keep is
// the step table's role of each step (scenario/step_table.h), so a new data step is kept by
// declaring it one (it was a list here, and missed `produce`).
#include "streamsim/harness/oracles/scenario_variants.h"

#include "streamsim/harness/scenario/step_table.h"

#include <algorithm>
#include <type_traits>

#include <fmt/format.h>
#include <variant>

namespace streamsim::harness {

namespace {

// 0: not kept; 1: a data step; 2: a time step (the step table's role of the step).
int kind(const Step& s) {
  const StepKind* k = stepKindOf(s.step.index());
  if (k == nullptr) return 0;
  return k->role == StepRole::kData ? 1 : k->role == StepRole::kTime ? 2 : 0;
}

Scenario cut(const Scenario& scenario, sim::Random* random, std::string* where) {
  Scenario out = scenario;
  out.steps.clear();
  std::vector<size_t> data;
  for (size_t i = 0; i < scenario.steps.size(); ++i)
    if (kind(scenario.steps[i]) == 1) data.push_back(i);
  std::string lines;
  for (size_t i = 0; i < scenario.steps.size(); ++i) {
    const Step& s = scenario.steps[i];
    if (kind(s) == 0) continue;
    out.steps.push_back(s);
    // Draws one value per data step but the last, whatever came before (the cut of a seed
    // depends only on the scenario's data steps).
    if (random != nullptr && kind(s) == 1 && !data.empty() && i != data.back() && random->bernoulli(0.5)) {
      Step run;
      run.step = RunStep{};
      run.where = s.where;
      out.steps.push_back(run);
      lines += (lines.empty() ? "" : ", ") + std::to_string(s.where.line);
    }
  }
  Step run;
  run.step = RunStep{};
  run.where = scenario.steps.empty() ? SourceLocation{scenario.file, 0, 0} : scenario.steps.back().where;
  out.steps.push_back(run);
  if (where != nullptr)
    *where = lines.empty() ? "all input in one batch" : "a run after the data steps at lines " + lines + ", then one at the end";
  return out;
}

}  // namespace

Scenario oneBatchScenario(const Scenario& scenario) { return cut(scenario, nullptr, nullptr); }

Scenario cutScenario(const Scenario& scenario, sim::Random random, std::string* where) {
  return cut(scenario, &random, where);
}

std::vector<std::string> finalGroupBy(const Scenario& scenario) {
  std::vector<std::string> out;
  for (const auto& op : scenario.query.operators) {
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) out = t->groupBy;
    if (auto* f = std::get_if<FlatMapGroupsWithStateOp>(&op.op)) out = f->groupBy;
  }
  return out;
}

}  // namespace streamsim::harness

namespace streamsim::harness {

std::string restartOntoAnotherQuery(const Scenario& sc, std::string_view oracle) {
  auto switched = std::find_if(sc.steps.begin(), sc.steps.end(), [](const Step& st) {
    auto* r = std::get_if<RestartStep>(&st.step);
    return r != nullptr && r->query.has_value();
  });
  if (switched == sc.steps.end()) return "";
  return fmt::format("oracle '{}' runs the input under the scenario's query, but the "
                     "restart at line {} switches to another query",
                     oracle, switched->where.line);
}

}  // namespace streamsim::harness
