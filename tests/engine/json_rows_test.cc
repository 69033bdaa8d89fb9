#include "streamsim/io/json_rows.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace streamsim {
namespace {

SchemaPtr schemaOf(std::string_view ddl) {
  auto s = parseSchema(ddl);
  EXPECT_TRUE(s.ok()) << s.status().toString();
  return *s;
}

TEST(JsonRows, ParsesTypedColumnsAndIgnoresUnknownKeys) {
  auto schema = schemaOf("id string, n long, i int, d double, b boolean, t timestamp");
  auto rows = parseJsonLines(
      R"({"id":"a","n":5,"i":7,"d":1.5,"b":true,"t":"2026-01-01T00:00:00Z","extra":[1,2]})"
      "\n",
      schema);
  ASSERT_TRUE(rows.ok()) << rows.status().toString();
  ASSERT_EQ(rows->size(), 1u);
  const Row& r = (*rows)[0];
  EXPECT_EQ(r.get("id"), Value("a"));
  EXPECT_EQ(r.get("n").type(), Type::kLong);
  EXPECT_EQ(r.get("n").asLong(), 5);
  EXPECT_EQ(r.get("i").type(), Type::kInt);
  EXPECT_EQ(r.get("d").asDouble(), 1.5);
  EXPECT_TRUE(r.get("b").asBool());
  EXPECT_EQ(r.get("t").type(), Type::kTimestamp);
  EXPECT_EQ(r.get("t").asLong(), *parseTimestamp("2026-01-01T00:00:00Z"));
}

TEST(JsonRows, NumericTimestampIsEpochSecondsLikeSpark) {
  auto rows = parseJsonLines(R"({"t":1700000000})", schemaOf("t timestamp"));
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0].get("t").asLong(), int64_t{1700000000} * 1000);
}

TEST(JsonRows, MissingAndNullKeysAreNull) {
  auto rows = parseJsonLines(R"({"a":null})", schemaOf("a long, b string"));
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE((*rows)[0].get("a").isNull());
  EXPECT_TRUE((*rows)[0].get("b").isNull());
}

TEST(JsonRows, NonStringTokensInStringColumnKeepTheirJsonText) {
  auto rows = parseJsonLines(R"({"s":{"x":[1, 2.50, "q"],"y":null}, "n":3})", schemaOf("s string, n string"));
  ASSERT_TRUE(rows.ok()) << rows.status().toString();
  EXPECT_EQ((*rows)[0].get("s"), Value(R"({"x":[1,2.50,"q"],"y":null})"));
  EXPECT_EQ((*rows)[0].get("n"), Value("3"));
}

TEST(JsonRows, BlankLinesAndCrlfAreSkipped) {
  auto rows = parseJsonLines("{\"a\":1}\r\n\n   \n{\"a\":2}", schemaOf("a long"));
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[1].get("a").asLong(), 2);
}

TEST(JsonRows, PermissiveGivesNullsAndTheRawLineInCorruptRecord) {
  auto schema = schemaOf("a long, _corrupt_record string");
  auto rows = parseJsonLines("{\"a\":1}\n{\"a\":\"x\"}\n{broken\n", schema);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_TRUE((*rows)[0].get("_corrupt_record").isNull());
  EXPECT_TRUE((*rows)[1].get("a").isNull());
  EXPECT_EQ((*rows)[1].get("_corrupt_record"), Value("{\"a\":\"x\"}"));
  EXPECT_EQ((*rows)[2].get("_corrupt_record"), Value("{broken"));
}

TEST(JsonRows, PermissiveWithoutCorruptColumnGivesAllNullRow) {
  auto rows = parseJsonLines("[1,2]\n", schemaOf("a long"));
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_TRUE((*rows)[0].get("a").isNull());
}

TEST(JsonRows, DropMalformedDropsBadLines) {
  JsonReadOptions opts;
  opts.mode = ParseMode::kDropMalformed;
  JsonParseStats stats;
  auto parser = JsonRowParser::make(schemaOf("a int"), opts);
  ASSERT_TRUE(parser.ok());
  std::vector<Row> out;
  ASSERT_TRUE(parser->parseLines("{\"a\":1}\n{\"a\":1.5}\n{\"a\":99999999999}\n7\n{\"a\":4}", "f", out, &stats).ok());
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].get("a").asLong(), 4);
  EXPECT_EQ(stats.malformed, 3);
  EXPECT_EQ(stats.lines, 5);
}

