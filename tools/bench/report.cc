// The bench's table, JSON and comparison with a saved run (report.h).
#include "bench/report.h"

#include <algorithm>

#include <fmt/format.h>

#include "bench/bench_support.h"
#include "streamsim/json_nesting.h"
#include "streamsim/platform/platform.h"

namespace streamsim::bench {

namespace {

std::string figureText(double v, const std::string& unit) {
  if (unit == "MiB") return fmt::format("{:.0f} {}", v, unit);
  if (unit == "x real time") return fmt::format("{}x", human(v));
  return fmt::format("{} {}", human(v), unit);
}

}  // namespace

void printTable(const std::vector<BenchRow>& rows, bool quick, double total, std::ostream& out) {
  out << fmt::format("streamsim bench{} — figure | limit (same run) | ratio | target | scaling "
                     "(per-unit cost big/small, 1.00 = linear)\n",
                     quick ? " --quick" : "");
  out << fmt::format("{:<4} {:<52} {:>16} {:>22} {:>7}  {:<22} {:<4} {:>7}\n", "id", "workload",
                     "figure", "limit", "ratio", "target", "met", "scaling");
  for (const BenchRow& r : rows) {
    out << fmt::format("{:<4} {:<52} {:>16} {:>22} {:>6.0f}%  {:<22} {:<4} {:>7.2f}\n", r.id,
                       r.name, figureText(r.figure, r.unit),
                       r.limitName.empty() ? "" : fmt::format("{} ({})", figureText(r.limit, r.unit), r.limitName),
                       r.ratio * 100, r.target, r.met ? "yes" : "NO", r.scaling);
    out << fmt::format("     sizes: {}{}{}\n", r.sizes, r.note.empty() ? "" : "; ", r.note);
  }
  out << fmt::format("total wall time {:.1f} s\n", total);
}

nlohmann::json toJson(const std::vector<BenchRow>& rows, bool quick, double total) {
  nlohmann::json j;
  j["quick"] = quick;
  j["total_seconds"] = total;
  j["workloads"] = nlohmann::json::array();
  for (const BenchRow& r : rows) {
    j["workloads"].push_back({{"id", r.id},           {"name", r.name},     {"sizes", r.sizes},
                              {"figure", r.figure},   {"unit", r.unit},     {"limit_name", r.limitName},
                              {"limit", r.limit},     {"ratio", r.ratio},   {"target", r.target},
                              {"met", r.met},         {"scaling", r.scaling}, {"seconds", r.seconds},
                              {"note", r.note}});
  }
  return j;
}

Result<SavedRun> readSavedRun(const std::string& path) {
  auto text = platform::readInputFile(path);  // a regular file of bounded size, as every input
  if (!text.ok()) return Status::InvalidArgument(fmt::format("--compare {}: {}", path, text.status().message()));
  nlohmann::json j = parseJsonBounded<nlohmann::json>(*text);
  if (!j.is_object() || !j.contains("workloads") || !j["workloads"].is_array())
    return Status::InvalidArgument(fmt::format(
        "--compare {}: not a `streamsim bench --json` report (expected an object with a "
        "\"workloads\" array)", path));
  SavedRun saved;
  if (j.contains("quick") && j["quick"].is_boolean()) saved.quick = j["quick"].get<bool>();
  size_t index = 0;
  for (const nlohmann::json& w : j["workloads"]) {
    if (!w.is_object() || !w.contains("id") || !w["id"].is_string() || !w.contains("figure") ||
        !w["figure"].is_number() || !w.contains("ratio") || !w["ratio"].is_number())
      return Status::InvalidArgument(fmt::format(
          "--compare {}: workloads[{}] lacks a string \"id\" and numbers \"figure\", \"ratio\"",
          path, index));
    saved.figures.push_back(
        {w["id"].get<std::string>(), {w["figure"].get<double>(), w["ratio"].get<double>()}});
    ++index;
  }
  return saved;
}

void printComparison(const std::vector<BenchRow>& rows, const SavedRun& saved, bool quick,
                     const std::string& path, std::ostream& out) {
  out << fmt::format("\ncompared with {}{}\n", path,
                     saved.quick != quick ? " (NOTE: its sizes differ: one run is --quick)" : "");
  out << fmt::format("{:<4} {:>16} {:>16} {:>8}   {:>7} {:>7}\n", "id", "then", "now", "change",
                     "ratio", "then");
  for (const BenchRow& r : rows) {
    auto it = std::find_if(saved.figures.begin(), saved.figures.end(),
                           [&](const auto& f) { return f.first == r.id; });
    if (it == saved.figures.end()) {
      out << fmt::format("{:<4} {:>16} {:>16}\n", r.id, "(new)", figureText(r.figure, r.unit));
      continue;
    }
    auto [figure, ratio] = it->second;
    double change = figure != 0 ? (r.figure - figure) / figure * 100 : 0;
    // Memory is better when smaller; everything else when larger.
    bool worse = r.unit == "MiB" ? change > 5 : change < -5;
    out << fmt::format("{:<4} {:>16} {:>16} {:>+7.1f}%   {:>6.0f}% {:>6.0f}%{}\n", r.id,
                       figureText(figure, r.unit), figureText(r.figure, r.unit), change,
                       r.ratio * 100, ratio * 100, worse ? "  slower" : "");
  }
}

}  // namespace streamsim::bench
