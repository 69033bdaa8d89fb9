// ProcessorTester: drives the engine's transformWithState operator on one partition. The user's
// processor runs inside TesterProcessor, which hands it a ForwardingHandle: every state variable
// the processor declares is created on the engine's handle (same name, schema and TTL) and also
// kept as raw bytes, so that a probe batch can read or edit any variable of any key.
#include "streamsim/harness/processor_tester.h"

#include <limits>
#include <map>

#include <fmt/format.h>

#include "streamsim/tws/processor_registry.h"

namespace streamsim::harness {
namespace {
// A state value kept as the bytes the processor's codec wrote.
struct RawBytes {
  std::string bytes;
};
}  // namespace
}  // namespace streamsim::harness

namespace streamsim {
// Passes the bytes through unchanged and records the processor's own schema.
template <>
struct StateCodec<harness::RawBytes> {
  std::string ddl;
  std::string schemaDDL() const { return ddl; }
  void encode(const harness::RawBytes& v, std::string& out) const { out += v.bytes; }
  Result<harness::RawBytes> decode(std::string_view& in) const {
    harness::RawBytes v{std::string(in)};
    in = {};
    return v;
  }
};
}  // namespace streamsim

namespace streamsim::harness {
namespace {

using RawCodec = StateCodec<RawBytes>;

// Where an adapter keeps a rule the processor broke: the typed state classes report a broken
// rule to their backend (the adapter) before throwing, so that the task fails even when the
// processor catches the exception (as the engine's own backends do); TesterProcessor rethrows
// it after the processor's call returns, and the engine fails the batch as in a query.
using ViolationSlot = std::optional<StatefulProcessorError>;

struct RawVariable {
  RawStateValue::Kind kind = RawStateValue::Kind::kValue;
  ValueState<RawBytes> value;
  ListState<RawBytes> list;
  MapState<RawBytes, RawBytes> map;
};

std::string_view kindName(RawStateValue::Kind k) {
  switch (k) {
    case RawStateValue::Kind::kValue: return "value";
    case RawStateValue::Kind::kList: return "list";
    case RawStateValue::Kind::kMap: return "map";
  }
  return "?";
}

class ValueAdapter final : public streamsim::detail::ValueStateBackend {
 public:
  ValueAdapter(std::string name, ValueState<RawBytes> s, ViolationSlot* violation)
      : name_(std::move(name)), s_(std::move(s)), violation_(violation) {}
  const std::string& name() const override { return name_; }
  void recordViolation(const StatefulProcessorError& e) override {
    if (!*violation_) *violation_ = e;
  }
  void checkOperation(std::string_view op) override { s_.checkOperation(op); }
  std::optional<std::string> get() override {
    auto v = s_.getOption();
    if (!v) return std::nullopt;
    return std::move(v->bytes);
  }
  void update(std::string bytes) override { s_.update(RawBytes{std::move(bytes)}); }
  void clear() override { s_.clear(); }
  std::optional<streamsim::detail::StoredValue> stored() override {
    auto v = s_.getTTLValue();
    if (!v) return std::nullopt;
    return streamsim::detail::StoredValue{std::move(v->first.bytes), v->second};
  }

 private:
  std::string name_;
  ValueState<RawBytes> s_;
  ViolationSlot* violation_;
};

class ListAdapter final : public streamsim::detail::ListStateBackend {
 public:
  ListAdapter(std::string name, ListState<RawBytes> s, ViolationSlot* violation)
      : name_(std::move(name)), s_(std::move(s)), violation_(violation) {}
  const std::string& name() const override { return name_; }
  void recordViolation(const StatefulProcessorError& e) override {
    if (!*violation_) *violation_ = e;
  }
  void checkOperation(std::string_view op) override { s_.checkOperation(op); }
  std::vector<std::string> get() override {
    std::vector<std::string> out;
    for (RawBytes& b : s_.get()) out.push_back(std::move(b.bytes));
    return out;
  }
  void put(std::vector<std::string> elements) override { s_.put(wrap(std::move(elements))); }
  void append(std::vector<std::string> elements) override {
    s_.appendList(wrap(std::move(elements)));
  }
  void clear() override { s_.clear(); }
  std::vector<streamsim::detail::StoredValue> stored() override {
    std::vector<streamsim::detail::StoredValue> out;
    for (auto& [b, expiry] : s_.getTTLValues()) out.push_back({std::move(b.bytes), expiry});
    return out;
  }

