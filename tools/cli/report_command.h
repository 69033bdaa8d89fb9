// The HTML pictures of runs and sweeps (harness/report/html_report.h) as the CLI writes them:
// `run/replay --html FILE`, `sweep --html FILE` (and a page per failing seed beside it), and
// `streamsim report REPORT.json... --html FILE` from saved `sweep --json` reports (shards too).
#pragma once

#include <functional>
#include <memory>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "streamsim/harness/report/html_report.h"
#include "streamsim/harness/scenario.h"

namespace streamsim::cli {

// Writes a run's page to `path`; false (with the reason on err) if it could not be written.
bool writeRunPage(const std::string& path, const harness::RunPicture& picture, std::string_view command,
                  std::ostream& err);

// Writes a sweep's page to `path` from its JSON report (`results`, `totals`), and a page for each
// failing seed in the folder `<path without .html>-seeds/` beside it, linked from the sweep's page.
// A failing seed is run again for its page (with its shrunk plan when it has one); `scenarioOf`
// gives the scenario a result ran (null: the seed gets no page of its own).
bool writeSweepPages(const std::string& path, const nlohmann::json& report, const std::string& program,
                     const std::function<const harness::Scenario*(const nlohmann::json& result)>& scenarioOf,
                     std::ostream& out, std::ostream& err);

struct ReportArgs {
  std::string program = "streamsim";
  std::vector<std::string> reports;  // sweep --json files
  std::string html;                  // the page to write
  // What the runner hands its runs (run/registries.h): the failing seeds' scenarios load with it.
  std::shared_ptr<const harness::RunRegistries> registries;
};

// `streamsim report a.json [b.json ...] --html FILE`: 0 when written (whatever the seeds' outcome),
// 2 for a report that can't be read or a page that can't be written.
int reportCommand(const ReportArgs& args, std::ostream& out, std::ostream& err);

}  // namespace streamsim::cli
