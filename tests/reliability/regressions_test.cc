// Regression tests of issue 18 (reliability) at the library level, one per defect, each named
// after the bug: every one of these aborted, hit undefined behaviour (caught by the sanitizer
// build, docs/reliability.md) or took bad input silently before its fix.
#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "streamsim/state/state_files.h"
#include "streamsim/time.h"
#include "streamsim/value.h"

namespace streamsim {
namespace {

TEST(Reliability, FormatTimestampOfInt64MinDoesNotNegateIt) {
  // time.cc negated INT64_MIN to floor the day count (UB). Now it is floored by division.
  // Under the sanitized suite this test also caught the remainder taken as t - days * 86400000,
  // a product past int64 for the lowest day (UBSan: signed integer overflow at time.cc).
  std::string s = formatTimestamp(std::numeric_limits<int64_t>::min());
  EXPECT_EQ(s.front(), '-') << s;
  auto back = parseTimestamp(s);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(*back, std::numeric_limits<int64_t>::min());
}

TEST(Reliability, TimestampsAfterYear9999ReadBackAsWritten) {
  // Year 10000 was written "10000-01-01T00:00:00Z", which the reader (four-digit years) refused.
  for (TimeMs t : {TimeMs{253402300800000}, TimeMs{253402300800123}, TimeMs{-62135596800001},
                   std::numeric_limits<int64_t>::max()}) {
    SCOPED_TRACE(t);
    std::string s = formatTimestamp(t);
    auto back = parseTimestamp(s);
    ASSERT_TRUE(back.ok()) << s << ": " << back.status().toString();
    EXPECT_EQ(*back, t) << s;
  }
  EXPECT_EQ(formatTimestamp(253402300800000), "+10000-01-01T00:00:00Z");
  EXPECT_FALSE(parseTimestamp("+999999999999-01-01T00:00:00Z").ok());  // past int64 ms
}

TEST(Reliability, ImpossibleDatesAreRefusedNotRolledOver) {
  EXPECT_FALSE(parseTimestamp("2026-02-31T00:00:00Z").ok());
  EXPECT_FALSE(parseTimestamp("2026-02-29T00:00:00Z").ok());
  EXPECT_FALSE(parseTimestamp("2026-04-31").ok());
  EXPECT_FALSE(parseTimestamp("2100-02-29T00:00:00.000Z").ok());
  EXPECT_TRUE(parseTimestamp("2024-02-29T00:00:00Z").ok());
  EXPECT_TRUE(parseTimestamp("2000-02-29T00:00:00Z").ok());
}

TEST(Reliability, DurationOverflowIsAnErrorNotANegativeDuration) {
  EXPECT_FALSE(parseDuration("9999999999999999d").ok());
  EXPECT_FALSE(parseDuration("9223372036854775807ms 1ms").ok());
  auto max = parseDuration("9223372036854775807ms");
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(*max, std::numeric_limits<int64_t>::max());
}

TEST(Reliability, DoubleOutOfInt64RangeIsNotCastToLong) {
  for (double d : {1e300, -1e300, 9223372036854775808.0, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN()}) {
    SCOPED_TRACE(d);
    EXPECT_FALSE(Value(d).castTo(Type::kLong).ok());
    EXPECT_FALSE(Value(d).castTo(Type::kTimestamp).ok());
  }
  auto min = Value(-9223372036854775808.0).castTo(Type::kLong);
  ASSERT_TRUE(min.ok());
  EXPECT_EQ(min->asLong(), std::numeric_limits<int64_t>::min());
}

TEST(Reliability, SchemaNotFollowedByNullIsRefused) {
  EXPECT_FALSE(parseSchema("x string NOT banana").ok());
  EXPECT_FALSE(parseSchema("x string NOT").ok());
  auto ok = parseSchema("x string not null, y long");
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE((*ok)->field(0).nullable);
}

// The standard CRC-32 (reflected, 0xEDB88320), as the state file footer holds it.
uint32_t crc32(std::string_view data) {
  uint32_t c = 0xffffffffu;
  for (unsigned char b : data) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

TEST(Reliability, StateFileFooterCountOverItsSizeIsCorruptNotAHugeReservation) {
  StateFileWriter w(StateFileKind::kSnapshot, 3);
  w.put("default", "k", "v");
  std::string file = w.finish();
  // Footer (docs/state-format.md §2): 'E', the record count (8 bytes), the CRC-32 of all before
  // it (4 bytes), both big-endian.
  auto putBigEndian = [&file](size_t at, uint64_t x, int bytes) {
    for (int i = 0; i < bytes; ++i) file[at + i] = static_cast<char>(x >> (8 * (bytes - 1 - i)));
  };
  auto crcOfBody = [&file] { return crc32(std::string_view(file).substr(0, file.size() - 4)); };
  std::string check = file;
  putBigEndian(file.size() - 4, crcOfBody(), 4);
  ASSERT_EQ(file, check) << "the test's CRC-32 and byte order are the file's";
  putBigEndian(file.size() - 12, uint64_t{1} << 62, 8);  // count 2^62 with a valid CRC
  putBigEndian(file.size() - 4, crcOfBody(), 4);
  Status st = parseStateFile(file, "/chk/state/0/0/3.snapshot", StateFileKind::kSnapshot, 3,
                             [](const StateRecordView&) {});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Status::Code::kCorruption);
  EXPECT_NE(st.message().find("footer says 4611686018427387904 records"), std::string::npos)
      << st.toString();
}

}  // namespace
}  // namespace streamsim
