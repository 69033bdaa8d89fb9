// Runs a loaded Scenario in a fresh SimEnv (DESIGN.md §6): builds the query from its spec, maps
// every step onto the simulated world (files, clock, crashes, restarts) and checks every
// `expect`, reporting every differing row. With a fault plan (sweep/replay) crashes are
// recovered by restarting, as a supervisor would, and the expectations must still hold.
// One call = one independent simulated run; calls may run on several threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/harness/oracles.h"
#include "streamsim/harness/run/outcome.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/progress.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/status.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness {

struct FaultFreeRun;
class KeptWorkers;

// A field that can change a run's sink or its verdict must also be compared in sameRun
// (scenario/run_scenario.cc): otherwise an oracle may take a run made with other options for the
// run it asks for (a sweep seed's fault-free run as exactly_once's reference or partitioning's
// run, the judged run as restart transparency's).
struct ScenarioRunOptions {
  uint64_t seed = 0;
  // Faults injected on top of the scenario's own steps (sweep / replay). When set, a crash of
  // the plan (also during a start) is followed by a restart and the step goes on (the driver's
  // one restart limit, run/driver.h).
  std::optional<sim::FaultPlan> faultPlan;
  // Collect the actual rows of every `sink:` / `new_rows:` expectation for --update.
  bool collectActual = false;
  // Apply the scenario's `oracles:` after its steps passed (docs/scenarios.md#oracles). The
  // extra runs the oracles need (reference, determinism) are made with this false.
  bool applyOracles = true;
  // The reference run of exactly_once: the steps without their expectations (and, for a plain
  // run's reference, without the scenario's own `crash` steps). An `expect: {error: ...}` is
  // still taken: it steers the run (the failed query is down after it).
  bool skipExpectations = false;
  bool skipCrashSteps = false;
  // run/replay --keep DIR: when the run ends, its simulated filesystem is copied to `keepFs`
  // under `keepDir` (keep_files.h). The oracles' extra runs keep nothing.
  FileSystem* keepFs = nullptr;
  std::string keepDir;
  // Record the (point, batch) pairs the run passes (RunOutcome::reach).
  bool recordReach = false;
  // Fill ScenarioRunResult::committedState without the engine's own column families (timers):
  // the mode_equivalence oracle's runs.
  bool collectState = false;
  // Fill RunOutcome::committedState (with the engine's timers) when the scenario's oracles include
  // determinism, interleaving or process_isolation, whose checks and runs compare it. Off for a
  // run whose caller reads only its sink, trace and failures (references, partitioning's and
  // restart transparency's runs, the reach run, the bench's plain runs): reading the final state
  // is ~4% of a generated run. Changes only that field of the result, never the run.
  bool oracleState = true;
  // Not Spark's rule: an idle trigger before a run's first batch may run a no-data batch
  // (QueryOptions::noDataBatchBeforeFirstBatchOfRun). The restart transparency runs of
  // exactly_once (docs/oracles.md "Restarts and no-data batches").
  bool noDataBatchBeforeFirstBatchOfRun = false;
  // Every transformWithState call's output rows in the trace with its grouping key
  // (QueryOptions::traceOutputRows): the mode_equivalence oracle's runs.
  bool traceOutputRows = false;
  // The hash_seed oracle's other hash seed (replay --hash-seed); unset: pythonHashSeedOf(seed).
  std::optional<uint32_t> hashSeed;
  // A pandas processor's DataFrame size (the pandas_chunks oracle's run at the configured one);
  // unset: the seed's, pandasChunkRowsOf(seed, spark.sql.execution.arrow.maxRecordsPerBatch).
  std::optional<int64_t> pandasChunkRows;
  // The processors the query's `processor: NAME` operators are made from, when this run is handed
  // others than its scenario's (issue 33 item 3); a run never sees another context's processors.
  // Null: the scenario's (Scenario::registries->processors). The process_isolation oracle's run in
  // freshly built factories passes that set's fresh().
  std::shared_ptr<const ProcessorSet> processors;
  // A sweep seed's fault-free run (runFaultFree, made to aim the plan): exactly_once takes its sink
  // rows as the reference instead of running it again, when that reference is provably the same
  // run (sameFaultFreeRun). Never copied into the oracles' own runs.
  std::shared_ptr<const FaultFreeRun> faultFreeRun;
  // Worker processes kept across the seeds of a sweep (the hash_seed oracle's, run/pool.h); null:
  // a run that needs one starts its own and ends it.
  std::shared_ptr<KeptWorkers> keptWorkers;
  // The rows of the input files this run and its oracles' runs read, shared by them (a file read
  // again is not parsed again; io/parsed_files.h). Null: runScenario makes one for the run and
  // its oracles; a sweep seed's runs (its fault-free run, its run under the plan, its shrink)
  // share one.
  std::shared_ptr<ParsedFiles> parsedFiles;
};

