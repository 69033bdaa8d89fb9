// The Kafka source's consumer strategies and options (engine/src/io/kafka_options.cc,
// kafka_source.cc), as Spark 4.1's connector/kafka-0-10-sql/.../kafka010/KafkaSourceProvider.scala
// (validateGeneralOptions, strategy), ConsumerStrategy.scala (Subscribe, SubscribePattern, Assign)
// and KafkaOffsetReaderAdmin.scala (specific starting offsets, partitions assigned later).
#include <gtest/gtest.h>

#include "streamsim/harness/sim_env.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/sim/kafka_log.h"

namespace streamsim::harness {
namespace {

constexpr TimeMs kStart = 1767261600000;  // 2026-01-01T10:00:00Z

SimEnvOptions env() {
  SimEnvOptions o;
  o.seed = 1;
  o.startTimeMs = kStart;
  return o;
}

struct KafkaRun {
  SimEnv sim{env()};
  std::shared_ptr<sim::KafkaLog> log = std::make_shared<sim::KafkaLog>();
  std::shared_ptr<MemorySinkData> out = std::make_shared<MemorySinkData>();

  Status start(std::map<std::string, std::string> options, bool binary = false) {
    auto source = makeKafkaSource(log, std::move(options), binary);
    if (!source.ok()) return source.status();
    DataStreamWriter w = readStream(*source).writeStream();
    w.sink(makeMemorySink(out)).outputMode(OutputMode::kAppend).trigger(Trigger::ProcessingTime(1000));
    w.option("checkpointLocation", "/chk");
    return sim.start(w);
  }
  Status runAvailable() {
    return sim.guarded([](StreamingQuery& q) { return q.processAllAvailable(); });
  }
  // "topic/partition/value" of every row the sink got, in order.
  std::vector<std::string> rows() const {
    std::vector<std::string> v;
    for (const Row& r : out->appendView())
      v.push_back(r.get("topic").toString() + "/" + r.get("partition").toString() + "/" +
                  std::string(r.get("value").asString()));
    return v;
  }
};

std::string optionError(std::map<std::string, std::string> options) {
  auto log = std::make_shared<sim::KafkaLog>();
  auto f = makeKafkaSource(log, std::move(options));
  return f.ok() ? "" : std::string(f.status().message());
}

TEST(KafkaSourceOptions, ExactlyOneStrategyWithSparksMessages) {
  EXPECT_EQ(optionError({{"startingOffsets", "earliest"}}),
            "One of the following options must be specified for Kafka source: subscribe, subscribepattern, "
            "assign. See the docs for more details.");
  EXPECT_EQ(optionError({{"subscribe", "a"}, {"subscribePattern", "a.*"}}),
            "Only one of the following options can be specified for Kafka source: subscribe, subscribepattern, "
            "assign. See the docs for more details.");
  EXPECT_EQ(optionError({{"subscribe", " , "}}),
            "No topics to subscribe to as specified value for option 'subscribe' is ' , '");
  EXPECT_EQ(optionError({{"subscribePattern", "  "}}),
            "Pattern to subscribe is empty as specified value for option 'subscribePattern' is '  '");
  EXPECT_EQ(optionError({{"assign", "a"}}),
            "No topicpartitions to assign as specified value for option 'assign' is 'a'");
  EXPECT_EQ(optionError({{"assign", R"({"a":["x"]})"}}),
            R"(Expected e.g. {"topicA":[0,1],"topicB":[0,1]}, got {"a":["x"]})");
  EXPECT_EQ(optionError({{"subscribe", "a"}, {"startingOffsets", "{bad"}}),
            R"(Expected e.g. {"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}, got {bad)");
  EXPECT_EQ(optionError({{"subscribe", "a"}, {"endingOffsets", "latest"}}), "ending offset not valid in streaming queries");
  // Option names are case-insensitive (CaseInsensitiveMap); so are latest / earliest.
  EXPECT_EQ(optionError({{"SUBSCRIBE", "a"}, {"startingoffsets", "EARLIEST"}}), "");
  EXPECT_NE(optionError({{"subscribePattern", "("}}).find("not a valid regular expression"), std::string::npos);
}

TEST(KafkaSource, SubscribeToSeveralTopicsReadsEachWithItsTopicColumn) {
  KafkaRun run;
  ASSERT_TRUE(run.log->createTopic("orders", {2, 0}).ok());
  ASSERT_TRUE(run.log->createTopic("refunds", {1, 0}).ok());
  ASSERT_TRUE(run.log->createTopic("other", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("orders", std::nullopt, "o1", kStart, 1).ok());
  ASSERT_TRUE(run.log->produce("refunds", std::nullopt, "r1", kStart, 0).ok());
  ASSERT_TRUE(run.log->produce("other", std::nullopt, "x1", kStart, 0).ok());
  ASSERT_TRUE(run.start({{"subscribe", "orders, refunds"}, {"startingOffsets", "earliest"}}).ok());
  ASSERT_TRUE(run.runAvailable().ok());
  EXPECT_EQ(run.rows(), (std::vector<std::string>{"orders/1/o1", "refunds/0/r1"}));
  const QueryProgress* p = run.sim.query()->lastProgress();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->sources.at(0).description, "KafkaV2[Subscribe[orders, refunds]]");
}

TEST(KafkaSource, SubscribePatternFindsATopicCreatedLaterFromItsEarliestOffset) {
  KafkaRun run;
  ASSERT_TRUE(run.log->createTopic("events-eu", {1, 0}).ok());
  ASSERT_TRUE(run.log->createTopic("audit", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("events-eu", std::nullopt, "e1", kStart, 0).ok());
  ASSERT_TRUE(run.log->produce("audit", std::nullopt, "a1", kStart, 0).ok());
  // Regex.findFirstIn: the pattern is found in the name, not matched against all of it.
  ASSERT_TRUE(run.start({{"subscribePattern", "ents-"}, {"startingOffsets", "latest"}}).ok());
  ASSERT_TRUE(run.log->produce("events-eu", std::nullopt, "e2", kStart, 0).ok());
  ASSERT_TRUE(run.runAvailable().ok());
  ASSERT_TRUE(run.log->createTopic("events-us", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("events-us", std::nullopt, "u1", kStart, 0).ok());
  ASSERT_TRUE(run.runAvailable().ok());
  // startingOffsets latest skipped e1; the topic created after the start is read from offset 0.
  EXPECT_EQ(run.rows(), (std::vector<std::string>{"events-eu/0/e2", "events-us/0/u1"}));
  EXPECT_EQ(run.sim.query()->lastProgress()->sources.at(0).description, "KafkaV2[SubscribePattern[ents-]]");
}

TEST(KafkaSource, AssignReadsTheNamedPartitionsOnly) {
  KafkaRun run;
  ASSERT_TRUE(run.log->createTopic("t", {3, 0}).ok());
  for (int p = 0; p < 3; ++p) ASSERT_TRUE(run.log->produce("t", std::nullopt, "v" + std::to_string(p), kStart, p).ok());
  ASSERT_TRUE(run.start({{"assign", R"({"t":[2,0]})"}, {"startingOffsets", "earliest"}}).ok());
  ASSERT_TRUE(run.runAvailable().ok());
  EXPECT_EQ(run.rows(), (std::vector<std::string>{"t/0/v0", "t/2/v2"}));
  EXPECT_EQ(run.sim.query()->lastProgress()->sources.at(0).description, "KafkaV2[Assign[t-2, t-0]]");
}

TEST(KafkaSource, StartingOffsetsPerTopicPartitionMustNameEveryAssignedOne) {
  KafkaRun run;
  ASSERT_TRUE(run.log->createTopic("a", {1, 0}).ok());
  ASSERT_TRUE(run.log->createTopic("b", {1, 0}).ok());
  for (const char* v : {"a0", "a1", "a2"}) ASSERT_TRUE(run.log->produce("a", std::nullopt, v, kStart, 0).ok());
  for (const char* v : {"b0", "b1"}) ASSERT_TRUE(run.log->produce("b", std::nullopt, v, kStart, 0).ok());
  Status missing = run.start({{"subscribe", "a,b"}, {"startingOffsets", R"({"a":{"0":1}})"}});
  EXPECT_NE(std::string(missing.message()).find(
                "If startingOffsets contains specific offsets, you must specify all TopicPartitions.\n"
                "Use -1 for latest, -2 for earliest, if you don't care.\nSpecified: Set(a-0) Assigned: Set(a-0, b-0)"),
            std::string::npos)
      << missing.toString();
  KafkaRun ok;
  ok.log = run.log;
  ASSERT_TRUE(ok.start({{"subscribe", "a,b"}, {"startingOffsets", R"({"a":{"0":2},"b":{"0":-2}})"}}).ok());
  ASSERT_TRUE(ok.runAvailable().ok());
  EXPECT_EQ(ok.rows(), (std::vector<std::string>{"a/0/a2", "b/0/b0", "b/0/b1"}));
}

TEST(KafkaSource, BinaryKeyAndValueAsSparksSchema) {
  EXPECT_EQ(kafkaSourceSchema(true)->toDDL().substr(0, 27), "key binary, value binary, t");
  KafkaRun run;
  ASSERT_TRUE(run.log->createTopic("t", {1, 0}).ok());
  ASSERT_TRUE(run.log->produce("t", std::string("k"), std::string("\xff\x01", 2), kStart, 0).ok());
  ASSERT_TRUE(run.start({{"subscribe", "t"}, {"startingOffsets", "earliest"}}, /*binary=*/true).ok());
  ASSERT_TRUE(run.runAvailable().ok());
  std::vector<Row> rows = run.out->appendView();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].get("value").type(), Type::kBinary);
  EXPECT_EQ(rows[0].get("value"), Value::binary(std::string("\xff\x01", 2)));
  EXPECT_EQ(rows[0].get("key"), Value::binary("k"));
}

// Regression max_offsets_per_trigger_split_unlike_spark: the limit used to be spread with its
// rounding remainder given to the first partitions (10 of 15 records: 4, 3, 3). Spark's
// KafkaMicroBatchStream.rateLimit rounds each partition's share down: 3, 3, 3 -- nine records.
TEST(KafkaSource, MaxOffsetsPerTriggerSplitUnlikeSparkRegression) {
  KafkaRun run;
  ASSERT_TRUE(run.log->createTopic("t", {3, 0}).ok());
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < 5; ++i)
      ASSERT_TRUE(run.log->produce("t", std::nullopt, "v" + std::to_string(p) + std::to_string(i), kStart, p).ok());
  ASSERT_TRUE(run.start({{"subscribe", "t"}, {"startingOffsets", "earliest"}, {"maxOffsetsPerTrigger", "10"}}).ok());
  ASSERT_TRUE(run.runAvailable().ok());
  std::vector<int64_t> inputRows;
  for (const QueryProgress& p : run.sim.query()->recentProgress()) inputRows.push_back(p.numInputRows);
  EXPECT_EQ(inputRows, (std::vector<int64_t>{9, 6}));
  EXPECT_EQ(run.rows().size(), 15u);
}

}  // namespace
}  // namespace streamsim::harness
