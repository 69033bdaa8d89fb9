// `streamsim run`, `sweep`, `replay` (scenario_commands.h).
#include "cli/scenario_commands.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
// GCC reports a false -Wmaybe-uninitialized inside rc::Maybe<Shrinkable> once findLocalMin is
// inlined here; rapidcheck's own code, not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <rapidcheck.h>
#pragma GCC diagnostic pop

#include "cli/cli.h"
#include "streamsim/harness/checkpoint_replay.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/platform/platform.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/random.h"

namespace streamsim::cli {
namespace {

std::string readFile(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The scenario files a command line names: a file as given, a folder as every *.yaml under it
// (recursively, sorted). False (with the reason on err) for a path that does not exist or a
// folder without scenarios.
bool scenarioFiles(const std::vector<std::string>& paths, const char* command,
                   std::vector<std::string>& files, std::ostream& err) {
  for (const auto& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (const auto& e : std::filesystem::recursive_directory_iterator(path))
        if (e.path().extension() == ".yaml") found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      if (found.empty()) {
        err << fmt::format("streamsim {}: no *.yaml scenario under {}\n", command, path);
        return false;
      }
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(path, ec)) {
      files.push_back(path);
    } else {
      err << fmt::format("streamsim {}: {}: no such file or folder\n", command, path);
      return false;
    }
  }
  return true;
}

// Writes a report (sweep --json/--junit, merge --json) and says whether every byte reached the
// file: an unwritable path is bad input (exit 2), never a silent exit 0.
bool writeReport(const std::string& path, const std::string& text, std::string_view command,
                 std::ostream& err) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    err << fmt::format("streamsim {}: {}: is a folder; expected a file to write the report to\n",
                       command, path);
    return false;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    err << fmt::format("streamsim {}: {}: cannot write the report ({})\n", command, path,
                       std::strerror(errno));
    return false;
  }
  return true;
}

// 75 s -> "1:15", 3725 s -> "1:02:05".
std::string clockText(double seconds) {
  auto s = static_cast<long long>(seconds + 0.5);
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
                   : fmt::format("{}:{:02}", s / 60, s % 60);
}

// "PASS"/"FAIL" in green/red on a terminal, unless NO_COLOR is set (no-color.org).
std::string verdict(bool passed, bool tty) {
  static const bool noColor = std::getenv("NO_COLOR") != nullptr && *std::getenv("NO_COLOR");
  if (!tty || noColor) return passed ? "PASS" : "FAIL";
  return passed ? "\033[32mPASS\033[0m" : "\033[1;31mFAIL\033[0m";
}

// --keep DIR for one scenario of `count`: DIR itself, or DIR/<file name without .yaml>.
std::string keepDirFor(const std::string& keep, const std::string& file, size_t count) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(keep, ec).lexically_normal();
  if (count > 1) dir /= std::filesystem::path(file).stem();
  return dir.string();
}

