// replayCheckpoint: a checkpoint written by the engine to a real temp folder (POSIX filesystem,
// virtual clock) with the "count" processor over a file source is replayed in the simulator;
// per batch the same files, timestamp, watermark and output rows come back. Bad input: missing
// folders, no file source log (the inspector's diagnosis), landing files missing, unknown processor.
#include "streamsim/harness/checkpoint_replay.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "streamsim/io/file_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/platform/platform.h"
#include "streamsim/query.h"
#include "streamsim/sim/virtual_clock.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

namespace stdfs = std::filesystem;

struct Written {
  std::string root, chk, landing;
  std::map<int64_t, std::vector<Row>> batches;  // the original run's output per batch
  std::map<int64_t, TimeMs> timestamps;
};

void land(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Three batches: {a.json}, {b.json, c.json}, {d.json}, the count processor grouped by user.
Written writeCheckpoint(const std::string& name, const std::string& store,
                        int minBatchesToRetain = 100) {
  Written w;
  w.root = (stdfs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))).string();
  stdfs::remove_all(w.root);
  w.chk = w.root + "/chk";
  w.landing = w.root + "/landing";
  stdfs::create_directories(w.landing);
  sim::VirtualClock clock(1'700'000'000'000);
  auto fs = platform::newPosixFileSystem();
  sim::SeededIdGenerator ids(7);
  Env env{&clock, fs.get(), &ids, nullptr, nullptr};
  auto schema = parseSchema("user string, n long");
  auto source = makeFileSource(w.landing, *schema);
  auto data = std::make_shared<MemorySinkData>();
  auto writer = readStream(*source)
                    .groupBy({"user"})
                    .transformWithState(*::streamsim::test::testProcessors(), "count", TimeMode::kNone, OutputMode::kUpdate)
                    .writeStream();
  writer.sink(makeMemorySink(data))
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", w.chk)
      .option("stateStore", store)
      .option("minBatchesToRetain", std::to_string(minBatchesToRetain));
  auto query = writer.start(env);
  EXPECT_TRUE(query.ok()) << query.status().message();
  land(w.landing + "/a.json", "{\"user\":\"u1\",\"n\":1}\n{\"user\":\"u2\",\"n\":2}\n");
  EXPECT_TRUE(*(*query)->triggerOnce());
  clock.advance(60'000);
  land(w.landing + "/b.json", "{\"user\":\"u1\",\"n\":3}\n");
  land(w.landing + "/c.json", "{\"user\":\"u1\",\"n\":4}\n{\"user\":\"u3\",\"n\":5}\n");
  EXPECT_TRUE(*(*query)->triggerOnce());
  clock.advance(60'000);
  land(w.landing + "/d.json", "{\"user\":\"u2\",\"n\":6}\n");
  EXPECT_TRUE(*(*query)->triggerOnce());
  for (const auto& p : (*query)->recentProgress()) w.timestamps[p.batchId] = p.timestamp;
  (*query)->stop();
  w.batches = data->batches();
  return w;
}

CheckpointReplayOptions optionsFor(const Written& w, const std::string& store) {
  CheckpointReplayOptions o;
  o.registries = ::streamsim::test::testRegistries();
  o.checkpoint = w.chk;
  o.landing = w.landing;
  o.processor = "count";
  o.groupBy = {"user"};
  o.schema = "user string, n long";
  o.stateStore = store;
  return o;
}

bool sameRows(std::vector<Row> a, std::vector<Row> b) {
  auto key = [](const Row& r) { return r.toString(); };
  std::sort(a.begin(), a.end(), [&](const Row& x, const Row& y) { return key(x) < key(y); });
  std::sort(b.begin(), b.end(), [&](const Row& x, const Row& y) { return key(x) < key(y); });
  return a == b;
}

TEST(CheckpointReplay, ReRunsTheRecordedPlanWithTheSameOutput) {
  for (std::string store : {"memory", "rocksdb"}) {
    Written w = writeCheckpoint("streamsim_replay_" + store, store);
    ASSERT_EQ(w.batches.size(), 3u) << store;
    platform::RealEnv real;
    auto r = replayCheckpoint(real.env(), optionsFor(w, store));
    ASSERT_TRUE(r.ok()) << store << ": " << r.status().message();
    EXPECT_EQ(r->landingPath, w.landing);
    ASSERT_EQ(r->batches.size(), 3u);
    const std::vector<std::vector<std::string>> files = {
        {"a.json"}, {"b.json", "c.json"}, {"d.json"}};
    const std::vector<int64_t> rowsIn = {2, 3, 1};
    for (size_t i = 0; i < 3; ++i) {
      const ReplayedBatch& b = r->batches[i];
      EXPECT_EQ(b.batchId, static_cast<int64_t>(i));
      EXPECT_EQ(b.batchTimestampMs, w.timestamps[b.batchId]) << i;
      EXPECT_EQ(b.replayedTimestampMs, w.timestamps[b.batchId]) << i;
      EXPECT_EQ(b.replayedWatermarkMs, b.watermarkMs) << i;
      std::vector<std::string> names;
      for (const auto& f : b.files) names.push_back(stdfs::path(f).filename().string());
      std::sort(names.begin(), names.end());
      EXPECT_EQ(names, files[i]) << store << " batch " << i;
      EXPECT_EQ(b.rowsIn, rowsIn[i]) << i;
      EXPECT_TRUE(sameRows(b.output, w.batches[b.batchId])) << store << " batch " << i;
    }
    // u1: 1 in batch 0, then 3 after batch 1 (b + c).
    EXPECT_TRUE(sameRows(r->batches[1].output,
                         {Row{{"user", "u1"}, {"count", int64_t{3}}},
                          Row{{"user", "u3"}, {"count", int64_t{1}}}}))
        << formatReplay(*r);
    std::string text = formatReplay(*r);
    EXPECT_NE(text.find("batch 1:"), std::string::npos) << text;
    EXPECT_NE(text.find("rows in 3"), std::string::npos) << text;
    EXPECT_NE(text.find("c.json"), std::string::npos) << text;
    stdfs::remove_all(w.root);
  }
}

// minBatchesToRetain 1: running batch 2 purged offsets/0 and commits/0. The replay restarts
// after batch 1 (the first kept), on the state it committed -- store version 2, loaded from its
// changelogs -- so batch 2's count of u2 continues from batch 0's. Grouping columns, time mode and
// the state store come from the checkpoint when not given.
TEST(CheckpointReplay, StartsAfterPurgedBatchesOnTheStateTheFirstKeptBatchCommitted) {
  for (std::string store : {"memory", "rocksdb"}) {
    Written w = writeCheckpoint("streamsim_replay_purged_" + store, store, 1);
    ASSERT_FALSE(stdfs::exists(w.chk + "/offsets/0")) << store << ": the engine did not purge";
    ASSERT_TRUE(stdfs::exists(w.chk + "/offsets/1")) << store;
    platform::RealEnv real;
    CheckpointReplayOptions o = optionsFor(w, "");
    o.groupBy.clear();
    auto r = replayCheckpoint(real.env(), o);
    ASSERT_TRUE(r.ok()) << store << ": " << r.status().message();
    EXPECT_EQ(r->firstKeptBatch, 1);
    EXPECT_EQ(r->firstReplayedBatch, 2);
    EXPECT_EQ(r->groupBy, std::vector<std::string>{"user"});
    EXPECT_EQ(r->timeMode, "None");
    EXPECT_EQ(r->stateStore, store);
    ASSERT_EQ(r->batches.size(), 1u) << formatReplay(*r);
    EXPECT_EQ(r->batches[0].batchId, 2);
    EXPECT_EQ(r->batches[0].replayedTimestampMs, w.timestamps[2]);
    EXPECT_TRUE(sameRows(r->batches[0].output, {Row{{"user", "u2"}, {"count", int64_t{2}}}}))
        << store << "\n" << formatReplay(*r);
    EXPECT_TRUE(sameRows(r->batches[0].output, w.batches[2])) << store;
    EXPECT_NE(formatReplay(*r).find("offsets/0..0 were purged"), std::string::npos) << formatReplay(*r);
    // The state files are in the recorded store's format: another store cannot start from them.
    o.stateStore = store == "memory" ? "rocksdb" : "memory";
    auto other = replayCheckpoint(real.env(), o);
    ASSERT_FALSE(other.ok()) << store;
    EXPECT_NE(other.status().message().find("providerClass"), std::string::npos)
        << other.status().message();
    stdfs::remove_all(w.root);
  }
}

TEST(CheckpointReplay, BadInputIsAClearError) {
  Written w = writeCheckpoint("streamsim_replay_bad", "memory");
  platform::RealEnv real;
  auto o = optionsFor(w, "memory");
  o.checkpoint = w.root + "/nope";
  auto r = replayCheckpoint(real.env(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("--checkpoint"), std::string::npos) << r.status().message();
  o = optionsFor(w, "memory");
  o.landing = w.root + "/nope";
  r = replayCheckpoint(real.env(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("--landing"), std::string::npos);
  o = optionsFor(w, "memory");
  o.processor = "no_such_processor";
  EXPECT_FALSE(replayCheckpoint(real.env(), o).ok());
  // Only the last batch's offsets kept: nothing after the restart point to replay.
  for (const char* f : {"/offsets/0", "/offsets/1", "/commits/0", "/commits/1"})
    stdfs::rename(w.chk + f, w.root + "/saved" + stdfs::path(f).filename().string() +
                                 stdfs::path(f).parent_path().filename().string());
  r = replayCheckpoint(real.env(), optionsFor(w, "memory"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("only batch 2 is kept"), std::string::npos)
      << r.status().message();
  for (const char* f : {"/offsets/0", "/offsets/1", "/commits/0", "/commits/1"})
    stdfs::rename(w.root + "/saved" + stdfs::path(f).filename().string() +
                      stdfs::path(f).parent_path().filename().string(),
                  w.chk + f);
  // The first batch kept must be committed: it is where the replay restarts.
  stdfs::rename(w.chk + "/offsets/0", w.root + "/offsets0");
  stdfs::rename(w.chk + "/commits/1", w.root + "/commits1");
  r = replayCheckpoint(real.env(), optionsFor(w, "memory"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("never committed"), std::string::npos) << r.status().message();
  stdfs::rename(w.root + "/offsets0", w.chk + "/offsets/0");
  stdfs::rename(w.root + "/commits1", w.chk + "/commits/1");
  // Grouping columns and time mode that contradict the checkpoint's record name it.
  o = optionsFor(w, "memory");
  o.groupBy = {"n"};
  r = replayCheckpoint(real.env(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("grouped by user"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("_stateSchema"), std::string::npos) << r.status().message();
  o = optionsFor(w, "memory");
  o.timeMode = "eventTime";
  r = replayCheckpoint(real.env(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("timeMode None"), std::string::npos) << r.status().message();
  o = optionsFor(w, "memory");
  o.sink = w.root + "/nope";
  r = replayCheckpoint(real.env(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("--sink"), std::string::npos) << r.status().message();
  // A landing file the log names is gone.
  stdfs::rename(w.landing + "/c.json", w.root + "/c.json");
  r = replayCheckpoint(real.env(), optionsFor(w, "memory"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("c.json"), std::string::npos) << r.status().message();
  // No file source log.
  stdfs::remove_all(w.chk + "/sources");
  r = replayCheckpoint(real.env(), optionsFor(w, "memory"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("sources/0 is missing"), std::string::npos)
      << r.status().message();
  stdfs::remove_all(w.root);
}

}  // namespace
}  // namespace streamsim::harness
