// replayCheckpoint from a real Spark checkpoint's committed batch (issue 39 item 4): the
// transformWithState fixture tests/fixtures/spark-rocksdb/tws-valuestate-unsaferow-4.0 (Spark 4.0,
// RocksDB state store; written by TransformWithStateSuite's RunningCountStatefulProcessor over a
// MemoryStream: batch 0 read "a", batch 1 "a" and "b", so countState is a -> 2, b -> 1 after batch 1
// — what `streamsim state` decodes, SparkRocksDBState tests) is continued on new input by a port of
// that processor; the same state under a Kafka source whose offsets the test writes in Spark's
// Kafka offset JSON (KafkaSourceOffset: {"topic":{"partition":nextOffset}}), with its records in a
// file. Bad input: a Kafka checkpoint without records, records that do not reach its offsets, a
// --from-batch never committed, a record line that is not a record.
#include "streamsim/harness/checkpoint_replay.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "streamsim/platform/platform.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"
#include "test_paths.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

namespace stdfs = std::filesystem;

// Spark's RunningCountStatefulProcessor (TransformWithStateSuite.scala): per call the count + 1;
// at 3 the state is cleared and nothing is emitted, else it is kept and (key, count) emitted.
class SparkRunningCount final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override { count_ = h.getValueState<int64_t>("countState"); }
  void handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    const int64_t count = (count_.exists() ? count_.get() : 0) + 1;
    if (count == 3) {
      count_.clear();
      return;
    }
    count_.update(count);
    out.emit(Row{{"_1", key[0]}, {"_2", std::to_string(count)}});
  }

 private:
  ValueState<int64_t> count_;
};

std::string fixture(const std::string& name = "tws-valuestate-unsaferow-4.0") {
  return (stdfs::path(STREAMSIM_FIXTURES_DIR).parent_path() / "spark-rocksdb" / name).string();
}

std::string tempDir(const std::string& name) {
  auto dir = stdfs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  stdfs::remove_all(dir);
  stdfs::create_directories(dir);
  return dir.string();
}

void write(const std::string& path, const std::string& text) {
  stdfs::create_directories(stdfs::path(path).parent_path());
  std::ofstream(path) << text;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> rowsText(const std::vector<Row>& rows) {
  std::vector<std::string> out;
  for (const Row& r : rows) out.push_back(r.toString());
  std::sort(out.begin(), out.end());
  return out;
}

// The Avro-encoded twin (checkpoint-version-4.0.0-tws-avro: encodingFormat=avro, the same query
// and rows) continues the same way: the import reads either encoding.
TEST(CheckpointReplaySpark, ContinuesTheTransformWithStateFixtureFromItsLastCommittedBatchOnNewInput) {
  for (const std::string name : {"tws-valuestate-unsaferow-4.0", "tws-valuestate-avro-4.0"}) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(stdfs::exists(fixture(name))) << fixture(name) << " is missing";
  const std::string landing = tempDir("streamsim_replay_spark_landing");
  write(landing + "/new.json", "{\"value\":\"a\"}\n{\"value\":\"b\"}\n{\"value\":\"c\"}\n{\"value\":\"a\"}\n");
  for (std::string store : {"rocksdb", "memory"}) {
    CheckpointReplayOptions o;
    o.registries = ::streamsim::test::testRegistries();
    o.checkpoint = fixture(name);
    o.landing = landing;
    o.processor = "test_spark_running_count";
    o.schema = "value string";
    o.stateStore = store;
    platform::RealEnv real;
    auto r = replayCheckpoint(real.env(), o);
    ASSERT_TRUE(r.ok()) << r.status().message();
    // The source was a MemoryStream (offsets/1 is "1", no sources/0): its input is not kept, so the
    // replay starts after the last committed batch, 1, on the state it committed.
    EXPECT_EQ(r->sourceKind, "unrecorded");
    EXPECT_EQ(r->startAfterBatch, 1);
    EXPECT_EQ(r->groupBy, std::vector<std::string>{"value"});  // Spark's key schema (schema file v3)
    EXPECT_EQ(r->timeMode, "None");                             // operator metadata v2: NoTime
    EXPECT_NE(r->stateLoaded.find("Spark's RocksDB state store at version 2"), std::string::npos) << r->stateLoaded;
    EXPECT_NE(r->stateLoaded.find("2 state row(s)"), std::string::npos) << r->stateLoaded;
    EXPECT_NE(r->stateLoaded.find("countState (value)"), std::string::npos) << r->stateLoaded;
    ASSERT_EQ(r->batches.size(), 1u) << formatReplay(*r);
    const ReplayedBatch& b = r->batches[0];
    EXPECT_FALSE(b.recorded);
    EXPECT_EQ(b.batchId, 2);
    EXPECT_EQ(b.rowsIn, 4);
    // a: 2 + 1 = 3, cleared, nothing emitted; b: 1 + 1 = 2; c: new, 1. Had the state not been
    // carried over, a would emit 1 and b 1.
    EXPECT_EQ(rowsText(b.output), (std::vector<std::string>{"_1=b, _2=2", "_1=c, _2=1"})) << formatReplay(*r);
    const std::string text = formatReplay(*r);
    EXPECT_NE(text.find("the replay starts at batch 2 from the state batch 1 committed"), std::string::npos) << text;
    EXPECT_NE(text.find("new input"), std::string::npos) << text;
  }
  stdfs::remove_all(landing);
  }
}

