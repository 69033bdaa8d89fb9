// The scenario runner (scenario_runner.h): one run of the scenario (runner.h), judged against
// its reference with the same restarts when a clean restart's withheld no-data batch changed an
// expectation, then the scenario's oracles applied (oracles/table.h) with the extra runs each
// needs (reference, mode and restart equivalence, sequential, logic oracles).
#include "streamsim/harness/scenario_runner.h"

#include <algorithm>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "scenario/oracle_runs.h"
#include "scenario/runner.h"
#include "scenario/sink_views.h"
#include "streamsim/fault_points.h"
#include "streamsim/trace_events.h"
#include "streamsim/harness/committed_state.h"
#include "streamsim/harness/oracles.h"
#include "streamsim/harness/oracles/not_checked.h"
#include "streamsim/harness/oracles/partitioning.h"
#include "streamsim/harness/oracles/promises.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/oracles/scenario_variants.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/run/clean_restarts.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/io/json_rows.h"
#include "streamsim/io/parsed_files.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness {

std::string ScenarioRunResult::report() const {
  std::string out;
  if (!setupError.ok()) out += "  cannot run: " + setupError.message() + "\n";
  for (const auto& f : failures) {
    out += fmt::format("  {}: {}\n", f.where.toString(), f.message);
  }
  for (const auto& v : violations) {
    std::string text = v.toString();
    if (!text.empty() && text.back() == '\n') text.pop_back();
    out += "  oracle " + text + "\n";
  }
  return out;
}

sim::FaultKnobs sweepKnobs(const Scenario& sc) {
  sim::FaultKnobs k;
  k.partitions = sc.query.shufflePartitions;
  k.checkpointDir = sc.query.checkpoint;
  k.realTime = sc.query.trigger.kind == TriggerSpec::Kind::kRealTime;
  if (sc.sweep) {
    k.points = sc.sweep->crashPoints;
    k.maxCrashes = sc.sweep->maxCrashes;
    k.tornWrites = sc.sweep->tornWrites;
    k.taskFailureProbability = sc.sweep->taskFailures;
    k.ioErrorProbability = sc.sweep->ioErrors;
    k.landingFaultProbability = sc.sweep->landingFaults;
    k.batches = sc.sweep->batches;
    k.switchProbability = sc.sweep->switches;
    k.switchSteps = sc.sweep->switchSteps;
    k.downtimeMin = sc.sweep->downtimeMin;
    k.downtimeMax = sc.sweep->downtimeMax;
    k.files = sc.sweep->files;
    k.fileInterval = sc.sweep->fileInterval;
  }
  return k;
}

namespace {

using detail::outputKeys;
using detail::Runner;


// The fault-free reference of a run with `options`: the scenario without the plan's faults (a
// plain run's also without its own crash steps).
ScenarioRunOptions faultFreeReference(const ScenarioRunOptions& options) {
  ScenarioRunOptions ref = options;
  ref.applyOracles = false;
  ref.collectActual = false;
  ref.keepFs = nullptr;
  ref.recordReach = false;
  ref.oracleState = false;  // a reference is read for its sink, trace and failures
  ref.skipCrashSteps = !options.faultPlan;
  ref.faultPlan.reset();
  ref.faultFreeRun.reset();
  return ref;
}

}  // namespace