// A JSON report as text: a byte of a scenario's name or a failure message that is not UTF-8 is
// written as U+FFFD (nlohmann's dump() would throw).
std::string reportJson(const nlohmann::json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Loads every file; prints every error of every file. False if any is bad.
bool loadAll(const std::vector<std::string>& files, std::vector<harness::Scenario>& out,
             std::ostream& err) {
  bool ok = true;
  for (const auto& f : files) {
    auto load = harness::loadScenarioFile(f);
    if (!load.ok()) {
      err << load.errorText();
      ok = false;
      continue;
    }
    out.push_back(std::move(*load.scenario));
  }
  return ok;
}

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

sim::FaultPlan planForSeed(const harness::Scenario& sc, uint64_t seed) {
  sim::FaultPlan plan = sim::generateFaultPlan(sim::Random(seed), harness::sweepKnobs(sc));
  plan.seed = seed;
  return plan;
}

harness::ScenarioRunResult runWithPlan(const harness::Scenario& sc, uint64_t seed,
                                       const sim::FaultPlan& plan, FileSystem* keepFs = nullptr,
                                       const std::string& keepDir = {}) {
  harness::ScenarioRunOptions o;
  o.seed = seed;
  o.faultPlan = plan;
  o.keepFs = keepFs;
  o.keepDir = keepDir;
  return harness::runScenario(sc, o);
}

// What the shrinker works on: the plan's faults (the seed stays, so torn byte counts and the
// simulated world's ids are those of the failing run).
struct ShrinkState {
  std::vector<sim::Fault> faults;
};

rc::Seq<sim::Fault> simplerFault(const sim::Fault& f) {
  if (auto* c = std::get_if<sim::CrashFault>(&f)) {
    auto earlier = rc::seq::map(rc::shrink::towards<int64_t>(c->batch, 0), [c](int64_t b) {
      sim::CrashFault out = *c;
      out.batch = b;
      return sim::Fault(out);
    });
    auto firstPass = rc::seq::map(rc::shrink::towards<int64_t>(c->nth, 1), [c](int64_t n) {
      sim::CrashFault out = *c;
      out.nth = n;
      return sim::Fault(out);
    });
    if (c->batch <= 0) return firstPass;
    return rc::seq::concat(std::move(earlier), std::move(firstPass));
  }
  if (auto* t = std::get_if<sim::TaskFailureFault>(&f)) {
    auto earlier = rc::seq::map(rc::shrink::towards<int64_t>(t->batch, 0), [t](int64_t b) {
      sim::TaskFailureFault out = *t;
      out.batch = b;
      return sim::Fault(out);
    });
    auto fewer = rc::seq::map(rc::shrink::towards<int>(t->count, 1), [t](int n) {
      sim::TaskFailureFault out = *t;
      out.count = n;
      return sim::Fault(out);
    });
    if (t->batch <= 0) return fewer;
    return rc::seq::concat(std::move(earlier), std::move(fewer));
  }
  if (auto* io = std::get_if<sim::IoErrorFault>(&f)) {
    return rc::seq::map(rc::shrink::towards<int>(io->count, 1), [io](int n) {
      sim::IoErrorFault out = *io;
      out.count = n;
      return sim::Fault(out);
    });
  }
  return rc::Seq<sim::Fault>();
}

// RapidCheck's shrink tree over the faults: fewer faults first (removeChunks), then each fault
// made simpler (an earlier batch, the first pass, one failure).
rc::Shrinkable<ShrinkState> shrinkable(ShrinkState s) {
  return rc::shrinkable::shrinkRecur(std::move(s), [](const ShrinkState& st) {
    auto fewer = rc::seq::map(rc::shrink::removeChunks(st.faults), [](std::vector<sim::Fault> f) {
      return ShrinkState{std::move(f)};
    });
    auto simpler = rc::seq::map(rc::shrink::eachElement(st.faults, simplerFault),
                                [](std::vector<sim::Fault> f) { return ShrinkState{std::move(f)}; });
    return rc::seq::concat(std::move(fewer), std::move(simpler));
  });
}

constexpr int kMaxShrinkRuns = 200;

struct Shrunk {
  sim::FaultPlan plan;
  size_t originalFaults = 0;
  int runs = 0;
  std::string summary() const {
    return fmt::format("{} fault{} (of {}), {} shrink run{}", plan.faults.size(),
                       plan.faults.size() == 1 ? "" : "s", originalFaults, runs, runs == 1 ? "" : "s");
  }
};

// Shrinks a failing seed's fault plan with rc::shrinkable::findLocalMin, the scenario run as the
// predicate: a candidate "still fails" when a check fails at one of the places (file:line) the
// original run failed at, so the shrink does not slide to a different failure. `lastFailure`
// gets the minimal case's result.
Shrunk shrink(const harness::Scenario& sc, uint64_t seed, const sim::FaultPlan& plan,
              harness::ScenarioRunResult& lastFailure) {
  std::set<std::pair<std::string, int>> places;
  for (const auto& f : lastFailure.failures) places.insert({f.where.file, f.where.line});
  // An oracle failure (every step passed) shrinks while the same oracle fails.
  std::set<std::string> oracles;
  for (const auto& v : lastFailure.violations) oracles.insert(v.oracle);
  Shrunk out;
  out.originalFaults = plan.faults.size();
  auto toPlan = [&](const ShrinkState& st) {
    sim::FaultPlan p = plan;
    p.faults = st.faults;
    return p;
  };
  auto stillFails = [&](const ShrinkState& st) {
    if (out.runs >= kMaxShrinkRuns) return false;
    ++out.runs;
    auto r = runWithPlan(sc, seed, toPlan(st));
    if (!r.setupError.ok() || r.passed()) return false;
    for (const auto& f : r.failures)
      if (places.count({f.where.file, f.where.line})) return true;
    if (places.empty() && r.failures.empty())
      for (const auto& v : r.violations)
        if (oracles.count(v.oracle)) return true;
    return false;
  };
  auto [minimal, steps] = rc::shrinkable::findLocalMin(shrinkable(ShrinkState{plan.faults}), stillFails);
  (void)steps;
  out.plan = toPlan(minimal);
  // The minimal case's own report (the run is deterministic: this is what replay shows).
  auto r = runWithPlan(sc, seed, out.plan);
  if (!r.passed()) lastFailure = std::move(r);
  return out;
}

std::string replayLine(const std::string& file, uint64_t seed, const sim::FaultPlan& plan) {
  return fmt::format("streamsim replay {} --seed {} --plan {}", file, seed, shellQuote(plan.toJson()));
}

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

bool parseShard(const std::string& text, int& index, int& count) {
  auto slash = text.find('/');
  if (slash == std::string::npos) return false;
  try {
    size_t used = 0;
    index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) return false;
    count = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) return false;
  } catch (const std::exception&) {
    return false;
  }
  return count >= 1 && index >= 0 && index < count;
}

