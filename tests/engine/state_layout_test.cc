// transformWithState's store layout (tws/state_layout.h): what the operator writes decodes by the
// kinds of the schema, a map entry's key splits into grouping and user key by the number of
// grouping columns, and bytes that do not follow the layout are Corruption, never a guess.
#include "streamsim/tws/state_layout.h"

#include <gtest/gtest.h>

#include "streamsim/state/row_encoding.h"

namespace streamsim::state_layout {
namespace {

OperatorLayout layoutOf(std::vector<StateVariableSchema> variables, size_t groupingColumns) {
  OperatorLayout l;
  l.variables = std::move(variables);
  l.groupingColumns = groupingColumns;
  return l;
}

std::string key(std::vector<Value> values) {
  std::string out;
  for (const auto& v : values) encodeOrderedValue(v, out);
  return out;
}

TEST(StateLayout, AValueWithTtlDecodesWithItsExpiry) {
  auto layout = layoutOf({{"count", "", "value long", true, "value"}}, 1);
  std::string payload;
  encodeOrderedValue(Value(int64_t{5}), payload);
  auto row = decodeRow(layout, "count", key({Value("u1")}), encodeEntry(TimeMs{60'000}, payload));
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->kind, VariableKind::kValue);
  ASSERT_EQ(row->groupingKey.size(), 1u);
  EXPECT_EQ(row->groupingKey[0].toString(), "u1");
  ASSERT_EQ(row->items.size(), 1u);
  EXPECT_EQ(row->items[0].expiresAt, TimeMs{60'000});
  EXPECT_EQ(row->items[0].values.at(0).asLong(), 5);
}

TEST(StateLayout, AListIsReadByItsSchemaKindNotByItsBytes) {
  // A list of one element without TTL starts with the flag byte 0 like a value does: only the
  // schema's kind tells them apart.
  auto layout = layoutOf({{"items", "", "value string", false, "list"}}, 1);
  std::string a, b;
  encodeOrderedValue(Value("x"), a);
  encodeOrderedValue(Value("y"), b);
  std::string stored = encodeList({{std::nullopt, a}, {TimeMs{7}, b}});
  auto row = decodeRow(layout, "items", key({Value("k")}), stored);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->kind, VariableKind::kList);
  ASSERT_EQ(row->items.size(), 2u);
  EXPECT_EQ(row->items[0].values.at(0).toString(), "x");
  EXPECT_FALSE(row->items[0].expiresAt.has_value());
  EXPECT_EQ(row->items[1].expiresAt, TimeMs{7});
}

TEST(StateLayout, AMapEntrysKeySplitsByTheGroupingColumns) {
  auto layout = layoutOf({{"m", "k string", "value long", false, "map"}}, 2);
  std::string payload;
  encodeOrderedValue(Value(int64_t{1}), payload);
  auto row = decodeRow(layout, "m", key({Value("a"), Value("b"), Value("user")}), encodeEntry(std::nullopt, payload));
  ASSERT_TRUE(row.ok()) << row.status().message();
  ASSERT_EQ(row->groupingKey.size(), 2u);
  ASSERT_EQ(row->userKey.size(), 1u);
  EXPECT_EQ(row->userKey[0].toString(), "user");
}

TEST(StateLayout, TimersAndTheTtlIndexDecode) {
  auto layout = layoutOf({{"count", "", "value long", true, "value"}}, 1);
  std::string byKey = key({Value("d1")}) + orderedTime(25'000);
  auto t = decodeRow(layout, kTimersByKeyCf, byKey, "");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->family, DecodedRow::Family::kTimersByKey);
  EXPECT_EQ(t->time, TimeMs{25'000});
  EXPECT_EQ(t->groupingKey.at(0).toString(), "d1");
  auto ts = decodeRow(layout, kTimersByTimeCf, orderedTime(-3) + key({Value("d1")}), "");
  ASSERT_TRUE(ts.ok()) << ts.status().message();
  EXPECT_EQ(ts->time, TimeMs{-3});
  auto ttl = decodeRow(layout, ttlIndexCf("count"), orderedTime(9) + key({Value("d1")}), "");
  ASSERT_TRUE(ttl.ok()) << ttl.status().message();
  EXPECT_EQ(ttl->family, DecodedRow::Family::kTtlIndex);
  EXPECT_EQ(ttl->variable, "count");
  EXPECT_EQ(ttl->time, TimeMs{9});
}

TEST(StateLayout, BadBytesAreCorruptionAndOtherFamiliesNotFound) {
  auto layout = layoutOf({{"count", "", "value long", false, "value"}}, 1);
  auto bad = decodeRow(layout, "count", key({Value("u")}), std::string("\x07", 1));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kCorruption);
  EXPECT_NE(bad.status().message().find("bad TTL header"), std::string::npos) << bad.status().message();
  auto truncated = decodeRow(layoutOf({{"l", "", "value long", false, "list"}}, 1), "l", key({Value("u")}),
                             std::string("\x00\x00\x00\x00\x09", 5));
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), Status::Code::kCorruption);
  auto other = decodeRow(layout, "dedup_keys", key({Value("u")}), "");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace streamsim::state_layout
