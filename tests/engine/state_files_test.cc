// State file bytes (docs/state-format.md §2): the footer's CRC-32 is the IEEE CRC of every byte
// before it, checked against a bit-at-a-time reference for files of many lengths (the writer
// and reader use a table-driven version; both must keep producing the same bytes).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "streamsim/state/state_files.h"

namespace streamsim {
namespace {

uint32_t referenceCrc32(std::string_view data) {
  uint32_t c = 0xFFFFFFFFu;
  for (char ch : data) {
    c ^= static_cast<uint8_t>(ch);
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

TEST(StateFileBytes, FooterCrcIsTheIeeeCrc32OfEverythingBeforeIt) {
  for (int n = 0; n < 40; ++n) {
    StateFileWriter w(StateFileKind::kSnapshot, 7);
    for (int i = 0; i < n; ++i) w.put("cf", std::string(static_cast<size_t>(i % 9), 'k'), std::to_string(i * 7919));
    std::string file = w.finish();
    std::string_view body(file.data(), file.size() - 4);
    uint32_t stored = 0;
    for (size_t i = file.size() - 4; i < file.size(); ++i) stored = (stored << 8) | static_cast<uint8_t>(file[i]);
    EXPECT_EQ(stored, referenceCrc32(body)) << n << " records";
    EXPECT_TRUE(parseStateFile(file, "/x/7.snapshot", StateFileKind::kSnapshot, 7, [](const StateRecordView&) {}).ok());
  }
  // Every length mod 16 below and above 64 bytes (a folding CRC takes whole 16-byte blocks and
  // finishes the rest otherwise), and files long enough for the 64-byte parallel folds.
  for (size_t len = 0; len < 300; len += 1) {
    StateFileWriter w(StateFileKind::kSnapshot, 7);
    std::string value(len, '\0');
    for (size_t i = 0; i < len; ++i) value[i] = static_cast<char>((i * 131 + len) & 0xFF);
    w.put("cf", "k", value);
    if (len % 100 == 99) w.put("cf", "big", std::string(70'000 + len, static_cast<char>(len)));
    std::string file = w.finish();
    uint32_t stored = 0;
    for (size_t i = file.size() - 4; i < file.size(); ++i) stored = (stored << 8) | static_cast<uint8_t>(file[i]);
    EXPECT_EQ(stored, referenceCrc32(std::string_view(file.data(), file.size() - 4))) << len;
  }
  // The well-known check value of CRC-32/ISO-HDLC.
  EXPECT_EQ(referenceCrc32("123456789"), 0xCBF43926u);
}

TEST(StateFileBytes, RecordLayoutIsOpThenVarintLengthPrefixedFields) {
  // docs/state-format.md §2: 'P' varint(cf) cf varint(key) key varint(value) value, 'D' without
  // the value; lengths >= 128 take two varint bytes (low 7 bits first, high bit = more).
  StateFileWriter w(StateFileKind::kChangelog, 3);
  // The writer puts a short record together on the stack and a long one (over 256 bytes) in
  // place: both must give these bytes.
  const std::string longKey(200, 'k'), longerKey(300, 'K');
  w.put("cf", longKey, "v1");
  w.remove("$t", "");
  w.put("c", "k", "");
  w.remove("cf", longerKey);
  std::string file = w.finish();
  std::string expected = std::string("P\x02" "cf") + "\xC8\x01" + longKey + "\x02" "v1" +
                         std::string("D\x02" "$t\x00", 5) + std::string("P\x01" "c\x01" "k\x00", 6) +
                         "D\x02" "cf" "\xAC\x02" + longerKey;
  ASSERT_GE(file.size(), 17 + expected.size() + 13);
  EXPECT_EQ(file.substr(17, expected.size()), expected);
  EXPECT_EQ(file[17 + expected.size()], 'E');
  std::vector<std::string> seen;
  EXPECT_TRUE(parseStateFile(file, "/x/3.changelog", StateFileKind::kChangelog, 3, [&](const StateRecordView& r) {
                seen.push_back(std::string(r.cf) + "|" + std::string(r.key).substr(0, 3) + "|" + std::string(r.value) +
                               (r.remove ? "|D" : "|P"));
              }).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"cf|kkk|v1|P", "$t|||D", "c|k||P", "cf|KKK||D"}));
}

}  // namespace
}  // namespace streamsim
