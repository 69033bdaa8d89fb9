#include "streamsim/io/file_source.h"

#include <gtest/gtest.h>

#include "streamsim/fault_points.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace {

constexpr DurationMs kDay = 24LL * 60 * 60 * 1000;

struct TestCrash {};

class RecordingHook : public FaultHook {
 public:
  Status at(std::string_view point, const FaultContext& ctx) override {
    points.emplace_back(point);
    paths.push_back(ctx.path);
    if (!crashAt.empty() && point == crashAt) {
      crashAt.clear();
      throw TestCrash{};
    }
    return Status::OK();
  }
  std::string crashAt;
  std::vector<std::string> points;
  std::vector<std::string> paths;
};

class RecordingTrace : public TraceSink {
 public:
  void event(std::string_view json) override { events.emplace_back(json); }
  std::vector<std::string> events;
};

class FileSourceTest : public ::testing::Test {
 protected:
  sim::VirtualClock clock{100 * kDay};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  RecordingHook hook;
  RecordingTrace traceSink;
  Env env{&clock, &fs, &ids, &hook, &traceSink};
  SchemaPtr schema = *parseSchema("id string");
  std::string chk = "/chk";

  // A landing file holding one row whose id is `id`, with modification time `mtime`.
  void put(const std::string& path, const std::string& id, TimeMs mtime, size_t pad = 0) {
    std::string line = R"({"id":")" + id + "\"}" + std::string(pad, ' ') + "\n";
    ASSERT_TRUE(fs.putDurable(path, line).ok());
    ASSERT_TRUE(fs.setModificationTime(path, mtime).ok());
  }

  std::unique_ptr<FileSource> make(const std::map<std::string, std::string>& options = {},
                                   std::string path = "/in") {
    auto o = FileSourceOptions::fromMap(std::move(path), schema, options);
    EXPECT_TRUE(o.ok()) << o.status().toString();
    return std::make_unique<FileSource>(*o);
  }

  SourceContext ctx(bool availableNow = false) {
    SourceContext c;
    c.env = &env;
    c.checkpointRoot = chk;
    c.sourceIndex = 0;
    c.batchId = batch_;
    c.firstBatchOfRun = first_;
    c.availableNow = availableNow;
    return c;
  }

  // Starts a run: restore from the committed offset (last_).
  void start(FileSource& src) {
    first_ = true;
    ASSERT_TRUE(src.restore(ctx(), last_).ok());
  }

  // Plans and reads one batch, commits it; returns the ids read (empty: nothing new).
  std::vector<std::string> runBatch(FileSource& src, bool availableNow = false) {
    auto end = src.latestOffset(ctx(availableNow), last_);
    EXPECT_TRUE(end.ok()) << end.status().toString();
    first_ = false;
    if (!end.ok() || !*end || *end == last_) return {};
    auto rows = src.getBatch(ctx(), last_, **end);
    EXPECT_TRUE(rows.ok()) << rows.status().toString();
    std::vector<std::string> out;
    if (rows.ok())
      for (const Row& r : *rows) out.push_back(r.get("id").asString());
    EXPECT_TRUE(src.commit(ctx(), **end).ok());
    last_ = *end;
    ++batch_;
    return out;
  }

  using Ids = std::vector<std::string>;
  std::optional<std::string> last_;
  int64_t batch_ = 0;
  bool first_ = true;
};

TEST_F(FileSourceTest, NewFilesInModificationTimeOrderTiesByPath) {
  put("/in/c.json", "c", 1000);
  put("/in/b.json", "b", 2000);
  put("/in/a.json", "a", 2000);
  auto src = make({{"maxFilesPerTrigger", "1"}});
  start(*src);
  EXPECT_EQ(runBatch(*src), Ids{"c"});
  EXPECT_EQ(runBatch(*src), Ids{"a"});
  EXPECT_EQ(runBatch(*src), Ids{"b"});
  EXPECT_EQ(runBatch(*src), Ids{});
}

TEST_F(FileSourceTest, LatestFirstTakesNewestFirst) {
  put("/in/a.json", "a", 1000);
  put("/in/b.json", "b", 3000);
  put("/in/c.json", "c", 2000);
  auto src = make({{"maxFilesPerTrigger", "1"}, {"latestFirst", "true"}});
  start(*src);
  EXPECT_EQ(runBatch(*src), Ids{"b"});
  EXPECT_EQ(runBatch(*src), Ids{"c"});
  EXPECT_EQ(runBatch(*src), Ids{"a"});
}

TEST_F(FileSourceTest, MaxFilesPerTriggerCapsEachBatch) {
  for (int i = 0; i < 5; ++i) put("/in/f" + std::to_string(i) + ".json", std::to_string(i), 1000 + i);
  auto src = make({{"maxFilesPerTrigger", "2"}});
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"0", "1"}));
  EXPECT_EQ(runBatch(*src), (Ids{"2", "3"}));
  EXPECT_EQ(runBatch(*src), (Ids{"4"}));
}

