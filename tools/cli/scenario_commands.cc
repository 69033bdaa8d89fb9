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
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/output_paths.h"
#include "cli/report_command.h"
#include "streamsim/harness/checkpoint_replay.h"
#include "streamsim/harness/report/html_report.h"
#include "streamsim/harness/report/text_escape.h"
#include "streamsim/harness/run/downtime_range.h"
#include "streamsim/harness/run/pool.h"
#include "streamsim/harness/run/shell_quote.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/sweep.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/platform/platform.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/random.h"

namespace streamsim::cli {
namespace {

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
}  // namespace

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

namespace {

// Input data (file names, scenario names, reports, replay lines) as printed: control characters
// shown, never sent to the user's terminal (harness::shownForTerminal).
std::string shown(std::string_view s) { return harness::shownForTerminal(s); }
std::string shownLines(std::string_view s) { return harness::shownForTerminal(s, /*keepLineBreaks=*/true); }

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

// --keep DIR for one scenario: DIR itself, or DIR/<name> when several (`name` from distinctNames:
// a plain file name, so the folder stays inside DIR).
std::string keepDirFor(const std::string& keep, const std::string& name, size_t count) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(keep, ec).lexically_normal();
  if (count > 1) dir /= name;
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
      err << shownLines(load.errorText());
      ok = false;
      continue;
    }
    out.push_back(std::move(*load.scenario));
  }
  return ok;
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

int runCommand(const RunArgs& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  if (!scenarioFiles(args.files, "run", files, err)) return kExitBadInput;
  std::vector<harness::Scenario> scenarios;
  if (!loadAll(files, scenarios, err)) return kExitBadInput;
  int failed = 0;
  bool badInput = false;
  const bool tty = &out == &std::cout && isatty(STDOUT_FILENO);
  platform::RealEnv real;
  // Each file's own --keep folder and --html page (two x.yaml in different folders apart).
  std::vector<std::string> files2;
  for (const auto& sc : scenarios) files2.push_back(sc.file);
  const std::vector<std::string> names = distinctNames(files2);
  if (!args.keep.empty())
    for (size_t i = 0; i < scenarios.size(); ++i)
      if (!prepareKeepDir(keepDirFor(args.keep, names[i], scenarios.size()), args.replace, "run", err))
        return kExitBadInput;
  for (size_t index = 0; index < scenarios.size(); ++index) {
    const auto& sc = scenarios[index];
    harness::ScenarioRunOptions o;
    o.seed = args.seed;
    o.collectActual = args.update;
    if (!args.keep.empty()) {
      o.keepFs = real.env().fs;
      o.keepDir = keepDirFor(args.keep, names[index], scenarios.size());
    }
    auto r = harness::runScenario(sc, o);
    if (!o.keepDir.empty()) markKeepDir(o.keepDir);
    if (!r.setupError.ok()) {
      err << fmt::format("{}: cannot run: {}\n", shown(sc.file), shownLines(r.setupError.message()));
      badInput = true;
      continue;
    }
    if (args.update && !r.actual.empty()) {
      auto read = platform::readInputFile(sc.file, platform::kMaxSourceFileBytes);
      if (!read.ok()) {
        err << fmt::format("{}: --update: {}\n", sc.file, read.status().message());
        badInput = true;
        continue;
      }
      const std::string& text = *read;
      std::string diff;
      auto updated = harness::updateExpectedRows(text, r.actual, &diff);
      if (!updated.ok()) {
        err << fmt::format("{}: --update: {}\n", sc.file, updated.status().message());
        badInput = true;
        continue;
      }
      if (*updated != text) {
        std::ofstream(sc.file, std::ios::binary) << *updated;
        out << fmt::format("updated {}\n{}", shown(sc.file), shownLines(diff));
      }
      // The updated rows hold by construction; the other checks still count.
      auto rerun = harness::runScenario(*harness::loadScenario(sc.file), o);
      r = std::move(rerun);
    }
    if (!args.keep.empty()) out << fmt::format("kept the simulated files of {} in {}\n", shown(sc.file), shown(o.keepDir));
    if (!args.html.empty()) {
      // One page, or with several files a folder with a page per file.
      std::string page = args.html;
      if (scenarios.size() > 1) {
        std::error_code ec;
        std::filesystem::create_directories(args.html, ec);
        page = (std::filesystem::path(args.html) / boundedFileName(names[index], ".html")).string();
      }
      harness::RunPicture pic;
      pic.file = sc.file;
      pic.name = sc.name;
      pic.passed = r.passed();
      pic.failure = r.report();
      pic.reproduce = fmt::format("{} run {} --seed {}", args.program, harness::shellQuote(sc.file), args.seed);
      pic.run = &r;
      if (!writeRunPage(page, pic, "run --html", err)) return kExitBadInput;
      out << fmt::format("wrote {}\n", shown(page));
    }
    if (r.passed()) {
      out << fmt::format("{} {} ({} batches, {} crashes, trace {})\n", verdict(true, tty), shown(sc.file),
                         r.batches, r.crashes, r.traceHash);
    } else {
      ++failed;
      out << fmt::format("{} {}: {} ({} batches, {} crashes, trace {})\n{}", verdict(false, tty), shown(sc.file),
                         shown(sc.name), r.batches, r.crashes, r.traceHash, shownLines(r.report()));
      out << fmt::format("  reproduce: {} run {} --seed {}\n", shown(args.program), shown(harness::shellQuote(sc.file)),
                         args.seed);
    }
  }
  if (badInput) return kExitBadInput;
  return failed ? kExitCheckFailed : kExitOk;
}

