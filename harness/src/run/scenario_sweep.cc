// Scenario sweeps: plans, runs, shrinks, reproduce lines and totals (run/scenario_sweep.h).
#include "streamsim/harness/run/scenario_sweep.h"

#include <cinttypes>
#include <chrono>
#include <cstdio>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "streamsim/harness/run/pool.h"
#include "streamsim/harness/run/shell_quote.h"
#include "streamsim/sim/random.h"

namespace streamsim::harness {
sim::Reach scenarioReach(const Scenario& scenario) {
  ScenarioRunOptions o;
  o.faultPlan = sim::FaultPlan{};  // a sweep's fault-free run: the scenario's own crashes kept
  o.applyOracles = false;
  o.skipExpectations = true;
  o.recordReach = true;
  return runScenario(scenario, o).reach;
}

sim::FaultPlan scenarioPlan(const Scenario& scenario, uint64_t seed, const sim::Reach& reach) {
  if (reach.crashes.empty() && reach.switches.empty()) {
    sim::FaultPlan none;  // nothing the run passes: no fault could fire
    none.seed = seed;
    return none;
  }
  sim::FaultKnobs knobs = sweepKnobs(scenario);
  if (!reach.crashes.empty()) {
    knobs.targets = reach.crashes;
    knobs.minCrashes = 1;
  }
  knobs.switchTargets = reach.switches;
  sim::FaultPlan plan = sim::generateFaultPlan(sim::Random(seed), knobs);
  plan.seed = seed;
  return plan;
}

ScenarioRunResult runScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  FileSystem* keepFs, const std::string& keepDir) {
  ScenarioRunOptions o;
  o.seed = seed;
  o.faultPlan = plan;
  o.keepFs = keepFs;
  o.keepDir = keepDir;
  return runScenario(scenario, o);
}

int sweepSeeds(const Scenario& scenario, int seeds) {
  return seeds > 0 ? seeds : (scenario.sweep ? scenario.sweep->seeds : 100);
}

FailureKind failureKind(const ScenarioRunResult& r) {
  FailureKind k;
  if (!r.setupError.ok()) k.addError();
  for (const auto& f : r.failures) k.addExpectation(f.where.file, f.where.line);
  k.addViolations(r.violations);
  return k;
}

std::string ScenarioShrunk::summary() const {
  return fmt::format("{} fault{} (of {}), {} shrink run{}", plan.faults.size(),
                     plan.faults.size() == 1 ? "" : "s", originalFaults, runs, runs == 1 ? "" : "s");
}

ScenarioShrunk shrinkScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  const ScenarioRunResult& failing, int maxRuns) {
  const FailureKind kind = failureKind(failing);
  ScenarioShrunk out;
  out.originalFaults = plan.faults.size();
  auto toPlan = [&](const ShrinkCase& c) {
    sim::FaultPlan p = plan;  // the seed stays: torn byte counts and ids are the failing run's
    p.faults = c.faults;
    return p;
  };
  ShrinkCase start;
  start.faults = plan.faults;
  ShrinkResult found = shrinkFailure(
      start, [&](const ShrinkCase& c) { return failureKind(runScenarioSeed(scenario, seed, toPlan(c))).sharedWith(kind); },
      maxRuns);
  out.plan = toPlan(found.minimal);
  out.runs = found.runs;
  out.result = runScenarioSeed(scenario, seed, out.plan);
  return out;
}

std::string scenarioReplayLine(const std::string& program, const std::string& file, uint64_t seed,
                               const sim::FaultPlan& plan, const std::string& stateStore) {
  return fmt::format("{} replay {} --seed {}{} --plan {}", program, file, seed,
                     stateStore.empty() ? "" : " --state-store " + stateStore, shellQuote(plan.toJson()));
}

nlohmann::json ScenarioSeedOutcome::toJson(const Scenario& sc) const {
  nlohmann::json r = {{"file", sc.file},     {"name", sc.name},           {"seed", seed},
                      {"passed", passed},    {"traceHash", traceHash},    {"plan", plan},
                      {"crashes", crashes},  {"restarts", restarts},      {"oracleChecks", oracleChecks},
                      {"downtimeMs", downtimeMs},
                      {"seconds", seconds},  {"faults", faults.toJson()},
                      {"stateStore", sc.query.stateStore}};
  if (!judgedAgainstRestartReference.empty()) r["judgedAgainstRestartReference"] = judgedAgainstRestartReference;
  if (!passed) {
    r["kind"] = kind.toString();
    r["failure"] = report;
    r["replay"] = replay;
    if (shrunk) {
      r["shrunkPlan"] = shrunk->plan.toJson();
      r["shrunkSummary"] = shrunk->summary();
      r["shrunkTraceHash"] = shrunk->result.traceHash;
    }
  }
  return r;
}