namespace detail {

// Whether one of the scenario's async processors declares its results order-dependent
// (AsyncStatefulProcessor::orderDependent): the interleaving oracle then does not apply.
bool orderDependent(const Scenario& sc) {
  for (const auto& op : sc.query.operators) {
    auto* t = std::get_if<TransformWithStateOp>(&op.op);
    if (t == nullptr) continue;
    std::unique_ptr<StatefulProcessor> p;
    if (t->factory) {
      p = t->factory();
    } else if (!t->pythonFile.empty()) {  // a Python class says so with `orderDependent = True`
      auto f = loadPythonProcessor(sc.registries.get(), {t->pythonFile, t->pythonClass, t->outputStructType, t->inPandas, {},
                                    t->pythonCallLimitMs, 0, t->timeMode});
      if (f.ok()) p = (*f)();
    } else if (auto r = processorsOf(sc.registries.get()).create(t->processor); r.ok()) {
      p = std::move(*r);
    }
    if (auto* a = dynamic_cast<streamsim::detail::AsyncProcessorAdapter*>(p.get()); a && a->processor().orderDependent())
      return true;
  }
  return false;
}

// The reference of run `r`: the fault-free reference, restarted after each commit after which `r`
// restarted cleanly and had a no-data batch withheld (run/clean_restarts.h), so that both run the
// same batches.
ScenarioRunOptions referenceOf(const ScenarioRunOptions& options, const ScenarioRunResult& r) {
  ScenarioRunOptions ref = faultFreeReference(options);
  if (sim::FaultPlan same = withSameRestarts(sim::FaultPlan{}, r.trace); !same.faults.empty())
    ref.faultPlan = std::move(same);
  return ref;
}

// Restart transparency, for a faulted run whose reference took clean restarts (referenceOf): both
// would show a processor that loses something on a restart, so the restarts are also checked
// without Spark's withholding rule (noDataBatchBeforeFirstBatchOfRun): the plan's run and the
// fault-free run, both under that rule, must give the same sink (as they did before the rule).
// The exactly_once violation's text when they do not. Each of the two is a run already made where
// sameRun says so: the judged run (its rule withheld nothing), the seed's fault-free run (the plan
// left no downtime, no re-planned batch) or exactly_once's reference (the same restarts).
std::optional<std::string> restartTransparencyBreach(const ScenarioOracleRun& run, const Scenario* referenceScenario,
                                                     const ScenarioRunOptions& referenceOptions,
                                                     const ScenarioRunResult& reference) {
  int& runs = run.r.oracleRuns;
  const ScenarioRunOptions faulted = restartTransparencyRun(run.options);
  ScenarioRunResult ranT;
  const ScenarioRunResult* t = &run.r;  // the judged run, made of run.sc when run.given is set
  if (run.given == nullptr || !sameRun(&run.sc, run.options, run.r, run.sc, faulted)) {
    ranT = runScenario(run.sc, faulted);
    ++runs;
    t = &ranT;
  }
  // The plan's downtime stays (the clock moved on): the fault-free run takes it too.
  const ScenarioRunOptions plain = restartTransparencyFaultFree(run.options, t->trace);
  ScenarioRunResult ranB;
  const ScenarioRunResult* b = nullptr;
  if (const FaultFreeRun* ff = run.options.faultFreeRun.get();
      ff != nullptr && run.given != nullptr && sameFaultFreeRun(*ff, *run.given, plain))
    b = &ff->result;
  else if (sameRun(referenceScenario, referenceOptions, reference, run.sc, plain))
    b = &reference;
  if (b == nullptr) {
    ranB = runScenario(run.sc, plain);
    ++runs;
    b = &ranB;
  }
  const char* rule = "with a no-data batch allowed before a run's first batch (not Spark's rule)";
  if (!ranClean(*b)) return fmt::format("the fault-free run {} failed:\n{}", rule, b->report());
  if (!ranClean(*t)) return fmt::format("the run under the plan {} failed:\n{}", rule, t->report());
  if (auto v = checkExactlyOnce(b->sinkRows, t->sinkRows, t->sinkBatchOf, run.sinkKind))
    return fmt::format("a restart changed the processor's output: {}, the run under the plan differs from the "
                       "fault-free run: {}", rule, v->message);
  return std::nullopt;
}

}  // namespace detail