namespace {
// --state-store: every scenario's store replaced (false, said on `err`, for a bad name). A
// real-time scenario keeps its store: a stateful real-time query refuses any provider but RocksDB
// (Spark's SQL_CONFIGURATION_NOT_SUPPORTED), and one naming another shows that refusal; `note`
// (when given) says how many kept theirs.
bool overrideStateStores(std::vector<harness::Scenario>& scenarios, const std::string& store,
                         std::ostream* note, std::ostream& err) {
  if (store.empty()) return true;
  if (store != "memory" && store != "rocksdb") {
    err << fmt::format("streamsim sweep: --state-store '{}': expected memory or rocksdb\n", store);
    return false;
  }
  int kept = 0;
  for (auto& sc : scenarios)
    if (!harness::overrideStateStore(sc, store)) ++kept;
  if (kept > 0 && note != nullptr)
    *note << fmt::format("streamsim sweep: --state-store {}: {} real-time scenario(s) keep their own "
                         "store (real time runs on RocksDB; one naming another store shows Spark's "
                         "refusal of it)\n",
                         store, kept);
  return true;
}
// `--downtime MIN..MAX` over every scenario's sweep.downtime (nothing when empty); false after
// printing why the range is bad.
bool overrideDowntime(std::vector<harness::Scenario>& scenarios, const std::string& downtime,
                      std::ostream& err) {
  if (downtime.empty()) return true;
  auto range = harness::parseDowntimeRange(downtime);
  if (!range.ok()) {
    err << "streamsim sweep: --downtime: " << range.status().message() << "\n";
    return false;
  }
  for (auto& sc : scenarios) {
    if (!sc.sweep) sc.sweep = harness::SweepSpec{};
    sc.sweep->downtimeMin = range->first;
    sc.sweep->downtimeMax = range->second;
  }
  return true;
}
}  // namespace

namespace {
// A worker process's loop: request lines on stdin answered by `serve` on the original stdout;
// stdout itself writes to stderr meanwhile (a processor's print() cannot garble the answers).
int serveOnStdio(const char* command, std::ostream& err,
                 const std::function<std::string(const std::string&)>& serve) {
  std::cout.flush();
  const int answers = ::dup(STDOUT_FILENO);
  if (answers < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    err << "streamsim " << command << ": cannot set up its output\n";
    return kExitBadInput;
  }
  harness::serveWorker(STDIN_FILENO, answers, serve);
  ::close(answers);
  return kExitOk;
}
}  // namespace

