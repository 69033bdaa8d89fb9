// State stores (state_store.h, state_files.h): the same suite runs on the in-memory and the
// RocksDB store, on the simulated filesystem.
#include "streamsim/state/state_store.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "streamsim/fault_points.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/state_files.h"

namespace streamsim {
namespace {

struct SimCrash {
  std::string point;
};

// Throws SimCrash (a crash) or returns `status` at point `at`; records every point passed.
class TestFaultHook : public FaultHook {
 public:
  Status at(std::string_view point, const FaultContext& ctx) override {
    passed.push_back(fmt::format("{}@{}/{}/{}", point, ctx.batchId, ctx.operatorId, ctx.partition));
    if (point == crash_at) throw SimCrash{std::string(point)};
    if (point == fail_at) return fail_status;
    return Status::OK();
  }
  std::string crash_at;
  std::string fail_at;
  Status fail_status = Status::TaskFailed("injected task failure");
  std::vector<std::string> passed;
};

using Model = std::map<std::string, std::map<std::string, std::string>>;

struct Sim {
  sim::VirtualClock clock{1000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  TestFaultHook hook;
  Env env{&clock, &fs, &ids, &hook, nullptr};
};

std::unique_ptr<StateStoreProvider> provider(Sim& s, StateStoreKind kind, int snapshotEvery = 10) {
  StateStoreOptions o;
  o.kind = kind;
  o.snapshotEvery = snapshotEvery;
  return makeStateStoreProvider(s.env, o);
}

Model dump(StateStore& store) {
  Model m;
  for (const std::string& cf : store.columnFamilies())
    store.scan(cf, "", "", [&](std::string_view k, std::string_view v) {
      m[cf][std::string(k)] = std::string(v);
      return true;
    });
  return m;
}

Model toModel(const StateDump& d) {
  Model m;
  for (const auto& [cf, rows] : d)
    for (const auto& [k, v] : rows) m[cf][k] = v;
  return m;
}

std::vector<std::string> keys(StateStore& store, std::string_view cf, std::string_view begin = "",
                              std::string_view end = "") {
  std::vector<std::string> out;
  store.scan(cf, begin, end, [&](std::string_view k, std::string_view) {
    out.emplace_back(k);
    return true;
  });
  return out;
}

constexpr const char* kRoot = "/chk";

class StateStoreTest : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  StateStoreKind kind() const { return GetParam(); }
  std::string file(int64_t v, StateFileKind f = StateFileKind::kChangelog, int op = 0, int part = 0) {
    return joinPath(stateStoreDir(kRoot, op, part), stateFileName(kind(), f, v));
  }
  std::unique_ptr<StateStore> mustOpen(StateStoreProvider& p, int64_t v, int op = 0, int part = 0) {
    auto r = p.open(kRoot, op, part, v);
    EXPECT_TRUE(r.ok()) << r.status().toString();
    return r.ok() ? std::move(r).value() : nullptr;
  }
  // Commits versions 1..n, version i putting k<i> = v<i> into "default".
  void commitVersions(StateStoreProvider& p, int n) {
    for (int i = 1; i <= n; ++i) {
      auto st = mustOpen(p, i - 1);
      st->put("default", fmt::format("k{:02}", i), fmt::format("v{}", i));
      ASSERT_TRUE(st->commit().ok());
    }
  }
  Sim sim_;
};

TEST_P(StateStoreTest, PutGetRemoveAndOrderedScans) {
  auto p = provider(sim_, kind());
  auto st = mustOpen(*p, 0);
  EXPECT_EQ(st->version(), 0);
  for (const char* k : {"m", "b", "zz", "a", "ab", "b\x01", "\xFF"}) st->put("default", k, std::string("v_") + k);
  st->put("other", "x", "1");
  EXPECT_EQ(st->get("default", "ab"), "v_ab");
  EXPECT_EQ(st->get("default", "nope"), std::nullopt);
  EXPECT_EQ(st->get("other", "m"), std::nullopt);
  EXPECT_EQ(st->get("missingcf", "m"), std::nullopt);
  EXPECT_EQ(keys(*st, "default"), (std::vector<std::string>{"a", "ab", "b", "b\x01", "m", "zz", "\xFF"}));
  EXPECT_EQ(keys(*st, "default", "ab", "m"), (std::vector<std::string>{"ab", "b", "b\x01"}));
  std::vector<std::string> pre;
  st->scanPrefix("default", "b", [&](std::string_view k, std::string_view) {
    pre.emplace_back(k);
    return true;
  });
  EXPECT_EQ(pre, (std::vector<std::string>{"b", "b\x01"}));
  int visited = 0;
  st->scan("default", "", "", [&](std::string_view, std::string_view) { return ++visited < 2; });
  EXPECT_EQ(visited, 2);
  st->put("default", "m", "new");
  EXPECT_EQ(st->get("default", "m"), "new");
  st->remove("default", "m");
  st->remove("default", "never-there");
  EXPECT_EQ(st->get("default", "m"), std::nullopt);
  EXPECT_EQ(st->columnFamilies(), (std::vector<std::string>{"default", "other"}));
  st->remove("other", "x");
  EXPECT_EQ(st->columnFamilies(), (std::vector<std::string>{"default"}));
  EXPECT_TRUE(keys(*st, "other").empty());
  ASSERT_TRUE(st->commit().ok());
}

TEST_P(StateStoreTest, LongKeysSharingPrefixesScanInBytewiseOrder) {
  // Timer keys share their first 8 bytes (the time) and more; the memory working copy compares
  // keys a word at a time, which must give exactly std::string's (unsigned bytewise) order:
  // differences in every byte of a word, high bytes, NULs, and keys that prefix each other.
  auto p = provider(sim_, kind());
  auto st = mustOpen(*p, 0);
  std::string base("\x00\x00\x01\x8c\x2f\x00\x00\x00" "keyheader-0123456789abcdef", 34);
  std::vector<std::string> all;
  // Every byte position is varied: a word compare of the last 1-7 bytes loads the final word of
  // the common length and shifts the bytes compared already out of it.
  for (size_t len : {size_t{3}, size_t{8}, size_t{9}, size_t{11}, size_t{15}, size_t{16}, size_t{17},
                     size_t{23}, size_t{24}, size_t{34}}) {
    std::string k = base.substr(0, len);
    all.push_back(k);
    for (size_t pos = 0; pos < len; ++pos)
      for (char c : {'\x00', '\x7f', '\x80', '\xff'}) {
        std::string v = k;
        v[pos] = c;
        all.push_back(v);
        all.push_back(v + std::string(1, '\x00'));
      }
  }
  for (const std::string& k : all) st->put("timers", k, "v");
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  EXPECT_EQ(keys(*st, "timers"), all);
  for (const std::string& k : all) EXPECT_EQ(st->get("timers", k), "v") << k.size();
  for (size_t i = 0; i < all.size(); i += 2) st->remove("timers", all[i]);
  std::vector<std::string> odd;
  for (size_t i = 1; i < all.size(); i += 2) odd.push_back(all[i]);
  EXPECT_EQ(keys(*st, "timers"), odd);
  // Removing a run in key order (each the row after the last removed), interleaved with puts
  // after the last key (a re-armed timer) and a miss, leaves exactly the rest.
  std::vector<std::string> rest(odd.begin() + 10, odd.end());
  for (size_t i = 0; i < 10; ++i) {
    st->remove("timers", odd[i]);
    st->put("timers", "\xff\xff\xff\xff\xff\xff\xff\xff" + odd[i], "later");
    rest.push_back("\xff\xff\xff\xff\xff\xff\xff\xff" + odd[i]);
    st->remove("timers", odd[i]);  // gone already
  }
  EXPECT_EQ(keys(*st, "timers"), rest);
  EXPECT_EQ(st->get("timers", odd[3]), std::nullopt);
  ASSERT_TRUE(st->commit().ok());
  auto reread = toModel(*readStateAt(sim_.env, kRoot, 0, 0, 1, kind()));
  EXPECT_EQ(reread.at("timers").size(), rest.size());
}

TEST_P(StateStoreTest, ChangelogHoldsTheNetChangePerKeyInKeyOrder) {
  // A timer handler's changes interleave two key runs (remove at t, put at t+60 s, next key...)
  // and touch a key more than once: the changelog holds each key once, its last change, in
  // bytewise key order.
  auto p = provider(sim_, kind());
  {
    auto st = mustOpen(*p, 0);
    for (const char* k : {"t1-a", "t1-b", "t1-c", "x"}) st->put("timers", k, "old");
    ASSERT_TRUE(st->commit().ok());
  }
  auto st = mustOpen(*p, 1);
  st->remove("timers", "t1-a");
  st->put("timers", "t2-a", "1");
  st->remove("timers", "t1-b");
  st->put("timers", "t2-b", "1");
  st->put("timers", "t1-c", "first");
  st->remove("timers", "t1-c");
  st->put("timers", "t2-b", "2");
  st->remove("timers", "x");
  st->put("timers", "x", "back");
  st->put("timers", "t0\xff", "hi");
  ASSERT_TRUE(st->commit().ok());
  std::vector<std::string> records;
  ASSERT_TRUE(parseStateFile(*sim_.fs.read(file(2)), file(2), StateFileKind::kChangelog, 2,
                             [&](const StateRecordView& r) {
                               records.push_back(std::string(r.key) + "=" +
                                                 (r.remove ? "<removed>" : std::string(r.value)));
                             }).ok());
  EXPECT_EQ(records, (std::vector<std::string>{"t0\xff=hi", "t1-a=<removed>", "t1-b=<removed>",
                                               "t1-c=<removed>", "t2-a=1", "t2-b=2", "x=back"}));
}

TEST_P(StateStoreTest, ChangelogIsNetAndOrderedWhateverTheOrderOfChanges) {
  // The log is netted by splitting it into one or two ascending runs and merging them, or by a
  // sort when it splits into more: each shape (sorted, 2-6 interleaved runs with keys repeated
  // across runs, descending, shuffled) must give the same net change in (cf, key) order.
  struct Change {
    std::string cf, key;
    std::optional<std::string> value;
  };
  auto shapes = std::vector<std::vector<Change>>{};
  auto key = [](int i) { return fmt::format("key-with-a-long-shared-prefix-{:04}", i); };
  for (int runs = 1; runs <= 6; ++runs) {
    std::vector<Change> log;
    for (int i = 0; i < 40; ++i)
      for (int r = 0; r < runs; ++r) {
        // Run r visits keys r*3+i: runs overlap, so a key is changed in more than one run.
        const int k = r * 3 + i;
        if ((i + r) % 3 == 0) {
          log.push_back({"fam", key(k), std::nullopt});
        } else {
          log.push_back({"fam", key(k), fmt::format("v{}-{}", r, i)});
        }
      }
    shapes.push_back(log);
  }
  {
    std::vector<Change> log;  // descending, one family changed between two others
    for (int i = 60; i >= 0; --i) {
      log.push_back({i % 2 == 0 ? "b" : "a", key(i % 17), fmt::format("d{}", i)});
      if (i % 5 == 0) log.push_back({"a", key(i % 17), std::nullopt});
    }
    shapes.push_back(log);
  }
  {
    std::vector<Change> log;  // shuffled (a fixed permutation)
    for (int i = 0; i < 97; ++i) log.push_back({"fam", key((i * 37) % 23), fmt::format("s{}", i)});
    shapes.push_back(log);
  }
  int64_t version = 0;
  auto p = provider(sim_, kind(), /*snapshotEvery=*/0);
  for (const std::vector<Change>& log : shapes) {
    auto st = mustOpen(*p, version);
    std::map<std::string, std::map<std::string, std::string>> expected;  // cf -> key -> record
    for (const Change& c : log) {
      if (c.value) {
        st->put(c.cf, c.key, *c.value);
        expected[c.cf][c.key] = *c.value;
      } else {
        // Removes of absent keys are no changes: put first so that every remove counts.
        st->put(c.cf, c.key, "tmp");
        st->remove(c.cf, c.key);
        expected[c.cf][c.key] = "<removed>";
      }
    }
    ASSERT_TRUE(st->commit().ok());
    ++version;
    std::vector<std::string> want, got;
    for (const auto& [cf, rows] : expected)
      for (const auto& [k, v] : rows) want.push_back(cf + "/" + k + "=" + v);
    ASSERT_TRUE(parseStateFile(*sim_.fs.read(file(version)), file(version),
                               StateFileKind::kChangelog, version,
                               [&](const StateRecordView& r) {
                                 got.push_back(std::string(r.cf) + "/" + std::string(r.key) + "=" +
                                               (r.remove ? "<removed>" : std::string(r.value)));
                               }).ok());
    EXPECT_EQ(got, want) << "shape " << version;
  }
}

TEST_P(StateStoreTest, ColumnFamiliesWithPrefixLikeNamesStayApart) {
  auto p = provider(sim_, kind());
  auto st = mustOpen(*p, 0);
  st->put("a", "1", "x");
  st->put("ab", "1", "y");
  st->put("a\x01", "1", "z");
  EXPECT_EQ(keys(*st, "a"), std::vector<std::string>{"1"});
  EXPECT_EQ(st->get("ab", "1"), "y");
  EXPECT_EQ(st->columnFamilies(), (std::vector<std::string>{"a", "a\x01", "ab"}));
  ASSERT_TRUE(st->commit().ok());
  auto p2 = provider(sim_, kind());
  auto again = mustOpen(*p2, 1);
  EXPECT_EQ(dump(*again), (Model{{"a", {{"1", "x"}}}, {"a\x01", {{"1", "z"}}}, {"ab", {{"1", "y"}}}}));
}

TEST_P(StateStoreTest, PrefixSuccessorAndKindNames) {
  EXPECT_EQ(prefixSuccessor("ab"), "ac");
  EXPECT_EQ(prefixSuccessor(std::string("a\xFF\xFF")), "b");
  EXPECT_EQ(prefixSuccessor(std::string("\xFF")), "");
  EXPECT_EQ(prefixSuccessor(""), "");
  EXPECT_EQ(*parseStateStoreKind(stateStoreKindName(kind())), kind());
  EXPECT_EQ(parseStateStoreKind("hdfs").status().code(), Status::Code::kInvalidArgument);
}

TEST_P(StateStoreTest, CommitMakesNextVersionLoadableAfterRestart) {
  auto p = provider(sim_, kind());
  EXPECT_EQ(*p->latestVersion(kRoot, 0, 0), 0);
  commitVersions(*p, 3);
  {
    auto st = mustOpen(*p, 3);
    st->remove("default", "k02");
    ASSERT_TRUE(st->commit().ok());
  }
  EXPECT_TRUE(sim_.fs.exists(file(4)));
  EXPECT_EQ(baseName(file(4)), kind() == StateStoreKind::kMemory ? "4.delta" : "4.changelog");

  auto restarted = provider(sim_, kind());  // a driver restart: nothing cached
  EXPECT_EQ(*restarted->latestVersion(kRoot, 0, 0), 4);
  auto st = mustOpen(*restarted, 4);
  EXPECT_EQ(dump(*st), (Model{{"default", {{"k01", "v1"}, {"k03", "v3"}}}}));
  st->abort();
  auto older = mustOpen(*restarted, 2);  // any earlier version too
  EXPECT_EQ(dump(*older), (Model{{"default", {{"k01", "v1"}, {"k02", "v2"}}}}));
  older->abort();
  EXPECT_EQ(toModel(*readStateAt(sim_.env, kRoot, 0, 0, 4, kind())),
            (Model{{"default", {{"k01", "v1"}, {"k03", "v3"}}}}));
  // Other partitions and operators are separate stores.
  auto other = mustOpen(*restarted, 0, /*op=*/1, /*part=*/2);
  EXPECT_TRUE(dump(*other).empty());
}

TEST_P(StateStoreTest, AbortAndDroppedStoresDiscardChanges) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 1);
  {
    auto st = mustOpen(*p, 1);
    st->put("default", "gone", "x");
    st->remove("default", "k01");
    st->abort();
  }
  {
    auto st = mustOpen(*p, 1);
    EXPECT_EQ(dump(*st), (Model{{"default", {{"k01", "v1"}}}}));
    st->put("default", "also-gone", "y");
  }  // dropped without commit or abort (a task unwound by an exception)
  auto st = mustOpen(*p, 1);
  EXPECT_EQ(dump(*st), (Model{{"default", {{"k01", "v1"}}}}));
  EXPECT_FALSE(sim_.fs.exists(file(2)));
}

