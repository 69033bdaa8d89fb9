// Checkpoint log formats against real Spark files (fixtures read in place) and the HDFSMetadataLog
// protocol on the simulated filesystem.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "streamsim/checkpoint/checkpoint_metadata.h"
#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/checkpoint/file_source_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/checkpoint/operator_metadata.h"
#include "streamsim/platform/platform.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "test_paths.h"

namespace streamsim {
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
  sim::SeededIdGenerator ids{42};
  Env env() { return Env{&clock, &fs, &ids, nullptr, nullptr}; }
};

// A fixture the test reads, present or a failure saying which is missing (a clone without
// tests/fixtures fails with this message, never a crash on an empty listing).
::testing::AssertionResult fixtureExists(const std::string& rel) {
  const std::string path = joinPath(kFixtures, rel);
  PosixEnv p;
  if (p.fs->exists(path)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the fixture " << path << " is missing (tests/fixtures/spark)";
}

std::string readFixture(const std::string& rel) {
  PosixEnv p;
  auto r = p.fs->read(joinPath(kFixtures, rel));
  EXPECT_TRUE(r.ok()) << r.status().toString();
  return r.ok() ? *r : std::string();
}

void listRecursively(FileSystem& fs, const std::string& dir, std::vector<std::string>& out) {
  auto entries = fs.list(dir);
  ASSERT_TRUE(entries.ok()) << entries.status().toString();
  for (const auto& e : *entries) {
    if (e.isDir) {
      listRecursively(fs, e.path, out);
    } else {
      out.push_back(e.path);
    }
  }
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// ---------------------------------------------------------------- every fixture parses

TEST(CheckpointFixtures, EveryFixtureFileParses) {
  ASSERT_TRUE(fixtureExists(""));
  PosixEnv p;
  std::vector<std::string> files;
  listRecursively(*p.fs, kFixtures, files);
  ASSERT_GT(files.size(), 80u);
  int parsed = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    std::string rel = path.substr(kFixtures.size());
    if (baseName(path) == "README.md") continue;
    auto text = p.fs->read(path);
    ASSERT_TRUE(text.ok());
    Status st;
    if (contains(rel, "/_metadata/v2/") || contains(rel, "/_metadata/metadata")) {
      st = parseOperatorMetadata(*text, path).status();
    } else if (baseName(rel) == "metadata" || contains(rel, "query-metadata-logs")) {
      st = parseStreamMetadata(*text, path).status();
    } else if (contains(rel, "/offsets/") || contains(rel, "offset-log-version")) {
      st = OffsetLog::parse(*text, path).status();
    } else if (contains(rel, "/commits/")) {
      st = CommitLog::parse(*text, path).status();
    } else if (contains(rel, "file-sink-log")) {
      st = FileSinkLog::parse(*text, path).status();
    } else if (contains(rel, "file-source-log")) {
      st = FileSourceLog::parse(*text, path).status();
    } else if (contains(rel, "file-source-offset")) {
      auto k = parseFileSourceOffset(*text, path);
      st = k.status();
      if (k.ok()) {
        EXPECT_EQ(*k, 345);
      }
    } else {
      ADD_FAILURE() << "fixture of unknown kind (teach this test about it): " << rel;
      continue;
    }
    EXPECT_TRUE(st.ok()) << st.toString();
    ++parsed;
  }
  EXPECT_EQ(parsed, static_cast<int>(files.size()) - 1);
}

// ---------------------------------------------------------------- offsets

TEST(OffsetLogFormat, ParsesSpark21WithoutConfAndKafkaOffsets) {
  auto seq = OffsetLog::parse(readFixture("offset-log-version-2.1.0/0"), "offsets/0");
  ASSERT_TRUE(seq.ok()) << seq.status().toString();
  EXPECT_EQ(seq->formatVersion, 1);
  EXPECT_FALSE(seq->metadata.hasConf);
  EXPECT_EQ(seq->metadata.batchTimestampMs, 1480981499528);
  ASSERT_EQ(seq->offsets.size(), 2u);
  EXPECT_EQ(*seq->offsets[0], R"({"logOffset":345})");
  EXPECT_EQ(*seq->offsets[1], R"({"topic-0":{"0":1}})");
  EXPECT_EQ(*parseFileSourceOffset(*seq->offsets[0], "x"), 345);
}

TEST(OffsetLogFormat, ParsesConfAndTwoSources) {
  auto seq = OffsetLog::parse(readFixture("checkpoint-version-2.3.1-for-multi-watermark-policy/offsets/1"), "p");
  ASSERT_TRUE(seq.ok()) << seq.status().toString();
  EXPECT_TRUE(seq->metadata.hasConf);
  EXPECT_EQ(seq->metadata.batchWatermarkMs, 10000);
  EXPECT_EQ(seq->metadata.conf.at("spark.sql.shuffle.partitions"), "10");
  ASSERT_EQ(seq->offsets.size(), 2u);
  EXPECT_EQ(*seq->offsets[0], "1");
  EXPECT_EQ(*seq->offsets[1], "0");
}

TEST(OffsetLogFormat, SerializeIsByteExactForSparkFiles) {
  // Conf with keys already in sorted order, no trailing newline (Spark 2.3 and later).
  for (std::string rel : {"checkpoint-version-2.3.1-streaming-aggregate-state-format-1/offsets/0",
                          "checkpoint-version-2.1.0/offsets/1", "checkpoint-version-2.3.1-for-multi-watermark-policy/offsets/1"}) {
    SCOPED_TRACE(rel);
    std::string text = readFixture(rel);
    auto seq = OffsetLog::parse(text, rel);
    ASSERT_TRUE(seq.ok()) << seq.status().toString();
    EXPECT_EQ(OffsetLog::serialize(*seq), text);
  }
}

TEST(OffsetLogFormat, VoidOffsetAndV2) {
  OffsetSeq s;
  s.formatVersion = 2;
  s.metadata.batchTimestampMs = 5;
  s.offsets = {std::string(R"({"logOffset":3})"), std::nullopt};
  s.sourceIds = {"0", "kafka"};
  std::string text = OffsetLog::serialize(s);
  EXPECT_EQ(text,
            "v2\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":5,\"conf\":{},\"sourceMetadataInfo\":{}}\n"
            "0:{\"logOffset\":3}\nkafka:-");
  auto back = OffsetLog::parse(text, "p");
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(back->sourceIds, s.sourceIds);
  EXPECT_EQ(back->offsets, s.offsets);
}

// Conf keys and values are quoted as Jackson writes them: `"`, `\`, and control characters
// escaped (short forms, else \u00XX upper-case), everything else — UTF-8 included — as it is.
TEST(OffsetLogFormat, ConfEntriesQuotedLikeJackson) {
  OffsetSeq s;
  s.metadata.conf = {{"k\"1", std::string("a\\b\nc\x01" "d\te\x1f\r\b\f")},
                     {"plain", "caf\xC3\xA9 /x"}, {"", ""}};
  EXPECT_EQ(OffsetLog::serialize(s),
            "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,\"conf\":{\"\":\"\","
            "\"k\\\"1\":\"a\\\\b\\nc\\u0001d\\te\\u001F\\r\\b\\f\","
            "\"plain\":\"caf\xC3\xA9 /x\"}}");
  auto back = OffsetLog::parse(OffsetLog::serialize(s), "p");
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(back->metadata.conf, s.metadata.conf);
}

TEST(OffsetLogFormat, RejectsNewerVersionNamingFileAndVersions) {
  auto r = OffsetLog::parse("v3\n{}\n0", "/ck/offsets/7");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_TRUE(contains(r.status().message(), "/ck/offsets/7:1")) << r.status().message();
  EXPECT_TRUE(contains(r.status().message(), "v3")) << r.status().message();
  EXPECT_TRUE(contains(r.status().message(), "v2")) << r.status().message();
  auto bad = OffsetLog::parse("x1\n{}", "/ck/offsets/8");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains(bad.status().message(), "/ck/offsets/8:1")) << bad.status().message();
}

