// Checkpoint retention (spark.sql.streaming.minBatchesToRetain, docs/checkpoint-format.md
// "Retention"): the offsets/commits purge when a batch is planned, state store maintenance
// deleting the state files no retained version needs, restart after a purge on both stores, and
// the option's validation.
#include <set>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/fault_points.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/state_files.h"

namespace streamsim {
namespace checkpoint_retention_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr TimeMs kT0 = 1'700'000'000'000;

// The names in `dir` (files only), sorted as strings.
std::vector<std::string> names(FileSystem& fs, const std::string& dir) {
  std::vector<std::string> out;
  auto entries = fs.list(dir);
  EXPECT_TRUE(entries.ok()) << entries.status().toString();
  if (!entries.ok()) return out;
  for (const FileInfo& f : *entries)
    if (!f.isDir) out.push_back(baseName(f.path));
  std::sort(out.begin(), out.end());
  return out;
}

// "<from>".."<to>" with `suffix`, sorted as strings (as names() returns them).
std::vector<std::string> range(int64_t from, int64_t to, const std::string& suffix = "") {
  std::vector<std::string> out;
  for (int64_t i = from; i <= to; ++i) out.push_back(std::to_string(i) + suffix);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  return a;
}

// The state folder after version `latest` committed with retention `keep`: the newest snapshot
// s <= latest - keep exists, and exactly the changelogs s..latest and the snapshots >= s
// remain. Snapshots are written at maintenance versions (multiples of 10) only. Whether one is
// written there depends on sizes (snapshotDue, tested below), so the list is derived here.
void expectRetainedStateFiles(FileSystem& fs, const std::string& dir, const std::string& ext,
                              int64_t latest, int64_t keep) {
  std::vector<std::string> present = names(fs, dir);
  std::set<int64_t> snapshots;
  for (const std::string& n : present)
    if (n.ends_with(".snapshot")) snapshots.insert(std::stoll(n));
  for (int64_t s : snapshots) EXPECT_EQ(s % 10, 0) << dir << ": snapshot " << s;
  auto it = snapshots.upper_bound(latest - keep);
  ASSERT_NE(it, snapshots.begin()) << dir << ": no snapshot <= " << latest - keep;
  const int64_t base = *std::prev(it);
  std::vector<std::string> expected = range(base, latest, ext);
  for (int64_t s : snapshots)
    if (s >= base) expected.push_back(std::to_string(s) + ".snapshot");
  std::sort(expected.begin(), expected.end());
  EXPECT_THAT(present, ElementsAreArray(expected)) << dir;
}

// Crashes (throws) at one fault point of one batch.
struct CrashHook : FaultHook {
  std::string point;
  int64_t batch = -1;
  Status at(std::string_view p, const FaultContext& ctx) override {
    if (!point.empty() && p == point && ctx.batchId == batch) {
      point.clear();
      throw std::runtime_error("simulated crash at " + std::string(p));
    }
    return Status::OK();
  }
};

// Counts rows per key and fires a processing-time timer 3 s after each input that emits the
// count: state changes in some batches only, and timers span batches.
class CountAndTimerProcessor : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override { count_ = handle.getValueState<int64_t>("count"); }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    int64_t c = count_.get() + static_cast<int64_t>(rows.size());
    count_.update(c);
    getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + 3'000);
    out.emit(Row{{"k", key[0]}, {"event", "input"}, {"count", c}});
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo&,
                          Output& out) override {
    out.emit(Row{{"k", key[0]}, {"event", "timer"}, {"count", count_.get()}});
  }

 private:
  ValueState<int64_t> count_;
};

struct World {
  explicit World(StateStoreKind kind) : kind(kind) {}
  sim::VirtualClock clock{kT0};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{5};
  CrashHook hook;
  Env env{&clock, &fs, &ids, &hook, nullptr};
  StateStoreKind kind;
  SchemaPtr schema = *parseSchema("k string");
  std::shared_ptr<MemoryStreamData> input = std::make_shared<MemoryStreamData>(schema);
  std::shared_ptr<MemorySinkData> output = std::make_shared<MemorySinkData>();

