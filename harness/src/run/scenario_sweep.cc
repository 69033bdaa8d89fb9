// Scenario sweeps: plans, runs, shrinks, reproduce lines and totals (run/scenario_sweep.h).
#include "streamsim/harness/run/scenario_sweep.h"

#include <cinttypes>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/harness/run/pool.h"
#include "streamsim/harness/run/shell_quote.h"
#include "streamsim/harness/scenario_hooks.h"
#include "streamsim/io/parsed_files.h"
#include "streamsim/sim/random.h"
#include "streamsim/json_nesting.h"
#include "streamsim/platform/platform.h"

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
  sim::FaultPlan plan = sim::generateFaultPlan(sim::Random(seed), sweepKnobs(scenario), reach);
  plan.seed = seed;
  return plan;
}

namespace {
ScenarioRunOptions seedOptions(uint64_t seed, const sim::FaultPlan& plan, FileSystem* keepFs = nullptr,
                               const std::string& keepDir = {}, std::optional<uint32_t> hashSeed = std::nullopt) {
  ScenarioRunOptions o;
  o.seed = seed;
  o.hashSeed = hashSeed;
  o.faultPlan = plan;
  o.keepFs = keepFs;
  o.keepDir = keepDir;
  return o;
}
}  // namespace

ScenarioRunResult runScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  FileSystem* keepFs, const std::string& keepDir, std::optional<uint32_t> hashSeed) {
  return runScenario(scenario, seedOptions(seed, plan, keepFs, keepDir, hashSeed));
}

int sweepSeeds(const Scenario& scenario, int seeds) {
  return seeds > 0 ? seeds : (scenario.sweep ? scenario.sweep->seeds : 100);
}

FailureKind failureKind(const ScenarioRunResult& r) {
  FailureKind k;
  if (!r.setupError.ok()) k.addError();
  for (const auto& f : r.failures) k.addStep(f.step, f.where.file, f.where.line);
  k.addViolations(r.violations);
  return k;
}

Result<Scenario> scenarioOfSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                const std::optional<std::vector<int64_t>>& files) {
  if (!scenario.hooks || !scenario.hooks->generate) return scenario;
  return scenario.hooks->generate(seed, GeneratedInput{plan.landingFaults(), files});
}

std::string ScenarioShrunk::summary() const {
  std::string fileCount;
  if (files)
    fileCount = fmt::format("{} file{} (of {}), ", files->size(), files->size() == 1 ? "" : "s", originalFiles);
  return fmt::format("{} fault{} (of {}), {}{} shrink run{}", plan.faults.size(),
                     plan.faults.size() == 1 ? "" : "s", originalFaults, fileCount, runs, runs == 1 ? "" : "s");
}

ScenarioShrunk shrinkScenarioSeed(const Scenario& scenario, uint64_t seed, const sim::FaultPlan& plan,
                                  const ScenarioRunResult& failing, int maxRuns,
                                  const std::optional<std::vector<int64_t>>& files) {
  const FailureKind kind = failureKind(failing);
  const bool generated = scenario.hooks && scenario.hooks->generate;
  ScenarioShrunk out;
  out.originalFaults = plan.faults.size();
  // A generated workload's case: its scenario rebuilt with the files kept and the plan's landing
  // faults (the shrinker drops both).
  auto run = [&](const ShrinkCase& c) {
    auto sc = scenarioOfSeed(scenario, seed, c.plan, c.files);
    if (sc.ok()) return runScenarioSeed(*sc, seed, c.plan);
    ScenarioRunResult bad;
    bad.setupError = sc.status();
    return bad;
  };
  ShrinkCase start;
  start.plan = plan;
  if (generated) {
    if (files) {
      start.files = *files;
    } else {
      start.files.emplace();
      for (int64_t f = 0; f < scenario.hooks->files; ++f) start.files->push_back(f);
    }
    out.originalFiles = start.files->size();
  }
  ShrinkResult found = shrinkFailure(start, kind, [&](const ShrinkCase& c) { return failureKind(run(c)); }, maxRuns);
  out.plan = found.minimal.plan;
  out.files = found.minimal.files;
  out.runs = found.runs;
  out.result = run(found.minimal);
  return out;
}

