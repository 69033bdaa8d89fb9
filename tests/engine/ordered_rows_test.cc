// OrderedRows (the memory working copy's rows of one family) against a std::map: random puts,
// erases, finds and scans, with keys that share long prefixes (the structure compares words
// after the shared bytes and recomputes them when a key shares fewer), enough of them to split
// leaves, reads followed by writes of the same key (the put that starts where the find looked),
// and timer-like runs (appended at the end, erased from the front).
#include "../../engine/src/state/ordered_rows.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "../../engine/src/state/size_class_pool.h"

namespace streamsim::detail {
namespace {

using Model = std::map<std::string, std::string>;

std::vector<std::pair<std::string, std::string>> scanFrom(const OrderedRows& rows, std::string_view begin,
                                                          size_t limit = SIZE_MAX) {
  std::vector<std::pair<std::string, std::string>> out;
  rows.scanFrom(begin, [&](std::string_view k, std::string_view v) {
    out.emplace_back(k, v);
    return out.size() < limit;
  });
  return out;
}

std::vector<std::pair<std::string, std::string>> modelFrom(const Model& m, const std::string& begin,
                                                           size_t limit = SIZE_MAX) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto it = m.lower_bound(begin); it != m.end() && out.size() < limit; ++it) out.emplace_back(*it);
  return out;
}

// Keys from a small alphabet (including 0x00 and 0xFF bytes) behind one of a few long prefixes.
std::string makeKey(int prefix, const std::string& tail) {
  // The last is longer than a word and several words: keys that tie on words for long.
  static const std::string prefixes[] = {"", "abcdefghijkl", "abcdefghijkm", std::string("\x20k0\x00", 4),
                                         std::string(20, '\xff'), std::string(45, 'p')};
  return prefixes[prefix] + tail;
}

RC_GTEST_PROP(OrderedRows, BehavesLikeAnOrderedMap, ()) {
  SizeClassPool pool;
  OrderedRows rows(&pool);
  Model model;
  const auto tailGen = rc::gen::container<std::string>(rc::gen::element<char>('\0', 'a', 'b', '\xff'));
  const int ops = *rc::gen::inRange(0, 3000);
  const int prefixes = *rc::gen::inRange(1, 7);  // how many of the prefixes keys use
  size_t maxSize = 0;
  // Values of many lengths: an overwrite that grows past the row's room moves the row.
  const auto valueOf = [](int i) { return std::string(*rc::gen::inRange(0, 80), 'v') + std::to_string(i); };
  for (int i = 0; i < ops; ++i) {
    const std::string key = makeKey(*rc::gen::inRange(0, prefixes), *tailGen);
    switch (*rc::gen::inRange(0, 12)) {
      case 0:
      case 1:
      case 2:
      case 3: {
        const std::string value = valueOf(i);
        const bool isNew = model.find(key) == model.end();
        model[key] = value;
        RC_ASSERT(rows.put(key, value) == isNew);
        break;
      }
      case 4:
      case 5: {
        const bool existed = model.erase(key) == 1;
        RC_ASSERT(rows.erase(key) == existed);
        break;
      }
      case 6: {  // erase the smallest key, as expired timers go
        if (model.empty()) break;
        const std::string first = model.begin()->first;
        model.erase(model.begin());
        RC_ASSERT(rows.erase(first));
        break;
      }
      case 7: {
        const auto it = model.find(key);
        const OrderedRows::Row* row = rows.find(key);
        RC_ASSERT((row != nullptr) == (it != model.end()));
        if (row != nullptr) RC_ASSERT(std::string(row->value()) == it->second);
        break;
      }
      case 8:
        RC_ASSERT(scanFrom(rows, key, 5) == modelFrom(model, key, 5));
        break;
      case 9: {  // putIfAbsent: an existing key keeps its value
        const std::string value = valueOf(i);
        const bool isNew = model.emplace(key, value).second;
        RC_ASSERT(rows.putIfAbsent(key, value) == isNew);
        break;
      }
      case 10: {  // a read, then a write of the same key: the put starts where the find looked
        const std::string value = valueOf(i);
        const bool isNew = model.find(key) == model.end();
        RC_ASSERT((rows.find(key) == nullptr) == isNew);
        model[key] = value;
        RC_ASSERT(rows.put(key, value) == isNew);
        break;
      }
      case 11: {  // a read, rows moved by a write of another key, then the write of the read key
        const std::string other = makeKey(*rc::gen::inRange(0, prefixes), *tailGen);
        rows.find(key);
        if (*rc::gen::arbitrary<bool>()) {
          model.erase(other);
          rows.erase(other);
        } else {
          model[other] = "o";
          rows.put(other, "o");
        }
        const bool isNew = model.find(key) == model.end();
        model[key] = std::to_string(i);
        RC_ASSERT(rows.put(key, std::to_string(i)) == isNew);
        break;
      }
      default:
        break;
    }
    RC_ASSERT(rows.size() == model.size());
    maxSize = std::max(maxSize, model.size());
  }
  RC_CLASSIFY(maxSize > 2 * OrderedRows::kLeafCap, "split leaves");
  RC_ASSERT(scanFrom(rows, "") == modelFrom(model, ""));
}