TEST(OffsetLogFormat, TornAndEmptyFilesAreCorruptionNamingFileAndLine) {
  auto empty = OffsetLog::parse("", "/ck/offsets/3");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), Status::Code::kCorruption);
  EXPECT_TRUE(contains(empty.status().message(), "/ck/offsets/3")) << empty.status().message();
  auto torn = OffsetLog::parse("v1\n{\"batchWatermarkMs\":0,\"batchTi", "/ck/offsets/4");
  ASSERT_FALSE(torn.ok());
  EXPECT_TRUE(contains(torn.status().message(), "/ck/offsets/4:2")) << torn.status().message();
  auto tornOffset = OffsetLog::parse("v1\n{}\n{\"logOff", "/ck/offsets/5");
  ASSERT_FALSE(tornOffset.ok());
  EXPECT_TRUE(contains(tornOffset.status().message(), "/ck/offsets/5:3")) << tornOffset.status().message();
  auto headerOnly = CommitLog::parse("v1", "/ck/commits/5");
  ASSERT_FALSE(headerOnly.ok());
  EXPECT_TRUE(contains(headerOnly.status().message(), "/ck/commits/5:2")) << headerOnly.status().message();
}

TEST(FileSourceOffset, AllThreeLegacyEncodings) {
  for (std::string rel : {"file-source-offset-version-2.1.0-json.txt", "file-source-offset-version-2.1.0-long.txt",
                          "file-source-offset-version-2.1.0.txt"}) {
    auto k = parseFileSourceOffset(readFixture(rel), rel);
    ASSERT_TRUE(k.ok()) << k.status().toString();
    EXPECT_EQ(*k, 345) << rel;
  }
  EXPECT_EQ(fileSourceOffsetJson(7), R"({"logOffset":7})");
  EXPECT_FALSE(parseFileSourceOffset(R"({"other":1})", "f").ok());
}

// The engine's own {"logOffset":K} is read without the JSON parser; every other spelling is
// left to it (writtenFileSourceOffset gives nullopt) and reads as before.
TEST(FileSourceOffset, OwnFormReadDirectlyOthersThroughTheParser) {
  for (int64_t k : {int64_t{0}, int64_t{7}, int64_t{-1}, int64_t{123456789012345678}}) {
    EXPECT_EQ(writtenFileSourceOffset(fileSourceOffsetJson(k)), std::optional<int64_t>(k)) << k;
    EXPECT_EQ(*parseFileSourceOffset(fileSourceOffsetJson(k), "f"), k);
  }
  for (std::string other : {R"({ "logOffset":3})", R"({"logOffset": 3})", R"({"logOffset":03})",
                            R"({"logOffset":-0})", R"({"logOffset":+3})", R"({"logOffset":3x})",
                            R"({"logOffset":})", R"({"logOffset":1234567890123456789})",
                            R"({"batchId":3})", "3", R"({"logOffset":3}})"}) {
    EXPECT_EQ(writtenFileSourceOffset(other), std::nullopt) << other;
  }
  EXPECT_EQ(*parseFileSourceOffset(R"({"logOffset": 3})", "f"), 3);
  EXPECT_EQ(*parseFileSourceOffset(R"({"logOffset":1234567890123456789})", "f"), 1234567890123456789);
  EXPECT_EQ(*parseFileSourceOffset(R"({"logOffset":-0})", "f"), 0);
  auto bad = parseFileSourceOffset(R"({"logOffset":03})", "the/file");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains(bad.status().message(), "the/file")) << bad.status().message();
}

// ---------------------------------------------------------------- commits