TEST_P(StateStoreTest, SecondOpenWhileOpenIsRefused) {
  auto p = provider(sim_, kind());
  auto st = mustOpen(*p, 0);
  auto again = p->open(kRoot, 0, 0, 0);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), Status::Code::kFailedPrecondition);
  EXPECT_NE(again.status().message().find("already open"), std::string::npos);
}

TEST_P(StateStoreTest, ProviderCachesCommittedWorkingCopyButRestartRereadsFiles) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 2);
  ASSERT_TRUE(sim_.fs.remove(file(1)).ok());
  auto cached = mustOpen(*p, 2);  // the cache holds version 2: no file read
  EXPECT_EQ(dump(*cached).at("default").size(), 2u);
  cached->abort();

  auto restarted = provider(sim_, kind());
  auto r = restarted->open(kRoot, 0, 0, 2);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_NE(r.status().message().find(file(1)), std::string::npos) << r.status().message();
  EXPECT_EQ(*restarted->latestVersion(kRoot, 0, 0), 0);  // 2 cannot be loaded without 1
}

// The working copy is cleared before another version is replayed into it, and a clear is skipped
// only for a copy nothing was written to since it was opened (rocksdb_state_store.cc: a first
// load opens one database): the versions' contents never leak into each other.
TEST_P(StateStoreTest, ReloadingAnotherVersionClearsWhatTheWorkingCopyHeld) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 3);
  {
    auto older = mustOpen(*p, 1);  // the copy held version 3: cleared, version 1 replayed
    EXPECT_EQ(dump(*older), (Model{{"default", {{"k01", "v1"}}}}));
    older->abort();
  }
  {
    auto empty = mustOpen(*p, 0);
    EXPECT_TRUE(dump(*empty).empty());
    empty->put("default", "written", "x");
    empty->abort();
  }
  auto fresh = provider(sim_, kind());  // a first load: a new working copy, nothing to clear
  auto first = mustOpen(*fresh, 2);
  EXPECT_EQ(dump(*first), (Model{{"default", {{"k01", "v1"}, {"k02", "v2"}}}}));
  first->abort();
  EXPECT_EQ(dump(*mustOpen(*fresh, 0)), Model{});
}

