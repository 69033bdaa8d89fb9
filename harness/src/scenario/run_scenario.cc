// The scenario runner (scenario_runner.h): one run of the scenario (runner.h), judged against
// its reference with the same restarts when a clean restart's withheld no-data batch changed an
// expectation, then the scenario's oracles applied (oracles/table.h) with the extra runs each
// needs (reference, mode and restart equivalence, sequential, logic oracles).
#include "streamsim/harness/scenario_runner.h"

#include <algorithm>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "scenario/runner.h"
#include "scenario/sink_views.h"
#include "streamsim/fault_points.h"
#include "streamsim/harness/committed_state.h"
#include "streamsim/harness/oracles/not_checked.h"
#include "streamsim/harness/oracles/partitioning.h"
#include "streamsim/harness/oracles/promises.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/oracles/scenario_variants.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/clean_restarts.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/io/json_rows.h"
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

// Whether one of the scenario's async processors declares its results order-dependent
// (AsyncStatefulProcessor::orderDependent): the interleaving oracle then does not apply.
bool orderDependent(const Scenario& sc) {
  for (const auto& op : sc.query.operators) {
    auto* t = std::get_if<TransformWithStateOp>(&op.op);
    if (t == nullptr) continue;
    std::unique_ptr<StatefulProcessor> p;
    if (!t->pythonFile.empty()) {  // a Python class says so with `orderDependent = True`
      auto f = loadPythonProcessor({t->pythonFile, t->pythonClass, t->outputStructType, t->inPandas, {},
                                    t->pythonCallLimitMs, 0, t->timeMode});
      if (f.ok()) p = (*f)();
    } else if (auto r = ProcessorRegistry::create(t->processor); r.ok()) {
      p = std::move(*r);
    }
    if (auto* a = dynamic_cast<streamsim::detail::AsyncProcessorAdapter*>(p.get()); a && a->processor().orderDependent())
      return true;
  }
  return false;
}

// The input rows in arrival order (put and add_rows steps; half-written files left out) as
// events for the watermark oracle: id from `event_id` (else the arrival index), event time
// from the watermark column.
std::vector<sim::Event> arrivals(const Scenario& sc, const std::string& column) {
  std::vector<sim::Event> out;
  const Schema* schema = !sc.query.sources.empty() && sc.query.sources[0].schema
                             ? sc.query.sources[0].schema.get()
                             : nullptr;
  auto addRow = [&](const Row& r) {
    int t = r.schema()->indexOf(column);
    if (t < 0 || r[static_cast<size_t>(t)].isNull()) return;
    Value time = r[static_cast<size_t>(t)];
    if (time.type() != Type::kTimestamp) {
      auto cast = time.castTo(Type::kTimestamp);
      if (!cast.ok()) return;
      time = *cast;
    }
    sim::Event e;
    int id = r.schema()->indexOf("event_id");
    e.eventId = id >= 0 ? r[static_cast<size_t>(id)].toString() : std::to_string(out.size());
    e.eventTime = time.asLong();
    out.push_back(std::move(e));
  };
  auto add = [&](const std::vector<RowSpec>& rows) {
    for (const auto& spec : rows) {
      Row r = spec.toRow();
      if (schema) {
        auto typed = spec.toRow(*schema);
        if (typed.ok()) r = *typed;
      }
      addRow(r);
    }
  };
  auto addText = [&](const std::string& text) {  // a file's JSON lines
    if (schema == nullptr) return;
    JsonReadOptions lenient;
    lenient.mode = ParseMode::kDropMalformed;
    auto rows = parseJsonLines(text, sc.query.sources[0].schema, lenient);
    if (rows.ok())
      for (const Row& r : *rows) addRow(r);
  };
  for (const auto& step : sc.steps) {
    if (auto* p = std::get_if<PutStep>(&step.step)) {
      add(p->rows);
      if (p->text) addText(*p->text);  // a file put as text
    }
    if (auto* a = std::get_if<AddRowsStep>(&step.step)) add(a->rows);
  }
  // A generated workload's files (ScenarioHooks::landing), in landing order, each once, without
  // the files written half (they may be read cut).
  if (sc.hooks) {
    std::set<int64_t> half, done;
    for (const auto& a : sc.hooks->landing)
      if (a.kind == sim::LandingActionKind::kPutPartial) half.insert(a.file);
    for (const auto& a : sc.hooks->landing)
      if (a.kind == sim::LandingActionKind::kPut && a.file >= 0 && !half.count(a.file) && done.insert(a.file).second)
        addText(a.content);
  }
  return out;
}

