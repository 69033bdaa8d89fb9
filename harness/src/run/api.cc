// The run API (run/api.h): scenario files found, loaded, run and swept, and what a sweep reports.
#include "streamsim/harness/run/api.h"

#include "streamsim/harness/oracles/not_checked.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "streamsim/harness/report/text_escape.h"
#include "streamsim/harness/run/downtime_range.h"
#include "streamsim/harness/run/shell_quote.h"

namespace streamsim::harness {
namespace {

std::string shown(std::string_view s) { return shownForTerminal(s); }
std::string shownLines(std::string_view s) { return shownForTerminal(s, /*keepLineBreaks=*/true); }

// --state-store: every scenario's store replaced. A real-time scenario keeps its store (a
// stateful real-time query refuses any provider but RocksDB, Spark's SQL_CONFIGURATION_NOT_SUPPORTED,
// and one naming another shows that refusal); the note says how many kept theirs.
Status overrideStateStores(std::vector<Scenario>& scenarios, const std::string& store, std::string& notes) {
  if (store.empty()) return Status::OK();
  if (store != "memory" && store != "rocksdb")
    return Status::InvalidArgument(fmt::format("--state-store '{}': expected memory or rocksdb", store));
  int kept = 0;
  for (auto& sc : scenarios)
    if (!overrideStateStore(sc, store)) ++kept;
  if (kept > 0)
    notes += fmt::format("--state-store {}: {} real-time scenario(s) keep their own store (real time runs on "
                         "RocksDB; one naming another store shows Spark's refusal of it)\n",
                         store, kept);
  return Status::OK();
}

// --downtime MIN..MAX over every scenario's sweep.downtime.
Status overrideDowntime(std::vector<Scenario>& scenarios, const std::string& downtime) {
  if (downtime.empty()) return Status::OK();
  auto range = parseDowntimeRange(downtime);
  if (!range.ok()) return Status::InvalidArgument("--downtime: " + range.status().message());
  for (auto& sc : scenarios) {
    if (!sc.sweep) sc.sweep = SweepSpec{};
    sc.sweep->downtimeMin = range->first;
    sc.sweep->downtimeMax = range->second;
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<std::string>> findScenarioFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      std::vector<std::string> found;
      // increment(ec), not a range-for: a subfolder that cannot be read is an error, never a throw.
      std::filesystem::recursive_directory_iterator it(path, ec), end;
      for (; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".yaml") found.push_back(it->path().string());
      if (ec) return Status::InvalidArgument(fmt::format("{}: cannot list the folder: {}", shown(path), ec.message()));
      std::sort(found.begin(), found.end());
      if (found.empty()) return Status::InvalidArgument(fmt::format("no *.yaml scenario under {}", shown(path)));
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(path, ec)) {
      files.push_back(path);
    } else {
      return Status::InvalidArgument(fmt::format("{}: no such file or folder", shown(path)));
    }
  }
  return files;
}

Result<std::vector<Scenario>> loadScenarios(const std::vector<std::string>& files,
                                            std::shared_ptr<const RunRegistries> registries) {
  std::vector<Scenario> out;
  std::string errors;
  LoaderOptions options;
  options.registries = std::move(registries);
  for (const auto& f : files) {
    auto load = loadScenarioFile(f, options);
    if (!load.ok()) {
      errors += shownLines(load.errorText());
      continue;
    }
    out.push_back(std::move(*load.scenario));
  }
  if (!errors.empty()) {
    if (errors.back() == '\n') errors.pop_back();
    return Status::InvalidArgument(errors);
  }
  return out;
}

std::string runVerdictText(const Scenario& sc, const ScenarioRunResult& r, const std::string& program,
                           uint64_t seed, const std::string& pass, const std::string& fail) {
  if (r.passed())
    return fmt::format("{} {} ({} batches, {} crashes, trace {})\n", pass, shown(sc.file), r.batches, r.crashes,
                       r.traceHash);
  return fmt::format("{} {}: {} ({} batches, {} crashes, trace {})\n{}  reproduce: {} run {} --seed {}\n", fail,
                     shown(sc.file), shown(sc.name), r.batches, r.crashes, r.traceHash, shownLines(r.report()),
                     shown(program), shown(shellQuote(sc.file)), seed);
}

Status prepareScenarios(std::vector<Scenario>& scenarios, const SweepRequest& request, std::string* notes) {
  std::string ignored;
  STREAMSIM_RETURN_IF_ERROR(overrideStateStores(scenarios, request.stateStore, notes ? *notes : ignored));
  return overrideDowntime(scenarios, request.downtime);
}

Result<SweepResult> sweepPaths(const SweepRequest& q) {
  if (q.jobs < 1 || q.jobs > kMaxSweepJobs)
    return Status::InvalidArgument(fmt::format("--jobs {}: expected 1 to {}", q.jobs, kMaxSweepJobs));
  if (q.seeds < 0) return Status::InvalidArgument("--seeds must be >= 1");
  // The seeds are first .. first + n - 1: they must not wrap past 2^64 - 1.
  if (q.seeds > 0 && q.firstSeed > UINT64_MAX - static_cast<uint64_t>(q.seeds - 1))
    return Status::InvalidArgument(fmt::format("--first-seed {} --seeds {} runs past the last seed "
                                               "18446744073709551615", q.firstSeed, q.seeds));
  if (q.shardCount < 1 || q.shardIndex < 0 || q.shardIndex >= q.shardCount)
    return Status::InvalidArgument(fmt::format("--shard '{}/{}': expected i/n with 0 <= i < n, e.g. 0/4",
                                               q.shardIndex, q.shardCount));
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<std::string> files, findScenarioFiles(q.paths));
  SweepResult out;
  STREAMSIM_ASSIGN_OR_RETURN(out.scenarios, loadScenarios(files, q.registries));
  STREAMSIM_RETURN_IF_ERROR(prepareScenarios(out.scenarios, q, &out.notes));
  if (q.loaded) q.loaded(out.scenarios);
  out.shardIndex = q.shardIndex;
  out.shardCount = q.shardCount;
  ScenarioSweepOptions so;
  so.seeds = q.seeds;
  so.firstSeed = q.firstSeed;
  so.jobs = q.jobs;
  so.shardIndex = q.shardIndex;
  so.shardCount = q.shardCount;
  so.program = q.program;
  so.stateStore = q.stateStore;
  so.progress = q.progress;
  if (std::error_code ec; !q.workerExe.empty() && std::filesystem::is_regular_file(q.workerExe, ec)) {
    so.workerCommand = {q.workerExe, "sweep-worker", "--program", q.program};
    if (!q.stateStore.empty()) so.workerCommand.insert(so.workerCommand.end(), {"--state-store", q.stateStore});
    if (!q.downtime.empty()) so.workerCommand.insert(so.workerCommand.end(), {"--downtime", q.downtime});
    so.workerCommand.push_back("--");
    so.workerCommand.insert(so.workerCommand.end(), files.begin(), files.end());
  }
  out.report = sweepScenarios(out.scenarios, so);
  return out;
}