// A checkpoint of the same query reading Kafka topic "events" (one partition): batch 0 read offset
// 0 ("a"), batch 1 offsets 1-2 ("a", "b"), so the fixture's state is what it committed. Spark's
// offsets/N: "v1", the batch metadata, then KafkaSourceOffset's JSON (next offset per partition).
struct KafkaCheckpoint {
  std::string root, chk, records;
};

KafkaCheckpoint writeKafkaCheckpoint(const std::string& name) {
  KafkaCheckpoint k;
  k.root = tempDir(name);
  k.chk = k.root + "/chk";
  stdfs::create_directories(k.chk);
  stdfs::copy(fixture() + "/state", k.chk + "/state", stdfs::copy_options::recursive);
  stdfs::copy(fixture() + "/commits", k.chk + "/commits", stdfs::copy_options::recursive);
  stdfs::copy_file(fixture() + "/metadata", k.chk + "/metadata");
  for (const std::string n : {"0", "1"}) {
    std::string text = read(fixture() + "/offsets/" + n);
    text = text.substr(0, text.rfind('\n', text.size() - 2) + 1);  // "v1" and the metadata line
    write(k.chk + "/offsets/" + n, text + (n == "0" ? "{\"events\":{\"0\":1}}" : "{\"events\":{\"0\":3}}"));
  }
  // The initial offsets the source resolved at its first start (sources/0/0).
  write(k.chk + "/sources/0/0", std::string("v1\n{\"events\":{\"0\":0}}"));
  k.records = k.root + "/events.jsonl";
  write(k.records,
        "{\"topic\":\"events\",\"partition\":0,\"offset\":0,\"key\":\"a\",\"value\":\"a\",\"timestamp\":1734074067000}\n"
        "{\"topic\":\"events\",\"partition\":0,\"offset\":1,\"key\":\"a\",\"value\":\"a\",\"timestamp\":1734074070000}\n"
        "{\"topic\":\"events\",\"partition\":0,\"offset\":2,\"key\":\"b\",\"value\":\"b\",\"timestamp\":1734074070001}\n"
        "{\"topic\":\"events\",\"partition\":0,\"offset\":3,\"key\":\"a\",\"value\":\"a\",\"timestamp\":1734074080000}\n"
        "{\"topic\":\"events\",\"partition\":0,\"offset\":4,\"key\":\"b\",\"value\":\"b\",\"timestamp\":1734074080001}\n"
        "{\"topic\":\"events\",\"partition\":0,\"offset\":5,\"key\":\"c\",\"value\":\"c\",\"timestamp\":1734074080002}\n");
  return k;
}

CheckpointReplayOptions kafkaOptions(const KafkaCheckpoint& k) {
  CheckpointReplayOptions o;
  o.registries = ::streamsim::test::testRegistries();
  o.checkpoint = k.chk;
  o.kafkaRecords = k.records;
  o.processor = "test_spark_running_count";
  o.groupBy = {"key"};
  return o;
}