TEST_F(FileSourceTest, MaxBytesPerTriggerTakesAtLeastOneFileThenWhileWithinCap) {
  put("/in/a.json", "a", 1000, 90);  // ~100 bytes each
  put("/in/b.json", "b", 2000, 90);
  put("/in/c.json", "c", 3000, 90);
  auto src = make({{"maxBytesPerTrigger", "210"}});
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"a", "b"}));
  EXPECT_EQ(runBatch(*src), (Ids{"c"}));

  // A single file larger than the cap still goes through.
  put("/in/d.json", "d", 4000, 500);
  EXPECT_EQ(runBatch(*src), (Ids{"d"}));
}

TEST_F(FileSourceTest, OptionErrors) {
  auto both = FileSourceOptions::fromMap("/in", schema,
                                         {{"maxFilesPerTrigger", "1"}, {"maxBytesPerTrigger", "10"}});
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(both.status().message().find("maxBytesPerTrigger"), std::string::npos);

  auto unknown = FileSourceOptions::fromMap("/in", schema, {{"maxFilesPerTriger", "1"}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("maxFilesPerTriger"), std::string::npos);

  EXPECT_FALSE(FileSourceOptions::fromMap("/in", schema, {{"maxFilesPerTrigger", "0"}}).ok());
  EXPECT_FALSE(FileSourceOptions::fromMap("/in", schema, {{"maxFilesPerTrigger", "x"}}).ok());
  EXPECT_FALSE(FileSourceOptions::fromMap("/in", schema, {{"latestFirst", "yes"}}).ok());
  EXPECT_FALSE(FileSourceOptions::fromMap("/in", schema, {{"cleanSource", "move"}}).ok());
  EXPECT_FALSE(FileSourceOptions::fromMap("/in", schema, {{"cleanSource", "archive"}}).ok());
  EXPECT_FALSE(FileSourceOptions::fromMap(
                   "/in", schema, {{"cleanSource", "archive"}, {"sourceArchiveDir", "/in/old"}})
                   .ok());
  EXPECT_FALSE(FileSourceOptions::fromMap("/in", schema, {{"mode", "lenient"}}).ok());
  EXPECT_FALSE(FileSourceOptions::fromMap("/in", nullptr, {}).ok());

  auto good = FileSourceOptions::fromMap(
      "/in", schema, {{"MAXFILESPERTRIGGER", "3"}, {"maxFileAge", "1h"}, {"fileNameOnly", "True"}});
  ASSERT_TRUE(good.ok()) << good.status().toString();
  EXPECT_EQ(*good->maxFilesPerTrigger, 3);
  EXPECT_EQ(good->maxFileAge, 3600 * 1000);
  EXPECT_TRUE(good->fileNameOnly);
  EXPECT_FALSE(makeFileSource("/in", schema, {{"maxBytesPerTrigger", "-1"}}).ok());
}

TEST_F(FileSourceTest, MaxFileAgeFirstBatchTakesEverythingLaterBatchesSkipOldFiles) {
  put("/in/old.json", "old", 0);
  put("/in/new.json", "new", 10 * kDay);
  auto src = make();
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"old", "new"}));  // first batch: whatever its age
  put("/in/old2.json", "old2", 2 * kDay);          // older than newest (10d) - 7d
  put("/in/new2.json", "new2", 9 * kDay);
  EXPECT_EQ(runBatch(*src), (Ids{"new2"}));
  EXPECT_EQ(runBatch(*src), Ids{});
}

TEST_F(FileSourceTest, MaxFileAgeIsIgnoredWithLatestFirstAndACap) {
  put("/in/new.json", "new", 10 * kDay);
  auto src = make({{"latestFirst", "true"}, {"maxFilesPerTrigger", "5"}});
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"new"}));
  put("/in/old.json", "old", 0);
  EXPECT_EQ(runBatch(*src), (Ids{"old"}));
}

TEST_F(FileSourceTest, FileNameOnlyIdentifiesFilesByName) {
  put("/in1/a.json", "a1", 1000);
  {
    auto src = make({{"fileNameOnly", "true"}}, "/in1");
    start(*src);
    EXPECT_EQ(runBatch(*src), (Ids{"a1"}));
  }
  put("/in2/a.json", "a2", 2000);
  put("/in2/b.json", "b2", 2000);
  {
    auto src = make({{"fileNameOnly", "true"}}, "/in2");
    start(*src);
    EXPECT_EQ(runBatch(*src), (Ids{"b2"}));  // a.json was seen under /in1
  }
}