 private:
  static std::vector<RawBytes> wrap(std::vector<std::string> e) {
    std::vector<RawBytes> out;
    out.reserve(e.size());
    for (std::string& s : e) out.push_back(RawBytes{std::move(s)});
    return out;
  }
  std::string name_;
  ListState<RawBytes> s_;
  ViolationSlot* violation_;
};

class MapAdapter final : public streamsim::detail::MapStateBackend {
 public:
  MapAdapter(std::string name, MapState<RawBytes, RawBytes> s, ViolationSlot* violation)
      : name_(std::move(name)), s_(std::move(s)), violation_(violation) {}
  const std::string& name() const override { return name_; }
  void recordViolation(const StatefulProcessorError& e) override {
    if (!*violation_) *violation_ = e;
  }
  void checkOperation(std::string_view op) override { s_.checkOperation(op); }
  std::optional<std::string> getValue(std::string_view userKey) override {
    auto v = s_.getValue(RawBytes{std::string(userKey)});
    if (!v) return std::nullopt;
    return std::move(v->bytes);
  }
  void updateValue(std::string userKey, std::string value) override {
    s_.updateValue(RawBytes{std::move(userKey)}, RawBytes{std::move(value)});
  }
  std::vector<std::pair<std::string, std::string>> entries() override {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& [k, v] : s_.iterator()) out.emplace_back(std::move(k.bytes), std::move(v.bytes));
    return out;
  }
  void removeKey(std::string_view userKey) override { s_.removeKey(RawBytes{std::string(userKey)}); }
  void clear() override { s_.clear(); }
  std::vector<std::pair<std::string, streamsim::detail::StoredValue>> stored() override {
    std::vector<std::pair<std::string, streamsim::detail::StoredValue>> out;
    for (auto& [k, v, expiry] : s_.getTTLValues())
      out.emplace_back(std::move(k.bytes), streamsim::detail::StoredValue{std::move(v.bytes), expiry});
    return out;
  }

 private:
  std::string name_;
  MapState<RawBytes, RawBytes> s_;
  ViolationSlot* violation_;
};

using Variables = std::map<std::string, RawVariable>;

// Gives the processor the engine's handle, keeping a raw view of every variable it declares.
class ForwardingHandle final : public StatefulProcessorHandle {
 public:
  ForwardingHandle(StatefulProcessorHandle& inner, Variables& vars, std::vector<std::string>& order,
                   ViolationSlot& violation)
      : inner_(inner), vars_(vars), order_(order), violation_(violation) {}
  void registerTimer(TimeMs ts) override { inner_.registerTimer(ts); }
  void deleteTimer(TimeMs ts) override { inner_.deleteTimer(ts); }
  std::vector<TimeMs> listTimers() override { return inner_.listTimers(); }
  void deleteIfExists(const std::string& name) override { inner_.deleteIfExists(name); }
  QueryInfo getQueryInfo() const override { return inner_.getQueryInfo(); }
  const Env* env() const override { return inner_.env(); }

 protected:
  std::shared_ptr<streamsim::detail::ValueStateBackend> createValueState(
      const std::string& name, const StateVariableInfo& info, std::optional<TTLConfig> ttl) override {
    auto s = inner_.getValueState<RawBytes>(name, RawCodec{info.valueSchema}, ttl);
    RawVariable& v = add(name, RawStateValue::Kind::kValue);
    v.value = s;
    return std::make_shared<ValueAdapter>(name, std::move(s), &violation_);
  }
  std::shared_ptr<streamsim::detail::ListStateBackend> createListState(
      const std::string& name, const StateVariableInfo& info, std::optional<TTLConfig> ttl) override {
    auto s = inner_.getListState<RawBytes>(name, RawCodec{info.valueSchema}, ttl);
    RawVariable& v = add(name, RawStateValue::Kind::kList);
    v.list = s;
    return std::make_shared<ListAdapter>(name, std::move(s), &violation_);
  }
  std::shared_ptr<streamsim::detail::MapStateBackend> createMapState(
      const std::string& name, const StateVariableInfo& info, std::optional<TTLConfig> ttl) override {
    auto s = inner_.getMapState<RawBytes, RawBytes>(name, RawCodec{info.keySchema},
                                                    RawCodec{info.valueSchema}, ttl);
    RawVariable& v = add(name, RawStateValue::Kind::kMap);
    v.map = s;
    return std::make_shared<MapAdapter>(name, std::move(s), &violation_);
  }

