// The malformed-input suite of issue 18: every reader of a user's file the CLI has -- the
// checkpoint's files, the scenario file, a JSON-lines landing file -- fed each class of damage
// (truncation, a bit flip, a wrong version, an empty file, a folder where the file belongs, a
// number past its type, a key or an entry line repeated) must answer as Spark's rules and
// issue 18 say -- never exit 0 as if nothing were wrong, an abort, or a hang. One table: reader x
// damage.
//
// The checkpoint is written once by `streamsim run --keep` (two batches of a files-to-files
// count query); each case copies it, damages one file and runs the commands that read it:
// - a checkpoint file: `inspect --sink` (the report must say [unreadable]/[missing] and the
//   file, exit 2), plus `replay --checkpoint` for the files a replay reads and `state` for the
//   state files (exit 2 naming the file);
// - the scenario file: `run FILE` is exit 2 with FILE:LINE:COL (a folder: its path);
// - a landing file replayed (`replay --checkpoint --landing --sink`): rows that differ from
//   what the sink committed are exit 1 naming the batch, a folder is exit 2 naming the file, and
//   a damage after which Spark reads the same rows is exit 0;
// - a landing file a scenario puts, read PERMISSIVE (every non-blank line is a row; a damaged
//   one is a `_corrupt_record` row holding the line) and FAILFAST (a damaged line fails the
//   batch naming /landing/FILE:LINE; none: exit 0).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reliability/cli_test_support.h"