TEST(CheckpointReplaySpark, AKafkaCheckpointContinuesFromItsCommittedBatchWithRecordsFromAFile) {
  ASSERT_TRUE(stdfs::exists(fixture())) << fixture() << " is missing";
  const KafkaCheckpoint k = writeKafkaCheckpoint("streamsim_replay_spark_kafka");
  platform::RealEnv real;
  // From batch 1's state (Spark's RocksDB store): only offsets 3-5 are new.
  CheckpointReplayOptions o = kafkaOptions(k);
  o.fromBatch = 1;
  auto r = replayCheckpoint(real.env(), o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->sourceKind, "kafka");
  EXPECT_EQ(r->startAfterBatch, 1);
  ASSERT_EQ(r->batches.size(), 1u) << formatReplay(*r);
  EXPECT_EQ(r->batches[0].batchId, 2);
  EXPECT_EQ(r->batches[0].rowsIn, 3);
  EXPECT_EQ(rowsText(r->batches[0].output), (std::vector<std::string>{"_1=b, _2=2", "_1=c, _2=1"}))
      << formatReplay(*r);

  // From the beginning (offsets/0 is kept and the records reach back to the initial offsets): the
  // recorded batches are re-run at their offsets, then the new records; the same answer.
  auto all = replayCheckpoint(real.env(), kafkaOptions(k));
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(all->startAfterBatch, -1);
  ASSERT_EQ(all->batches.size(), 3u) << formatReplay(*all);
  EXPECT_TRUE(all->batches[0].recorded);
  EXPECT_EQ(all->batches[0].rowsIn, 1);
  EXPECT_EQ(rowsText(all->batches[0].output), (std::vector<std::string>{"_1=a, _2=1"}));
  EXPECT_EQ(all->batches[1].rowsIn, 2);
  EXPECT_EQ(rowsText(all->batches[1].output), (std::vector<std::string>{"_1=a, _2=2", "_1=b, _2=1"}));
  EXPECT_FALSE(all->batches[2].recorded);
  EXPECT_EQ(rowsText(all->batches[2].output), rowsText(r->batches[0].output));
  stdfs::remove_all(k.root);
}

TEST(CheckpointReplaySpark, BadKafkaInputIsAClearErrorNamingTheFile) {
  ASSERT_TRUE(stdfs::exists(fixture())) << fixture() << " is missing";
  const KafkaCheckpoint k = writeKafkaCheckpoint("streamsim_replay_spark_kafka_bad");
  platform::RealEnv real;
  auto message = [&](CheckpointReplayOptions o) {
    auto r = replayCheckpoint(real.env(), o);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  CheckpointReplayOptions o = kafkaOptions(k);
  o.kafkaRecords.clear();
  o.landing = k.root;
  o.schema = "value string";
  EXPECT_NE(message(o).find("give its recorded records with --kafka-records FILE"), std::string::npos) << message(o);

  o = kafkaOptions(k);
  o.fromBatch = 5;
  EXPECT_NE(message(o).find("--from-batch 5: " + k.chk + " has no committed batch 5"), std::string::npos) << message(o);

  // Records that stop short of the offsets the recorded batches read.
  write(k.root + "/short.jsonl",
        "{\"topic\":\"events\",\"partition\":0,\"offset\":0,\"key\":\"a\",\"value\":\"a\",\"timestamp\":1}\n");
  o = kafkaOptions(k);
  o.kafkaRecords = k.root + "/short.jsonl";
  EXPECT_NE(message(o).find("the replayed batches read offsets 0 to 3 of events partition 0"), std::string::npos)
      << message(o);

  // A line that is not a record: file:line and what was expected.
  write(k.root + "/bad.jsonl",
        "{\"topic\":\"events\",\"partition\":0,\"offset\":0,\"value\":\"a\"}\n{\"topic\":\"events\",\"offset\":1}\n");
  o.kafkaRecords = k.root + "/bad.jsonl";
  EXPECT_NE(message(o).find(k.root + "/bad.jsonl:2: no partition number"), std::string::npos) << message(o);
  // Offsets with a gap.
  write(k.root + "/gap.jsonl",
        "{\"topic\":\"events\",\"partition\":0,\"offset\":0,\"value\":\"a\"}\n"
        "{\"topic\":\"events\",\"partition\":0,\"offset\":2,\"value\":\"a\"}\n");
  o.kafkaRecords = k.root + "/gap.jsonl";
  EXPECT_NE(message(o).find("gap.jsonl:2: offset 2 of partition 0 does not follow offset 0"), std::string::npos)
      << message(o);
  stdfs::remove_all(k.root);
}

}  // namespace
}  // namespace streamsim::harness

// This file's processors, handed to its runs next to the example ones (test_registries.h).
void streamsim::test::addTestProcessors(ProcessorSet& set) {
  set.add("test_spark_running_count", processorFactoryOf<harness::SparkRunningCount>());
}