 private:
  RawVariable& add(const std::string& name, RawStateValue::Kind kind) {
    if (vars_.find(name) == vars_.end()) order_.push_back(name);
    RawVariable& v = vars_[name];
    v.kind = kind;
    return v;
  }
  StatefulProcessorHandle& inner_;
  Variables& vars_;
  std::vector<std::string>& order_;
  ViolationSlot& violation_;
};

bool sameKey(const Row& a, const Row& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return false;
  return true;
}

// A store whose commit() throws its changes away: probe batches leave no trace.
class AbortingStore final : public StateStore {
 public:
  explicit AbortingStore(std::unique_ptr<StateStore> inner) : inner_(std::move(inner)) {}
  int64_t version() const override { return inner_->version(); }
  std::optional<std::string> get(std::string_view cf, std::string_view key) override {
    return inner_->get(cf, key);
  }
  void put(std::string_view cf, std::string_view key, std::string_view value) override {
    inner_->put(cf, key, value);
  }
  void remove(std::string_view cf, std::string_view key) override { inner_->remove(cf, key); }
  void scan(std::string_view cf, std::string_view begin, std::string_view end,
            const StateVisitor& visit) override {
    inner_->scan(cf, begin, end, visit);
  }
  Status commit() override {
    inner_->abort();
    return Status::OK();
  }
  void abort() override { inner_->abort(); }
  StateStoreMetrics metrics() const override { return inner_->metrics(); }
  std::vector<std::string> columnFamilies() override { return inner_->columnFamilies(); }

 private:
  std::unique_ptr<StateStore> inner_;
};

class AbortingProvider final : public StateStoreProvider {
 public:
  explicit AbortingProvider(StateStoreProvider& inner) : inner_(inner) {}
  Result<std::unique_ptr<StateStore>> open(const std::string& checkpointRoot, int operatorId,
                                           int partition, int64_t version) override {
    STREAMSIM_ASSIGN_OR_RETURN(auto store, inner_.open(checkpointRoot, operatorId, partition, version));
    return std::unique_ptr<StateStore>(std::make_unique<AbortingStore>(std::move(store)));
  }
  Result<int64_t> latestVersion(const std::string& checkpointRoot, int operatorId,
                                int partition) override {
    return inner_.latestVersion(checkpointRoot, operatorId, partition);
  }

 private:
  StateStoreProvider& inner_;
};

}  // namespace

// A probe: an action to run for one key in place of the processor's handleInputRows.
struct ProcessorTesterBase::Probe {
  Row key;
  bool suppressTimers = true;
  std::function<Status(ProbeScope&)> action;
  bool ran = false;
  Status status;
};

namespace {

class ScopeImpl final : public ProbeScope {
 public:
  ScopeImpl(Variables& vars, const std::vector<std::string>& order, StatefulProcessorHandle& handle)
      : vars_(vars), order_(order), handle_(handle) {}