std::vector<uint64_t> shardSeeds(uint64_t first, int n, int shardIndex, int shardCount) {
  std::vector<uint64_t> out;
  for (uint64_t k = 0; k < static_cast<uint64_t>(n); ++k)
    if (uint64_t s = first + k; s % static_cast<uint64_t>(shardCount) == static_cast<uint64_t>(shardIndex))
      out.push_back(s);
  return out;
}

int runCommand(const RunArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  if (!scenarioFiles(args.files, "run", files, err)) return kExitBadInput;
  std::vector<harness::Scenario> scenarios;
  if (!loadAll(files, scenarios, err)) return kExitBadInput;
  int failed = 0;
  bool badInput = false;
  const bool tty = &out == &std::cout && isatty(STDOUT_FILENO);
  platform::RealEnv real;
  for (const auto& sc : scenarios) {
    harness::ScenarioRunOptions o;
    o.seed = args.seed;
    o.collectActual = args.update;
    if (!args.keep.empty()) {
      o.keepFs = real.env().fs;
      o.keepDir = keepDirFor(args.keep, sc.file, scenarios.size());
    }
    auto r = harness::runScenario(sc, o);
    if (!r.setupError.ok()) {
      err << fmt::format("{}: cannot run: {}\n", sc.file, r.setupError.message());
      badInput = true;
      continue;
    }
    if (args.update && !r.actual.empty()) {
      bool ok = false;
      std::string text = readFile(sc.file, ok);
      std::string diff;
      auto updated = harness::updateExpectedRows(text, r.actual, &diff);
      if (!updated.ok()) {
        err << fmt::format("{}: --update: {}\n", sc.file, updated.status().message());
        badInput = true;
        continue;
      }
      if (*updated != text) {
        std::ofstream(sc.file, std::ios::binary) << *updated;
        out << fmt::format("updated {}\n{}", sc.file, diff);
      }
      // The updated rows hold by construction; the other checks still count.
      auto rerun = harness::runScenario(*harness::loadScenario(sc.file), o);
      r = std::move(rerun);
    }
    if (!args.keep.empty()) out << fmt::format("kept the simulated files of {} in {}\n", sc.file, o.keepDir);
    if (r.passed()) {
      out << fmt::format("{} {} ({} batches, {} crashes, trace {})\n", verdict(true, tty), sc.file,
                         r.batches, r.crashes, r.traceHash);
    } else {
      ++failed;
      out << fmt::format("{} {}: {}\n{}", verdict(false, tty), sc.file, sc.name, r.report());
      out << fmt::format("  reproduce: streamsim run {} --seed {}\n", sc.file, args.seed);
    }
  }
  if (badInput) return kExitBadInput;
  return failed ? kExitCheckFailed : kExitOk;
}

