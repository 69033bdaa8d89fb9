// The pictures of runs and sweeps (harness/report/html_report.h, issue 19 §5): the page's data is
// safe inside its <script>, and the pages that `replay/run/sweep --html` and `report` write are
// drawn by headless Chromium (Debian's `chromium`, installed by tools/install-deps --tests) into the DOM
// the tests assert on: batches, crashes, re-runs, downtime, the violated oracle highlighted, links
// from a sweep's page to each failing seed's page, and a reproduce line that runs as printed.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reliability/cli_test_support.h"
#include "streamsim/harness/report/html_report.h"
#include "test_paths.h"

namespace {

using streamsim::testing::CliOut;
using streamsim::testing::runCli;
using streamsim::testing::runShell;
using streamsim::testing::ScratchDir;

std::string source(const std::string& rel) { return std::string(STREAMSIM_SOURCE_DIR) + "/" + rel; }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The DOM after the page's script ran, from headless Chromium.
std::string renderedDom(const std::string& page) {
  const std::string dom = page + ".dom";
  CliOut c = runShell("chromium --headless --no-sandbox --disable-gpu --dump-dom 'file://" +
                      std::filesystem::absolute(page).string() + "' > '" + dom + "' 2>/dev/null");
  EXPECT_EQ(c.code, 0) << "headless chromium failed on " << page
                       << " (Debian package chromium: tools/install-deps --tests installs it)";
  return slurp(dom);
}

std::string unescapeHtml(std::string s) {
  for (auto [from, to] : {std::pair<const char*, const char*>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1)) s.replace(at, strlen(from), to);
  }
  return s;
}

// The text of <pre id="reproduce"><code>...</code></pre>.
std::string reproduceLine(const std::string& dom) {
  std::smatch m;
  if (!std::regex_search(dom, m, std::regex(R"re(<pre id="reproduce"><code>([^<]*)</code>)re"))) return "";
  return unescapeHtml(m[1].str());
}

TEST(HtmlReport, TheEmbeddedDataCannotEndItsScriptBlock) {
  streamsim::harness::RunOutcome run;
  run.trace = {R"({"event":"input","batch":0,"note":"</script><script>alert(1)</script><!--"})"};
  run.traceTimes = {0};
  streamsim::harness::RunPicture p;
  p.file = "x</script>.yaml";
  p.name = "<b>name</b>";
  p.run = &run;
  std::string html = streamsim::harness::runReportHtml(p);
  // One data block and one script block end: the page's own.
  EXPECT_EQ(count(html, "</script>"), 2u) << html.substr(0, 400);
  EXPECT_EQ(count(html, "<!--"), 0u);
  EXPECT_NE(html.find("<title>FAIL x&lt;/script&gt;.yaml</title>"), std::string::npos);
  // The data still parses back to the same strings.
  const std::string open = "<script type=\"application/json\" id=\"data\">";
  auto at = html.find(open) + open.size();
  auto data = nlohmann::json::parse(html.substr(at, html.find("</script>", at) - at));
  EXPECT_EQ(data["file"], "x</script>.yaml");
  EXPECT_EQ(data["events"][0]["e"]["note"], "</script><script>alert(1)</script><!--");
}

TEST(HtmlReport, AFailingSeedsPageShowsItsBatchesTheViolatedOracleAndAReproduceLineThatRuns) {
  ScratchDir dir("html_failing_seed");
  const std::string file = source("tests/harness/async_scenarios/racy_count.yaml");
  const std::string page = dir.path() + "/seed.html";
  CliOut r = runCli("replay " + file + " --seed 0 --html " + page);
  ASSERT_EQ(r.code, 1) << r.text;
  ASSERT_NE(r.text.find("wrote " + page), std::string::npos) << r.text;
  std::string dom = renderedDom(page);
  EXPECT_NE(dom.find("data-drawn=\"run\""), std::string::npos) << "the page's script did not run";
  EXPECT_NE(dom.find("id=\"verdict\" class=\"verdict fail\">FAIL<"), std::string::npos);
  EXPECT_NE(dom.find("class=\"violation\" data-oracle=\"interleaving\""), std::string::npos);
  // Both batches are drawn, and the events the violation names are highlighted.
  EXPECT_EQ(count(dom, "class=\"batch\" data-batch=\""), 2u);
  EXPECT_GE(count(dom, "<tr class=\"ev hl\""), 1u);
  // The reproduce line on the page is the replay line, and it runs as printed: the same failure.
  std::string line = reproduceLine(dom);
  ASSERT_NE(line.find(" replay "), std::string::npos) << line;
  CliOut again = runShell(line);
  EXPECT_EQ(again.code, 1) << line << "\n" << again.text;
  EXPECT_NE(again.text.find("interleaving"), std::string::npos) << again.text;
}