TEST_P(StateStoreTest, LoadingAVersionWithoutFilesNamesTheMissingFile) {
  auto p = provider(sim_, kind());
  auto r = p->open(kRoot, 0, 0, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_NE(r.status().message().find(file(1)), std::string::npos) << r.status().message();
  EXPECT_EQ(p->open(kRoot, 0, 0, -1).status().code(), Status::Code::kInvalidArgument);
}

TEST_P(StateStoreTest, TornChangelogIsCorruptionNamingTheFile) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 3);
  std::string data = *sim_.fs.read(file(2));
  for (size_t cut : {data.size() - 1, data.size() / 2, size_t{3}, size_t{0}}) {
    ASSERT_TRUE(sim_.fs.write(file(2), data.substr(0, cut)).ok());
    auto restarted = provider(sim_, kind());
    auto r = restarted->open(kRoot, 0, 0, 3);
    ASSERT_FALSE(r.ok()) << "cut at " << cut;
    EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
    EXPECT_NE(r.status().message().find(file(2)), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find("torn"), std::string::npos) << r.status().message();
  }
  // A flipped byte in the middle is caught by the CRC.
  std::string flipped = data;
  flipped[data.size() / 2] ^= 0x20;
  ASSERT_TRUE(sim_.fs.write(file(2), flipped).ok());
  auto r = provider(sim_, kind())->open(kRoot, 0, 0, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(file(2)), std::string::npos);
  // A changelog renamed to another version's name is refused too.
  ASSERT_TRUE(sim_.fs.write(file(2), *sim_.fs.read(file(3))).ok());
  r = provider(sim_, kind())->open(kRoot, 0, 0, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("holds version 3, expected 2"), std::string::npos)
      << r.status().message();
}

