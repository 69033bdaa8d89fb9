// Generated workloads (DESIGN.md §5): what a workload is (its kind, input, fault knobs, oracles,
// test hooks), the standard ones, and what a replay line names of one. A workload runs and sweeps
// as its generated scenario (generated_scenario.h: generatedScenario, runGeneratedSeed,
// sweepGenerated), through the one run, sweep, shrink and replay line of the scenarios. Values;
// safe from several threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/scenario_hooks.h"  // CustomSink
#include "streamsim/operator.h"
#include "streamsim/query.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/workload.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {

struct RunRegistries;  // run/registries.h

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
// Whether the kind's query is a transformWithState (every kind but dedup and window).
bool runsTransformWithState(WorkloadKind kind);
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
  // > 0: seed s runs the workload of seed s % workloadVariety; 0: every seed generates its own.
  int workloadVariety = 0;

  // kCustom: the processor, its time mode, its output schema (file sink) and event-time column.
  ProcessorFactory processor;
  // kCustom: where `processor` comes from, as a replay line names it — a processor registered
  // under this name (the runner's RunRegistries::processors; `processor` may then stay empty) or `file.py:Class`
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

  // What the runner hands the workload's runs (run/registries.h): a standard kind's processor
  // (count, session_tracker, heartbeat, ttl_cache: the example processors, which the CLI's and the
  // Python module's sets hold) is looked up in its processors like any scenario's; null for a
  // standard kind is InvalidArgument naming the processor. The harness ships no processor.
  std::shared_ptr<const RunRegistries> registries;

  // Oracles to apply (names of oracleNames()); empty = the ones that fit the kind.
  std::vector<std::string> oracles;
  // Their parameters (oracles/oracle_args.h): state_bound's "total" / "per_key" (the oracle
  // applies only with one); reference's "function" (a ReferenceFunction: the final view the query
  // should leave, from the rows the file source delivered; set: the oracle applies) and "name"
  // (for the report).
  OracleArgs oracleArgs;
};

// The standard workloads of the sweeps and property tests, by kind, on a state store; a kind
// other than custom runs a processor of `registries` (WorkloadConfig::registries).
WorkloadConfig standardWorkload(WorkloadKind kind, std::string stateStore = "memory",
                                std::shared_ptr<const RunRegistries> registries = nullptr);

// The workload a seed generates (WorkloadConfig::workloadSeed wins when set).
sim::Workload workloadFor(const WorkloadConfig& config, uint64_t seed);

// What a workload runs besides the oracles its config names (generatedScenario's `run`).
struct RunOptions {
  bool oracles = true;         // false: just run (runGeneratedSeed)
  bool determinism = false;    // run twice and compare (determinism)
  bool batchSplit = false;     // opt-in: compare with the files landing at another interval (batch_split)
  // > 0: determinism on the seeds s with s % determinismEvery == 0 too. By default every tenth
  // seed of a generated sweep (sweep_processor, bench row 4): a processor whose output differs
  // from run to run fails a sweep for ~3% more runs, where every seed would cost ~25%.
  int determinismEvery = 10;
};

// What a workload's replay line names: the CLI's `replay <workload> ...` arguments.
struct WorkloadReplayArgs {
  std::string workload;      // a standard workload (count, ...), a registered processor, or file.py:Class
  std::string stateStore;    // --state-store ("" = memory)
  std::string outputSchema;  // --output-schema: DDL of the output rows
  std::string timeMode;      // --time-mode ("" = None)
  std::vector<std::string> oracles;  // --oracle (WorkloadConfig::oracles)
  bool determinism = false;  // --determinism (RunOptions; also when `oracles` names it)
  bool batchSplit = false;   // --batch-split (RunOptions; also when `oracles` names it)
  // What the runner hands its runs (run/registries.h): its processors, the loader of a
  // `file.py:Class` workload.
  std::shared_ptr<const RunRegistries> registries;
};
// `file.py:Class` -> {file.py, Class}; nullopt for another name (a standard workload's, a
// registered processor's).
std::optional<std::pair<std::string, std::string>> pythonProcessorRef(const std::string& name);
// Whether `name` is a workload a replay line may name: a standard workload's, `file.py:Class`,
// or a processor in the runner's set (registries->processors).
bool isWorkloadName(const std::string& name, const RunRegistries* registries);
// The workload (and the run options) a replay line names, its processor loaded: the standard
// workload of that kind, or standardWorkload(kCustom) with the registered processor or the
// Python class (which takes the GIL). InvalidArgument for an unknown name or time mode.
Status workloadForReplay(const WorkloadReplayArgs& args, WorkloadConfig& config, RunOptions& run);

// `<program> replay <workload> --seed S [--state-store X] [--output-schema DDL] [--time-mode M]
// [--oracle O]... [--determinism] [--batch-split] --plan '<json>' [--files 0,3]`: the CLI rebuilds
// the workload with workloadForReplay and runs the seed (runGeneratedSeed).
// What such a line names: the workload (`count`) and its options after --seed (` --state-store
// rocksdb`), shell-quoted; FailedPrecondition saying why when the line could not rebuild `config`
// and `run` as they are (a test hook, a processor without processorRef, knobs other than the
// standard workload's).
struct WorkloadReplayWords {
  std::string workload;
  std::string options;
};
Result<WorkloadReplayWords> workloadReplayWords(const WorkloadConfig& config, const RunOptions& run = {});

}  // namespace streamsim::harness