TEST(HtmlReport, ACrashedRunShowsTheCrashTheBatchThatDidNotCommitItsReRunAndTheDowntime) {
  ScratchDir dir("html_crash");
  const std::string page = dir.path() + "/crash.html";
  // Seed 9 crashes after the state of batch 2 committed, before the batch's commit: batch 2 runs again.
  CliOut r = runCli("replay " + source("scenarios/seeds/heartbeat_missing_device.yaml") + " --seed 9 --html " + page);
  ASSERT_EQ(r.code, 0) << r.text;
  ASSERT_NE(r.text.find("crash at state.after_commit batch 2"), std::string::npos) << r.text;
  std::string dom = renderedDom(page);
  EXPECT_NE(dom.find("id=\"verdict\" class=\"verdict pass\">PASS<"), std::string::npos);
  EXPECT_EQ(count(dom, "class=\"fault crash_applied\""), 1u);
  EXPECT_EQ(count(dom, "class=\"batch aborted\" data-batch=\"2\""), 1u);
  EXPECT_EQ(count(dom, "class=\"batch rerun\" data-batch=\"2\""), 1u);
  EXPECT_EQ(count(dom, "class=\"down\""), 1u);
  EXPECT_GE(count(dom, "class=\"timer fired\""), 1u);
  EXPECT_NE(dom.find("data-lane=\"state op 0 p0\""), std::string::npos);
  EXPECT_NE(dom.find("<dd data-fact=\"restarts\">1</dd>"), std::string::npos);
}

TEST(HtmlReport, ASweepsPageLinksEachFailingSeedToItsOwnPageAndReportRedrawsItFromTheJson) {
  ScratchDir dir("html_sweep");
  const std::string file = source("tests/harness/async_scenarios/racy_count.yaml");
  const std::string page = dir.path() + "/sweep.html", json = dir.path() + "/sweep.json";
  CliOut s = runCli("sweep " + file + " --seeds 6 --no-progress --json " + json + " --html " + page);
  ASSERT_EQ(s.code, 1) << s.text;
  auto report = nlohmann::json::parse(slurp(json));
  size_t failed = 0;
  for (const auto& r : report["results"]) failed += r["passed"].get<bool>() ? 0 : 1;
  ASSERT_GE(failed, 1u) << s.text;

  for (const std::string& p : {page, dir.path() + "/again.html"}) {
    if (p != page) {
      CliOut again = runCli("report " + json + " --html " + p);
      ASSERT_EQ(again.code, 0) << again.text;
    }
    std::string dom = renderedDom(p);
    EXPECT_NE(dom.find("data-drawn=\"sweep\""), std::string::npos) << p;
    EXPECT_NE(dom.find("data-seeds=\"6\" data-failed=\"" + std::to_string(failed) + "\""), std::string::npos) << p;
    std::smatch m;
    std::string rest = dom;
    size_t links = 0;
    while (std::regex_search(rest, m, std::regex(R"re(<a class="seed fail" href="([^"]+)">)re"))) {
      ++links;
      const std::string seedPage = (std::filesystem::path(p).parent_path() / unescapeHtml(m[1].str())).string();
      ASSERT_TRUE(std::filesystem::exists(seedPage)) << seedPage;
      EXPECT_NE(renderedDom(seedPage).find("class=\"violation\" data-oracle=\"interleaving\""), std::string::npos)
          << seedPage;
      rest = m.suffix();
    }
    EXPECT_EQ(links, failed) << p;
  }
}

TEST(HtmlReport, APageCannotBeWrittenToAFolder) {
  ScratchDir dir("html_folder");
  CliOut r = runCli("run " + source("scenarios/seeds/counter_a3_b2.yaml") + " --html " + dir.path());
  EXPECT_EQ(r.code, 2) << r.text;
  EXPECT_NE(r.text.find("is a folder"), std::string::npos) << r.text;
}

}  // namespace