TEST_P(StateStoreTest, SnapshotsEveryKVersionsAndTornSnapshotFallsBackToChangelogs) {
  auto p = provider(sim_, kind(), /*snapshotEvery=*/3);
  commitVersions(*p, 7);
  for (int v = 1; v <= 7; ++v) {
    EXPECT_TRUE(sim_.fs.exists(file(v)));
    EXPECT_EQ(sim_.fs.exists(file(v, StateFileKind::kSnapshot)), v % 3 == 0) << v;
  }
  Model expected;
  for (int i = 1; i <= 7; ++i) expected["default"][fmt::format("k{:02}", i)] = fmt::format("v{}", i);
  EXPECT_EQ(toModel(*readStateAt(sim_.env, kRoot, 0, 0, 7, kind())), expected);

  // Snapshot 6 + changelog 7 alone are enough: older changelogs may be gone.
  for (int v = 1; v <= 6; ++v) ASSERT_TRUE(sim_.fs.remove(file(v)).ok());
  EXPECT_EQ(*provider(sim_, kind())->latestVersion(kRoot, 0, 0), 7);
  EXPECT_EQ(toModel(*readStateAt(sim_.env, kRoot, 0, 0, 7, kind())), expected);

  // A torn snapshot with no changelogs to fall back on is Corruption naming it.
  std::string snap = *sim_.fs.read(file(6, StateFileKind::kSnapshot));
  ASSERT_TRUE(sim_.fs.write(file(6, StateFileKind::kSnapshot), snap.substr(0, snap.size() - 2)).ok());
  auto r = provider(sim_, kind())->open(kRoot, 0, 0, 7);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(file(6, StateFileKind::kSnapshot)), std::string::npos)
      << r.status().message();
}

