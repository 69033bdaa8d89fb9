// Nested values (Spark's StructType, ArrayType, MapType): the DDL parser and printer, equality,
// order and hash, casts, the string and JSON forms, the JSON reader, and the order-preserving
// encoding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "streamsim/io/console_sink.h"
#include "streamsim/io/json_rows.h"
#include "streamsim/state/row_encoding.h"
#include "streamsim/value.h"

namespace streamsim {
namespace nested_types_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

using ::testing::HasSubstr;

SchemaPtr schemaOf(std::string_view ddl) {
  auto s = parseSchema(ddl);
  EXPECT_TRUE(s.ok()) << s.status().toString();
  return s.ok() ? *s : makeSchema({});
}

Value mapOf(std::vector<std::pair<Value, Value>> entries) {
  auto m = Value::mapOf(std::move(entries));
  EXPECT_TRUE(m.ok()) << m.status().toString();
  return *m;
}

TEST(NestedDdl, ParsesSparkComplexTypes) {
  auto s = schemaOf("s struct<a: int, b string NOT NULL>, xs ARRAY<long>, m Map<string,int>, "
                    "deep array<struct<k: map<string, array<double>>>>");
  ASSERT_EQ(s->size(), 4u);
  const Field& st = s->field(0);
  EXPECT_EQ(st.type, Type::kStruct);
  ASSERT_TRUE(st.nested);
  EXPECT_EQ(st.nested->field(0).name, "a");
  EXPECT_EQ(st.nested->field(0).type, Type::kInt);
  EXPECT_FALSE(st.nested->field(1).nullable);
  EXPECT_EQ(s->field(1).type, Type::kArray);
  EXPECT_EQ(s->field(1).nested->field(0).type, Type::kLong);
  EXPECT_TRUE(s->field(1).nested->field(0).nullable);  // containsNull
  EXPECT_EQ(s->field(2).type, Type::kMap);
  EXPECT_FALSE(s->field(2).nested->field(0).nullable);  // map keys never null
  EXPECT_EQ(s->toDDL(),
            "s struct<a: int, b: string NOT NULL>, xs array<long>, m map<string, int>, "
            "deep array<struct<k: map<string, array<double>>>>");
  // The printed form parses back to the same schema.
  EXPECT_EQ(*schemaOf(s->toDDL()), *s);
  EXPECT_EQ(schemaOf("e struct<>")->field(0).nested->size(), 0u);
  EXPECT_EQ(typeDDL(schemaOf("x struct<`odd name`: int>")->field(0)), "struct<`odd name`: int>");
}

TEST(NestedDdl, BadDdlNamesThePosition) {
  auto missingClose = Schema::parseDDL("xs array<long");
  ASSERT_FALSE(missingClose.ok());
  EXPECT_THAT(missingClose.status().message(), HasSubstr("at character 13: expected '>' closing ARRAY<"));
  auto noValue = Schema::parseDDL("m map<string>");
  ASSERT_FALSE(noValue.ok());
  EXPECT_THAT(noValue.status().message(), HasSubstr("at character 12: expected ',' between the key"));
  auto bare = Schema::parseDDL("s struct");
  ASSERT_FALSE(bare.ok());
  EXPECT_THAT(bare.status().message(), HasSubstr("expected '<' after STRUCT"));
  auto twice = Schema::parseDDL("s struct<a: int, A: long>");
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.status().message(), HasSubstr("names field 'A' twice"));
  auto unknown = Schema::parseDDL("s struct<a: intt>");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("unknown type 'intt'"));
  EXPECT_FALSE(Schema::parseDDL("xs array<>").ok());
}

// Spark's DDL has no form for an array's containsNull or a map's valueContainsNull: its grammar
// takes `ARRAY<dataType>` / `MAP<dataType, dataType>` without NOT NULL, and DataTypeAstBuilder's
// visitComplexDataType builds ArrayType(elementType) / MapType(keyType, valueType), both true.
// So a NOT NULL element or map value is refused, and a parsed one is nullable (the Python shim's
// _engine_type drops containsNull=False for the same reason).
TEST(NestedDdl, ElementAndMapValueNullabilityHaveNoDdlForm) {
  EXPECT_FALSE(Schema::parseDDL("xs array<long NOT NULL>").ok());
  EXPECT_FALSE(Schema::parseDDL("m map<string, int NOT NULL>").ok());
  auto s = schemaOf("xs array<long>, m map<string, int>");
  EXPECT_TRUE(s->field(0).nested->field(0).nullable);
  EXPECT_TRUE(s->field(1).nested->field(1).nullable);
}