  Result<RawStateValue> readWithoutTTL(const std::string& name) override {
    STREAMSIM_ASSIGN_OR_RETURN(RawVariable * v, find(name));
    RawStateValue out;
    out.kind = v->kind;
    switch (v->kind) {
      case RawStateValue::Kind::kValue:
        if (auto b = v->value.getTTLValue()) {
          out.value = std::move(b->first.bytes);
          out.valueExpiresAt = b->second;
        }
        break;
      case RawStateValue::Kind::kList:
        for (auto& [b, expiry] : v->list.getTTLValues()) {
          out.list.push_back(std::move(b.bytes));
          out.listExpiresAt.push_back(expiry);
        }
        break;
      case RawStateValue::Kind::kMap:
        for (auto& [k, val, expiry] : v->map.getTTLValues()) {
          out.entries.emplace_back(std::move(k.bytes), std::move(val.bytes));
          out.entriesExpiresAt.push_back(expiry);
        }
        break;
    }
    return out;
  }
  Result<RawStateValue> read(const std::string& name) override {
    STREAMSIM_ASSIGN_OR_RETURN(RawVariable * v, find(name));
    RawStateValue out;
    out.kind = v->kind;
    switch (v->kind) {
      case RawStateValue::Kind::kValue:
        if (auto b = v->value.getOption()) out.value = std::move(b->bytes);
        break;
      case RawStateValue::Kind::kList:
        for (RawBytes& b : v->list.get()) out.list.push_back(std::move(b.bytes));
        break;
      case RawStateValue::Kind::kMap:
        for (auto& [k, val] : v->map.iterator())
          out.entries.emplace_back(std::move(k.bytes), std::move(val.bytes));
        break;
    }
    return out;
  }
  Status write(const std::string& name, const RawStateValue& in) override {
    STREAMSIM_ASSIGN_OR_RETURN(RawVariable * v, find(name));
    if (v->kind != in.kind)
      return Status::InvalidArgument(fmt::format("state variable '{}' is a {} state, not a {} state",
                                                 name, kindName(v->kind), kindName(in.kind)));
    switch (v->kind) {
      case RawStateValue::Kind::kValue:
        if (in.value) {
          v->value.update(RawBytes{*in.value});
        } else {
          v->value.clear();
        }
        break;
      case RawStateValue::Kind::kList: {
        if (in.list.empty()) {
          v->list.clear();
          break;
        }
        std::vector<RawBytes> l;
        for (const std::string& b : in.list) l.push_back(RawBytes{b});
        v->list.put(l);
        break;
      }
      case RawStateValue::Kind::kMap:
        v->map.clear();
        for (const auto& [k, val] : in.entries) v->map.updateValue(RawBytes{k}, RawBytes{val});
        break;
    }
    return Status::OK();
  }
  Status clear(const std::string& name) override {
    STREAMSIM_ASSIGN_OR_RETURN(RawVariable * v, find(name));
    switch (v->kind) {
      case RawStateValue::Kind::kValue: v->value.clear(); break;
      case RawStateValue::Kind::kList: v->list.clear(); break;
      case RawStateValue::Kind::kMap: v->map.clear(); break;
    }
    return Status::OK();
  }
  Status removeMapKey(const std::string& name, const std::string& userKey) override {
    STREAMSIM_ASSIGN_OR_RETURN(RawVariable * v, find(name));
    if (v->kind != RawStateValue::Kind::kMap)
      return Status::InvalidArgument("state variable '" + name + "' is not a map state");
    v->map.removeKey(RawBytes{userKey});
    return Status::OK();
  }
  StatefulProcessorHandle& handle() override { return handle_; }
  std::vector<std::pair<std::string, std::string>> variables() override {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& n : order_) out.emplace_back(n, std::string(kindName(vars_[n].kind)));
    return out;
  }

 private:
  Result<RawVariable*> find(const std::string& name) {
    auto it = vars_.find(name);
    if (it == vars_.end()) {
      std::string known;
      for (const std::string& n : order_) known += (known.empty() ? "" : ", ") + n;
      return Status::NotFound(fmt::format("the processor declares no state variable '{}' in init "
                                          "(it declares: {})",
                                          name, known.empty() ? "none" : known));
    }
    return &it->second;
  }
  Variables& vars_;
  const std::vector<std::string>& order_;
  StatefulProcessorHandle& handle_;
};

}  // namespace

// Wraps the user's processor for one task: forwards every call, except the probed key's
// handleInputRows (and, in a peek, expired timers).
class TesterProcessor final : public StatefulProcessorWithInitialState {
 public:
  TesterProcessor(std::unique_ptr<StatefulProcessor> user, ProcessorTesterBase::Probe* probe)
      : user_(std::move(user)), probe_(probe) {}