  DataStreamWriter writer(std::optional<int> minBatchesToRetain) {
    DataStreamWriter w = readStream(makeMemorySource(input))
                             .groupBy({"k"})
                             .transformWithState([] { return std::make_unique<CountAndTimerProcessor>(); },
                                                 TimeMode::kProcessingTime, OutputMode::kUpdate)
                             .writeStream();
    w.sink(makeMemorySink(output))
        .outputMode(OutputMode::kUpdate)
        .trigger(Trigger::ProcessingTime(1000))
        .option("checkpointLocation", "/chk")
        .option("stateStore", kind == StateStoreKind::kRocksDB ? "rocksdb" : "memory")
        .option("spark.sql.shuffle.partitions", "2");
    if (minBatchesToRetain)
      w.option("spark.sql.streaming.minBatchesToRetain", std::to_string(*minBatchesToRetain));
    return w;
  }

  std::unique_ptr<StreamingQuery> start(std::optional<int> minBatchesToRetain) {
    auto q = writer(minBatchesToRetain).start(env);
    EXPECT_TRUE(q.ok()) << q.status().toString();
    return q.ok() ? std::move(q).value() : nullptr;
  }

  // Triggers until batch `untilBatch` (exclusive) ran; every 7th batch gets one input row, and
  // so does the first one when `firstHasData` (right after a start no batch has run in this run,
  // so an idle trigger runs no no-data batch: Spark's MicroBatchExecution.constructNextBatch).
  void runUntil(StreamingQuery& q, int64_t untilBatch, bool firstHasData = false) {
    while (q.nextBatchId() < untilBatch) {
      int64_t b = q.nextBatchId();
      if (b % 7 == 0 || std::exchange(firstHasData, false)) {
        ASSERT_TRUE(input->addData({Row(schema, {Value("k" + std::to_string(b % 5))})}).ok());
      }
      auto ran = q.runBatches(1);
      ASSERT_TRUE(ran.ok()) << ran.status().toString();
      ASSERT_EQ(*ran, 1) << "batch " << b << " did not run";
    }
  }

  std::vector<std::string> outputRows() const {
    std::vector<std::string> out;
    for (const Row& r : output->appendView()) out.push_back(r.toJson());
    return out;
  }

  std::string changelogExt() const { return kind == StateStoreKind::kRocksDB ? ".changelog" : ".delta"; }
};

class RetentionTest : public ::testing::TestWithParam<StateStoreKind> {};

TEST_P(RetentionTest, KeepsTheLastBatchesAndTheStateFilesTheyNeedAndRestartsFromThem) {
  // With the default retention (100) a 260-batch run keeps 101 offsets.
  World ref(GetParam());
  {
    auto q = ref.start(std::nullopt);
    ASSERT_NE(q, nullptr);
    ref.runUntil(*q, 260);
  }

  World w(GetParam());
  {
    auto q = w.start(10);
    ASSERT_NE(q, nullptr);
    w.runUntil(*q, 250);
    q->stop();
  }
  // Batches 0..249 ran. Batch 249's purge kept offsets >= 239 (the threshold 249 - 10) and
  // commits >= 239; commits/249 came after it.
  EXPECT_THAT(names(w.fs, "/chk/offsets"), ElementsAreArray(range(239, 249)));
  EXPECT_THAT(names(w.fs, "/chk/commits"), ElementsAreArray(range(239, 249)));
  // State version 250 ran maintenance (every 10 versions): every file older than the newest
  // snapshot <= 250 - 10 = 240 is deleted; that snapshot's changelog stays (as in Spark).
  for (int p = 0; p < 2; ++p)
    expectRetainedStateFiles(w.fs, "/chk/state/0/" + std::to_string(p), w.changelogExt(), 250, 10);
  // Every retained version loads.
  for (int64_t v = 240; v <= 250; ++v)
    EXPECT_TRUE(readStateAt(w.env, "/chk", 0, 0, v, w.kind).ok()) << v;

  // The inspector sees batches 239..249, all committed: a purge is not a gap.
  {
    auto report = inspectCheckpoint(w.env, "/chk");
    ASSERT_TRUE(report.ok());
    EXPECT_TRUE(report->diagnoses.empty()) << formatReport(*report);
    ASSERT_FALSE(report->batches.empty());
    EXPECT_EQ(report->batches.front().batchId, 239);
    EXPECT_EQ(report->restartBatchId, 250);
  }
  // Restart: the latest offsets/commits and state version 250 are all it needs. (The clock
  // moves to the next trigger time first, so batch timestamps match an uninterrupted run.)
  w.clock.advance(1000);
  {
    auto q = w.start(10);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->nextBatchId(), 250);
    w.runUntil(*q, 255, /*firstHasData=*/true);
    // Crash in batch 255 after its state committed (version 256), before commits/255.
    w.hook.point = std::string(faults::kCommitsBeforeWrite);
    w.hook.batch = 255;
    w.input->addData({Row(w.schema, {Value("k0")})}).ok();
    EXPECT_THROW((void)q->runBatches(1), std::runtime_error);
  }
  {
    // The re-run of batch 255 reloads version 255, which retention kept.
    auto q = w.start(10);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->nextBatchId(), 255);
    w.runUntil(*q, 260);
    q->stop();
  }
  EXPECT_THAT(names(w.fs, "/chk/offsets"), ElementsAreArray(range(249, 259)));
  EXPECT_THAT(names(w.fs, "/chk/commits"), ElementsAreArray(range(249, 259)));
  for (int p = 0; p < 2; ++p)
    expectRetainedStateFiles(w.fs, "/chk/state/0/" + std::to_string(p), w.changelogExt(), 260, 10);
  // The restarted query's output equals an uninterrupted run that got the same input (the extra
  // rows after the restart and before the crash).
  World same(GetParam());
  {
    auto q = same.start(std::nullopt);
    ASSERT_NE(q, nullptr);
    same.runUntil(*q, 250);
    same.runUntil(*q, 255, /*firstHasData=*/true);  // the restarted run's input row
    same.input->addData({Row(same.schema, {Value("k0")})}).ok();
    same.runUntil(*q, 260);
  }
  EXPECT_EQ(w.outputRows(), same.outputRows());
  EXPECT_FALSE(w.outputRows().empty());
  // Default retention (100): offsets >= 259 - 100 after batch 259.
  EXPECT_THAT(names(ref.fs, "/chk/offsets"), ElementsAreArray(range(159, 259)));
}

