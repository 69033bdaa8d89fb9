// Grouping by partition and key (ops/partitioning.h): every row once, in its key's partition,
// keys ascending inside a partition, a key's rows in input order; the groups stay valid after
// the result is moved (they point into the rows it holds).
#include "streamsim/ops/partitioning.h"

#include <map>

#include <gtest/gtest.h>

#include "streamsim/state/row_encoding.h"

namespace streamsim::ops {
namespace {

Row row(std::string key, int64_t seq) {
  static SchemaPtr schema = makeSchema({Field{"k", Type::kString, true}, Field{"seq", Type::kLong, true}});
  return Row(schema, {Value(std::move(key)), Value(seq)});
}

TEST(Partitioning, GroupsByPartitionThenKeyWithRowsInInputOrder) {
  const int n = 3;
  std::vector<Row> rows;
  const char* keys[] = {"b", "a", "c", "b", "dd", "a", "b", "e", "c", "a"};
  for (int64_t i = 0; i < 10; ++i) rows.push_back(row(keys[i], i));
  PartitionedGroups g = partitionRows(rows, {"k"}, n);
  PartitionedGroups moved = std::move(g);

  ASSERT_EQ(moved.size(), 3u);
  std::map<std::string, std::vector<int64_t>> expected;  // encoded key -> seqs in input order
  for (const Row& r : rows) expected[encodeKey(r, {"k"})].push_back(r[1].asLong());
  size_t seen = 0;
  for (size_t p = 0; p < moved.size(); ++p) {
    std::string previous;
    for (size_t i = 0; i < moved[p].size(); ++i) {
      const KeyGroup& kg = moved[p][i];
      EXPECT_EQ(partitionOf(kg.key, n), static_cast<int>(p));
      if (i > 0) {
        EXPECT_LT(previous, kg.key);
      }
      previous = kg.key;
      std::vector<int64_t> seqs;
      for (const Row& r : kg.rows) {
        EXPECT_EQ(encodeKey(r, {"k"}), kg.key);
        seqs.push_back(r[1].asLong());
      }
      EXPECT_EQ(seqs, expected[kg.key]);
      seen += kg.rows.size();
    }
  }
  EXPECT_EQ(seen, rows.size());
}

TEST(Partitioning, EmptyInputHasEveryPartitionEmpty) {
  PartitionedGroups g = groupByPartitionAndKey({}, 4);
  ASSERT_EQ(g.size(), 4u);
  for (size_t p = 0; p < 4; ++p) EXPECT_TRUE(g[p].empty());
}

}  // namespace
}  // namespace streamsim::ops
