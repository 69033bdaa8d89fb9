// The console sink (io/console_sink.h): Spark's ConsoleWrite banner and Dataset.show's table,
// cell by cell as ToPrettyString renders it, and re-prints after a crash.
#include <gtest/gtest.h>

#include "streamsim/io/console_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/time.h"

namespace streamsim {
namespace {

SchemaPtr schemaOf(const char* ddl) { return *parseSchema(ddl); }

TEST(ConsoleSinkTest, ShowRightAlignsCellsAtLeastThreeWideAndPrintsNullAsNULL) {
  SchemaPtr s = schemaOf("key string, count long");
  std::vector<Row> rows = {Row(s, {Value("a"), Value(int64_t{3})}), Row(s, {Value("bb"), Value()})};
  EXPECT_EQ(showString(*s, rows, 20, true),
            "+---+-----+\n"
            "|key|count|\n"
            "+---+-----+\n"
            "|  a|    3|\n"
            "| bb| NULL|\n"
            "+---+-----+\n"
            "\n");
}

TEST(ConsoleSinkTest, TruncateCutsLongCellsTo17CharactersAndLeftAlignsWhenOff) {
  SchemaPtr s = schemaOf("s string");
  std::vector<Row> rows = {Row(s, {Value("abcdefghijklmnopqrstuvwxy")}), Row(s, {Value("x")})};
  EXPECT_EQ(showString(*s, rows, 20, true),
            "+--------------------+\n"
            "|                   s|\n"
            "+--------------------+\n"
            "|abcdefghijklmnopq...|\n"
            "|                   x|\n"
            "+--------------------+\n"
            "\n");
  EXPECT_EQ(showString(*s, rows, 20, false),
            "+-------------------------+\n"
            "|s                        |\n"
            "+-------------------------+\n"
            "|abcdefghijklmnopqrstuvwxy|\n"
            "|x                        |\n"
            "+-------------------------+\n"
            "\n");
}

TEST(ConsoleSinkTest, MoreRowsThanNumRowsEndWithOnlyShowingTopN) {
  SchemaPtr s = schemaOf("n long");
  std::vector<Row> rows = {Row(s, {Value(int64_t{1})}), Row(s, {Value(int64_t{2})})};
  EXPECT_EQ(showString(*s, rows, 1, true),
            "+---+\n|  n|\n+---+\n|  1|\n+---+\nonly showing top 1 row\n\n");
  std::vector<Row> three = {rows[0], rows[1], rows[1]};
  EXPECT_NE(showString(*s, three, 2, true).find("only showing top 2 rows\n"), std::string::npos);
}

TEST(ConsoleSinkTest, CellsAreRenderedAsSparkCastsThemToString) {
  SchemaPtr s = schemaOf("t timestamp, a double, b double, c double, d double, ok boolean");
  Row r(s, {Value::timestamp(*parseTimestamp("2026-01-01T10:00:00.250Z")), Value(1.5), Value(1e7),
            Value(100.0), Value(0.0001), Value(true)});
  std::string out = showString(*s, {r}, 20, false);  // untruncated: the timestamp is 22 wide
  EXPECT_NE(out.find("|2026-01-01 10:00:00.25|1.5|1.0E7|100.0|1.0E-4|true|"), std::string::npos) << out;
  EXPECT_NE(showString(*s, {r}, 20, true).find("|2026-01-01 10:00:...|"), std::string::npos);
  Row whole(s, {Value::timestamp(*parseTimestamp("2026-01-01T10:00:00Z")), Value(), Value(), Value(),
                Value(), Value()});
  EXPECT_NE(showString(*s, {whole}, 20, true).find("|2026-01-01 10:00:00|NULL|"), std::string::npos);
}

TEST(ConsoleSinkTest, FullWidthCharactersCountTwiceAndMetaCharactersAreEscaped) {
  SchemaPtr s = schemaOf("s string");
  std::vector<Row> rows = {Row(s, {Value("日本")}), Row(s, {Value("a\tb")})};
  EXPECT_EQ(showString(*s, rows, 20, true),
            "+----+\n|   s|\n+----+\n|日本|\n|a\\tb|\n+----+\n\n");
}

TEST(ConsoleSinkTest, EachBatchIsPrintedUnderItsBannerAndARerunPrintsAgain) {
  sim::VirtualClock clock{1'700'000'000'000};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env{&clock, &fs, &ids, nullptr, nullptr};
  SchemaPtr s = schemaOf("id string");
  auto input = std::make_shared<MemoryStreamData>(s);
  auto out = std::make_shared<ConsoleOutput>();
  ASSERT_TRUE(input->addData({Row(s, {Value("a")})}).ok());
  DataStreamWriter w = readStream(makeMemorySource(input)).writeStream();
  w.sink(makeConsoleSink(out)).option("checkpointLocation", "/chk");
  {
    auto q = w.start(env);
    ASSERT_TRUE(q.ok()) << q.status().toString();
    ASSERT_TRUE((*q)->processAllAvailable().ok());
  }
  const std::string batch0 =
      "-------------------------------------------\n"
      "Batch: 0\n"
      "-------------------------------------------\n"
      "+---+\n| id|\n+---+\n|  a|\n+---+\n\n";
  EXPECT_EQ(out->text(), batch0);
  // A driver that crashed after the sink but before commits/0 re-runs batch 0: printed again.
  ASSERT_TRUE(fs.remove("/chk/commits/0").ok());
  auto again = w.start(env);
  ASSERT_TRUE(again.ok()) << again.status().toString();
  ASSERT_TRUE((*again)->processAllAvailable().ok());
  ASSERT_EQ(out->printed().size(), 2u);
  EXPECT_EQ(out->printed()[1].batchId, 0);
  EXPECT_EQ(out->latestText(), out->printed()[1].text);
  EXPECT_EQ(out->text(), out->printed()[0].text + out->printed()[1].text);
}

}  // namespace
}  // namespace streamsim
