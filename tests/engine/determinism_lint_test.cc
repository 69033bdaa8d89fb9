// The engine must stay deterministic (DESIGN.md §2): no ambient clock, randomness, threads,
// environment or real files outside engine/platform; and neither the engine nor the harness keeps
// process-wide mutable state (ProcessWideStateLint below). This test scans the sources.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "test_paths.h"

namespace {

// No process-wide mutable state in engine/ or harness/ (issue 33 item 3; the project's rule): a
// run is handed what it uses (its processors, registries, runtime) instead of reaching a global.
// This scan fails for
//   - `thread_local` anywhere;
//   - a `static` variable that is not const/constexpr, at any scope (a function-local static
//     registry is process-wide state as much as a global);
//   - a namespace-scope variable that is not const/constexpr (`std::atomic<...> g_x;` included);
//   - a static registrar (`STREAMSIM_REGISTER_...(...)` used at namespace scope).
// Constants (`static const`, `constexpr`, `const` at namespace scope) are allowed. The scan reads
// the sources with comments, string literals and preprocessor lines removed; a declaration is a
// variable when `=`, `{` or `;` ends its declarator, or `(` opens an initializer (`({`, `([`,
// a literal). Nothing is exempt (issue 33 item 3: a run is handed what it uses).
namespace state_lint {

// `src` without comments, string/char literals (kept as "" / '') and preprocessor lines.
std::string stripped(const std::string& src) {
  std::string out;
  out.reserve(src.size());
  size_t i = 0;
  bool lineStart = true;
  while (i < src.size()) {
    const char c = src[i];
    if (lineStart) {
      size_t j = i;
      while (j < src.size() && (src[j] == ' ' || src[j] == '\t')) ++j;
      if (j < src.size() && src[j] == '#') {  // a preprocessor line, with its continuations
        while (j < src.size() && src[j] != '\n') {
          if (src[j] == '\\' && j + 1 < src.size() && src[j + 1] == '\n') ++j;
          ++j;
        }
        i = j;
        continue;
      }
    }
    lineStart = false;
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
      while (i < src.size() && src[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      const size_t end = src.find("*/", i + 2);
      i = end == std::string::npos ? src.size() : end + 2;
      out += ' ';
      continue;
    }
    if (c == 'R' && i + 1 < src.size() && src[i + 1] == '"') {  // raw string R"delim(...)delim"
      const size_t open = src.find('(', i + 2);
      const std::string delim = src.substr(i + 2, open - (i + 2));
      const size_t end = src.find(")" + delim + "\"", open);
      i = end == std::string::npos ? src.size() : end + delim.size() + 2;
      out += "\"\"";
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < src.size() && src[j] != c) j += src[j] == '\\' ? 2 : 1;
      i = j + 1;
      out += c;
      out += c;
      continue;
    }
    if (c == '\n') lineStart = true;
    out += c;
    ++i;
  }
  return out;
}


// Whether the declaration `decl` (a statement's text up to its end or its first `{`/`(`/`=`,
// `delim` that character) declares a mutable variable.
bool mutableVariable(const std::string& decl, char delim, const std::string& after) {
  static const std::regex skip(
      R"(^\s*(using|typedef|template|class|struct|enum|union|namespace|friend|extern|static_assert|return|case|default|goto|public|private|protected|operator|co_return|co_await|if|for|while|switch|do|else|delete|new|throw)\b)");
  if (std::regex_search(decl, skip)) return false;
  // const/constexpr of the variable itself (not of a template argument: atomic<const char*>).
  static const std::regex templateArgs(R"(<[^<>]*>)");
  static const std::regex constWord(R"(\b(const|constexpr)\b)");
  std::string outer = decl;
  for (std::string prev; prev != outer;) {
    prev = outer;
    outer = std::regex_replace(outer, templateArgs, "");
  }
  if (std::regex_search(outer, constWord)) return false;
  if (delim == '(') {
    // An initializer, not a parameter list: `r({`, `x([`, `n(3)`, `s("a")`.
    const size_t k = after.find_first_not_of(" \t\n");
    if (k == std::string::npos) return false;
    const char c = after[k];
    if (!(c == '{' || c == '[' || c == '"' || c == '\'' || (c >= '0' && c <= '9'))) return false;
  }
  // A declarator: at least a type and a name before the delimiter.
  static const std::regex declarator(R"([A-Za-z_][\w:<>,\s\*&]*[\s\*&>]\s*[A-Za-z_]\w*(\[[^\]]*\])?\s*$)");
  return std::regex_search(decl, declarator);
}

struct Hit {
  int line;
  std::string text;
};

std::vector<Hit> scan(const std::string& original) {
  const std::string s = stripped(original);
  std::vector<Hit> hits;
  auto lineOf = [&s](size_t pos) { return 1 + static_cast<int>(std::count(s.begin(), s.begin() + pos, '\n')); };
  auto oneLine = [](std::string t) {
    static const std::regex spaces(R"(\s+)");
    t = std::regex_replace(t, spaces, " ");
    return t.size() > 120 ? t.substr(0, 120) : t;
  };
  const std::regex threadLocal(R"(\bthread_local\b)");
  for (std::sregex_iterator it(s.begin(), s.end(), threadLocal), end; it != end; ++it)
    hits.push_back({lineOf(it->position()), "thread_local"});

  enum class Brace { kNamespace, kBlock, kInit };
  enum class Decision { kNone, kFunction, kVariable, kAssign };
  std::vector<Brace> braces;
  size_t start = 0;  // the current statement's first character
  Decision decision = Decision::kNone;
  int parens = 0;
  auto inInit = [&braces] { return std::find(braces.begin(), braces.end(), Brace::kInit) != braces.end(); };
  auto atNamespaceScope = [&braces] {
    return std::all_of(braces.begin(), braces.end(), [](Brace b) { return b == Brace::kNamespace; });
  };
  // Checks the statement from `start` to `to` (`delim` there): true when it declares a variable.
  auto check = [&](size_t to, char delim) {
    std::string decl = s.substr(start, to - start);
    const size_t first = decl.find_first_not_of(" \t\n");
    if (first == std::string::npos) return false;
    const size_t at = start + first;
    static const std::regex specifiers(R"(^(\[\[[^\]]*\]\]\s*|inline\s+|alignas\([^)]*\)\s*)*)");
    static const std::regex staticWord(R"(^static\b)");
    static const std::regex operatorName(R"(\boperator\s*$)");
    static const std::regex registrarName(R"(^\s*STREAMSIM_REGISTER_\w+\s*$)");
    decl = std::regex_replace(decl.substr(first), specifiers, "");
    const bool isStatic = std::regex_search(decl, staticWord);
    if (isStatic) decl = decl.substr(6);
    if (std::regex_search(decl, operatorName)) return false;
    const bool registrar = delim == '(' && std::regex_search(decl, registrarName);
    if (registrar) {
      if (atNamespaceScope()) hits.push_back({lineOf(at), oneLine(decl) + "(...) [a static registrar]"});
      return false;
    }
    const bool variable = mutableVariable(decl, delim, s.substr(to + 1, 8));
    if (variable && (isStatic || atNamespaceScope())) hits.push_back({lineOf(at), oneLine(s.substr(at, to - at))});
    static const std::regex initializer(R"(^\s*[\{\["'0-9])");
    return variable || (delim == '(' && std::regex_search(s.substr(to + 1, 8), initializer));
  };
  auto next = [&](size_t i) {
    start = i + 1;
    decision = Decision::kNone;
    parens = 0;
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (inInit()) {  // an initializer's expressions (lambdas' bodies included) are not declarations
      if (c == '{') braces.push_back(Brace::kInit);
      if (c == '}') braces.pop_back();
      continue;
    }
    switch (c) {
      case ';':
        if (decision == Decision::kNone) check(i, ';');
        next(i);
        break;
      case '=':
        if (decision == Decision::kNone && parens == 0 && i + 1 < s.size() && s[i + 1] != '=' && i > 0 &&
            std::string("!<>=+-*/%&|^").find(s[i - 1]) == std::string::npos) {
          check(i, '=');
          decision = Decision::kAssign;
        }
        break;
      case '(':
        if (decision == Decision::kNone) decision = check(i, '(') ? Decision::kVariable : Decision::kFunction;
        ++parens;
        break;
      case ')':
        --parens;
        break;
      case '{': {
        if (decision == Decision::kAssign || decision == Decision::kVariable || parens > 0) {
          braces.push_back(Brace::kInit);
          break;
        }
        static const std::regex namespaceHead(R"((^|\s)namespace\b[^;]*$|\bextern\s*""\s*$)");
        const std::string head = s.substr(start, i - start);
        if (std::regex_search(head, namespaceHead)) {
          braces.push_back(Brace::kNamespace);
        } else if (decision == Decision::kNone && check(i, '{')) {
          braces.push_back(Brace::kInit);  // `T x{...}`
          decision = Decision::kVariable;
          break;
        } else {
          braces.push_back(Brace::kBlock);
        }
        next(i);
        break;
      }
      case '}':
        if (!braces.empty()) braces.pop_back();
        next(i);
        break;
      default:
        break;
    }
  }
  return hits;
}

}  // namespace state_lint

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

TEST(ProcessWideStateLint, TheScannerFindsEachKindOfProcessWideState) {
  const std::string src = R"(namespace a {
namespace {
int g_count = 0;
std::atomic<const char*> g_name{nullptr};
const int kLimit = 3;
constexpr int kOther = 4;
struct S { static int member; int plain = 0; static constexpr int k = 1; static Result<int> make(int n); };
}  // namespace
void f() {
  static int calls = 0;
  static const std::vector<int> kTable = {1, 2};
  std::atomic<int> local{0};
}
thread_local int t_slot = 0;
STREAMSIM_REGISTER_PROCESSOR("count", Count);
bool operator==(const S& a, const S& b) = default;
}  // namespace a
)";
  std::vector<int> lines;
  for (const auto& h : state_lint::scan(src)) lines.push_back(h.line);
  std::sort(lines.begin(), lines.end());
  // g_count, g_name, S::member, calls, thread_local (twice: the keyword and the variable), the registrar.
  EXPECT_EQ(lines, (std::vector<int>{3, 4, 7, 10, 14, 14, 15}));
}

TEST(ProcessWideStateLint, EngineAndHarnessKeepNoProcessWideMutableState) {
  namespace fs = std::filesystem;
  const fs::path root(STREAMSIM_SOURCE_DIR);
  std::vector<std::string> hits;
  int scanned = 0;
  for (const char* top : {"engine", "harness", "scenarios/processors"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      if (!entry.is_regular_file()) continue;
      const auto ext = entry.path().extension().string();
      if (ext != ".h" && ext != ".cc") continue;
      ++scanned;
      const std::string rel = fs::relative(entry.path(), root).generic_string();
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      for (const auto& h : state_lint::scan(text.str())) hits.push_back(rel + ":" + std::to_string(h.line) + ": " + h.text);
    }
  }
  EXPECT_GT(scanned, 100);
  std::ostringstream msg;
  for (const auto& h : hits) msg << h << "\n";
  EXPECT_TRUE(hits.empty()) << "process-wide mutable state in engine/, harness/ or the example processors (hand "
                               "it to the run instead; constants may be const/constexpr):\n"
                            << msg.str();
}

}  // namespace