  void init(StatefulProcessorHandle& handle) override {
    inner_ = &handle;
    fwd_ = std::make_unique<ForwardingHandle>(handle, vars_, order_, violation_);
    user_->setHandle(fwd_.get());
    user_->init(*fwd_);
    rethrowViolation();
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override {
    if (probe_ != nullptr && !probe_->ran && sameKey(key, probe_->key)) {
      probe_->ran = true;
      ScopeImpl scope(vars_, order_, *inner_);
      probe_->status = probe_->action(scope);
      return;
    }
    user_->handleInputRows(key, rows, timerValues, out);
    rethrowViolation();
  }
  void handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                          const ExpiredTimerInfo& info, Output& out) override {
    if (probe_ != nullptr && probe_->suppressTimers) return;
    user_->handleExpiredTimer(key, timerValues, info, out);
    rethrowViolation();
  }
  void handleInitialState(const Row& key, const Row& initialState, const TimerValues& timerValues,
                          Output& out) override {
    auto* p = dynamic_cast<StatefulProcessorWithInitialState*>(user_.get());
    if (p == nullptr)
      streamsim::detail::throwRule("NO_INITIAL_STATE_HANDLER",
                                   "initial state was given but the processor is not a "
                                   "StatefulProcessorWithInitialState");
    p->handleInitialState(key, initialState, timerValues, out);
    rethrowViolation();
  }
  void close() override { user_->close(); }

 private:
  // A rule the processor broke and caught fails the call, as the engine's handle makes it do.
  void rethrowViolation() {
    if (!violation_) return;
    StatefulProcessorError e = std::move(*violation_);
    violation_.reset();
    throw e;
  }

  std::unique_ptr<StatefulProcessor> user_;
  ProcessorTesterBase::Probe* probe_;
  StatefulProcessorHandle* inner_ = nullptr;
  std::unique_ptr<ForwardingHandle> fwd_;
  Variables vars_;
  std::vector<std::string> order_;
  ViolationSlot violation_;
};

ProcessorTesterBase::ProcessorTesterBase(ProcessorFactory factory, TesterOptions options)
    : factory_(std::move(factory)), options_(std::move(options)) {
  clock_ = std::make_unique<sim::VirtualClock>(options_.processingTimeMs);
  if (options_.fileSystem != nullptr) {
    fs_ = options_.fileSystem;
  } else {
    own_fs_ = std::make_unique<sim::SimFileSystem>(clock_.get());
    fs_ = own_fs_.get();
  }
  ids_ = std::make_unique<sim::SeededIdGenerator>(options_.seed);
  env_.clock = clock_.get();
  env_.fs = fs_;
  env_.ids = ids_.get();
  env_.trace = options_.trace;
  env_.services = options_.services;
  stores_ = makeStateStoreProvider(env_, options_.stateStore);
  query_id_ = ids_->newUuid();
  run_id_ = ids_->newUuid();
  processing_time_ = options_.processingTimeMs;
  watermark_ = options_.watermarkMs;
  late_watermark_ = options_.watermarkMs;
  next_batch_id_ = options_.firstBatchId;
}

ProcessorTesterBase::~ProcessorTesterBase() = default;

std::unique_ptr<Operator> ProcessorTesterBase::makeOperator() {
  TransformWithStateSpec spec;
  spec.groupBy = options_.groupBy;
  spec.processorFactory = [this]() -> std::unique_ptr<StatefulProcessor> {
    return std::make_unique<TesterProcessor>(factory_(), current_probe_);
  };
  spec.processorName = options_.processorName;
  spec.timeMode = options_.timeMode;
  spec.outputMode = options_.outputMode;
  spec.eventTimeColumnName = options_.eventTimeColumnName;
  spec.inputEventTimeColumn = options_.inputEventTimeColumn;
  spec.initialState = options_.initialState;
  spec.initialStateGroupBy = options_.initialStateGroupBy;
  return makeTransformWithState(std::move(spec));
}

Status ProcessorTesterBase::startOperator(Operator& op, StateStoreProvider& stores) {
  OperatorStartContext ctx;
  ctx.env = &env_;
  ctx.checkpointRoot = options_.checkpointRoot;
  ctx.operatorId = options_.operatorId;
  ctx.planIndex = 0;
  ctx.shufflePartitions = 1;
  ctx.outputMode = options_.outputMode;
  ctx.stateStores = &stores;
  ctx.eventTimeColumn = options_.inputEventTimeColumn.value_or("");
  return op.start(ctx);
}

