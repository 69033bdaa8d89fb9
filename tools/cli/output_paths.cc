// Output names and the --keep folder (output_paths.h).
#include "cli/output_paths.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>

#include <fmt/format.h>

#include "streamsim/harness/report/text_escape.h"

namespace streamsim::cli {
namespace fs = std::filesystem;

namespace {
constexpr size_t kMaxFileName = 255;

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}
}  // namespace

std::string boundedFileName(std::string_view name, std::string_view suffix) {
  std::string clean;
  for (char c : name) clean += (c == '/' || c == '\\' || c == '\0') ? '_' : c;
  if (clean.empty() || clean == "." || clean == "..") clean = "_" + clean;
  if (clean.size() + suffix.size() <= kMaxFileName) return clean + std::string(suffix);
  const std::string hash = fmt::format("-{:016x}", fnv1a(name));
  const size_t keep = kMaxFileName - suffix.size() - hash.size();
  // The end of the name tells files apart more than its start (a deep folder's common prefix);
  // a cut inside a UTF-8 sequence is moved past its continuation bytes.
  size_t from = clean.size() - keep;
  while (from < clean.size() && (static_cast<unsigned char>(clean[from]) & 0xC0) == 0x80) ++from;
  return clean.substr(from) + hash + std::string(suffix);
}

std::vector<std::string> distinctNames(const std::vector<std::string>& files) {
  std::map<std::string, int> stems;
  for (const auto& f : files) ++stems[fs::path(f).stem().string()];
  std::vector<std::string> out;
  for (const auto& f : files) {
    const std::string stem = fs::path(f).stem().string();
    if (stems[stem] == 1) {
      out.push_back(boundedFileName(stem, ""));
      continue;
    }
    std::string name = fs::path(f).lexically_normal().replace_extension().string();
    while (!name.empty() && name.front() == '/') name.erase(0, 1);
    out.push_back(boundedFileName(name, ""));
  }
  return out;
}

bool prepareKeepDir(const std::string& dir, bool replace, std::string_view command, std::ostream& err) {
  std::error_code ec;
  const auto st = fs::status(dir, ec);
  const std::string shown = harness::shownForTerminal(dir);
  if (!fs::exists(st)) return true;  // created by the copy
  if (!fs::is_directory(st)) {
    err << fmt::format("streamsim {}: --keep {}: not a folder; expected a folder to keep the run's files in\n",
                       command, shown);
    return false;
  }
  if (fs::is_empty(dir, ec) && !ec) return true;
  if (!replace) {
    err << fmt::format("streamsim {}: --keep {}: the folder is not empty (an earlier run's files would mix "
                       "with this run's checkpoint); give an empty folder, or --replace to replace what "
                       "streamsim kept there\n", command, shown);
    return false;
  }
  if (!fs::exists(fs::path(dir) / kKeepMarker, ec)) {
    err << fmt::format("streamsim {}: --keep {} --replace: the folder holds files streamsim did not keep (no {}); "
                       "not replaced\n", command, shown, kKeepMarker);
    return false;
  }
  for (const auto& e : fs::directory_iterator(dir, ec)) fs::remove_all(e.path(), ec);
  if (ec) {
    err << fmt::format("streamsim {}: --keep {} --replace: cannot empty it ({})\n", command, shown, ec.message());
    return false;
  }
  return true;
}

void markKeepDir(const std::string& dir) {
  std::ofstream(fs::path(dir) / kKeepMarker) << "a folder `streamsim run/replay --keep` wrote; --replace may empty it\n";
}

}  // namespace streamsim::cli
