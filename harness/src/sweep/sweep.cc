// The sweep runner and the RapidCheck shrink search (sweep.h).
#include "streamsim/harness/sweep.h"

#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/pool.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/shell_quote.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/json_nesting.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <atomic>
#include <mutex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace streamsim::harness {

std::string ShrunkCase::sizes() const {
  return fmt::format("{} fault{} (of {}), {} file{} (of {}), {} events, {} shrink runs", faults,
                     faults == 1 ? "" : "s", originalFaults, files, files == 1 ? "" : "s",
                     originalFiles, events, runs);
}

FailureKind failureKind(const RunResult& r) {
  FailureKind k;
  if (!r.error.ok()) k.addError();
  k.addViolations(r.violations);
  return k;
}

ShrunkCase shrinkCase(const WorkloadConfig& config, const RunCase& failing, const FailureKind& kind,
                      const RunOptions& options, int maxRuns) {
  sim::Workload w = workloadFor(config, failing.seed);
  ShrinkCase start;
  start.faults = failing.plan.faults;
  start.shrinkFiles = true;
  if (failing.files) {
    start.files = *failing.files;
  } else {
    for (size_t i = 0; i < w.files.size(); ++i) start.files.push_back(static_cast<int64_t>(i));
  }
  ShrunkCase out;
  out.originalFaults = start.faults.size();
  out.originalFiles = start.files.size();
  auto toCase = [&](const ShrinkCase& s) {
    RunCase c = failing;
    c.plan.faults = s.faults;
    c.files = s.files;
    return c;
  };
  ShrinkResult found = shrinkFailure(
      start, [&](const ShrinkCase& s) { return failureKind(runCase(config, toCase(s), options)).sharedWith(kind); },
      maxRuns);
  out.minimal = toCase(found.minimal);
  out.faults = found.minimal.faults.size();
  out.files = found.minimal.files.size();
  for (int64_t f : found.minimal.files)
    if (f >= 0 && static_cast<size_t>(f) < w.files.size()) out.events += w.files[static_cast<size_t>(f)].eventCount;
  out.runs = found.runs;
  // The minimal case's own result (what its replay shows).
  RunResult r = runCase(config, out.minimal, options);
  out.violations = r.violations;
  out.error = r.error.ok() ? "" : r.error.message();
  out.fingerprint = r.fingerprintHex();
  return out;
}