TEST_F(FileSourceTest, FullPathIdentityByDefault) {
  put("/in1/a.json", "a1", 1000);
  {
    auto src = make({}, "/in1");
    start(*src);
    EXPECT_EQ(runBatch(*src), (Ids{"a1"}));
  }
  put("/in2/a.json", "a2", 2000);
  auto src = make({}, "/in2");
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"a2"}));
}

TEST_F(FileSourceTest, RenamedResendComesInAgainSamePathDoesNot) {
  put("/in/a.json", "a", 1000);
  auto src = make();
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"a"}));
  put("/in/a.json", "a", 5000);          // the same path again (rewritten, newer mtime)
  EXPECT_EQ(runBatch(*src), Ids{});
  put("/in/a-resend.json", "a", 6000);   // same content, new name
  EXPECT_EQ(runBatch(*src), (Ids{"a"}));
}

TEST_F(FileSourceTest, HiddenAndTempFilesAndFoldersAreIgnored) {
  put("/in/_SUCCESS", "s", 1000);
  put("/in/.a.json.crc", "c", 1000);
  put("/in/b.json._COPYING_", "copy", 1000);
  put("/in/sub/d.json", "nested", 1000);
  put("/in/e.json", "e", 1000);
  auto src = make();
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"e"}));
}

TEST_F(FileSourceTest, WritesTheSourceLogAndPassesItsFaultPoint) {
  put("/in/a.json", "a", 1234);
  auto src = make();
  start(*src);
  auto end = src->latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(end.ok());
  ASSERT_TRUE(end->has_value());
  EXPECT_EQ(**end, R"({"logOffset":0})");
  auto log = fs.read("/chk/sources/0/0");
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(*log, "v1\n{\"path\":\"/in/a.json\",\"timestamp\":1234,\"batchId\":0}");
  ASSERT_EQ(hook.points.size(), 2u);  // log.mid_write inside the atomic write, then ours
  EXPECT_EQ(hook.points[1], faults::kSourceLogAfterWrite);
  EXPECT_EQ(hook.paths[1], "/chk/sources/0/0");
  // Nothing new: the same offset, no new log file.
  auto again = src->latestOffset(ctx(), *end);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(**again, R"({"logOffset":0})");
  EXPECT_FALSE(fs.exists("/chk/sources/0/1"));
}

TEST_F(FileSourceTest, NoFilesAndNoFolderGiveNoOffset) {
  auto src = make();
  start(*src);
  auto end = src->latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(end.ok()) << end.status().toString();
  EXPECT_FALSE(end->has_value());
}

TEST_F(FileSourceTest, RestoreFromLogAfterRestartSkipsSeenFiles) {
  put("/in/a.json", "a", 1000);
  put("/in/b.json", "b", 2000);
  {
    auto src = make({{"maxFilesPerTrigger", "1"}});
    start(*src);
    EXPECT_EQ(runBatch(*src), (Ids{"a"}));
  }
  // Planned but never committed: the log holds b as K=1 though the query's offsets never saw it.
  {
    auto src = make({{"maxFilesPerTrigger", "1"}});
    start(*src);
    auto end = src->latestOffset(ctx(), last_);
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(**end, R"({"logOffset":1})");
  }
  put("/in/c.json", "c", 3000);
  auto src = make({{"maxFilesPerTrigger", "1"}});
  start(*src);
  EXPECT_EQ(src->currentLogOffset(), 1);
  // b is in the log already, so this batch reads b (K=1) and c (K=2); a is never read again.
  EXPECT_EQ(runBatch(*src), (Ids{"b", "c"}));
  EXPECT_EQ(runBatch(*src), Ids{});
}

TEST_F(FileSourceTest, GetBatchReRunReadsTheSameFilesFromTheLog) {
  put("/in/a.json", "a", 1000);
  auto src = make();
  start(*src);
  auto end = src->latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(end.ok());
  auto first = src->getBatch(ctx(), std::nullopt, **end);
  ASSERT_TRUE(first.ok());
  // A crash, new files landing, and a restart: the re-run of (start, end] is the same.
  put("/in/b.json", "b", 500);
  auto again = make();
  start(*again);
  auto rerun = again->getBatch(ctx(), std::nullopt, **end);
  ASSERT_TRUE(rerun.ok());
  EXPECT_EQ(*rerun, *first);
  EXPECT_EQ(again->lastBatchFiles(), std::vector<std::string>{"/in/a.json"});

  ASSERT_TRUE(fs.remove("/in/a.json").ok());
  auto gone = again->getBatch(ctx(), std::nullopt, **end);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), Status::Code::kNotFound);
  EXPECT_NE(gone.status().message().find("/in/a.json"), std::string::npos);
}