TEST(CommitLogFormat, OldEmptyBodyHasNoWatermark) {
  auto c = CommitLog::parse(readFixture("checkpoint-version-2.3.1-flatMapGroupsWithState-state-format-1/commits/1"), "c");
  ASSERT_TRUE(c.ok()) << c.status().toString();
  EXPECT_EQ(c->formatVersion, 1);
  EXPECT_FALSE(c->nextBatchWatermarkMs.has_value());
  EXPECT_FALSE(c->stateUniqueIdsJson.has_value());
  EXPECT_EQ(CommitLog::serialize(*c), "v1\n{}");
}

TEST(CommitLogFormat, V1IsByteExact) {
  std::string text = readFixture("checkpoint-version-4.0.0/hdfs/join1/commits/1");
  auto c = CommitLog::parse(text, "c");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c->nextBatchWatermarkMs, 5000);
  EXPECT_EQ(CommitLog::serialize(*c), text);
  CommitMetadata m;
  m.nextBatchWatermarkMs = 0;
  EXPECT_EQ(CommitLog::serialize(m), "v1\n{\"nextBatchWatermarkMs\":0}");
}

TEST(CommitLogFormat, V2ParsesStateUniqueIds) {
  std::string text = readFixture("checkpoint-version-4.0.0-checkpoint-v2/rocksdb/dedup/commits/2");
  auto c = CommitLog::parse(text, "c");
  ASSERT_TRUE(c.ok()) << c.status().toString();
  EXPECT_EQ(c->formatVersion, 2);
  EXPECT_EQ(*c->nextBatchWatermarkMs, 0);
  ASSERT_TRUE(c->stateUniqueIdsJson.has_value());
  auto ids = nlohmann::json::parse(*c->stateUniqueIdsJson);
  ASSERT_EQ(ids["0"].size(), 5u);  // operator 0, five partitions
  EXPECT_EQ(ids["0"][0][0], "02123a76-a01a-4304-8094-802f16d55e31");
  EXPECT_EQ(CommitLog::serialize(*c), text);
}

// Spark 4.2's commit log v3 (SPARK-56971, CommitLog.scala CommitMetadataV3 / SinkMetadataInfo,
// serialized by json4s: the case class fields in declaration order, the Long always, an unset
// Option left out, the map in insertion order). The expected bytes are what CommitLogSuite's
// "Basic Commit Log V3 SerDe - single active sink" and "Commit Log V3 - retains historical sinks
// alongside active" write: serialize() gives "v3\n" + metadata.json.
TEST(CommitLogFormat, V3WithTheSinkNameIsByteExactAsSpark42WritesIt) {
  const std::string single =
      "v3\n{\"nextBatchWatermarkMs\":42,\"sinkMetadataMap\":{\"sink-0\":{\"sinkName\":\"sink-0\","
      "\"commitOffset\":\"-\",\"providerName\":\"memory\",\"apiVersion\":\"v2\",\"isActive\":true}}}";
  auto c = CommitLog::parse(single, "/ck/commits/0");
  ASSERT_TRUE(c.ok()) << c.status().toString();
  EXPECT_EQ(c->formatVersion, 3);
  EXPECT_EQ(*c->nextBatchWatermarkMs, 42);
  ASSERT_EQ(c->sinks.size(), 1u);
  ASSERT_NE(c->activeSink(), nullptr);
  EXPECT_EQ(c->activeSink()->sinkName, "sink-0");
  EXPECT_EQ(c->activeSink()->providerName, "memory");
  EXPECT_EQ(c->activeSink()->commitOffset, "-");
  EXPECT_EQ(CommitLog::serialize(*c), single);

  CommitMetadata m;
  m.formatVersion = 3;
  m.nextBatchWatermarkMs = 100;
  m.sinks = {SinkMetadataInfo{"sink-0", R"({"offset":3})", "memory", "v2", false},
             SinkMetadataInfo{"sink-1", R"({"offset":7})", "memory", "v2", true}};
  const std::string both =
      "v3\n{\"nextBatchWatermarkMs\":100,\"sinkMetadataMap\":{"
      "\"sink-0\":{\"sinkName\":\"sink-0\",\"commitOffset\":\"{\\\"offset\\\":3}\",\"providerName\":\"memory\","
      "\"apiVersion\":\"v2\",\"isActive\":false},"
      "\"sink-1\":{\"sinkName\":\"sink-1\",\"commitOffset\":\"{\\\"offset\\\":7}\",\"providerName\":\"memory\","
      "\"apiVersion\":\"v2\",\"isActive\":true}}}";
  EXPECT_EQ(CommitLog::serialize(m), both);
  auto back = CommitLog::parse(both, "/ck/commits/1");
  ASSERT_TRUE(back.ok()) << back.status().toString();
  ASSERT_EQ(back->sinks.size(), 2u);
  EXPECT_EQ(back->activeSink()->sinkName, "sink-1");
  EXPECT_EQ(back->sinks[0].commitOffset, R"({"offset":3})");
  EXPECT_FALSE(back->sinks[0].isActive);
  // With state store checkpoint ids (v3 extends v2) they come between the two.
  m.stateUniqueIdsJson = R"({"0":[["a"]]})";
  EXPECT_TRUE(contains(CommitLog::serialize(m), "{\"nextBatchWatermarkMs\":100,\"stateUniqueIds\":{\"0\":[[\"a\"]]},"
                                                "\"sinkMetadataMap\":{"));
  // master's first shape had no apiVersion; json4s fills isActive's default when it is absent.
  auto noApi = CommitLog::parse(
      "v3\n{\"nextBatchWatermarkMs\":0,\"sinkMetadataMap\":{\"out\":{\"sinkName\":\"out\",\"commitOffset\":\"-\","
      "\"providerName\":\"p\"}}}", "c");
  ASSERT_TRUE(noApi.ok()) << noApi.status().toString();
  EXPECT_FALSE(noApi->sinks[0].apiVersion.has_value());
  EXPECT_TRUE(noApi->sinks[0].isActive);
}