TEST(JsonRows, FailFastNamesFileLineAndContent) {
  JsonReadOptions opts;
  opts.mode = ParseMode::kFailFast;
  auto rows = parseJsonLines("{\"t\":\"2026-01-01T00:00:00Z\"}\n\n{\"t\":\"yesterday\"}\n",
                             schemaOf("t timestamp"), opts, "/landing/a.json");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), Status::Code::kInvalidArgument);
  const std::string& m = rows.status().message();
  EXPECT_NE(m.find("/landing/a.json:3"), std::string::npos) << m;
  EXPECT_NE(m.find("{\"t\":\"yesterday\"}"), std::string::npos) << m;
  EXPECT_NE(m.find("FAILFAST"), std::string::npos) << m;
}

TEST(JsonRows, CorruptRecordColumnMustBeString) {
  auto p = JsonRowParser::make(schemaOf("a long, _corrupt_record long"));
  EXPECT_FALSE(p.ok());
}

TEST(JsonRows, ModeNamesParseCaseInsensitively) {
  EXPECT_EQ(*parseParseMode("failFast"), ParseMode::kFailFast);
  EXPECT_EQ(*parseParseMode("DROPMALFORMED"), ParseMode::kDropMalformed);
  EXPECT_FALSE(parseParseMode("lenient").ok());
}

TEST(JsonRows, DoubleAcceptsNonNumericStrings) {
  auto rows = parseJsonLines(R"({"d":"NaN"})" "\n" R"({"d":"-Infinity"})", schemaOf("d double"));
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(std::isnan((*rows)[0].get("d").asDouble()));
  EXPECT_TRUE(std::isinf((*rows)[1].get("d").asDouble()));
}

// Spark's JSON reader defaults (JSONOptions: allowSingleQuotes, allowNonNumericNumbers true).
// Bug: {'a':'x'}, NaN and -Infinity were malformed records here and rows in Spark.
TEST(JsonRows, SparksDefaultsSingleQuotesAndNonNumericNumbersAreRows) {
  auto schema = schemaOf("a string, d double, n long");
  JsonReadOptions failFast;
  failFast.mode = ParseMode::kFailFast;
  auto rows = parseJsonLines("{'a':'x','d':NaN}\n"
                             "{\"a\":'it\\'s \"q\"','d':-Infinity}\n"
                             "{'a':'y','d':+INF,'n':3}\n"
                             "{\"a\":\"Infinity\",\"d\":Infinity}\n",
                             schema, failFast, "spark.json");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 4u);
  EXPECT_EQ((*rows)[0].get("a").asString(), "x");
  EXPECT_TRUE(std::isnan((*rows)[0].get("d").asDouble()));
  EXPECT_EQ((*rows)[1].get("a").asString(), "it's \"q\"");
  EXPECT_EQ((*rows)[1].get("d").asDouble(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ((*rows)[2].get("d").asDouble(), std::numeric_limits<double>::infinity());
  EXPECT_EQ((*rows)[2].get("n").asLong(), 3);
  EXPECT_EQ((*rows)[3].get("a").asString(), "Infinity");  // a string's content is never rewritten
  // Still malformed as in Spark: NaN into a long column, an unterminated quote, other bare words.
  for (std::string bad : {"{'n':NaN}", "{'a':'x}", "{\"a\":nan}", "{\"a\":Inf}"}) {
    auto r = parseJsonLines(bad, schema, failFast, "bad.json");
    EXPECT_FALSE(r.ok()) << bad;
  }
}

// What the files sink writes for NaN and the infinities ("NaN", "Infinity", "-Infinity", as
// Spark's writer) reads back as the same doubles. Bug: they were written as null.
TEST(JsonRows, NonFiniteDoublesRoundTripAsSparkWritesThem) {
  auto schema = schemaOf("d double");
  std::vector<Row> rows{Row(schema, {Value(std::numeric_limits<double>::quiet_NaN())}),
                        Row(schema, {Value(std::numeric_limits<double>::infinity())}),
                        Row(schema, {Value(-std::numeric_limits<double>::infinity())})};
  std::string text = toJsonLines(rows);
  EXPECT_EQ(text, "{\"d\":\"NaN\"}\n{\"d\":\"Infinity\"}\n{\"d\":\"-Infinity\"}\n");
  auto back = parseJsonLines(text, schema);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->size(), 3u);
  EXPECT_TRUE(std::isnan((*back)[0].get("d").asDouble()));
  EXPECT_EQ((*back)[1].get("d").asDouble(), std::numeric_limits<double>::infinity());
  EXPECT_EQ((*back)[2].get("d").asDouble(), -std::numeric_limits<double>::infinity());
}

