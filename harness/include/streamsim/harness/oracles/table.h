// The oracles as one table (DESIGN.md §5): each entry is {name, what it needs, check}, and one
// function applies the ones a run asks for — scenario runs and generated-workload runs alike.
// A path fills an OracleInput with the run's outcome and, lazily, what only some oracles need
// (the fault-free reference run, a second run, the arrivals). Adding an oracle = a function in
// oracles.cc and a row here (docs/contributing.md).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/python_variants.h"
#include "streamsim/harness/oracles/logic.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/run/outcome.h"
#include "streamsim/status.h"

namespace streamsim::harness {

// What the oracles read. Only `run` is required; an oracle whose needs are missing reports so.
struct OracleInput {
  explicit OracleInput(const RunOutcome& outcome) : run(outcome) {}
  const RunOutcome& run;
  std::string_view sinkKind = "memory";  // memory | files | foreach | custom (exactly_once's report)
  TimerClock timerClock = TimerClock::kProcessingTime;
  std::optional<int64_t> stateBound;
  // state_bound per key: the most state rows (a value, each list element, each map entry) a
  // grouping key may hold in the committed state, and those rows per (operator, key) after the
  // run (an error: the checkpoint could not be read).
  std::optional<int64_t> stateBoundPerKey;
  std::function<Result<std::map<std::string, int64_t>>()> stateRowsPerKey;
  // timer_bound: the most pending timers a grouping key may hold after a batch.
  std::optional<int64_t> timerBound;
  // exactly_once: the sink rows of the same case without its driver-side faults (an error: the
  // reference run failed).
  std::function<Result<std::vector<Row>>()> reference;
  // determinism: the same case run again.
  std::function<RunOutcome()> again;
  // process_isolation: the same case run again after another case (another seed's run) ran in
  // this process.
  std::function<RunOutcome()> againAfterOther;
  // process_isolation: the same case run again in a freshly built processor registry (new
  // factories: ProcessorRegistry::FreshScope); unset: only the run after another case.
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
  // latency_bound (real-time mode): percentile (50, 95, 99) -> bound; empty: nothing to check.
  std::map<int, DurationMs> latencyBound;
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
  // Filled by applyOracles (the timers and ttl oracles share it).
  std::optional<std::vector<CommittedBatch>> committed = std::nullopt;
};

struct Oracle {
  std::string_view name;
  std::string_view needs;  // what the check reads, for docs and `list-oracles`-style reports
  // A violation, none, or an error (the oracle could not be applied: its input run failed).
  Result<std::optional<Violation>> (*check)(OracleInput& in);
};

// Every oracle, in report order (oracleNames() lists their names).
const std::vector<Oracle>& oracleTable();

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