namespace streamsim::testing {
namespace {

namespace fs = std::filesystem;

using streamsim::testing::kTwoBatches;

enum Reads {
  kInspect = 1,
  kReplay = 2,
  kState = 4,
  kRun = 8,          // the scenario file, by `run FILE`
  kReplaySink = 16,  // a landing file, by `replay --checkpoint --landing --sink`
  kPutText = 32,     // a landing file's text, put by a scenario and read PERMISSIVE and FAILFAST
};
enum Format { kJson, kBinary, kYaml };

struct Reader {
  const char* name;
  std::string rel;       // under the kept folder
  int reads;             // which commands read it
  Format format = kJson;
  bool entries = false;  // its lines after the first are entries: a repeated one is a second entry
};

// A landing file with a long column, for the scenario that puts it (a number to push past int64).
constexpr const char* kLandingText = "{\"device\":\"d1\",\"n\":1}\n{\"device\":\"d2\",\"n\":2}\n{\"device\":\"d3\",\"n\":3}\n";

// The files of the kept folder, one per reader (s.yaml and text/b.json are written beside it).
std::vector<Reader> readers() {
  return {
      {"offset log", "chk/offsets/1", kInspect | kReplay, kJson, true},
      {"commit log", "chk/commits/1", kInspect},
      {"query metadata", "chk/metadata", kInspect | kReplay},
      {"file source log", "chk/sources/0/1", kInspect | kReplay, kJson, true},
      {"file sink log", "out/_spark_metadata/1", kInspect, kJson, true},
      {"operator metadata", "chk/state/0/_metadata/metadata", kInspect},
      {"state schema", "chk/state/0/_stateSchema/0.json", kInspect | kReplay},
      {"state changelog", "chk/state/0/0/2.delta", kState, kBinary},
      {"scenario file", "s.yaml", kRun, kYaml},
      {"landing file replayed", "landing/b.json", kReplaySink, kJson, true},
      {"landing file put by a scenario", "text/b.json", kPutText, kJson, true},
  };
}

struct Damage {
  const char* name;
  std::function<void(const Reader& r, const std::string& path)> apply;  // damages the file at `path` in place
  // true: does not apply to this reader's file
  std::function<bool(const Reader& r, const std::string& text)> skip;
  // A JSON-lines reader reads the same rows after it as before (Spark's Jackson keeps the last of
  // a repeated key, here with the same value).
  bool keepsRows = false;
  bool applies(const Reader& r, const std::string& text) const { return !skip || !skip(r, text); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}
void spit(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}
// The first run of digits of a JSON or YAML number (after a ':'), or npos.
size_t firstNumber(const std::string& t) {
  for (size_t at = t.find(':'); at != std::string::npos; at = t.find(':', at + 1)) {
    size_t d = at + 1;
    while (d < t.size() && t[d] == ' ') ++d;
    if (d < t.size() && t[d] >= '0' && t[d] <= '9') return d;
  }
  return std::string::npos;
}

std::vector<Damage> damages() {
  return {
      {"truncated to half",
       [](const Reader&, const std::string& p) { auto t = slurp(p); spit(p, t.substr(0, t.size() / 2)); }, {}},
      {"one bit flipped",
       [](const Reader& r, const std::string& p) {
         auto t = slurp(p);
         size_t at = r.format == kBinary ? t.size() / 2 : t.find('{');
         t[at] = static_cast<char>(t[at] ^ 0x01);  // '{' -> 'z'; a binary file fails its CRC
         spit(p, t);
       }, {}},
      {"a version from the future",
       [](const Reader& r, const std::string& p) {
         auto t = slurp(p);
         if (r.format == kBinary) t[7] = '9';  // SSSTATE1 -> SSSTATE9
         else t.replace(0, 2, "v99");
         spit(p, t);
       },
       [](const Reader& r, const std::string& t) {
         return r.format == kYaml || (r.format == kJson && t.rfind("v1", 0) != 0);
       }},
      {"empty", [](const Reader&, const std::string& p) { spit(p, ""); }, {}},
      {"a folder where the file belongs",
       [](const Reader&, const std::string& p) { fs::remove(p); fs::create_directories(p + "/x"); },
       [](const Reader& r, const std::string&) { return (r.reads & kPutText) != 0; }},
      {"a number past int64",
       [](const Reader&, const std::string& p) {
         auto t = slurp(p);
         size_t d = firstNumber(t);
         size_t e = d;
         while (e < t.size() && t[e] >= '0' && t[e] <= '9') ++e;
         t.replace(d, e - d, "99999999999999999999999");
         spit(p, t);
       },
       [](const Reader& r, const std::string& t) { return r.format == kBinary || firstNumber(t) == std::string::npos; }},
      // Spark's checkpoint writers never repeat a key; a reader would keep one of the two
      // silently. A scenario's key repeated is its first line twice.
      {"a key repeated",
       [](const Reader& r, const std::string& p) {
         auto t = slurp(p);
         if (r.format == kYaml) {
           t.insert(0, t.substr(0, t.find('\n') + 1));
         } else {
           size_t open = t.find("{\"");
           size_t end = t.find_first_of(",}", open);
           t.insert(open + 1, t.substr(open + 1, end - open - 1) + ",");  // {"k":v,"k":v,...
         }
         spit(p, t);
       },
       [](const Reader& r, const std::string& t) {
         return r.format == kBinary || (r.format == kJson && t.find("{\"") == std::string::npos);
       },
       /*keepsRows=*/true},
      // The last entry line twice: a second source offset, a file listed twice in a batch, a
      // landing file's row twice.
      {"an entry line repeated",
       [](const Reader&, const std::string& p) {
         auto t = slurp(p);
         while (!t.empty() && t.back() == '\n') t.pop_back();
         spit(p, t + "\n" + t.substr(t.rfind('\n') + 1));
       },
       [](const Reader& r, const std::string&) { return !r.entries || r.format == kBinary; }},
  };
}

// `file:LINE:` somewhere in `text`.
bool namesLine(const std::string& text, const std::string& file) {
  for (size_t at = text.find(file + ":"); at != std::string::npos; at = text.find(file + ":", at + 1)) {
    size_t d = at + file.size() + 1;
    if (d < text.size() && text[d] >= '1' && text[d] <= '9') return true;
  }
  return false;
}

// A YAML double-quoted scalar holding `text` (ASCII: the damages here keep it so).
std::string yamlQuoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c == '\n') out += "\\n";
    else if (c < 0x20 || c > 0x7e) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

std::string landingScenario(const std::string& text, const std::string& mode) {
  return "name: a landing file read " + mode + R"(
query:
  source: {kind: files, path: /landing, format: json, schema: "device string, n long, _corrupt_record string", options: {mode: )" +
         mode + R"(}}
  sink: {kind: files, path: /out, format: json}
steps:
  - put: {path: /landing/b.json, text: )" + yamlQuoted(text) + R"(}
  - run: 1
)";
}

// The rows of a kept files sink folder's data files.
std::vector<nlohmann::json> sinkRows(const std::string& folder) {
  std::vector<nlohmann::json> rows;
  if (!fs::is_directory(folder)) return rows;
  for (const auto& e : fs::directory_iterator(folder)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  }
  return rows;
}

// A landing file's text read PERMISSIVE keeps every non-blank line as a row, a damaged one as a
// `_corrupt_record` row holding it; read FAILFAST, the first damaged line fails the batch naming
// /landing/b.json and its line, and without one the run passes.
void checkPutText(const ScratchDir& d, const std::string& text) {
  std::vector<std::string> lines;  // physical lines, 1-based below
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  size_t nonBlank = 0;
  for (const auto& l : lines) nonBlank += l.find_first_not_of(" \t\r") != std::string::npos;

  std::string permissive = d.write("permissive.yaml", landingScenario(text, "PERMISSIVE"));
  CliOut p = runCli("run " + permissive + " --keep " + d.path() + "/kept_permissive");
  ASSERT_EQ(p.code, 0) << p.text;
  auto rows = sinkRows(d.path() + "/kept_permissive/out");
  EXPECT_EQ(rows.size(), nonBlank) << "rows lost or made up:\n" << text;
  size_t firstCorrupt = 0;  // 1-based line; 0 none
  for (const auto& row : rows) {
    if (!row.contains("_corrupt_record")) continue;
    auto raw = row["_corrupt_record"].get<std::string>();
    auto it = std::find(lines.begin(), lines.end(), raw);
    ASSERT_NE(it, lines.end()) << "the corrupt record is no line of the file: " << raw;
    size_t n = static_cast<size_t>(it - lines.begin()) + 1;
    if (firstCorrupt == 0 || n < firstCorrupt) firstCorrupt = n;
  }

  std::string failfast = d.write("failfast.yaml", landingScenario(text, "FAILFAST"));
  CliOut f = runCli("run " + failfast);
  if (firstCorrupt == 0) {
    EXPECT_EQ(f.code, 0) << f.text;
  } else {
    EXPECT_EQ(f.code, 1) << f.text;
    EXPECT_NE(f.text.find("/landing/b.json:" + std::to_string(firstCorrupt) + ": "), std::string::npos)
        << "FAILFAST does not name line " << firstCorrupt << ":\n" << f.text;
    EXPECT_NE(f.text.find("FAILFAST"), std::string::npos) << f.text;
  }
}

class MalformedInputs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kept_ = new ScratchDir("malformed_kept");
    std::string f = kept_->write("s.yaml", kTwoBatches);
    CliOut o = runCli("run " + f + " --keep " + kept_->path() + "/kept");
    ASSERT_EQ(o.code, 0) << o.text;
    kept_->write("kept/s.yaml", kTwoBatches);
    kept_->write("kept/text/b.json", kLandingText);
  }
  static void TearDownTestSuite() { delete kept_; }
  static ScratchDir* kept_;
};
ScratchDir* MalformedInputs::kept_ = nullptr;