TEST_P(RetentionTest, RestartWithASmallerRetentionPurgesEverythingOlderAtTheFirstBatch) {
  World w(GetParam());
  {
    auto q = w.start(std::nullopt);
    ASSERT_NE(q, nullptr);
    w.runUntil(*q, 40);
  }
  EXPECT_THAT(names(w.fs, "/chk/offsets"), ElementsAreArray(range(0, 39)));
  auto q = w.start(5);
  ASSERT_NE(q, nullptr);
  w.runUntil(*q, 41, /*firstHasData=*/true);
  EXPECT_THAT(names(w.fs, "/chk/offsets"), ElementsAreArray(range(35, 40)));
  EXPECT_THAT(names(w.fs, "/chk/commits"), ElementsAreArray(range(35, 40)));
}

TEST_P(RetentionTest, AStateVersionOlderThanTheRetainedFilesNamesRetentionInTheError) {
  World w(GetParam());
  {
    auto q = w.start(10);
    ASSERT_NE(q, nullptr);
    w.runUntil(*q, 50);
  }
  // Version 50 loads; version 5 was deleted by maintenance.
  EXPECT_TRUE(readStateAt(w.env, "/chk", 0, 0, 50, w.kind).ok());
  auto old = readStateAt(w.env, "/chk", 0, 0, 5, w.kind);
  ASSERT_FALSE(old.ok());
  EXPECT_THAT(old.status().message(), HasSubstr("minBatchesToRetain"));
}

INSTANTIATE_TEST_SUITE_P(Stores, RetentionTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) {
                           return std::string(stateStoreKindName(info.param));
                         });

TEST(RetentionOption, ZeroNegativeAndNonNumbersAreRejectedWithTheOptionName) {
  World w(StateStoreKind::kMemory);
  for (std::string bad : {"0", "-1", "ten", ""}) {
    auto q = w.writer(std::nullopt).option("spark.sql.streaming.minBatchesToRetain", bad).start(w.env);
    ASSERT_FALSE(q.ok()) << bad;
    EXPECT_EQ(q.status().code(), Status::Code::kInvalidArgument) << bad;
    EXPECT_THAT(q.status().message(), HasSubstr("spark.sql.streaming.minBatchesToRetain")) << bad;
  }
  // Through QueryOptions too.
  DataStreamWriter writer = w.writer(std::nullopt);
  QueryOptions o = writer.queryOptions();
  o.minBatchesToRetain = 0;
  writer.options(o);
  auto q = writer.start(w.env);
  ASSERT_FALSE(q.ok());
  EXPECT_THAT(q.status().message(), HasSubstr("minBatchesToRetain must be >= 1"));
  EXPECT_EQ(QueryOptions{}.minBatchesToRetain, 100);  // Spark's default
}