namespace {

bool names(const std::vector<std::string>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// The workload a replay line names, its processor not loaded.
Result<WorkloadConfig> replayBase(const WorkloadReplayArgs& args, RunOptions& run) {
  const std::string store = args.stateStore.empty() ? "memory" : args.stateStore;
  WorkloadConfig c;
  if (auto kind = parseWorkloadKind(args.workload); kind.ok() && *kind != WorkloadKind::kCustom) {
    c = standardWorkload(*kind, store);
  } else {
    c = standardWorkload(WorkloadKind::kCustom, store);
    c.name = c.processorRef = args.workload;
  }
  c.outputSchema = args.outputSchema;
  if (!args.timeMode.empty()) {
    STREAMSIM_ASSIGN_OR_RETURN(c.timeMode, parseTimeMode(args.timeMode));
  }
  STREAMSIM_RETURN_IF_ERROR(checkOracleNames(args.oracles));
  c.oracles = args.oracles;
  run.determinism = args.determinism || names(args.oracles, "determinism");
  run.batchSplit = args.batchSplit || names(args.oracles, "batch_split");
  return c;
}

// Why a replay line cannot rebuild `config` as it is ("" when it can): the first test hook or
// field that differs from what replayBase rebuilds from the line's arguments.
std::string whyNotRebuilt(const WorkloadConfig& c, const WorkloadConfig& r) {
  if (c.wrapOperator) return "it wraps the stateful operator (WorkloadConfig::wrapOperator, a test hook)";
  if (c.wrapSource) return "it wraps the file source (WorkloadConfig::wrapSource, a test hook)";
  if (c.customSink) return "it replaces the sink (WorkloadConfig::customSink, a test hook)";
  if (c.reference) return "its reference oracle is a function of this program (WorkloadConfig::reference)";
  if (c.kind == WorkloadKind::kCustom && c.processorRef.empty())
    return "its processor is a factory only this program knows: register it (STREAMSIM_REGISTER_PROCESSOR) "
           "in a runner built with streamsim_add_runner and set WorkloadConfig::processorRef to its name";
  const std::pair<const char*, bool> fields[] = {
      {"kind", c.kind == r.kind},
      {"spec (the generated input)", c.spec == r.spec},
      {"knobs (the fault knobs)", c.knobs == r.knobs},
      {"triggerInterval", c.triggerInterval == r.triggerInterval},
      {"drainMs", c.drainMs == r.drainMs},
      {"watermarkDelay", c.watermarkDelay == r.watermarkDelay},
      {"timeoutMs", c.timeoutMs == r.timeoutMs},
      {"ttlMs", c.ttlMs == r.ttlMs},
      {"windowMs", c.windowMs == r.windowMs},
      {"partitions", c.partitions == r.partitions},
      {"taskRetries", c.taskRetries == r.taskRetries},
      {"sink", c.sink == r.sink},
      {"workloadSeed", c.workloadSeed == r.workloadSeed},
      {"workloadVariety", c.workloadVariety == r.workloadVariety},
      {"stateBound", c.stateBound == r.stateBound},
      {"stateBoundPerKey", c.stateBoundPerKey == r.stateBoundPerKey},
  };
  for (const auto& [field, same] : fields)
    if (!same)
      return fmt::format("its {} differs from the standard {} workload's, which the CLI rebuilds", field,
                         workloadKindName(c.kind));
  return "";
}

}  // namespace

std::optional<std::pair<std::string, std::string>> pythonProcessorRef(const std::string& name) {
  const size_t colon = name.rfind(':');
  if (colon == std::string::npos || colon < 3 || name.compare(colon - 3, 3, ".py") != 0 || colon + 1 == name.size())
    return std::nullopt;
  return std::make_pair(name.substr(0, colon), name.substr(colon + 1));
}

bool isWorkloadName(const std::string& name) {
  if (parseWorkloadKind(name).ok() || pythonProcessorRef(name)) return true;
  return ProcessorRegistry::factory(name).ok();
}

Status workloadForReplay(const WorkloadReplayArgs& args, WorkloadConfig& config, RunOptions& run) {
  STREAMSIM_ASSIGN_OR_RETURN(config, replayBase(args, run));
  if (config.kind != WorkloadKind::kCustom) return Status::OK();
  if (auto py = pythonProcessorRef(args.workload)) {
    STREAMSIM_ASSIGN_OR_RETURN(config.processor,
                               loadPythonProcessor({py->first, py->second, config.outputSchema, false, {}}));
  } else {
    STREAMSIM_ASSIGN_OR_RETURN(config.processor, ProcessorRegistry::factory(args.workload));
  }
  return Status::OK();
}

Result<WorkloadReplayWords> workloadReplayWords(const WorkloadConfig& config, const RunOptions& run) {
  WorkloadReplayArgs args;
  args.workload = config.kind == WorkloadKind::kCustom ? config.processorRef : std::string(workloadKindName(config.kind));
  args.stateStore = config.stateStore == "memory" ? "" : config.stateStore;
  args.outputSchema = config.outputSchema;
  if (config.timeMode != TimeMode::kNone) args.timeMode = std::string(timeModeName(config.timeMode));
  args.oracles = config.oracles;
  args.determinism = run.determinism && !names(config.oracles, "determinism");
  args.batchSplit = run.batchSplit && !names(config.oracles, "batch_split");
  RunOptions rebuiltRun;
  auto rebuilt = replayBase(args, rebuiltRun);
  std::string why = rebuilt.ok() ? whyNotRebuilt(config, *rebuilt) : rebuilt.status().message();
  if (why.empty() && (rebuiltRun.determinism != run.determinism || rebuiltRun.batchSplit != run.batchSplit))
    why = "its oracles name determinism or batch_split without running them (RunOptions)";
  if (!why.empty()) return Status::FailedPrecondition("no replay line: " + why);

  WorkloadReplayWords words;
  words.workload = shellQuote(args.workload);
  std::string& o = words.options;
  if (!args.stateStore.empty()) o += " --state-store " + args.stateStore;
  if (!args.outputSchema.empty()) o += " --output-schema " + shellQuote(args.outputSchema);
  if (!args.timeMode.empty()) o += " --time-mode " + args.timeMode;
  for (const std::string& name : args.oracles) o += " --oracle " + shellQuote(name);
  if (args.determinism) o += " --determinism";
  if (args.batchSplit) o += " --batch-split";
  return words;
}

Result<std::string> replayCommand(const WorkloadConfig& config, const RunCase& c, const std::string& program,
                                  const RunOptions& run) {
  STREAMSIM_ASSIGN_OR_RETURN(WorkloadReplayWords words, workloadReplayWords(config, run));
  return replayLine(program, words.workload, c.seed, words.options, c.plan, c.files);
}

nlohmann::json SeedOutcome::toJson() const {
  nlohmann::json j{{"seed", seed}, {"fingerprint", fingerprint}, {"plan", plan}};
  writeJson(j);
  if (!violations.empty()) {
    j["violations"] = nlohmann::json::array();
    for (const auto& v : violations) j["violations"].push_back(v.toJson());
  }
  if (!error.empty()) j["error"] = error;
  if (shrunk) {
    j["shrunk"] = {{"case", shrunk->minimal.toJson()},
                   {"faults", shrunk->faults},
                   {"files", shrunk->files},
                   {"events", shrunk->events},
                   {"originalFaults", shrunk->originalFaults},
                   {"originalFiles", shrunk->originalFiles},
                   {"runs", shrunk->runs},
                   {"fingerprint", shrunk->fingerprint}};
  }
  if (!replay.empty()) j["replay"] = replay;
  if (!noReplay.empty()) j["noReplay"] = noReplay;
  return j;
}

SeedOutcome SeedOutcome::fromJson(const nlohmann::json& j) {
  SeedOutcome o;
  o.seed = j.value("seed", uint64_t{0});
  o.fingerprint = j.value("fingerprint", "");
  o.plan = j.value("plan", "");
  if (auto account = SeedAccount::readJson(j, o.plan); account.ok()) static_cast<SeedAccount&>(o) = *account;
  if (j.contains("violations"))
    for (const auto& v : j["violations"]) o.violations.push_back(Violation::fromJson(v));
  o.error = j.value("error", "");
  if (j.contains("shrunk")) {
    const auto& s = j["shrunk"];
    ShrunkCase sc;
    auto c = RunCase::fromJson(s["case"]);
    if (c.ok()) sc.minimal = *c;
    sc.faults = s.value("faults", size_t{0});
    sc.files = s.value("files", size_t{0});
    sc.events = s.value("events", size_t{0});
    sc.originalFaults = s.value("originalFaults", size_t{0});
    sc.originalFiles = s.value("originalFiles", size_t{0});
    sc.runs = s.value("runs", 0);
    sc.fingerprint = s.value("fingerprint", "");
    o.shrunk = sc;
  }
  o.replay = j.value("replay", "");
  o.noReplay = j.value("noReplay", "");
  return o;
}

int SweepReport::failures() const {
  int n = 0;
  for (const auto& o : outcomes) n += o.passed ? 0 : 1;
  return n;
}

std::optional<uint64_t> SweepReport::firstFailingSeed() const {
  for (const auto& o : outcomes)
    if (!o.passed) return o.seed;
  return std::nullopt;
}

nlohmann::json SweepReport::toJson() const {
  nlohmann::json j{{"workload", workload}, {"outcomes", nlohmann::json::array()}};
  for (const auto& o : outcomes) j["outcomes"].push_back(o.toJson());
  j["totals"] = totals().toJson();
  return j;
}

Result<SweepReport> SweepReport::fromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("outcomes") || !j["outcomes"].is_array())
    return Status::InvalidArgument("sweep report: expected an object with an \"outcomes\" array");
  SweepReport r;
  r.workload = j.value("workload", "");
  for (const auto& o : j["outcomes"]) r.outcomes.push_back(SeedOutcome::fromJson(o));
  if (j.contains("totals") && j["totals"].is_object()) r.seconds = j["totals"].value("seconds", 0.0);
  return r;
}