std::string SweepTotals::line() const {
  std::string kinds, points;
  int64_t fired = 0;
  for (const auto& [k, n] : firedByKind) {
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", k, n);
    fired += n;
  }
  for (const auto& [p, n] : firedByPoint) points += fmt::format("{}{} {}", points.empty() ? "" : ", ", p, n);
  auto percent = [](size_t n, size_t of) { return of ? 100.0 * static_cast<double>(n) / static_cast<double>(of) : 0.0; };
  return fmt::format(
      "TOTAL {} {}: {} scenario{}, {} seeds, {} runs, {} oracle checks, {} violation{}; faults fired {} "
      "({}{}{}) in {:.1f}% of seeds ({:.1f}% of the {} with a planned fault), {} crashes, {} restarts, downtime in {} seed{} ({}); judged against the "
      "restart reference: {}; {:.1f} s",
      failed ? "FAIL" : "PASS", failed ? fmt::format("({} failed)", failed) : std::string("(0 failed)"),
      scenarios, scenarios == 1 ? "" : "s", seeds, runs, oracleChecks, violations, violations == 1 ? "" : "s",
      fired, kinds.empty() ? "none" : kinds, points.empty() ? "" : "; ", points,
      percent(seedsWhoseFaultsFired, seeds), percent(seedsWhoseFaultsFired, seedsWithFaults), seedsWithFaults,
      crashes, restarts,
      seedsWithDowntime, seedsWithDowntime == 1 ? "" : "s",
      fmt::format("{:.1f} h virtual", static_cast<double>(downtimeMs) / 3'600'000.0),
      judgedAgainstRestartReference, seconds);
}

nlohmann::json SweepTotals::toJson() const {
  return {{"scenarios", scenarios},
          {"seeds", seeds},
          {"runs", runs},
          {"failed", failed},
          {"violations", violations},
          {"oracleChecks", oracleChecks},
          {"seedsWithFaults", seedsWithFaults},
          {"seedsWhoseFaultsFired", seedsWhoseFaultsFired},
          {"judgedAgainstRestartReference", judgedAgainstRestartReference},
          {"seedsWithDowntime", seedsWithDowntime},
          {"downtimeMs", downtimeMs},
          {"crashes", crashes},
          {"restarts", restarts},
          {"firedByKind", firedByKind},
          {"firedByPoint", firedByPoint},
          {"seconds", seconds}};
}