int sweepWorkerCommand(const SweepWorkerArgs& args, std::ostream& err) {
  std::vector<harness::Scenario> scenarios;
  if (!loadAll(args.files, scenarios, err)) return kExitBadInput;
  if (!overrideStateStores(scenarios, args.stateStore, nullptr, err)) return kExitBadInput;
  if (!overrideDowntime(scenarios, args.downtime, err)) return kExitBadInput;
  harness::ScenarioSweepOptions so;
  so.program = args.program;
  so.stateStore = args.stateStore;
  std::map<size_t, sim::Reach> reach;
  return serveOnStdio("sweep-worker", err, [&](const std::string& request) {
    return harness::serveSweepRequest(scenarios, so, reach, request);
  });
}

int workloadWorkerCommand(const WorkloadWorkerArgs& args, std::ostream& err) {
  harness::WorkloadConfig config;
  harness::SweepOptions options;
  Status st = harness::preparePythonSweep(args.spec, config, options);
  if (!st.ok()) {
    err << "streamsim workload-worker: " << st.message() << "\n";
    return kExitBadInput;
  }
  options.run.references = harness::makeReferenceCache();  // this worker's fault-free runs
  // The replay lines name this program, as the parent's (it started the worker as argv[0]).
  options.programName = args.program;
  return serveOnStdio("workload-worker", err, [&](const std::string& request) {
    return harness::serveWorkloadRequest(config, options, request);
  });
}