// CommitMetadataV3 requires exactly one active sink and createMetadata a non-empty map
// (CommitLogSuite "CommitMetadataV3 requires exactly one active sink", "createMetadata for V3
// requires non-empty sinkMetadataMap"): a file breaking either is Corruption naming file:line.
TEST(CommitLogFormat, V3WithoutExactlyOneActiveSinkIsCorruption) {
  const std::string sink = R"("s":{"sinkName":"s","commitOffset":"-","providerName":"p","isActive":false})";
  for (const std::string& body :
       {std::string("{\"nextBatchWatermarkMs\":0}"), std::string("{\"sinkMetadataMap\":{}}"),
        "{\"sinkMetadataMap\":{" + sink + "}}",
        std::string(R"({"sinkMetadataMap":{"a":{"sinkName":"a","commitOffset":"-","providerName":"p"},)"
                    R"("b":{"sinkName":"b","commitOffset":"-","providerName":"p"}}})"),
        std::string(R"({"sinkMetadataMap":{"a":{"sinkName":"b","commitOffset":"-","providerName":"p"}}})"),
        std::string(R"({"sinkMetadataMap":{"a":{"sinkName":"a","providerName":"p"}}})")}) {
    SCOPED_TRACE(body);
    auto c = CommitLog::parse("v3\n" + body, "/ck/commits/4");
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().code(), Status::Code::kCorruption);
    EXPECT_TRUE(contains(c.status().message(), "/ck/commits/4:2")) << c.status().message();
  }
  auto v4 = CommitLog::parse("v4\n{}", "/ck/commits/5");
  ASSERT_FALSE(v4.ok());
  EXPECT_TRUE(contains(v4.status().message(), "v4")) << v4.status().message();
}

// Spark 4.2's offsets v2 (OffsetMap, SPARK-54423; OffsetSeqLog.scala "Version 2 format":
// "v2", the OffsetSeqMetadataV2 JSON -- sourceMetadataInfo defaulting to {} is written,
// controlBatchInfo None is not -- then `sourceId:offset` lines) with named sources
// (StreamingSourceEvolutionSuite: the ids are the names).
TEST(OffsetLogFormat, V2KeyedBySourceNameIsByteExact) {
  const std::string text =
      "v2\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1700000000000,\"conf\":{"
      "\"spark.sql.streaming.queryEvolution.enableSourceEvolution\":\"true\"},\"sourceMetadataInfo\":{}}\n"
      "orders:{\"logOffset\":0}\nclicks:{\"logOffset\":2}";
  auto s = OffsetLog::parse(text, "/ck/offsets/0");
  ASSERT_TRUE(s.ok()) << s.status().toString();
  EXPECT_EQ(s->formatVersion, 2);
  EXPECT_EQ(s->sourceIds, (std::vector<std::string>{"orders", "clicks"}));
  EXPECT_EQ(s->offsets[1], std::optional<std::string>(R"({"logOffset":2})"));
  EXPECT_EQ(OffsetLog::serialize(*s), text);
  auto bad = OffsetLog::parse("v2\n{}\n{\"logOffset\":0}", "/ck/offsets/1");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains(bad.status().message(), "/ck/offsets/1:3")) << bad.status().message();
}

// ---------------------------------------------------------------- metadata, operator metadata

TEST(StreamMetadataFormat, CompactAndPrettyPrinted) {
  auto a = parseStreamMetadata(readFixture("checkpoint-version-2.1.0/metadata"), "m");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->id, "dddc5e7f-1e71-454c-8362-de184444fb5a");
  EXPECT_EQ(serializeStreamMetadata(*a), readFixture("checkpoint-version-2.1.0/metadata"));
  auto b = parseStreamMetadata(readFixture("query-metadata-logs-version-2.1.0.txt"), "m");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->id, "d366a8bf-db79-42ca-b5a4-d9ca0a11d63e");
  EXPECT_FALSE(parseStreamMetadata("", "/ck/metadata").ok());
}

TEST(OperatorMetadataFormat, V1AndV2TransformWithState) {
  std::string v1 = readFixture("checkpoint-version-4.0.0/rocksdb/agg/state/0/_metadata/metadata");
  auto a = parseOperatorMetadata(v1, "m");
  ASSERT_TRUE(a.ok()) << a.status().toString();
  EXPECT_EQ(a->version, 1);
  EXPECT_EQ(a->operatorName, "stateStoreSave");
  ASSERT_EQ(a->stateStores.size(), 1u);
  EXPECT_EQ(a->stateStores[0].numPartitions, 5);
  EXPECT_EQ(serializeOperatorMetadata(*a), v1);

  std::string v2 = readFixture("checkpoint-version-4.0.0-tws-avro/state/0/_metadata/v2/0");
  auto b = parseOperatorMetadata(v2, "m");
  ASSERT_TRUE(b.ok()) << b.status().toString();
  EXPECT_EQ(b->version, 2);
  EXPECT_EQ(b->operatorName, "transformWithStateExec");
  EXPECT_EQ(*b->timeMode, "NoTime");
  EXPECT_EQ(*b->outputMode, "Update");
  ASSERT_EQ(b->stateVariables.size(), 1u);
  EXPECT_EQ(b->stateVariables[0].stateName, "countState");
  EXPECT_EQ(b->stateVariables[0].stateVariableType, "ValueState");
  EXPECT_FALSE(b->stateVariables[0].ttlEnabled);
  EXPECT_EQ(serializeOperatorMetadata(*b), v2);
  // Built in memory, the properties JSON is generated in Spark's layout.
  OperatorMetadata m = *b;
  m.operatorPropertiesJson.clear();
  EXPECT_EQ(serializeOperatorMetadata(m), v2);
}

