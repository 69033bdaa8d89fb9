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
  static SchemaPtr schema = makeSchema({Field{"k", Type::kString, true, nullptr}, Field{"seq", Type::kLong, true, nullptr}});
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
      EXPECT_EQ(seqs, expected[std::string(kg.key)]);
      seen += kg.rows.size();
    }
  }
  EXPECT_EQ(seen, rows.size());
}

// Groups one row per key, already encoded, row i holding the sequence number i.
PartitionedGroups groupKeys(const std::vector<std::string>& keys, int parts) {
  std::string all;
  std::vector<uint32_t> ends;
  std::vector<Row> rows;
  for (size_t i = 0; i < keys.size(); ++i) {
    all += keys[i];
    ends.push_back(static_cast<uint32_t>(all.size()));
    rows.push_back(row("x", static_cast<int64_t>(i)));
  }
  return groupEncodedRows(all, ends, std::move(rows), parts);
}

// Keys that share their first 8 bytes (the sort's packed prefix), keys that are prefixes of
// others, keys shorter than 8 bytes whose zero padding equals another key's zero bytes: one
// partition, so the whole order is checked against std::string's.
TEST(Partitioning, EncodedKeysSortBytewiseWhateverTheirPrefix) {
  using namespace std::string_literals;
  const std::vector<std::string> suffixes = {
      "abcdefghZ"s, "ab"s, "abcdefgh"s, "ab\0"s, "abcdefghA"s, "ab\0\0"s, "abcdefghAA"s, ""s,
      "abcdefgh\xff"s, "a"s, "abcdefghZ"s, "ab"s, "\xff\xff\xff\xff\xff\xff\xff\xff\x01"s, "abcdefgh"s};
  // Also behind a prefix every key shares (the bytes the sort skips).
  for (const std::string& shared : {""s, "\x20k000"s}) {
    std::vector<std::string> keys;
    for (const std::string& s : suffixes) keys.push_back(shared + s);
    PartitionedGroups g = groupKeys(keys, 1);
    PartitionedGroups moved = std::move(g);

    std::map<std::string, std::vector<int64_t>> expected;  // std::string's order is bytewise
    for (size_t i = 0; i < keys.size(); ++i) expected[keys[i]].push_back(static_cast<int64_t>(i));
    ASSERT_EQ(moved[0].size(), expected.size());
    size_t i = 0;
    for (const auto& [key, seqs] : expected) {
      const KeyGroup& kg = moved[0][i++];
      EXPECT_EQ(std::string(kg.key), key);
      std::vector<int64_t> got;
      for (const Row& r : kg.rows) got.push_back(r[1].asLong());
      EXPECT_EQ(got, seqs) << "key of " << key.size() << " bytes, shared prefix " << shared.size();
    }
  }
}

// Enough rows for the radix pass (a few thousand per partition, as a batch of the throughput
// bench has): random keys over a small alphabet with zero and 0xff bytes, so that prefixes tie
// between different keys, keys are prefixes of others and most keys repeat. Same check as above.
TEST(Partitioning, ManyRowsSortBytewiseWithRowsInInputOrder) {
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  };
  const char alphabet[] = {'\0', 'a', 'b', '\xff'};
  for (int parts : {1, 3}) {
    std::vector<std::string> keys;
    for (int i = 0; i < 4000; ++i) {
      std::string k = "\x20shared";
      size_t len = next() % 12;
      for (size_t j = 0; j < len; ++j) k.push_back(alphabet[next() % 4]);
      keys.push_back(std::move(k));
    }
    PartitionedGroups g = groupKeys(keys, parts);
    std::map<std::string, std::vector<int64_t>> expected;
    for (size_t i = 0; i < keys.size(); ++i) expected[keys[i]].push_back(static_cast<int64_t>(i));
    size_t groups = 0;
    for (int p = 0; p < parts; ++p) {
      std::string previous;
      for (size_t i = 0; i < g[static_cast<size_t>(p)].size(); ++i) {
        const KeyGroup& kg = g[static_cast<size_t>(p)][i];
        const std::string key(kg.key);
        EXPECT_EQ(partitionOf(key, parts), p);
        if (i > 0) {
          EXPECT_LT(previous, key);
        }
        previous = key;
        std::vector<int64_t> got;
        for (const Row& r : kg.rows) got.push_back(r[1].asLong());
        EXPECT_EQ(got, expected[key]);
        ++groups;
      }
    }
    EXPECT_EQ(groups, expected.size());
  }
}

TEST(Partitioning, EmptyInputHasEveryPartitionEmpty) {
  PartitionedGroups g = groupByPartitionAndKey({}, 4);
  ASSERT_EQ(g.size(), 4u);
  for (size_t p = 0; p < 4; ++p) EXPECT_TRUE(g[p].empty());
}

}  // namespace
}  // namespace streamsim::ops
