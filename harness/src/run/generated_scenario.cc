// A generated workload as a Scenario value (generated_scenario.h).
#include "streamsim/harness/run/generated_scenario.h"

#include <algorithm>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/io/parsed_files.h"
#include "streamsim/sim/random.h"
#include "streamsim/sim/workload.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {

namespace generated {

constexpr TimeMs kStart = 1767225600000;  // 2026-01-01T00:00:00Z, the workloads' virtual start
const char* kLanding = "/landing";
const char* kCheckpoint = "/chk";
const char* kOut = "/out";

bool isTws(WorkloadKind k) { return runsTransformWithState(k); }

bool named(const std::vector<std::string>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

std::string outputSchemaOf(const WorkloadConfig& c) {
  if (!c.outputSchema.empty()) return c.outputSchema;
  switch (c.kind) {
    case WorkloadKind::kCount: return "key string, count long";
    case WorkloadKind::kSessionTracker: return "key string";
    case WorkloadKind::kHeartbeat: return "key string, status string, last_seen long";
    case WorkloadKind::kTtlCache: return "key string, value string, previous string";
    case WorkloadKind::kDedup: return std::string(sim::kEventSchema);
    case WorkloadKind::kWindow: return "key string, window_start timestamp, window_end timestamp, count long";
    case WorkloadKind::kCustom: return "key string";
  }
  return "key string";
}

OperatorSpec op(decltype(OperatorSpec::op) o) {
  OperatorSpec s;
  s.op = std::move(o);
  return s;
}

// The operators of the workload kind's query (its files source's rows in, sim::kEventSchema).
Result<std::vector<OperatorSpec>> operatorsOf(const WorkloadConfig& c) {
  std::vector<OperatorSpec> ops;
  if (!isTws(c.kind)) {
    ops.push_back(op(WatermarkOp{"event_time", c.watermarkDelay}));
    if (c.kind == WorkloadKind::kDedup) {
      ops.push_back(op(DropDuplicatesOp{{"event_id", "event_time"}, false}));
    } else {
      WindowAggregationOp w;
      w.groupBy = {"key"};
      w.timeColumn = "event_time";
      w.windowMs = c.windowMs;
      w.aggregates = {AggSpec{"count", "", ""}};
      ops.push_back(op(std::move(w)));
    }
    return ops;
  }
  TransformWithStateOp t;
  t.groupBy = {"key"};
  t.processor = std::string(workloadKindName(c.kind));
  switch (c.kind) {
    case WorkloadKind::kSessionTracker: {
      // Each event's session: s<value % 3> (a null value counts as 0).
      ExprOp session;
      session.kind = ExprOp::Kind::kWithColumn;
      session.keyword = "withColumn";
      session.names = {"session_id"};
      session.exprs = {"concat('s', cast(coalesce(value, 0) % 3 as string))"};
      ops.push_back(op(std::move(session)));
      break;
    }
    case WorkloadKind::kHeartbeat:
      t.timeMode = "ProcessingTime";
      t.params["timeout"] = fmt::format("{}ms", c.timeoutMs);
      break;
    case WorkloadKind::kTtlCache:
      t.timeMode = "ProcessingTime";
      t.params["ttl"] = fmt::format("{}ms", c.ttlMs);
      break;
    case WorkloadKind::kCustom:
      if (!c.processor && c.processorRef.empty())
        return Status::InvalidArgument("workload kind custom needs WorkloadConfig::processor or processorRef");
      t.processor = c.processorRef.empty() ? c.name : c.processorRef;
      t.factory = c.processor;  // a factory of this program (unset: processorRef, a Python class)
      if (auto py = pythonProcessorRef(c.processorRef)) {
        // A Python class (`file.py:Class`): the sweep runs its seeds in worker processes when
        // asked to (scenarioRunsPython), one interpreter having one GIL.
        t.pythonFile = py->first;
        t.pythonClass = py->second;
        t.outputStructType = outputSchemaOf(c);
      }
      t.timeMode = std::string(timeModeName(c.timeMode));
      if (c.timeMode == TimeMode::kEventTime) ops.push_back(op(WatermarkOp{"event_time", c.watermarkDelay}));
      break;
    default:
      break;
  }
  if (c.kind != WorkloadKind::kCustom && !processorsOf(c.registries.get()).has(t.processor))
    return Status::InvalidArgument(fmt::format(
        "workload kind {} runs the processor '{}', which the processors handed to it do not hold "
        "(WorkloadConfig::registries: the CLI's and the Python module's hold the example processors); "
        "known: {}",
        workloadKindName(c.kind), t.processor, fmt::join(processorsOf(c.registries.get()).names(), ", ")));
  ops.push_back(op(std::move(t)));
  return ops;
}

Step step(StepVariant s, const std::string& file) {
  Step out;
  out.step = std::move(s);
  out.where = SourceLocation{file, 0, 0};
  return out;
}

// One trigger per interval up to the drain after the last landing action; the files land before
// each trigger and while the driver is down (ScenarioHooks::landing, scenario/generated_landing.h).
std::vector<Step> stepsOf(const WorkloadConfig& c, const std::vector<sim::LandingAction>& actions,
                          const std::string& file) {
  std::vector<Step> steps;
  TimeMs last = kStart;
  for (const auto& a : actions) last = std::max(last, a.at);
  const TimeMs end = last + c.drainMs;
  for (TimeMs t = kStart + c.triggerInterval; t <= end + c.triggerInterval - 1; t += c.triggerInterval)
    steps.push_back(step(AdvanceStep{std::nullopt, t, true, true}, file));
  return steps;
}

uint64_t workloadSeedOf(const WorkloadConfig& c, uint64_t seed) {
  return c.workloadSeed.value_or(c.workloadVariety > 0 ? seed % static_cast<uint64_t>(c.workloadVariety) : seed);
}

}  // namespace generated



namespace {

struct KindInfo {
  WorkloadKind kind;
  const char* name;
};
constexpr KindInfo kKinds[] = {
    {WorkloadKind::kCount, "count"},       {WorkloadKind::kSessionTracker, "session_tracker"},
    {WorkloadKind::kHeartbeat, "heartbeat"}, {WorkloadKind::kTtlCache, "ttl_cache"},
    {WorkloadKind::kDedup, "dedup"},       {WorkloadKind::kWindow, "window"},
    {WorkloadKind::kCustom, "custom"},
};

}  // namespace

std::string_view workloadKindName(WorkloadKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.name;
  return "custom";
}

Result<WorkloadKind> parseWorkloadKind(std::string_view name) {
  for (const auto& k : kKinds)
    if (name == k.name) return k.kind;
  return Status::InvalidArgument(fmt::format(
      "unknown workload '{}': expected count, session_tracker, heartbeat, ttl_cache, dedup or window", name));
}

sim::WorkloadSpec defaultWorkloadSpec() {
  sim::WorkloadSpec s;
  s.events = 200;
  s.eventsPerFile = 10;
  s.keys = 8;
  s.zipfExponent = 0.5;
  s.maxOutOfOrder = 2'000;
  s.lateFraction = 0.05;
  s.lateBy = 5'000;
  s.duplicateFraction = 0.05;
  s.startEventTime = generated::kStart;
  s.firstArrival = generated::kStart + 500;
  s.arrivalInterval = 1'000;
  s.dir = generated::kLanding;
  return s;
}

sim::FaultKnobs defaultFaultKnobs() {
  sim::FaultKnobs k;
  k.points = {"all"};
  k.maxCrashes = 2;
  k.tornWrites = true;
  k.taskFailureProbability = 0.01;
  k.batches = 24;
  k.partitions = 2;
  k.checkpointDir = generated::kCheckpoint;
  // Outages: about half of the seeds' crashes leave the driver down up to 10 s (the standard
  // input lands over 20 s), while files keep landing.
  k.downtimeMax = 10'000;
  return k;
}

WorkloadConfig standardWorkload(WorkloadKind kind, std::string stateStore,
                                std::shared_ptr<const RunRegistries> registries) {
  WorkloadConfig c;
  c.kind = kind;
  c.registries = std::move(registries);
  c.name = std::string(workloadKindName(kind));
  c.stateStore = std::move(stateStore);
  if (kind == WorkloadKind::kWindow) c.drainMs = 4'000;
  c.knobs.batches = (c.spec.events + c.spec.eventsPerFile - 1) / c.spec.eventsPerFile + c.drainMs / c.triggerInterval;
  c.knobs.partitions = c.partitions;
  c.knobs.files = (c.spec.events + c.spec.eventsPerFile - 1) / c.spec.eventsPerFile;
  return c;
}

sim::Workload workloadFor(const WorkloadConfig& c, uint64_t seed) {
  return sim::generateWorkload(sim::Random(generated::workloadSeedOf(c, seed)).split("workload"), c.spec);
}

bool runsTransformWithState(WorkloadKind kind) { return kind != WorkloadKind::kDedup && kind != WorkloadKind::kWindow; }

std::vector<std::string> workloadOracles(const WorkloadConfig& c, bool determinism, bool batchSplit) {
  std::vector<std::string> out;
  for (const Oracle& oracle : oracleTable()) {
    const std::string_view n = oracle.name;
    bool wanted = false;
    if (n == "determinism") wanted = determinism;
    else if (n == "batch_split") wanted = batchSplit;
    else if (!c.oracles.empty()) wanted = generated::named(c.oracles, n);
    else if (oracle.needsArgs) wanted = c.oracleArgs.has(n);  // state_bound, reference: with their parameters
    // On by default where its unit says so (Oracle::workloadDefault); else opt-in (named in the
    // config's oracles): process_isolation, timer_bound, restart_equivalence, and real time's
    // (latency_bound, mode_equivalence): a workload runs micro-batch on files.
    else wanted = oracle.workloadDefault != nullptr && oracle.workloadDefault(c);
    if (wanted) out.emplace_back(n);
  }
  return out;
}

SweepSpec workloadSweepSpec(const WorkloadConfig& c) {
  SweepSpec s;
  s.crashPoints = c.knobs.points;
  s.maxCrashes = c.knobs.maxCrashes;
  s.tornWrites = c.knobs.tornWrites;
  s.taskFailures = c.knobs.taskFailureProbability;
  s.ioErrors = c.knobs.ioErrorProbability;
  s.landingFaults = c.knobs.landingFaultProbability;
  s.batches = c.knobs.batches;
  s.switches = c.knobs.switchProbability;
  s.switchSteps = c.knobs.switchSteps;
  s.downtimeMin = c.knobs.downtimeMin;
  s.downtimeMax = c.knobs.downtimeMax;
  s.files = c.knobs.files;
  s.fileInterval = c.knobs.fileInterval;
  return s;
}

Result<Scenario> generatedScenario(const WorkloadConfig& c, uint64_t seed, const GeneratedInput& input,
                                   const RunOptions& run) {
  STREAMSIM_RETURN_IF_ERROR(checkOracleNames(c.oracles));
  Scenario sc;
  sc.name = fmt::format("{}/{}", c.name, c.stateStore);
  sc.file = fmt::format("generated:{}", sc.name);
  // The query starts at the first trigger time and runs its first batch then (Spark's
  // ProcessingTimeExecutor triggers at once on start), as the workload's driver did: a crash
  // while it starts leaves it down from the time its first batch is due.
  sc.start = generated::kStart + c.triggerInterval;

  QuerySpec& q = sc.query;
  SourceSpec source;
  source.kind = SourceSpec::Kind::kFiles;
  source.path = generated::kLanding;
  source.schemaDDL = std::string(sim::kEventSchema);
  STREAMSIM_ASSIGN_OR_RETURN(source.schema, parseSchema(source.schemaDDL));
  source.where = SourceLocation{sc.file, 0, 0};
  q.sources.push_back(std::move(source));
  STREAMSIM_ASSIGN_OR_RETURN(q.operators, generated::operatorsOf(c));
  for (auto& o : q.operators) o.where = SourceLocation{sc.file, 0, 0};
  // A standard kind's processor (count, session_tracker, heartbeat, ...) is resolved in what the
  // runner handed the workload (operatorsOf checked it is there); a kCustom workload brings its
  // own factory.
  if (c.kind != WorkloadKind::kCustom) sc.registries = c.registries;
  q.outputMode = generated::isTws(c.kind) ? "update" : "append";
  q.sink.kind = c.sink == SinkKind::kFiles ? SinkSpec::Kind::kFiles
                : c.sink == SinkKind::kForeach ? SinkSpec::Kind::kForeach
                                               : SinkSpec::Kind::kMemory;
  if (c.sink == SinkKind::kFiles) q.sink.path = generated::kOut;
  q.trigger = TriggerSpec{TriggerSpec::Kind::kProcessingTime, c.triggerInterval};
  q.checkpoint = generated::kCheckpoint;
  q.stateStore = c.stateStore;
  q.stateStoreSet = true;
  q.shufflePartitions = c.partitions;
  q.taskRetries = c.taskRetries;
  q.where = SourceLocation{sc.file, 0, 0};

  const sim::Workload w = workloadFor(c, seed);
  std::vector<sim::LandingAction> actions = sim::landingActions(w, input.landingFaults, c.spec);
  if (input.files) {
    const std::set<int64_t> keep(input.files->begin(), input.files->end());
    std::erase_if(actions, [&](const sim::LandingAction& a) { return a.file >= 0 && !keep.count(a.file); });
  }
  sc.steps = generated::stepsOf(c, actions, sc.file);

  const bool determinism = run.determinism || generated::named(c.oracles, "determinism") ||
                           (run.determinismEvery > 0 && seed % static_cast<uint64_t>(run.determinismEvery) == 0);
  const bool batchSplit = run.batchSplit || generated::named(c.oracles, "batch_split");
  sc.oracles = workloadOracles(c, determinism, batchSplit);
  sc.oracleArgs = c.oracleArgs;
  sc.sweep = workloadSweepSpec(c);

  auto hooks = std::make_shared<ScenarioHooks>();
  hooks->generate = [c, run](uint64_t s, const GeneratedInput& in) { return generatedScenario(c, s, in, run); };
  hooks->files = static_cast<int64_t>(w.files.size());
  RunOptions asked;
  asked.determinism = determinism;
  asked.batchSplit = batchSplit;
  if (auto words = workloadReplayWords(c, asked); words.ok()) {
    hooks->replayTarget = words->workload;
    hooks->replayOptions = words->options;
  } else {
    hooks->notReplayable = words.status().message();
  }
  hooks->landing = std::move(actions);
  // batch_split's other cut varies by seed (its stream "batch_cut", so a replay line's --seed
  // reproduces it): the same files (those kept) landing every 0 (all at once), 250, 500, 2000 or
  // 3000 ms instead, without landing faults.
  hooks->batchCut = [c, run, files = input.files](uint64_t s, std::string* where) -> Result<Scenario> {
    WorkloadConfig other = c;
    other.spec.arrivalInterval =
        sim::Random(s).split("batch_cut").pick(std::vector<DurationMs>{0, 250, 500, 2000, 3000});
    if (where != nullptr)
      *where = fmt::format("the files landing every {} ms instead of every {} ms", other.spec.arrivalInterval,
                           c.spec.arrivalInterval);
    GeneratedInput in;
    in.files = files;
    return generatedScenario(other, s, in, run);
  };
  hooks->triggerInterval = c.triggerInterval;
  hooks->drainMs = c.drainMs;
  hooks->everyRow = true;
  hooks->restartOnFailure = true;
  hooks->decidesDeterminism = true;  // `determinism` above: the seed's, not every seed's
  if (c.sink == SinkKind::kFiles) {
    STREAMSIM_ASSIGN_OR_RETURN(hooks->sinkSchema, parseSchema(generated::outputSchemaOf(c)));
  }
  hooks->wrapOperator = c.wrapOperator;
  hooks->wrapSource = c.wrapSource;
  hooks->customSink = c.customSink;
  if (generated::isTws(c.kind)) hooks->referenceKeys = {"key"};
  sc.hooks = std::move(hooks);
  return sc;
}

Result<GeneratedRun> runGeneratedSeed(const WorkloadConfig& config, uint64_t seed, const RunOptions& run,
                                      const std::optional<sim::FaultPlan>& plan,
                                      const std::optional<std::vector<int64_t>>& files) {
  STREAMSIM_ASSIGN_OR_RETURN(Scenario sc, generatedScenario(config, seed, {}, run));
  GeneratedRun out;
  ScenarioRunOptions o;
  o.seed = seed;
  o.faultPlan = sim::FaultPlan{};
  o.applyOracles = run.oracles;
  o.parsedFiles = std::make_shared<ParsedFiles>();  // shared by the reach run and the seed's runs
  // Aimed as a sweep aims the seed's plan (runSweepSeed): at the reach of its own fault-free run.
  out.plan = plan ? *plan : scenarioPlan(sc, seed, runFaultFree(sc, o)->result.reach);
  STREAMSIM_ASSIGN_OR_RETURN(Scenario own, scenarioOfSeed(sc, seed, out.plan, files));
  o.faultPlan = out.plan;
  out.result = runScenario(own, o);
  return out;
}

Result<SweepResult> sweepGenerated(const WorkloadConfig& config, const ScenarioSweepOptions& options,
                                   const RunOptions& run) {
  if (options.jobs < 1 || options.jobs > kMaxSweepJobs)
    return Status::InvalidArgument(fmt::format("jobs {}: expected 1 to {}", options.jobs, kMaxSweepJobs));
  STREAMSIM_ASSIGN_OR_RETURN(Scenario sc, generatedScenario(config, options.firstSeed, {}, run));
  SweepResult out;
  out.scenarios.push_back(std::move(sc));
  out.shardIndex = options.shardIndex;
  out.shardCount = options.shardCount;
  out.report = sweepScenarios(out.scenarios, options);
  out.report.totals.unit = "workload";
  return out;
}

std::string ScenarioHooks::whyNotReplayable() const {
  if (wrapOperator) return "it wraps the stateful operator (a test hook)";
  if (wrapSource) return "it wraps the file source (a test hook)";
  if (customSink) return "it replaces the sink (a test hook)";
  return "";
}

}  // namespace streamsim::harness
