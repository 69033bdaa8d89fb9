// `streamsim run`, `sweep`, `replay` (scenario_commands.h).
#include "cli/scenario_commands.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
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
#include "streamsim/harness/run/generated_scenario.h"
#include "streamsim/harness/oracles/python_variants.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/report/html_report.h"
#include "streamsim/harness/report/text_escape.h"
#include "streamsim/harness/run/api.h"
#include "streamsim/harness/run/downtime_range.h"
#include "streamsim/harness/run/pool.h"
#include "streamsim/harness/run/shell_quote.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/run/workload_config.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/platform/platform.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/random.h"

namespace streamsim::cli {
namespace {

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
  // Only as a regular file: never through a link, into a FIFO (a hang) or a device.
  const Status st = platform::writeOutputFile(path, text);
  if (st.code() == Status::Code::kInvalidArgument) {
    err << fmt::format("streamsim {}: {}\n", command, harness::shownForTerminal(st.message()));
    return false;
  }
  if (!st.ok()) {
    err << fmt::format("streamsim {}: {}: cannot write the report ({})\n", command,
                       harness::shownForTerminal(path), harness::shownForTerminal(st.message()));
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

// The scenario files of a command line, loaded (harness::findScenarioFiles, loadScenarios); false
// after printing why not (every error of every file).
bool loadScenarioArgs(const std::vector<std::string>& paths, const char* command,
                      const std::shared_ptr<const harness::RunRegistries>& registries,
                      std::vector<harness::Scenario>& out, std::ostream& err) {
  auto files = harness::findScenarioFiles(paths);
  if (!files.ok()) {
    err << fmt::format("streamsim {}: {}\n", command, files.status().message());
    return false;
  }
  auto loaded = harness::loadScenarios(*files, registries);
  if (!loaded.ok()) {
    err << loaded.status().message() << "\n";
    return false;
  }
  out = std::move(*loaded);
  return true;
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
  std::vector<harness::Scenario> scenarios;
  if (!loadScenarioArgs(args.files, "run", args.registries, scenarios, err)) return kExitBadInput;
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
      harness::LoaderOptions lo;
      lo.registries = args.registries;
      auto rerun = harness::runScenario(*harness::loadScenario(sc.file, lo), o);
      r = std::move(rerun);
    }
    if (!args.keep.empty()) out << fmt::format("kept the simulated files of {} in {}\n", shown(sc.file), shown(o.keepDir));
    if (!args.html.empty()) {
      // One page, or with several files a folder with a page per file.
      std::string page = args.html;
      if (scenarios.size() > 1) {
        if (const Status st = platform::prepareOutputFolder(args.html); !st.ok()) {
          err << fmt::format("streamsim run --html: {}\n", shown(st.message()));
          return kExitBadInput;
        }
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
    if (!r.passed()) ++failed;
    out << harness::runVerdictText(sc, r, args.program, args.seed, verdict(true, tty), verdict(false, tty));
  }
  if (badInput) return kExitBadInput;
  return failed ? kExitCheckFailed : kExitOk;
}


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
  harness::SweepRequest q;
  q.paths = args.files;
  q.stateStore = args.stateStore;
  q.downtime = args.downtime;
  auto loaded = harness::loadScenarios(args.files, args.registries);
  if (!loaded.ok()) {
    err << loaded.status().message() << "\n";
    return kExitBadInput;
  }
  std::vector<harness::Scenario> scenarios = std::move(*loaded);
  if (Status st = harness::prepareScenarios(scenarios, q, nullptr); !st.ok()) {
    err << "streamsim sweep-worker: " << st.message() << "\n";
    return kExitBadInput;
  }
  harness::ScenarioSweepOptions so;
  so.program = args.program;
  so.stateStore = args.stateStore;
  so.keptWorkers = std::make_shared<harness::KeptWorkers>(harness::kPythonHashSeeds);
  std::map<size_t, sim::Reach> reach;
  return serveOnStdio("sweep-worker", err, [&](const std::string& request) {
    return harness::serveSweepRequest(scenarios, so, reach, request);
  });
}

int hashSeedWorkerCommand(const HashSeedWorkerArgs& args, std::ostream& err) {
  // Before the first Python processor loads: the interpreter starts with it.
  if (args.registries != nullptr && args.registries->setPythonHashSeed != nullptr)
    args.registries->setPythonHashSeed(args.hashSeed);
  harness::LoaderOptions lo;
  lo.registries = args.registries;
  // A sweep's workers serve all of its files ("SEED FILE"); one started with a file, as the
  // command printed with a failure is, also answers a bare "SEED" for it. Each file loads once.
  std::map<std::string, Result<harness::Scenario>> loaded;
  return serveOnStdio("hash-seed-worker", err, [&](const std::string& request) {
    auto read = harness::readHashSeedRequest(request, args.file);
    if (!read) return std::string();
    const auto& [seed, file] = *read;
    if (file.empty())
      return harness::hashSeedAnswer(Status::InvalidArgument(
          "a request without a scenario file to a worker started without one (expected \"SEED FILE\")"));
    auto it = loaded.find(file);
    if (it == loaded.end()) it = loaded.emplace(file, harness::loadScenario(file, lo)).first;
    if (!it->second.ok()) return harness::hashSeedAnswer(it->second.status());
    return harness::hashSeedAnswer(harness::variantSink(*it->second, seed));
  });
}

int workloadWorkerCommand(const WorkloadWorkerArgs& args, std::ostream& err) {
  harness::WorkloadConfig config;
  harness::RunOptions run;
  Status st = harness::preparePythonSweep(args.spec, config, run);
  auto sc = st.ok() ? harness::generatedScenario(config, 0, {}, run) : Result<harness::Scenario>(st);
  if (!sc.ok()) {
    err << "streamsim workload-worker: " << sc.status().message() << "\n";
    return kExitBadInput;
  }
  // The parent sweeps this one scenario (harness::sweepGenerated): its requests are "0 <seed>".
  const std::vector<harness::Scenario> scenarios{std::move(*sc)};
  harness::ScenarioSweepOptions so;
  // The replay lines name this program, as the parent's (it started the worker as argv[0]).
  so.program = args.program;
  std::map<size_t, sim::Reach> reach;
  return serveOnStdio("workload-worker", err, [&](const std::string& request) {
    return harness::serveSweepRequest(scenarios, so, reach, request);
  });
}

int sweepCommand(const SweepArgs& args, std::ostream& out, std::ostream& err) {
  harness::SweepRequest q;
  q.paths = {args.path};
  q.seeds = args.seeds;
  q.firstSeed = args.firstSeed;
  q.jobs = args.jobs;
  if (!args.shard.empty() && !parseShard(args.shard, q.shardIndex, q.shardCount)) {
    err << fmt::format("streamsim sweep: --shard '{}': expected i/n with 0 <= i < n, e.g. 0/4\n",
                       shown(args.shard));
    return kExitBadInput;
  }
  q.stateStore = args.stateStore;
  q.downtime = args.downtime;
  q.program = args.program;
  q.workerExe = args.workerExe;
  q.registries = args.registries;
  const bool bar = !args.noProgress && isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  // Off a terminal (CI logs), one line per file as its last seed finishes: the sweep calls back
  // with the scenarios it loaded, so their seeds are counted on the first call.
  std::vector<size_t> seedsLeft, seedsFailed;
  const std::vector<harness::Scenario>* swept = nullptr;
  q.progress = [&](const harness::ScenarioSeedOutcome& seed, size_t done, size_t total, size_t failures) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (swept == nullptr) return;
    if (seedsLeft.empty()) {
      seedsLeft.assign(swept->size(), 0);
      seedsFailed.assign(swept->size(), 0);
      for (size_t i = 0; i < swept->size(); ++i)
        seedsLeft[i] = harness::shardSeeds(q.firstSeed, harness::sweepSeeds((*swept)[i], q.seeds), q.shardIndex,
                                           q.shardCount).size();
    }
    if (!seed.passed) ++seedsFailed[seed.scenario];
    if (--seedsLeft[seed.scenario] == 0 && !bar)
      err << fmt::format("done {} ({} elapsed): {} failed\n", shown((*swept)[seed.scenario].file),
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
  q.loaded = [&](const std::vector<harness::Scenario>& scenarios) { swept = &scenarios; };
  auto sweep = harness::sweepPaths(q);
  if (!sweep.ok()) {
    err << "streamsim sweep: " << sweep.status().message() << "\n";
    return kExitBadInput;
  }
  if (bar) err << "\n";
  if (!sweep->notes.empty()) err << "streamsim sweep: " << shownLines(sweep->notes);
  const harness::SweepSummary summary = harness::sweepSummary(*sweep);
  out << summary.text;
  const int exitCode = summary.exitCode();
  if (!args.json.empty() || !args.html.empty()) {
    const nlohmann::json j = harness::sweepReportJson(*sweep);
    if (!args.json.empty() && !writeReport(args.json, reportJson(j), "sweep --json", err)) return kExitBadInput;
    auto scenarioOf = [&](const nlohmann::json& result) -> const harness::Scenario* {
      for (const auto& sc : sweep->scenarios)
        if (sc.file == result.value("file", std::string())) return &sc;
      return nullptr;
    };
    if (!args.html.empty() && !writeSweepPages(args.html, j, args.program, scenarioOf, out, err))
      return kExitBadInput;
  }
  if (!args.junit.empty() && !writeReport(args.junit, harness::sweepJunitXml(*sweep), "sweep --junit", err))
    return kExitBadInput;
  return exitCode;
}

namespace {

Result<sim::FaultPlan> planArg(const std::string& text) {
  auto p = sim::FaultPlan::fromJson(text);
  if (!p.ok()) return Status::InvalidArgument("--plan: " + p.status().message());
  return p;
}

// `replay <workload> --seed S [--state-store X] [--output-schema DDL] [--time-mode M] [--oracle O]...
// [--determinism] [--batch-split] [--plan JSON] [--files 0,3|none]`: a generated workload's seed
// (the replay line of a seed of harness::sweepGenerated).
int replayWorkload(const ReplayArgs& args, std::ostream& out, std::ostream& err) {
  harness::WorkloadReplayArgs w = args.workload;
  w.registries = args.registries;
  w.workload = args.file;
  w.stateStore = args.stateStore;
  harness::WorkloadConfig config;
  harness::RunOptions run;
  if (Status st = harness::workloadForReplay(w, config, run); !st.ok()) {
    err << "streamsim replay: " << args.file << ": " << st.message() << "\n";
    return kExitBadInput;
  }
  std::optional<sim::FaultPlan> plan;
  if (!args.plan.empty()) {
    auto p = planArg(args.plan);
    if (!p.ok()) {
      err << "streamsim replay: " << p.status().message() << "\n";
      return kExitBadInput;
    }
    plan = *p;
  }
  std::optional<std::vector<int64_t>> files;
  if (!args.files.empty()) {
    files.emplace();
    if (args.files != "none") {
      std::stringstream ss(args.files);
      std::string item;
      while (std::getline(ss, item, ',')) {
        try {
          size_t used = 0;
          files->push_back(std::stoll(item, &used));
          if (used != item.size()) throw std::invalid_argument(item);
        } catch (const std::exception&) {
          err << fmt::format("streamsim replay: --files '{}': expected file indices like 0,3 or none\n", args.files);
          return kExitBadInput;
        }
      }
    }
  }
  // The seed as the sweep ran it (harness::sweepGenerated): its scenario, plan and input.
  auto done = harness::runGeneratedSeed(config, args.seed, run, plan, files);
  if (!done.ok()) {
    err << "streamsim replay: " << args.file << ": " << done.status().message() << "\n";
    return kExitBadInput;
  }
  const harness::ScenarioRunResult& r = done->result;
  out << fmt::format("replaying workload {} seed {}\n{}\n", shown(config.name), args.seed,
                     shownLines(done->plan.toString()));
  out << fmt::format("{} ({} batches, {} crashes, {} restarts, trace {})\n", r.passed() ? "PASS" : "FAIL",
                     r.batches, r.crashes, r.restarts, r.traceHash);
  if (r.passed()) return kExitOk;
  out << shownLines(r.report());
  return r.setupError.ok() ? kExitCheckFailed : kExitBadInput;
}

}  // namespace

int replayCommand(const ReplayArgs& args, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(args.file, ec) && harness::isWorkloadName(args.file, args.registries.get()))
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
  harness::LoaderOptions lo;
  lo.registries = args.registries;
  auto sc = harness::loadScenario(args.file, lo);
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
  auto r = harness::runScenarioSeed(*sc, args.seed, plan, args.keep.empty() ? nullptr : real.env().fs, keepDir,
                                    args.hashSeed);
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
    pic.reproduce = harness::scenarioReplayLine(args.program, args.file, args.seed, plan, args.stateStore,
                                                harness::hashSeedInReplayLine(*sc));
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
        << shown(harness::scenarioReplayLine(args.program, args.file, args.seed, small.plan, args.stateStore,
                                                harness::hashSeedInReplayLine(*sc))) << "\n";
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
  for (std::string* dir : {&o.checkpoint, &o.landing, &o.sink, &o.kafkaRecords})
    if (!dir->empty()) *dir = std::filesystem::absolute(*dir, ec).lexically_normal().string();
  if (o.processor.empty() || (o.kafkaRecords.empty() && (o.landing.empty() || o.schema.empty()))) {
    err << "streamsim replay --checkpoint: --processor is required, and --landing with --schema (a file source, "
           "or new input for a source that keeps no data) or --kafka-records (a Kafka source)\n";
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