TEST(MetadataLogPurge, DeletesEveryBatchBelowTheThresholdAndNothingElse) {
  World w(StateStoreKind::kMemory);
  CommitLog log(w.env, "/chk");
  for (int64_t i = 0; i < 8; ++i) ASSERT_TRUE(log.add(i, CommitMetadata{}).ok());
  ASSERT_TRUE(w.fs.write("/chk/commits/.3.tmp", "x").ok());  // not a batch file: kept
  auto n = log.purge(5);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 5);
  EXPECT_THAT(*log.listBatchIds(), ElementsAreArray(std::vector<int64_t>{5, 6, 7}));
  EXPECT_TRUE(w.fs.exists("/chk/commits/.3.tmp"));
  ASSERT_TRUE(log.purgeRange(4, 7).ok());  // 4 is gone already: not an error
  EXPECT_THAT(*log.listBatchIds(), ElementsAreArray(std::vector<int64_t>{7}));
}

TEST(StateFileCleanup, KeepsTheNewestSnapshotAtOrBelowTheOldestRetainedVersionAndWhatFollows) {
  World w(StateStoreKind::kMemory);
  const std::string dir = "/chk/state/0/0";
  ASSERT_TRUE(w.fs.mkdirs(dir).ok());
  for (int v = 1; v <= 30; ++v) ASSERT_TRUE(w.fs.write(dir + "/" + std::to_string(v) + ".delta", "").ok());
  for (int v : {10, 20, 30}) ASSERT_TRUE(w.fs.write(dir + "/" + std::to_string(v) + ".snapshot", "").ok());
  // Latest 30, keep 15: versions 15..30 must load -> base snapshot 10.
  auto deleted = deleteOldStateFiles(w.env, dir, StateStoreKind::kMemory, 30, 15);
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(deleted->size(), 9u);  // 1..9.delta
  EXPECT_THAT(names(w.fs, dir), ElementsAreArray(concat(range(10, 30, ".delta"),
                                                        {"10.snapshot", "20.snapshot", "30.snapshot"})));
  // Keep 5: versions 25..30 -> base snapshot 20.
  deleted = deleteOldStateFiles(w.env, dir, StateStoreKind::kMemory, 30, 5);
  ASSERT_TRUE(deleted.ok());
  EXPECT_THAT(names(w.fs, dir), ElementsAreArray(concat(range(20, 30, ".delta"),
                                                        {"20.snapshot", "30.snapshot"})));
  // No snapshot old enough: nothing goes.
  deleted = deleteOldStateFiles(w.env, dir, StateStoreKind::kMemory, 30, 25);
  ASSERT_TRUE(deleted.ok());
  EXPECT_TRUE(deleted->empty());
}

TEST(SnapshotPolicy, SnapshotsWhenTheChangelogsSinceTheLastOneOutweighItOrTheChainIsLong) {
  constexpr int64_t kEmpty = 30;  // header + footer: a state file without records
  StateFilesListing files;
  EXPECT_TRUE(snapshotDue(files, 10, 100));  // no snapshot yet
  files.snapshots = {{10, kEmpty + 1000}};
  for (int64_t v = 11; v <= 20; ++v) files.changelogs[v] = kEmpty;  // nothing changed
  EXPECT_FALSE(snapshotDue(files, 20, 100));  // unchanged state: no new snapshot
  EXPECT_FALSE(snapshotDue(files, 10, 100));  // already there
  files.changelogs[15] = kEmpty + 600;
  EXPECT_FALSE(snapshotDue(files, 20, 100));  // 600 record bytes < 1000
  files.changelogs[18] = kEmpty + 400;
  EXPECT_TRUE(snapshotDue(files, 20, 100));   // 1000 >= 1000
  files.changelogs[15] = files.changelogs[18] = kEmpty;
  EXPECT_TRUE(snapshotDue(files, 20, 10));    // the chain 11..20 reached 10 versions
  // An empty state's snapshot: any change is worth a new one, no change is not.
  files.snapshots[10] = kEmpty;
  EXPECT_FALSE(snapshotDue(files, 20, 100));
  files.changelogs[12] = kEmpty + 1;
  EXPECT_TRUE(snapshotDue(files, 20, 100));
}

}  // namespace
}  // namespace checkpoint_retention_test
}  // namespace streamsim