std::string replayLine(const std::string& program, const std::string& target, uint64_t seed,
                       const std::string& options, const sim::FaultPlan& plan,
                       const std::optional<std::vector<int64_t>>& files) {
  std::string line = fmt::format("{} replay {} --seed {}{} --plan {}", program, target, seed, options,
                                 shellQuote(plan.toJson()));
  if (files) {
    std::string list;
    for (int64_t f : *files) list += (list.empty() ? "" : ",") + std::to_string(f);
    line += " --files " + (list.empty() ? std::string("none") : list);
  }
  return line;
}

bool hashSeedInReplayLine(const Scenario& sc) {
  return scenarioRunsPython(sc) && !pythonCliPath(sc.registries.get()).empty();
}

std::string scenarioReplayLine(const std::string& program, const std::string& file, uint64_t seed,
                               const sim::FaultPlan& plan, const std::string& stateStore, bool python) {
  std::string options = python ? fmt::format(" --hash-seed {}", pythonHashSeedOf(seed)) : std::string();
  if (!stateStore.empty()) options += " --state-store " + stateStore;
  return replayLine(program, shellQuote(file), seed, options, plan);
}

nlohmann::json ScenarioSeedOutcome::toJson(const Scenario& sc) const {
  nlohmann::json r = {{"file", sc.file},     {"name", sc.name},       {"seed", seed},
                      {"traceHash", traceHash}, {"plan", plan},       {"violations", violations},
                      {"stateStore", sc.query.stateStore}};
  writeJson(r);
  // The plan the faults were counted against, where it is not the seed's (none ran).
  if (const std::string counted = faults.plan.toJson(); counted != plan) r["faultPlan"] = counted;
  if (!judgedAgainstRestartReference.empty()) r["judgedAgainstRestartReference"] = judgedAgainstRestartReference;
  if (!passed) {
    r["kind"] = kind.keys;
    r["failure"] = report;
    r["replay"] = replay;
    if (!noReplay.empty()) r["noReplay"] = noReplay;
    if (setupError) r["setupError"] = true;
    if (shrunk) {
      r["shrunkPlan"] = shrunk->plan.toJson();
      r["shrunkOriginalFaults"] = shrunk->originalFaults;
      if (shrunk->files) {
        r["shrunkFiles"] = *shrunk->files;
        r["shrunkOriginalFiles"] = shrunk->originalFiles;
      }
      r["shrunkRuns"] = shrunk->runs;
      r["shrunkSummary"] = shrunk->summary();
      r["shrunkTraceHash"] = shrunk->result.traceHash;
    }
  }
  return r;
}

Result<ScenarioSeedOutcome> ScenarioSeedOutcome::fromJson(const nlohmann::json& r) {
  ScenarioSeedOutcome o;
  std::string counted;
  try {
    o.seed = r.at("seed").get<uint64_t>();
    o.traceHash = r.value("traceHash", std::string());
    o.plan = r.value("plan", std::string());
    counted = r.value("faultPlan", o.plan);
    o.violations = r.value("violations", 0);
    o.judgedAgainstRestartReference = r.value("judgedAgainstRestartReference", std::string());
    o.kind.keys = r.value("kind", std::set<std::string>());
    o.report = r.value("failure", std::string());
    o.replay = r.value("replay", std::string());
    o.noReplay = r.value("noReplay", std::string());
    o.setupError = r.value("setupError", false);
    if (r.contains("shrunkPlan")) {
      ScenarioShrunk shrunk;
      STREAMSIM_ASSIGN_OR_RETURN(shrunk.plan, sim::FaultPlan::fromJson(r.at("shrunkPlan").get<std::string>()));
      shrunk.originalFaults = r.value("shrunkOriginalFaults", size_t{0});
      if (r.contains("shrunkFiles")) {
        shrunk.files = r.at("shrunkFiles").get<std::vector<int64_t>>();
        shrunk.originalFiles = r.value("shrunkOriginalFiles", size_t{0});
      }
      shrunk.runs = r.value("shrunkRuns", 0);
      shrunk.result.traceHash = r.value("shrunkTraceHash", std::string());
      o.shrunk = std::move(shrunk);
    }
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(std::string("a sweep result: ") + e.what());
  }
  STREAMSIM_ASSIGN_OR_RETURN(static_cast<SeedAccount&>(o), SeedAccount::readJson(r, counted));
  return o;
}