// What the logic oracles (oracles/logic.h) compare a run with: timer_bound's bound,
// process_isolation's run after another seed's, batch_split's one-batch variant.
void addLogicOracleInputs(const Scenario& sc, const ScenarioRunOptions& quiet, OracleInput& in,
                          int& runs) {
  in.timerBound = sc.timerBound;
  in.againAfterOther = [&sc, quiet, &runs]() -> RunOutcome {
    ScenarioRunOptions other = quiet;  // another seed, without the fault plan
    other.seed = quiet.seed + 1;
    other.skipExpectations = true;
    other.faultPlan.reset();
    runScenario(sc, other);
    runs += 2;
    return runScenario(sc, quiet);
  };
  in.againInFreshRegistry = [&sc, quiet, &runs]() -> RunOutcome {
    ProcessorRegistry::FreshScope fresh;  // new factories for this run
    ++runs;
    return runScenario(sc, quiet);
  };
  in.keyColumns = finalGroupBy(sc);
  if (std::find(sc.oracles.begin(), sc.oracles.end(), "batch_split") == sc.oracles.end()) return;
  // The cut varies by seed (its stream "batch_cut"; a plain run, seed 0: all input in one batch),
  // so a replay line's --seed reproduces it. A generated workload's: its files landing at another
  // interval (ScenarioHooks::batchCut), for every seed.
  Result<Scenario> cut = sc;
  if (sc.hooks && sc.hooks->batchCut) {
    cut = sc.hooks->batchCut(quiet.seed, &in.batchCut);
    if (!cut.ok()) in.batchCut = "no other cut: " + cut.status().message();
  } else {
    cut = quiet.seed == 0 ? oneBatchScenario(sc)
                          : cutScenario(sc, sim::Random(quiet.seed).split("batch_cut"), &in.batchCut);
    if (quiet.seed == 0) in.batchCut = "all input in one batch";
  }
  in.batchCut += fmt::format(" (the cut of seed {})", quiet.seed);
  // No cut (an error said in batchCut): no rows, which the oracle reports against the run's.
  auto variant = cut.ok() ? std::make_shared<Scenario>(std::move(*cut)) : nullptr;
  in.batchSplit = [&sc, quiet, &runs, variant] {
    ScenarioRunOptions plain = quiet;  // fault-free: the cut is what differs
    plain.skipExpectations = true;
    plain.skipCrashSteps = true;
    plain.faultPlan.reset();
    runs += 2;
    return std::make_pair(variant ? runScenario(*variant, plain).sinkRows : std::vector<Row>{},
                          runScenario(sc, plain).sinkRows);
  };
}

// The scenario run to the end of its log in real-time mode (realTime) or micro-batch mode (a
// processingTime trigger of the real-time batch duration), on RocksDB: its steps, then the
// clock moved past every produced record and everything available processed.
Scenario drainedIn(const Scenario& sc, bool realTime) {
  Scenario s = sc;
  const DurationMs d = sc.query.trigger.kind == TriggerSpec::Kind::kRealTime ||
                               sc.query.trigger.kind == TriggerSpec::Kind::kProcessingTime
                           ? std::max<DurationMs>(sc.query.trigger.intervalMs, kDefaultRealTimeMinBatchMs)
                           : kDefaultRealTimeBatchMs;
  s.query.trigger.kind = realTime ? TriggerSpec::Kind::kRealTime : TriggerSpec::Kind::kProcessingTime;
  s.query.trigger.intervalMs = d;
  s.query.outputMode = "update";
  s.query.stateStore = "rocksdb";
  s.query.stateStoreSet = true;
  TimeMs last = sc.start;
  for (const auto& step : sc.steps)
    if (auto* p = std::get_if<ProduceStep>(&step.step))
      for (const auto& r : p->records) last = std::max(last, r.at.value_or(p->at.value_or(last)));
  Step advance;
  advance.step = AdvanceStep{last - sc.start + d, std::nullopt};
  s.steps.push_back(advance);
  Step run;
  run.step = RunStep{};
  s.steps.push_back(run);
  s.oracles.clear();
  return s;
}