TEST(NestedValues, EqualityOrderAndHash) {
  auto s = schemaOf("a int, b string");
  Value x = Value::structOf(s, {Value(int32_t{1}), Value("x")});
  Value y = Value::structOf(s, {Value(int32_t{1}), Value("y")});
  EXPECT_EQ(x, Value::structOf(s, {Value(int32_t{1}), Value("x")}));
  EXPECT_LT(x, y);  // element-wise
  EXPECT_EQ(x.hash(), Value::structOf(s, {Value(int32_t{1}), Value("x")}).hash());
  Value a12 = Value::arrayOf({Value(int64_t{1}), Value(int64_t{2})});
  Value a1 = Value::arrayOf({Value(int64_t{1})});
  Value a13 = Value::arrayOf({Value(int64_t{1}), Value(int64_t{3})});
  EXPECT_LT(a1, a12);   // a prefix first
  EXPECT_LT(a12, a13);
  EXPECT_LT(Value::arrayOf({}), Value::arrayOf({Value()}));
  EXPECT_NE(a12, a13);
  // Maps: the same entries in another order are equal, with equal hashes.
  Value m1 = mapOf({{Value("a"), Value(int64_t{1})}, {Value("b"), Value(int64_t{2})}});
  Value m2 = mapOf({{Value("b"), Value(int64_t{2})}, {Value("a"), Value(int64_t{1})}});
  EXPECT_EQ(m1, m2);
  EXPECT_EQ(m1.hash(), m2.hash());
  EXPECT_NE(m1, mapOf({{Value("a"), Value(int64_t{1})}}));
  // A repeated key keeps its place and its last value; a null key is an error.
  Value dup = mapOf({{Value("a"), Value(int64_t{1})}, {Value("a"), Value(int64_t{5})}});
  EXPECT_EQ(dup.mapSize(), 1u);
  EXPECT_EQ(dup.mapValue(0), Value(int64_t{5}));
  auto nullKey = Value::mapOf({{Value(), Value(int64_t{1})}});
  ASSERT_FALSE(nullKey.ok());
  EXPECT_THAT(nullKey.status().message(), HasSubstr("NULL_MAP_KEY"));
}

TEST(NestedValues, StringFormIsSparkCastToString) {
  auto s = schemaOf("a int, b string");
  EXPECT_EQ(Value::structOf(s, {Value(int32_t{1}), Value("x")}).toString(), "{1, x}");
  EXPECT_EQ(Value::arrayOf({Value(int64_t{1}), Value(), Value(int64_t{2})}).toString(), "[1, null, 2]");
  EXPECT_EQ(mapOf({{Value("a"), Value(int64_t{1})}, {Value("b"), Value()}}).toString(), "{a -> 1, b -> null}");
}

TEST(NestedValues, CastToFieldTypesElementsAndNamesStructFields) {
  auto schema = schemaOf("s struct<a: int, b: string>, xs array<long>, m map<string, int>");
  // A YAML/JSON object (a map with string keys) becomes the struct, by field name.
  Value obj = mapOf({{Value("b"), Value("x")}, {Value("a"), Value(int64_t{1})}});
  auto st = obj.castTo(schema->field(0));
  ASSERT_TRUE(st.ok()) << st.status().toString();
  EXPECT_EQ(st->type(), Type::kStruct);
  EXPECT_EQ(st->items()[0].type(), Type::kInt);
  EXPECT_EQ(st->toString(), "{1, x}");
  EXPECT_EQ(st->structSchema()->field(1).name, "b");
  // Unknown fields and values that do not fit say where.
  auto unknown = mapOf({{Value("c"), Value(int64_t{1})}}).castTo(schema->field(0));
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(), HasSubstr("field 'c' is not in struct<a: int, b: string>"));
  auto badElement = Value::arrayOf({Value(int64_t{1}), Value("x")}).castTo(schema->field(1));
  ASSERT_FALSE(badElement.ok());
  EXPECT_THAT(badElement.status().message(), HasSubstr("element 1"));
  auto m = mapOf({{Value("k"), Value(int64_t{3})}}).castTo(schema->field(2));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->mapValue(0).type(), Type::kInt);
  EXPECT_FALSE(Value(int64_t{3}).castTo(schema->field(1)).ok());  // a scalar is no array
  EXPECT_FALSE(Value::arrayOf({}).castTo(schema->field(0)).ok());  // an array is no struct
  // A NOT NULL struct field: missing or null is an error.
  auto strict = schemaOf("s struct<a: int NOT NULL>");
  EXPECT_FALSE(mapOf({}).castTo(strict->field(0)).ok());
}