namespace {

// The reproduce line of a seed's (shrunk) case: the scenario file's, or a generated workload's
// (ScenarioHooks::replayTarget); empty, with `why`, when no line can rebuild it.
std::string replayLineOf(const Scenario& sc, const ScenarioSweepOptions& options, uint64_t seed,
                         const sim::FaultPlan& plan, const std::optional<std::vector<int64_t>>& files,
                         std::string& why) {
  if (!sc.hooks)
    return scenarioReplayLine(options.program, sc.file, seed, plan, options.stateStore, hashSeedInReplayLine(sc));
  if (sc.hooks->replayTarget.empty()) {
    why = !sc.hooks->notReplayable.empty()         ? sc.hooks->notReplayable
          : !sc.hooks->whyNotReplayable().empty() ? "no replay line: " + sc.hooks->whyNotReplayable()
          : !sc.oracleArgs.functionOracle().empty()
              ? "no replay line: its " + sc.oracleArgs.functionOracle() + " oracle is a function of this program"
                                                  : std::string("no replay line: a C++ program built the scenario");
    return "";
  }
  return replayLine(options.program, sc.hooks->replayTarget, seed, sc.hooks->replayOptions, plan, files);
}

// One seed of a sweep: its plan, run, and when it fails its shrink and replay line. A generated
// workload's scenario (ScenarioHooks::generate) is the seed's own: its plan aims at the reach of
// the seed's input, and the plan's landing faults reshape that input. That reach run is the
// seed's own fault-free run, with the options of exactly_once's reference (runFaultFree): a plan
// without landing faults leaves the seed's scenario as it is, and its run under the plan takes
// the reach run as its reference where it is the same run (sameFaultFreeRun).
ScenarioSeedOutcome runSweepSeed(const Scenario& given, size_t scenario, uint64_t seed,
                                 const sim::Reach& givenReach, const ScenarioSweepOptions& options) {
  const auto s0 = std::chrono::steady_clock::now();
  ScenarioSeedOutcome o;
  o.scenario = scenario;
  o.seed = seed;
  const bool generated = given.hooks && given.hooks->generate;
  Result<Scenario> own = generated ? given.hooks->generate(seed, {}) : Result<Scenario>(Status::OK());
  sim::FaultPlan plan;
  ScenarioRunOptions runOptions = seedOptions(seed, plan);
  runOptions.keptWorkers = options.keptWorkers;
  runOptions.parsedFiles = std::make_shared<ParsedFiles>();  // the reach run's input parsed once for the seed
  if (generated && own.ok()) {
    runOptions.faultFreeRun = runFaultFree(*own, runOptions);
    plan = scenarioPlan(*own, o.seed, runOptions.faultFreeRun->result.reach);
    if (!plan.landingFaults().empty()) {  // a scenario of its own: the reach run's is another
      runOptions.faultFreeRun.reset();
      own = scenarioOfSeed(given, seed, plan);
    }
  } else if (!generated) {
    plan = scenarioPlan(given, o.seed, givenReach);
  }
  if (!own.ok()) {  // a generated workload's input that cannot be built
    o.passed = false;
    o.setupError = true;
    o.kind.addError();
    o.report = own.status().message();
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
    return o;
  }
  const Scenario& sc = generated ? *own : given;
  o.plan = plan.toJson();
  runOptions.faultPlan = plan;
  ScenarioRunResult r = runScenario(sc, runOptions);
  runOptions.faultFreeRun.reset();
  o.traceHash = r.traceHash;
  o.faults = r.faults;
  o.crashes = r.crashes;
  o.restarts = r.restarts;
  o.downtimeMs = r.downtimeMs;
  o.oracleChecks = r.oracleChecks;
  o.violations = static_cast<int>(r.violations.size());
  o.judgedAgainstRestartReference = r.judgedAgainstRestartReference;
  o.runs = 1 + r.oracleRuns + (generated ? 1 : 0);
  if (!r.passed()) {
    o.passed = false;
    o.setupError = !r.setupError.ok();
    o.kind = failureKind(r);
    o.report = o.setupError ? r.setupError.message() : r.report();
    o.replay = replayLineOf(sc, options, o.seed, plan, std::nullopt, o.noReplay);
    if (!o.setupError && options.shrink) {
      o.shrunk = shrinkScenarioSeed(sc, o.seed, plan, r, options.shrinkMaxRuns);
      o.runs += o.shrunk->runs + 1;
      if (!o.shrunk->result.passed()) o.report = o.shrunk->result.report();
      o.noReplay.clear();
      o.replay = replayLineOf(sc, options, o.seed, o.shrunk->plan, o.shrunk->files, o.noReplay);
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

}  // namespace

bool scenarioRunsPython(const Scenario& scenario) {
  for (const QuerySpec* q : scenarioQueries(scenario))
    if (runsPython(*q)) return true;
  return false;
}

std::string serveSweepRequest(const std::vector<Scenario>& scenarios, const ScenarioSweepOptions& options,
                              std::map<size_t, sim::Reach>& reach,
                              const std::string& request) {
  size_t scenario = 0;
  uint64_t seed = 0;
  if (std::sscanf(request.c_str(), "%zu %" SCNu64, &scenario, &seed) != 2 || scenario >= scenarios.size())
    return "";  // the parent reports the seed as lost
  auto it = reach.find(scenario);
  if (it == reach.end())
    it = reach.emplace(scenario, scenarios[scenario].hooks && scenarios[scenario].hooks->generate
                                     ? sim::Reach{}
                                     : scenarioReach(scenarios[scenario])).first;
  return runSweepSeed(scenarios[scenario], scenario, seed, it->second, options)
      .toJson(scenarios[scenario])
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
  auto record = [&](size_t j, ScenarioSeedOutcome o) {
    std::lock_guard<std::mutex> lock(mu);
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
          Result<ScenarioSeedOutcome> o = Status::Aborted("the worker process ended before answering");
          if (!line.empty()) {
            nlohmann::json w = parseJsonBounded<nlohmann::json>(line);
            o = w.is_discarded() ? Result<ScenarioSeedOutcome>(Status::Corruption("a sweep worker's answer is not JSON"))
                                 : ScenarioSeedOutcome::fromJson(w);
            if (o.ok()) o->scenario = jobs[j].scenario;
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
            // The seed's line without a plan (replay generates the seed's own): a generated
            // workload's names the workload, as its seeds' lines do.
            const Scenario& sc = scenarios[lost.scenario];
            if (sc.hooks && sc.hooks->replayTarget.empty())
              lost.noReplay = sc.hooks->notReplayable;
            else if (sc.hooks)
              lost.replay = fmt::format("{} replay {} --seed {}{}", options.program, sc.hooks->replayTarget,
                                        lost.seed, sc.hooks->replayOptions);
            else
              lost.replay = fmt::format("{} replay {} --seed {}{}", options.program, shellQuote(sc.file), lost.seed,
                                        options.stateStore.empty() ? "" : " --state-store " + options.stateStore);
            record(j, std::move(lost));
            return;
          }
          record(j, std::move(*o));
        });
  } else {
    // One kept hash-seed worker per hash seed and thread: a sweep's seeds share their few values.
    ScenarioSweepOptions own = options;
    if (python && own.keptWorkers == nullptr)
      own.keptWorkers = std::make_shared<KeptWorkers>(kPythonHashSeeds * static_cast<size_t>(std::max(1, options.jobs)));
    // Where each scenario's fault-free run goes: the plans aim there.
    // (A generated workload's scenario: each seed's own, in runSweepSeed.)
    std::vector<sim::Reach> reach(scenarios.size());
    forEachIndex(scenarios.size(), options.jobs, [&](size_t i) {
      if (!scenarios[i].hooks || !scenarios[i].hooks->generate) reach[i] = scenarioReach(scenarios[i]);
    });
    forEachIndex(jobs.size(), options.jobs, [&](size_t j) {
      record(j, runSweepSeed(scenarios[jobs[j].scenario], jobs[j].scenario, jobs[j].seed, reach[jobs[j].scenario],
                             own));
    });
  }

  SweepTotals& t = report.totals;
  t.scenarios = scenarios.size();
  for (const auto& o : report.outcomes)
    t.add(o, static_cast<size_t>(o.violations), !o.judgedAgainstRestartReference.empty());
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

Result<MergedSweepReports> mergeSweepReports(const std::vector<std::string>& files) {
  MergedSweepReports m;
  nlohmann::json& merged = m.report;
  merged = nlohmann::json::object();
  merged["shard"] = {{"index", 0}, {"count", 1}};
  merged["merged"] = nlohmann::json::array();
  merged["results"] = nlohmann::json::array();
  std::map<std::pair<std::string, uint64_t>, std::string> seen;  // (file, seed) -> report
  std::string twice;
  double seconds = 0;
  for (const auto& f : files) {
    // A FIFO, a device or a huge file is refused unread; a report nested deeper than JSON's
    // bound is refused unparsed (its copy would recurse once per level).
    auto text = platform::readInputFile(f);
    if (!text.ok()) return Status::InvalidArgument(text.status().message());
    if (auto past = jsonNestingPastLimit(*text))
      return Status::InvalidArgument(fmt::format("{}: {}; expected a `streamsim sweep --json` report", f,
                                                 jsonNestingMessage(*past)));
    nlohmann::json j = parseJsonBounded<nlohmann::json>(*text);
    if (j.is_discarded() || !j.is_object() || !j.contains("results") || !j["results"].is_array())
      return Status::InvalidArgument(fmt::format("{}: not a sweep report; expected a `streamsim sweep --json` report", f));
    if (j.contains("totals") && !(j["totals"].is_object() && (!j["totals"].contains("seconds") ||
                                                             j["totals"]["seconds"].is_number())))
      return Status::InvalidArgument(fmt::format("{}: \"totals\" is not a sweep's totals; expected {{\"seconds\": "
                                                 "number, ...}}, found {}", f,
                                                 j["totals"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    merged["merged"].push_back(f);
    for (const auto& r : j["results"]) {
      // Each result is what sweep --json writes (ScenarioSeedOutcome::toJson).
      Result<ScenarioSeedOutcome> o = Status::InvalidArgument("");
      if (r.is_object() && r.contains("file") && r["file"].is_string() && r.contains("seed") &&
          r["seed"].is_number_unsigned() && (!r.contains("passed") || r["passed"].is_boolean()) &&
          (!r.contains("replay") || r["replay"].is_string()))
        o = ScenarioSeedOutcome::fromJson(r);
      if (!o.ok())
        return Status::InvalidArgument(fmt::format(
            "{}: result {} is not a sweep result; expected {{\"file\": string, \"seed\": unsigned integer, "
            "\"passed\": bool}}, found {}", f, &r - &j["results"][0],
            r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
      auto key = std::make_pair(r["file"].get<std::string>(), o->seed);
      if (auto [it, fresh] = seen.try_emplace(key, f); !fresh) {
        twice += fmt::format("{}{} seed {} is in both {} and {} (overlapping shards?)", twice.empty() ? "" : "\n",
                             key.first, key.second, it->second, f);
        continue;
      }
      merged["results"].push_back(r);
      m.totals.add(*o, static_cast<size_t>(o->violations), !o->judgedAgainstRestartReference.empty());
    }
    if (j.contains("totals") && j["totals"].contains("seconds")) seconds += j["totals"]["seconds"].get<double>();
  }
  if (!twice.empty()) return Status::InvalidArgument(twice);
  // Results in (file, seed) order, whatever the order of the shards.
  auto& results = merged["results"];
  std::sort(results.begin(), results.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return std::make_pair(a.value("file", std::string()), a.value("seed", uint64_t{0})) <
           std::make_pair(b.value("file", std::string()), b.value("seed", uint64_t{0}));
  });
  // Seeds missing between the lowest and highest of a file (a shard not given): the gaps between
  // consecutive seeds, at most the first 20 named however wide (seeds 0 and 2^64 - 1).
  std::map<std::string, std::vector<uint64_t>> seeds;
  for (const auto& [key, report] : seen) seeds[key.first].push_back(key.second);
  for (const auto& [file, list] : seeds) {
    constexpr size_t kNamed = 20;
    std::vector<uint64_t> missing;
    uint64_t missingCount = 0;
    for (size_t k = 1; k < list.size(); ++k) {
      missingCount += list[k] - list[k - 1] - 1;
      for (uint64_t s = list[k - 1] + 1; s < list[k] && missing.size() < kNamed; ++s) missing.push_back(s);
    }
    if (missingCount > 0)
      m.gaps.push_back(fmt::format("{}: seeds {}{} are missing", file, fmt::join(missing, ","),
                                   missingCount > missing.size() ? fmt::format(",... ({} in all)", missingCount)
                                                                 : std::string()));
  }
  m.totals.scenarios = seeds.size();
  m.totals.seconds = seconds;
  merged["totals"] = m.totals.toJson();
  return m;
}

}  // namespace streamsim::harness
