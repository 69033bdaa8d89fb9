// `--html` pages and `streamsim report` (report_command.h).
#include "cli/report_command.h"

#include <filesystem>
#include <map>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "cli/cli.h"
#include "cli/output_paths.h"
#include "cli/scenario_commands.h"
#include "streamsim/harness/report/text_escape.h"
#include "streamsim/harness/run/scenario_sweep.h"
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/platform/platform.h"
#include "streamsim/sim/fault_plan.h"

namespace streamsim::cli {

bool writeRunPage(const std::string& path, const harness::RunPicture& picture, std::string_view command,
                  std::ostream& err) {
  return writeReport(path, harness::runReportHtml(picture), command, err);
}

namespace {

// Each failing seed's page runs it again: a bound on the time a sweep with many failures takes.
constexpr size_t kMaxSeedPages = 200;

// `<page without .html>-seeds`: the folder of a sweep page's seed pages.
std::filesystem::path seedFolder(const std::string& page) {
  std::filesystem::path p(page);
  return p.parent_path() / (p.stem().string() + "-seeds");
}

// A file name for one seed's page: the scenario file's path with '/' as '_', at most 255 bytes
// (a deep folder's path is cut from the front and hashed: boundedFileName).
std::string seedPageName(const std::string& file, uint64_t seed) {
  std::string name = std::filesystem::path(file).lexically_normal().replace_extension().string();
  for (char& c : name)
    if (c == '/' || c == '\\' || c == '.' || c == ' ') c = '_';
  return boundedFileName(name, fmt::format("-seed-{}.html", seed));
}

}  // namespace

bool writeSweepPages(const std::string& path, const nlohmann::json& report, const std::string& program,
                     const std::function<const harness::Scenario*(const nlohmann::json& result)>& scenarioOf,
                     std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    err << fmt::format("streamsim: --html {}: is a folder; expected a file to write the page to\n", path);
    return false;
  }
  nlohmann::json links = nlohmann::json::object();
  const std::filesystem::path folder = seedFolder(path);
  size_t pages = 0;
  for (const auto& r : report.value("results", nlohmann::json::array())) {
    if (!r.is_object() || r.value("passed", true)) continue;
    if (pages == kMaxSeedPages) {
      out << fmt::format("--html: the first {} failing seeds got a page of their own; the others are "
                         "listed with their replay lines\n", kMaxSeedPages);
      break;
    }
    const std::string file = r.value("file", std::string());
    const uint64_t seed = r.value("seed", uint64_t{0});
    const harness::Scenario* sc = scenarioOf(r);
    if (sc == nullptr) continue;
    // The minimal case when the seed was shrunk: what its replay line runs.
    const bool shrunk = r.contains("shrunkPlan") && r["shrunkPlan"].is_string();
    auto plan = sim::FaultPlan::fromJson(shrunk ? r["shrunkPlan"].get<std::string>() : r.value("plan", std::string()));
    if (!plan.ok()) plan = harness::scenarioPlan(*sc, seed, harness::scenarioReach(*sc));
    harness::ScenarioRunResult run = harness::runScenarioSeed(*sc, seed, *plan);
    harness::RunPicture pic;
    pic.file = file;
    pic.name = sc->name;
    pic.seed = seed;
    pic.plan = (shrunk ? "shrunk: " : "") + plan->toString();
    pic.passed = run.passed();
    pic.failure = run.setupError.ok() ? run.report() : run.setupError.message();
    pic.reproduce = r.value("replay", harness::scenarioReplayLine(program, file, seed, *plan));
    pic.run = &run;
    if (pages == 0) {
      // The seed pages stay in `<page>-seeds`: never a link to somewhere else.
      if (const Status st = platform::prepareOutputFolder(folder.string()); !st.ok()) {
        err << fmt::format("streamsim: --html: {}\n", harness::shownForTerminal(st.message()));
        return false;
      }
    }
    const std::string name = seedPageName(file, seed);
    if (!writeRunPage((folder / name).string(), pic, "--html", err)) return false;
    links[harness::seedLinkKey(file, seed)] = (std::filesystem::path(folder.filename()) / name).string();
    ++pages;
  }
  if (!writeReport(path, harness::sweepReportHtml(report, links), "--html", err)) return false;
  out << fmt::format("wrote {}{}\n", path,
                     pages ? fmt::format(" and {} failing seed page{} in {}", pages, pages == 1 ? "" : "s",
                                         folder.string())
                           : std::string());
  return true;
}

int reportCommand(const ReportArgs& args, std::ostream& out, std::ostream& err) {
  nlohmann::json merged;
  if (!readSweepReports(args.reports, "report", merged, err)) return kExitBadInput;
  // Each failing seed's scenario, loaded once from the file its result names, on the state store
  // the seed ran on.
  std::map<std::pair<std::string, std::string>, std::optional<harness::Scenario>> loaded;
  auto scenarioOf = [&](const nlohmann::json& result) -> const harness::Scenario* {
    const std::string file = result.value("file", std::string());
    const std::string store = result.value("stateStore", std::string());
    auto [it, fresh] = loaded.try_emplace({file, store});
    if (fresh) {
      harness::LoaderOptions lo;
      lo.registries = args.registries;
      auto sc = harness::loadScenario(file, lo);
      if (sc.ok()) {
        if (!store.empty()) sc->query.stateStore = store;
        it->second = std::move(*sc);
      } else {
        err << fmt::format("streamsim report: {} (a failing seed's scenario): {}; its seeds get no page\n",
                           harness::shownForTerminal(file), harness::shownForTerminal(sc.status().message(), true));
      }
    }
    return it->second ? &*it->second : nullptr;
  };
  return writeSweepPages(args.html, merged, args.program, scenarioOf, out, err) ? kExitOk : kExitBadInput;
}

}  // namespace streamsim::cli