Result<std::vector<Row>> ProcessorTesterBase::runBatch(std::vector<Row> input, bool commit,
                                                       Probe* probe) {
  clock_->sleepUntil(processing_time_);
  std::unique_ptr<Operator> probe_op;
  std::unique_ptr<AbortingProvider> aborting;
  Operator* op = nullptr;
  StateStoreProvider* stores = stores_.get();
  if (commit) {
    if (operator_ == nullptr) {
      auto fresh = makeOperator();
      STREAMSIM_RETURN_IF_ERROR(startOperator(*fresh, *stores_));
      operator_ = std::move(fresh);
    }
    op = operator_.get();
  } else {
    aborting = std::make_unique<AbortingProvider>(*stores_);
    stores = aborting.get();
    probe_op = makeOperator();
    STREAMSIM_RETURN_IF_ERROR(startOperator(*probe_op, *stores));
    op = probe_op.get();
  }

  BatchContext ctx;
  ctx.env = &env_;
  ctx.checkpointRoot = options_.checkpointRoot;
  ctx.query = QueryInfo{query_id_, run_id_, next_batch_id_};
  ctx.batchId = next_batch_id_;
  ctx.batchTimestampMs = processing_time_;
  ctx.lateWatermarkMs = late_watermark_;
  ctx.evictionWatermarkMs = watermark_;
  ctx.hasWatermark = options_.timeMode == TimeMode::kEventTime ||
                     options_.inputEventTimeColumn.has_value() ||
                     options_.eventTimeColumnName.has_value();
  ctx.shufflePartitions = 1;
  ctx.taskRetries = 0;
  ctx.stateStores = stores;
  ctx.outputMode = options_.outputMode;

  current_probe_ = probe;
  auto result = op->process(std::move(input), ctx);
  current_probe_ = nullptr;
  if (!commit) {
    op->stop();
    if (!result.ok()) return result.status();
    return result;
  }
  if (!result.ok()) {
    // As a failed query: the batch's state was aborted; the next call restarts from the
    // committed version with a fresh operator instance.
    operator_.reset();
    return result.status();
  }
  ++next_batch_id_;
  late_watermark_ = watermark_;
  last_progress_.reset();
  if (!ctx.stateProgress.empty()) last_progress_ = ctx.stateProgress.back();
  return result;
}

std::vector<Row> ProcessorTesterBase::takePending(std::vector<Row> rows) {
  if (pending_output_.empty()) return rows;
  std::vector<Row> out = std::move(pending_output_);
  pending_output_.clear();
  for (Row& r : rows) out.push_back(std::move(r));
  return out;
}

Result<Row> ProcessorTesterBase::keyRow(const GroupKey& key) const {
  const auto& cols = options_.groupBy;
  if (key.row()) {
    const Row& r = *key.row();
    if (r.size() != cols.size())
      return Status::InvalidArgument(fmt::format("a key needs {} value(s), one per grouping "
                                                 "column [{}]; got {}",
                                                 cols.size(), fmt::join(cols, ", "), formatKey(r)));
    std::vector<Field> fields;
    std::vector<Value> values;
    for (size_t i = 0; i < cols.size(); ++i) {
      // A Row key may name its columns; otherwise they are taken in groupBy order.
      const Value& v = r.has(cols[i]) ? r.get(cols[i]) : r[i];
      fields.push_back(fieldOf(cols[i], v));
      values.push_back(v);
    }
    return Row(makeSchema(std::move(fields)), std::move(values));
  }
  if (cols.size() != 1)
    return Status::InvalidArgument(fmt::format("the grouping key has {} columns [{}]: pass a Row "
                                               "with one value per column",
                                               cols.size(), fmt::join(cols, ", ")));
  const Value& v = *key.value();
  return Row(makeSchema({fieldOf(cols[0], v)}), {v});
}

std::string ProcessorTesterBase::formatKey(const Row& key) {
  std::string out = "(";
  for (size_t i = 0; i < key.size(); ++i) out += (i ? ", " : "") + key[i].toString();
  return out + ")";
}

Row ProcessorTesterBase::withKeyColumns(const Row& key, const Row& row) const {
  bool complete = true;
  for (const std::string& c : options_.groupBy) complete = complete && row.has(c);
  if (complete) return row;
  std::vector<Field> fields = row.schema()->fields();
  std::vector<Value> values = row.values();
  for (size_t i = 0; i < options_.groupBy.size(); ++i) {
    if (row.has(options_.groupBy[i])) continue;
    fields.push_back(key.schema()->field(i));
    values.push_back(key[i]);
  }
  return Row(makeSchema(std::move(fields)), std::move(values));
}