TEST(JsonRows, WriteThenReadRoundTrips) {
  auto schema = schemaOf("id string, n long, t timestamp, d double");
  std::vector<Row> rows{Row(schema, {Value("a\"b"), Value(int64_t{3}), Value::timestamp(1500), Value(2.25)}),
                        Row(schema, {Value("c"), Value(), Value::timestamp(0), Value(0.5)})};
  std::string text = toJsonLines(rows);
  auto back = parseJsonLines(text, schema);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0], rows[0]);
  EXPECT_EQ((*back)[1], rows[1]);
}

// Flat lines of plain values take a fast reader; everything else (escapes, non-ASCII, nesting,
// fractions, big numbers, syntax errors) the general parser. Both must give the same rows: these
// lines sit on either side of the fast reader's limits.
TEST(JsonRows, FlatLinesAndTheirNearMissesParseAlike) {
  auto schema = schemaOf("s string, n long, i int, b boolean, _corrupt_record string");
  struct Case {
    std::string line;
    std::string expected;  // Row::toString
  };
  auto bad = [](std::string_view line) {
    return "s=null, n=null, i=null, b=null, _corrupt_record=" + std::string(line);
  };
  const std::vector<Case> cases = {
      {R"({"s":"x","n":12,"i":-3,"b":false})", "s=x, n=12, i=-3, b=false, _corrupt_record=null"},
      {"  { \"s\" : \"x\" ,\t\"n\" : -0 }  ", "s=x, n=0, i=null, b=null, _corrupt_record=null"},
      {R"({})", "s=null, n=null, i=null, b=null, _corrupt_record=null"},
      {R"({"s":5,"b":true})", "s=5, n=null, i=null, b=true, _corrupt_record=null"},
      {R"({"s":-5})", "s=-5, n=null, i=null, b=null, _corrupt_record=null"},
      {R"({"s":true,"n":null})", "s=true, n=null, i=null, b=null, _corrupt_record=null"},
      {R"({"s":"a\u0041\t"})", "s=aA\t, n=null, i=null, b=null, _corrupt_record=null"},
      {"{\"s\":\"\xC3\xA9\"}", "s=\xC3\xA9, n=null, i=null, b=null, _corrupt_record=null"},
      {R"({"s":[1,{"a":2}]})", R"(s=[1,{"a":2}], n=null, i=null, b=null, _corrupt_record=null)"},
      {R"({"n":999999999999999999})",
       "s=null, n=999999999999999999, i=null, b=null, _corrupt_record=null"},
      {R"({"n":1234567890123456789})",
       "s=null, n=1234567890123456789, i=null, b=null, _corrupt_record=null"},
      {R"({"n":-9223372036854775808})",
       "s=null, n=-9223372036854775808, i=null, b=null, _corrupt_record=null"},
      {R"({"n":5,"n":6})", "s=null, n=6, i=null, b=null, _corrupt_record=null"},
      {R"({"other":"y","n":1})", "s=null, n=1, i=null, b=null, _corrupt_record=null"},
      {R"({"n":9223372036854775808})", bad(R"({"n":9223372036854775808})")},
      {R"({"i":2147483648})", bad(R"({"i":2147483648})")},
      {R"({"n":1.0})", bad(R"({"n":1.0})")},
      {R"({"n":1e2})", bad(R"({"n":1e2})")},
      {R"({"n":01})", bad(R"({"n":01})")},
      {R"({"n":-})", bad(R"({"n":-})")},
      {R"({"n":"5"})", bad(R"({"n":"5"})")},
      {R"({"b":1})", bad(R"({"b":1})")},
      {R"({"n":5}x)", bad(R"({"n":5}x)")},
      {R"({"n":5}{})", bad(R"({"n":5}{})")},
      {R"({"n":5x})", bad(R"({"n":5x})")},
      {R"({"s":"x")", bad(R"({"s":"x")")},
      {R"({"s" "x"})", bad(R"({"s" "x"})")},
      {R"({"s":"x",})", bad(R"({"s":"x",})")},
      {R"({"s":tru})", bad(R"({"s":tru})")},
      {R"({"s":nulls})", bad(R"({"s":nulls})")},
      // Spark's allowSingleQuotes (default true): a row.
      {R"({'s':1})", "s=1, n=null, i=null, b=null, _corrupt_record=null"},
      {R"([1])", bad(R"([1])")},
      {R"("s")", bad(R"("s")")},
  };
  for (const Case& c : cases) {
    auto rows = parseJsonLines(c.line, schema);
    ASSERT_TRUE(rows.ok()) << c.line << ": " << rows.status().toString();
    ASSERT_EQ(rows->size(), 1u) << c.line;
    EXPECT_EQ((*rows)[0].toString(), c.expected) << c.line;
  }
}