SweepSummary sweepSummary(const SweepResult& sweep) {
  SweepSummary s;
  std::ostringstream out;
  // In (file, seed) order whatever the thread interleaving.
  std::map<std::string, std::string> notChecked;  // oracle -> when to add it
  for (size_t i = 0; i < sweep.scenarios.size(); ++i) {
    const Scenario& sc = sweep.scenarios[i];
    size_t n = 0, bad = 0, judged = 0;
    int64_t planned = 0, fired = 0;
    std::string firstJudged;  // why the first seed judged against the restart reference was
    for (const auto& o : sweep.report.outcomes) {
      if (o.scenario != i) continue;
      ++n;
      planned += o.faults.executablePlanned();
      fired += o.faults.plannedThatFired();
      if (!o.judgedAgainstRestartReference.empty() && judged++ == 0)
        firstJudged = fmt::format("seed {}: {}", o.seed, o.judgedAgainstRestartReference);
      if (o.passed) continue;
      ++bad;
      if (o.setupError) {
        ++s.setupErrors;
        out << fmt::format("ERROR {} seed {}: {}\n  trace:      {}\n  replay: {}\n", shown(sc.file), o.seed,
                           shownLines(o.report), o.traceHash, shown(o.replay));
        continue;
      }
      ++s.failedSeeds;
      // The full report for the first failing seed of a file; one line for the others.
      out << fmt::format("FAIL {} seed {} ({})\n  fault plan: {}\n", shown(sc.file), o.seed, o.kind.toString(),
                         shown(o.plan));
      if (o.shrunk)
        out << fmt::format("  shrunk to:  {}\n  minimal:    {}, trace {}\n", o.shrunk->plan.toJson(),
                           o.shrunk->summary(), o.shrunk->result.traceHash);
      else
        out << fmt::format("  trace:      {}\n", o.traceHash);
      out << shownLines(bad == 1 ? o.report : o.report.substr(0, o.report.find('\n') + 1));
      if (!o.noReplay.empty())  // a scenario a C++ program built with hooks no line can rebuild
        out << fmt::format("  {}; in this program, runScenarioSeed(*scenarioOfSeed(scenario, {}, plan, files), {}, "
                           "plan) (run/scenario_sweep.h) with the plan{} above reproduces it\n",
                           shown(o.noReplay), o.seed, o.seed, o.shrunk && o.shrunk->files ? fmt::format(
                               " and files [{}]", fmt::join(*o.shrunk->files, ",")) : "");
      else
        out << fmt::format("  replay: {}\n", shown(o.replay));
    }
    out << fmt::format("{} {}: {} seeds, {} failed; {} of {} planned faults fired{}\n", bad ? "FAIL" : "PASS",
                       shown(sc.file), n, bad, fired, planned,
                       sweep.shardCount > 1 ? fmt::format(" (shard {}/{})", sweep.shardIndex, sweep.shardCount)
                                            : "");
    if (judged > 0)
      out << fmt::format("  judged against the restart reference: {} seed{} (first, {})\n", judged,
                         judged == 1 ? "" : "s", shown(firstJudged));
    std::vector<std::string> names;
    for (const NotChecked& n : notCheckedOracles(sc)) {
      names.push_back(n.oracle);
      notChecked.try_emplace(n.oracle, n.addIf);
    }
    if (!names.empty()) out << fmt::format("  not checked: {}\n", fmt::join(names, ", "));
  }
  // What each oracle left out needs, once: nothing is silently off.
  for (const auto& [oracle, addIf] : notChecked)
    out << fmt::format("not checked: {} — add it to oracles: if {}\n", oracle, addIf);
  out << sweep.report.totals.line() << "\n";
  s.text = out.str();
  return s;
}