Status SweepReport::merge(const SweepReport& other) {
  if (!workload.empty() && !other.workload.empty() && workload != other.workload)
    return Status::InvalidArgument(fmt::format(
        "sweep reports of different workloads cannot merge: '{}' and '{}'", workload, other.workload));
  if (workload.empty()) workload = other.workload;
  std::set<uint64_t> have;
  for (const auto& o : outcomes) have.insert(o.seed);
  for (const auto& o : other.outcomes) {
    if (have.count(o.seed))
      return Status::InvalidArgument(fmt::format("seed {} is in both sweep reports (overlapping shards)", o.seed));
    outcomes.push_back(o);
  }
  seconds += other.seconds;
  std::sort(outcomes.begin(), outcomes.end(), [](const auto& a, const auto& b) { return a.seed < b.seed; });
  return Status::OK();
}

SweepTotals SweepReport::totals() const {
  SweepTotals t;
  t.unit = "workload";
  t.scenarios = 1;
  for (const auto& o : outcomes) t.add(o, o.violations.size());
  t.seconds = seconds;
  return t;
}

std::string SweepReport::summary() const {
  std::string out;
  for (const auto& o : outcomes) {
    if (o.passed) continue;
    out += fmt::format("FAIL {} seed {}\n", workload, o.seed);
    if (!o.error.empty()) out += "  run error: " + o.error + "\n";
    for (const auto& v : o.violations) out += "  " + v.toString();
    if (o.shrunk) out += fmt::format("  shrunk to: {}, trace {}\n", o.shrunk->sizes(), o.shrunk->fingerprint);
    if (!o.replay.empty()) out += "  replay: " + o.replay + "\n";
    if (!o.noReplay.empty()) {
      const std::string c = o.shrunk ? o.shrunk->minimal.toJson().dump()
                                     : fmt::format("{{\"seed\":{},\"plan\":{}}}", o.seed, o.plan);
      out += fmt::format("  {}; runCase(config, RunCase::fromJson({})) in this program reproduces it\n", o.noReplay, c);
    }
  }
  const SweepTotals t = totals();
  out += fmt::format("{} {}: {} seeds, {} failed, downtime in {} seeds\n", t.failed ? "FAIL" : "PASS", workload,
                     t.seeds, t.failed, t.seedsWithDowntime);
  out += t.line() + "\n";
  return out;
}