TEST(OperatorMetadataFormat, ReadsNewestFromACheckpoint) {
  PosixEnv p;
  auto ops = readAllOperatorMetadata(p.env(), joinPath(kFixtures, "checkpoint-version-4.0.0-tws-unsaferow"));
  ASSERT_TRUE(ops.ok()) << ops.status().toString();
  ASSERT_EQ(ops->size(), 1u);
  EXPECT_EQ((*ops)[0].version, 2);
  EXPECT_EQ((*ops)[0].batchId, 0);
  auto none = readAllOperatorMetadata(p.env(), joinPath(kFixtures, "checkpoint-version-2.1.0"));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

// ---------------------------------------------------------------- compactible logs on fixtures

TEST(FileSinkLogFormat, Spark21CompactAndDeleteGiveAllFiles) {
  ASSERT_TRUE(fixtureExists("file-sink-log-version-2.1.0"));
  PosixEnv p;
  CompactibleFileStreamLog<SinkFileStatus, FileSinkLogCodec> raw(p.env(), joinPath(kFixtures, "file-sink-log-version-2.1.0"));
  auto ids = raw.listBatchIds();
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<int64_t>{7, 8, 9}));
  auto all = raw.allFiles();
  ASSERT_TRUE(all.ok()) << all.status().toString();
  std::vector<std::string> paths;
  for (const auto& f : *all) paths.push_back(f.path);
  ASSERT_EQ(paths, (std::vector<std::string>{"/a/b/1", "/a/b/2", "/a/b/3", "/a/b/4", "/a/b/5",
                                             "/a/b/6", "/a/b/7", "/a/b/8", "/a/b/9"}));
  EXPECT_EQ((*all)[8].blockReplication, 3);
  EXPECT_EQ((*all)[8].blockSize, 200);
  auto b8 = raw.get(8);
  ASSERT_TRUE(b8.ok() && b8->has_value());
  ASSERT_EQ((*b8)->size(), 2u);
  EXPECT_EQ((**b8)[1].action, "delete");
  auto b7 = raw.get(7);  // found as 7.compact
  ASSERT_TRUE(b7.ok() && b7->has_value());
  EXPECT_EQ((*b7)->size(), 8u);
}

TEST(FileSourceLogFormat, CompactPlusTwoBatchesGiveFiveFiles) {
  ASSERT_TRUE(fixtureExists("file-source-log-version-2.1.0"));
  PosixEnv p;
  FileSourceLog log(p.env(), joinPath(kFixtures, "file-source-log-version-2.1.0"));
  auto all = log.allFiles();
  ASSERT_TRUE(all.ok()) << all.status().toString();
  ASSERT_EQ(all->size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ((*all)[i].path, "/a/b/" + std::to_string(i));
    EXPECT_EQ((*all)[i].batchId, i);
  }
  EXPECT_EQ((*all)[4].timestamp, 1480730951000);
  auto latest = log.getLatestBatchId();
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(**latest, 4);
}

// Spark 2.1's compacted source log holds 2.compact, 3 and 4: batches 0 and 1 were removed after
// the compaction, and FileStreamSourceLog.get reads them from the latest compact file by the
// batchId of its entries (issue 18: a replay of such a checkpoint failed with "batch 0 missing").
TEST(FileSourceLogFormat, BatchesRemovedAfterCompactionAreReadFromTheCompactFile) {
  ASSERT_TRUE(fixtureExists("file-source-log-version-2.1.0"));
  PosixEnv p;
  FileSourceLog log(p.env(), joinPath(kFixtures, "file-source-log-version-2.1.0"));
  for (int64_t id : {0, 1, 3, 4}) {
    auto b = log.get(id);
    ASSERT_TRUE(b.ok()) << b.status().toString();
    ASSERT_TRUE(b->has_value()) << "batch " << id;
    ASSERT_EQ((*b)->size(), 1u) << "batch " << id;
    EXPECT_EQ((**b)[0].path, "/a/b/" + std::to_string(id));
    EXPECT_EQ((**b)[0].batchId, id);
  }
  auto compact = log.get(2);  // 2.compact itself, every entry up to batch 2
  ASSERT_TRUE(compact.ok() && compact->has_value());
  EXPECT_EQ((*compact)->size(), 3u);
  auto none = log.get(5);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

// A compactible log that starts after batch 0 with a plain file has lost the compact file listing
// the earlier batches (issue 18: `inspect` said nothing unusual of a sink log lacking 7.compact).
TEST(CompactibleLogFormat, ALogStartingAfterZeroWithoutItsCompactFileIsMissingBatches) {
  SimEnv s;
  ASSERT_TRUE(s.fs.mkdirs("/out/_spark_metadata").ok());
  for (std::string n : {"8", "9"})
    ASSERT_TRUE(s.fs.putDurable("/out/_spark_metadata/" + n,
                                readFixture("file-sink-log-version-2.1.0/" + n)).ok());
  FileSinkLog log(s.env(), "/out");
  auto all = log.allFiles();
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.status().code(), Status::Code::kNotFound);
  EXPECT_NE(all.status().message().find("/out/_spark_metadata/7.compact"), std::string::npos)
      << all.status().message();
  EXPECT_NE(all.status().message().find("batches 0 to 7 are missing"), std::string::npos)
      << all.status().message();
  // With the compact file back, the log reads.
  ASSERT_TRUE(s.fs.putDurable("/out/_spark_metadata/7.compact",
                              readFixture("file-sink-log-version-2.1.0/7.compact")).ok());
  EXPECT_TRUE(log.allFiles().ok());
}

