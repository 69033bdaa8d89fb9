// Simulated runs of generated workloads under fault plans, and the sweep runner (DESIGN.md §5):
// runCase() runs one (workload, fault plan, seed) in a fresh SimEnv — landing files arrive over
// virtual time, one trigger per interval, a crash is caught here, applied to the SimFileSystem and
// followed by a driver restart from the same writer — then applies the oracles against the
// fault-free run of the same batch plan. sweepWorkload() runs N seeded fault plans on J threads
// (each seed independent: results do not depend on J), shrinks a failure with RapidCheck's
// shrinking search and prints a replay command the CLI runs (or, for a workload no CLI can
// rebuild — a test's own hooks —, says why there is none), and ends with the totals of
// run/totals.h. Everything here is a value; runCase() and sweepWorkload() may be called from
// several threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/run/outcome.h"
#include "streamsim/harness/run/shrink.h"
#include "streamsim/harness/run/totals.h"
#include "streamsim/harness/scenario_hooks.h"  // CustomSink
#include "streamsim/operator.h"
#include "streamsim/progress.h"
#include "streamsim/query.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/workload.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {

// The query a generated workload runs. Input: sim::kEventSchema rows from JSON-lines files in
// /landing; grouping key: `key`.
enum class WorkloadKind {
  kCount,           // groupBy(key).transformWithState("count"), update
  kSessionTracker,  // "session_tracker" (MapState; no output) — checked through its trace
  kHeartbeat,       // "heartbeat" with a processing-time timer (timeout `timeoutMs`)
  kTtlCache,        // "ttl_cache" with ValueState TTL `ttlMs`
  kDedup,           // withWatermark(event_time).dropDuplicates(event_id, event_time), append
  kWindow,          // withWatermark + tumbling window count per key, append
  kCustom,          // groupBy(key).transformWithState(processor) from WorkloadConfig::processor
};
std::string_view workloadKindName(WorkloadKind kind);
Result<WorkloadKind> parseWorkloadKind(std::string_view name);

enum class SinkKind { kMemory, kFiles, kForeach };


// The standard generated input: 20 files of 10 events over 8 keys, a little disorder, a few late
// rows and duplicates; and knobs: up to 2 crashes at any point, torn writes, rare task failures.
sim::WorkloadSpec defaultWorkloadSpec();
sim::FaultKnobs defaultFaultKnobs();

struct WorkloadConfig {
  std::string name = "count";  // for reports and the replay command
  WorkloadKind kind = WorkloadKind::kCount;
  std::string stateStore = "memory";  // memory | rocksdb
  sim::WorkloadSpec spec = defaultWorkloadSpec();
  sim::FaultKnobs knobs = defaultFaultKnobs();
  DurationMs triggerInterval = 1000;
  DurationMs drainMs = 12'000;       // the run goes on this long after the last file lands
  DurationMs watermarkDelay = 5'000;
  DurationMs timeoutMs = 4'000;      // heartbeat
  DurationMs ttlMs = 3'000;          // ttl_cache
  DurationMs windowMs = 10'000;      // window
  int partitions = 2;
  int taskRetries = 3;
  SinkKind sink = SinkKind::kMemory;
  std::optional<uint64_t> workloadSeed;  // a fixed workload for every seed (default: the seed's)
  // > 0: seed s runs the workload of seed s % workloadVariety (sweeps then reuse fault-free
  // reference runs); 0: every seed generates its own workload.
  int workloadVariety = 0;

  // kCustom: the processor, its time mode, its output schema (file sink) and event-time column.
  ProcessorFactory processor;
  // kCustom: where `processor` comes from, as a replay line names it — a processor registered
  // under this name (ProcessorRegistry; `processor` may then stay empty) or `file.py:Class`
  // (preparePythonSweep). Empty: only `processor` knows it (a test's own class); the CLI cannot
  // rebuild the workload and a failing seed says so instead of printing a replay line.
  std::string processorRef;
  TimeMode timeMode = TimeMode::kNone;
  std::string outputSchema;  // DDL of the output rows (file sink); default per kind
  // Test hooks: wrap the stateful operator or the file source (broken engine variants), replace
  // the sink.
  std::function<OperatorFactory(OperatorFactory)> wrapOperator;
  std::function<SourceFactory(SourceFactory)> wrapSource;
  std::function<CustomSink()> customSink;

  // Oracles to apply (names of oracleNames()); empty = the ones that fit the kind.
  std::vector<std::string> oracles;
  std::optional<int64_t> stateBound;  // state_bound (only with a bound)
  std::optional<int64_t> stateBoundPerKey;  // state_bound per grouping key (state rows)
  // reference (oracles/reference.h): the final view the query should leave, from the rows the
  // file source delivered; set: the oracle applies.
  ReferenceFunction reference;
  std::string referenceName = "reference";  // for the report
};

// The standard workloads of the sweeps and property tests, by kind, on a state store.
WorkloadConfig standardWorkload(WorkloadKind kind, std::string stateStore = "memory");

