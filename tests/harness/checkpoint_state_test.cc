// readCheckpointState (harness/checkpoint_state.h), the reader behind `streamsim state`: a
// checkpoint the engine wrote in a simulated filesystem is read back per operator and partition,
// on the store kind the offsets record (a rocksdb checkpoint read as the memory store would find
// no N.delta files), with --key and --operator filters and the folders that are not ids left out.
// The text and JSON the CLI prints from it are pinned by tests/harness/cli_test.cc.
#include "streamsim/harness/checkpoint_state.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/count_by_user_query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim::harness {
namespace checkpoint_state_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

// Two batches of the count processor grouped by user on `store`: {u1, u2, u1}, then {u1, u3}.
struct World {
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{3};
  Env env{&clock, &fs, &ids, nullptr, nullptr};

  explicit World(const std::string& store) {
    EXPECT_TRUE(fs.mkdirs("/landing").ok());
    auto query = streamsim::testing::startCountByUser(env, "/landing", "/chk", store);
    EXPECT_TRUE(query.ok()) << query.status().message();
    EXPECT_TRUE(fs.putDurable("/landing/a.json", "{\"user\":\"u1\"}\n{\"user\":\"u2\"}\n{\"user\":\"u1\"}\n").ok());
    EXPECT_TRUE(*(*query)->triggerOnce());
    clock.advance(60'000);
    EXPECT_TRUE(fs.putDurable("/landing/b.json", "{\"user\":\"u1\"}\n{\"user\":\"u3\"}\n").ok());
    EXPECT_TRUE(*(*query)->triggerOnce());
    (*query)->stop();
  }
};

// "key = value" of every row of every partition.
std::vector<std::string> rowsOf(const CheckpointState& s) {
  std::vector<std::string> out;
  for (const auto& op : s.operators)
    for (const auto& p : op.partitions)
      for (const auto& r : p.rows) out.push_back(r.columnFamily + " " + r.key + " = " + r.value);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CheckpointState, ReadsTheNewestCommittedBatchOnTheRecordedStore) {
  for (std::string store : {"memory", "rocksdb"}) {
    World w(store);
    auto s = readCheckpointState(w.env, "/chk", {});
    ASSERT_TRUE(s.ok()) << store << ": " << s.status().message();
    EXPECT_EQ(s->batch, 1);
    EXPECT_TRUE(s->latestCommitted);
    EXPECT_EQ(s->storeVersion, 2);
    ASSERT_EQ(s->operators.size(), 1u);
    ASSERT_EQ(s->operators[0].partitions.size(), 2u);
    EXPECT_FALSE(s->anyPartitionFailed()) << store << ": " << s->operators[0].partitions[0].error.value_or("")
                                          << s->operators[0].partitions[1].error.value_or("");
    EXPECT_EQ(s->operators[0].formats(), std::set<std::string>{"streamsim"});
    EXPECT_EQ(rowsOf(*s), (std::vector<std::string>{"count u1 = 3", "count u2 = 1", "count u3 = 1"})) << store;

    CheckpointStateOptions first;
    first.batch = 0;
    first.key = "u1";
    auto b0 = readCheckpointState(w.env, "/chk", first);
    ASSERT_TRUE(b0.ok()) << b0.status().message();
    EXPECT_FALSE(b0->latestCommitted);
    EXPECT_EQ(rowsOf(*b0), std::vector<std::string>{"count u1 = 2"}) << store;
  }
}

TEST(CheckpointState, OnlyIdFoldersAreStoresAndAnOperatorNoneHasIsBadInput) {
  World w("memory");
  ASSERT_TRUE(w.fs.mkdirs("/chk/state/notes").ok());
  ASSERT_TRUE(w.fs.mkdirs("/chk/state/0/tmp").ok());
  ASSERT_TRUE(w.fs.mkdirs("/chk/state/4294967296/0").ok());  // past int: not an operator id
  auto stores = listStateStores(w.env, "/chk");
  ASSERT_TRUE(stores.ok()) << stores.status().message();
  EXPECT_EQ(*stores, (std::map<int, std::vector<int>>{{0, {0, 1}}}));
  CheckpointStateOptions other;
  other.operatorId = 5;
  auto s = readCheckpointState(w.env, "/chk", other);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("no state for operator 5 under /chk/state"), std::string::npos)
      << s.status().message();
}

}  // namespace
}  // namespace checkpoint_state_test
}  // namespace streamsim::harness
