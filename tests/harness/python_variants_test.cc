// The Python-side variants the hash_seed and pandas_chunks oracles run (oracles/python_variants.h,
// harness/python_processors.h) and the Python reference's name (oracles/reference.h). The buggy
// twins under scenarios/python/buggy/ (CTest buggy/python/*) run them end to end.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <signal.h>

#include "streamsim/harness/oracles/python_variants.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/pool.h"
#include "test_paths.h"

namespace streamsim::harness {
namespace {

TEST(PythonVariants, SeedsShareAFewNonZeroHashSeedsEachDerivedFromTheSeedAlone) {
  std::set<uint32_t> seen, firstTwenty;
  for (uint64_t s = 0; s < 500; ++s) {
    EXPECT_NE(pythonHashSeedOf(s), 0u) << "seed " << s;  // 0 is the CLI's own
    EXPECT_EQ(pythonHashSeedOf(s), pythonHashSeedOf(s));
    seen.insert(pythonHashSeedOf(s));
    if (s < 20) firstTwenty.insert(pythonHashSeedOf(s));
  }
  // A sweep's seeds repeat kPythonHashSeeds values (one kept worker each), and a short sweep
  // already tries most of them.
  EXPECT_EQ(seen.size(), kPythonHashSeeds);
  EXPECT_GE(firstTwenty.size(), kPythonHashSeeds - 2);
}

// A worker that answers every line with its process id and the line.
std::vector<std::string> echoWorker(const std::string& name) {
  return {"/bin/sh", "-c", "while read line; do echo \"$$ $line\"; done", name};
}
std::string pidOf(const std::string& answer) { return answer.substr(0, answer.find(' ')); }

TEST(KeptWorkers, AWorkerServesTheRequestsOfItsCommandUntilItIsTheLeastRecentlyUsedOneTooMany) {
  KeptWorkers kept(1);
  const std::string a1 = kept.ask(echoWorker("a"), "1");
  const std::string a2 = kept.ask(echoWorker("a"), "2");
  ASSERT_EQ(a1.substr(a1.find(' ')), " 1");
  ASSERT_EQ(a2.substr(a2.find(' ')), " 2");
  EXPECT_EQ(pidOf(a1), pidOf(a2));  // the same process
  EXPECT_EQ(kept.started(), 1u);
  const std::string b = kept.ask(echoWorker("b"), "3");  // another command: another process
  EXPECT_NE(pidOf(b), pidOf(a1));
  const std::string a3 = kept.ask(echoWorker("a"), "4");  // a's was closed to keep one idle
  EXPECT_NE(pidOf(a3), pidOf(a1));
  EXPECT_EQ(kept.started(), 3u);
}

TEST(KeptWorkers, NoneKeptStartsAProcessARequest) {
  KeptWorkers once(0);
  EXPECT_NE(pidOf(once.ask(echoWorker("a"), "1")), pidOf(once.ask(echoWorker("a"), "2")));
  EXPECT_EQ(once.started(), 2u);
}

TEST(KeptWorkers, AWorkerThatEndsWithoutAnsweringOrCannotStartAnswersNothingAndIsNotKept) {
  KeptWorkers kept(4);
  const std::vector<std::string> quits = {"/bin/sh", "-c", "read line; exit 3"};
  EXPECT_EQ(kept.ask(quits, "1"), "");
  EXPECT_EQ(kept.ask(quits, "2"), "");
  EXPECT_EQ(kept.started(), 2u);
  EXPECT_EQ(kept.ask({"/nonexistent/streamsim-worker"}, "1"), "");
  // A worker killed while kept: its next request finds it gone (no SIGPIPE ends this process).
  const std::string answer = kept.ask(echoWorker("k"), "1");
  ASSERT_FALSE(answer.empty());
  ASSERT_EQ(::kill(std::stoi(pidOf(answer)), SIGKILL), 0);
  EXPECT_EQ(kept.ask(echoWorker("k"), "2"), "");
  EXPECT_NE(kept.ask(echoWorker("k"), "3"), "");  // a new one
}

// Seeds `first`..`last` of the scenario file `rel` from `kept`'s hash-seed workers, each answer
// as a worker started for that file and seed alone gives; the hash seeds asked go into `hashSeeds`.
void expectKeptAnswersAsFresh(KeptWorkers& kept, const char* rel, uint64_t first, uint64_t last,
                              std::set<uint32_t>& hashSeeds) {
  const std::string file = std::string(test_paths::sourceDir()) + "/" + rel;
  for (uint64_t seed = first; seed <= last; ++seed) {
    const uint32_t h = pythonHashSeedOf(seed);
    hashSeeds.insert(h);
    auto fromKept = sinkUnderHashSeed(test_paths::cli(), file, seed, h, &kept);
    auto fresh = sinkUnderHashSeed(test_paths::cli(), file, seed, h);
    ASSERT_TRUE(fromKept.ok()) << rel << " seed " << seed << ": " << fromKept.status().message();
    ASSERT_TRUE(fresh.ok()) << rel << " seed " << seed << ": " << fresh.status().message();
    EXPECT_FALSE(fresh->empty()) << rel;
    EXPECT_EQ(*fromKept, *fresh) << rel << " seed " << seed;
  }
}

// The hash_seed oracle's kept workers run each seed as a worker started for it alone does (the
// seed's fault-free run in a fresh processor; measured on a processor whose rows depend on the
// hash seed and on a pandas one).
TEST(KeptWorkers, AKeptHashSeedWorkerAnswersEverySeedAsAFreshWorkerDoes) {
  for (const char* rel : {"scenarios/python/buggy/set_order.yml", "scenarios/python/pandas_all_frames.yaml"}) {
    KeptWorkers kept(kPythonHashSeeds);
    std::set<uint32_t> hashSeeds;
    expectKeptAnswersAsFresh(kept, rel, 1, 6, hashSeeds);
    EXPECT_EQ(kept.started(), hashSeeds.size()) << rel;  // one process per hash seed
  }
}

// A sweep's kept workers serve all of its files: one process per hash seed in all, not per file.
TEST(KeptWorkers, OneHashSeedWorkerServesEveryFileOfASweep) {
  KeptWorkers kept(kPythonHashSeeds);
  std::set<uint32_t> hashSeeds;
  for (const char* rel : {"scenarios/python/buggy/set_order.yml", "scenarios/python/rows_listed_once.yaml",
                          "scenarios/python/buggy/set_order.yml"})
    expectKeptAnswersAsFresh(kept, rel, 1, 3, hashSeeds);
  EXPECT_EQ(kept.started(), hashSeeds.size());
}

// The command a hash_seed failure prints (`hash-seed-worker --hash-seed H FILE`) answers a bare
// seed for its file, and names a missing file or a request without one.
TEST(KeptWorkers, AWorkerStartedWithAFileAnswersABareSeed) {
  const std::string file = std::string(test_paths::sourceDir()) + "/scenarios/python/rows_listed_once.yaml";
  KeptWorkers once(0);
  const std::string withFile = once.ask({test_paths::cli(), "hash-seed-worker", "--hash-seed", "7", "--", file}, "2");
  const std::string named = once.ask({test_paths::cli(), "hash-seed-worker", "--hash-seed", "7"}, "2 " + file);
  EXPECT_NE(withFile.find("\"rows\""), std::string::npos) << withFile;
  EXPECT_EQ(withFile, named);
  const std::string none = once.ask({test_paths::cli(), "hash-seed-worker", "--hash-seed", "7"}, "2");
  EXPECT_NE(none.find("without a scenario file"), std::string::npos) << none;
  const std::string missing = once.ask({test_paths::cli(), "hash-seed-worker", "--hash-seed", "7"}, "2 " + file + ".nope");
  EXPECT_NE(missing.find("\"error\""), std::string::npos) << missing;
}

TEST(PythonVariants, MaxRecordsPerBatchIsSparksOptionWithItsDefaultAndNoLimitAtOrBelowZero) {
  EXPECT_EQ(arrowMaxRecordsPerBatch({}), 10'000);
  EXPECT_EQ(arrowMaxRecordsPerBatch({{kArrowMaxRecordsPerBatchConf, "7"}}), 7);
  EXPECT_EQ(arrowMaxRecordsPerBatch({{kArrowMaxRecordsPerBatchConf, "0"}}), kArrowUnlimitedRecords);
  EXPECT_EQ(arrowMaxRecordsPerBatch({{kArrowMaxRecordsPerBatchConf, "-1"}}), kArrowUnlimitedRecords);
}

TEST(PythonVariants, SeedZeroRunsAtTheConfiguredSizeAndMostOtherSeedsCutSmaller) {
  EXPECT_EQ(pandasChunkRowsOf(0, 10'000), 10'000);
  int smaller = 0;
  for (uint64_t s = 1; s <= 20; ++s) {
    int64_t n = pandasChunkRowsOf(s, 10'000);
    EXPECT_TRUE(n == 10'000 || (n >= 1 && n <= 3)) << "seed " << s << ": " << n;
    if (n < 10'000) ++smaller;
    EXPECT_LE(pandasChunkRowsOf(s, 2), 2);  // never above the configured size
  }
  EXPECT_GE(smaller, 10);
}

TEST(PythonVariants, SinksAreComparedAsMultisetsAndTheDifferenceIsNamed) {
  VariantSinks same{"hash seed 0", "hash seed 7", {"{a=1}", "{b=2}"}, {"{b=2}", "{a=1}"}};
  EXPECT_FALSE(checkVariantSinks("hash_seed", same, "why"));
  VariantSinks differ{"hash seed 0", "hash seed 7", {"{t=\"x,y\"}"}, {"{t=\"y,x\"}"}};
  auto v = checkVariantSinks("hash_seed", differ, "set order");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->oracle, "hash_seed");
  EXPECT_NE(v->message.find("only with hash seed 0 (1 rows):\n    {t=\"x,y\"}"), std::string::npos) << v->message;
  EXPECT_NE(v->message.find("only with hash seed 7 (1 rows):\n    {t=\"y,x\"}"), std::string::npos) << v->message;
}

TEST(PythonVariants, AReferenceNamedFilePyFunctionIsAPythonOneAndARegisteredNameIsNot) {
  auto py = splitPythonReference("processors/totals_reference.py:totals");
  ASSERT_TRUE(py);
  EXPECT_EQ(py->first, "processors/totals_reference.py");
  EXPECT_EQ(py->second, "totals");
  EXPECT_FALSE(splitPythonReference("count"));
  EXPECT_FALSE(splitPythonReference("x.py:"));
}

TEST(PythonVariants, AWorkerAnswerCarriesTheRowsOrTheError) {
  EXPECT_EQ(hashSeedAnswer(std::vector<std::string>{"{a=1}"}), R"({"rows":["{a=1}"]})");
  EXPECT_EQ(hashSeedAnswer(Status::FailedPrecondition("boom")), R"({"error":"boom"})");
}

}  // namespace
}  // namespace streamsim::harness