int sweepCommand(const SweepArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  if (!scenarioFiles({args.path}, "sweep", files, err)) return kExitBadInput;
  int shardIndex = 0, shardCount = 1;
  if (!args.shard.empty() && !parseShard(args.shard, shardIndex, shardCount)) {
    err << fmt::format("streamsim sweep: --shard '{}': expected i/n with 0 <= i < n, e.g. 0/4\n",
                       args.shard);
    return kExitBadInput;
  }
  if (args.seeds < 0) {
    err << "streamsim sweep: --seeds must be >= 1\n";
    return kExitBadInput;
  }
  // The seeds are first .. first + n - 1: they must not wrap past 2^64 - 1.
  if (args.seeds > 0 && args.firstSeed > UINT64_MAX - static_cast<uint64_t>(args.seeds - 1)) {
    err << fmt::format("streamsim sweep: --first-seed {} --seeds {} runs past the last seed "
                       "18446744073709551615\n", args.firstSeed, args.seeds);
    return kExitBadInput;
  }
  std::vector<harness::Scenario> scenarios;
  if (!loadAll(files, scenarios, err)) return kExitBadInput;

  struct Job {
    size_t scenario;
    uint64_t seed;
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    int n = args.seeds > 0 ? args.seeds : (scenarios[i].sweep ? scenarios[i].sweep->seeds : 100);
    for (uint64_t s : shardSeeds(args.firstSeed, n, shardIndex, shardCount)) jobs.push_back({i, s});
  }
  struct Outcome {
    bool done = false;
    bool passed = true;
    bool setupError = false;
    std::string traceHash;
    std::string plan;
    std::string report;
    std::string shrunkPlan;
    std::string shrunkSummary;
  };
  std::vector<Outcome> outcomes(jobs.size());
  std::atomic<size_t> next{0};
  std::atomic<size_t> finished{0};
  std::atomic<size_t> failures{0};
  std::mutex mu;
  const bool bar = !args.noProgress && isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  // Off a terminal (CI logs), one line per file as its last seed finishes.
  std::vector<size_t> seedsLeft(scenarios.size(), 0), seedsFailed(scenarios.size(), 0);
  for (const Job& job : jobs) ++seedsLeft[job.scenario];
  auto fileDone = [&](size_t i) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    err << fmt::format("done {} ({} elapsed): {} failed\n", scenarios[i].file, clockText(secs),
                       seedsFailed[i]);
  };
  auto progress = [&] {
    size_t done = finished.load();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double rate = secs > 0 ? done / secs : 0;
    int width = 30;
    int filled = jobs.empty() ? width : static_cast<int>(width * done / jobs.size());
    double eta = rate > 0 ? (jobs.size() - done) / rate : 0;
    err << fmt::format("\r[{}{}] {}/{} seeds  {:.1f}/s  {} elapsed, ETA {}  failures: {}",
                       std::string(filled, '#'), std::string(width - filled, ' '), done, jobs.size(),
                       rate, clockText(secs), done ? clockText(eta) : std::string("?"),
                       failures.load())
        << std::flush;
  };
  auto worker = [&] {
    for (size_t j = next++; j < jobs.size(); j = next++) {
      const auto& sc = scenarios[jobs[j].scenario];
      uint64_t seed = jobs[j].seed;
      Outcome o;
      sim::FaultPlan plan = planForSeed(sc, seed);
      o.plan = plan.toJson();
      auto r = runWithPlan(sc, seed, plan);
      o.traceHash = r.traceHash;
      if (!r.setupError.ok()) {
        o.passed = false;
        o.setupError = true;
        o.report = r.setupError.message();
      } else if (!r.passed()) {
        o.passed = false;
        Shrunk small = shrink(sc, seed, plan, r);
        o.shrunkPlan = small.plan.toJson();
        o.shrunkSummary = small.summary();
        o.report = r.report();
      }
      o.done = true;
      std::lock_guard<std::mutex> lock(mu);
      outcomes[j] = std::move(o);
      ++finished;
      if (!outcomes[j].passed) {
        ++failures;
        ++seedsFailed[jobs[j].scenario];
      }
      if (--seedsLeft[jobs[j].scenario] == 0 && !bar) fileDone(jobs[j].scenario);
      if (bar) progress();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < args.jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (bar) err << "\n";

  // Report in (file, seed) order whatever the thread interleaving.
  int exitCode = kExitOk;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    size_t n = 0, bad = 0;
    for (size_t j = 0; j < jobs.size(); ++j) {
      if (jobs[j].scenario != i) continue;
      ++n;
      const Outcome& o = outcomes[j];
      if (o.passed) continue;
      ++bad;
      if (o.setupError) {
        out << fmt::format("ERROR {} seed {}: {}\n", scenarios[i].file, jobs[j].seed, o.report);
        exitCode = kExitBadInput;
        continue;
      }
      if (exitCode == kExitOk) exitCode = kExitCheckFailed;
      // The full report for the first failing seed of a file; one line for the others.
      out << fmt::format("FAIL {} seed {}\n  fault plan: {}\n  shrunk to:  {}\n  minimal:    {}\n{}",
                         scenarios[i].file, jobs[j].seed, o.plan, o.shrunkPlan, o.shrunkSummary,
                         bad == 1 ? o.report : o.report.substr(0, o.report.find('\n') + 1));
      out << fmt::format("  replay: streamsim replay {} --seed {} --plan {}\n", scenarios[i].file,
                         jobs[j].seed, shellQuote(o.shrunkPlan));
    }
    out << fmt::format("{} {}: {} seeds, {} failed{}\n", bad ? "FAIL" : "PASS", scenarios[i].file, n,
                       bad, shardCount > 1 ? fmt::format(" (shard {}/{})", shardIndex, shardCount) : "");
  }

  if (!args.json.empty()) {
    nlohmann::json j;
    j["shard"] = {{"index", shardIndex}, {"count", shardCount}};
    j["results"] = nlohmann::json::array();
    for (size_t k = 0; k < jobs.size(); ++k) {
      const Outcome& o = outcomes[k];
      nlohmann::json r = {{"file", scenarios[jobs[k].scenario].file},
                          {"name", scenarios[jobs[k].scenario].name},
                          {"seed", jobs[k].seed},
                          {"passed", o.passed},
                          {"traceHash", o.traceHash},
                          {"plan", o.plan}};
      if (!o.passed) {
        r["failure"] = o.report;
        r["shrunkPlan"] = o.shrunkPlan;
        r["shrunkSummary"] = o.shrunkSummary;
        r["replay"] = fmt::format("streamsim replay {} --seed {} --plan {}",
                                  scenarios[jobs[k].scenario].file, jobs[k].seed,
                                  shellQuote(o.shrunkPlan));
      }
      j["results"].push_back(r);
    }
    if (!writeReport(args.json, reportJson(j), "sweep --json", err)) return kExitBadInput;
  }
  if (!args.junit.empty()) {
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
    for (size_t i = 0; i < scenarios.size(); ++i) {
      size_t n = 0, bad = 0;
      for (size_t k = 0; k < jobs.size(); ++k)
        if (jobs[k].scenario == i) {
          ++n;
          if (!outcomes[k].passed) ++bad;
        }
      x << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">\n",
                       xmlEscape(scenarios[i].file), n, bad);
      for (size_t k = 0; k < jobs.size(); ++k) {
        if (jobs[k].scenario != i) continue;
        x << fmt::format("    <testcase classname=\"{}\" name=\"seed {}\"",
                         xmlEscape(scenarios[i].name), jobs[k].seed);
        if (outcomes[k].passed) {
          x << "/>\n";
        } else {
          x << fmt::format(">\n      <failure message=\"{}\">{}\nreplay: streamsim replay {} --seed {} --plan {}</failure>\n    </testcase>\n",
                           xmlEscape("seed " + std::to_string(jobs[k].seed) + " failed"),
                           xmlEscape(outcomes[k].report), xmlEscape(scenarios[i].file),
                           jobs[k].seed, xmlEscape(shellQuote(outcomes[k].shrunkPlan)));
        }
      }
      x << "  </testsuite>\n";
    }
    x << "</testsuites>\n";
    if (!writeReport(args.junit, x.str(), "sweep --junit", err)) return kExitBadInput;
  }
  return exitCode;
}