TEST_P(StateStoreTest, TornSnapshotIsSkippedWhenChangelogsCoverIt) {
  auto p = provider(sim_, kind(), /*snapshotEvery=*/2);
  commitVersions(*p, 5);
  std::string snap = *sim_.fs.read(file(4, StateFileKind::kSnapshot));
  ASSERT_TRUE(sim_.fs.write(file(4, StateFileKind::kSnapshot), snap.substr(0, 10)).ok());
  auto st = mustOpen(*provider(sim_, kind()), 5);
  EXPECT_EQ(dump(*st).at("default").size(), 5u);
}

TEST_P(StateStoreTest, MetricsCountKeysUpdatesAndRemovals) {
  auto p = provider(sim_, kind());
  {
    auto st = mustOpen(*p, 0);
    st->put("default", "a", "1");
    st->put("default", "a", "2");
    st->put("x", "b", "1");
    st->remove("default", "missing");
    StateStoreMetrics m = st->metrics();
    EXPECT_EQ(m.numKeys, 2);
    EXPECT_EQ(m.numUpdated, 3);
    EXPECT_EQ(m.numRemoved, 0);
    ASSERT_TRUE(st->commit().ok());
  }
  auto st = mustOpen(*provider(sim_, kind()), 1);  // numKeys survives a restart
  EXPECT_EQ(st->metrics().numKeys, 2);
  EXPECT_EQ(st->metrics().numUpdated, 0);
  st->remove("x", "b");
  st->remove("x", "b");
  EXPECT_EQ(st->metrics().numKeys, 1);
  EXPECT_EQ(st->metrics().numRemoved, 1);
}