TEST_F(FileSourceTest, CleanSourceArchiveMovesCommittedFilesUnderTheArchiveDir) {
  put("/in/a.json", "a", 1000);
  auto src = make({{"cleanSource", "archive"}, {"sourceArchiveDir", "/archive"}});
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"a"}));  // commits logOffset 0
  EXPECT_FALSE(fs.exists("/in/a.json"));
  EXPECT_TRUE(fs.exists("/archive/in/a.json"));
  bool midPassed = false;
  for (const auto& p : hook.points) midPassed |= p == faults::kCleanSourceMid;
  EXPECT_TRUE(midPassed);
}

TEST_F(FileSourceTest, CleanSourceDeleteRemovesOnlyCommittedFiles) {
  put("/in/a.json", "a", 1000);
  auto src = make({{"cleanSource", "delete"}});
  start(*src);
  auto end = src->latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(end.ok());
  EXPECT_TRUE(fs.exists("/in/a.json"));  // planned, not committed
  ASSERT_TRUE(src->commit(ctx(), **end).ok());
  EXPECT_FALSE(fs.exists("/in/a.json"));
}

TEST_F(FileSourceTest, CleanSourceCrashMidwayFinishesAfterRestart) {
  put("/in/a.json", "a", 1000);
  put("/in/b.json", "b", 1000);
  put("/in/c.json", "c", 1000);
  std::map<std::string, std::string> opts{{"cleanSource", "delete"}};
  auto src = make(opts);
  start(*src);
  auto end = src->latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(end.ok());
  last_ = *end;  // batch committed
  hook.crashAt = std::string(faults::kCleanSourceMid);
  EXPECT_THROW((void)src->commit(ctx(), **end), TestCrash);
  EXPECT_FALSE(fs.exists("/in/a.json"));
  EXPECT_FALSE(fs.exists("/in/b.json"));
  EXPECT_TRUE(fs.exists("/in/c.json"));
  auto again = make(opts);
  start(*again);  // restore with the committed offset
  ASSERT_TRUE(again->commit(ctx(), *last_).ok());  // the re-run's commit of the previous batch
  EXPECT_FALSE(fs.exists("/in/c.json"));
}

TEST_F(FileSourceTest, CleanSourceFailureIsBestEffortAndTraced) {
  put("/in/a.json", "a", 1000);
  put("/archive/in/a.json", "old", 1);  // the archive target exists: rename refuses
  auto src = make({{"cleanSource", "archive"}, {"sourceArchiveDir", "/archive"}});
  start(*src);
  EXPECT_EQ(runBatch(*src), (Ids{"a"}));
  EXPECT_TRUE(fs.exists("/in/a.json"));
  bool traced = false;
  for (const auto& e : traceSink.events) traced |= e.find("clean_source_failed") != std::string::npos;
  EXPECT_TRUE(traced);
}

TEST_F(FileSourceTest, AvailableNowTakesOnlyFilesPresentAtFirstPlanningSplitByCap) {
  put("/in/a.json", "a", 1000);
  put("/in/b.json", "b", 2000);
  auto src = make({{"maxFilesPerTrigger", "1"}});
  start(*src);
  EXPECT_EQ(runBatch(*src, true), (Ids{"a"}));
  put("/in/c.json", "c", 3000);
  EXPECT_EQ(runBatch(*src, true), (Ids{"b"}));
  EXPECT_EQ(runBatch(*src, true), Ids{});
  // The next run picks c up.
  auto next = make({{"maxFilesPerTrigger", "1"}});
  start(*next);
  EXPECT_EQ(runBatch(*next, true), (Ids{"c"}));
}

TEST_F(FileSourceTest, ReadsSparkStyleUriPathsInTheLog) {
  put("/in/a.json", "a", 1000);
  ASSERT_TRUE(fs.putDurable("/chk/sources/0/0",
                            "v1\n{\"path\":\"file:///in/a.json\",\"timestamp\":1000,\"batchId\":0}")
                  .ok());
  last_ = R"({"logOffset":0})";  // committed by an earlier run
  auto src = make();
  start(*src);
  auto rows = src->getBatch(ctx(), std::nullopt, *last_);
  ASSERT_TRUE(rows.ok()) << rows.status().toString();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ(runBatch(*src), Ids{});  // a.json is seen
}

TEST_F(FileSourceTest, MalformedModeAppliesToFiles) {
  ASSERT_TRUE(fs.putDurable("/in/a.json", "{\"id\":\"ok\"}\nnot json\n").ok());
  auto src = make({{"mode", "FAILFAST"}});
  start(*src);
  auto end = src->latestOffset(ctx(), std::nullopt);
  ASSERT_TRUE(end.ok());
  auto rows = src->getBatch(ctx(), std::nullopt, **end);
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().message().find("/in/a.json:2"), std::string::npos) << rows.status().toString();
}

}  // namespace
}  // namespace streamsim