int replayCommand(const ReplayArgs& args, std::ostream& out, std::ostream& err) {
  auto sc = harness::loadScenario(args.file);
  if (!sc.ok()) {
    err << sc.status().message() << "\n";
    return kExitBadInput;
  }
  sim::FaultPlan plan;
  if (!args.plan.empty()) {
    auto p = sim::FaultPlan::fromJson(args.plan);
    if (!p.ok()) {
      err << fmt::format("streamsim replay: --plan: {}\n", p.status().message());
      return kExitBadInput;
    }
    plan = *p;
  } else {
    plan = planForSeed(*sc, args.seed);
  }
  out << fmt::format("replaying {} seed {}\n{}\n", args.file, args.seed, plan.toString());
  platform::RealEnv real;
  std::string keepDir = args.keep.empty() ? "" : keepDirFor(args.keep, args.file, 1);
  auto r = runWithPlan(*sc, args.seed, plan, args.keep.empty() ? nullptr : real.env().fs, keepDir);
  if (!keepDir.empty()) out << fmt::format("kept the simulated files in {}\n", keepDir);
  if (!r.setupError.ok()) {
    err << fmt::format("{}: cannot run: {}\n", args.file, r.setupError.message());
    return kExitBadInput;
  }
  out << fmt::format("{} ({} batches, {} crashes, trace {})\n", r.passed() ? "PASS" : "FAIL",
                     r.batches, r.crashes, r.traceHash);
  if (r.passed()) return kExitOk;
  if (args.plan.empty()) {
    // The seed's own plan failed: shrink it and print the minimal case and how to replay it.
    Shrunk small = shrink(*sc, args.seed, plan, r);
    out << r.report();
    out << fmt::format("  seed {}: minimal case {}\n  shrunk plan: {}\n", args.seed, small.summary(),
                       small.plan.toJson());
    out << "  replay: " << replayLine(args.file, args.seed, small.plan) << "\n";
  } else {
    out << r.report();
  }
  return kExitCheckFailed;
}