TEST(NestedValues, InferredSchemaKeepsElementTypes) {
  Row r = Row::fromNamed({{"xs", Value::arrayOf({Value(), Value(int64_t{2})})},
                          {"s", Value::structOf(schemaOf("a int"), {Value(int32_t{1})})}});
  EXPECT_EQ(r.schema()->toDDL(), "xs array<long>, s struct<a: int>");
  Row other = Row::fromNamed({{"xs", Value::arrayOf({Value("x")})},
                              {"s", Value::structOf(schemaOf("a int"), {Value(int32_t{1})})}});
  EXPECT_EQ(other.schema()->toDDL(), "xs array<string>, s struct<a: int>");
}

TEST(NestedJson, WritesSparkLayoutAndReadsItBack) {
  auto schema = schemaOf("id string, s struct<a: int, b: string>, xs array<long>, m map<string, int>, "
                         "t array<timestamp>");
  Row row(schema, {Value("k"), Value::structOf(schema->field(1).nested, {Value(int32_t{1}), Value()}),
                   Value::arrayOf({Value(int64_t{1}), Value(), Value(int64_t{3})}),
                   mapOf({{Value("x"), Value(int32_t{2})}, {Value("y"), Value()}}),
                   Value::arrayOf({Value::timestamp(1000)})});
  const std::string json = row.toJson();
  // Structs omit null fields, arrays and maps keep their nulls (JacksonGenerator).
  EXPECT_EQ(json, R"({"id":"k","s":{"a":1},"xs":[1,null,3],"m":{"x":2,"y":null},)"
                  R"("t":["1970-01-01T00:00:01Z"]})");
  auto back = parseJsonLines(json + "\n", schema);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ((*back)[0], row);
  EXPECT_EQ((*back)[0].get("s").structSchema()->field(0).name, "a");
  EXPECT_EQ((*back)[0].toJson(), json);
}

TEST(NestedJson, MismatchFollowsTheParseMode) {
  auto schema = schemaOf("id string, xs array<long>, _corrupt_record string");
  const std::string text = "{\"id\":\"a\",\"xs\":{\"no\":1}}\n{\"id\":\"b\",\"xs\":[1,\"x\"]}\n"
                           "{\"id\":\"c\",\"xs\":5}\n{\"id\":\"d\",\"xs\":[7]}\n";
  auto permissive = parseJsonLines(text, schema);
  ASSERT_TRUE(permissive.ok());
  ASSERT_EQ(permissive->size(), 4u);
  // Spark's partial results (JacksonParser.convertObject): the record is malformed, the field
  // that does not cast is null, the others are kept.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*permissive)[i].get("id"), Value(std::string(1, static_cast<char>('a' + i)))) << i;
    EXPECT_TRUE((*permissive)[i].get("xs").isNull()) << i;
    EXPECT_FALSE((*permissive)[i].get("_corrupt_record").isNull()) << i;
  }
  EXPECT_EQ((*permissive)[3].get("xs"), Value::arrayOf({Value(int64_t{7})}));
  JsonReadOptions failFast;
  failFast.mode = ParseMode::kFailFast;
  auto failed = parseJsonLines(text, schema, failFast, "in.json");
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.status().message(), HasSubstr("in.json:1: malformed JSON record (field 'xs'"));
  auto second = parseJsonLines("{\"xs\":[1,\"x\"]}\n", schema, failFast, "in.json");
  ASSERT_FALSE(second.ok());
  EXPECT_THAT(second.status().message(), HasSubstr("element 1"));
}

