// The sweep runner and the RapidCheck shrink search (sweep.h).
#include "streamsim/harness/sweep.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>
// GCC 12 reports a false maybe-uninitialized inside rc::Maybe<Shrinkable> once findLocalMin
// is inlined here; the warning is in RapidCheck's header, not in this code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <rapidcheck.h>
#pragma GCC diagnostic pop

namespace streamsim::harness {

namespace {

// What the shrinker works on: the plan's faults and the input files taking part.
struct ShrinkState {
  std::vector<sim::Fault> faults;
  std::vector<int64_t> files;
};

rc::Shrinkable<ShrinkState> shrinkable(ShrinkState s) {
  return rc::shrinkable::shrinkRecur(std::move(s), [](const ShrinkState& st) {
    auto fewerFaults = rc::seq::map(rc::shrink::removeChunks(st.faults), [st](std::vector<sim::Fault> f) {
      ShrinkState out = st;
      out.faults = std::move(f);
      return out;
    });
    auto fewerFiles = rc::seq::map(rc::shrink::removeChunks(st.files), [st](std::vector<int64_t> f) {
      ShrinkState out = st;
      out.files = std::move(f);
      return out;
    });
    // Then each crash / task failure aimed at an earlier batch (rc's integral shrink toward 0),
    // so that a case keeps failing with fewer input files.
    auto earlierBatch = rc::seq::map(
        rc::shrink::eachElement(st.faults,
                                [](const sim::Fault& f) -> rc::Seq<sim::Fault> {
                                  if (auto* c = std::get_if<sim::CrashFault>(&f); c && c->batch > 0)
                                    return rc::seq::map(rc::shrink::towards<int64_t>(c->batch, 0), [c](int64_t b) {
                                      sim::CrashFault out = *c;
                                      out.batch = b;
                                      return sim::Fault(out);
                                    });
                                  if (auto* t = std::get_if<sim::TaskFailureFault>(&f); t && t->batch > 0)
                                    return rc::seq::map(rc::shrink::towards<int64_t>(t->batch, 0), [t](int64_t b) {
                                      sim::TaskFailureFault out = *t;
                                      out.batch = b;
                                      return sim::Fault(out);
                                    });
                                  return rc::Seq<sim::Fault>();
                                }),
        [st](std::vector<sim::Fault> f) {
          ShrinkState out = st;
          out.faults = std::move(f);
          return out;
        });
    return rc::seq::concat(std::move(fewerFaults), std::move(fewerFiles), std::move(earlierBatch));
  });
}

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

bool sameOracleFails(const std::vector<Violation>& now, const std::set<std::string>& oracles) {
  for (const auto& v : now)
    if (oracles.count(v.oracle)) return true;
  return false;
}

}  // namespace

std::string ShrunkCase::sizes() const {
  return fmt::format("{} fault{} (of {}), {} file{} (of {}), {} events, {} shrink runs", faults,
                     faults == 1 ? "" : "s", originalFaults, files, files == 1 ? "" : "s",
                     originalFiles, events, runs);
}

ShrunkCase shrinkCase(const WorkloadConfig& config, const RunCase& failing,
                      const std::vector<Violation>& violations, const RunOptions& options,
                      int maxRuns) {
  std::set<std::string> oracles;
  for (const auto& v : violations) oracles.insert(v.oracle);
  sim::Workload w = workloadFor(config, failing.seed);
  ShrinkState start;
  start.faults = failing.plan.faults;
  if (failing.files) {
    start.files = *failing.files;
  } else {
    for (size_t i = 0; i < w.files.size(); ++i) start.files.push_back(static_cast<int64_t>(i));
  }
  ShrunkCase out;
  out.originalFaults = start.faults.size();
  out.originalFiles = start.files.size();
  auto toCase = [&](const ShrinkState& s) {
    RunCase c = failing;
    c.plan.faults = s.faults;
    c.files = s.files;
    return c;
  };
  int runs = 0;
  std::vector<Violation> lastViolations = violations;
  auto stillFails = [&](const ShrinkState& s) {
    if (runs >= maxRuns) return false;
    ++runs;
    RunResult r = runCase(config, toCase(s), options);
    if (r.error.ok() && sameOracleFails(r.violations, oracles)) {
      lastViolations = r.violations;
      return true;
    }
    return false;
  };
  // RapidCheck's search: from the failing value, repeatedly take the first shrink that still
  // fails, until none does (a local minimum).
  auto [minimal, steps] = rc::shrinkable::findLocalMin(shrinkable(start), stillFails);
  (void)steps;
  out.minimal = toCase(minimal);
  out.faults = minimal.faults.size();
  out.files = minimal.files.size();
  for (int64_t f : minimal.files)
    if (f >= 0 && static_cast<size_t>(f) < w.files.size()) out.events += w.files[static_cast<size_t>(f)].eventCount;
  out.runs = runs;
  // The minimal case's own violations (the last failing run was the minimal one, or the start).
  RunResult r = runCase(config, out.minimal, options);
  out.violations = r.violations.empty() ? lastViolations : r.violations;
  return out;
}

std::string replayCommand(const WorkloadConfig& config, const RunCase& c) {
  std::string cmd = fmt::format("streamsim replay {} --seed {}", config.name, c.seed);
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
  return j;
}

SeedOutcome SeedOutcome::fromJson(const nlohmann::json& j) {
  SeedOutcome o;
  o.seed = j.value("seed", uint64_t{0});
  o.passed = j.value("passed", true);
  o.fingerprint = j.value("fingerprint", "");
  o.plan = j.value("plan", "");
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
  out += fmt::format("{} {}: {} seeds, {} failed\n", failures() ? "FAIL" : "PASS", workload,
                     outcomes.size(), failures());
  return out;
}

SweepReport sweepWorkload(const WorkloadConfig& config, const SweepOptions& options) {
  std::vector<uint64_t> seeds;
  const int shards = std::max(1, options.shardCount);
  for (uint64_t s = options.firstSeed; s < options.firstSeed + static_cast<uint64_t>(std::max(0, options.seeds)); ++s)
    if (s % static_cast<uint64_t>(shards) == static_cast<uint64_t>(options.shardIndex)) seeds.push_back(s);

  std::vector<std::optional<SeedOutcome>> outcomes(seeds.size());
  RunOptions base = options.run;
  if (!base.references) base.references = makeReferenceCache();
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> smallestFailing{UINT64_MAX};
  std::mutex mu;
  int done = 0, failures = 0;

  auto work = [&] {
    for (size_t i = next++; i < seeds.size(); i = next++) {
      const uint64_t seed = seeds[i];
      if (options.stopAtFirstFailure && seed > smallestFailing.load()) continue;
      SeedOutcome o;
      o.seed = seed;
      RunCase rc;
      rc.seed = seed;
      rc.plan = planFor(config, seed);
      o.plan = rc.plan.toJson();
      RunOptions ro = base;
      if (options.determinismEvery > 0 && (seed - options.firstSeed) % static_cast<uint64_t>(options.determinismEvery) == 0)
        ro.determinism = true;
      RunResult r = runCase(config, rc, ro);
      o.fingerprint = r.fingerprintHex();
      o.violations = r.violations;
      if (!r.error.ok()) o.error = r.error.message();
      o.passed = r.passed();
      if (!o.passed) {
        uint64_t cur = smallestFailing.load();
        while (seed < cur && !smallestFailing.compare_exchange_weak(cur, seed)) {
        }
        if (options.shrink && r.error.ok()) {
          RunOptions so = ro;
          so.determinism = ro.determinism && !r.violations.empty() && r.violations.front().oracle == "determinism";
          o.shrunk = shrinkCase(config, rc, r.violations, so, options.shrinkMaxRuns);
          o.replay = replayCommand(config, o.shrunk->minimal);
        } else {
          o.replay = replayCommand(config, rc);
        }
      }
      std::lock_guard<std::mutex> lock(mu);
      ++done;
      if (!o.passed) ++failures;
      outcomes[i] = std::move(o);
      if (options.progress) options.progress(done, static_cast<int>(seeds.size()), failures);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < options.jobs; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();

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