int checkpointReplayCommand(const harness::CheckpointReplayOptions& options, std::ostream& out,
                            std::ostream& err) {
  platform::RealEnv real;
  harness::CheckpointReplayOptions o = options;
  std::error_code ec;
  if (!o.checkpoint.empty()) o.checkpoint = std::filesystem::absolute(o.checkpoint, ec).lexically_normal().string();
  if (!o.landing.empty()) o.landing = std::filesystem::absolute(o.landing, ec).lexically_normal().string();
  if (o.landing.empty() || o.processor.empty() || o.schema.empty()) {
    err << "streamsim replay --checkpoint: --landing, --processor, --group-by and --schema are "
           "required\n";
    return kExitBadInput;
  }
  auto r = harness::replayCheckpoint(real.env(), o);
  if (!r.ok()) {
    err << "streamsim replay: " << r.status().message() << "\n";
    return r.status().code() == Status::Code::kFailedPrecondition ? kExitCheckFailed : kExitBadInput;
  }
  out << fmt::format("replaying {} ({} batch{}) against {} grouped by {}\n", o.checkpoint,
                     r->batches.size(), r->batches.size() == 1 ? "" : "es", o.processor,
                     fmt::join(o.groupBy, ","));
  out << harness::formatReplay(*r);
  return kExitOk;
}

