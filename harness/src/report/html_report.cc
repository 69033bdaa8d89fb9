// The pages of a run and of a sweep (report/html_report.h): the data they draw, embedded.
#include "streamsim/harness/report/html_report.h"
#include "streamsim/json_nesting.h"

#include <unordered_map>

#include <fmt/format.h>

namespace streamsim::harness {

namespace report_detail {

std::string scriptJson(const nlohmann::json& j) {
  std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    // Inside a JSON string "\/" is "/": "</script>" and "<!--" can't end or comment the block.
    if (text[i] == '<' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '!')) {
      out += "\\u003c";
      continue;
    }
    out += text[i];
  }
  return out;
}

}  // namespace report_detail

std::string escapeMarkup(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

using report_detail::scriptJson;

std::string page(const std::string& title, const nlohmann::json& data, const char* script) {
  return fmt::format(
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"generator\" content=\"streamsim\">\n<title>{}</title>\n<style>{}</style>\n</head>\n"
      "<body>\n<main id=\"app\"></main>\n"
      "<noscript>This report is drawn by its own script (no network); allow scripts to see it.</noscript>\n"
      "<script type=\"application/json\" id=\"data\">{}</script>\n<script>{}{}</script>\n</body>\n</html>\n",
      escapeMarkup(title), report_detail::kStyle, scriptJson(data), report_detail::kCommonScript, script);
}

}  // namespace

std::string runReportHtml(const RunPicture& p) {
  const RunOutcome& run = *p.run;
  nlohmann::json events = nlohmann::json::array();
  std::unordered_map<std::string_view, std::vector<size_t>> lineAt;
  for (size_t i = 0; i < run.trace.size(); ++i) {
    const std::string& line = run.trace[i];
    lineAt[line].push_back(i);
    nlohmann::json e = parseJsonBounded<nlohmann::json>(line);
    if (!e.is_object()) e = {{"event", "unparsed"}, {"text", line}};
    events.push_back({{"t", i < run.traceTimes.size() ? run.traceTimes[i] : 0}, {"e", std::move(e)}});
  }
  nlohmann::json violations = nlohmann::json::array();
  for (const Violation& v : run.violations) {
    nlohmann::json j = v.toJson();
    nlohmann::json at = nlohmann::json::array();
    for (const std::string& line : v.events)
      if (auto it = lineAt.find(line); it != lineAt.end())
        for (size_t i : it->second) at.push_back(i);
    j["at"] = std::move(at);
    violations.push_back(std::move(j));
  }
  nlohmann::json data = {{"file", p.file},
                         {"name", p.name},
                         {"plan", p.plan},
                         {"passed", p.passed},
                         {"failure", p.failure},
                         {"reproduce", p.reproduce},
                         {"fingerprint", run.fingerprintHex()},
                         {"batches", run.batches},
                         {"crashes", run.crashes},
                         {"restarts", run.restarts},
                         {"faults", run.faults.toJson()},
                         {"events", std::move(events)},
                         {"violations", std::move(violations)}};
  if (p.seed) data["seed"] = *p.seed;
  std::string title = fmt::format("{} {}{}", p.passed ? "PASS" : "FAIL", p.file,
                                  p.seed ? fmt::format(" seed {}", *p.seed) : "");
  return page(title, data, report_detail::kRunScript);
}

std::string seedLinkKey(const std::string& file, uint64_t seed) { return fmt::format("{}\n{}", file, seed); }

std::string sweepReportHtml(const nlohmann::json& report, const nlohmann::json& seedLinks) {
  nlohmann::json data = {{"results", report.value("results", nlohmann::json::array())},
                         {"totals", report.value("totals", nlohmann::json::object())},
                         {"links", seedLinks}};
  size_t failed = 0;
  for (const auto& r : data["results"])
    if (r.is_object() && !r.value("passed", true)) ++failed;
  std::string title = fmt::format("{} sweep: {} seeds, {} failed", failed ? "FAIL" : "PASS",
                                  data["results"].size(), failed);
  return page(title, data, report_detail::kSweepScript);
}

}  // namespace streamsim::harness