struct CheckFailure {
  SourceLocation where;  // the step (or expectation) that failed
  std::string message;   // what was expected, what came (every differing row)
  // The failed step's name as the file writes it ("run", "expect", "crash", ...); empty for a
  // failure that is not one step's (keeping the file tree).
  std::string step;
};

// The rows an `expect` step actually saw, for `run --update`.
struct ActualRows {
  SourceLocation where;  // of the `sink:` / `new_rows:` list in the file
  std::string key;       // "sink" | "new_rows"
  std::vector<Row> rows;
  bool matches = false;  // the expectation held (order-insensitive): --update leaves it as is
};

// The run's outcome (run/outcome.h: sink view after the last step — a foreach sink: every row
// its writer processed, with the epoch of each —, trace, progress, faults, crashes, restarts,
// the violations of the scenario's `oracles:`, found only when every step passed) and the
// scenario's own checks.
struct ScenarioRunResult : RunOutcome {
  Status setupError;  // the scenario could not be run as written (bad input found at run time)
  std::vector<CheckFailure> failures;
  std::string traceHash;  // the run's fingerprint (sim::TraceRecorder)
  std::vector<ActualRows> actual;  // only with collectActual
  // RunOutcome::committedState: for the determinism and interleaving oracles with the engine's
  // timers, or, with collectState, for mode_equivalence (without them).
  // With a state_bound per key: the state rows per grouping key after the run
  // (committedStateRowsPerKey).
  std::map<std::string, int64_t> stateRowsPerKey;
  // Why the run's expectations gave way to its reference with the same restarts (a clean restart
  // of the plan withheld a no-data batch, docs/oracles.md "Restarts and no-data batches"); empty
  // when they did not.
  std::string judgedAgainstRestartReference;
  // The scenario's armed crashes (`crash: {at: P}`) that never fired, each at its step. Without a
  // plan (or under one with no faults) each is also a failure; under a plan with faults,
  // runScenario settles them (docs/faults.md "A plan's faults and the scenario's own steps").
  std::vector<CheckFailure> unfiredArmedCrashes;
  // Why those gave way (the run without the plan's faults fires them); empty when none did.
  std::string armedCrashesKeptByThePlan;
  // exactly_once's reference was the options' faultFreeRun (not run again).
  bool referenceFromFaultFreeRun = false;
  bool passed() const { return setupError.ok() && failures.empty() && violations.empty(); }
  // Every failure on its own line(s), prefixed with file:line:col, then every violation.
  std::string report() const;
};

ScenarioRunResult runScenario(const Scenario& scenario, const ScenarioRunOptions& options = {});

// A fault-free run of `scenario` with the options exactly_once's reference of a run under a plan
// takes, the reach recorded (what a sweep's plan aims at).
struct FaultFreeRun {
  const Scenario* scenario = nullptr;  // the object run: only a run given this very object may share it
  ScenarioRunOptions options;
  ScenarioRunResult result;
};