// A timer key's time: 8 bytes, big-endian.
std::string bigEndianTime(uint64_t t) {
  std::string s(8, '\0');
  for (int i = 0; i < 8; ++i) s[i] = static_cast<char>(t >> (56 - 8 * i));
  return s;
}

// Big-endian times: armed in ascending order at the end, expired from the front, across the
// byte boundaries where the bytes all keys share shrink.
TEST(OrderedRows, TimerLikeAppendAndExpire) {
  SizeClassPool pool;
  OrderedRows rows(&pool);
  Model model;
  auto key = [](uint64_t t, int k) { return bigEndianTime(t) + "key" + std::to_string(k); };
  uint64_t next = 0xF0;
  for (int round = 0; round < 200; ++round) {
    for (int k = 0; k < 150; ++k, next += 3) {
      const std::string kk = key(next, k % 7);
      ASSERT_TRUE(rows.put(kk, "v"));
      model[kk] = "v";
    }
    for (int k = 0; k < 140 && !model.empty(); ++k) {
      ASSERT_TRUE(rows.erase(model.begin()->first));
      model.erase(model.begin());
    }
    ASSERT_EQ(rows.size(), model.size());
  }
  EXPECT_EQ(scanFrom(rows, ""), modelFrom(model, ""));
  const std::string mid = key(next - 500, 0);
  EXPECT_EQ(scanFrom(rows, mid), modelFrom(model, mid));
  EXPECT_EQ(scanFrom(rows, std::string(1, '\x01')), modelFrom(model, std::string(1, '\x01')));
  EXPECT_TRUE(scanFrom(rows, std::string(9, '\xff')).empty());
}

// Timers armed for one time: the keys (the time, then the grouping key as the engine encodes a
// string "k0001234": a type byte, the bytes, a terminator) differ only in their last bytes, so
// their words (taken after what all keys share) tie. Out of order, then a second time's timers
// armed while the first's are erased from the front.
TEST(OrderedRows, TimersOfOneTimeDifferOnlyInTheirLastBytes) {
  SizeClassPool pool;
  OrderedRows rows(&pool);
  Model model;
  auto key = [](uint64_t t, int k) {
    char name[16];
    std::snprintf(name, sizeof name, "k%07d", k);
    return bigEndianTime(t) + "\x20" + name + std::string("\x00\x01", 2);
  };
  std::vector<int> order(3000);
  for (int i = 0; i < 3000; ++i) order[i] = static_cast<int>((i * 7919L) % 3000);
  for (int k : order) {
    ASSERT_TRUE(rows.put(key(1'700'000'000'000, k), "")) << k;
    model[key(1'700'000'000'000, k)] = "";
  }
  for (int k : order) ASSERT_NE(rows.find(key(1'700'000'000'000, k)), nullptr) << k;
  EXPECT_EQ(rows.find(key(1'700'000'000'000, 3000)), nullptr);
  EXPECT_EQ(rows.find(key(1'700'000'000'000, 3000).substr(0, 30)), nullptr);
  for (int k = 0; k < 3000; ++k) {
    ASSERT_TRUE(rows.erase(model.begin()->first)) << k;
    model.erase(model.begin());
    ASSERT_TRUE(rows.putIfAbsent(key(1'700'000'060'000, k), ""));
    model[key(1'700'000'060'000, k)] = "";
    if (k % 97 == 0) {
      const std::string mid = key(1'700'000'060'000, k / 2);
      ASSERT_EQ(scanFrom(rows, mid, 3), modelFrom(model, mid, 3)) << k;
    }
  }
  EXPECT_EQ(rows.size(), model.size());
  EXPECT_EQ(scanFrom(rows, ""), modelFrom(model, ""));
}

TEST(OrderedRows, KeysOutsideTheSharedPrefix) {
  SizeClassPool pool;
  OrderedRows rows(&pool);
  EXPECT_EQ(rows.find("abc"), nullptr);
  EXPECT_FALSE(rows.erase("abc"));
  EXPECT_TRUE(scanFrom(rows, "a").empty());
  ASSERT_TRUE(rows.put("prefix1", "a"));
  ASSERT_TRUE(rows.put("prefix2", "b"));
  EXPECT_EQ(rows.find("pre"), nullptr);
  EXPECT_EQ(rows.find("q"), nullptr);
  EXPECT_FALSE(rows.erase("a"));
  EXPECT_EQ(scanFrom(rows, "a").size(), 2u);
  EXPECT_EQ(scanFrom(rows, "pre").size(), 2u);
  EXPECT_TRUE(scanFrom(rows, "q").empty());
  ASSERT_TRUE(rows.put("", "empty"));  // shares nothing: every word is recomputed
  EXPECT_EQ(scanFrom(rows, ""), (std::vector<std::pair<std::string, std::string>>{
                                    {"", "empty"}, {"prefix1", "a"}, {"prefix2", "b"}}));
  ASSERT_NE(rows.find("prefix2"), nullptr);
  EXPECT_EQ(std::string(rows.find("prefix2")->value()), "b");
}

}  // namespace
}  // namespace streamsim::detail