int sweepCommand(const SweepArgs& args, std::ostream& out, std::ostream& err) {
  // Here, not only in the option's check: streamsim.sweep(jobs=...) comes this way too.
  if (args.jobs < 1 || args.jobs > kMaxJobs) {
    err << fmt::format("streamsim sweep: --jobs {}: expected 1 to {}\n", args.jobs, kMaxJobs);
    return kExitBadInput;
  }
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
  if (!overrideStateStores(scenarios, args.stateStore, &err, err)) return kExitBadInput;

  if (!overrideDowntime(scenarios, args.downtime, err)) return kExitBadInput;

  harness::ScenarioSweepOptions so;
  so.seeds = args.seeds;
  so.firstSeed = args.firstSeed;
  so.jobs = args.jobs;
  so.shardIndex = shardIndex;
  so.shardCount = shardCount;
  so.program = args.program;
  so.stateStore = args.stateStore;
  if (std::error_code ec; !args.workerExe.empty() && std::filesystem::is_regular_file(args.workerExe, ec)) {
    so.workerCommand = {args.workerExe, "sweep-worker", "--program", args.program};
    if (!args.stateStore.empty()) so.workerCommand.insert(so.workerCommand.end(), {"--state-store", args.stateStore});
    if (!args.downtime.empty()) so.workerCommand.insert(so.workerCommand.end(), {"--downtime", args.downtime});
    so.workerCommand.push_back("--");
    so.workerCommand.insert(so.workerCommand.end(), files.begin(), files.end());
  }
  const bool bar = !args.noProgress && isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  // Off a terminal (CI logs), one line per file as its last seed finishes.
  std::vector<size_t> seedsLeft(scenarios.size(), 0), seedsFailed(scenarios.size(), 0);
  for (size_t i = 0; i < scenarios.size(); ++i)
    seedsLeft[i] = harness::shardSeeds(args.firstSeed, harness::sweepSeeds(scenarios[i], args.seeds),
                                       shardIndex, shardCount).size();
  so.progress = [&](const harness::ScenarioSeedOutcome& seed, size_t done, size_t total, size_t failures) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!seed.passed) ++seedsFailed[seed.scenario];
    if (--seedsLeft[seed.scenario] == 0 && !bar)
      err << fmt::format("done {} ({} elapsed): {} failed\n", shown(scenarios[seed.scenario].file),
                         clockText(secs), seedsFailed[seed.scenario]);
    if (!bar) return;
    double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
    int width = 30;
    int filled = total == 0 ? width : static_cast<int>(width * done / total);
    double eta = rate > 0 ? static_cast<double>(total - done) / rate : 0;
    err << fmt::format("\r[{}{}] {}/{} seeds  {:.1f}/s  {} elapsed, ETA {}  failures: {}",
                       std::string(filled, '#'), std::string(width - filled, ' '), done, total, rate,
                       clockText(secs), done ? clockText(eta) : std::string("?"), failures)
        << std::flush;
  };
  harness::ScenarioSweepReport report = harness::sweepScenarios(scenarios, so);
  if (bar) err << "\n";
  const auto& outcomes = report.outcomes;

  // Report in (file, seed) order whatever the thread interleaving.
  int exitCode = kExitOk;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    size_t n = 0, bad = 0, judged = 0;
    int64_t planned = 0, fired = 0;
    std::string firstJudged;  // why the first seed judged against the restart reference was
    for (const auto& o : outcomes) {
      if (o.scenario != i) continue;
      ++n;
      planned += o.faults.executablePlanned();
      fired += o.faults.plannedThatFired();
      if (!o.judgedAgainstRestartReference.empty() && judged++ == 0)
        firstJudged = fmt::format("seed {}: {}", o.seed, o.judgedAgainstRestartReference);
      if (o.passed) continue;
      ++bad;
      if (o.setupError) {
        out << fmt::format("ERROR {} seed {}: {}\n  trace:      {}\n  replay: {}\n", shown(scenarios[i].file), o.seed,
                           shownLines(o.report), o.traceHash, shown(o.replay));
        exitCode = kExitBadInput;
        continue;
      }
      if (exitCode == kExitOk) exitCode = kExitCheckFailed;
      // The full report for the first failing seed of a file; one line for the others.
      out << fmt::format("FAIL {} seed {} ({})\n  fault plan: {}\n", shown(scenarios[i].file), o.seed,
                         o.kind.toString(), shown(o.plan));
      if (o.shrunk)
        out << fmt::format("  shrunk to:  {}\n  minimal:    {}, trace {}\n", o.shrunk->plan.toJson(),
                           o.shrunk->summary(), o.shrunk->result.traceHash);
      else
        out << fmt::format("  trace:      {}\n", o.traceHash);
      out << shownLines(bad == 1 ? o.report : o.report.substr(0, o.report.find('\n') + 1));
      out << fmt::format("  replay: {}\n", shown(o.replay));
    }
    out << fmt::format("{} {}: {} seeds, {} failed; {} of {} planned faults fired{}\n", bad ? "FAIL" : "PASS",
                       shown(scenarios[i].file), n, bad, fired, planned,
                       shardCount > 1 ? fmt::format(" (shard {}/{})", shardIndex, shardCount) : "");
    if (judged > 0)
      out << fmt::format("  judged against the restart reference: {} seed{} (first, {})\n", judged,
                         judged == 1 ? "" : "s", shown(firstJudged));
  }
  out << report.totals.line() << "\n";

  if (!args.json.empty() || !args.html.empty()) {
    nlohmann::json j;
    j["shard"] = {{"index", shardIndex}, {"count", shardCount}};
    j["results"] = nlohmann::json::array();
    for (const auto& o : outcomes) j["results"].push_back(o.toJson(scenarios[o.scenario]));
    j["totals"] = report.totals.toJson();
    if (!args.json.empty() && !writeReport(args.json, reportJson(j), "sweep --json", err)) return kExitBadInput;
    auto scenarioOf = [&](const nlohmann::json& result) -> const harness::Scenario* {
      for (const auto& sc : scenarios)
        if (sc.file == result.value("file", std::string())) return &sc;
      return nullptr;
    };
    if (!args.html.empty() && !writeSweepPages(args.html, j, args.program, scenarioOf, out, err))
      return kExitBadInput;
  }
  if (!args.junit.empty()) {
    std::ostringstream x;
    x << fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                     outcomes.size(), report.totals.failed, report.totals.seconds);
    for (size_t i = 0; i < scenarios.size(); ++i) {
      size_t n = 0, bad = 0;
      double secs = 0;
      for (const auto& o : outcomes)
        if (o.scenario == i) {
          ++n;
          secs += o.seconds;
          if (!o.passed) ++bad;
        }
      x << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                       harness::xmlText(scenarios[i].file), n, bad, secs);
      for (const auto& o : outcomes) {
        if (o.scenario != i) continue;
        std::string fired;
        for (const auto& f : o.faults.fired)
          fired += fmt::format("{}{} at {} (batch {}{})", fired.empty() ? "" : "; ", f.kind, f.point, f.batch,
                               f.partition >= 0 ? fmt::format(", partition {}", f.partition) : "");
        x << fmt::format("    <testcase classname=\"{}\" name=\"seed {}\" time=\"{:.3f}\">\n",
                         harness::xmlText(scenarios[i].file), o.seed, o.seconds);
        x << fmt::format("      <properties><property name=\"faults.planned\" value=\"{}\"/>"
                         "<property name=\"faults.fired\" value=\"{}\"/>"
                         "<property name=\"restarts\" value=\"{}\"/>"
                         "<property name=\"crashes\" value=\"{}\"/></properties>\n",
                         o.faults.executablePlanned(), harness::xmlText(fired.empty() ? "none" : fired), o.restarts,
                         o.crashes);
        if (!o.passed)
          x << fmt::format("      <failure message=\"{}\">{}\nreplay: {}</failure>\n",
                           harness::xmlText(fmt::format("seed {} failed ({})", o.seed, o.kind.toString())),
                           harness::xmlText(o.report), harness::xmlText(o.replay));
        x << "    </testcase>\n";
      }
      x << "  </testsuite>\n";
    }
    x << "</testsuites>\n";
    if (!writeReport(args.junit, x.str(), "sweep --junit", err)) return kExitBadInput;
  }
  return exitCode;
}

