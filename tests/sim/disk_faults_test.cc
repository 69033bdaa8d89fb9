// I/O errors and a full disk on checkpoint writes: the query stops with a clear error, and a
// later restart (space freed) recovers with nothing lost and nothing doubled (issue 4).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/io/file_sink.h"
#include "streamsim/io/file_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/transform_with_state.h"
#include "test_registries.h"

namespace streamsim {
namespace {

using ::testing::HasSubstr;

class DiskFaults : public ::testing::TestWithParam<StateStoreKind> {
 protected:
  sim::VirtualClock clock{1'767'225'600'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{3};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  SchemaPtr schema = *parseSchema("id string, device string");

  DataStreamWriter writer() {
    FileSourceOptions opts;
    opts.path = "/landing";
    opts.schema = schema;
    opts.maxFilesPerTrigger = 1;
    TransformWithStateSpec spec;
    spec.groupBy = {"device"};
    spec.processorFactory = *::streamsim::test::testProcessors()->factory("count");
    spec.processorName = "count";
    spec.outputMode = OutputMode::kUpdate;
    auto w = readStream(*makeFileSource(opts))
                 .transform([spec] { return makeTransformWithState(spec); })
                 .writeStream();
    w.sink(makeFileSink("/out")).outputMode(OutputMode::kUpdate)
        .option("checkpointLocation", "/chk")
        .option("stateStore", std::string(stateStoreKindName(GetParam())))
        .option("spark.sql.shuffle.partitions", "2");
    return w;
  }
  void land(const std::string& name, const std::string& device) {
    clock.advance(1000);
    ASSERT_TRUE(fs.putDurable("/landing/" + name,
                              "{\"id\":\"" + name + "\",\"device\":\"" + device + "\"}\n").ok());
  }
  int64_t finalCount(const std::string& device) {
    auto rows = readFileSinkOutput(env, "/out", *parseSchema("device string, count long"));
    EXPECT_TRUE(rows.ok()) << rows.status().toString();
    int64_t best = 0;
    for (const auto& r : *rows)
      if (r.get("device").asString() == device) best = std::max(best, r.get("count").asLong());
    return best;
  }
  int rowsFor(const std::string& device) {
    auto rows = readFileSinkOutput(env, "/out", *parseSchema("device string, count long"));
    int n = 0;
    for (const auto& r : *rows) n += r.get("device").asString() == device;
    return n;
  }
};

TEST_P(DiskFaults, FullDiskStopsTheQueryWithAClearErrorAndRestartRecovers) {
  auto w = writer();
  land("a.json", "d1");
  {
    auto q = std::move(w.start(env)).value();
    ASSERT_TRUE(q->processAllAvailable().ok());
    land("b.json", "d1");
    land("c.json", "d1");
    fs.setCapacity(fs.totalBytes() + 40);  // room for almost nothing more
    Status st = q->processAllAvailable();
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), Status::Code::kNoSpace) << st.toString();
    EXPECT_THAT(st.message(), HasSubstr("no space left"));
    EXPECT_FALSE(q->isActive());
    EXPECT_EQ(q->exception().code(), Status::Code::kNoSpace);
  }
  fs.setCapacity(0);  // space freed
  auto q = std::move(w.start(env)).value();
  ASSERT_TRUE(q->processAllAvailable().ok());
  EXPECT_EQ(finalCount("d1"), 3);
  EXPECT_EQ(rowsFor("d1"), 3);  // one update row per batch, none doubled
}

TEST_P(DiskFaults, IoErrorOnCommitsWriteIsReportedAndRestartRerunsTheBatch) {
  auto w = writer();
  land("a.json", "d1");
  land("b.json", "d2");
  {
    auto q = std::move(w.start(env)).value();
    fs.failWrites("/chk/commits/", Status::IOError("injected: disk went away"), 1);
    Status st = q->processAllAvailable();
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), Status::Code::kIOError);
    EXPECT_THAT(st.message(), HasSubstr("disk went away"));
  }
  EXPECT_TRUE(fs.exists("/chk/offsets/0"));
  EXPECT_FALSE(fs.exists("/chk/commits/0"));
  auto q = std::move(w.start(env)).value();
  ASSERT_TRUE(q->processAllAvailable().ok());
  EXPECT_EQ(finalCount("d1"), 1);
  EXPECT_EQ(finalCount("d2"), 1);
  EXPECT_EQ(rowsFor("d1"), 1);
  EXPECT_TRUE(fs.exists("/chk/commits/1"));
}

INSTANTIATE_TEST_SUITE_P(Stores, DiskFaults,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