TEST(NestedEncoding, RoundTripsAndPreservesOrder) {
  auto schema = schemaOf("s struct<a: int, b: string>, xs array<long>, m map<string, array<int>>");
  Row row(schema, {Value::structOf(schema->field(0).nested, {Value(int32_t{1}), Value(std::string("x\0y", 3))}),
                   Value::arrayOf({Value(int64_t{-1}), Value()}),
                   mapOf({{Value("k"), Value::arrayOf({Value(int32_t{3})})}})});
  auto back = decodeOrderedRow(encodeOrderedRow(row), schema);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  EXPECT_EQ(*back, row);
  EXPECT_EQ((*back)[0].structSchema()->field(1).name, "b");
  EXPECT_EQ((*back)[2].mapValue(0).items()[0].type(), Type::kInt);
  // Bytewise order of encodings is value order for arrays and structs.
  std::vector<Value> ordered = {Value::arrayOf({}), Value::arrayOf({Value()}),
                                Value::arrayOf({Value(int64_t{-5})}),
                                Value::arrayOf({Value(int64_t{1})}),
                                Value::arrayOf({Value(int64_t{1}), Value(int64_t{0})}),
                                Value::arrayOf({Value(int64_t{2})})};
  for (size_t i = 1; i < ordered.size(); ++i) {
    std::string a, b;
    encodeOrderedValue(ordered[i - 1], a);
    encodeOrderedValue(ordered[i], b);
    EXPECT_LT(a, b) << ordered[i - 1].toString() << " vs " << ordered[i].toString();
    EXPECT_LT(ordered[i - 1], ordered[i]);
  }
  // A value of another type than the schema's is corruption, not a wrong answer.
  auto wrong = decodeOrderedRow(encodeOrderedRow(Row(schemaOf("x long"), {Value(int64_t{1})})),
                                schemaOf("xs array<long>"));
  EXPECT_FALSE(wrong.ok());
  std::string truncated;
  encodeOrderedValue(Value::arrayOf({Value(int64_t{1})}), truncated);
  truncated.pop_back();
  std::string_view in = truncated;
  EXPECT_FALSE(decodeOrderedValue(in).ok());
}

TEST(NestedLimits, DeepInputIsAnErrorNotAStackOverflow) {
  std::string ddl = "x ";
  for (int i = 0; i < 100000; ++i) ddl += "array<";
  auto deepDdl = Schema::parseDDL(ddl);
  ASSERT_FALSE(deepDdl.ok());
  EXPECT_THAT(deepDdl.status().message(), HasSubstr("nested at most 64 deep"));
  std::string bytes;
  for (int i = 0; i < 100000; ++i) bytes += "\x31\x02";
  std::string_view in = bytes;
  auto deepBytes = decodeOrderedValue(in);
  ASSERT_FALSE(deepBytes.ok());
  EXPECT_THAT(deepBytes.status().message(), HasSubstr("nested deeper than 64"));
  std::string line = "{\"xs\":[";
  for (int i = 0; i < 100000; ++i) line += "[";
  for (int i = 0; i < 100000; ++i) line += "]";
  line += "]}\n";
  JsonReadOptions failFast;
  failFast.mode = ParseMode::kFailFast;
  auto deepJson = parseJsonLines(line, schemaOf("xs array<string>"), failFast);
  ASSERT_FALSE(deepJson.ok());
  EXPECT_THAT(deepJson.status().message(), HasSubstr("nested deeper than 256"));
}

TEST(NestedConsole, ShowRendersNestedCellsAsToPrettyString) {
  auto schema = schemaOf("s struct<a: int, b: string>, xs array<long>, m map<string, int>");
  Row row(schema, {Value::structOf(schema->field(0).nested, {Value(int32_t{1}), Value("x")}),
                   Value::arrayOf({Value(int64_t{1}), Value()}), mapOf({{Value("a"), Value(int32_t{1})}})});
  EXPECT_EQ(showString(*schema, {row}, 20, true),
            "+------+---------+--------+\n"
            "|     s|       xs|       m|\n"
            "+------+---------+--------+\n"
            "|{1, x}|[1, NULL]|{a -> 1}|\n"
            "+------+---------+--------+\n"
            "\n");
}

}  // namespace
}  // namespace nested_types_test
}  // namespace streamsim