// A put right after a get of the same key learns from the get whether the key is new; the
// count must stay right through read-modify-writes, removes and other keys in between.
TEST_P(StateStoreTest, KeyCountIsRightWhenPutsFollowGets) {
  auto st = mustOpen(*provider(sim_, kind()), 0);
  EXPECT_FALSE(st->get("default", "a").has_value());
  st->put("default", "a", "1");  // new after a read that found nothing
  st->put("default", "a", "2");  // same key again without a read: not new
  EXPECT_EQ(st->metrics().numKeys, 1);
  EXPECT_EQ(*st->get("default", "a"), "2");
  st->put("default", "a", "3");  // read found it: not new
  EXPECT_EQ(st->metrics().numKeys, 1);
  EXPECT_FALSE(st->get("other", "a").has_value());
  st->put("default", "a", "4");  // the read was of another family: not new
  st->put("other", "a", "1");    // new
  EXPECT_EQ(st->metrics().numKeys, 2);
  EXPECT_TRUE(st->get("default", "a").has_value());
  st->remove("default", "a");
  st->put("default", "a", "5");  // the remove came after the read: new again
  EXPECT_EQ(st->metrics().numKeys, 2);
  EXPECT_FALSE(st->get("default", "b").has_value());
  st->put("default", "c", "1");  // another key between the read and its write
  st->put("default", "b", "1");
  EXPECT_EQ(st->metrics().numKeys, 4);
  ASSERT_TRUE(st->commit().ok());
  auto again = mustOpen(*provider(sim_, kind()), 1);
  EXPECT_EQ(again->metrics().numKeys, 4);
  EXPECT_EQ(*again->get("default", "a"), "5");
}

// putIfAbsent (registerTimer's one lookup): puts and counts only an absent key, keeps an
// existing key's value, and the changelog holds only what it put.
TEST_P(StateStoreTest, PutIfAbsentPutsOnlyAbsentKeys) {
  auto p = provider(sim_, kind());
  {
    auto st = mustOpen(*p, 0);
    st->put("timers", "b", "old");
    ASSERT_TRUE(st->commit().ok());
  }
  auto st = mustOpen(*p, 1);
  EXPECT_FALSE(st->get("timers", "a").has_value());  // a read that found nothing...
  EXPECT_TRUE(st->putIfAbsent("timers", "a", "1"));
  st->put("timers", "a", "2");  // ...must not make this put count the key again
  EXPECT_FALSE(st->putIfAbsent("timers", "a", "3"));
  EXPECT_FALSE(st->putIfAbsent("timers", "b", "new"));
  EXPECT_TRUE(st->putIfAbsent("other", "b", ""));
  EXPECT_EQ(*st->get("timers", "a"), "2");
  EXPECT_EQ(*st->get("timers", "b"), "old");
  EXPECT_EQ(*st->get("other", "b"), "");
  StateStoreMetrics m = st->metrics();
  EXPECT_EQ(m.numKeys, 3);
  EXPECT_EQ(m.numUpdated, 3);
  ASSERT_TRUE(st->commit().ok());
  std::vector<std::string> records;
  ASSERT_TRUE(parseStateFile(*sim_.fs.read(file(2)), file(2), StateFileKind::kChangelog, 2,
                             [&](const StateRecordView& r) {
                               records.push_back(std::string(r.cf) + "/" + std::string(r.key) + "=" +
                                                 std::string(r.value));
                             }).ok());
  EXPECT_EQ(records, (std::vector<std::string>{"other/b=", "timers/a=2"}));
  auto again = mustOpen(*provider(sim_, kind()), 2);
  EXPECT_EQ(again->metrics().numKeys, 3);
}

