// The sweep runner and the RapidCheck shrink search (sweep.h).
#include "streamsim/harness/sweep.h"

#include "streamsim/harness/run/pool.h"
#include "streamsim/harness/run/shell_quote.h"

#include <algorithm>
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

std::string replayCommand(const WorkloadConfig& config, const RunCase& c, const std::string& program) {
  std::string cmd = fmt::format("{} replay {} --seed {}", program, config.name, c.seed);
  if (config.stateStore != "memory") cmd += " --state-store " + config.stateStore;
  cmd += " --plan " + shellQuote(c.plan.toJson());
  if (c.files) {
    std::string list;
    for (int64_t f : *c.files) list += (list.empty() ? "" : ",") + std::to_string(f);
    cmd += " --files " + (list.empty() ? std::string("none") : list);
  }
  return cmd;
}

nlohmann::json SeedOutcome::toJson() const {
  nlohmann::json j{{"seed", seed}, {"passed", passed}, {"fingerprint", fingerprint}, {"plan", plan}};
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
                   {"runs", shrunk->runs}};
  }
  if (!replay.empty()) j["replay"] = replay;
  if (downtimeMs > 0) j["downtimeMs"] = downtimeMs;
  return j;
}

SeedOutcome SeedOutcome::fromJson(const nlohmann::json& j) {
  SeedOutcome o;
  o.seed = j.value("seed", uint64_t{0});
  o.passed = j.value("passed", true);
  o.fingerprint = j.value("fingerprint", "");
  o.plan = j.value("plan", "");
  o.downtimeMs = j.value("downtimeMs", DurationMs{0});
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
    o.shrunk = sc;
  }
  o.replay = j.value("replay", "");
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
  return j;
}

Result<SweepReport> SweepReport::fromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("outcomes") || !j["outcomes"].is_array())
    return Status::InvalidArgument("sweep report: expected an object with an \"outcomes\" array");
  SweepReport r;
  r.workload = j.value("workload", "");
  for (const auto& o : j["outcomes"]) r.outcomes.push_back(SeedOutcome::fromJson(o));
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
  std::sort(outcomes.begin(), outcomes.end(), [](const auto& a, const auto& b) { return a.seed < b.seed; });
  return Status::OK();
}

std::string SweepReport::summary() const {
  std::string out;
  for (const auto& o : outcomes) {
    if (o.passed) continue;
    out += fmt::format("FAIL {} seed {}\n", workload, o.seed);
    if (!o.error.empty()) out += "  run error: " + o.error + "\n";
    for (const auto& v : o.violations) out += "  " + v.toString();
    if (o.shrunk) out += "  shrunk to: " + o.shrunk->sizes() + "\n";
    if (!o.replay.empty()) out += "  replay: " + o.replay + "\n";
  }
  size_t down = 0;
  for (const auto& o : outcomes) down += o.downtimeMs > 0 ? 1 : 0;
  out += fmt::format("{} {}: {} seeds, {} failed, downtime in {} seeds\n", failures() ? "FAIL" : "PASS", workload,
                     outcomes.size(), failures(), down);
  return out;
}

SeedOutcome runWorkloadSeed(const WorkloadConfig& config, uint64_t seed, const SweepOptions& options) {
  SeedOutcome o;
  o.seed = seed;
  RunCase rc;
  rc.seed = seed;
  rc.plan = planFor(config, seed);
  o.plan = rc.plan.toJson();
  RunOptions ro = options.run;
  if (options.determinismEvery > 0 && (seed - options.firstSeed) % static_cast<uint64_t>(options.determinismEvery) == 0)
    ro.determinism = true;
  RunResult r = runCase(config, rc, ro);
  o.fingerprint = r.fingerprintHex();
  o.downtimeMs = r.downtimeMs;
  o.violations = r.violations;
  if (!r.error.ok()) o.error = r.error.message();
  o.passed = r.passed();
  if (!o.passed) {
    if (options.shrink) {
      RunOptions so = ro;
      so.determinism = ro.determinism && !r.violations.empty() && r.violations.front().oracle == "determinism";
      o.shrunk = shrinkCase(config, rc, failureKind(r), so, options.shrinkMaxRuns);
      o.replay = replayCommand(config, o.shrunk->minimal, options.programName);
    } else {
      o.replay = replayCommand(config, rc, options.programName);
    }
  }
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
                                          : nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
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
  return report;
}

}  // namespace streamsim::harness