// Parses each line alone and all of them as one file, expects the same rows both ways, and
// gives the rows of the alone parses as text (for spot checks).
void expectTogetherAsAlone(const std::vector<std::string>& lines, const SchemaPtr& schema,
                           std::vector<std::string>& alone) {
  std::string all;
  for (const std::string& line : lines) {
    all += line + "\n";
    auto rows = parseJsonLines(line, schema);
    ASSERT_TRUE(rows.ok()) << line;
    ASSERT_EQ(rows->size(), 1u);
    alone.push_back((*rows)[0].toString());
  }
  auto together = parseJsonLines(all, schema);
  ASSERT_TRUE(together.ok());
  ASSERT_EQ(together->size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i) EXPECT_EQ((*together)[i].toString(), alone[i]) << lines[i];
}

// Lines read together give the rows they give one by one: the columns remembered from earlier
// lines' key order must not leak into a line with other keys, and a special byte anywhere in a
// string (inside or after an 8-byte block) is seen.
TEST(JsonRows, LinesReadTogetherParseAsReadAlone) {
  auto schema = schemaOf("a string, b long, c string, _corrupt_record string");
  std::vector<std::string> lines = {
      R"({"a":"x","b":1,"c":"y"})", R"({"b":2,"a":"x2","c":"y2"})", R"({"c":"z","a":"w"})",
      R"({"zz":"q","a":"v","b":3})", R"({"a":"x","b":1,"c":"y"})", R"({"b":4})",
      R"({"a":"x","a":"again","b":5})", R"({"c":"c","b":6,"a":"a"})",
  };
  const std::string specials[] = {"\"", "\\", "\\\"", "\t", "\x01", "\xC3\xA9", "\xFF", "\x7F"};
  for (const std::string& special : specials) {
    for (size_t before = 0; before <= 18; ++before) {
      std::string text = std::string(before, 'p') + special + std::string(19 - before, 's');
      lines.push_back("{\"a\":\"" + text + "\",\"b\":7}");
      lines.push_back("{\"c\":\"" + text + "\"}");
    }
  }
  std::vector<std::string> alone;
  ASSERT_NO_FATAL_FAILURE(expectTogetherAsAlone(lines, schema, alone));
  // Spot checks that the alone parses are the right ones.
  EXPECT_EQ(alone[1], "a=x2, b=2, c=y2, _corrupt_record=null");
  EXPECT_EQ(alone[3], "a=v, b=3, c=null, _corrupt_record=null");
  EXPECT_EQ(alone[6], "a=again, b=5, c=null, _corrupt_record=null");
}

// The fast reader matches a key against the name the same key position had on the lines before,
// as bytes: a key that only starts like that name, one cut short, one with an escape, or a
// column name that is not plain (a quote, a backslash, non-ASCII) still reads as it reads alone.
TEST(JsonRows, KeysMatchedAgainstTheLinesBeforeParseAsAlone) {
  auto schema = makeSchema({Field{"a", Type::kString, true, nullptr}, Field{"ab", Type::kLong, true, nullptr},
                            Field{"q\"x", Type::kString, true, nullptr}, Field{"b\\s", Type::kString, true, nullptr},
                            Field{"\xC3\xA9", Type::kString, true, nullptr}, Field{"_corrupt_record", Type::kString, true, nullptr}});
  const std::vector<std::string> lines = {
      R"({"a":"1","ab":2})", R"({"ab":3,"a":"4"})", R"({"a":"5","ab":6})", R"({"a":"7","a":8})",
      R"({"a":"9","ab)", R"({"a":"9","a)", R"({"a)", R"({"a":"10","a\u0062":11})",
      R"({"a\"":"12"})", R"({"q\"x":"13","b\\s":"14"})", R"({"q\"x":"15","b\\s":"16"})",
      R"({"q"x":"bad"})", R"({"q":"17","b":"18"})", "{\"\xC3\xA9\":\"19\"}", "{\"\xC3\xA9\":\"20\"}",
      R"({"a":"21","ab":22})", R"({"a" :"23", "ab" :24})", R"({"":"25","ab":26})",
  };
  std::vector<std::string> alone;
  ASSERT_NO_FATAL_FAILURE(expectTogetherAsAlone(lines, schema, alone));
  EXPECT_EQ(alone[1], "a=4, ab=3, q\"x=null, b\\s=null, \xC3\xA9=null, _corrupt_record=null");
  EXPECT_EQ(alone[7], "a=10, ab=11, q\"x=null, b\\s=null, \xC3\xA9=null, _corrupt_record=null");
  EXPECT_EQ(alone[9], "a=null, ab=null, q\"x=13, b\\s=14, \xC3\xA9=null, _corrupt_record=null");
  EXPECT_EQ(alone[11], R"(a=null, ab=null, q"x=null, b\s=null, )"
                       "\xC3\xA9=null, _corrupt_record={\"q\"x\":\"bad\"}");
  EXPECT_EQ(alone[14], "a=null, ab=null, q\"x=null, b\\s=null, \xC3\xA9=20, _corrupt_record=null");
}