Result<std::vector<Row>> ProcessorTesterBase::test(const GroupKey& key, std::vector<Row> rows) {
  std::vector<KeyRows> batch;
  batch.push_back(KeyRows{key, std::move(rows)});
  return test(std::move(batch));
}

Result<std::vector<Row>> ProcessorTesterBase::test(std::vector<KeyRows> batch) {
  std::vector<Row> input;
  for (KeyRows& kr : batch) {
    STREAMSIM_ASSIGN_OR_RETURN(Row k, keyRow(kr.key));
    for (Row& r : kr.rows) {
      if (r.size() == 0) {
        input.push_back(std::move(r));
        continue;
      }
      for (const std::string& c : options_.groupBy) {
        if (r.has(c) && !(r.get(c) == k.get(c)))
          return Status::InvalidArgument(fmt::format(
              "test({}): input row {} has {}={}, which is another key; each row goes with its "
              "own key",
              formatKey(k), r.toString(), c, r.get(c).toString()));
      }
      input.push_back(withKeyColumns(k, r));
    }
  }
  if (!options_.realTimeMode) {
    STREAMSIM_ASSIGN_OR_RETURN(auto out, runBatch(std::move(input), /*commit=*/true, nullptr));
    return takePending(std::move(out));
  }
  // Real-time mode (PySpark's TwsTester realTimeMode): one handleInputRows call per row, each
  // its own batch, so the timers due fire after every row.
  std::vector<Row> out;
  for (Row& r : input) {
    std::vector<Row> one;
    one.push_back(std::move(r));
    STREAMSIM_ASSIGN_OR_RETURN(auto emitted, runBatch(std::move(one), /*commit=*/true, nullptr));
    for (Row& e : emitted) out.push_back(std::move(e));
  }
  return takePending(std::move(out));
}

// Moves one of the tester's clocks forward; in the time mode that clock drives, runs a batch
// without input so the timers that became due fire.
Result<std::vector<Row>> ProcessorTesterBase::moveTime(TimeMs& clock, TimeMs ms, const char* what,
                                                       TimeMode firesIn) {
  if (ms < clock)
    return Status::InvalidArgument(fmt::format("{}({}): {} moves forward only (it is {})", what,
                                               formatTimestamp(ms),
                                               firesIn == TimeMode::kProcessingTime
                                                   ? "processing time"
                                                   : "the watermark",
                                               formatTimestamp(clock)));
  clock = ms;
  if (options_.timeMode != firesIn) return takePending({});
  STREAMSIM_ASSIGN_OR_RETURN(auto out, runBatch({}, /*commit=*/true, nullptr));
  return takePending(std::move(out));
}

Result<std::vector<Row>> ProcessorTesterBase::setProcessingTime(TimeMs ms) {
  return moveTime(processing_time_, ms, "setProcessingTime", TimeMode::kProcessingTime);
}

Result<std::vector<Row>> ProcessorTesterBase::setWatermark(TimeMs ms) {
  return moveTime(watermark_, ms, "setWatermark", TimeMode::kEventTime);
}

Status ProcessorTesterBase::runProbe(const GroupKey& key, bool commit,
                                     std::function<Status(ProbeScope&)> action) {
  STREAMSIM_ASSIGN_OR_RETURN(Row k, keyRow(key));
  Probe probe;
  probe.key = k;
  probe.suppressTimers = !commit;
  probe.action = std::move(action);
  // One input row carrying the key (and a far-future event time, so it is never late).
  Row dummy = k;
  if (options_.inputEventTimeColumn && !k.has(*options_.inputEventTimeColumn)) {
    std::vector<Field> fields = k.schema()->fields();
    std::vector<Value> values = k.values();
    fields.push_back(Field{*options_.inputEventTimeColumn, Type::kTimestamp, true, nullptr});
    values.push_back(Value::timestamp(std::numeric_limits<TimeMs>::max() / 4));
    dummy = Row(makeSchema(std::move(fields)), std::move(values));
  }
  auto out = runBatch({dummy}, commit, &probe);
  if (!out.ok()) return out.status();
  if (commit)
    for (Row& r : out.value()) pending_output_.push_back(std::move(r));
  if (!probe.ran)
    return Status::FailedPrecondition(fmt::format(
        "key {} never reached the processor (was its probe row dropped as late?)", formatKey(k)));
  return probe.status;
}