// One simulated run's input: the workload's files that take part (indices into Workload::files;
// empty optional = all) — the shrinker drops files through this.
struct RunCase {
  uint64_t seed = 0;
  sim::FaultPlan plan;
  std::optional<std::vector<int64_t>> files;
  nlohmann::json toJson() const;
  static Result<RunCase> fromJson(const nlohmann::json& j);
};

// The run's outcome (run/outcome.h; its fingerprint is the trace's extended with the sink's rows,
// its violations the first of each oracle that failed) and the generated input's size.
struct RunResult : RunOutcome {
  uint64_t seed = 0;
  Status error;          // the run could not be driven (bad config, the restart limit)
  int64_t files = 0;     // landing files that took part
  int64_t events = 0;    // events in them
  std::map<std::string, int64_t> stateRowsPerKey;  // with stateBoundPerKey (committedStateRowsPerKey)
  bool passed() const { return error.ok() && violations.empty(); }
  std::string report() const;  // violations (or the error), one block each
};

// The workload a seed generates (WorkloadConfig::workloadSeed wins when set).
sim::Workload workloadFor(const WorkloadConfig& config, uint64_t seed);

// Fault-free reference runs shared by the seeds of a sweep (keyed by workload seed, landing
// faults and files), and the reach of the seeds' workloads. Thread-safe.
class ReferenceCache;

// Where the fault-free run of the seed's workload went (its fault points per batch, its
// scheduling choices): what the seed's generated plan aims at. `cache` (a sweep's) keeps it per
// workload seed.
sim::Reach workloadReach(const WorkloadConfig& config, uint64_t seed, ReferenceCache* cache = nullptr);
// The generated fault plan of a seed: the config's knobs aimed at `reach` the way scenario sweeps
// aim theirs (sim::generateFaultPlan with a Reach), plan.seed = seed.
sim::FaultPlan planFor(const WorkloadConfig& config, uint64_t seed, const sim::Reach& reach);
// planFor aimed at the seed's own workloadReach.
sim::FaultPlan planFor(const WorkloadConfig& config, uint64_t seed);

struct RunOptions {
  bool oracles = true;         // false: just run (the reference run)
  std::shared_ptr<ReferenceCache> references = nullptr;  // optional
  bool determinism = false;    // run twice and compare fingerprints
  bool batchSplit = false;     // opt-in: compare with all files landing at once (count only)
  int determinismEvery = 0;    // > 0: determinism on the seeds s with s % determinismEvery == 0 too
};

std::shared_ptr<ReferenceCache> makeReferenceCache();

// Runs the case without oracles (the raw run). `traceEngine` false: the engine gets no trace
// sink, so the result's trace is empty and its fingerprint covers only the sink (how runCase runs
// the fault-free reference, of which it reads only the sink rows and the error).
RunResult simulate(const WorkloadConfig& config, const RunCase& c, bool traceEngine = true);
// Runs the case and applies the oracles (exactly_once against simulate() of the same case
// without its driver-side faults).
RunResult runCase(const WorkloadConfig& config, const RunCase& c, const RunOptions& options = {});
// runCase with the seed's generated plan.
RunResult runSeed(const WorkloadConfig& config, uint64_t seed, const RunOptions& options = {});

// --- sweeps -----------------------------------------------------------------------------------

struct ShrunkCase {
  RunCase minimal;
  size_t faults = 0;         // faults in the minimal plan
  size_t files = 0;          // landing files in the minimal input
  size_t events = 0;         // events in them
  size_t originalFaults = 0;
  size_t originalFiles = 0;
  int runs = 0;              // simulated runs the shrink search took
  std::vector<Violation> violations;  // of the minimal case
  std::string error;                  // of the minimal case (a run error kept its kind)
  std::string fingerprint;            // of the minimal case (what its replay line prints)
  std::string sizes() const;  // "2 faults (of 5), 1 file (of 20), 10 events, 37 runs"
};

// What a failing run's failure is (its violated oracles; "error" for a run error).
FailureKind failureKind(const RunResult& r);
// Shrinks a failing case with the harness's shrinker (run/shrink.h: RapidCheck's search over the
// fault list and the file list) while the failure keeps its kind. At most `maxRuns` runs.
ShrunkCase shrinkCase(const WorkloadConfig& config, const RunCase& failing, const FailureKind& kind,
                      const RunOptions& options = {}, int maxRuns = 400);