// A timestamp string read by the fast reader (parsed in place) gives the value or the error the
// general parser gives (a trailing nested value sends a line to the general parser).
TEST(JsonRows, TimestampStringsReadAlikeByBothReaders) {
  auto schema = schemaOf("t timestamp, n long");
  for (std::string t : {"2026-01-01T00:00:00Z", "2026-01-01T00:00:00.123Z", "2026-01-01 00:00:00",
                        "", "nope", "2026-13-01T00:00:00Z", "1970-01-01T00:00:00Z"}) {
    const std::string flat = "{\"t\":\"" + t + "\",\"n\":1}";
    const std::string general = "{\"t\":\"" + t + "\",\"n\":1,\"x\":[1]}";
    auto a = parseJsonLines(flat, schema, JsonReadOptions{ParseMode::kFailFast});
    auto b = parseJsonLines(general, schema, JsonReadOptions{ParseMode::kFailFast});
    ASSERT_EQ(a.ok(), b.ok()) << t;
    if (a.ok()) {
      EXPECT_EQ((*a)[0].toString(), (*b)[0].toString()) << t;
    } else {
      // The messages quote the line; compare the reasons.
      std::string ma = a.status().message(), mb = b.status().message();
      EXPECT_EQ(ma.substr(0, ma.find(": {")), mb.substr(0, mb.find(": {"))) << t;
    }
  }
}

// A line the fast reader gives up on half-way is read again by the general parser, which also
// words the error of a malformed one.
TEST(JsonRows, LinesTheFastReaderGivesUpOnAreReadByTheGeneralParser) {
  auto rows = parseJsonLines(R"({"n":1,"s":"\u0062"})", schemaOf("n long, s string"));
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0].toString(), "n=1, s=b");
  auto failed = parseJsonLines(R"({"n":1,"s":"\u0062",})", schemaOf("n long, s string"),
                               JsonReadOptions{ParseMode::kFailFast});
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("invalid JSON at column"), std::string::npos)
      << failed.status().toString();
}