// mode_equivalence's input: the scenario drained in micro-batch and in real-time mode over the
// same log (no faults, no crash steps), their final state without timers and their last output
// per key: per transformWithState grouping key (the key each call was for, from the trace) when
// the query has one, else per output key (a window aggregation's groupBy and window, which Spark
// puts in its output) or the whole output. An error when either run fails.
Result<OracleInput::ModeRuns> modeRuns(const Scenario& sc, const ScenarioRunOptions& quiet) {
  ScenarioRunOptions o = quiet;
  o.skipExpectations = true;
  o.skipCrashSteps = true;
  o.faultPlan.reset();
  o.collectState = true;
  o.traceOutputRows = true;
  ScenarioRunResult mb = runScenario(drainedIn(sc, false), o);
  ScenarioRunResult rt = runScenario(drainedIn(sc, true), o);
  for (auto* run : {&mb, &rt})
    if (!run->passed())
      return Status::FailedPrecondition(fmt::format(
          "the {} run failed:\n{}", run == &mb ? "micro-batch" : "real-time", run->report()));
  OracleInput::ModeRuns m;
  m.microBatchState = std::move(mb.committedState);
  m.realTimeState = std::move(rt.committedState);
  if (!finalGroupBy(sc).empty()) {
    m.keyColumns = {"grouping key"};
    m.microBatchLast = lastOutputPerGroupingKey(mb.trace);
    m.realTimeLast = lastOutputPerGroupingKey(rt.trace);
    return m;
  }
  m.keyColumns = outputKeys(sc);
  m.microBatchLast = latestPerKey(mb.sinkRows, m.keyColumns);
  m.realTimeLast = latestPerKey(rt.sinkRows, m.keyColumns);
  return m;
}

// restart_equivalence's runs: the scenario (its expectations skipped, the seed's plan left out)
// restarted cleanly right after each committed batch — every other restart after 90 s of
// downtime — and the scenario down as long at the same batches without restarting; both with a
// no-data batch allowed right after a restart (not Spark's rule: the one visible effect of a clean
// restart that is Spark's, not the processor's).
Result<RestartRuns> restartRuns(const Scenario& sc, const ScenarioRunOptions& quiet) {
  constexpr int64_t kBoundaries = 64;
  constexpr DurationMs kDowntime = 90'000;
  ScenarioRunOptions o = quiet;
  o.applyOracles = false;
  o.skipExpectations = true;
  o.collectState = true;
  o.noDataBatchBeforeFirstBatchOfRun = true;
  o.faultPlan = sim::FaultPlan{};
  for (int64_t b = 0; b < kBoundaries; ++b)
    o.faultPlan->faults.push_back(
        sim::CrashFault{std::string(faults::kCommitsAfterWrite), b, -1, 1, b % 2 == 1 ? kDowntime : 0});
  ScenarioRunResult restarted = runScenario(sc, o);
  o.faultPlan = sim::FaultPlan{};
  for (const sim::DowntimeFault& d : downtimeWithoutRestarts(restarted.trace)) o.faultPlan->faults.push_back(d);
  ScenarioRunResult paused = runScenario(sc, o);
  for (auto* run : {&restarted, &paused})
    if (!run->passed())
      return Status::FailedPrecondition(fmt::format(
          "the run {} failed:\n{}", run == &restarted ? "restarted after each batch" : "without the restarts",
          run->report()));
  RestartRuns out;
  out.restartedSink = std::move(restarted.sinkRows);
  out.pausedSink = std::move(paused.sinkRows);
  out.restartedState = std::move(restarted.committedState);
  out.pausedState = std::move(paused.committedState);
  out.restarts = restarted.restarts;
  return out;
}