// What a workload's replay line names: the CLI's `replay <workload> ...` arguments.
struct WorkloadReplayArgs {
  std::string workload;      // a standard workload (count, ...), a registered processor, or file.py:Class
  std::string stateStore;    // --state-store ("" = memory)
  std::string outputSchema;  // --output-schema: DDL of the output rows
  std::string timeMode;      // --time-mode ("" = None)
  std::vector<std::string> oracles;  // --oracle (WorkloadConfig::oracles)
  bool determinism = false;  // --determinism (RunOptions; also when `oracles` names it)
  bool batchSplit = false;   // --batch-split (RunOptions; also when `oracles` names it)
};
// `file.py:Class` -> {file.py, Class}; nullopt for another name (a standard workload's, a
// registered processor's).
std::optional<std::pair<std::string, std::string>> pythonProcessorRef(const std::string& name);
// Whether `name` is a workload a replay line may name: a standard workload's, `file.py:Class`,
// or a processor this program registered.
bool isWorkloadName(const std::string& name);
// The workload (and the run options) a replay line names, its processor loaded: the standard
// workload of that kind, or standardWorkload(kCustom) with the registered processor or the
// Python class (which takes the GIL). InvalidArgument for an unknown name or time mode.
Status workloadForReplay(const WorkloadReplayArgs& args, WorkloadConfig& config, RunOptions& run);

// `<program> replay <workload> --seed S [--state-store X] [--output-schema DDL] [--time-mode M]
// [--oracle O]... [--determinism] [--batch-split] --plan '<json>' [--files 0,3]`: the CLI rebuilds
// the workload with workloadForReplay and prints the run's fingerprint (RunResult::fingerprintHex).
// FailedPrecondition saying why when the line could not rebuild `config` and `run` as they are
// (a test hook, a processor without processorRef, knobs other than the standard workload's).
// What such a line names: the workload (`count`) and its options after --seed (` --state-store
// rocksdb`), shell-quoted; FailedPrecondition as replayCommand.
struct WorkloadReplayWords {
  std::string workload;
  std::string options;
};
Result<WorkloadReplayWords> workloadReplayWords(const WorkloadConfig& config, const RunOptions& run = {});
Result<std::string> replayCommand(const WorkloadConfig& config, const RunCase& c,
                                  const std::string& program = "streamsim", const RunOptions& run = {});

// A seed of a workload sweep: its account (run/totals.h: passed, faults planned and fired,
// crashes, restarts, downtime, oracle checks, runs, wall time) and what the report prints of it.
struct SeedOutcome : SeedAccount {
  uint64_t seed = 0;
  std::string fingerprint;
  std::string plan;  // the seed's plan as JSON
  std::vector<Violation> violations;
  std::string error;
  std::optional<ShrunkCase> shrunk;
  std::string replay;    // the replay line (of the shrunk case when shrunk), or empty and:
  std::string noReplay;  // why no CLI can replay it (replayCommand's error)
  // The report's and the workers' format (SeedAccount's fields among them).
  nlohmann::json toJson() const;
  static SeedOutcome fromJson(const nlohmann::json& j);
};

struct SweepOptions {
  int seeds = 100;
  uint64_t firstSeed = 0;
  int jobs = 1;
  int shardIndex = 0;  // seed s belongs to shard s % shardCount
  int shardCount = 1;
  bool shrink = true;
  int shrinkMaxRuns = 400;
  int determinismEvery = 0;  // re-run every k-th seed to compare fingerprints (0: never)
  bool stopAtFirstFailure = false;  // outcomes end at the smallest failing seed (J-independent)
  std::string programName = "streamsim";  // the program the replay lines name
  RunOptions run;
  // Called after each seed (from worker threads, serialised): seeds done, total, failures.
  std::function<void(int done, int total, int failures)> progress;
  // Set, with jobs > 1: the seeds run in `jobs` worker processes started with this argv (each
  // answers seed lines with serveWorkloadRequest, run/pool.h), for processors that cannot run on
  // two threads at once (Python: one interpreter has one GIL). Results are those of jobs = 1.
  std::vector<std::string> workerCommand;
};

struct SweepReport {
  std::string workload;
  std::vector<SeedOutcome> outcomes;  // ascending seed
  double seconds = 0;  // wall time (of the shards added up, after merge)
  int failures() const;
  std::optional<uint64_t> firstFailingSeed() const;
  nlohmann::json toJson() const;
  static Result<SweepReport> fromJson(const nlohmann::json& j);
  // Adds another shard's outcomes (same workload), keeping seeds ascending and unique.
  Status merge(const SweepReport& other);
  // The totals of its seeds (SweepTotals::add; unit "workload").
  SweepTotals totals() const;
  // One block per failing seed (violation, shrunk sizes, replay line or why there is none), a
  // PASS/FAIL line and the TOTAL line.
  std::string summary() const;
};

SweepReport sweepWorkload(const WorkloadConfig& config, const SweepOptions& options);

// One seed of sweepWorkload: its plan, run, shrink and replay line (options.run.references, when
// set, caches the fault-free runs between seeds).
SeedOutcome runWorkloadSeed(const WorkloadConfig& config, uint64_t seed, const SweepOptions& options);
// A sweep worker's answer to the request line "SEED": runWorkloadSeed's outcome as one line of
// JSON (SeedOutcome::toJson); "" for a line that is not a seed.
std::string serveWorkloadRequest(const WorkloadConfig& config, const SweepOptions& options,
                                 const std::string& request);

}  // namespace streamsim::harness
