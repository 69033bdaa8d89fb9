// Values, Spark DDL schemas, rows, and the time/duration formats of time.h.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim {
namespace {

using ::testing::HasSubstr;

TEST(Schema, ParsesSparkDdl) {
  auto s = Schema::parseDDL("id string, count long, t timestamp, n INT, ok boolean, x double NOT NULL");
  ASSERT_TRUE(s.ok()) << s.status().toString();
  ASSERT_EQ(s->size(), 6u);
  EXPECT_EQ(s->field(0).name, "id");
  EXPECT_EQ(s->field(1).type, Type::kLong);
  EXPECT_EQ(s->field(2).type, Type::kTimestamp);
  EXPECT_EQ(s->field(3).type, Type::kInt);
  EXPECT_EQ(s->field(4).type, Type::kBoolean);
  EXPECT_FALSE(s->field(5).nullable);
  EXPECT_EQ(s->toDDL(), "id string, count long, t timestamp, n int, ok boolean, x double NOT NULL");
  EXPECT_EQ(s->indexOf("t"), 2);
  EXPECT_EQ(s->indexOf("nope"), -1);
  EXPECT_EQ(Schema::parseDDL("a bigint, b integer")->field(0).type, Type::kLong);
  EXPECT_EQ(Schema::parseDDL("`odd name` string")->field(0).name, "odd name");
  EXPECT_EQ(Schema::parseDDL("")->size(), 0u);
}

TEST(Schema, RejectsBadDdlWithAReason) {
  EXPECT_THAT(Schema::parseDDL("id strin").status().message(), HasSubstr("unknown type 'strin'"));
  EXPECT_THAT(Schema::parseDDL("id string count long").status().message(), HasSubstr("expected ','"));
  EXPECT_THAT(Schema::parseDDL("id").status().message(), HasSubstr("'name type' pairs"));
  EXPECT_THAT(Schema::parseDDL("a long, a string").status().message(), HasSubstr("names column 'a' twice"));
}

TEST(Value, OrdersAcrossNumericTypesAndNullFirst) {
  EXPECT_LT(compare(Value(), Value(int64_t{-5})), 0);
  EXPECT_EQ(compare(Value(int32_t{3}), Value(int64_t{3})), 0);
  EXPECT_LT(compare(Value(int64_t{3}), Value(3.5)), 0);
  EXPECT_LT(compare(Value("a"), Value("b")), 0);
  EXPECT_EQ(Value(int32_t{3}).hash(), Value(int64_t{3}).hash());
}

// Regression: parquet_fuzz_nan_roundtrip (CI of stop 49: a Parquet file with a NaN double read,
// written and read back compared unequal, as NaN != NaN made compare() no order at all).
// Spark orders doubles by SQLOrderingUtil.compareDoubles (catalyst/util/SQLOrderingUtil.scala):
// NaN == NaN, NaN above every number, -0.0 == 0.0; grouping hashes agree (NormalizeFloatingNumbers).
TEST(Value, OrdersDoublesAsSqlDoesNaNEqualAndLargest) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double otherNan = -std::numeric_limits<double>::signaling_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(compare(Value(nan), Value(otherNan)), 0);
  EXPECT_EQ(Value(nan), Value(nan));
  EXPECT_EQ(Value(nan).hash(), Value(otherNan).hash());
  EXPECT_GT(compare(Value(nan), Value(inf)), 0);
  EXPECT_LT(compare(Value(inf), Value(nan)), 0);
  EXPECT_GT(compare(Value(nan), Value(int64_t{1} << 62)), 0);
  EXPECT_EQ(compare(Value(-0.0), Value(0.0)), 0);
  EXPECT_EQ(Value(-0.0).hash(), Value(0.0).hash());
  std::vector<Value> v{Value(nan), Value(1.0), Value(otherNan), Value(-inf), Value(int64_t{2})};
  std::sort(v.begin(), v.end());
  EXPECT_EQ(v[0].asDouble(), -inf);
  EXPECT_EQ(v[1].asDouble(), 1.0);
  EXPECT_EQ(v[2].asLong(), 2);
  EXPECT_TRUE(std::isnan(v[3].asDouble()) && std::isnan(v[4].asDouble()));
}