// The fault-free reference of a run with `options`: the scenario without the plan's faults (a
// plain run's also without its own crash steps).
ScenarioRunOptions faultFreeReference(const ScenarioRunOptions& options) {
  ScenarioRunOptions ref = options;
  ref.applyOracles = false;
  ref.collectActual = false;
  ref.keepFs = nullptr;
  ref.recordReach = false;
  ref.skipCrashSteps = !options.faultPlan;
  ref.faultPlan.reset();
  ref.faultFreeRun.reset();
  return ref;
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

std::string batchList(const std::vector<int64_t>& batches) {
  std::string out;
  for (int64_t b : batches) out += (out.empty() ? "" : ", ") + std::to_string(b);
  return out;
}

// Restart transparency, for a faulted run whose reference took clean restarts (referenceOf): both
// would show a processor that loses something on a restart, so the restarts are also checked
// without Spark's withholding rule (noDataBatchBeforeFirstBatchOfRun): the plan's run and the
// fault-free run, both under that rule, must give the same sink (as they did before the rule).
// The exactly_once violation's text when they do not.
std::optional<std::string> restartTransparencyBreach(const Scenario& sc, const ScenarioRunOptions& quiet,
                                                     std::string_view sinkKind, int& runs) {
  ScenarioRunOptions faulted = quiet;
  faulted.applyOracles = false;
  faulted.skipExpectations = true;
  faulted.noDataBatchBeforeFirstBatchOfRun = true;
  ScenarioRunOptions plain = faultFreeReference(faulted);
  ScenarioRunResult t = runScenario(sc, faulted);
  // The plan's downtime stays (the clock moved on): the fault-free run takes it too.
  if (sim::FaultPlan down = withSameRestarts(sim::FaultPlan{}, t.trace, /*cleanRestarts=*/false); !down.faults.empty())
    plain.faultPlan = std::move(down);
  ScenarioRunResult b = runScenario(sc, plain);
  runs += 2;
  const char* rule = "with a no-data batch allowed before a run's first batch (not Spark's rule)";
  if (!b.passed()) return fmt::format("the fault-free run {} failed:\n{}", rule, b.report());
  if (!t.passed()) return fmt::format("the run under the plan {} failed:\n{}", rule, t.report());
  if (auto v = checkExactlyOnce(b.sinkRows, t.sinkRows, t.sinkBatchOf, sinkKind))
    return fmt::format("a restart changed the processor's output: {}, the run under the plan differs from the "
                       "fault-free run: {}", rule, v->message);
  return std::nullopt;
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

// Whether hash_seed applies: a Python processor, a scenario file the worker can load (not a
// scenario a program built with hooks, as a generated workload's), a CLI to start it with.
bool runsWithHashSeedOracle(const Scenario& sc) {
  return !sc.file.empty() && !sc.hooks && scenarioRunsPython(sc) && !pythonCliPath().empty();
}

// The outputStructType of the query's last transformWithState ("" when none or not given): a
// Python reference's rows are cast to it.
std::string lastOutputStructType(const Scenario& sc) {
  std::string ddl;
  for (const auto& op : sc.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) ddl = t->outputStructType;
  return ddl;
}

// Whether pandas_chunks applies: a transformWithStateInPandas processor in the query.
bool runsPandas(const Scenario& sc) {
  for (const auto& op : sc.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op); t && !t->pythonFile.empty() && t->inPandas) return true;
  return false;
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
  in.reference = [&]() -> Result<std::vector<Row>> {
    // A sweep's reference is the fault-free run of the scenario (its own crashes kept); a plain
    // run's is the scenario without its crash steps; both restart where the run restarted cleanly
    // and had a no-data batch withheld.
    ScenarioRunOptions ref = referenceOf(quiet, r);
    ref.skipExpectations = true;
    if (options.faultPlan && ref.faultPlan)
      if (auto breach = restartTransparencyBreach(sc, quiet, in.sinkKind, r.oracleRuns))
        return Status::FailedPrecondition(*breach);
    // A sweep seed's fault-free run, when it is this very run (sameFaultFreeRun), is not run again.
    const FaultFreeRun* same = options.faultFreeRun.get();
    if (same == nullptr || given == nullptr || !sameFaultFreeRun(*same, *given, ref)) same = nullptr;
    ScenarioRunResult ran;
    if (same == nullptr) {
      ran = runScenario(sc, ref);
      ++r.oracleRuns;
    } else {
      r.referenceFromFaultFreeRun = true;
    }
    const ScenarioRunResult& expected = same != nullptr ? same->result : ran;
    if (!expected.passed())
      return Status::FailedPrecondition("the reference run (without faults) failed:\n" + expected.report());
    return expected.sinkRows;
  };
  for (const auto& op : sc.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op); t && t->timeMode == "EventTime")
      in.timerClock = TimerClock::kEventTime;
  const WatermarkOp* wm = nullptr;
  for (const auto& op : sc.query.operators)
    if (auto* w = std::get_if<WatermarkOp>(&op.op)) wm = w;
  if (wm) {
    in.watermarkDelay = wm->delayMs;
    in.arrivals = [&sc, wm] { return arrivals(sc, wm->column); };
  }
  in.stateBound = sc.stateBound;
  in.stateBoundPerKey = sc.stateBoundPerKey;
  in.stateRowsPerKey = [&]() -> Result<std::map<std::string, int64_t>> { return r.stateRowsPerKey; };
  if (sc.hooks && sc.hooks->reference) {  // a C++ program's function (scenario_hooks.h)
    in.referenceViews = [&]() -> Result<ReferenceViews> {
      if (!r.delivered) return Status::FailedPrecondition("reference: the run recorded no source rows");
      ReferenceViews views;
      views.name = sc.hooks->referenceName;
      views.expected = sc.hooks->reference(r.delivered->input(sc.query.sources.size(), sc.hooks->referenceKeys));
      views.actual = sc.query.outputMode == "update" ? latestPerKey(r.sinkRows, sc.hooks->referenceKeys) : r.sinkRows;
      return views;
    };
  } else if (!sc.reference.empty()) {
    in.referenceViews = [&]() -> Result<ReferenceViews> {
      if (!r.delivered) return Status::FailedPrecondition("reference: the run recorded no source rows");
      ReferenceViews views;
      views.name = sc.reference;
      const ReferenceInput input = r.delivered->input(sc.query.sources.size(), finalGroupBy(sc));
      if (auto py = splitPythonReference(sc.reference)) {  // file.py:function
        STREAMSIM_ASSIGN_OR_RETURN(PythonReference fn,
                                   loadPythonReference({py->first, py->second, lastOutputStructType(sc)}));
        STREAMSIM_ASSIGN_OR_RETURN(views.expected, fn(input.rows));
      } else {
        STREAMSIM_ASSIGN_OR_RETURN(ReferenceFunction f, ReferenceRegistry::function(sc.reference));
        views.expected = f(input);
      }
      std::vector<std::string> keys = ReferenceRegistry::keyColumns(sc.reference);
      if (keys.empty()) keys = outputKeys(sc);
      views.actual = sc.query.outputMode == "update" ? latestPerKey(r.sinkRows, keys) : r.sinkRows;
      return views;
    };
  }
  in.latencyBound = sc.latencyBound;
  in.modeRuns = [&]() -> Result<OracleInput::ModeRuns> {
    r.oracleRuns += 2;
    return modeRuns(sc, quiet);
  };
  in.again = [&]() -> RunOutcome {
    ++r.oracleRuns;
    return runScenario(sc, quiet);
  };
  addLogicOracleInputs(sc, quiet, in, r.oracleRuns);
  in.restartRuns = [&]() -> Result<RestartRuns> {
    r.oracleRuns += 2;
    return restartRuns(sc, quiet);
  };
  if (options.faultPlan && !options.faultPlan->switches().empty() && !orderDependent(sc)) {
    in.sequential = [&]() -> std::optional<OracleInput::Sequential> {
      // The same plan without its context switches.
      ScenarioRunOptions seq = quiet;
      seq.skipExpectations = true;
      seq.faultPlan->faults.clear();
      for (const sim::Fault& f : options.faultPlan->faults)
        if (!std::holds_alternative<sim::SwitchFault>(f)) seq.faultPlan->faults.push_back(f);
      ScenarioRunResult sequential = runScenario(sc, seq);
      ++r.oracleRuns;
      if (!sequential.setupError.ok() || !sequential.failures.empty()) return std::nullopt;
      return OracleInput::Sequential{std::move(sequential.sinkRows), std::move(sequential.committedState)};
    };
  }
  if (runsWithHashSeedOracle(sc)) {
    in.hashSeedRuns = [&]() -> Result<VariantSinks> {
      const uint32_t other = options.hashSeed.value_or(pythonHashSeedOf(options.seed));
      VariantSinks runs;
      runs.here = fmt::format("Python hash seed {}", interpreterHashSeed());
      runs.other = fmt::format("hash seed {}", other);
      STREAMSIM_ASSIGN_OR_RETURN(runs.hereRows, variantSink(sc, options.seed));
      STREAMSIM_ASSIGN_OR_RETURN(runs.otherRows, sinkUnderHashSeed(pythonCliPath(), sc.file, options.seed, other));
      r.oracleRuns += 2;
      return runs;
    };
  }
  if (runsPandas(sc)) {
    in.pandasChunkRuns = [&]() -> Result<std::optional<VariantSinks>> {
      const int64_t max = arrowMaxRecordsPerBatch(sc.query.conf);
      const int64_t chunk = options.pandasChunkRows.value_or(pandasChunkRowsOf(options.seed, max));
      if (chunk >= max) return std::optional<VariantSinks>();
      VariantSinks runs;
      runs.here = fmt::format("DataFrames of at most {} rows (the seed's)", chunk);
      runs.other = fmt::format("at most {} (spark.sql.execution.arrow.maxRecordsPerBatch)", max);
      STREAMSIM_ASSIGN_OR_RETURN(runs.hereRows, variantSink(sc, options.seed, chunk));
      STREAMSIM_ASSIGN_OR_RETURN(runs.otherRows, variantSink(sc, options.seed, max));
      r.oracleRuns += 2;
      return std::optional<VariantSinks>(std::move(runs));
    };
  }
  in.partitioningRuns = [&]() -> Result<std::optional<VariantSinks>> {
    if (orderDependent(sc)) return std::optional<VariantSinks>();
    r.oracleRuns += 2;
    return partitioningRuns(sc, options.seed);
  };
  // The oracles sound for every scenario of its kind run unnamed (oracles/not_checked.h); hash_seed
  // and pandas_chunks wherever their runs can be made.
  // An async processor that declares its results order-dependent differs from the fault-free run
  // under a plan's context switches by its own declaration: exactly_once is not its default then.
  const bool comparableUnderPlan =
      options.faultPlan && (options.faultPlan->switches().empty() || !orderDependent(sc));
  std::vector<std::string> names = defaultOracles(sc, comparableUnderPlan);
  if (in.hashSeedRuns) names.push_back("hash_seed");
  if (in.pandasChunkRuns) names.push_back("pandas_chunks");
  for (const auto& o : sc.oracles)
    if ((o != "state_bound" || sc.stateBound || sc.stateBoundPerKey) && (o != "timer_bound" || sc.timerBound))
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

bool sameFaultFreeRun(const FaultFreeRun& run, const Scenario& scenario, const ScenarioRunOptions& reference) {
  // Every field of ScenarioRunOptions that can change a run's sink or its passing belongs here
  // (keepDir is read only with a keepFs; faultFreeRun only by the oracles, which neither runs).
  const ScenarioRunOptions& a = run.options;
  const ScenarioRunOptions& b = reference;
  const bool recordingChangedNothing = a.recordReach == b.recordReach || run.result.reach.switches.empty();
  return run.scenario == &scenario && a.seed == b.seed && a.faultPlan == b.faultPlan &&
         a.collectActual == b.collectActual && !a.applyOracles && !b.applyOracles &&
         a.skipExpectations == b.skipExpectations && a.skipCrashSteps == b.skipCrashSteps && a.keepFs == nullptr &&
         b.keepFs == nullptr && recordingChangedNothing && a.collectState == b.collectState &&
         a.noDataBatchBeforeFirstBatchOfRun == b.noDataBatchBeforeFirstBatchOfRun &&
         a.traceOutputRows == b.traceOutputRows && a.hashSeed == b.hashSeed && a.pandasChunkRows == b.pandasChunkRows;
}

}  // namespace streamsim::harness