namespace {

using detail::orderDependent;
using detail::referenceOf;


std::string batchList(const std::vector<int64_t>& batches) {
  std::string out;
  for (int64_t b : batches) out += (out.empty() ? "" : ", ") + std::to_string(b);
  return out;
}


// Why run `r` under a fault plan, failing an expectation, is judged against its reference with
// the same restarts instead (empty: it is not). Only when (a) a clean restart of the plan withheld
// a no-data batch (the trace's no_data_batch_withheld after a restart the fault-free run does not
// have), (b) the fault-free run passes every expectation and (c) the reference with the same
// restarts fails first at the same expectation with the same message. The caller then runs it
// without expectations under exactly_once: (d) its sink equals that reference's, and the
// restarts are transparent without Spark's rule (restartTransparencyBreach).
std::string restartJudgement(const Scenario& sc, const ScenarioRunOptions& options,
                             const ScenarioRunResult& r, int& runs) {
  if (!options.faultPlan || !options.applyOracles || options.skipExpectations ||
      options.noDataBatchBeforeFirstBatchOfRun || !r.setupError.ok() || r.failures.empty())
    return {};
  const std::vector<int64_t> clean = withheldAfterCleanRestart(r.trace);
  const bool downtime = !downtimeAfterCrashes(r.trace).empty();
  if (clean.empty() && !downtime) return {};
  ScenarioRunOptions plainOptions = faultFreeReference(options);
  ScenarioRunResult plain = Runner(sc, plainOptions).run();
  ++runs;
  if (!plain.setupError.ok() || !plain.failures.empty()) return {};  // (b)
  const std::vector<int64_t> own = withheldAfterCleanRestart(plain.trace);
  std::vector<int64_t> planOnly;
  for (int64_t c : clean)
    if (std::find(own.begin(), own.end(), c) == own.end()) planOnly.push_back(c);
  if (planOnly.empty() && !downtime) return {};  // (a)
  ScenarioRunResult same = Runner(sc, referenceOf(options, r)).run();
  ++runs;
  if (!same.setupError.ok() || same.failures.empty()) return {};  // (c)
  const CheckFailure& a = r.failures.front();
  const CheckFailure& b = same.failures.front();
  if (a.where.toString() != b.where.toString() || a.message != b.message) return {};
  if (planOnly.empty())
    return fmt::format(
        "{}: the plan's crashes left the driver down while the clock moved on; the fault-free run passes this "
        "expectation and the reference with the same downtime fails it the same way",
        a.where.toString());
  return fmt::format(
      "{}: a clean restart of the plan after batch {} withheld the next no-data batch (Spark runs none "
      "before a batch of the new run); the fault-free run passes this expectation and the reference with "
      "the same restarts fails it the same way",
      a.where.toString(), batchList(planOnly));
}

// The rule of docs/faults.md "A plan's faults and the scenario's own steps" for armed crashes:
// under a plan with faults, a crash the scenario armed that never fired is the scenario's error
// only when the run without the plan's faults (same seed, expectations skipped) leaves it unfired
// too; else the plan kept the query from it (a plan crash before the armed point made Spark
// withhold the no-data batch that would have passed it, ...) and it gives way.
void settleUnfiredArmedCrashes(const Scenario& sc, const ScenarioRunOptions& options, ScenarioRunResult& r) {
  if (r.unfiredArmedCrashes.empty() || !options.faultPlan || options.faultPlan->faults.empty()) return;
  ScenarioRunOptions plain = options;
  plain.faultPlan = sim::FaultPlan{};
  plain.faultPlan->seed = options.faultPlan->seed;
  plain.skipExpectations = true;
  plain.applyOracles = false;
  plain.collectActual = false;
  plain.keepFs = nullptr;
  plain.recordReach = false;
  ScenarioRunResult without = Runner(sc, plain).run();
  ++r.oracleRuns;
  std::string gaveWay;
  for (const CheckFailure& u : r.unfiredArmedCrashes) {
    const bool alsoWithout =
        std::any_of(without.unfiredArmedCrashes.begin(), without.unfiredArmedCrashes.end(),
                    [&](const CheckFailure& w) { return w.where.toString() == u.where.toString(); });
    if (alsoWithout) {
      r.failures.push_back({u.where, u.message + " (nor without the plan's faults)", "crash"});
    } else {
      gaveWay += fmt::format("{}{}: the plan's crashes kept the query from this armed crash, which the run "
                             "without them fires",
                             gaveWay.empty() ? "" : "; ", u.where.toString());
    }
  }
  r.armedCrashesKeptByThePlan = std::move(gaveWay);
}

// `given`: the object runScenario was given when `sc` runs as it (its promised oracles add none),
// else null: only then may exactly_once's reference be the options' faultFreeRun.
void applyScenarioOracles(const Scenario& sc, const ScenarioRunOptions& options, ScenarioRunResult& r,
                          const Scenario* given) {
  ScenarioRunOptions quiet = options;
  quiet.applyOracles = false;
  quiet.collectActual = false;
  quiet.keepFs = nullptr;
  quiet.faultFreeRun.reset();
  OracleInput in(r);
  in.sinkKind = sc.hooks && sc.hooks->customSink ? "custom"
                : sc.query.sink.kind == SinkSpec::Kind::kForeach ? "foreach"
                : sc.query.sink.kind == SinkSpec::Kind::kKafka ? "kafka"
                : sc.query.sink.kind == SinkSpec::Kind::kConsole ? "console"
                : sc.query.sink.kind == SinkSpec::Kind::kFiles ? "files"
                                                               : "memory";
  in.args = sc.oracleArgs;
  // Each oracle's extra runs (its unit's prepare), run when its check asks for them.
  ScenarioOracleRun run{sc, options, quiet, r, given, in.sinkKind, sc.oracles};
  for (const Oracle& o : oracleTable())
    if (o.prepare != nullptr) o.prepare(run, in);
  // The oracles sound for every scenario of its kind run unnamed (oracles/not_checked.h); hash_seed
  // and pandas_chunks wherever their runs can be made.
  // An async processor that declares its results order-dependent differs from the fault-free run
  // under a plan's context switches by its own declaration: exactly_once is not its default then.
  const bool comparableUnderPlan =
      options.faultPlan && (options.faultPlan->switches().empty() || !detail::orderDependent(sc));
  std::vector<std::string> names = defaultOracles(sc, comparableUnderPlan);
  if (in.hashSeedRuns) names.push_back("hash_seed");
  if (in.pandasChunkRuns) names.push_back("pandas_chunks");
  // An oracle that applies only with its parameters (a bound) is left out without them.
  for (const auto& o : sc.oracles)
    if (const Oracle* oracle = findOracle(o); oracle == nullptr || !oracle->needsArgs || sc.oracleArgs.has(o))
      names.push_back(o);
  // An oracle that could not be applied (its reference run failed) is a broken promise too.
  for (auto& e : applyOracles(names, in, r)) {
    Violation v;
    v.oracle = e.oracle;
    v.message = e.status.message();
    r.violations.push_back(std::move(v));
  }
}

}  // namespace