TEST_P(StateStoreTest, CommitPassesFaultPointsWithBatchPartitionAndOperator) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 1);
  sim_.hook.passed.clear();
  auto st = mustOpen(*p, 1, /*op=*/0, /*part=*/0);
  ASSERT_TRUE(st->commit().ok());
  ASSERT_EQ(sim_.hook.passed.size(), 3u);
  EXPECT_EQ(sim_.hook.passed[0], "state.before_commit@1/0/0");
  EXPECT_EQ(sim_.hook.passed[1], "log.mid_write@1/0/0");
  EXPECT_EQ(sim_.hook.passed[2], "state.after_commit@1/0/0");
}

TEST_P(StateStoreTest, InjectedFailureAtCommitIsReturnedAndTheVersionCanBeRetried) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 1);
  sim_.hook.fail_at = std::string(faults::kStateBeforeCommit);
  {
    auto st = mustOpen(*p, 1);
    st->put("default", "retry", "1");
    Status s = st->commit();
    EXPECT_EQ(s.code(), Status::Code::kTaskFailed);
    EXPECT_NE(s.message().find("injected task failure"), std::string::npos);
  }
  EXPECT_FALSE(sim_.fs.exists(file(2)));
  sim_.hook.fail_at.clear();
  auto st = mustOpen(*p, 1);  // the task retry sees version 1 without the failed change
  EXPECT_EQ(st->get("default", "retry"), std::nullopt);
  st->put("default", "retry", "2");
  ASSERT_TRUE(st->commit().ok());
  EXPECT_EQ(toModel(*readStateAt(sim_.env, kRoot, 0, 0, 2, kind())).at("default").at("retry"), "2");
}

TEST_P(StateStoreTest, RerunOfAVersionAfterACrashKeepsOrReplacesTheFile) {
  {
    auto p = provider(sim_, kind());
    commitVersions(*p, 1);
    sim_.hook.crash_at = std::string(faults::kStateAfterCommit);
    auto st = mustOpen(*p, 1);
    st->put("default", "b", "1");
    st->put("default", "a", "1");
    EXPECT_THROW((void)st->commit(), SimCrash);
  }
  sim_.hook.crash_at.clear();
  sim_.fs.crashLosingUnsynced();
  ASSERT_TRUE(sim_.fs.exists(file(2)));
  std::string first = *sim_.fs.read(file(2));

  // The batch is re-run from version 1 (its commit log entry is missing) with the same changes,
  // made in another order: the existing file is identical and is kept.
  {
    auto p = provider(sim_, kind());
    auto st = mustOpen(*p, 1);
    st->put("default", "a", "1");
    st->put("default", "b", "1");
    ASSERT_TRUE(st->commit().ok());
    EXPECT_EQ(*sim_.fs.read(file(2)), first);
  }
  // A re-run that changes something else replaces it (Spark overwrites a re-run's files).
  {
    auto p = provider(sim_, kind());
    auto st = mustOpen(*p, 1);
    st->put("default", "c", "1");
    ASSERT_TRUE(st->commit().ok());
    EXPECT_EQ(toModel(*readStateAt(sim_.env, kRoot, 0, 0, 2, kind())).at("default").count("c"), 1u);
  }
  // A torn leftover is replaced too.
  ASSERT_TRUE(sim_.fs.write(file(2), first.substr(0, 7)).ok());
  {
    auto p = provider(sim_, kind());
    auto st = mustOpen(*p, 1);
    st->put("default", "a", "1");
    ASSERT_TRUE(st->commit().ok());
  }
  EXPECT_EQ(toModel(*readStateAt(sim_.env, kRoot, 0, 0, 2, kind())),
            (Model{{"default", {{"a", "1"}, {"k01", "v1"}}}}));
}

TEST_P(StateStoreTest, CrashBeforeCommitLeavesNoFile) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 1);
  sim_.hook.crash_at = std::string(faults::kStateBeforeCommit);
  {
    auto st = mustOpen(*p, 1);
    st->put("default", "x", "1");
    EXPECT_THROW((void)st->commit(), SimCrash);
  }
  sim_.hook.crash_at.clear();
  EXPECT_FALSE(sim_.fs.exists(file(2)));
  EXPECT_EQ(*provider(sim_, kind())->latestVersion(kRoot, 0, 0), 1);
}

TEST_P(StateStoreTest, IOErrorOnChangelogWriteFailsTheCommit) {
  auto p = provider(sim_, kind());
  commitVersions(*p, 1);
  sim_.fs.failWrites(stateStoreDir(kRoot, 0, 0), Status::IOError("disk on fire"), 1);
  auto st = mustOpen(*p, 1);
  st->put("default", "x", "1");
  Status s = st->commit();
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("committing state version 2 of operator 0 partition 0"), std::string::npos)
      << s.message();
  auto again = mustOpen(*p, 1);
  EXPECT_EQ(again->get("default", "x"), std::nullopt);
}