namespace {

Result<sim::FaultPlan> planArg(const std::string& text) {
  auto p = sim::FaultPlan::fromJson(text);
  if (!p.ok()) return Status::InvalidArgument("--plan: " + p.status().message());
  return p;
}

// `replay <workload> --seed S [--state-store X] [--output-schema DDL] [--time-mode M] [--oracle O]...
// [--determinism] [--batch-split] [--plan JSON] [--files 0,3|none]`: a generated workload's case
// (what harness::replayCommand's lines say).
int replayWorkload(const ReplayArgs& args, std::ostream& out, std::ostream& err) {
  harness::WorkloadReplayArgs w = args.workload;
  w.workload = args.file;
  w.stateStore = args.stateStore;
  harness::WorkloadConfig config;
  harness::RunOptions run;
  if (Status st = harness::workloadForReplay(w, config, run); !st.ok()) {
    err << "streamsim replay: " << args.file << ": " << st.message() << "\n";
    return kExitBadInput;
  }
  harness::RunCase c;
  c.seed = args.seed;
  c.plan = harness::planFor(config, args.seed);
  if (!args.plan.empty()) {
    auto p = planArg(args.plan);
    if (!p.ok()) {
      err << "streamsim replay: " << p.status().message() << "\n";
      return kExitBadInput;
    }
    c.plan = *p;
  }
  if (!args.files.empty()) {
    std::vector<int64_t> files;
    if (args.files != "none") {
      std::stringstream ss(args.files);
      std::string item;
      while (std::getline(ss, item, ',')) {
        try {
          size_t used = 0;
          files.push_back(std::stoll(item, &used));
          if (used != item.size()) throw std::invalid_argument(item);
        } catch (const std::exception&) {
          err << fmt::format("streamsim replay: --files '{}': expected file indices like 0,3 or none\n", args.files);
          return kExitBadInput;
        }
      }
    }
    c.files = files;
  }
  out << fmt::format("replaying workload {} seed {}\n{}\n", shown(config.name), args.seed, shownLines(c.plan.toString()));
  harness::RunResult r = harness::runCase(config, c, run);
  out << fmt::format("{} ({} batches, {} crashes, {} restarts, trace {})\n", r.passed() ? "PASS" : "FAIL",
                     r.batches, r.crashes, r.restarts, r.fingerprintHex());
  if (r.passed()) return kExitOk;
  out << shownLines(r.report());
  return kExitCheckFailed;
}

}  // namespace