// The compact interval is the one the log on disk was written with, as Spark derives it
// (CompactibleFileStreamLog.compactInterval, SPARK-18187), not always the default 10.
TEST(CompactibleLogFormat, DeriveCompactIntervalAsSparkDoes) {
  auto derive = [](int def, int64_t latest) { return deriveCompactInterval(def, latest, "/log"); };
  EXPECT_EQ(*derive(5, 4), 5);    // Spark's CompactibleFileStreamLogSuite
  EXPECT_EQ(*derive(4, 9), 5);
  EXPECT_EQ(*derive(5, 11), 6);   // the example of Spark's comment: 11.compact, default 5
  EXPECT_EQ(*derive(10, 2), 3);   // the Spark 2.1 source log fixture (2.compact)
  EXPECT_EQ(*derive(10, 7), 8);   // the Spark 2.1 sink log fixture (7.compact)
  EXPECT_EQ(*derive(10, 19), 20); // 10 >= 20 / 2: Spark takes 20 itself, not its divisor 10
  EXPECT_EQ(*derive(7, 12), 13);  // 13 is prime
  EXPECT_EQ(*derive(3, 99), 4);   // the smallest divisor of 100 from 3 on
  EXPECT_EQ(*derive(10, 2147483646), 2147483647);  // prime, at int's edge
  auto past = derive(10, 2147483647);              // 2^31: past Spark's Int
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.status().code(), Status::Code::kCorruption);
  EXPECT_NE(past.status().message().find("/log/2147483647.compact"), std::string::npos);
  EXPECT_EQ(*compactIntervalOf(10, {}, "/log"), 10);
  EXPECT_EQ(*compactIntervalOf(5, {11}, "/log"), 6);
  EXPECT_EQ(*compactIntervalOf(10, {5, 11}, "/log"), 6);  // two compact files: their gap
}

TEST(CompactibleLogFormat, ASourceLogWrittenWithInterval3KeepsCompactingEvery3Batches) {
  SimEnv s;
  ASSERT_TRUE(s.fs.mkdirs("/ck/sources/0").ok());
  for (std::string n : {"2.compact", "3", "4"})
    ASSERT_TRUE(s.fs.putDurable("/ck/sources/0/" + n,
                                readFixture("file-source-log-version-2.1.0/" + n)).ok());
  FileSourceLog log(s.env(), "/ck/sources/0");  // the default interval, 10
  EXPECT_EQ(*log.compactInterval(), 3);
  EXPECT_EQ(*log.fileNameFor(5), "5.compact");
  ASSERT_TRUE(*log.add(5, {FileSourceEntry{"/a/b/5", 1480730952000, 5}}));
  EXPECT_TRUE(s.fs.exists("/ck/sources/0/5.compact"));
  EXPECT_FALSE(s.fs.exists("/ck/sources/0/5"));
  auto compact = log.get(5);
  ASSERT_TRUE(compact.ok() && compact->has_value());
  EXPECT_EQ((*compact)->size(), 6u);  // every file up to batch 5
  FileSourceLog again(s.env(), "/ck/sources/0");  // 2.compact and 5.compact: 3 apart
  EXPECT_EQ(*again.compactInterval(), 3);
  ASSERT_TRUE(*again.add(6, {FileSourceEntry{"/a/b/6", 1480730953000, 6}}));
  EXPECT_TRUE(s.fs.exists("/ck/sources/0/6"));
}

TEST(CompactibleLogFormat, ASinkLogWithOneCompactFileCompactsAtItsDerivedInterval) {
  SimEnv s;
  ASSERT_TRUE(s.fs.mkdirs("/out/_spark_metadata").ok());
  for (std::string n : {"7.compact", "8", "9"})
    ASSERT_TRUE(s.fs.putDurable("/out/_spark_metadata/" + n,
                                readFixture("file-sink-log-version-2.1.0/" + n)).ok());
  FileSinkLog log(s.env(), "/out");
  EXPECT_EQ(*log.compactInterval(), 8);  // 7.compact alone, 7 + 1 <= 10: 8 (Spark: not 10)
  for (int64_t b = 10; b <= 15; ++b) {
    SinkFileStatus f;
    f.path = "/a/b/" + std::to_string(b);
    ASSERT_TRUE(*log.add(b, {f}));
  }
  for (int64_t b = 10; b <= 14; ++b) EXPECT_TRUE(s.fs.exists("/out/_spark_metadata/" + std::to_string(b)));
  EXPECT_TRUE(s.fs.exists("/out/_spark_metadata/15.compact"));
  auto all = log.allFiles();
  ASSERT_TRUE(all.ok()) << all.status().toString();
  EXPECT_EQ(all->size(), 15u);  // the fixture's /a/b/1..9 and /a/b/10..15
  // A log without compact files takes the default it is given.
  FileSinkLog fresh(s.env(), "/fresh", 3);
  EXPECT_EQ(*fresh.compactInterval(), 3);
}

// Entries as this engine writes them are read without a JSON DOM; every other spelling goes to
// the DOM reader. Both must give the same entries and the same errors.
RC_GTEST_PROP(FileSourceLogEntry, WhatIsWrittenIsReadBack, ()) {
  const auto path = *rc::gen::container<std::string>(rc::gen::inRange<char>(1, 127));
  const auto timestamp = *rc::gen::arbitrary<int64_t>();
  const auto batchId = *rc::gen::arbitrary<int64_t>();
  FileSourceEntry e{path, timestamp, batchId};
  auto back = FileSourceLogCodec::parseEntry(FileSourceLogCodec::serializeEntry(e), "/log/0", 2);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == e);
}

