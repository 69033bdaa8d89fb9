// Model-based tests (RapidCheck rc::state) of ValueState, ListState and MapState with TTL against
// a plain reference model: random operation sequences, each run as one batch (one process() call,
// one store version) at a random non-decreasing batch timestamp. After every batch the processor's
// view must equal the model's, and the committed store must hold exactly the unexpired values
// (expired ones are physically gone by the end of their batch). Memory and RocksDB stores.
#include <map>
#include <optional>
#include <sstream>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "tws_test_util.h"

namespace streamsim {
namespace {

using testing::ScriptedProcessor;
using testing::TwsDriver;

constexpr DurationMs kTtl = 100;

struct Stamped {
  int64_t value;
  TimeMs expiresAt;
};

struct Model {
  TimeMs now = 0;
  std::map<std::string, Stamped> value;                        // key -> value
  std::map<std::string, std::vector<Stamped>> list;            // key -> elements
  std::map<std::string, std::map<std::string, Stamped>> map;  // key -> user key -> value

  bool live(const Stamped& s) const { return now < s.expiresAt; }

  // What the processor reports for `key` after the batch (same format as viewOf below).
  std::string view(const std::string& key) const {
    std::ostringstream o;
    auto v = value.find(key);
    o << "value=" << (v != value.end() && live(v->second) ? std::to_string(v->second.value) : "-");
    o << " list=";
    if (auto l = list.find(key); l != list.end())
      for (const Stamped& s : l->second)
        if (live(s)) o << s.value << ",";
    o << " map=";
    if (auto m = map.find(key); m != map.end())
      for (const auto& [k, s] : m->second)
        if (live(s)) o << k << ":" << s.value << ",";
    return o.str();
  }
  // Entries the committed store must hold per column family.
  size_t valueRows() const {
    size_t n = 0;
    for (const auto& [k, s] : value) n += live(s) ? 1 : 0;
    return n;
  }
  size_t listRows() const {
    size_t n = 0;
    for (const auto& [k, l] : list)
      n += std::any_of(l.begin(), l.end(), [&](const Stamped& s) { return live(s); }) ? 1 : 0;
    return n;
  }
  size_t mapRows() const {
    size_t n = 0;
    for (const auto& [k, m] : map)
      for (const auto& [uk, s] : m) n += live(s) ? 1 : 0;
    return n;
  }
};

// The system under test: one operator on one partition whose processor applies the operation in
// the input row {k, op, a, b} and emits its view of the key.
struct Sut {
  explicit Sut(StateStoreKind kind) : driver(kind, 1) {
    auto hooks = std::make_shared<ScriptedProcessor::Hooks>();
    hooks->init = [](ScriptedProcessor& p, StatefulProcessorHandle& handle) {
      p.value = handle.getValueState<int64_t>("v", TTLConfig{kTtl});
      p.list = handle.getListState<int64_t>("l", TTLConfig{kTtl});
      p.map = handle.getMapState<std::string, int64_t>("m", TTLConfig{kTtl});
    };
    hooks->input = [](ScriptedProcessor& p, const Row& key, RowRange rows, const TimerValues&,
                      Output& out) {
      for (const Row& r : rows) {
        const std::string& op = r.get("op").asString();
        int64_t a = r.get("a").asLong();
        const std::string& b = r.get("b").asString();
        if (op == "value.update") p.value.update(a);
        if (op == "value.clear") p.value.clear();
        if (op == "list.put") p.list.put({a, a + 1});
        if (op == "list.append") p.list.appendValue(a);
        if (op == "list.appendList") p.list.appendList({a, a + 1});
        if (op == "list.clear") p.list.clear();
        if (op == "map.update") p.map.updateValue(b, a);
        if (op == "map.remove") p.map.removeKey(b);
        if (op == "map.clear") p.map.clear();
      }
      std::ostringstream o;
      o << "value=" << (p.value.exists() ? std::to_string(p.value.get()) : "-");
      o << " list=";
      for (int64_t x : p.list.get()) o << x << ",";
      o << " map=";
      for (const auto& [k, v] : p.map.iterator()) o << k << ":" << v << ",";
      // Cross-check the other read paths against the iterator.
      for (const auto& k : p.map.keys())
        if (!p.map.containsKey(k) || !p.map.getValue(k)) o << " (map read paths disagree)";
      if (p.list.exists() == p.list.get().empty()) o << " (list exists disagrees)";
      out.emit(Row{{"k", key[0]}, {"view", o.str()}});
    };
    TransformWithStateSpec spec;
    spec.groupBy = {"k"};
    spec.processorFactory = testing::scripted(hooks);
    spec.timeMode = TimeMode::kProcessingTime;
    Status st = driver.start(spec);
    if (!st.ok()) throw std::runtime_error(st.toString());
  }
  TwsDriver driver;
};

using Cmd = rc::state::Command<Model, Sut>;

// One batch: advance time by dt, apply `op` to key `k`, check the view and the committed store.
struct Op : Cmd {
  std::string op;
  std::string k = *rc::gen::element<std::string>("a", "b");
  int64_t a = *rc::gen::inRange<int64_t>(1, 50);
  std::string b = *rc::gen::element<std::string>("x", "y", "z");
  DurationMs dt = *rc::gen::weightedOneOf<DurationMs>(
      {{3, rc::gen::just<DurationMs>(0)}, {6, rc::gen::inRange<DurationMs>(1, 60)},
       {1, rc::gen::inRange<DurationMs>(60, 250)}});

