// The checkpoint inspector on real Spark checkpoints (fixtures read in place) and on checkpoints
// built on the simulated filesystem with known defects.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "streamsim/checkpoint/checkpoint_metadata.h"
#include "streamsim/checkpoint/checkpoint_reader.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/platform/platform.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "test_paths.h"

namespace streamsim {
namespace checkpoint_reader_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

const std::string kFixtures = STREAMSIM_FIXTURES_DIR;

struct PosixEnv {
  std::unique_ptr<FileSystem> fs = platform::newPosixFileSystem();
  std::unique_ptr<IdGenerator> ids = platform::newRandomIdGenerator();
  Env env() { return Env{nullptr, fs.get(), ids.get(), nullptr, nullptr}; }
};

struct SimEnv {
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env() { return Env{&clock, &fs, &ids, nullptr, nullptr}; }
};

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

const Diagnosis* find(const CheckpointReport& r, DiagnosisKind k) {
  for (const auto& d : r.diagnoses)
    if (d.kind == k) return &d;
  return nullptr;
}

const BatchReport* batch(const CheckpointReport& r, int64_t id) {
  for (const auto& b : r.batches)
    if (b.batchId == id) return &b;
  return nullptr;
}

CheckpointReport inspectFixture(const std::string& rel) {
  PosixEnv p;
  auto r = inspectCheckpoint(p.env(), joinPath(kFixtures, rel));
  EXPECT_TRUE(r.ok()) << r.status().toString();
  return r.ok() ? *r : CheckpointReport{};
}

TEST(InspectFixtures, OffsetsGapIsDiagnosedClearly) {
  CheckpointReport r = inspectFixture("checkpoint-test-offsetId-commitId-inconsistent");
  EXPECT_EQ(r.queryId, "d4358946-170c-49a7-823b-d8e4e9126616");
  const Diagnosis* gap = find(r, DiagnosisKind::kOffsetsGap);
  ASSERT_NE(gap, nullptr) << formatReport(r);
  EXPECT_EQ(gap->batchIds, (std::vector<int64_t>{3}));
  EXPECT_TRUE(contains(gap->message, "missing 3")) << gap->message;
  EXPECT_TRUE(contains(gap->message, "batch 3 doesn't exist")) << gap->message;
  EXPECT_TRUE(contains(gap->message, "SPARK-38033")) << gap->message;
  EXPECT_EQ(r.latestOffsetsId, 4);
  EXPECT_FALSE(r.latestCommitId.has_value());
  EXPECT_TRUE(r.has(DiagnosisKind::kMissing));  // no commits folder
  ASSERT_EQ(r.batches.size(), 3u);
  EXPECT_EQ(r.batches[2].batchId, 4);
  EXPECT_EQ(r.batches[2].batchWatermarkMs, 5000);
  EXPECT_EQ(r.batches[2].sourceOffsets, (std::vector<std::optional<std::string>>{std::string("4")}));
  std::string text = formatReport(r);
  EXPECT_TRUE(contains(text, "[offsets-gap]")) << text;
}

TEST(InspectFixtures, CommitTrailingOffsetsMeansRerunOfLatest) {
  CheckpointReport r = inspectFixture("checkpoint-version-4.0.0/hdfs/join1");
  EXPECT_EQ(r.latestOffsetsId, 4);
  EXPECT_EQ(r.latestCommitId, 1);
  EXPECT_EQ(r.restartBatchId, 4);
  EXPECT_TRUE(r.restartIsRerun);
  const Diagnosis* d = find(r, DiagnosisKind::kUncommittedBatch);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(contains(d->message, "1719289942516")) << d->message;  // offsets/4 timestamp
  EXPECT_FALSE(r.has(DiagnosisKind::kOffsetsGap));
  // commits/0 is missing although commits/1 exists (the fixture lost it).
  const Diagnosis* hole = find(r, DiagnosisKind::kCommitsGap);
  ASSERT_NE(hole, nullptr) << formatReport(r);
  EXPECT_EQ(hole->batchIds, (std::vector<int64_t>{0}));
  const BatchReport* b1 = batch(r, 1);
  ASSERT_NE(b1, nullptr);
  EXPECT_TRUE(b1->committed);
  EXPECT_EQ(b1->nextBatchWatermarkMs, 5000);
}

TEST(InspectFixtures, CompleteV2CheckpointRestartsAtNextBatch) {
  CheckpointReport r = inspectFixture("checkpoint-version-4.0.0-checkpoint-v2/rocksdb/dedup");
  EXPECT_EQ(r.restartBatchId, 4);
  EXPECT_FALSE(r.restartIsRerun);
  for (const auto& d : r.diagnoses) ADD_FAILURE() << "unexpected: " << d.message;
  ASSERT_EQ(r.batches.size(), 4u);
  EXPECT_EQ(r.batches[3].commitVersion, 2);
  ASSERT_EQ(r.operators.size(), 1u);
  EXPECT_EQ(r.operators[0].operatorName, "dedupe");
  EXPECT_TRUE(contains(formatReport(r), "nothing unusual"));
}

TEST(InspectFixtures, TransformWithStateOperatorIsListed) {
  CheckpointReport r = inspectFixture("checkpoint-version-4.0.0-tws-avro");
  ASSERT_EQ(r.operators.size(), 1u);
  ASSERT_EQ(r.operators[0].stateVariables.size(), 1u);
  EXPECT_EQ(r.operators[0].stateVariables[0].stateName, "countState");
  EXPECT_TRUE(contains(formatReport(r), "countState:ValueState")) << formatReport(r);
  auto j = nlohmann::json::parse(reportToJson(r));
  EXPECT_EQ(j["operators"][0]["stateVariables"][0]["stateName"], "countState");
  EXPECT_EQ(j["restartBatchId"], 2);
}

// Spark's flatMapGroupsWithState checkpoints (FlatMapGroupsWithStateSuite's fixtures, metadata and
// offsets kept): the state format as Spark reads it from the newest offsets
// (OffsetSeqMetadata.readValueOpt: Spark 2.3.1 did not record it, so it is the legacy 1 of
// FlatMapGroupsWithStateExecHelper; 3.1.0 and 3.2.0 record 2).
TEST(InspectFixtures, FlatMapGroupsWithStateFormatIsReadFromTheOffsets) {
  CheckpointReport v1 = inspectFixture("checkpoint-version-2.3.1-flatMapGroupsWithState-state-format-1");
  EXPECT_EQ(v1.flatMapGroupsWithStateFormatVersion, "1");
  EXPECT_FALSE(v1.flatMapGroupsWithStateFormatRecorded);
  for (const char* f : {"checkpoint-version-3.1.0-flatmapgroupswithstate-repartition",
                        "checkpoint-version-3.2.0-flatmapgroupswithstate1-repartition"}) {
    CheckpointReport r = inspectFixture(f);
    EXPECT_EQ(r.flatMapGroupsWithStateFormatVersion, "2") << f;
    EXPECT_TRUE(r.flatMapGroupsWithStateFormatRecorded) << f;
    EXPECT_FALSE(r.has(DiagnosisKind::kUnreadable)) << formatReport(r);
    EXPECT_EQ(nlohmann::json::parse(reportToJson(r))["flatMapGroupsWithStateFormatVersion"], "2");
  }
  // Offsets without a conf (Spark 2.1): not known.
  EXPECT_FALSE(inspectFixture("checkpoint-version-2.1.0").flatMapGroupsWithStateFormatVersion.has_value());
}

TEST(InspectFixtures, EveryFixtureCheckpointIsInspectedWithoutFailure) {
  PosixEnv p;
  auto entries = p.fs->list(kFixtures);
  ASSERT_TRUE(entries.ok());
  int n = 0;
  for (const auto& e : *entries) {
    if (!e.isDir) continue;
    auto r = inspectCheckpoint(p.env(), e.path, std::nullopt);
    ASSERT_TRUE(r.ok()) << e.path << ": " << r.status().toString();
    EXPECT_FALSE(r->has(DiagnosisKind::kUnreadable)) << formatReport(*r);
    EXPECT_FALSE(reportToJson(*r).empty());
    ++n;
  }
  EXPECT_GT(n, 15);
}

TEST(Inspect, MissingFoldersAreReportedNotFatal) {
  SimEnv s;
  auto r = inspectCheckpoint(s.env(), "/nowhere", std::string("/out"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->has(DiagnosisKind::kMissing));
  EXPECT_EQ(r->restartBatchId, 0);
  EXPECT_FALSE(inspectCheckpoint(s.env(), "", std::nullopt).ok());
  ASSERT_TRUE(s.fs.mkdirs("/ck").ok());
  auto empty = inspectCheckpoint(s.env(), "/ck", std::nullopt);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->has(DiagnosisKind::kMissing));
  EXPECT_TRUE(empty->batches.empty());
}

// A file-source -> file-sink query that crashed after the sink wrote batch 2 but before commit 2,
// with a renamed resend in the input and a data file left by the crash.
class CrashedQuery : public ::testing::Test {
 protected:
  void SetUp() override {
    Env env = s.env();
    ASSERT_TRUE(s.fs.mkdirs("/in").ok());
    ASSERT_TRUE(s.fs.putDurable("/in/a.json", "{\"id\":1}\n").ok());
    ASSERT_TRUE(s.fs.putDurable("/in/b.json", "{\"id\":2,\"x\":\"long\"}\n").ok());
    ASSERT_TRUE(s.fs.putDurable("/in/a-resent.json", "{\"id\":1}\n").ok());
    ASSERT_TRUE(writeStreamMetadata(env, "/ck", StreamMetadata{"q-1"}).ok());
    FileSourceLog source(env, sourceLogDir("/ck", 0));
    ASSERT_TRUE(*source.add(0, {{"file:/in/a.json", 1, 0}}));
    ASSERT_TRUE(*source.add(1, {{"file:/in/b.json", 2, 1}, {"file:/in/a-resent.json", 3, 1}}));
    OffsetLog offsets(env, "/ck");
    CommitLog commits(env, "/ck");
    FileSinkLog sink(env, "/out");
    ASSERT_TRUE(s.fs.mkdirs("/out").ok());
    for (int64_t b = 0; b < 3; ++b) {
      OffsetSeq seq;
      seq.metadata.batchTimestampMs = 1000 * (b + 1);
      seq.metadata.batchWatermarkMs = 0;
      // Batch 2 is a no-data batch: same source offset as batch 1.
      seq.offsets = {fileSourceOffsetJson(std::min<int64_t>(b, 1))};
      ASSERT_TRUE(*offsets.add(b, seq));
      std::string part = "/out/part-" + std::to_string(b) + ".json";
      ASSERT_TRUE(s.fs.putDurable(part, "{\"n\":" + std::to_string(b) + "}\n").ok());
      SinkFileStatus f;
      f.path = "file:" + part;
      f.size = 8;
      ASSERT_TRUE(*sink.add(b, {f}));
      if (b < 2) {
        CommitMetadata c;
        c.nextBatchWatermarkMs = 0;
        ASSERT_TRUE(*commits.add(b, c));
      }
    }
    ASSERT_TRUE(s.fs.putDurable("/out/part-2-attempt1.json", "{\"n\":2}\n").ok());  // crash leftover
    ASSERT_TRUE(s.fs.mkdirs("/out/_temporary").ok());
    ASSERT_TRUE(s.fs.putDurable("/out/_temporary/x", "junk").ok());  // hidden: not an orphan
  }
  SimEnv s;
};

TEST_F(CrashedQuery, ReportsRerunSinkAheadOrphansAndResend) {
  auto r = inspectCheckpoint(s.env(), "/ck", std::string("/out"));
  ASSERT_TRUE(r.ok()) << r.status().toString();
  std::string text = formatReport(*r);
  EXPECT_EQ(r->queryId, "q-1");
  EXPECT_EQ(r->restartBatchId, 2) << text;
  EXPECT_TRUE(r->restartIsRerun);
  const Diagnosis* rerun = find(*r, DiagnosisKind::kUncommittedBatch);
  ASSERT_NE(rerun, nullptr) << text;
  EXPECT_TRUE(contains(rerun->message, "offsets/2 has no commits/2")) << rerun->message;
  EXPECT_TRUE(contains(rerun->message, "batchTimestampMs 3000")) << rerun->message;
  EXPECT_TRUE(r->has(DiagnosisKind::kSinkAhead)) << text;

  // Files per batch from the source log, via logOffset.
  const BatchReport* b1 = batch(*r, 1);
  ASSERT_NE(b1, nullptr);
  ASSERT_EQ(b1->sourceFiles.size(), 1u);
  EXPECT_EQ(b1->sourceFiles[0].logOffset, 1);
  EXPECT_EQ(b1->sourceFiles[0].files,
            (std::vector<std::string>{"file:/in/b.json", "file:/in/a-resent.json"}));
  const BatchReport* b2 = batch(*r, 2);
  ASSERT_NE(b2, nullptr);
  ASSERT_EQ(b2->sourceFiles.size(), 1u);
  EXPECT_TRUE(b2->sourceFiles[0].files.empty());
  ASSERT_TRUE(b2->sinkFiles.has_value());
  EXPECT_EQ(*b2->sinkFiles, (std::vector<std::string>{"file:/out/part-2.json"}));

  ASSERT_TRUE(r->sink.has_value());
  EXPECT_EQ(r->sink->latestBatchId, 2);
  EXPECT_EQ(r->sink->listedFiles.size(), 3u);
  EXPECT_EQ(r->sink->orphanFiles, (std::vector<std::string>{"/out/part-2-attempt1.json"}));
  EXPECT_TRUE(r->has(DiagnosisKind::kOrphanFiles));

  const Diagnosis* resend = find(*r, DiagnosisKind::kRenamedResend);
  ASSERT_NE(resend, nullptr) << text;
  EXPECT_EQ(resend->paths, (std::vector<std::string>{"file:/in/a.json", "file:/in/a-resent.json"}));
  EXPECT_EQ(resend->batchIds, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(contains(resend->message, "the same content")) << resend->message;
  // b.json has a different size and part files differ in content: only one resend group.
  EXPECT_EQ(std::count_if(r->diagnoses.begin(), r->diagnoses.end(),
                          [](const Diagnosis& d) { return d.kind == DiagnosisKind::kRenamedResend; }),
            1);

  auto j = nlohmann::json::parse(reportToJson(*r));
  EXPECT_EQ(j["restartBatchId"], 2);
  EXPECT_EQ(j["restartIsRerun"], true);
  EXPECT_EQ(j["sink"]["orphanFiles"][0], "/out/part-2-attempt1.json");
  EXPECT_EQ(j["batches"].size(), 3u);
}

TEST_F(CrashedQuery, CommitWithoutOffsetsAndCommitGap) {
  CommitLog commits(s.env(), "/ck");
  CommitMetadata c;
  c.nextBatchWatermarkMs = 0;
  ASSERT_TRUE(*commits.add(5, c));
  auto r = inspectCheckpoint(s.env(), "/ck", std::nullopt);
  ASSERT_TRUE(r.ok());
  const Diagnosis* orphan = find(*r, DiagnosisKind::kCommitWithoutOffsets);
  ASSERT_NE(orphan, nullptr) << formatReport(*r);
  EXPECT_EQ(orphan->batchIds, (std::vector<int64_t>{5}));
  const Diagnosis* gap = find(*r, DiagnosisKind::kCommitsGap);
  ASSERT_NE(gap, nullptr);
  EXPECT_EQ(gap->batchIds, (std::vector<int64_t>{2, 3, 4}));
}

TEST_F(CrashedQuery, CorruptFilesAreReportedAsUnreadable) {
  ASSERT_TRUE(s.fs.putDurable("/ck/commits/2", "v1\n{\"nextBatchWat").ok());
  auto r = inspectCheckpoint(s.env(), "/ck", std::string("/out"));
  ASSERT_TRUE(r.ok());
  const Diagnosis* d = find(*r, DiagnosisKind::kUnreadable);
  ASSERT_NE(d, nullptr) << formatReport(*r);
  EXPECT_TRUE(contains(d->message, "/ck/commits/2:2")) << d->message;
}

// Bug: `inspect` said "nothing unusual" when sources/0 was a file, when the source log a file
// source offset names was gone, and when operatorPropertiesJson did not parse.
TEST_F(CrashedQuery, ASourceLogThatIsAFileIsUnreadable) {
  ASSERT_TRUE(s.fs.removeAll("/ck/sources/0").ok());
  ASSERT_TRUE(s.fs.putDurable("/ck/sources/0", "hi").ok());
  auto r = inspectCheckpoint(s.env(), "/ck", std::string("/out"));
  ASSERT_TRUE(r.ok());
  const Diagnosis* d = find(*r, DiagnosisKind::kUnreadable);
  ASSERT_NE(d, nullptr) << formatReport(*r);
  EXPECT_TRUE(contains(d->message, "/ck/sources/0 is a file, not source 0's log folder")) << d->message;
}

TEST_F(CrashedQuery, AMissingSourceLogNamedByTheOffsetsIsMissing) {
  ASSERT_TRUE(s.fs.removeAll("/ck/sources").ok());
  auto r = inspectCheckpoint(s.env(), "/ck", std::string("/out"));
  ASSERT_TRUE(r.ok());
  const Diagnosis* d = find(*r, DiagnosisKind::kMissing);
  ASSERT_NE(d, nullptr) << formatReport(*r);
  EXPECT_TRUE(contains(d->message, "/ck/sources/0 is missing: the offsets of batch(es) 0, 1, 2")) << d->message;
  EXPECT_EQ(d->batchIds, (std::vector<int64_t>{0, 1, 2}));
}

TEST_F(CrashedQuery, OperatorPropertiesThatDoNotParseAreUnreadable) {
  ASSERT_TRUE(s.fs.putDurable("/ck/state/0/_metadata/v2/1",
                              "v2\n{\"operatorInfo\":{\"operatorId\":0,\"operatorName\":\"transformWithStateExec\"},"
                              "\"stateStoreInfo\":[],\"operatorPropertiesJson\":\"{not json\"}\n").ok());
  auto r = inspectCheckpoint(s.env(), "/ck", std::string("/out"));
  ASSERT_TRUE(r.ok());
  const Diagnosis* d = find(*r, DiagnosisKind::kUnreadable);
  ASSERT_NE(d, nullptr) << formatReport(*r);
  EXPECT_TRUE(contains(d->message, "operatorPropertiesJson is not a JSON object")) << d->message;
}

}  // namespace
}  // namespace checkpoint_reader_test
}  // namespace streamsim