TEST(FileSourceLogEntry, OtherSpellingsReadAsJson) {
  auto parse = [](std::string_view line) { return FileSourceLogCodec::parseEntry(line, "/log/0", 2); };
  const FileSourceEntry ab{"file:/in/ab", 5, 3};
  for (std::string_view line : {
           R"({"path":"file:/in/ab","timestamp":5,"batchId":3})",
           R"(  {"path":"file:/in/ab","timestamp":5,"batchId":3} )",
           R"({"batchId":3,"timestamp":5,"path":"file:/in/ab"})",
           R"({ "path" : "file:/in/ab" , "timestamp" : 5 , "batchId" : 3 })",
           R"({"path":"file:/in/ab","timestamp":5,"batchId":3})",
           R"({"path":"file:/in/ab","timestamp":5,"batchId":3,"extra":[1]})",
       }) {
    auto e = parse(line);
    ASSERT_TRUE(e.ok()) << line << ": " << e.status().message();
    EXPECT_EQ(*e, ab) << line;
  }
  auto big = parse(R"({"path":"p","timestamp":1234567890123456789,"batchId":-0})");
  ASSERT_TRUE(big.ok()) << big.status().message();
  EXPECT_EQ(big->timestamp, 1234567890123456789);
  EXPECT_EQ(big->batchId, 0);
  auto utf8 = parse("{\"path\":\"caf\xc3\xa9\",\"timestamp\":1,\"batchId\":0}");
  ASSERT_TRUE(utf8.ok()) << utf8.status().message();
  EXPECT_EQ(utf8->path, "caf\xc3\xa9");
  for (std::string_view bad : {
           R"({"path":"p","timestamp":05,"batchId":3})",
           R"({"path":"p","timestamp":1.5,"batchId":3})",
           R"({"path":"p","timestamp":5,"batchId":3}x)",
           R"({"path":"p","timestamp":5})",
           R"({"path":"p","timestamp":5,"batchId":})",
           R"({"path":"p","timestamp":5,"batchId":3)",
       }) {
    auto e = parse(bad);
    EXPECT_FALSE(e.ok()) << bad;
    if (!e.ok()) {
      EXPECT_NE(e.status().message().find("/log/0:2"), std::string::npos) << e.status().message();
    }
  }
}

TEST(CompactibleLogFormat, EntriesAreByteExactApartFromTheTrailingNewline) {
  // Spark 2.1 ended each line with '\n'; current Spark writes "v1" + "\n<entry>" per entry.
  for (std::string rel : {"file-sink-log-version-2.1.0/8", "file-source-log-version-2.1.0/2.compact"}) {
    std::string text = readFixture(rel);
    ASSERT_FALSE(text.empty());
    std::string expected = text.substr(0, text.size() - 1);
    if (contains(rel, "sink")) {
      auto e = FileSinkLog::parse(text, rel);
      ASSERT_TRUE(e.ok());
      EXPECT_EQ(FileSinkLog::serialize(*e), expected);
    } else {
      auto e = FileSourceLog::parse(text, rel);
      ASSERT_TRUE(e.ok());
      EXPECT_EQ(FileSourceLog::serialize(*e), expected);
    }
  }
  auto bad = FileSinkLog::parse("v1\n{\"path\":\"/a\",\"size\":1}", "/out/_spark_metadata/3");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains(bad.status().message(), "/out/_spark_metadata/3:2")) << bad.status().message();
}

// ---------------------------------------------------------------- protocol on SimFileSystem

// Top-level key sequence of every JSON object line; "-" or raw for non-object lines.
std::vector<std::string> lineShape(const std::string& text) {
  std::vector<std::string> out;
  for (const LogLine& l : splitLines(text)) {
    if (l.text.empty()) continue;
    auto j = nlohmann::ordered_json::parse(l.text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      out.push_back(l.text[0] == 'v' ? std::string(l.text) : std::string("<value>"));
      continue;
    }
    std::string keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys += it.key() + ",";
    out.push_back(keys);
  }
  return out;
}

TEST(MetadataLogProtocol, WrittenLogsHaveSparksShape) {
  SimEnv s;
  Env env = s.env();
  // offsets
  OffsetLog offsets(env, "/ck");
  OffsetSeq seq;
  seq.metadata.batchTimestampMs = 1531292029003;
  seq.metadata.conf = {{"spark.sql.shuffle.partitions", "5"},
                       {"spark.sql.streaming.stateStore.providerClass", "x"}};
  seq.offsets = {std::string("0")};
  ASSERT_TRUE(*offsets.add(0, seq));
  auto written = s.fs.read("/ck/offsets/0");
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(lineShape(*written),
            lineShape(readFixture("checkpoint-version-2.3.1-flatMapGroupsWithState-state-format-1/offsets/0")));
  // commits
  CommitLog commits(env, "/ck");
  CommitMetadata cm;
  cm.nextBatchWatermarkMs = 5000;
  ASSERT_TRUE(*commits.add(1, cm));
  EXPECT_EQ(*s.fs.read("/ck/commits/1"), readFixture("checkpoint-version-4.0.0/hdfs/join1/commits/1"));
  // sink log
  FileSinkLog sink(env, "/out");
  SinkFileStatus f;
  f.path = "/a/b/9";
  f.size = 900;
  f.modificationTime = 900;
  f.blockReplication = 3;
  f.blockSize = 200;
  ASSERT_TRUE(*sink.add(0, {f}));
  EXPECT_EQ(*s.fs.read("/out/_spark_metadata/0") + "\n", readFixture("file-sink-log-version-2.1.0/9"));
  // source log
  FileSourceLog source(env, sourceLogDir("/ck", 0));
  ASSERT_TRUE(*source.add(3, {FileSourceEntry{"/a/b/3", 1480730950000, 3}}));
  EXPECT_EQ(*s.fs.read("/ck/sources/0/3") + "\n", readFixture("file-source-log-version-2.1.0/3"));
  // metadata
  ASSERT_TRUE(writeStreamMetadata(env, "/ck", StreamMetadata{"dddc5e7f-1e71-454c-8362-de184444fb5a"}).ok());
  EXPECT_EQ(*s.fs.read("/ck/metadata"), readFixture("checkpoint-version-2.1.0/metadata"));
  EXPECT_FALSE(writeStreamMetadata(env, "/ck", StreamMetadata{"other"}).ok());
}

