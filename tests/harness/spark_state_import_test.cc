// carrySparkTransformWithState (spark_state_import.h): rows of each transformWithState shape as
// the state reader decodes Spark's store — a ListState's list, a MapState's composite key
// {key, userKey} (TransformWithStateKeyValueRowSchemaUtils.getCompositeKeySchema), a value with
// TTL {value, ttlExpirationMs} (getValueSchemaWithTTL), a timer key {key, expiryTimestampMs}
// (TimerKeyEncoder.schemaForKeyRow) — carried into a simulated checkpoint and read back by the
// engine: a processor declaring those variables sees the values, the map entry, the expiry and the
// timer. The tws fixture's ValueState is carried end to end in checkpoint_replay_spark_test.cc.
// Bad rows: a field type the simulator has no value for, a key that is not the MapState shape, a
// column family no variable names.
#include "streamsim/harness/spark_state_import.h"

#include <gtest/gtest.h>

#include "streamsim/checkpoint/commit_log.h"
#include "streamsim/checkpoint/offset_log.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"
#include "test_registries.h"

namespace streamsim::harness {
namespace {

// Reads every carried variable of its key and emits what it sees.
class ReadCarried final : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& h) override {
    list_ = h.getListState<int64_t>("listVar");
    map_ = h.getMapState<std::string, int64_t>("mapVar");
    ttl_ = h.getValueState<int64_t>("ttlVar", TTLConfig{60'000});
  }
  void handleInputRows(const Row& key, RowRange, const TimerValues&, Output& out) override {
    std::string list;
    for (int64_t v : list_.get()) list += std::to_string(v) + ";";
    out.emit(Row{{"what", "list " + key[0].toString()}, {"v", list}});
    auto m = map_.getValue("x");
    out.emit(Row{{"what", "map x"}, {"v", m ? std::to_string(*m) : std::string("absent")}});
    auto t = ttl_.getTTLValue();
    out.emit(Row{{"what", "ttl"},
                 {"v", t ? std::to_string(t->first) + "@" + std::to_string(t->second.value_or(-1)) : "absent"}});
    std::string timers;
    for (TimeMs at : getHandle().listTimers()) timers += std::to_string(at) + ";";
    out.emit(Row{{"what", "timers"}, {"v", timers}});
  }

 private:
  ListState<int64_t> list_;
  MapState<std::string, int64_t> map_;
  ValueState<int64_t> ttl_;
};

SparkField field(std::string name, std::string typeJson) { return SparkField{std::move(name), std::move(typeJson), true}; }
const std::string kKeyStruct =
    R"({"type":"struct","fields":[{"name":"value","type":"string","nullable":true,"metadata":{}}]})";

SparkColumnFamilySchema family(std::string name, std::vector<SparkField> key, std::vector<SparkField> value) {
  SparkColumnFamilySchema cf;
  cf.name = std::move(name);
  cf.key = std::move(key);
  cf.value = std::move(value);
  return cf;
}

struct Carried {
  OperatorStores op;
  OperatorMetadata meta;
};

Carried sparkRows() {
  Carried c;
  c.meta.operatorName = "transformWithStateExec";
  c.meta.stateVariables = {{"listVar", "ListState", false}, {"mapVar", "MapState", false},
                           {"ttlVar", "ValueState", true}, {"$procTimers_keyToTimestamp", "TimerState", false}};
  auto& f = c.op.families;
  f["listVar"] = family("listVar", {field("value", "\"string\"")}, {field("value", "\"long\"")});
  f["mapVar"] = family("mapVar", {field("key", kKeyStruct),
                                  field("userKey", R"({"type":"struct","fields":[{"name":"value","type":"string"}]})")},
                       {field("value", "\"long\"")});
  f["ttlVar"] = family("ttlVar", {field("value", "\"string\"")},
                       {field("value", R"({"type":"struct","fields":[{"name":"value","type":"long"}]})"),
                        field("ttlExpirationMs", "\"long\"")});
  f["$procTimers_keyToTimestamp"] =
      family("$procTimers_keyToTimestamp", {field("key", kKeyStruct), field("expiryTimestampMs", "\"long\"")},
             {field("__dummy__", "\"null\"")});
  // Five partitions, as the operator metadata records them; "a" is in partition 0, where Spark's
  // hash partitioning put it in the fixture tws-valuestate-unsaferow-4.0 (the import checks it).
  c.meta.stateStores = {StateStoreMetadataInfo{"default", 0, 5, ""}};
  PartitionStore p;
  p.partition = 0;  // Spark's partition: the simulator places keys by its own hash
  p.rows = {{"listVar", R"({"value":"a"})", R"([{"value":1},{"value":2}])"},
            {"mapVar", R"({"key":{"value":"a"},"userKey":{"value":"x"}})", R"({"value":5})"},
            {"ttlVar", R"({"value":"a"})", R"({"value":{"value":7},"ttlExpirationMs":9000000})"},
            {"$procTimers_keyToTimestamp", R"({"key":{"value":"a"},"expiryTimestampMs":8000000})", R"({"__dummy__":null})"},
            {"$procTimers_timestampToKey", R"({"expiryTimestampMs":8000000,"key":{"value":"a"}})", R"({})"},
            {"$ttl_ttlVar", R"({"expirationMs":9000000,"elementKey":{"value":"a"}})", R"({})"}};
  c.op.partitions.push_back(p);
  return c;
}

TEST(SparkStateImport, EveryTransformWithStateShapeIsReadBackByTheEngine) {
  sim::VirtualClock clock(1'000'000);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(1);
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  Carried c = sparkRows();
  const Schema key({Field{"value", Type::kString}});
  for (StateStoreKind kind : {StateStoreKind::kMemory, StateStoreKind::kRocksDB}) {
    const std::string chk = std::string("/chk_") + std::string(stateStoreKindName(kind));
    auto carried = carrySparkTransformWithState(c.op, c.meta, "spark-chk", 0, key, 2, kind, env, chk);
    ASSERT_TRUE(carried.ok()) << carried.status().message();
    EXPECT_EQ(carried->rows, 4);  // two list elements, a map entry, a value
    EXPECT_EQ(carried->timers, 1);
    ASSERT_EQ(carried->variables.size(), 3u);
    EXPECT_EQ(carried->variables[1].keySchema, "value string");
    EXPECT_EQ(carried->variables[2].valueSchema, "value long");  // Spark's schema of a Long
    EXPECT_TRUE(carried->variables[2].ttlEnabled);
    // Batch 0 committed: its offsets (shuffle partitions 2, no source offset) and commit.
    OffsetSeq seq;
    seq.metadata.batchTimestampMs = 1'000'000;
    seq.metadata.conf["spark.sql.shuffle.partitions"] = "2";
    seq.offsets = {std::nullopt};
    ASSERT_TRUE(fs.putDurable(chk + "/offsets/0", OffsetLog::serialize(seq)).ok());
    ASSERT_TRUE(fs.putDurable(chk + "/commits/0", CommitLog::serialize(CommitMetadata{})).ok());
    auto data = std::make_shared<MemoryStreamData>(makeSchema({Field{"value", Type::kString}}));
    ASSERT_TRUE(data->addData({Row{{"value", "a"}}}).ok());
    auto sink = std::make_shared<MemorySinkData>();
    auto writer = readStream(makeMemorySource(data))
                      .groupBy({"value"})
                      .transformWithState(*::streamsim::test::testProcessors(), "test_read_carried", TimeMode::kProcessingTime, OutputMode::kUpdate)
                      .writeStream();
    writer.sink(makeMemorySink(sink)).outputMode(OutputMode::kUpdate).option("checkpointLocation", chk)
        .option("stateStore", std::string(stateStoreKindName(kind)));
    clock.advance(1'000);
    auto q = writer.start(env);
    ASSERT_TRUE(q.ok()) << q.status().message();
    auto ran = (*q)->triggerOnce();
    ASSERT_TRUE(ran.ok()) << ran.status().message();
    const auto* rows = sink->batch(1);
    ASSERT_NE(rows, nullptr);
    std::vector<std::string> seen;
    for (const Row& r : *rows) seen.push_back(r.toString());
    EXPECT_EQ(seen, (std::vector<std::string>{"what=list a, v=1;2;", "what=map x, v=5", "what=ttl, v=7@9000000",
                                              "what=timers, v=8000000;"}));
    (*q)->stop();
  }
}

TEST(SparkStateImport, RowsItCannotCarryAreRefusedNamingTheFamily) {
  sim::VirtualClock clock(0);
  sim::SimFileSystem fs(&clock);
  sim::SeededIdGenerator ids(1);
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  const Schema key({Field{"value", Type::kString}});
  auto errorOf = [&](const Carried& c) {
    auto r = carrySparkTransformWithState(c.op, c.meta, "spark-chk", 0, key, 2, StateStoreKind::kMemory, env, "/chk");
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  Carried c = sparkRows();
  c.op.families["listVar"].value = {field("value", "\"timestamp\"")};
  EXPECT_NE(errorOf(c).find("spark-chk/state/0 column family listVar: field value has Spark type \"timestamp\""),
            std::string::npos) << errorOf(c);
  c = sparkRows();
  c.op.partitions[0].rows[1].key = R"({"value":"a"})";
  EXPECT_NE(errorOf(c).find("spark-chk/state/0/0 column family mapVar: a MapState key is {key, userKey}"),
            std::string::npos) << errorOf(c);
  c = sparkRows();
  c.op.partitions[0].rows.push_back({"mystery", R"({"value":"a"})", R"({})"});
  EXPECT_NE(errorOf(c).find("column family mystery: a column family that is neither"), std::string::npos)
      << errorOf(c);
  // A key read from a partition Spark's hash partitioning does not give it: not as Spark wrote it.
  c = sparkRows();
  c.op.partitions[0].partition = 3;
  EXPECT_NE(errorOf(c).find("spark-chk/state/0/3 column family listVar: grouping key {\"value\":\"a\"} is in "
                            "partition 3, but Spark's hash partitioning (Murmur3 of the key, seed 42, pmod 5) puts it "
                            "in partition 0"),
            std::string::npos) << errorOf(c);
  c = sparkRows();
  c.op.partitions[0].error = "cannot read version 1: 1.zip has no metadata entry";
  EXPECT_NE(errorOf(c).find("spark-chk/state/0/0: cannot read version 1: 1.zip has no metadata entry"),
            std::string::npos) << errorOf(c);
}

}  // namespace
}  // namespace streamsim::harness

// This file's processors, handed to its runs next to the example ones (test_registries.h).
void streamsim::test::addTestProcessors(ProcessorSet& set) {
  set.add("test_read_carried", processorFactoryOf<harness::ReadCarried>());
}
