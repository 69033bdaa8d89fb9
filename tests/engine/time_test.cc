// parseTimestamp reads yyyy-MM-ddTHH:mm:ss[.SSS]Z at fixed offsets and everything else with its
// general reader; appendTimestamp appends formatTimestamp's text. Both readers must agree.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/time.h"

namespace streamsim {
namespace {

using ::testing::HasSubstr;

// The same instant written in the fixed layout and in layouts only the general reader takes
// (a space for T, +00:00 for Z, one or four fraction digits) reads the same.
TEST(ParseTimestamp, FixedLayoutAgreesWithTheGeneralReader) {
  for (TimeMs t = -62167219200000; t < 253402300799999; t += 7919 * 86400000LL + 3723456) {
    std::string fixed = formatTimestamp(t);
    auto a = parseTimestamp(fixed);
    ASSERT_TRUE(a.ok()) << fixed;
    EXPECT_EQ(*a, t) << fixed;
    std::string spaced = fixed;
    spaced[10] = ' ';
    std::string offset = fixed.substr(0, fixed.size() - 1) + "+00:00";
    std::string longFraction = fixed.size() == 24 ? fixed.substr(0, 23) + "9Z" : fixed;
    for (const std::string& other : {spaced, offset, longFraction}) {
      auto b = parseTimestamp(other);
      ASSERT_TRUE(b.ok()) << other;
      EXPECT_EQ(*b, t) << other;
    }
  }
  EXPECT_EQ(*parseTimestamp("2026-01-01T00:00:00.5Z"), 1767225600500);
  EXPECT_EQ(*parseTimestamp("2026-01-01T00:00:00.050Z"), 1767225600050);
  EXPECT_EQ(*parseTimestamp("2026-01-01T00:00:60Z"), 1767225660000);  // a leap second passes
  // A day past its month's end is no date (it rolled into March before issue 18).
  EXPECT_FALSE(parseTimestamp("2026-02-31T00:00:00Z").ok());
}

TEST(ParseTimestamp, NearMissesOfTheFixedLayoutAreErrorsOfTheGeneralReader) {
  for (const char* bad : {"2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:61Z",
                          "2026-00-01T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-00T00:00:00Z",
                          "2026-01-32T00:00:00Z", "2026-01-01T00:00:0aZ", "2026-01-01T00:00:00.12aZ",
                          "2026-01-01T00:00:00.Z", "2026-01-01X00:00:00Z", "2026-01-01T00:00:00Y",
                          "+026-01-01T00:00:00Z", "2026/01/01T00:00:00Z"}) {
    auto r = parseTimestamp(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_THAT(r.status().message(), HasSubstr("expected an ISO-8601")) << bad;
  }
}

// The fixed layout is checked eight bytes at a time: every byte of it, set to every other value,
// reads as the general reader reads the same text (which a space for T sends there): the same
// value, or an error.
TEST(ParseTimestamp, EveryByteOfTheFixedLayoutIsCheckedLikeTheGeneralReader) {
  for (std::string base : {"2026-07-15T13:45:59Z", "1999-12-31T23:59:60.987Z", "0000-01-01T00:00:00.000Z"}) {
    for (size_t i = 0; i < base.size(); ++i) {
      if (i == 10) continue;  // the T itself
      for (int c = 0; c < 256; ++c) {
        std::string text = base;
        text[i] = static_cast<char>(c);
        std::string general = text;
        general[10] = ' ';
        auto a = parseTimestamp(text);
        auto b = parseTimestamp(general);
        ASSERT_EQ(a.ok(), b.ok()) << text;
        if (a.ok()) {
          EXPECT_EQ(*a, *b) << text;
        }
      }
    }
  }
}

TEST(AppendTimestamp, WritesEveryFieldsDigits) {
  // Fields at both ends of their ranges and in between, with and without milliseconds.
  for (TimeMs t = 0; t < 253402300799999; t += 86400000LL * 367 + 3600000LL * 7 + 60000 * 13 + 1000 * 29 + 7) {
    std::string s;
    appendTimestamp(s, t);
    auto back = parseTimestamp(s);
    ASSERT_TRUE(back.ok()) << s;
    EXPECT_EQ(*back, t) << s;
  }
  std::string s;
  appendTimestamp(s, 253402300799999);
  EXPECT_EQ(s, "9999-12-31T23:59:59.999Z");
  s.clear();
  appendTimestamp(s, 1767225600001);
  EXPECT_EQ(s, "2026-01-01T00:00:00.001Z");
  s.clear();
  appendTimestamp(s, 1767225600010);
  EXPECT_EQ(s, "2026-01-01T00:00:00.010Z");
}

TEST(AppendTimestamp, AppendsFormatTimestampsText) {
  std::string out = "at ";
  appendTimestamp(out, 1767225600250);
  EXPECT_EQ(out, "at 2026-01-01T00:00:00.250Z");
  for (TimeMs t : {0LL, -1LL, 253402300800000LL, -62167219200001LL, 1767225600000LL}) {
    std::string s = "x";
    appendTimestamp(s, t);
    EXPECT_EQ(s, "x" + formatTimestamp(t)) << t;
  }
}

}  // namespace
}  // namespace streamsim