TEST(MetadataLogProtocol, AddNeverOverwrites) {
  SimEnv s;
  CommitLog commits(s.env(), "/ck");
  CommitMetadata a;
  a.nextBatchWatermarkMs = 1;
  CommitMetadata b;
  b.nextBatchWatermarkMs = 2;
  auto first = commits.add(0, a);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(*first);
  auto second = commits.add(0, b);
  ASSERT_TRUE(second.ok()) << second.status().toString();
  EXPECT_FALSE(*second);
  auto got = commits.get(0);
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ(*(*got)->nextBatchWatermarkMs, 1);
  // No temp files are left behind.
  for (const auto& p : s.fs.allFiles()) EXPECT_FALSE(contains(p, ".tmp")) << p;
}

TEST(MetadataLogProtocol, LatestIgnoresTempAndForeignFiles) {
  SimEnv s;
  OffsetLog offsets(s.env(), "/ck");
  OffsetSeq seq;
  seq.offsets = {std::string("{\"logOffset\":0}")};
  ASSERT_TRUE(*offsets.add(0, seq));
  ASSERT_TRUE(*offsets.add(1, seq));
  ASSERT_TRUE(s.fs.putDurable("/ck/offsets/.5.0b1e.tmp", "v1\n{").ok());
  ASSERT_TRUE(s.fs.putDurable("/ck/offsets/7.crc", "x").ok());
  ASSERT_TRUE(s.fs.putDurable("/ck/offsets/notes", "x").ok());
  auto ids = offsets.listBatchIds();
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<int64_t>{0, 1}));
  auto latest = offsets.getLatest();
  ASSERT_TRUE(latest.ok()) << latest.status().toString();
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->first, 1);
  auto missing = offsets.get(4);
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  CommitLog empty(s.env(), "/nothing");
  auto none = empty.getLatest();
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

// A folder under a batch file's name is not skipped as if the batch did not exist (issue 18's
// malformed-input suite): it is listed, and reading it fails naming it, as in Spark, whose
// HDFSMetadataLog lists it by name and fails to open it.
TEST(MetadataLogProtocol, AFolderWhereABatchFileBelongsIsAnErrorNamingIt) {
  SimEnv s;
  OffsetLog offsets(s.env(), "/ck");
  OffsetSeq seq;
  seq.offsets = {std::string("{\"logOffset\":0}")};
  ASSERT_TRUE(*offsets.add(0, seq));
  ASSERT_TRUE(s.fs.mkdirs("/ck/offsets/9").ok());
  auto ids = offsets.listBatchIds();
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<int64_t>{0, 9}));
  auto latest = offsets.getLatest();
  ASSERT_FALSE(latest.ok());
  EXPECT_NE(latest.status().message().find("/ck/offsets/9"), std::string::npos)
      << latest.status().message();
}

TEST(MetadataLogProtocol, TornFileIsCorruptionNamingTheFile) {
  SimEnv s;
  ASSERT_TRUE(s.fs.mkdirs("/ck/commits").ok());
  ASSERT_TRUE(s.fs.putDurable("/ck/commits/0", "").ok());
  ASSERT_TRUE(s.fs.putDurable("/ck/commits/1", "v1\n{\"nextBatch").ok());
  CommitLog commits(s.env(), "/ck");
  auto a = commits.get(0);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), Status::Code::kCorruption);
  EXPECT_TRUE(contains(a.status().message(), "/ck/commits/0")) << a.status().message();
  auto b = commits.getLatest();
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), Status::Code::kCorruption);
  EXPECT_TRUE(contains(b.status().message(), "/ck/commits/1:2")) << b.status().message();
}

TEST(CompactibleLogProtocol, Batch9IsWrittenAsCompactWithEverything) {
  SimEnv s;
  FileSinkLog sink(s.env(), "/out");
  for (int64_t b = 0; b < 12; ++b) {
    std::vector<SinkFileStatus> files;
    SinkFileStatus f;
    f.path = "/out/part-" + std::to_string(b);
    f.size = 10 + b;
    files.push_back(f);
    if (b == 5) {
      SinkFileStatus del = files.front();
      del.path = "/out/part-2";
      del.action = "delete";
      files.push_back(del);
    }
    auto added = sink.add(b, files);
    ASSERT_TRUE(added.ok()) << added.status().toString();
    EXPECT_TRUE(*added);
  }
  EXPECT_TRUE(s.fs.exists("/out/_spark_metadata/9.compact"));
  EXPECT_FALSE(s.fs.exists("/out/_spark_metadata/9"));
  EXPECT_TRUE(s.fs.exists("/out/_spark_metadata/8"));
  EXPECT_TRUE(s.fs.exists("/out/_spark_metadata/10"));
  auto compact = sink.get(9);
  ASSERT_TRUE(compact.ok() && compact->has_value());
  EXPECT_EQ((*compact)->size(), 9u);  // part-0..9 minus part-2; no delete entries left
  auto all = sink.allFiles();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 11u);
  auto latest = sink.getLatestBatchId();
  EXPECT_EQ(**latest, 11);
  // Re-adding an existing batch (either name) writes nothing.
  auto again = sink.add(9, {});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(*again);
  // The source log compacts the same way, keeping every entry.
  FileSourceLog source(s.env(), "/ck/sources/0");
  for (int64_t k = 0; k < 10; ++k)
    ASSERT_TRUE(*source.add(k, {FileSourceEntry{"/in/" + std::to_string(k), k, k}}));
  EXPECT_TRUE(s.fs.exists("/ck/sources/0/9.compact"));
  auto files = source.allFiles();
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->size(), 10u);
}

TEST(CompactibleLogProtocol, MissingBatchAfterCompactIsReported) {
  SimEnv s;
  FileSourceLog source(s.env(), "/ck/sources/0");
  ASSERT_TRUE(*source.add(0, {FileSourceEntry{"/in/0", 0, 0}}));
  ASSERT_TRUE(*source.add(2, {FileSourceEntry{"/in/2", 0, 2}}));
  auto all = source.allFiles();
  ASSERT_FALSE(all.ok());
  EXPECT_TRUE(contains(all.status().message(), "batch 1 is missing")) << all.status().message();
}

}  // namespace
}  // namespace streamsim