TEST_F(MalformedInputs, EveryReaderAnswersEveryDamageAsSparkAndIssue18Say) {
  int cases = 0;
  // The undamaged files pass, so each damage is what a failure below is about.
  {
    ScratchDir d("malformed_undamaged");
    checkPutText(d, kLandingText);
  }
  for (const Reader& r : readers()) {
    const std::string original = kept_->path() + "/kept/" + r.rel;
    ASSERT_TRUE(fs::is_regular_file(original)) << original;
    for (const Damage& dmg : damages()) {
      if (!dmg.applies(r, slurp(original))) continue;
      SCOPED_TRACE(std::string(r.name) + " (" + r.rel + "), " + dmg.name);
      ScratchDir d("malformed_case");
      fs::copy(kept_->path() + "/kept", d.path(), fs::copy_options::recursive);
      const std::string chk = d.path() + "/chk";
      const std::string file = d.path() + "/" + r.rel;
      dmg.apply(r, file);
      ++cases;
      if (r.reads & kInspect) {
        CliOut o = runCli("inspect " + chk + " --sink " + d.path() + "/out");
        EXPECT_EQ(o.code, 2) << o.text;
        EXPECT_TRUE(o.text.find("[unreadable] " + file) != std::string::npos ||
                    o.text.find("[missing] " + file) != std::string::npos)
            << "the report does not name " << file << ":\n" << o.text;
      }
      if (r.reads & kReplay) {
        CliOut o = runCli("replay --checkpoint " + chk + " --landing " + d.path() +
                          "/landing --processor count --group-by device --schema 'device string'");
        EXPECT_EQ(o.code, 2) << o.text;
        EXPECT_NE(o.text.find(file), std::string::npos) << o.text;
        EXPECT_EQ(o.text.find("/replay/checkpoint"), std::string::npos) << o.text;
      }
      if (r.reads & kState) {
        CliOut o = runCli("state " + chk);
        EXPECT_EQ(o.code, 2) << o.text;
        EXPECT_NE(o.text.find(file), std::string::npos) << o.text;
      }
      if (r.reads & kRun) {
        CliOut o = runCli("run " + file);
        EXPECT_EQ(o.code, 2) << o.text;
        if (fs::is_directory(file)) EXPECT_NE(o.text.find(file), std::string::npos) << o.text;
        else EXPECT_TRUE(namesLine(o.text, file)) << "no " << file << ":LINE in:\n" << o.text;
      }
      if (r.reads & kReplaySink) {
        CliOut o = runCli("replay --checkpoint " + chk + " --landing " + d.path() + "/landing --sink " +
                          d.path() + "/out --processor count --group-by device --schema 'device string'");
        if (dmg.keepsRows) {
          EXPECT_EQ(o.code, 0) << o.text;
        } else {
          EXPECT_TRUE((o.code == 1 && o.text.find("first difference from the sink: batch 1") != std::string::npos) ||
                      (o.code == 2 && o.text.find(file) != std::string::npos))
              << "exit " << o.code << ":\n" << o.text;
        }
      }
      if (r.reads & kPutText) checkPutText(d, slurp(file));
    }
  }
  EXPECT_GE(cases, 72);  // 11 readers x 8 damages, less the 16 that do not apply
}

}  // namespace
}  // namespace streamsim::testing