nlohmann::json sweepReportJson(const SweepResult& sweep) {
  nlohmann::json j;
  j["shard"] = {{"index", sweep.shardIndex}, {"count", sweep.shardCount}};
  j["results"] = nlohmann::json::array();
  for (const auto& o : sweep.report.outcomes) j["results"].push_back(o.toJson(sweep.scenarios[o.scenario]));
  j["totals"] = sweep.report.totals.toJson();
  return j;
}

std::string sweepJunitXml(const SweepResult& sweep) {
  const auto& outcomes = sweep.report.outcomes;
  std::ostringstream x;
  x << fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n",
                   outcomes.size(), sweep.report.totals.failed, sweep.report.totals.seconds);
  for (size_t i = 0; i < sweep.scenarios.size(); ++i) {
    const std::string& file = sweep.scenarios[i].file;
    size_t n = 0, bad = 0;
    double secs = 0;
    for (const auto& o : outcomes)
      if (o.scenario == i) {
        ++n;
        secs += o.seconds;
        if (!o.passed) ++bad;
      }
    x << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n", xmlText(file), n,
                     bad, secs);
    for (const auto& o : outcomes) {
      if (o.scenario != i) continue;
      std::string fired;
      for (const auto& f : o.faults.fired)
        fired += fmt::format("{}{} at {} (batch {}{})", fired.empty() ? "" : "; ", f.kind, f.point, f.batch,
                             f.partition >= 0 ? fmt::format(", partition {}", f.partition) : "");
      x << fmt::format("    <testcase classname=\"{}\" name=\"seed {}\" time=\"{:.3f}\">\n", xmlText(file), o.seed,
                       o.seconds);
      x << fmt::format("      <properties><property name=\"faults.planned\" value=\"{}\"/>"
                       "<property name=\"faults.fired\" value=\"{}\"/>"
                       "<property name=\"restarts\" value=\"{}\"/>"
                       "<property name=\"crashes\" value=\"{}\"/></properties>\n",
                       o.faults.executablePlanned(), xmlText(fired.empty() ? "none" : fired), o.restarts, o.crashes);
      if (!o.passed)
        x << fmt::format("      <failure message=\"{}\">{}\nreplay: {}</failure>\n",
                         xmlText(fmt::format("seed {} failed ({})", o.seed, o.kind.toString())), xmlText(o.report),
                         xmlText(o.replay));
      x << "    </testcase>\n";
    }
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace streamsim::harness