ScenarioRunResult runScenario(const Scenario& given, const ScenarioRunOptions& options) {
  // The run and its oracles' runs read one input: parsed once. A run without oracles reads its
  // files once (nothing to share, unless the caller shares a ParsedFiles).
  if (options.parsedFiles == nullptr && options.applyOracles) {
    ScenarioRunOptions sharing = options;
    sharing.parsedFiles = std::make_shared<ParsedFiles>();
    return runScenario(given, sharing);
  }
  // The oracles the processor's promises turn on are the scenario's own (oracles/promises.h).
  const Scenario scenario = withPromisedOracles(given);
  ScenarioRunResult r;
  {
    Runner runner(scenario, options);
    r = runner.run();
  }
  // An expectation that a clean restart's withheld no-data batch changed (Spark's rule, not the
  // processor's) gives way: the run is run again without its expectations and judged by
  // exactly_once against its reference with the same restarts, and by the scenario's oracles.
  int runs = 0;
  ScenarioRunOptions judged = options;
  Scenario withExactlyOnce;
  const Scenario* sc = &scenario;
  if (std::string why = restartJudgement(scenario, options, r, runs); !why.empty()) {
    judged.skipExpectations = true;
    Runner runner(scenario, judged);
    r = runner.run();
    r.judgedAgainstRestartReference = std::move(why);
    r.oracleRuns += runs + 1;
    if (std::find(scenario.oracles.begin(), scenario.oracles.end(), "exactly_once") == scenario.oracles.end()) {
      withExactlyOnce = scenario;
      withExactlyOnce.oracles.push_back("exactly_once");
      sc = &withExactlyOnce;
    }
  } else {
    r.oracleRuns += runs;
  }
  if (r.setupError.ok() && r.failures.empty()) settleUnfiredArmedCrashes(scenario, judged, r);
  if (options.applyOracles && !options.skipExpectations && r.setupError.ok() &&
      r.failures.empty())  // every scenario gets its default oracles (oracles/not_checked.h)
    applyScenarioOracles(*sc, judged, r, sc == &scenario ? &given : nullptr);
  return r;
}

ScenarioRunOptions exactlyOnceReferenceOf(const ScenarioRunOptions& judged, const ScenarioRunResult& r) {
  ScenarioRunOptions ref = referenceOf(judged, r);
  ref.skipExpectations = true;
  return ref;
}

ScenarioRunOptions restartTransparencyRun(const ScenarioRunOptions& judged) {
  ScenarioRunOptions faulted = judged;
  faulted.applyOracles = false;
  faulted.collectActual = false;
  faulted.keepFs = nullptr;
  faulted.faultFreeRun.reset();
  faulted.skipExpectations = true;
  faulted.noDataBatchBeforeFirstBatchOfRun = true;
  faulted.oracleState = false;
  return faulted;
}