int replayCommand(const ReplayArgs& args, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(args.file, ec) && harness::isWorkloadName(args.file))
    return replayWorkload(args, out, err);
  // A generated workload's options mean nothing to a scenario (its landing files are its put
  // steps, its oracles and output its own): refused, not ignored.
  for (auto [given, name] : {std::pair{!args.files.empty(), "--files"},
                             std::pair{!args.workload.outputSchema.empty(), "--output-schema"},
                             std::pair{!args.workload.oracles.empty(), "--oracle"},
                             std::pair{!args.workload.timeMode.empty(), "--time-mode"},
                             std::pair{args.workload.determinism, "--determinism"},
                             std::pair{args.workload.batchSplit, "--batch-split"}})
    if (given) {
      err << fmt::format("streamsim replay: {} is a generated workload's option (a workload sweep's replay "
                         "line); {} is a scenario file, whose steps say these\n", name, shown(args.file));
      return kExitBadInput;
    }
  auto sc = harness::loadScenario(args.file);
  if (!sc.ok()) {
    err << shownLines(sc.status().message()) << "\n";
    return kExitBadInput;
  }
  if (!args.stateStore.empty()) harness::overrideStateStore(*sc, args.stateStore);
  sim::FaultPlan plan;
  if (!args.plan.empty()) {
    auto p = planArg(args.plan);
    if (!p.ok()) {
      err << "streamsim replay: " << p.status().message() << "\n";
      return kExitBadInput;
    }
    plan = *p;
  } else {
    plan = harness::scenarioPlan(*sc, args.seed, harness::scenarioReach(*sc));
  }
  out << fmt::format("replaying {} seed {}\n{}\n", shown(args.file), args.seed, shownLines(plan.toString()));
  platform::RealEnv real;
  std::string keepDir = args.keep.empty() ? "" : keepDirFor(args.keep, "", 1);
  if (!keepDir.empty() && !prepareKeepDir(keepDir, args.replace, "replay", err)) return kExitBadInput;
  auto r = harness::runScenarioSeed(*sc, args.seed, plan, args.keep.empty() ? nullptr : real.env().fs, keepDir);
  if (!keepDir.empty()) {
    markKeepDir(keepDir);
    out << fmt::format("kept the simulated files in {}\n", shown(keepDir));
  }
  if (!r.setupError.ok()) {
    err << fmt::format("{}: cannot run: {}\n", shown(args.file), shownLines(r.setupError.message()));
    return kExitBadInput;
  }
  out << fmt::format("{} ({} batches, {} crashes, {} restarts, trace {})\n", r.passed() ? "PASS" : "FAIL",
                     r.batches, r.crashes, r.restarts, r.traceHash);
  if (!args.html.empty()) {
    harness::RunPicture pic;
    pic.file = args.file;
    pic.name = sc->name;
    pic.seed = args.seed;
    pic.plan = plan.toString();
    pic.passed = r.passed();
    pic.failure = r.report();
    pic.reproduce = harness::scenarioReplayLine(args.program, args.file, args.seed, plan, args.stateStore);
    pic.run = &r;
    if (!writeRunPage(args.html, pic, "replay --html", err)) return kExitBadInput;
    out << fmt::format("wrote {}\n", shown(args.html));
  }
  if (r.passed()) return kExitOk;
  if (args.plan.empty()) {
    // The seed's own plan failed: shrink it and print the minimal case and how to replay it.
    harness::ScenarioShrunk small = harness::shrinkScenarioSeed(*sc, args.seed, plan, r);
    out << shownLines(small.result.passed() ? r.report() : small.result.report());
    out << fmt::format("  seed {}: minimal case {}, trace {}\n  shrunk plan: {}\n", args.seed, small.summary(),
                       small.result.traceHash, small.plan.toJson());
    out << "  replay: "
        << shown(harness::scenarioReplayLine(args.program, args.file, args.seed, small.plan, args.stateStore)) << "\n";
  } else {
    out << shownLines(r.report());
  }
  return kExitCheckFailed;
}