int mergeCommand(const MergeArgs& args, std::ostream& out, std::ostream& err) {
  nlohmann::json merged;
  merged["shard"] = {{"index", 0}, {"count", 1}};
  merged["merged"] = nlohmann::json::array();
  merged["results"] = nlohmann::json::array();
  std::map<std::pair<std::string, uint64_t>, std::string> seen;  // (file, seed) -> report
  std::map<std::string, int> shardCounts;
  bool bad = false;
  for (const auto& f : args.files) {
    bool ok = false;
    std::string text = readFile(f, ok);
    nlohmann::json j;
    if (ok) j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!ok || j.is_discarded() || !j.is_object() || !j.contains("results") ||
        !j["results"].is_array()) {
      err << fmt::format("streamsim merge: {}: {}; expected a `streamsim sweep --json` report\n", f,
                         ok ? "not a sweep report" : "cannot read");
      return kExitBadInput;
    }
    merged["merged"].push_back(f);
    if (j.contains("shard") && j["shard"].contains("count"))
      ++shardCounts[fmt::format("{}", j["shard"]["count"].dump())];
    for (const auto& r : j["results"]) {
      // Each result is what sweep --json writes: {"file": "...", "seed": N, "passed": bool, ...}.
      if (!r.is_object() || !r.contains("file") || !r["file"].is_string() ||
          !r.contains("seed") || !r["seed"].is_number_unsigned() ||
          (r.contains("passed") && !r["passed"].is_boolean()) ||
          (r.contains("replay") && !r["replay"].is_string())) {
        err << fmt::format("streamsim merge: {}: result {} is not a sweep result; expected "
                           "{{\"file\": string, \"seed\": unsigned integer, \"passed\": bool}}, "
                           "found {}\n", f, &r - &j["results"][0],
                           r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        return kExitBadInput;
      }
      auto key = std::make_pair(r["file"].get<std::string>(), r["seed"].get<uint64_t>());
      if (seen.count(key)) {
        err << fmt::format("streamsim merge: {} seed {} is in both {} and {} (overlapping shards?)\n",
                           key.first, key.second, seen[key], f);
        bad = true;
        continue;
      }
      seen[key] = f;
      merged["results"].push_back(r);
    }
  }
  if (bad) return kExitBadInput;
  // Results in (file, seed) order, whatever the order of the shards.
  auto& results = merged["results"];
  std::sort(results.begin(), results.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return std::make_pair(a.value("file", std::string()), a.value("seed", uint64_t{0})) <
           std::make_pair(b.value("file", std::string()), b.value("seed", uint64_t{0}));
  });
  // Seeds missing between the lowest and highest of a file (a shard not given).
  std::map<std::string, std::vector<uint64_t>> seeds;
  for (const auto& [key, f] : seen) seeds[key.first].push_back(key.second);
  int exitCode = kExitOk;
  for (const auto& [file, list] : seeds) {
    // The gaps between consecutive seeds (the list is sorted and distinct); at most the first
    // 20 missing seeds are named, however wide the gaps (seeds 0 and 2^64 - 1).
    constexpr size_t kNamed = 20;
    std::vector<uint64_t> missing;
    uint64_t missingCount = 0;
    for (size_t k = 1; k < list.size(); ++k) {
      const uint64_t gap = list[k] - list[k - 1] - 1;
      missingCount += gap;
      for (uint64_t s = list[k - 1] + 1; s < list[k] && missing.size() < kNamed; ++s)
        missing.push_back(s);
    }
    if (missingCount > 0) {
      err << fmt::format("streamsim merge: {}: seeds {}{} are missing (a shard's report not "
                         "given?)\n", file, fmt::join(missing, ","),
                         missingCount > missing.size()
                             ? fmt::format(",... ({} in all)", missingCount) : std::string());
      exitCode = kExitBadInput;
    }
  }
  size_t failed = 0;
  for (const auto& r : results) {
    if (r.value("passed", true)) continue;
    ++failed;
    out << fmt::format("FAIL {} seed {}\n  replay: {}\n", r.value("file", std::string()),
                       r.value("seed", uint64_t{0}), r.value("replay", std::string()));
  }
  out << fmt::format("{} {} report{}: {} seeds of {} file{}, {} failed\n", failed ? "FAIL" : "PASS",
                     args.files.size(), args.files.size() == 1 ? "" : "s", results.size(),
                     seeds.size(), seeds.size() == 1 ? "" : "s", failed);
  if (!args.json.empty() && !writeReport(args.json, reportJson(merged), "merge --json", err))
    return kExitBadInput;
  if (exitCode != kExitOk) return exitCode;
  return failed ? kExitCheckFailed : kExitOk;
}

}  // namespace streamsim::cli