// The options of exactly_once's reference of the judged run `r` made with `judged`: the fault-free
// run (a plan's run's with the scenario's crash steps, a plain run's without), expectations
// skipped, restarted where `r` restarted cleanly or was down (run/clean_restarts.h).
ScenarioRunOptions exactlyOnceReferenceOf(const ScenarioRunOptions& judged, const ScenarioRunResult& r);

// Restart transparency's two runs (exactly_once of a run under a plan whose reference restarts,
// docs/oracles.md "Restarts and no-data batches"), both with a no-data batch allowed before a
// run's first batch (not Spark's rule) and without expectations: the run under the plan, and the
// fault-free run with the downtime and re-planned batches of that run (`runTrace`).
ScenarioRunOptions restartTransparencyRun(const ScenarioRunOptions& judged);
ScenarioRunOptions restartTransparencyFaultFree(const ScenarioRunOptions& judged,
                                                const std::vector<std::string>& runTrace);

// The options of exactly_once's fault-free reference of a run with `options` (a fault plan set),
// when that run restarted nowhere cleanly (referenceOf adds no restarts).
ScenarioRunOptions faultFreeReferenceOf(const ScenarioRunOptions& options);

// Runs `scenario` with faultFreeReferenceOf(underPlan) and its reach recorded. `scenario` must
// outlive the result's use.
std::shared_ptr<const FaultFreeRun> runFaultFree(const Scenario& scenario, const ScenarioRunOptions& underPlan);

// Whether running `scenario` with `asked` (no oracles) would make the run `made`, already made of
// `madeOf` with `madeWith`: the same sink rows and batches, trace, restarts and failures (not the
// verdict of made's own oracles, when it had them, nor its committedState: oracleState). The same object and the same value of every
// option that can change a run, except where the made run or the scenario shows that a difference
// changed nothing:
// - recording the reach (madeWith.recordReach): it installs a scheduler that, asked no choice,
//   decides as none does (async_runtime.cc); the made run met no scheduling choice;
// - Spark's no-data rule off in `asked` (noDataBatchBeforeFirstBatchOfRun): the made run, under
//   the rule, never withheld a no-data batch (its trace has no no_data_batch_withheld, which
//   StreamingQuery traces wherever the rule, read nowhere else, withholds one);
// - expectations skipped or checked, their actual rows collected or not: the scenario has no
//   expect step (the one step that reads either);
// - crash steps skipped or taken: the scenario has no crash step;
// - a plan without faults or none: neither has a fault (an empty plan's seed sizes only torn
//   writes), and the scenario's driver restarts after any failure whatever the plan
//   (ScenarioHooks::restartOnFailure: a plan's presence only turns on the same supervisor);
// - the made run's oracles (madeWith.applyOracles, the judged run as the oracles see it with its
//   judged options): they judge after the run; under faults an unfired armed crash is settled by
//   one more run with the options given, so the made run must have none.
bool sameRun(const Scenario* madeOf, const ScenarioRunOptions& madeWith, const ScenarioRunResult& made,
             const Scenario& scenario, const ScenarioRunOptions& asked);

// sameRun for a sweep seed's fault-free run: whether `run` is the run `reference` (exactly_once's)
// on `scenario` would be.
bool sameFaultFreeRun(const FaultFreeRun& run, const Scenario& scenario, const ScenarioRunOptions& reference);

// The run ended without a failure or setup error (its own oracles' violations aside): what an
// oracle needs of a run it takes instead of running it (a run without oracles: passed()).
inline bool ranClean(const ScenarioRunResult& r) { return r.setupError.ok() && r.failures.empty(); }

// The fault knobs of the scenario's `sweep:` section (defaults when it has none).
sim::FaultKnobs sweepKnobs(const Scenario& scenario);

// Rewrites the expected rows of `file` in place with `actual` (run --update). Returns the new
// text; `diff` gets a unified-style diff of the changed lines.
Result<std::string> updateExpectedRows(const std::string& fileText,
                                       const std::vector<ActualRows>& actual, std::string* diff);

}  // namespace streamsim::harness
