// The malformed-input suite of issue 18: every reader of a checkpoint the CLI has, fed each
// class of damage (truncation, a bit flip, a wrong version, an empty file, a folder where the
// file belongs, a number past its type, a JSON key or an entry line repeated), must answer exit 2 naming the damaged file -- never
// exit 0 as if nothing were wrong, an abort, or a hang. One table: reader x damage.
//
// The checkpoint is written once by `streamsim run --keep` (two batches of a files-to-files
// count query); each case copies it, damages one file and runs the commands that read it:
// `inspect --sink` for every file (the report must say [unreadable]/[missing] and the file), plus
// `replay --checkpoint` for the files a replay reads and `state` for the state files.
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reliability/cli_test_support.h"

namespace streamsim::testing {
namespace {

namespace fs = std::filesystem;

using streamsim::testing::kTwoBatches;

enum Reads { kInspect = 1, kReplay = 2, kState = 4 };

struct Reader {
  const char* name;
  std::string rel;       // under the kept folder
  int reads;             // which commands read it
  bool entries = false;  // its lines after the first are entries: a repeated one is a second entry
};

// The files of the kept folder, one per reader. The sink log and the state file's names are
// looked up (they depend on the run).
std::vector<Reader> readers() {
  return {
      {"offset log", "chk/offsets/1", kInspect | kReplay, true},
      {"commit log", "chk/commits/1", kInspect},
      {"query metadata", "chk/metadata", kInspect | kReplay},
      {"file source log", "chk/sources/0/1", kInspect | kReplay, true},
      {"file sink log", "out/_spark_metadata/1", kInspect, true},
      {"operator metadata", "chk/state/0/_metadata/metadata", kInspect},
      {"state changelog", "chk/state/0/0/2.delta", kState},
  };
}

struct Damage {
  const char* name;
  std::function<void(const std::string& path)> apply;  // damages the file at `path` in place
  // true: does not apply to this reader's file
  std::function<bool(const Reader& r, const std::string& text)> skip;
  bool applies(const Reader& r, const std::string& text) const { return !skip || !skip(r, text); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}
void spit(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}
bool binary(const std::string& text) { return text.rfind("v", 0) != 0 && text.find('{') != 0; }
// The first run of digits of a JSON number (after a ':'), or npos.
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
      {"truncated to half", [](const std::string& p) { auto t = slurp(p); spit(p, t.substr(0, t.size() / 2)); }, {}},
      {"one bit flipped",
       [](const std::string& p) {
         auto t = slurp(p);
         size_t at = binary(t) ? t.size() / 2 : t.find('{');
         t[at] = static_cast<char>(t[at] ^ 0x01);  // '{' -> 'z'; a binary file fails its CRC
         spit(p, t);
       }, {}},
      {"a version from the future",
       [](const std::string& p) {
         auto t = slurp(p);
         if (binary(t)) t[7] = '9';  // SSSTATE1 -> SSSTATE9
         else t.replace(0, 2, "v99");
         spit(p, t);
       },
       [](const Reader&, const std::string& t) { return !binary(t) && t.rfind("v1", 0) != 0; }},
      {"empty", [](const std::string& p) { spit(p, ""); }, {}},
      {"a folder where the file belongs",
       [](const std::string& p) { fs::remove(p); fs::create_directories(p + "/x"); }, {}},
      {"a number past int64",
       [](const std::string& p) {
         auto t = slurp(p);
         size_t d = firstNumber(t);
         size_t e = d;
         while (e < t.size() && t[e] >= '0' && t[e] <= '9') ++e;
         t.replace(d, e - d, "99999999999999999999999");
         spit(p, t);
       },
       [](const Reader&, const std::string& t) { return binary(t) || firstNumber(t) == std::string::npos; }},
      // Spark's writers never repeat a key; a reader would keep one of the two silently.
      {"a JSON key repeated",
       [](const std::string& p) {
         auto t = slurp(p);
         size_t open = t.find("{\"");
         size_t end = t.find_first_of(",}", open);
         t.insert(open + 1, t.substr(open + 1, end - open - 1) + ",");  // {"k":v,"k":v,...
         spit(p, t);
       },
       [](const Reader&, const std::string& t) { return binary(t) || t.find("{\"") == std::string::npos; }},
      // The last entry line twice: a second source offset, a file listed twice in a batch.
      {"an entry line repeated",
       [](const std::string& p) {
         auto t = slurp(p);
         while (!t.empty() && t.back() == '\n') t.pop_back();
         spit(p, t + "\n" + t.substr(t.rfind('\n') + 1));
       },
       [](const Reader& r, const std::string& t) { return !r.entries || binary(t); }},
  };
}

class MalformedInputs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kept_ = new ScratchDir("malformed_kept");
    std::string f = kept_->write("s.yaml", kTwoBatches);
    CliOut o = runCli("run " + f + " --keep " + kept_->path() + "/kept");
    ASSERT_EQ(o.code, 0) << o.text;
  }
  static void TearDownTestSuite() { delete kept_; }
  static ScratchDir* kept_;
};
ScratchDir* MalformedInputs::kept_ = nullptr;

TEST_F(MalformedInputs, EveryReaderAnswersEveryDamageWithExitTwoNamingTheFile) {
  int cases = 0;
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
      dmg.apply(file);
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
    }
  }
  EXPECT_GE(cases, 44);  // 7 readers x 8 damages, less the ones that do not apply
}

}  // namespace
}  // namespace streamsim::testing