// JSONOptions' timestampFormat / dateFormat (JacksonParser.makeConverter): a pattern given is the
// only way a string is read unless enableDateTimeParsingFallback says otherwise; without one the
// lenient parse stands, and a date string of an integer that is no date is days since the epoch
// (Spark 1.5).
TEST(JsonRows, TimestampFormatAndDateFormatAsJacksonParser) {
  auto schema = schemaOf("t timestamp, d date");
  auto opts = jsonReadOptions({{"timestampFormat", "dd/MM/yyyy HH:mm"}, {"DATEFORMAT", "yyyyMMdd"}},
                              JsonReadOptions{ParseMode::kFailFast});
  ASSERT_TRUE(opts.ok()) << opts.status().message();
  // Both readers (the flat line and the general parser: a trailing nested value) read alike.
  for (std::string tail : {"", ",\"x\":[1]"}) {
    auto rows = parseJsonLines("{\"t\":\"05/01/2026 13:45\",\"d\":\"20260105\"" + tail + "}", schema, *opts);
    ASSERT_TRUE(rows.ok()) << rows.status().message();
    EXPECT_EQ((*rows)[0][0], Value::timestamp(1767620700000)) << tail;  // 2026-01-05T13:45:00Z
    EXPECT_EQ((*rows)[0][1], Value::date(20458)) << tail;
    // No fallback with a pattern: the ISO text every reader takes is malformed here.
    auto iso = parseJsonLines("{\"t\":\"2026-01-05T13:45:00Z\"" + tail + "}", schema, *opts);
    EXPECT_FALSE(iso.ok()) << tail;
    auto isoDate = parseJsonLines("{\"d\":\"2026-01-05\"" + tail + "}", schema, *opts);
    EXPECT_FALSE(isoDate.ok()) << tail;
  }
  // enableDateTimeParsingFallback=true: the lenient parse after the pattern.
  auto fallback = jsonReadOptions({{"timestampFormat", "dd/MM/yyyy HH:mm"}, {"dateFormat", "yyyyMMdd"},
                                   {"enableDateTimeParsingFallback", "TRUE"}},
                                  JsonReadOptions{ParseMode::kFailFast});
  ASSERT_TRUE(fallback.ok());
  auto rows = parseJsonLines(R"({"t":"2026-01-05T13:45:00Z","d":"2026-01-05"})", schema, *fallback);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0][0], Value::timestamp(1767620700000));
  EXPECT_EQ((*rows)[0][1], Value::date(20458));
  // No pattern: the fallback is on; an integer string that is not a date (stringToDate takes 4
  // to 7 year digits: "20458" is the year 20458) is days since the epoch.
  rows = parseJsonLines(R"({"d":"123"})", schema, JsonReadOptions{ParseMode::kFailFast});
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0][1], Value::date(123));
  // Bad option values are errors naming the option.
  auto bad = jsonReadOptions({{"timestampFormat", "yyyy-bb"}});
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("json option timestampFormat"), std::string::npos)
      << bad.status().message();
  EXPECT_FALSE(jsonReadOptions({{"enableDateTimeParsingFallback", "yes"}}).ok());
}

// Fix json_permissive_nulls_every_field_unlike_spark: PERMISSIVE kept no field of a record with
// one value that does not cast; Spark's JacksonParser keeps the others (convertObject at the
// root, PartialResultException; FailureSafeParser), and inside a struct column the struct with
// the bad field null (spark.sql.json.enablePartialResults, true since 4.0). An array element
// that does not cast nulls the whole array (convertArray does not catch it). A line that is not
// JSON has no partial result.
TEST(JsonRows, JsonPermissiveNullsEveryFieldUnlikeSparkRegression) {
  auto schema = schemaOf("id string, n int, t timestamp, s struct<a:int,b:string>, xs array<int>, _corrupt_record string");
  const std::string line =
      R"({"id":"a","n":"seven","t":"2026-01-05T13:45:00Z","s":{"a":"x","b":"y"},"xs":[1,"two"]})";
  for (std::string l : {line, std::string(R"({"id":"b","n":{"deep":[1]},"t":"nope"})")}) {
    auto rows = parseJsonLines(l, schema);
    ASSERT_TRUE(rows.ok()) << rows.status().message();
    ASSERT_EQ(rows->size(), 1u);
    const Row& r = (*rows)[0];
    EXPECT_EQ(r[5], Value(l)) << l;  // the record is still malformed
    EXPECT_TRUE(r[1].isNull()) << l;
    if (l == line) {
      EXPECT_EQ(r[0], Value("a"));
      EXPECT_EQ(r[2], Value::timestamp(1767620700000));
      ASSERT_EQ(r[3].type(), Type::kStruct);
      EXPECT_TRUE(r[3].items()[0].isNull());
      EXPECT_EQ(r[3].items()[1], Value("y"));
      EXPECT_TRUE(r[4].isNull());
    } else {
      EXPECT_EQ(r[0], Value("b"));  // the skipped container did not stop the record
      EXPECT_TRUE(r[2].isNull());
    }
  }
  // Not a JSON object: every field null.
  auto rows = parseJsonLines(R"({"id":"c","n":)", schema);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE((*rows)[0][0].isNull());
  // DROPMALFORMED drops a partial record; FAILFAST names the first bad field.
  rows = parseJsonLines(line, schema, JsonReadOptions{ParseMode::kDropMalformed});
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
  rows = parseJsonLines(line, schema, JsonReadOptions{ParseMode::kFailFast});
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(std::string(rows.status().message()).find("field 'n'"), std::string::npos) << rows.status().message();
}

}  // namespace
}  // namespace streamsim
