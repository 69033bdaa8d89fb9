// ParsedFiles (io/parsed_files.h): a file read again takes the rows of its first read, and only
// when that read would give the same rows — same bytes, same reader configuration, equal schema.
#include "streamsim/io/parsed_files.h"

#include <gtest/gtest.h>

#include "streamsim/io/file_source.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim {
namespace parsed_files_test {

SchemaPtr schemaOf(std::string_view ddl) { return *parseSchema(ddl); }

std::vector<Row> rowsOf(const SchemaPtr& schema, std::initializer_list<std::vector<Value>> values) {
  std::vector<Row> out;
  for (const auto& v : values) out.emplace_back(schema, v);
  return out;
}

TEST(ParsedFilesTest, FindsWhatWasKeptForTheSameBytesReaderAndSchema) {
  ParsedFiles kept;
  const SchemaPtr schema = schemaOf("id string, n bigint");
  const std::vector<Row> rows = rowsOf(schema, {{Value("a"), Value(int64_t{1})}, {Value("b"), Value()}});
  std::vector<Row> out;
  EXPECT_FALSE(kept.find("json", schema, "content", out));
  kept.keep("json", schema, "content", rows);
  EXPECT_EQ(kept.files(), 1u);

  out.emplace_back(schema, std::vector<Value>{Value("before"), Value()});
  const SchemaPtr equal = schemaOf("id string, n bigint");  // another object, equal
  ASSERT_TRUE(kept.find("json", equal, "content", out));
  ASSERT_EQ(out.size(), 3u);  // appended after what was there
  EXPECT_EQ(out[1], rows[0]);
  EXPECT_EQ(out[2], rows[1]);
  EXPECT_EQ(out[1].schema(), equal) << "the caller's schema object, as its own parse gives";
  EXPECT_EQ(kept.hits(), 1);
}

TEST(ParsedFilesTest, AnotherReaderSchemaOrContentIsNotFound) {
  ParsedFiles kept;
  const SchemaPtr schema = schemaOf("id string");
  kept.keep("json|PERMISSIVE", schema, "{\"id\":\"a\"}\n", rowsOf(schema, {{Value("a")}}));
  std::vector<Row> out;
  EXPECT_FALSE(kept.find("json|DROPMALFORMED", schema, "{\"id\":\"a\"}\n", out));
  EXPECT_FALSE(kept.find("json|PERMISSIVE", schemaOf("id int"), "{\"id\":\"a\"}\n", out));
  EXPECT_FALSE(kept.find("json|PERMISSIVE", schema, "{\"id\":\"b\"}\n", out));
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(kept.hits(), 0);
}

// The lookup key samples a long file's bytes; two files that agree on every sampled byte are
// still told apart by the full comparison.
TEST(ParsedFilesTest, FilesAlikeInTheSampledBytesAreToldApart) {
  ParsedFiles kept;
  const SchemaPtr schema = schemaOf("id string");
  std::string a(10'000, 'x');
  std::string b = a;
  b[5'100] = 'y';  // in none of the sampled words (eight bytes at every 624th)
  kept.keep("json", schema, a, rowsOf(schema, {{Value("a")}}));
  std::vector<Row> out;
  EXPECT_FALSE(kept.find("json", schema, b, out));
  kept.keep("json", schema, b, rowsOf(schema, {{Value("b")}}));
  ASSERT_TRUE(kept.find("json", schema, b, out));
  ASSERT_TRUE(kept.find("json", schema, a, out));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0][0].asString(), "b");
  EXPECT_EQ(out[1][0].asString(), "a");
}

TEST(ParsedFilesTest, KeepsNothingPastItsCapacity) {
  const SchemaPtr schema = schemaOf("id string");
  ParsedFiles none(0);
  none.keep("json", schema, "x", rowsOf(schema, {{Value("a")}}));
  std::vector<Row> out;
  EXPECT_FALSE(none.find("json", schema, "x", out));

  ParsedFiles small(4'096);
  small.keep("json", schema, std::string(1'000, 'a'), rowsOf(schema, {{Value("a")}}));
  small.keep("json", schema, std::string(5'000, 'b'), rowsOf(schema, {{Value("b")}}));
  EXPECT_EQ(small.files(), 1u);
  EXPECT_LE(small.bytes(), 4'096u);
  EXPECT_TRUE(small.find("json", schema, std::string(1'000, 'a'), out));
  EXPECT_FALSE(small.find("json", schema, std::string(5'000, 'b'), out));
}

// The file source through an Env with ParsedFiles, as the runs of one sweep seed read one input:
// each run's source is a new object, its rows those of a parse of its own.
class ParsedFilesSourceTest : public ::testing::Test {
 protected:
  sim::VirtualClock clock{0};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  ParsedFiles kept;
  Env env{&clock, &fs, &ids};
  SchemaPtr schema = schemaOf("id string, n bigint, _corrupt_record string");

  // One run's first batch over the landing folder `in` (a checkpoint of its own).
  Result<std::vector<Row>> read(const std::string& in, const std::map<std::string, std::string>& options,
                                bool withCache = true) {
    env.parsedFiles = withCache ? &kept : nullptr;
    auto o = FileSourceOptions::fromMap(in, schema, options);
    if (!o.ok()) return o.status();
    FileSource src(*o);
    SourceContext c;
    c.env = &env;
    c.checkpointRoot = "/chk" + std::to_string(runs_++);
    c.sourceIndex = 0;
    c.batchId = 0;
    c.firstBatchOfRun = true;
    STREAMSIM_RETURN_IF_ERROR(src.restore(c, std::nullopt));
    STREAMSIM_ASSIGN_OR_RETURN(auto end, src.latestOffset(c, std::nullopt));
    if (!end) return std::vector<Row>{};
    return src.getBatch(c, std::nullopt, *end);
  }

  int runs_ = 0;
};

TEST_F(ParsedFilesSourceTest, ARunAfterTheFirstTakesTheKeptRowsTheSameAsItsOwnParse) {
  const std::string text = "{\"id\":\"a\",\"n\":1}\n{\"id\":\"b\",\"n\":\"x\"}\nnot json\n";
  ASSERT_TRUE(fs.putDurable("/in/a.json", text).ok());
  auto parsed = read("/in", {}, /*withCache=*/false);
  ASSERT_TRUE(parsed.ok()) << parsed.status().toString();
  ASSERT_EQ(parsed->size(), 3u);

  auto first = read("/in", {});
  auto second = read("/in", {});
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(kept.hits(), 1);
  EXPECT_EQ(*first, *parsed);
  EXPECT_EQ(*second, *parsed);  // the corrupt record's raw line and its partial fields too
  EXPECT_EQ((*second)[2].get("_corrupt_record").asString(), "not json");

  // A renamed resend of the same bytes is the same read.
  ASSERT_TRUE(fs.putDurable("/moved/b.json", text).ok());
  auto moved = read("/moved", {});
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(kept.hits(), 2);
  EXPECT_EQ(*moved, *parsed);
}

TEST_F(ParsedFilesSourceTest, AnotherModeParsesAgain) {
  ASSERT_TRUE(fs.putDurable("/in/a.json", "{\"id\":\"a\"}\nnot json\n").ok());
  auto permissive = read("/in", {});
  auto dropping = read("/in", {{"mode", "DROPMALFORMED"}});
  ASSERT_TRUE(permissive.ok() && dropping.ok());
  EXPECT_EQ(kept.hits(), 0);
  EXPECT_EQ(permissive->size(), 2u);
  EXPECT_EQ(dropping->size(), 1u);
}

// A read that fails is not kept: every run reports it, with its own file's name and line.
TEST_F(ParsedFilesSourceTest, AFailedReadFailsAgainWithItsFileName) {
  const std::string text = "{\"id\":\"a\"}\nnot json\n";
  ASSERT_TRUE(fs.putDurable("/in/a.json", text).ok());
  ASSERT_TRUE(fs.putDurable("/other/b.json", text).ok());
  auto first = read("/in", {{"mode", "FAILFAST"}});
  auto second = read("/other", {{"mode", "FAILFAST"}});
  ASSERT_FALSE(first.ok());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(first.status().message().find("/in/a.json:2"), std::string::npos) << first.status().toString();
  EXPECT_NE(second.status().message().find("/other/b.json:2"), std::string::npos) << second.status().toString();
  EXPECT_EQ(kept.files(), 0u);
}

}  // namespace parsed_files_test
}  // namespace streamsim