ScenarioRunOptions restartTransparencyFaultFree(const ScenarioRunOptions& judged,
                                                const std::vector<std::string>& runTrace) {
  ScenarioRunOptions plain = faultFreeReference(restartTransparencyRun(judged));
  if (sim::FaultPlan down = withSameRestarts(sim::FaultPlan{}, runTrace, /*cleanRestarts=*/false); !down.faults.empty())
    plain.faultPlan = std::move(down);
  return plain;
}

ScenarioRunOptions faultFreeReferenceOf(const ScenarioRunOptions& options) {
  ScenarioRunOptions ref = faultFreeReference(options);  // as referenceOf without restarts
  ref.skipExpectations = true;                           // as exactly_once's reference
  return ref;
}

std::shared_ptr<const FaultFreeRun> runFaultFree(const Scenario& scenario, const ScenarioRunOptions& underPlan) {
  auto run = std::make_shared<FaultFreeRun>();
  run->scenario = &scenario;
  run->options = faultFreeReferenceOf(underPlan);
  run->options.recordReach = true;
  run->result = runScenario(scenario, run->options);
  return run;
}

namespace {

bool hasStep(const Scenario& sc, auto isKind) {
  return std::any_of(sc.steps.begin(), sc.steps.end(), [&](const Step& st) { return isKind(st.step); });
}

bool noFaults(const std::optional<sim::FaultPlan>& plan) { return !plan || plan->faults.empty(); }

}  // namespace

bool sameRun(const Scenario* madeOf, const ScenarioRunOptions& madeWith, const ScenarioRunResult& made,
             const Scenario& scenario, const ScenarioRunOptions& asked) {
  // Every field of ScenarioRunOptions that can change a run belongs here (keepDir is read only with
  // a keepFs; faultFreeRun only by the oracles, which `asked` runs none of; parsedFiles changes no
  // run, only what a file's second read costs).
  const ScenarioRunOptions& a = madeWith;
  const ScenarioRunOptions& b = asked;
  if (madeOf != &scenario || b.applyOracles || a.keepFs != nullptr || b.keepFs != nullptr) return false;
  if (a.seed != b.seed || a.collectState != b.collectState || a.traceOutputRows != b.traceOutputRows ||
      a.hashSeed != b.hashSeed || a.pandasChunkRows != b.pandasChunkRows || a.processors != b.processors)
    return false;
  if (a.recordReach != b.recordReach && !(a.recordReach && made.reach.switches.empty())) return false;
  if (a.noDataBatchBeforeFirstBatchOfRun != b.noDataBatchBeforeFirstBatchOfRun &&
      (a.noDataBatchBeforeFirstBatchOfRun || made.trace.empty() ||
       traceMayHaveEvents(made.trace, events::kNoDataBatchWithheld)))
    return false;
  const bool expects = hasStep(scenario, [](const StepVariant& v) { return std::holds_alternative<ExpectStep>(v); });
  if ((a.skipExpectations != b.skipExpectations || a.collectActual != b.collectActual) && expects) return false;
  const bool crashes = hasStep(scenario, [](const StepVariant& v) { return std::holds_alternative<CrashStep>(v); });
  if (a.skipCrashSteps != b.skipCrashSteps && crashes) return false;
  if (a.faultPlan != b.faultPlan) {
    const bool supervised = scenario.hooks && scenario.hooks->restartOnFailure;
    if (!noFaults(a.faultPlan) || !noFaults(b.faultPlan) || (a.faultPlan.has_value() != b.faultPlan.has_value() && !supervised))
      return false;
  }
  if (a.applyOracles) {
    // The judged run: its restart judgement re-ran it without expectations (the options say so),
    // and an unfired armed crash under faults was settled by a run with its options.
    if (!made.judgedAgainstRestartReference.empty() && !a.skipExpectations) return false;
    if (!noFaults(a.faultPlan) && !made.unfiredArmedCrashes.empty()) return false;
  }
  return true;
}

bool sameFaultFreeRun(const FaultFreeRun& run, const Scenario& scenario, const ScenarioRunOptions& reference) {
  return !run.options.applyOracles && sameRun(run.scenario, run.options, run.result, scenario, reference);
}

bool ScenarioOracleRun::named(std::string_view oracle) const {
  return std::find(names.begin(), names.end(), oracle) != names.end();
}

}  // namespace streamsim::harness