namespace {

// One seed of a sweep: its plan, run, and when it fails its shrink and replay line. `runs`: the
// runs it took (its own, the oracles', the shrink's).
ScenarioSeedOutcome runSweepSeed(const Scenario& sc, size_t scenario, uint64_t seed,
                                 const sim::Reach& reach,
                                 const ScenarioSweepOptions& options, int& runs) {
  const auto s0 = std::chrono::steady_clock::now();
  ScenarioSeedOutcome o;
  o.scenario = scenario;
  o.seed = seed;
  sim::FaultPlan plan = scenarioPlan(sc, o.seed, reach);
  o.plan = plan.toJson();
  ScenarioRunResult r = runScenarioSeed(sc, o.seed, plan);
  o.traceHash = r.traceHash;
  o.faults = r.faults;
  o.crashes = r.crashes;
  o.restarts = r.restarts;
  o.downtimeMs = r.downtimeMs;
  o.oracleChecks = r.oracleChecks;
  o.violations = static_cast<int>(r.violations.size());
  o.judgedAgainstRestartReference = r.judgedAgainstRestartReference;
  runs = 1 + r.oracleRuns;
  if (!r.setupError.ok()) {
    o.passed = false;
    o.setupError = true;
    o.kind = failureKind(r);
    o.report = r.setupError.message();
    o.replay = scenarioReplayLine(options.program, sc.file, o.seed, plan, options.stateStore);
  } else if (!r.passed()) {
    o.passed = false;
    o.kind = failureKind(r);
    o.report = r.report();
    o.replay = scenarioReplayLine(options.program, sc.file, o.seed, plan, options.stateStore);
    if (options.shrink) {
      o.shrunk = shrinkScenarioSeed(sc, o.seed, plan, r, options.shrinkMaxRuns);
      runs += o.shrunk->runs + 1;
      if (!o.shrunk->result.passed()) o.report = o.shrunk->result.report();
      o.replay = scenarioReplayLine(options.program, sc.file, o.seed, o.shrunk->plan, options.stateStore);
    }
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
  return o;
}

bool runsPython(const QuerySpec& q) {
  for (const OperatorSpec& op : q.operators)
    if (const auto* t = std::get_if<TransformWithStateOp>(&op.op); t != nullptr && !t->pythonFile.empty())
      return true;
  return false;
}

nlohmann::json firedToWire(const FiredFault& f) {
  return {{"kind", f.kind}, {"point", f.point}, {"batch", f.batch}, {"partition", f.partition},
          {"planned", f.planned}};
}

}  // namespace

bool scenarioRunsPython(const Scenario& scenario) {
  if (runsPython(scenario.query)) return true;
  for (const Step& step : scenario.steps)
    if (const auto* r = std::get_if<RestartStep>(&step.step); r != nullptr && r->query && runsPython(*r->query))
      return true;
  return false;
}

nlohmann::json ScenarioSeedOutcome::toWire(int runs) const {
  nlohmann::json fired = nlohmann::json::array();
  for (const FiredFault& f : faults.fired) fired.push_back(firedToWire(f));
  nlohmann::json w = {{"scenario", scenario},
                      {"seed", seed},
                      {"passed", passed},
                      {"setupError", setupError},
                      {"traceHash", traceHash},
                      {"plan", plan},
                      {"report", report},
                      {"kind", kind.keys},
                      {"replay", replay},
                      {"faultPlan", faults.plan.toJson()},
                      {"planFired", faults.planFired},
                      {"fired", fired},
                      {"crashes", crashes},
                      {"restarts", restarts},
                      {"downtimeMs", downtimeMs},
                      {"oracleChecks", oracleChecks},
                      {"violations", violations},
                      {"judged", judgedAgainstRestartReference},
                      {"seconds", seconds},
                      {"runs", runs}};
  if (shrunk)
    w["shrunk"] = {{"plan", shrunk->plan.toJson()},
                   {"originalFaults", shrunk->originalFaults},
                   {"runs", shrunk->runs},
                   {"traceHash", shrunk->result.traceHash}};
  return w;
}

Result<ScenarioSeedOutcome> ScenarioSeedOutcome::fromWire(const nlohmann::json& w, int& runs) {
  try {
    ScenarioSeedOutcome o;
    o.scenario = w.at("scenario").get<size_t>();
    o.seed = w.at("seed").get<uint64_t>();
    o.passed = w.at("passed").get<bool>();
    o.setupError = w.at("setupError").get<bool>();
    o.traceHash = w.at("traceHash").get<std::string>();
    o.plan = w.at("plan").get<std::string>();
    o.report = w.at("report").get<std::string>();
    o.kind.keys = w.at("kind").get<std::set<std::string>>();
    o.replay = w.at("replay").get<std::string>();
    STREAMSIM_ASSIGN_OR_RETURN(o.faults.plan, sim::FaultPlan::fromJson(w.at("faultPlan").get<std::string>()));
    o.faults.planFired = w.at("planFired").get<std::vector<int>>();
    for (const auto& f : w.at("fired")) {
      FiredFault ff;
      ff.kind = f.at("kind").get<std::string>();
      ff.point = f.at("point").get<std::string>();
      ff.batch = f.at("batch").get<int64_t>();
      ff.partition = f.at("partition").get<int>();
      ff.planned = f.at("planned").get<bool>();
      o.faults.fired.push_back(std::move(ff));
    }
    o.crashes = w.at("crashes").get<int64_t>();
    o.restarts = w.at("restarts").get<int64_t>();
    o.downtimeMs = w.at("downtimeMs").get<decltype(o.downtimeMs)>();
    o.oracleChecks = w.at("oracleChecks").get<int>();
    o.violations = w.at("violations").get<int>();
    o.judgedAgainstRestartReference = w.at("judged").get<std::string>();
    o.seconds = w.at("seconds").get<double>();
    runs = w.at("runs").get<int>();
    if (w.contains("shrunk")) {
      const auto& sh = w.at("shrunk");
      ScenarioShrunk shrunk;
      STREAMSIM_ASSIGN_OR_RETURN(shrunk.plan, sim::FaultPlan::fromJson(sh.at("plan").get<std::string>()));
      shrunk.originalFaults = sh.at("originalFaults").get<size_t>();
      shrunk.runs = sh.at("runs").get<int>();
      shrunk.result.traceHash = sh.at("traceHash").get<std::string>();
      o.shrunk = std::move(shrunk);
    }
    return o;
  } catch (const nlohmann::json::exception& e) {
    return Status::Corruption(std::string("a sweep worker's answer: ") + e.what());
  }
}

std::string serveSweepRequest(const std::vector<Scenario>& scenarios, const ScenarioSweepOptions& options,
                              std::map<size_t, sim::Reach>& reach,
                              const std::string& request) {
  size_t scenario = 0;
  uint64_t seed = 0;
  if (std::sscanf(request.c_str(), "%zu %" SCNu64, &scenario, &seed) != 2 || scenario >= scenarios.size())
    return "";  // the parent reports the seed as lost
  auto it = reach.find(scenario);
  if (it == reach.end()) it = reach.emplace(scenario, scenarioReach(scenarios[scenario])).first;
  int runs = 0;
  ScenarioSeedOutcome o = runSweepSeed(scenarios[scenario], scenario, seed, it->second, options, runs);
  return o.toWire(runs).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ScenarioSweepReport sweepScenarios(const std::vector<Scenario>& scenarios, const ScenarioSweepOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  struct Job {
    size_t scenario;
    uint64_t seed;
  };
  std::vector<Job> jobs;
  bool python = false;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    int n = sweepSeeds(scenarios[i], options.seeds);
    for (uint64_t s : shardSeeds(options.firstSeed, n, options.shardIndex, options.shardCount)) jobs.push_back({i, s});
    python = python || scenarioRunsPython(scenarios[i]);
  }
  ScenarioSweepReport report;
  report.outcomes.resize(jobs.size());
  std::mutex mu;
  size_t done = 0, failures = 0;
  auto record = [&](size_t j, ScenarioSeedOutcome o, int runs) {
    std::lock_guard<std::mutex> lock(mu);
    report.totals.runs += static_cast<size_t>(runs);
    report.outcomes[j] = std::move(o);
    ++done;
    if (!report.outcomes[j].passed) ++failures;
    if (options.progress) options.progress(report.outcomes[j], done, jobs.size(), failures);
  };
  if (python && options.jobs > 1 && !options.workerCommand.empty()) {
    // One interpreter has one GIL: seeds of sweeps with Python processors run in worker
    // processes (each computes the reach of the scenarios it is given, as below).
    forEachIndexInWorkers(
        jobs.size(), options.jobs, options.workerCommand,
        [&](size_t j) { return fmt::format("{} {}", jobs[j].scenario, jobs[j].seed); },
        [&](size_t j, const std::string& line) {
          int runs = 0;
          Result<ScenarioSeedOutcome> o = Status::Aborted("the worker process ended before answering");
          if (!line.empty()) {
            nlohmann::json w = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
            o = w.is_discarded() ? Result<ScenarioSeedOutcome>(Status::Corruption("a sweep worker's answer is not JSON"))
                                 : ScenarioSeedOutcome::fromWire(w, runs);
          }
          if (!o.ok()) {
            ScenarioSeedOutcome lost;
            lost.scenario = jobs[j].scenario;
            lost.seed = jobs[j].seed;
            lost.passed = false;
            lost.setupError = true;
            lost.kind.addError();
            lost.report = fmt::format("seed {} of {}: {} ({})", lost.seed, scenarios[lost.scenario].file,
                                      o.status().message(), fmt::join(options.workerCommand, " "));
            lost.replay = fmt::format("{} replay {} --seed {}{}", options.program,
                                      shellQuote(scenarios[lost.scenario].file), lost.seed,
                                      options.stateStore.empty() ? "" : " --state-store " + options.stateStore);
            record(j, std::move(lost), 0);
            return;
          }
          record(j, std::move(*o), runs);
        });
  } else {
    // Where each scenario's fault-free run goes: the plans aim there.
    std::vector<sim::Reach> reach(scenarios.size());
    forEachIndex(scenarios.size(), options.jobs, [&](size_t i) { reach[i] = scenarioReach(scenarios[i]); });
    forEachIndex(jobs.size(), options.jobs, [&](size_t j) {
      int runs = 0;
      ScenarioSeedOutcome o =
          runSweepSeed(scenarios[jobs[j].scenario], jobs[j].scenario, jobs[j].seed, reach[jobs[j].scenario], options, runs);
      record(j, std::move(o), runs);
    });
  }

  SweepTotals& t = report.totals;
  t.scenarios = scenarios.size();
  t.seeds = jobs.size();
  for (const auto& o : report.outcomes) {
    if (!o.passed) ++t.failed;
    t.oracleChecks += static_cast<size_t>(o.oracleChecks);
    t.crashes += o.crashes;
    t.restarts += o.restarts;
    if (o.downtimeMs > 0) ++t.seedsWithDowntime;
    t.downtimeMs += o.downtimeMs;
    bool planned = o.faults.executablePlanned() > 0;
    if (planned) ++t.seedsWithFaults;
    if (o.faults.plannedThatFired() > 0) ++t.seedsWhoseFaultsFired;
    if (!o.judgedAgainstRestartReference.empty()) ++t.judgedAgainstRestartReference;
    for (const auto& f : o.faults.fired) {
      ++t.firedByKind[f.kind];
      ++t.firedByPoint[f.point];
    }
  }
  for (const auto& o : report.outcomes) t.violations += static_cast<size_t>(o.violations);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace streamsim::harness