TEST(Value, CastsLikeSpark) {
  EXPECT_EQ(Value("42").castTo(Type::kLong)->asLong(), 42);
  EXPECT_FALSE(Value("4x").castTo(Type::kLong).ok());
  EXPECT_FALSE(Value(int64_t{1} << 40).castTo(Type::kInt).ok());
  auto ts = Value("2026-01-01T00:00:00Z").castTo(Type::kTimestamp);
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->type(), Type::kTimestamp);
  EXPECT_EQ(ts->asLong(), 1767225600000);
  EXPECT_EQ(ts->toString(), "2026-01-01T00:00:00Z");
}

TEST(Row, NamedConstructionEqualityAndJson) {
  Row a{{"device", "d1"}, {"count", int64_t{3}}};
  Row b{{"count", int64_t{3}}, {"device", "d1"}};
  EXPECT_EQ(a, b);  // column order does not matter
  EXPECT_EQ(a.get("count").asLong(), 3);
  EXPECT_TRUE(a.get("missing").isNull());
  EXPECT_EQ(a.toJson(), R"({"device":"d1","count":3})");
  Row c{{"device", "d1"}, {"count", int64_t{4}}};
  EXPECT_FALSE(a == c);
  Row p = project(a, {"count"});
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].asLong(), 3);
}

TEST(Time, ParsesAndFormatsTimestamps) {
  EXPECT_EQ(*parseTimestamp("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(*parseTimestamp("2026-01-01 00:10:00"), 1767226200000);
  EXPECT_EQ(*parseTimestamp("2026-01-01T00:00:00.250Z"), 1767225600250);
  EXPECT_EQ(*parseTimestamp("2024-02-29"), 1709164800000);
  EXPECT_EQ(formatTimestamp(1767225600250), "2026-01-01T00:00:00.250Z");
  EXPECT_EQ(formatTimestamp(-1000), "1969-12-31T23:59:59Z");
  EXPECT_THAT(parseTimestamp("2026-13-01").status().message(), HasSubstr("expected an ISO-8601"));
  EXPECT_FALSE(parseTimestamp("yesterday").ok());
}

// formatTimestamp writes years 0..9999 digit by digit and the rest through fmt: both paths give
// zero-padded fields, milliseconds only when not zero, and parse back to the same instant.
TEST(Time, FormatsTimestampsAtTheEdgesOfEachField) {
  EXPECT_EQ(formatTimestamp(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(formatTimestamp(5), "1970-01-01T00:00:00.005Z");
  EXPECT_EQ(formatTimestamp(1767225600050), "2026-01-01T00:00:00.050Z");
  EXPECT_EQ(formatTimestamp(1767225599999), "2025-12-31T23:59:59.999Z");
  EXPECT_EQ(formatTimestamp(-62135596800000), "0001-01-01T00:00:00Z");
  EXPECT_EQ(formatTimestamp(-62167219200000), "0000-01-01T00:00:00Z");
  EXPECT_EQ(formatTimestamp(253402300799999), "9999-12-31T23:59:59.999Z");
  // Past year 9999 (and before year 0): ISO 8601's expanded years, which parse back (issue 18).
  EXPECT_EQ(formatTimestamp(253402300800000), "+10000-01-01T00:00:00Z");
  EXPECT_EQ(formatTimestamp(-62167219200001), "-00001-12-31T23:59:59.999Z");
  EXPECT_EQ(*parseTimestamp("+10000-01-01T00:00:00Z"), 253402300800000);
  for (TimeMs t = 1767225600000 - 86400000; t < 1767225600000 + 86400000; t += 3600007) {
    auto back = parseTimestamp(formatTimestamp(t));
    ASSERT_TRUE(back.ok()) << formatTimestamp(t);
    EXPECT_EQ(*back, t);
  }
}

TEST(Time, ParsesDurations) {
  EXPECT_EQ(*parseDuration("10m"), 600000);
  EXPECT_EQ(*parseDuration("7d"), 7 * 86400000LL);
  EXPECT_EQ(*parseDuration("250ms"), 250);
  EXPECT_EQ(*parseDuration("1h30m"), 5400000);
  EXPECT_EQ(*parseDuration("10 minutes"), 600000);
  EXPECT_EQ(*parseDuration("1500"), 1500);
  EXPECT_THAT(parseDuration("10 parsecs").status().message(), HasSubstr("bad duration"));
  EXPECT_FALSE(parseDuration("").ok());
  EXPECT_EQ(formatDuration(600000), "10m");
  EXPECT_EQ(formatDuration(1500), "1500ms");
}

}  // namespace
}  // namespace streamsim
