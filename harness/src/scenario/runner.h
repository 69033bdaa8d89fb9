// One run of a scenario (scenario_runner.h's runScenario without its oracles and judgement):
// the query built from the spec on a fresh SimEnv, the steps' actions (step_table.h) run by the
// driver, and what the run left. One Runner = one run, on one thread.
#pragma once

#include <memory>
#include <vector>

#include "scenario/step_actions.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/harness/sim_env.h"

namespace streamsim::harness::detail {

class Runner {
 public:
  Runner(const Scenario& sc, const ScenarioRunOptions& options);
  ScenarioRunResult run();

 private:
  static SimEnvOptions simOptions(const Scenario& sc, const ScenarioRunOptions& o);
  Status build();
  // The writer of `q` on this run's sources and sink: the scenario's query, or the one a
  // `restart: {query: ...}` step switches to (the loader lets it change only the operators,
  // output mode, trigger and options; the sources, sink and checkpoint stay).
  Result<DataStreamWriter> writerFor(const QuerySpec& given);
  int64_t pandasChunkRows(const QuerySpec& q) const;
  bool everyRow() const { return sc_.hooks != nullptr && sc_.hooks->everyRow; }

  const Scenario& sc_;
  const ScenarioRunOptions& options_;
  SimEnv sim_;
  TestQuery query_{DataStreamWriter(DataFrame()), nullptr};
  std::vector<SourceFactory> sources_;        // built once: every writer of the run reads them
  std::shared_ptr<DeliveredRows> delivered_;  // what they delivered (the reference oracle)
  SinkFactory sink_;                          // likewise, writes it
  ScenarioRunState state_;                    // what the steps' actions share
  std::vector<Row> final_rows_;
  std::vector<int64_t> final_batch_of_;
};

}  // namespace streamsim::harness::detail
