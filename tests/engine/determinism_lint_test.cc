// The engine must stay deterministic (DESIGN.md §2): no ambient clock, randomness, threads,
// environment or real files outside engine/platform. This test scans the sources.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include "test_paths.h"

namespace {

TEST(DeterminismLint, EngineUsesOnlyInjectedEnvironment) {
  namespace fs = std::filesystem;
  const std::regex forbidden(
      R"(std::chrono::(system_clock|steady_clock|high_resolution_clock)|std::rand\(|random_device|getenv\(|std::thread|std::async\(|fopen\(|std::filesystem|sleep_for|usleep\(|time\(nullptr\)|<filesystem>|<thread>|<random>)");
  fs::path root = fs::path(STREAMSIM_SOURCE_DIR) / "engine";
  std::vector<std::string> hits;
  int scanned = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    auto ext = entry.path().extension().string();
    if (ext != ".h" && ext != ".cc" && ext != ".hpp") continue;
    auto rel = fs::relative(entry.path(), root).string();
    if (rel.rfind("platform/", 0) == 0) continue;
    ++scanned;
    std::ifstream in(entry.path());
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (std::regex_search(line, forbidden)) hits.push_back("engine/" + rel + ":" + std::to_string(n) + ": " + line);
    }
  }
  EXPECT_GT(scanned, 10);
  std::ostringstream msg;
  for (const auto& h : hits) msg << h << "\n";
  EXPECT_TRUE(hits.empty()) << "ambient nondeterminism in the engine:\n" << msg.str();
}

}  // namespace