  explicit Op(std::string o) : op(std::move(o)) {}

  void apply(Model& m) const override {
    m.now += dt;
    TimeMs exp = m.now + kTtl;
    if (op == "value.update") m.value[k] = {a, exp};
    if (op == "value.clear") m.value.erase(k);
    if (op == "list.put") m.list[k] = {{a, exp}, {a + 1, exp}};
    if (op == "list.append") m.list[k].push_back({a, exp});
    if (op == "list.appendList") {
      m.list[k].push_back({a, exp});
      m.list[k].push_back({a + 1, exp});
    }
    if (op == "list.clear") m.list.erase(k);
    if (op == "map.update") m.map[k][b] = {a, exp};
    if (op == "map.remove") m.map[k].erase(b);
    if (op == "map.clear") m.map.erase(k);
    // Physical removal of what expired (only affects what the store must hold).
    for (auto it = m.value.begin(); it != m.value.end();)
      it = m.live(it->second) ? std::next(it) : m.value.erase(it);
    for (auto& [key, l] : m.list)
      std::erase_if(l, [&](const Stamped& s) { return !m.live(s); });
    for (auto& [key, mm] : m.map)
      std::erase_if(mm, [&](const auto& e) { return !m.live(e.second); });
  }

  void run(const Model& before, Sut& sut) const override {
    Model after = before;
    apply(after);
    auto out = sut.driver.run({Row{{"k", k}, {"op", op}, {"a", a}, {"b", b}}}, after.now);
    RC_ASSERT(out.ok());
    RC_ASSERT(out->size() == 1u);
    RC_ASSERT((*out)[0].get("view").asString() == after.view(k));
    RC_ASSERT(sut.driver.committed(0, "v").size() == after.valueRows());
    RC_ASSERT(sut.driver.committed(0, "l").size() == after.listRows());
    RC_ASSERT(sut.driver.committed(0, "m").size() == after.mapRows());
  }

  void show(std::ostream& os) const override {
    os << op << "(key=" << k << ", a=" << a << ", b=" << b << ") after +" << dt << "ms";
  }
};

template <const char* Name>
struct NamedOp : Op {
  NamedOp() : Op(Name) {}
};

constexpr char kValueUpdate[] = "value.update";
constexpr char kValueClear[] = "value.clear";
constexpr char kRead[] = "read";
constexpr char kListPut[] = "list.put";
constexpr char kListAppend[] = "list.append";
constexpr char kListAppendList[] = "list.appendList";
constexpr char kListClear[] = "list.clear";
constexpr char kMapUpdate[] = "map.update";
constexpr char kMapRemove[] = "map.remove";
constexpr char kMapClear[] = "map.clear";

class TwsModelTest : public ::testing::TestWithParam<StateStoreKind> {};

// RC_PARAMS (seed, max_success, ...) applies; RocksDB runs fewer, shorter cases to keep the test
// binary fast (each batch opens a RocksDB working copy twice).
template <class... Cmds>
void checkModel(StateStoreKind kind) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (kind == StateStoreKind::kRocksDB) {
    params.maxSuccess = std::min(params.maxSuccess, 12);
    params.maxSize = std::min(params.maxSize, 40);
  }
  rc::detail::TestMetadata metadata;
  metadata.id = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  metadata.description = metadata.id;
  auto result = rc::detail::checkTestable(
      [kind] {
        Sut sut(kind);
        rc::state::check(Model{}, sut, rc::state::gen::execOneOfWithArgs<Cmds...>());
      },
      metadata, params);
  std::ostringstream msg;
  rc::detail::printResultMessage(result, msg);
  EXPECT_TRUE(result.template is<rc::detail::SuccessResult>()) << msg.str();
}

TEST_P(TwsModelTest, ValueStateWithTtlMatchesModel) {
  checkModel<NamedOp<kValueUpdate>, NamedOp<kValueClear>, NamedOp<kRead>>(GetParam());
}

TEST_P(TwsModelTest, ListStateWithTtlMatchesModel) {
  checkModel<NamedOp<kListPut>, NamedOp<kListAppend>, NamedOp<kListAppendList>,
             NamedOp<kListClear>, NamedOp<kRead>>(GetParam());
}

TEST_P(TwsModelTest, MapStateWithTtlMatchesModel) {
  checkModel<NamedOp<kMapUpdate>, NamedOp<kMapRemove>, NamedOp<kMapClear>, NamedOp<kRead>>(
      GetParam());
}

INSTANTIATE_TEST_SUITE_P(Stores, TwsModelTest,
                         ::testing::Values(StateStoreKind::kMemory, StateStoreKind::kRocksDB),
                         [](const auto& info) { return std::string(stateStoreKindName(info.param)); });

}  // namespace
}  // namespace streamsim
