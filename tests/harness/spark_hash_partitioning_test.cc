// Spark's hash partitioning (ops/spark_hash_partitioning.h) against Spark itself: the value its
// `hash` function documents (catalyst expressions/hash.scala, Murmur3Hash's example), and every
// key of every Spark-written fixture (tests/fixtures/spark-rocksdb) read from the partition
// pmod(Murmur3Hash(key, 42), numPartitions) gives it — HashPartitioning.partitionIdExpression, the
// placement of a stateful operator's state (StatefulOpClusteredDistribution).
#include "streamsim/ops/spark_hash_partitioning.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "streamsim/harness/checkpoint_state.h"
#include "streamsim/platform/platform.h"
#include "test_paths.h"

namespace streamsim::harness {
namespace {

namespace stdfs = std::filesystem;
const std::string kRocks = std::string(STREAMSIM_FIXTURES_DIR) + "/../spark-rocksdb";

TEST(SparkHashPartitioning, SparksDocumentedHashValue) {
  // > SELECT hash('Spark', array(123), 2);  -1321691492
  const Value array = Value::arrayOf({Value(int32_t{123})});
  EXPECT_EQ(ops::sparkMurmur3Hash({Value("Spark"), array, Value(int32_t{2})}), -1321691492);
  // A null leaves the running hash; the pmod is never negative.
  EXPECT_EQ(ops::sparkMurmur3Hash({Value(), Value("Spark"), array, Value(), Value(int32_t{2})}), -1321691492);
  EXPECT_EQ(ops::sparkHashPartition({Value("Spark"), array, Value(int32_t{2})}, 5), ((-1321691492 % 5) + 5) % 5);
}

// Regression: date and binary keys hashed as nulls (the seed), so every date- or binary-keyed row
// went to one partition. Spark hashes a date as its day count (an Int inside Spark) and a binary
// as its bytes, as a string's (catalyst/expressions/hash.scala Murmur3Hash.hash).
TEST(SparkHashPartitioning, DatesHashAsTheirDayCountAndBinariesAsTheirBytes) {
  EXPECT_EQ(ops::sparkMurmur3Hash({Value::date(19000)}), ops::sparkMurmur3Hash({Value(int32_t{19000})}));
  EXPECT_NE(ops::sparkMurmur3Hash({Value::date(19000)}), ops::sparkMurmur3Hash({Value::date(19001)}));
  EXPECT_EQ(ops::sparkMurmur3Hash({Value::binary("Spark")}), ops::sparkMurmur3Hash({Value("Spark")}));
  EXPECT_NE(ops::sparkMurmur3Hash({Value::binary("a")}), ops::sparkMurmur3Hash({Value()}));
}

// The key's fields (named in `keyFields`, typed by the operator's schema) as Values.
std::vector<Value> keyValues(const nlohmann::json& key, const std::vector<std::string>& keyFields,
                             const std::map<std::string, SparkColumnFamilySchema>& families) {
  std::vector<Value> out;
  for (const auto& name : keyFields) {
    std::string type;
    for (const auto& [cf, schema] : families)
      for (const auto& f : schema.key)
        if (f.name == name) type = nlohmann::json::parse(f.typeJson).get<std::string>();
    const nlohmann::json& v = key.at(name);
    if (type == "integer") out.emplace_back(static_cast<int32_t>(v.get<int64_t>()));
    else if (type == "long") out.emplace_back(v.get<int64_t>());
    else if (type == "string") out.emplace_back(v.get<std::string>());
    else ADD_FAILURE() << "key field " << name << " of type '" << type << "'";
  }
  return out;
}

TEST(SparkHashPartitioning, EveryFixtureKeyIsInThePartitionSparkChose) {
  if (!stdfs::exists(kRocks)) GTEST_SKIP() << kRocks << " is not there";
  auto fs = platform::newPosixFileSystem();
  Env env;
  env.fs = fs.get();
  struct Case {
    std::string fixture;
    std::vector<std::string> keyFields;  // the partitioning key: the grouping or join key
    int64_t batches;
  };
  // The join's keyWithIndexToValue keys add an "index" after the join key (not partitioned by).
  const std::vector<Case> cases = {{"agg-changelog-4.0", {"_1"}, 4},
                                   {"ckptv2-dedup-4.1", {"_1"}, 4},
                                   {"tws-valuestate-unsaferow-4.0", {"value"}, 2},
                                   {"tws-valuestate-avro-4.0", {"value"}, 2},
                                   {"join1-4stores-4.0", {"field0"}, 5}};
  for (const auto& c : cases) {
    int checked = 0;
    for (int64_t batch = 0; batch < c.batches; ++batch) {
      CheckpointStateOptions o;
      o.batch = batch;
      auto state = readCheckpointState(env, kRocks + "/" + c.fixture, o);
      ASSERT_TRUE(state.ok()) << c.fixture << ": " << state.status().message();
      const auto& op = state->operators.at(0);
      const int n = static_cast<int>(std::set<int>([&] {
                                        std::set<int> parts;
                                        for (const auto& p : op.partitions) parts.insert(p.partition);
                                        return parts;
                                      }()).size());
      ASSERT_EQ(n, 5) << c.fixture;  // spark.sql.shuffle.partitions 5 in each
      for (const auto& p : op.partitions) {
        ASSERT_FALSE(p.error) << c.fixture << " partition " << p.partition << ": " << *p.error;
        for (const auto& r : p.rows) {
          auto values = keyValues(nlohmann::json::parse(r.key), c.keyFields, op.families);
          EXPECT_EQ(ops::sparkHashPartition(values, n), p.partition)
              << c.fixture << " batch " << batch << " " << p.store << " key " << r.key;
          ++checked;
        }
      }
    }
    EXPECT_GT(checked, 0) << c.fixture;
  }
}

}  // namespace
}  // namespace streamsim::harness
