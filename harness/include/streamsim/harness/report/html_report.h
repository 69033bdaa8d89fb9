// A picture of a run (issue 19 §5): one self-contained HTML file, no network. A run's page draws
// a timeline in virtual time from the run's trace — batches (planned, offsets written, state
// committed, sink written, commit), files taken, faults, crashes, restarts and downtime, timers
// registered and fired, TTL expiries, the watermark and the state rows of each partition — with
// the violated oracles' events highlighted, and lists every event below it. A sweep's page shows
// seeds x outcome per scenario with a link to each failing seed's page.
//
// The pages are drawn in the browser by a small script from the data embedded in them
// (html_report_assets.cc); `streamsim run/replay/sweep --html FILE` and `streamsim report`
// write them (tools/cli/report_command.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "streamsim/harness/run/outcome.h"

namespace streamsim::harness {

// What a run's page shows besides the run itself.
struct RunPicture {
  std::string file;                // the scenario file (or workload) that ran
  std::string name;                // its name
  std::optional<uint64_t> seed;    // the sweep seed, when it was one
  std::string plan;                // the fault plan as text ("" when none)
  bool passed = false;
  std::string failure;             // the failures and violations as the CLI prints them
  std::string reproduce;           // the command line that runs it again
  const RunOutcome* run = nullptr;  // REQUIRES: non-null
};

// The run's page.
std::string runReportHtml(const RunPicture& picture);

// A sweep's page from its JSON report (`sweep --json`, or `merge`d shards: {"results": [...],
// "totals": {...}}). `seedLinks` maps "file\nseed" to the href of that seed's page (failing seeds
// that have one).
std::string sweepReportHtml(const nlohmann::json& report, const nlohmann::json& seedLinks);

// The href key of a seed in sweepReportHtml's seedLinks.
std::string seedLinkKey(const std::string& file, uint64_t seed);

// `s` with & < > " as entities: safe as HTML or XML text and inside a quoted attribute (the HTML
// pages, the sweep's JUnit XML).
std::string escapeMarkup(std::string_view s);

namespace report_detail {
// The page's script and style (html_report_assets.cc).
extern const char* const kStyle;
extern const char* const kCommonScript;  // before either script
extern const char* const kRunScript;
extern const char* const kSweepScript;
// JSON safe inside <script>: "</" and "<!--" are escaped, invalid UTF-8 replaced.
std::string scriptJson(const nlohmann::json& j);
}  // namespace report_detail

}  // namespace streamsim::harness