// Random operations over several versions, with restarts in between: every version read back
// through a new provider, through readStateAt, and from snapshot+changelogs or changelogs only,
// equals a plain model.
TEST_P(StateStoreTest, RandomHistoriesReloadIdentically) {
  const StateStoreKind k = kind();
  EXPECT_TRUE(rc::check("random histories reload identically", [k]() {
    Sim s;
    const int every = *rc::gen::inRange(1, 5);
    const int versions = *rc::gen::inRange(1, 8);
    auto genKey = rc::gen::container<std::string>(*rc::gen::inRange<size_t>(0, 3),
                                                  rc::gen::element('a', 'b', '\0', '\xFF'));
    std::vector<Model> models{Model{}};
    auto p = provider(s, k, every);
    for (int v = 0; v < versions; ++v) {
      if (*rc::gen::inRange(0, 4) == 0) p = provider(s, k, every);  // restart
      auto r = p->open(kRoot, 0, 0, v);
      RC_ASSERT(r.ok());
      auto& st = *r;
      Model m = models.back();
      const int ops = *rc::gen::inRange(0, 12);
      for (int i = 0; i < ops; ++i) {
        std::string cf = *rc::gen::element<std::string>("default", "c1", "c2");
        std::string key = *genKey;
        if (*rc::gen::inRange(0, 3) == 0) {
          st->remove(cf, key);
          m[cf].erase(key);
          if (m[cf].empty()) m.erase(cf);
        } else {
          std::string val = *rc::gen::arbitrary<std::string>();
          st->put(cf, key, val);
          m[cf][key] = val;
        }
      }
      RC_ASSERT(dump(*st) == m);
      int64_t n = 0;
      for (const auto& [cf, rows] : m) n += static_cast<int64_t>(rows.size());
      RC_ASSERT(st->metrics().numKeys == n);
      RC_ASSERT(st->commit().ok());
      models.push_back(m);
    }
    for (int v = 0; v <= versions; ++v) {
      auto fresh = provider(s, k, every);
      auto r = fresh->open(kRoot, 0, 0, v);
      RC_ASSERT(r.ok());
      RC_ASSERT(dump(**r) == models[v]);
      RC_ASSERT(toModel(*readStateAt(s.env, kRoot, 0, 0, v, k)) == models[v]);
    }
    // Without snapshots the changelogs alone give the same content.
    std::string dir = stateStoreDir(kRoot, 0, 0);
    auto listing = s.fs.list(dir);
    RC_ASSERT(listing.ok());
    for (const FileInfo& f : *listing)
      if (f.path.ends_with(".snapshot")) RC_ASSERT(s.fs.remove(f.path).ok());
    for (int v = 0; v <= versions; ++v)
      RC_ASSERT(toModel(*readStateAt(s.env, kRoot, 0, 0, v, k)) == models[v]);
  }));
}

INSTANTIATE_TEST_SUITE_P(Kinds, StateStoreTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

TEST(RocksDBStateStore, LocalDirectoryWorkingCopy) {
  Sim s;
  StateStoreOptions o;
  o.kind = StateStoreKind::kRocksDB;
  o.rocksdbInMemoryEnv = false;
  auto missing = makeStateStoreProvider(s.env, o)->open(kRoot, 0, 0, 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("rocksdbLocalDir"), std::string::npos);

  std::string local = ::testing::TempDir() + "streamsim_local_XXXXXX";
  ASSERT_NE(mkdtemp(local.data()), nullptr);
  o.rocksdbLocalDir = local;
  auto p = makeStateStoreProvider(s.env, o);
  auto r = p->open(kRoot, 0, 0, 0);
  ASSERT_TRUE(r.ok()) << r.status().toString();
  (*r)->put("default", "k", "v");
  ASSERT_TRUE((*r)->commit().ok());
  auto again = p->open(kRoot, 0, 0, 1);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->get("default", "k"), "v");

  // The working copy's database has its files but no OPTIONS file: writing and parsing it back
  // was a quarter of every open (rocksdb_state_store.cc, NoOptionsFileSystem).
  std::vector<std::string> names;
  for (const auto& dir : std::filesystem::directory_iterator(local))
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) names.push_back(f.path().filename());
  EXPECT_TRUE(std::any_of(names.begin(), names.end(), [](const std::string& n) { return n == "CURRENT"; }))
      << ::testing::PrintToString(names);
  EXPECT_TRUE(std::none_of(names.begin(), names.end(), [](const std::string& n) { return n.starts_with("OPTIONS"); }))
      << ::testing::PrintToString(names);
  r->reset();
  again->reset();
  std::filesystem::remove_all(local);
}

}  // namespace
}  // namespace streamsim
