// docs/incident-replay.md's walk-through runs as printed: every `$ streamsim ...` command of its
// console blocks is run from the repository's root with the built CLI (exit 0), and the output
// lines the page shows under it come out, in that order (`...` stands for lines left out).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../reliability/cli_test_support.h"
#include "test_paths.h"

namespace {

struct DocCommand {
  std::string line;                  // as printed, continuation lines joined
  std::vector<std::string> expected;  // output lines shown ("..." included)
};

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<DocCommand> consoleCommands(const std::string& md) {
  std::vector<DocCommand> out;
  std::istringstream in(md);
  bool inConsole = false, continuing = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("```", 0) == 0) {
      inConsole = !inConsole && line == "```console";
      continuing = false;
      continue;
    }
    if (!inConsole) continue;
    if (continuing) {
      out.back().line += "\n" + line;
    } else if (line.rfind("$ ", 0) == 0) {
      out.push_back({line.substr(2), {}});
    } else if (!out.empty()) {
      out.back().expected.push_back(rstrip(line));
      continue;
    }
    continuing = !line.empty() && line.back() == '\\';
  }
  return out;
}

TEST(IncidentDoc, TheWalkThroughsCommandsRunAsPrinted) {
  const std::string root = STREAMSIM_SOURCE_DIR;
  std::ifstream f(root + "/docs/incident-replay.md");
  ASSERT_TRUE(f) << "docs/incident-replay.md is missing";
  std::string md((std::istreambuf_iterator<char>(f)), {});
  auto commands = consoleCommands(md);
  ASSERT_GE(commands.size(), 5u) << "the walk-through lost its commands";
  for (const DocCommand& c : commands) {
    ASSERT_EQ(c.line.rfind("streamsim ", 0), 0u) << c.line;
    const std::string line = "cd '" + root + "' && " + STREAMSIM_CLI + c.line.substr(std::string("streamsim").size());
    auto out = streamsim::testing::runShell(line);
    EXPECT_EQ(out.code, 0) << c.line << "\n" << out.text;
    std::vector<std::string> lines;
    std::istringstream text(out.text);
    for (std::string l; std::getline(text, l);) lines.push_back(rstrip(l));
    size_t at = 0;
    for (const std::string& want : c.expected) {
      if (want == "..." || want.empty()) continue;
      size_t found = at;
      while (found < lines.size() && lines[found] != want) ++found;
      EXPECT_LT(found, lines.size()) << c.line << "\nthe page shows\n  " << want << "\nnot in the output (from line "
                                     << at + 1 << "):\n" << out.text;
      if (found < lines.size()) at = found + 1;
    }
  }
}

}  // namespace