SeedOutcome runWorkloadSeed(const WorkloadConfig& config, uint64_t seed, const SweepOptions& options) {
  const auto s0 = std::chrono::steady_clock::now();
  SeedOutcome o;
  o.seed = seed;
  RunCase rc;
  rc.seed = seed;
  rc.plan = planFor(config, seed, workloadReach(config, seed, options.run.references.get()));
  o.plan = rc.plan.toJson();
  RunOptions ro = options.run;
  if (options.determinismEvery > 0 && (seed - options.firstSeed) % static_cast<uint64_t>(options.determinismEvery) == 0)
    ro.determinism = true;
  RunResult r = runCase(config, rc, ro);
  o.fingerprint = r.fingerprintHex();
  o.faults = r.faults;
  o.crashes = r.crashes;
  o.restarts = r.restarts;
  o.downtimeMs = r.downtimeMs;
  o.oracleChecks = r.oracleChecks;
  o.runs = 1 + r.oracleRuns;
  o.violations = r.violations;
  if (!r.error.ok()) o.error = r.error.message();
  o.passed = r.passed();
  if (!o.passed) {
    RunOptions so = ro;
    Result<std::string> line = Status::OK();
    if (options.shrink) {
      so.determinism = ro.determinism && !r.violations.empty() && r.violations.front().oracle == "determinism";
      o.shrunk = shrinkCase(config, rc, failureKind(r), so, options.shrinkMaxRuns);
      o.runs += o.shrunk->runs + 1;
      line = replayCommand(config, o.shrunk->minimal, options.programName, so);
    } else {
      line = replayCommand(config, rc, options.programName, so);
    }
    if (line.ok()) o.replay = *line;
    else o.noReplay = line.status().message();
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
  return o;
}

std::string serveWorkloadRequest(const WorkloadConfig& config, const SweepOptions& options,
                                 const std::string& request) {
  uint64_t seed = 0;
  if (std::sscanf(request.c_str(), "%" SCNu64, &seed) != 1) return "";  // the parent reports it lost
  return runWorkloadSeed(config, seed, options)
      .toJson()
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

SweepReport sweepWorkload(const WorkloadConfig& config, const SweepOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<uint64_t> seeds =
      shardSeeds(options.firstSeed, options.seeds, options.shardIndex, options.shardCount);
  std::vector<std::optional<SeedOutcome>> outcomes(seeds.size());
  SweepOptions base = options;
  if (!base.run.references) base.run.references = makeReferenceCache();
  std::atomic<uint64_t> smallestFailing{UINT64_MAX};
  std::mutex mu;
  int done = 0, failures = 0;
  auto record = [&](size_t i, SeedOutcome o) {
    if (!o.passed) {
      uint64_t cur = smallestFailing.load();
      while (o.seed < cur && !smallestFailing.compare_exchange_weak(cur, o.seed)) {
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    ++done;
    if (!o.passed) ++failures;
    outcomes[i] = std::move(o);
    if (options.progress) options.progress(done, static_cast<int>(seeds.size()), failures);
  };

  if (options.jobs > 1 && !options.workerCommand.empty()) {
    // Each worker runs the very code below (runWorkloadSeed) on its own copy of the processor.
    forEachIndexInWorkers(
        seeds.size(), options.jobs, options.workerCommand,
        [&](size_t i) { return std::to_string(seeds[i]); },
        [&](size_t i, const std::string& line) {
          nlohmann::json j = line.empty() ? nlohmann::json()
                                          : parseJsonBounded<nlohmann::json>(line);
          if (!j.is_object()) {
            SeedOutcome lost;
            lost.seed = seeds[i];
            lost.passed = false;
            lost.error = fmt::format("{} ({})",
                                     line.empty() ? "the worker process ended before answering"
                                                  : "a sweep worker's answer is not JSON",
                                     fmt::join(options.workerCommand, " "));
            record(i, std::move(lost));
            return;
          }
          record(i, SeedOutcome::fromJson(j));
        });
  } else {
    forEachIndex(seeds.size(), options.jobs, [&](size_t i) {
      if (options.stopAtFirstFailure && seeds[i] > smallestFailing.load()) return;
      record(i, runWorkloadSeed(config, seeds[i], base));
    });
  }

  SweepReport report;
  report.workload = config.name + "/" + config.stateStore;
  const uint64_t cut = smallestFailing.load();
  for (auto& o : outcomes) {
    if (!o) continue;
    if (options.stopAtFirstFailure && o->seed > cut) continue;
    report.outcomes.push_back(std::move(*o));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace streamsim::harness