int checkpointReplayCommand(const harness::CheckpointReplayOptions& options, std::ostream& out,
                            std::ostream& err) {
  platform::RealEnv real;
  harness::CheckpointReplayOptions o = options;
  std::error_code ec;
  for (std::string* dir : {&o.checkpoint, &o.landing, &o.sink})
    if (!dir->empty()) *dir = std::filesystem::absolute(*dir, ec).lexically_normal().string();
  if (o.landing.empty() || o.processor.empty() || o.schema.empty()) {
    err << "streamsim replay --checkpoint: --landing, --processor and --schema are required\n";
    return kExitBadInput;
  }
  auto r = harness::replayCheckpoint(real.env(), o);
  if (!r.ok()) {
    err << "streamsim replay: " << r.status().message() << "\n";
    return r.status().code() == Status::Code::kFailedPrecondition ? kExitCheckFailed : kExitBadInput;
  }
  out << fmt::format("replaying {} ({} batch{}) against {} grouped by {}, timeMode {}, {} state store\n",
                     o.checkpoint, r->batches.size(), r->batches.size() == 1 ? "" : "es", o.processor,
                     fmt::join(r->groupBy, ","), r->timeMode, r->stateStore);
  out << shownLines(harness::formatReplay(*r));
  // A batch whose output differs from what the sink committed is a failed check (exit 1).
  return r->firstDifference ? kExitCheckFailed : kExitOk;
}

bool readSweepReports(const std::vector<std::string>& files, std::string_view command, nlohmann::json& merged,
                      std::ostream& err) {
  auto m = harness::mergeSweepReports(files);
  if (!m.ok()) {
    std::stringstream lines(m.status().message());
    for (std::string line; std::getline(lines, line);) err << fmt::format("streamsim {}: {}\n", command, shown(line));
    return false;
  }
  merged = std::move(m->report);
  return true;
}

int mergeCommand(const MergeArgs& args, std::ostream& out, std::ostream& err) {
  auto m = harness::mergeSweepReports(args.files);
  if (!m.ok()) {
    std::stringstream lines(m.status().message());
    for (std::string line; std::getline(lines, line);) err << "streamsim merge: " << shown(line) << "\n";
    return kExitBadInput;
  }
  for (const auto& gap : m->gaps) err << "streamsim merge: " << shown(gap) << " (a shard's report not given?)\n";
  for (const auto& r : m->report["results"]) {
    if (r.value("passed", true)) continue;
    out << fmt::format("FAIL {} seed {}\n  replay: {}\n", shown(r.value("file", std::string())),
                       r.value("seed", uint64_t{0}), shown(r.value("replay", std::string())));
  }
  const size_t failed = m->totals.failed;
  out << fmt::format("{} {} report{}: {} seeds of {} file{}, {} failed\n", failed ? "FAIL" : "PASS",
                     args.files.size(), args.files.size() == 1 ? "" : "s", m->totals.seeds, m->totals.scenarios,
                     m->totals.scenarios == 1 ? "" : "s", failed);
  out << m->totals.line() << "\n";
  if (!args.json.empty() && !writeReport(args.json, reportJson(m->report), "merge --json", err))
    return kExitBadInput;
  if (!m->gaps.empty()) return kExitBadInput;
  return failed ? kExitCheckFailed : kExitOk;
}

}  // namespace streamsim::cli
