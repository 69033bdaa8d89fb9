// `streamsim state` and `inspect` on the checkpoints Spark wrote with its RocksDB-backed state store
// (tests/fixtures/spark-rocksdb): the text a person reads, by state variable name and key
// (issue 39's "done when"). What the rows hold at every batch: checkpoint_state_rocksdb_test.cc.
#include <gtest/gtest.h>

#include <filesystem>

#include "reliability/cli_test_support.h"
#include "test_paths.h"

namespace streamsim {
namespace {

using streamsim::testing::runCli;
const std::string kRocks = std::string(STREAMSIM_FIXTURES_DIR) + "/../spark-rocksdb";

TEST(CliSparkRocksDB, StateOfTransformWithStateByVariableName) {
  auto o = runCli("state " + kRocks + "/tws-valuestate-unsaferow-4.0");
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("(Spark's RocksDB-backed state store, schema v3 from state/0/_stateSchema/default/"),
            std::string::npos) << o.text;
  EXPECT_NE(o.text.find("  partition 0: 1 row (1.zip, 2.changelog)\n    [countState]\n      {\"value\":\"a\"} = "
                        "{\"value\":2}\n"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("    [countState]\n      {\"value\":\"b\"} = {\"value\":1}\n"), std::string::npos) << o.text;
  auto j = runCli("state --json --batch 0 " + kRocks + "/tws-valuestate-unsaferow-4.0");
  EXPECT_EQ(j.code, 0) << j.text;
  EXPECT_NE(j.text.find("\"columnFamily\": \"countState\""), std::string::npos) << j.text;
  EXPECT_NE(j.text.find("\"format\": \"spark-rocksdb\""), std::string::npos) << j.text;
}

// Regression (issue 39): this checkpoint (format v2: N_<uuid> files) printed "5 partitions without
// rows"; it holds six keys.
TEST(CliSparkRocksDB, StateOfACheckpointFormatV2DedupShowsTheSixKeys) {
  auto o = runCli("state " + kRocks + "/ckptv2-dedup-4.1");
  EXPECT_EQ(o.code, 0) << o.text;
  for (int k = 1; k <= 6; ++k)
    EXPECT_NE(o.text.find("{\"_1\":" + std::to_string(k) + "} = {\"__dummy__\":null}"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("1 partition without rows: 0\n"), std::string::npos) << o.text;
}

TEST(CliSparkRocksDB, StateOfAJoinShowsItsFourStores) {
  auto o = runCli("state " + kRocks + "/join1-4stores-4.0");
  EXPECT_EQ(o.code, 0) << o.text;
  for (const char* store : {"left-keyToNumValues", "left-keyWithIndexToValue", "right-keyToNumValues",
                            "right-keyWithIndexToValue"})
    EXPECT_NE(o.text.find(std::string("partition 2 ") + store + ": "), std::string::npos) << store << "\n" << o.text;
  EXPECT_NE(o.text.find("{\"field0\":10,\"index\":0} = {\"leftId\":10,\"leftTime\":\"1970-01-01T00:00:10Z\","
                        "\"matched\":true}"), std::string::npos) << o.text;
}

TEST(CliSparkRocksDB, InspectNamesTheStateStore) {
  auto o = runCli("inspect " + kRocks + "/ckptv2-dedup-4.1");
  EXPECT_EQ(o.code, 0) << o.text;
  EXPECT_NE(o.text.find("state store: org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider "
                        "(state checkpoint format v2)"), std::string::npos) << o.text;
}

}  // namespace
}  // namespace streamsim