Result<RawStateValue> ProcessorTesterBase::peekRaw(const GroupKey& key, const std::string& name) {
  RawStateValue out;
  STREAMSIM_RETURN_IF_ERROR(runProbe(key, false, [&](ProbeScope& s) -> Status {
    STREAMSIM_ASSIGN_OR_RETURN(out, s.read(name));
    return Status::OK();
  }));
  return out;
}

Result<RawStateValue> ProcessorTesterBase::peekRawWithoutTTL(const GroupKey& key,
                                                             const std::string& name) {
  RawStateValue out;
  STREAMSIM_RETURN_IF_ERROR(runProbe(key, false, [&](ProbeScope& s) -> Status {
    STREAMSIM_ASSIGN_OR_RETURN(out, s.readWithoutTTL(name));
    return Status::OK();
  }));
  return out;
}

Status ProcessorTesterBase::setRaw(const GroupKey& key, const std::string& name,
                                   const RawStateValue& v) {
  return runProbe(key, true, [&](ProbeScope& s) { return s.write(name, v); });
}

Status ProcessorTesterBase::deleteState(const GroupKey& key, const std::string& name) {
  return runProbe(key, true, [&](ProbeScope& s) { return s.clear(name); });
}

Status ProcessorTesterBase::removeMapKey(const GroupKey& key, const std::string& name,
                                         const std::string& encodedUserKey) {
  return runProbe(key, true, [&](ProbeScope& s) { return s.removeMapKey(name, encodedUserKey); });
}

Result<std::vector<TimeMs>> ProcessorTesterBase::listTimers(const GroupKey& key) {
  if (options_.timeMode == TimeMode::kNone) return std::vector<TimeMs>{};
  std::vector<TimeMs> out;
  STREAMSIM_RETURN_IF_ERROR(runProbe(key, false, [&](ProbeScope& s) {
    out = s.handle().listTimers();
    return Status::OK();
  }));
  return out;
}

Status ProcessorTesterBase::registerTimer(const GroupKey& key, TimeMs ts) {
  return runProbe(key, true, [&](ProbeScope& s) {
    s.handle().registerTimer(ts);
    return Status::OK();
  });
}

Status ProcessorTesterBase::deleteTimer(const GroupKey& key, TimeMs ts) {
  return runProbe(key, true, [&](ProbeScope& s) {
    s.handle().deleteTimer(ts);
    return Status::OK();
  });
}

Result<std::vector<std::pair<std::string, std::string>>> ProcessorTesterBase::stateVariables() {
  std::vector<Value> nulls(options_.groupBy.size());
  std::vector<Field> fields;
  for (const std::string& c : options_.groupBy) fields.push_back(Field{c, Type::kString, true, nullptr});
  std::vector<std::pair<std::string, std::string>> out;
  STREAMSIM_RETURN_IF_ERROR(runProbe(Row(makeSchema(fields), nulls), false, [&](ProbeScope& s) {
    out = s.variables();
    return Status::OK();
  }));
  return out;
}

Status ProcessorTesterBase::restart() {
  if (operator_ != nullptr) {
    operator_->stop();
    operator_.reset();
  }
  if (own_fs_ != nullptr) own_fs_->crashLosingUnsynced();
  stores_ = makeStateStoreProvider(env_, options_.stateStore);
  run_id_ = ids_->newUuid();
  return Status::OK();
}

Result<std::unique_ptr<ProcessorTester<StatefulProcessor>>> makeRegistryTester(
    const ProcessorSet& processors, std::string_view processorName, TesterOptions options) {
  STREAMSIM_ASSIGN_OR_RETURN(ProcessorFactory factory, processors.factory(processorName));
  if (options.processorName == "processor") options.processorName = std::string(processorName);
  return std::make_unique<ProcessorTester<StatefulProcessor>>(
      std::function<std::unique_ptr<StatefulProcessor>()>(std::move(factory)), std::move(options));
}

}  // namespace streamsim::harness
