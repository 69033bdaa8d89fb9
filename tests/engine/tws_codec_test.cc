// StateCodec built-ins and the user-struct codec shown in docs/processors.md: encode/decode
// round trips, schema DDL, order preservation for map keys, and a struct stored in MapState.
#include <gtest/gtest.h>

#include "tws_test_util.h"

namespace docs_example {
struct Session {
  std::string id;
  int64_t hits = 0;
};
}  // namespace docs_example

template <>
struct streamsim::StateCodec<docs_example::Session> {
  StateCodec<std::tuple<std::string, int64_t>> inner;
  std::string schemaDDL() const { return "id string, hits long"; }
  void encode(const docs_example::Session& s, std::string& out) const {
    inner.encode({s.id, s.hits}, out);
  }
  Result<docs_example::Session> decode(std::string_view& in) const {
    auto t = inner.decode(in);
    if (!t.ok()) return t.status();
    return docs_example::Session{std::get<0>(*t), std::get<1>(*t)};
  }
  bool isNull(const docs_example::Session&) const { return false; }
};

namespace streamsim {
namespace {

TEST(TwsCodecTest, BuiltinsRoundTrip) {
  EXPECT_EQ(testing::roundTrip(StateCodec<int32_t>{}, int32_t{-7}), -7);
  EXPECT_EQ(testing::roundTrip(StateCodec<int64_t>{}, int64_t{1} << 40), int64_t{1} << 40);
  EXPECT_EQ(testing::roundTrip(StateCodec<double>{}, 2.5), 2.5);
  EXPECT_EQ(testing::roundTrip(StateCodec<bool>{}, true), true);
  EXPECT_EQ(testing::roundTrip(StateCodec<std::string>{}, std::string("a\0b", 3)), std::string("a\0b", 3));
  auto t = std::make_tuple(std::string("x"), int64_t{3}, false);
  EXPECT_EQ(testing::roundTrip(StateCodec<decltype(t)>{}, t), t);
  EXPECT_EQ(StateCodec<decltype(t)>{}.schemaDDL(), "_1 string, _2 long, _3 boolean");
  StateCodec<Row> rc = rowCodec("n long, s string");
  Row r = testing::roundTrip(rc, Row{{"s", "hi"}, {"n", int32_t{4}}});
  EXPECT_EQ(r, (Row{{"n", int64_t{4}}, {"s", "hi"}}));
  EXPECT_EQ(r[0].type(), Type::kLong) << "cast to the declared type";
}

TEST(TwsCodecTest, BadRowSchemaNamesTheRule) {
  try {
    rowCodec("n notatype");
    FAIL();
  } catch (const StatefulProcessorError& e) {
    EXPECT_EQ(e.rule(), "STATE_SCHEMA");
  }
}

TEST(TwsCodecTest, IntegerMapKeysIterateNumerically) {
  StateCodec<int64_t> c;
  std::string a, b;
  c.encode(-5, a);
  c.encode(3, b);
  EXPECT_LT(a, b);
}

TEST(TwsCodecTest, UserStructInMapState) {
  testing::TwsDriver d(StateStoreKind::kMemory, 1);
  auto h = std::make_shared<testing::ScriptedProcessor::Hooks>();
  auto sessions = std::make_shared<MapState<std::string, docs_example::Session>>();
  h->init = [sessions](testing::ScriptedProcessor&, StatefulProcessorHandle& handle) {
    *sessions = handle.getMapState<std::string, docs_example::Session>("byId");
  };
  h->input = [sessions](testing::ScriptedProcessor&, const Row& key, RowRange rows,
                        const TimerValues&, Output& out) {
    for (const Row& r : rows) {
      std::string id = r.get("sid").asString();
      docs_example::Session s = sessions->getValue(id).value_or(docs_example::Session{id, 0});
      ++s.hits;
      sessions->updateValue(id, s);
    }
    for (const auto& [id, s] : sessions->iterator())
      out.emit(Row{{"k", key[0]}, {"sid", id}, {"hits", s.hits}});
  };
  TransformWithStateSpec spec;
  spec.groupBy = {"k"};
  spec.processorFactory = testing::scripted(h);
  ASSERT_TRUE(d.start(spec).ok());
  ASSERT_TRUE(d.run({Row{{"k", "u"}, {"sid", "s1"}}}, 1).ok());
  auto out = d.run({Row{{"k", "u"}, {"sid", "s1"}}, Row{{"k", "u"}, {"sid", "s0"}}}, 2);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(*out, (std::vector<Row>{Row{{"k", "u"}, {"sid", "s0"}, {"hits", int64_t{1}}},
                                    Row{{"k", "u"}, {"sid", "s1"}, {"hits", int64_t{2}}}}));
}

}  // namespace
}  // namespace streamsim
