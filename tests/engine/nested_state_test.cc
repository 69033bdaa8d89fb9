// Nested values in transformWithState state: std::optional and std::vector codecs, Rows with
// struct/array/map columns as state values, and struct and array grouping keys, on both stores
// and across a restart.
#include <gtest/gtest.h>

#include "streamsim/tws/state_layout.h"
#include "tws_test_util.h"

namespace streamsim {
namespace nested_state_test {  // its own: a unity batch shares one translation unit (tests/CMakeLists.txt)
namespace {

SchemaPtr schemaOf(std::string_view ddl) {
  auto s = parseSchema(ddl);
  EXPECT_TRUE(s.ok()) << s.status().toString();
  return *s;
}

TEST(NestedCodec, OptionalAndVector) {
  StateCodec<std::optional<int64_t>> opt;
  EXPECT_EQ(testing::roundTrip(opt, std::optional<int64_t>(5)), std::optional<int64_t>(5));
  EXPECT_EQ(testing::roundTrip(opt, std::optional<int64_t>()), std::nullopt);
  EXPECT_TRUE(detail::codecIsNull(opt, std::optional<int64_t>()));
  EXPECT_EQ(opt.schemaDDL(), "value long");
  StateCodec<std::vector<std::string>> vec;
  std::vector<std::string> v = {"a", std::string("b\0c", 3), ""};
  EXPECT_EQ(testing::roundTrip(vec, v), v);
  EXPECT_EQ(testing::roundTrip(vec, std::vector<std::string>{}), std::vector<std::string>{});
  EXPECT_EQ(vec.schemaDDL(), "value array<string>");
  // Nulls inside: a vector of optionals, a tuple holding a vector and an optional.
  StateCodec<std::vector<std::optional<int32_t>>> holes;
  std::vector<std::optional<int32_t>> h = {1, std::nullopt, 3};
  EXPECT_EQ(testing::roundTrip(holes, h), h);
  auto t = std::make_tuple(std::vector<int64_t>{1, 2}, std::optional<std::string>());
  StateCodec<decltype(t)> tc;
  EXPECT_EQ(testing::roundTrip(tc, t), t);
  EXPECT_EQ(tc.schemaDDL(), "_1 array<long>, _2 string");
  // The vector's encoding is the array Value's: a Row codec reads it as an array column.
  std::string bytes;
  StateCodec<std::vector<int64_t>>{}.encode({4, 5}, bytes);
  std::string_view in = bytes;
  auto asValue = decodeOrderedValue(in);
  ASSERT_TRUE(asValue.ok());
  EXPECT_EQ(*asValue, Value::arrayOf({Value(int64_t{4}), Value(int64_t{5})}));
}

TEST(NestedCodec, RowWithNestedColumnsAndTupleOfRow) {
  StateCodec<Row> rc = rowCodec("s struct<a: int, b: string>, xs array<long>, m map<string, int>");
  auto mapped = Value::mapOf({{Value("k"), Value(int64_t{3})}});
  ASSERT_TRUE(mapped.ok());
  // A struct given as a Row value, an array of ints cast to longs, a map's values to ints.
  Row in{{"s", Value::structOf(Row{{"a", int64_t{1}}, {"b", "x"}})},
         {"xs", Value::arrayOf({Value(int32_t{1}), Value()})},
         {"m", *mapped}};
  Row out = testing::roundTrip(rc, in);
  EXPECT_EQ(out.get("s").toString(), "{1, x}");
  EXPECT_EQ(out.get("s").items()[0].type(), Type::kInt);
  EXPECT_EQ(out.get("s").structSchema()->field(1).name, "b");
  EXPECT_EQ(out.get("xs").items()[0].type(), Type::kLong);
  EXPECT_TRUE(out.get("xs").items()[1].isNull());
  EXPECT_EQ(out.get("m").mapValue(0).type(), Type::kInt);
  // A value that does not fit the column is the codec's rule, naming the column.
  try {
    std::string bytes;
    rc.encode(Row{{"xs", Value::arrayOf({Value("nope")})}}, bytes);
    FAIL() << "a string stored as a long";
  } catch (const StatefulProcessorError& e) {
    EXPECT_EQ(e.rule(), "STATE_VALUE_TYPE");
    EXPECT_NE(std::string(e.what()).find("column xs"), std::string::npos) << e.what();
  }
  // A nested Row inside a tuple (Python's tuples-in-tuples).
  StateCodec<std::tuple<int64_t, Row>> tc{{StateCodec<int64_t>{}, rowCodec("a int, b string")}};
  EXPECT_EQ(tc.schemaDDL(), "_1 long, _2 struct<a int, b string>");
  EXPECT_TRUE(parseSchema(tc.schemaDDL()).ok());
  auto t = testing::roundTrip(tc, std::make_tuple(int64_t{7}, Row{{"a", int32_t{2}}, {"b", "y"}}));
  EXPECT_EQ(std::get<1>(t).get("b"), Value("y"));
}

// Keeps, per key, every event's tags (ListState of vectors), the last event's details (a Row
// with nested columns) and a count that may be absent (optional); emits them per batch.
TransformWithStateSpec nestedSpec() {
  auto h = std::make_shared<testing::ScriptedProcessor::Hooks>();
  struct Vars {
    ValueState<Row> last;
    ValueState<std::optional<int64_t>> count;
    ListState<std::vector<std::string>> tags;
  };
  auto vars = std::make_shared<Vars>();
  h->init = [vars](testing::ScriptedProcessor&, StatefulProcessorHandle& handle) {
    vars->last = handle.getValueState<Row>(
        "last", rowCodec("info struct<name: string, xs: array<long>>, attrs map<string, long>"));
    vars->count = handle.getValueState<std::optional<int64_t>>("count");
    vars->tags = handle.getListState<std::vector<std::string>>("tags");
  };
  h->input = [vars](testing::ScriptedProcessor&, const Row& key, RowRange rows, const TimerValues&,
                    Output& out) {
    int64_t n = vars->count.get().value_or(0);
    for (const Row& r : rows) {
      ++n;
      std::vector<std::string> tags;
      for (const Value& t : r.get("tags").items()) tags.push_back(t.asString());
      vars->tags.appendValue(tags);
      auto attrs = Value::mapOf({{Value("n"), Value(n)}});
      vars->last.update(Row{{"info", Value::structOf(Row{{"name", r.get("name")},
                                                           {"xs", r.get("xs")}})},
                             {"attrs", *attrs}});
    }
    vars->count.update(std::optional<int64_t>(n));
    std::vector<Value> all;
    for (const auto& tags : vars->tags.get()) {
      std::vector<Value> one;
      for (const auto& t : tags) one.emplace_back(t);
      all.push_back(Value::arrayOf(std::move(one)));
    }
    Row last = vars->last.get();
    out.emit(Row{{"k", key[0]}, {"n", n}, {"tags", Value::arrayOf(std::move(all))},
                    {"info", last.get("info")}, {"attrs", last.get("attrs")}});
  };
  TransformWithStateSpec spec;
  spec.groupBy = {"k"};
  spec.processorFactory = testing::scripted(h);
  return spec;
}

Row event(const Value& key, std::string name, std::vector<std::string> tags, std::vector<int64_t> xs) {
  std::vector<Value> t, x;
  for (auto& s : tags) t.emplace_back(std::move(s));
  for (int64_t v : xs) x.emplace_back(v);
  return Row{{"k", key}, {"name", std::move(name)}, {"tags", Value::arrayOf(std::move(t))},
             {"xs", Value::arrayOf(std::move(x))}};
}

class NestedStateTest : public ::testing::TestWithParam<StateStoreKind> {};

TEST_P(NestedStateTest, NestedStateValuesAndKeysSurviveARestart) {
  testing::TwsDriver d(GetParam(), 2);
  ASSERT_TRUE(d.start(nestedSpec()).ok());
  auto keySchema = schemaOf("id string, zone int");
  Value k1 = Value::structOf(keySchema, {Value("u"), Value(int32_t{1})});
  Value k2 = Value::arrayOf({Value(int64_t{1}), Value()});  // an array key, a null inside
  auto first = d.run({event(k1, "a", {"x", "y"}, {1}), event(k2, "b", {}, {})}, 1);
  ASSERT_TRUE(first.ok()) << first.status().toString();
  ASSERT_EQ(first->size(), 2u);
  ASSERT_TRUE(d.restart().ok());
  auto second = d.run({event(k1, "c", {"z"}, {2, 3})}, 2);
  ASSERT_TRUE(second.ok()) << second.status().toString();
  ASSERT_EQ(second->size(), 1u);
  const Row& r = (*second)[0];
  EXPECT_EQ(r.get("k"), k1);
  EXPECT_EQ(r.get("k").structSchema()->field(0).type, Type::kString);
  EXPECT_EQ(r.get("n"), Value(int64_t{2}));
  EXPECT_EQ(r.get("tags").toString(), "[[x, y], [z]]");
  EXPECT_EQ(r.get("info").toString(), "{c, [2, 3]}");
  EXPECT_EQ(r.get("info").structSchema()->field(1).name, "xs");
  EXPECT_EQ(r.get("attrs").toString(), "{n -> 2}");
  auto third = d.run({event(k2, "d", {"w"}, {})}, 3);
  ASSERT_TRUE(third.ok()) << third.status().toString();
  ASSERT_EQ(third->size(), 1u);
  EXPECT_EQ((*third)[0].get("k"), k2);
  EXPECT_EQ((*third)[0].get("tags").toString(), "[[], [w]]");
}

// Spark 4 accepts a map-typed grouping column for transformWithState: groupBy / groupByKey plan
// no Aggregate, so CheckAnalysis's grouping-type check (checkValidGroupingExprs, which refuses
// only variant) does not apply, and the state key encoders take any row. A map key keeps its
// state across a restart on both stores.
TEST_P(NestedStateTest, MapGroupingKeyIsAccepted) {
  testing::TwsDriver d(GetParam(), 2);
  ASSERT_TRUE(d.start(nestedSpec()).ok());
  auto k = Value::mapOf({{Value("a"), Value(int64_t{1})}, {Value("b"), Value()}});
  ASSERT_TRUE(k.ok()) << k.status().toString();
  auto first = d.run({event(*k, "a", {"x"}, {1})}, 1);
  ASSERT_TRUE(first.ok()) << first.status().toString();
  ASSERT_EQ(first->size(), 1u);
  ASSERT_TRUE(d.restart().ok());
  auto second = d.run({event(*k, "b", {"y"}, {})}, 2);
  ASSERT_TRUE(second.ok()) << second.status().toString();
  ASSERT_EQ(second->size(), 1u);
  EXPECT_EQ((*second)[0].get("k"), *k);
  EXPECT_EQ((*second)[0].get("k").type(), Type::kMap);
  EXPECT_EQ((*second)[0].get("n"), Value(int64_t{2}));
  EXPECT_EQ((*second)[0].get("tags").toString(), "[[x], [y]]");
}

// A Row inside a vector or a tuple is stored as the struct value its recorded schema names
// (`value array<struct<...>>`, `_1 struct<...>`): 0x30, each column after an item marker 0x02,
// then 0x01. Stored flattened (the columns one after the other), a column holding null (tag 0x01)
// or false (tag 0x02) read as the array's end or item marker to every reader that goes by the
// schema (`streamsim state`, `expect: {state: ...}`), and a tuple's Row as its loose columns.
TEST_P(NestedStateTest, RowInVectorOrTupleWithNullOrFalseColumnIsFramedAsAStruct) {
  auto h = std::make_shared<testing::ScriptedProcessor::Hooks>();
  struct Vars {
    ValueState<std::vector<Row>> rows;
    ListState<std::tuple<Row, int64_t>> pairs;
  };
  auto vars = std::make_shared<Vars>();
  h->init = [vars](testing::ScriptedProcessor&, StatefulProcessorHandle& handle) {
    StateCodec<std::vector<Row>> rows{rowCodec("name string, ok boolean, n long")};
    vars->rows = handle.getValueState<std::vector<Row>>("rows", rows);
    StateCodec<std::tuple<Row, int64_t>> pairs{{rowCodec("ok boolean, s string"), StateCodec<int64_t>{}}};
    vars->pairs = handle.getListState<std::tuple<Row, int64_t>>("pairs", pairs);
  };
  h->input = [vars](testing::ScriptedProcessor&, const Row& key, RowRange rows, const TimerValues&,
                    Output& out) {
    std::vector<Row> kept = vars->rows.exists() ? vars->rows.get() : std::vector<Row>{};
    for (const Row& r : rows) {
      kept.push_back(Row{{"name", r.get("name")}, {"ok", r.get("ok")}, {"n", r.get("n")}});
      vars->pairs.appendValue(std::make_tuple(Row{{"ok", r.get("ok")}, {"s", Value()}}, int64_t{7}));
    }
    vars->rows.update(kept);
    std::vector<Value> all;
    for (const Row& r : vars->rows.get()) all.push_back(Value::structOf(r));
    std::vector<Value> pairs;
    for (const auto& [r, n] : vars->pairs.get())
      pairs.emplace_back(Value::structOf(r).toString() + " " + std::to_string(n));
    out.emit(Row{{"k", key[0]}, {"rows", Value::arrayOf(std::move(all))},
                 {"pairs", Value::arrayOf(std::move(pairs))}});
  };
  TransformWithStateSpec spec;
  spec.groupBy = {"k"};
  spec.processorFactory = testing::scripted(h);
  testing::TwsDriver d(GetParam(), 1);
  ASSERT_TRUE(d.start(spec).ok());
  auto first = d.run({Row{{"k", "u"}, {"name", "a"}, {"ok", false}, {"n", Value()}},
                      Row{{"k", "u"}, {"name", Value()}, {"ok", true}, {"n", int64_t{1}}}},
                     1);
  ASSERT_TRUE(first.ok()) << first.status().toString();

  // What a reader that goes by the recorded schema sees (streamsim state, expect: {state: ...}).
  auto layout = state_layout::readOperatorLayout(d.env(), testing::TwsDriver::kRoot, 0);
  ASSERT_TRUE(layout.ok()) << layout.status().toString();
  auto decoded = [&](const std::string& cf) -> Result<state_layout::DecodedRow> {
    auto stored = d.committed(0, cf);
    if (stored.size() != 1) return Status::NotFound(cf + ": not one stored row");
    return state_layout::decodeRow(*layout, cf, stored[0].first, stored[0].second);
  };
  auto row = decoded("rows");
  ASSERT_TRUE(row.ok()) << row.status().toString();
  ASSERT_EQ(row->items.size(), 1u);
  ASSERT_EQ(row->items[0].values.size(), 1u) << "one array value";
  EXPECT_EQ(row->items[0].values[0].toString(), "[{a, false, null}, {null, true, 1}]");
  EXPECT_EQ(row->items[0].values[0].items()[0].structSchema()->field(1).name, "ok");
  auto pairs = decoded("pairs");
  ASSERT_TRUE(pairs.ok()) << pairs.status().toString();
  ASSERT_EQ(pairs->items.size(), 2u);
  ASSERT_EQ(pairs->items[0].values.size(), 2u) << "a struct and a long";
  EXPECT_EQ(pairs->items[0].values[0].toString(), "{false, null}");
  EXPECT_EQ(pairs->items[0].values[0].structSchema()->field(0).name, "ok");
  EXPECT_EQ(pairs->items[1].values[1], Value(int64_t{7}));

  // And the processor reads the same values back after a restart.
  ASSERT_TRUE(d.restart().ok());
  auto second = d.run({Row{{"k", "u"}, {"name", "c"}, {"ok", Value()}, {"n", int64_t{2}}}}, 2);
  ASSERT_TRUE(second.ok()) << second.status().toString();
  ASSERT_EQ(second->size(), 1u);
  EXPECT_EQ((*second)[0].get("rows").toString(), "[{a, false, null}, {null, true, 1}, {c, null, 2}]");
  EXPECT_EQ((*second)[0].get("pairs").toString(), "[{false, null} 7, {true, null} 7, {null, null} 7]");
}

INSTANTIATE_TEST_SUITE_P(BothStores, NestedStateTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB));

}  // namespace
}  // namespace nested_state_test
}  // namespace streamsim
