// The oracles as one table (DESIGN.md §5, issue 33 item 2): each oracle is a unit, one file of
// harness/src/oracles/units/ holding its name, its parameters' parse, the extra runs it needs
// (its variants) and its check, and a row of table.cc; one function applies the ones a run asks
// for — scenario runs and generated-workload runs alike. A run fills an OracleInput with its
// outcome and the oracles' parameters (OracleArgs); each unit's `prepare` adds, lazily, what only
// it needs (the fault-free reference run, a second run, the arrivals). Adding an oracle:
// docs/contributing.md "Add an oracle".
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/oracle_args.h"
#include "streamsim/harness/oracles/python_variants.h"
#include "streamsim/harness/oracles/logic.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/run/outcome.h"
#include "streamsim/status.h"

namespace YAML {
class Node;
}  // namespace YAML

namespace streamsim::harness {

struct Scenario;
struct ScenarioOracleRun;
struct WorkloadConfig;  // harness/src/scenario/oracle_runs.h
namespace detail {
class ParseContext;  // harness/src/scenario/parse_context.h
}  // namespace detail

// What the oracles read. Only `run` is required; an oracle whose needs are missing reports so.
struct OracleInput {
  explicit OracleInput(const RunOutcome& outcome) : run(outcome) {}
  const RunOutcome& run;
  std::string_view sinkKind = "memory";  // memory | files | foreach | custom (exactly_once's report)
  TimerClock timerClock = TimerClock::kProcessingTime;
  // The parameters the oracles were named with (state_bound's bounds, timer_bound's, ...).
  OracleArgs args;
  // state_bound per key: the state rows per (operator, grouping key) after the run (an error: the
  // checkpoint could not be read).
  std::function<Result<std::map<std::string, int64_t>>()> stateRowsPerKey;
  // exactly_once: the sink rows of the same case without its driver-side faults (an error: the
  // reference run failed).
  std::function<Result<std::vector<Row>>()> reference;
  // determinism: the same case run again.
  std::function<RunOutcome()> again;
  // process_isolation: the same case run again after another case (another seed's run) ran in
  // this process.
  std::function<RunOutcome()> againAfterOther;
  // process_isolation: the same case run again in a freshly built processor registry (new
  // factories: the run's ProcessorSet::fresh() as its ScenarioRunOptions::processors); unset: only the run after another case.
  std::function<RunOutcome()> againInFreshRegistry;
  // watermark: the query's delay (nullopt: it has no withWatermark) and the input events in
  // arrival order.
  std::optional<DurationMs> watermarkDelay;
  std::function<std::vector<sim::Event>()> arrivals;
  // batch_split: the final outputs with all input in one batch and as planned, and the key.
  std::function<std::pair<std::vector<Row>, std::vector<Row>>()> batchSplit;
  std::string batchCut;  // how the other run cut the input (for the report)
  std::vector<std::string> keyColumns = {"key"};
  // interleaving (async processors): the same case without its context switches — its sink and
  // committed state — (nullopt: the run had no switches, the processor declares its results
  // order-dependent, or the sequential run failed); this run's is run.committedState.
  struct Sequential {
    std::vector<Row> sinkRows;
    std::vector<std::string> committedState;
  };
  std::function<std::optional<Sequential>()> sequential;
  // mode_equivalence: the same case drained in micro-batch and in real-time mode over the same
  // log (an error: a run failed) — their final state without timers and last output per key.
  struct ModeRuns {
    std::vector<std::string> microBatchState, realTimeState;
    std::vector<Row> microBatchLast, realTimeLast;
    std::vector<std::string> keyColumns;
  };
  std::function<Result<ModeRuns>()> modeRuns;
  // restart_equivalence: the case restarted after each batch and the case down as long at the
  // same batches without restarting (an error: a run failed).
  std::function<Result<RestartRuns>()> restartRuns;
  // reference: the user's reference function's final view over the rows the sources delivered
  // and the run's final view (an error: no reference function, or an unknown name).
  std::function<Result<ReferenceViews>()> referenceViews;
  // hash_seed (Python processors): the fault-free run's final sink here and in a process whose
  // Python hashes str with another seed (an error: a run failed or the worker did not answer).
  std::function<Result<VariantSinks>()> hashSeedRuns;
  // pandas_chunks (transformWithStateInPandas): the fault-free run's final sink with the seed's
  // DataFrame size and with the configured one (nullopt: the seed's is the configured one).
  std::function<Result<std::optional<VariantSinks>>()> pandasChunkRuns;
  // partitioning (oracles/partitioning.h): the fault-free run with the query's and with the seed's
  // number of shuffle partitions (nullopt: not applied, an async processor declares its results
  // order-dependent: which keys share a task changes how they interleave).
  std::function<Result<std::optional<VariantSinks>>()> partitioningRuns;
  // The trace's committed batches, parsed once (the timers, ttl and timer_bound oracles share them).
  const std::vector<CommittedBatch>& committedBatches();
  std::optional<std::vector<CommittedBatch>> committed = std::nullopt;
};

// One oracle (a unit: harness/src/oracles/units/<name>.cc).
struct Oracle {
  std::string_view name;
  std::string_view needs;  // what the check reads, for docs and `list-oracles`-style reports
  // A violation, none, or an error (the oracle could not be applied: its input run failed).
  Result<std::optional<Violation>> (*check)(OracleInput& in) = nullptr;
  // Its `{name: VALUE}` forms as a scenario writes them ("{timer_bound: N}"; several joined by ", "),
  // each in its docs/oracles.md row; empty: it is only named.
  std::string_view forms;
  // A scenario entry that loads with it (`timer_bound: 3`, `ttl`), for the table's tests.
  std::string_view example;
  // The `{name: VALUE}` form: VALUE parsed into `args` (under the oracle's name), errors on `pc` at
  // their line. Null: the oracle takes no parameter.
  void (*parse)(detail::ParseContext& pc, const YAML::Node& value, const Scenario& sc, OracleArgs& args) = nullptr;
  // Why `sc` cannot name it alone ("" when it can): a precondition on the query (batch_split
  // needs a transformWithState) or a parameter it needs. Null: it always can.
  std::string (*refuse)(const Scenario& sc) = nullptr;
  // Whether it applies only with parameters (a run without them leaves it out: a bound not given).
  bool needsArgs = false;
  // Its extra runs (variants): sets the OracleInput members its check reads, as functions run
  // when the check calls them. Null: it reads only the run itself.
  void (*prepare)(ScenarioOracleRun& run, OracleInput& in) = nullptr;
  // On by default in a generated workload that names no oracles (WorkloadConfig::oracles empty),
  // where this returns true for the workload. Null: opt-in there (named in WorkloadConfig::oracles).
  bool (*workloadDefault)(const WorkloadConfig& c) = nullptr;
};

// Every oracle, in report order (oracleNames() lists their names).
const std::vector<Oracle>& oracleTable();
// The table's oracle of that name (null: none).
const Oracle* findOracle(std::string_view name);

// An oracle that could not be applied (e.g. its reference run failed), or an unknown name.
struct OracleError {
  std::string oracle;
  Status status;
};

// OK when every name is an oracle of the table; else InvalidArgument naming the first unknown one
// and the known names. Every way of naming oracles (a scenario file, a workload, a replay line,
// the Python API) checks its names here: an unknown oracle is an error, never silently off.
Status checkOracleNames(const std::vector<std::string>& names);

// Applies the oracles named in `names` (in table order) to `in.run`: appends their violations
// to `out.violations` and counts them in `out.oracleChecks`. Returns the errors of the oracles
// that could not be applied (the others still run).
std::vector<OracleError> applyOracles(const std::vector<std::string>& names, OracleInput& in,
                                      RunOutcome& out);

}  // namespace streamsim::harness
