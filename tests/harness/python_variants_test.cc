// The Python-side variants the hash_seed and pandas_chunks oracles run (oracles/python_variants.h,
// harness/python_processors.h) and the Python reference's name (oracles/reference.h). The buggy
// twins under scenarios/python/buggy/ (CTest buggy/python/*) run them end to end.
#include <gtest/gtest.h>

#include <set>

#include "streamsim/harness/oracles/python_variants.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/python_processors.h"

namespace streamsim::harness {
namespace {

TEST(PythonVariants, EachSeedHasItsOwnNonZeroHashSeedDerivedFromTheSeedAlone) {
  std::set<uint32_t> seen;
  for (uint64_t s = 0; s < 20; ++s) {
    EXPECT_NE(pythonHashSeedOf(s), 0u) << "seed " << s;  // 0 is the CLI's own
    EXPECT_EQ(pythonHashSeedOf(s), pythonHashSeedOf(s));
    seen.insert(pythonHashSeedOf(s));
  }
  EXPECT_EQ(seen.size(), 20u);
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
