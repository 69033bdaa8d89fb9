// State variables, timers and the handle of transformWithState (SEMANTICS.md §6). The store's
// byte layout is tws/state_layout.h's (the one writer and reader).
#include <algorithm>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "streamsim/trace_events.h"
#include "tws/tws_internal.h"

namespace streamsim {

// ---------------------------------------------------------------------------------------------
// Codecs
// ---------------------------------------------------------------------------------------------

namespace detail {

namespace {
bool sameGroup(Type a, Type b) {
  auto group = [](Type t) {
    switch (t) {
      case Type::kInt:
      case Type::kLong:
      case Type::kTimestamp: return 1;
      case Type::kDouble: return 2;
      case Type::kBoolean: return 3;
      case Type::kString: return 4;
      case Type::kStruct: return 5;
      case Type::kArray: return 6;
      case Type::kMap: return 7;
      case Type::kDate: return 8;
      case Type::kBinary: return 9;
      case Type::kNull: return 0;
    }
    return 0;
  };
  return group(a) == group(b);
}
}  // namespace

Result<Value> decodeStateValue(std::string_view& in, Type expected) {
  auto r = decodeOrderedValue(in);
  if (!r.ok()) return r.status();
  if (!sameGroup(r.value().type(), expected))
    return Status::Corruption(fmt::format("expected a {} value, found {} ({})", typeName(expected),
                                          typeName(r.value().type()), r.value().toString()));
  return r;
}

Value castForCodec(const Value& v, Type t, std::string_view what) {
  if (v.isNull() || v.type() == t) return v;
  auto r = v.castTo(t);
  if (!r.ok())
    throwRule("STATE_VALUE_TYPE",
              fmt::format("{}: cannot store {} as {}: {}", what, v.toString(), typeName(t),
                          r.status().message()));
  return std::move(r).value();
}

Value castForCodec(const Value& v, const Field& f, std::string_view what) {
  if (!f.nested) return castForCodec(v, f.type, what);
  if (v.isNull()) return v;
  auto r = v.castTo(f);
  if (!r.ok())
    throwRule("STATE_VALUE_TYPE", fmt::format("{}: cannot store {} as {}: {}", what, v.toString(),
                                              typeDDL(f), r.status().message()));
  return std::move(r).value();
}

void frameStructColumns(std::string_view columns, std::string& out) {
  Status st = encodeOrderedStructOf(columns, out);
  if (!st.ok())
    throwRule("STATE_VALUE_TYPE",
              fmt::format("a struct codec inside a vector, tuple or optional must write its columns as "
                          "ordered values (row_encoding.h), one per schemaDDL() field: {}",
                          st.message()));
}

void throwDecodeError(std::string_view stateName, const Status& st) {
  throwRule("STATE_DECODE",
            fmt::format("state variable '{}': stored bytes do not decode with the declared type "
                        "(was the state schema changed?): {}",
                        stateName, st.message()));
}

void throwUninitialised(std::string_view kind) {
  throwRule("STATE_VARIABLE_NOT_INITIALISED",
            fmt::format("a {} was used before it was created with the handle in init()", kind));
}

void throwRule(std::string rule, const std::string& message) {
  std::string full = fmt::format("[{}] {}", rule, message);
  throw StatefulProcessorError(std::move(rule), {}, full);
}

void throwCondition(std::string condition, ErrorParams params, std::string_view hint) {
  std::string message = sparkErrorMessage(condition, params, hint);
  throw StatefulProcessorError(std::move(condition), std::move(params), message);
}

void throwNullValue(const std::string& stateName, std::string_view what) {
  throwCondition("ILLEGAL_STATE_STORE_VALUE.NULL_VALUE", {{"stateName", stateName}}, what);
}

void throwEmptyList(const std::string& stateName, std::string_view op) {
  throwCondition("ILLEGAL_STATE_STORE_VALUE.EMPTY_LIST_VALUE", {{"stateName", stateName}},
                 fmt::format("ListState.{}() with an empty list", op));
}

}  // namespace detail

StateCodec<Row>::StateCodec(std::string_view ddl) {
  auto s = parseSchema(ddl);
  if (!s.ok())
    detail::throwRule("STATE_SCHEMA", fmt::format("bad state schema \"{}\": {}", ddl,
                                                  s.status().message()));
  schema = std::move(s).value();
}

void StateCodec<Row>::encode(const Row& row, std::string& out) const {
  for (const Field& f : schema->fields()) {
    int i = row.schema()->indexOf(f.name);
    Value v = i < 0 || static_cast<size_t>(i) >= row.size() ? Value() : row[i];
    encodeOrderedValue(detail::castForCodec(v, f, "column " + f.name), out);
  }
}

Result<Row> StateCodec<Row>::decode(std::string_view& in) const {
  std::vector<Value> values;
  values.reserve(schema->size());
  for (size_t i = 0; i < schema->size(); ++i) {
    // A value written before nullable fields were appended to the schema (an evolved state
    // schema, state_schema.h) ends early: the new trailing fields read as null.
    if (in.empty() && schema->field(i).nullable) {
      values.emplace_back();
      continue;
    }
    auto r = schema->field(i).nested ? decodeOrderedValue(in, schema->field(i)) : decodeOrderedValue(in);
    if (!r.ok()) return r.status().withContext("column " + schema->field(i).name);
    Value v = std::move(r).value();
    if (!v.isNull() && v.type() != schema->field(i).type) {
      auto c = v.castTo(schema->field(i).type);
      if (!c.ok()) return c.status().withContext("column " + schema->field(i).name);
      v = std::move(c).value();
    }
    values.push_back(std::move(v));
  }
  return Row(schema, std::move(values));
}

std::string_view timeModeName(TimeMode m) {
  switch (m) {
    case TimeMode::kNone: return "None";
    case TimeMode::kProcessingTime: return "ProcessingTime";
    case TimeMode::kEventTime: return "EventTime";
  }
  return "None";
}

Result<TimeMode> parseTimeMode(std::string_view name) {
  std::string n;
  for (char c : name)
    if (c != '_' && c != '-' && c != ' ') n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "none") return TimeMode::kNone;
  if (n == "processingtime") return TimeMode::kProcessingTime;
  if (n == "eventtime") return TimeMode::kEventTime;
  return Status::InvalidArgument(fmt::format(
      "unknown time mode \"{}\": expected none, processingTime or eventTime", name));
}

namespace detail {

// ---------------------------------------------------------------------------------------------
// Byte layout
// ---------------------------------------------------------------------------------------------

namespace {
[[noreturn]] void corrupt(std::string_view stateName, std::string_view what) {
  throwRule("STATE_DECODE", fmt::format("state variable '{}': corrupt stored entry ({})",
                                        stateName, what));
}
}  // namespace

std::string_view TimerKeys::byKey(std::string_view key, TimeMs ts) {
  by_key_.assign(key);
  appendOrderedTime(ts, by_key_);
  return by_key_;
}

std::string_view TimerKeys::byTime(std::string_view key, TimeMs ts) {
  by_time_.clear();
  appendOrderedTime(ts, by_time_);
  by_time_.append(key);
  return by_time_;
}

EntryView decodeEntry(std::string_view stored, std::string_view stateName) {
  auto e = state_layout::readEntry(stored);
  if (!e.ok()) corrupt(stateName, e.status().message());
  return *e;
}

std::vector<ListElement> decodeList(std::string_view stored, std::string_view stateName) {
  auto list = state_layout::readList(stored);
  if (!list.ok()) corrupt(stateName, list.status().message());
  return std::move(list).value();
}

std::string_view phaseMethod(Phase p) {
  switch (p) {
    case Phase::kNone: return "(engine)";
    case Phase::kInit: return "init";
    case Phase::kInitialState: return "handleInitialState";
    case Phase::kInputRows: return "handleInputRows";
    case Phase::kExpiredTimer: return "handleExpiredTimer";
    case Phase::kClose: return "close";
  }
  return "(engine)";
}

void TaskContext::fail(std::string rule, const std::string& message) {
  try {
    throwRule(std::move(rule), message);
  } catch (const StatefulProcessorError& e) {
    if (!violation) violation = e;
    throw;
  }
}

void TaskContext::failWith(std::string condition, ErrorParams params, std::string_view hint) {
  try {
    throwCondition(std::move(condition), std::move(params), hint);
  } catch (const StatefulProcessorError& e) {
    if (!violation) violation = e;
    throw;
  }
}

void TaskContext::requireInitState(std::string_view operationType) {
  const HandleState required = store == nullptr ? HandleState::kPreInit : HandleState::kCreated;
  if (handleState != required)
    failWith("STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
             {{"operationType", std::string(operationType)},
              {"handleState", std::string(handleStateName(handleState))}},
             fmt::format("only init() may do this, not {}", phaseMethod(phase)));
}

void TaskContext::checkStateOperation(const std::string& stateName, std::string_view op) {
  if (handleState == HandleState::kPreInit)
    failWith("STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
             {{"operationType", fmt::format("{}.{}", stateName, op)}, {"handleState", "PRE_INIT"}},
             "state can be read and written only in handleInitialState, handleInputRows and "
             "handleExpiredTimer, not in init()");
  if (!hasKey)
    failWith("INTERNAL_ERROR_TWS",
             {{"message", "Implicit key not found in state store for stateName=" + stateName}},
             fmt::format("{}.{}() in {} has no grouping key", stateName, op, phaseMethod(phase)));
}

void TaskContext::requireKey(std::string_view what) {
  if (!hasKey)
    failWith("INTERNAL_ERROR_TWS",
             {{"message", fmt::format("Implicit key not found in state store for {}", what)}},
             fmt::format("{} in {} has no grouping key", what, phaseMethod(phase)));
}

std::string_view sparkTimeModeName(TimeMode m) {
  switch (m) {
    case TimeMode::kNone: return "NoTime";
    case TimeMode::kProcessingTime: return "ProcessingTime";
    case TimeMode::kEventTime: return "EventTime";
  }
  return "NoTime";
}

// ---------------------------------------------------------------------------------------------
// Backends
// ---------------------------------------------------------------------------------------------

namespace {

class VariableBase {
 public:
  VariableBase(TaskContext& task, std::string name, std::optional<DurationMs> ttl)
      : task_(task), name_(std::move(name)), ttl_(ttl), ttl_cf_(ttlIndexCf(name_)) {}

 protected:
  std::optional<TimeMs> stamp() const {
    if (!ttl_) return std::nullopt;
    return task_.batchTimestampMs + *ttl_;
  }
  void index(const std::optional<TimeMs>& expiresAt, std::string_view primaryKey) {
    if (!expiresAt) return;
    std::string k = orderedTime(*expiresAt);
    k.append(primaryKey);
    task_.store->put(ttl_cf_, k, "");
  }
  void record(const StatefulProcessorError& e) {
    if (!task_.violation) task_.violation = e;
  }
  const std::string& key(std::string_view op) {
    // The rule's message is formatted only when the rule is broken (this runs per state access).
    if (!task_.hasKey) task_.checkStateOperation(name_, op);
    return task_.key;
  }
  // The handle-state rule of a typed operation (ValueState.exists, ...): PRE_INIT rejects all.
  void check(std::string_view op) {
    if (task_.handleState == HandleState::kPreInit) task_.checkStateOperation(name_, op);
  }
  TimeMs now() const { return task_.batchTimestampMs; }

  // Trace events for the TTL oracle (harness/oracles.h), only for a variable with TTL and only
  // when a trace sink is set: callers test tracingTtl() before formatting fields.
  bool tracingTtl() const { return ttl_ && task_.trace; }
  void traceTtl(std::string_view event, const std::string& fields) {
    if (!ttl_ || !task_.trace) return;
    task_.trace(event, fmt::format(R"("state":{}{}{})", nlohmann::json(name_).dump(),
                                   fields.empty() ? "" : ",", fields));
  }
  // A map's user key is encoded bytes (not always UTF-8): traced as hex.
  static std::string hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char c : bytes) {
      out.push_back(kDigits[c >> 4]);
      out.push_back(kDigits[c & 0xf]);
    }
    return out;
  }
  static std::string expiryArray(const std::vector<TimeMs>& expiries) {
    return fmt::format("[{}]", fmt::join(expiries, ","));
  }

  TaskContext& task_;
  std::string name_;
  std::optional<DurationMs> ttl_;
  std::string ttl_cf_;
};

class ValueBackendImpl final : public ValueStateBackend, VariableBase {
 public:
  using VariableBase::VariableBase;
  const std::string& name() const override { return name_; }
  void recordViolation(const StatefulProcessorError& e) override { record(e); }
  void checkOperation(std::string_view op) override { check(op); }
  std::optional<std::string> get() override {
    const std::string& k = key("get");
    std::optional<std::string> stored = task_.store->get(name_, k);
    if (!stored) {
      // Tested first: the trace fields' string would be built per read otherwise.
      if (tracingTtl()) traceTtl(events::kTtlRead, R"("stored":false,"returned":false)");
      return std::nullopt;
    }
    EntryView e = decodeEntry(*stored, name_);
    bool expired = isExpired(e.expiresAt, now());
    if (tracingTtl())
      traceTtl(events::kTtlRead, fmt::format(R"("stored":true,"returned":{},"expiresAt":{})",
                                           !expired, e.expiresAt ? *e.expiresAt : -1));
    if (expired) return std::nullopt;
    // The payload is the entry after its header: cut in place, not copied.
    stored->erase(0, stored->size() - e.payload.size());
    return stored;
  }
  std::optional<StoredValue> stored() override {
    const std::string& k = key("get");
    auto bytes = task_.store->get(name_, k);
    if (!bytes) return std::nullopt;
    EntryView e = decodeEntry(*bytes, name_);
    return StoredValue{std::string(e.payload), e.expiresAt};
  }
  void update(std::string bytes) override {
    const std::string& k = key("update");
    auto expiresAt = stamp();
    // Built in a buffer kept across calls (encodeEntry's bytes, no string per update).
    entry_.clear();
    state_layout::appendEntryHeader(expiresAt, entry_);
    entry_.append(bytes);
    task_.store->put(name_, k, entry_);
    index(expiresAt, k);
    if (expiresAt) traceTtl(events::kTtlWrite, fmt::format(R"("expiresAt":{})", *expiresAt));
  }
  void clear() override {
    const std::string& k = key("clear");
    task_.store->remove(name_, k);
    traceTtl(events::kTtlClear, "");
  }

 private:
  std::string entry_;
};

class ListBackendImpl final : public ListStateBackend, VariableBase {
 public:
  using VariableBase::VariableBase;
  const std::string& name() const override { return name_; }
  void recordViolation(const StatefulProcessorError& e) override { record(e); }
  void checkOperation(std::string_view op) override { check(op); }
  std::vector<std::string> get() override {
    std::vector<std::string> out;
    const std::string& k = key("get");
    auto stored = task_.store->get(name_, k);
    if (!stored) {
      if (tracingTtl()) traceTtl(events::kTtlListRead, R"("expiresAt":[])");
      return out;
    }
    std::vector<TimeMs> returned;
    for (ListElement& e : decodeList(*stored, name_)) {
      if (isExpired(e.expiresAt, now())) continue;
      if (tracingTtl()) returned.push_back(e.expiresAt ? *e.expiresAt : -1);
      out.push_back(std::move(e.payload));
    }
    if (tracingTtl())
      traceTtl(events::kTtlListRead, fmt::format(R"("expiresAt":{})", expiryArray(returned)));
    return out;
  }
  std::vector<StoredValue> stored() override {
    const std::string& k = key("get");
    std::vector<StoredValue> out;
    if (auto bytes = task_.store->get(name_, k))
      for (ListElement& e : decodeList(*bytes, name_)) out.push_back(StoredValue{std::move(e.payload), e.expiresAt});
    return out;
  }
  void put(std::vector<std::string> elements) override {
    const std::string& k = key("put");
    write(k, {}, std::move(elements), "put");
  }
  void append(std::vector<std::string> elements) override {
    const std::string& k = key("append");
    std::vector<ListElement> existing;
    if (auto stored = task_.store->get(name_, k)) existing = decodeList(*stored, name_);
    write(k, std::move(existing), std::move(elements), "append");
  }
  void clear() override {
    const std::string& k = key("clear");
    task_.store->remove(name_, k);
    traceTtl(events::kTtlListClear, "");
  }

 private:
  // put restamps the whole list (it replaces it); append stamps only the new elements.
  void write(const std::string& k, std::vector<ListElement> list,
             std::vector<std::string> added, std::string_view mode) {
    auto expiresAt = stamp();
    size_t count = added.size();
    for (std::string& p : added) list.push_back(ListElement{expiresAt, std::move(p)});
    task_.store->put(name_, k, encodeList(list));
    index(expiresAt, k);
    if (expiresAt && tracingTtl())
      traceTtl(events::kTtlListWrite, fmt::format(R"("mode":"{}","count":{},"expiresAt":{})", mode,
                                                 count, *expiresAt));
  }
};

class MapBackendImpl final : public MapStateBackend, VariableBase {
 public:
  using VariableBase::VariableBase;
  const std::string& name() const override { return name_; }
  void recordViolation(const StatefulProcessorError& e) override { record(e); }
  void checkOperation(std::string_view op) override { check(op); }
  std::optional<std::string> getValue(std::string_view userKey) override {
    std::string k = key("getValue") + std::string(userKey);
    auto stored = task_.store->get(name_, k);
    if (!stored) {
      if (tracingTtl())
        traceTtl(events::kTtlMapRead, fmt::format(R"("userKey":"{}","stored":false,"returned":false)",
                                                 hex(userKey)));
      return std::nullopt;
    }
    EntryView e = decodeEntry(*stored, name_);
    bool expired = isExpired(e.expiresAt, now());
    if (tracingTtl())
      traceTtl(events::kTtlMapRead,
               fmt::format(R"("userKey":"{}","stored":true,"returned":{},"expiresAt":{})",
                           hex(userKey), !expired, e.expiresAt ? *e.expiresAt : -1));
    if (expired) return std::nullopt;
    return std::string(e.payload);
  }
  void updateValue(std::string userKey, std::string value) override {
    std::string k = key("updateValue") + userKey;
    auto expiresAt = stamp();
    task_.store->put(name_, k, encodeEntry(expiresAt, value));
    index(expiresAt, k);
    if (expiresAt && tracingTtl())
      traceTtl(events::kTtlMapWrite,
               fmt::format(R"("userKey":"{}","expiresAt":{})", hex(userKey), *expiresAt));
  }
  std::vector<std::pair<std::string, std::string>> entries() override {
    const std::string& prefix = key("iterator");
    std::vector<std::pair<std::string, std::string>> out;
    TimeMs t = now();
    const bool tracing = tracingTtl();
    std::vector<TimeMs> returned;
    task_.store->scanPrefix(name_, prefix, [&](std::string_view k, std::string_view v) {
      EntryView e = decodeEntry(v, name_);
      if (!isExpired(e.expiresAt, t)) {
        out.emplace_back(std::string(k.substr(prefix.size())), std::string(e.payload));
        if (tracing) returned.push_back(e.expiresAt ? *e.expiresAt : -1);
      }
      return true;
    });
    if (tracing)
      traceTtl(events::kTtlMapIter, fmt::format(R"("expiresAt":{})", expiryArray(returned)));
    return out;
  }
  std::vector<std::pair<std::string, StoredValue>> stored() override {
    const std::string& prefix = key("iterator");
    std::vector<std::pair<std::string, StoredValue>> out;
    task_.store->scanPrefix(name_, prefix, [&](std::string_view k, std::string_view v) {
      EntryView e = decodeEntry(v, name_);
      out.emplace_back(std::string(k.substr(prefix.size())), StoredValue{std::string(e.payload), e.expiresAt});
      return true;
    });
    return out;
  }
  void removeKey(std::string_view userKey) override {
    std::string k = key("removeKey") + std::string(userKey);
    task_.store->remove(name_, k);
    if (tracingTtl())
      traceTtl(events::kTtlMapRemove, fmt::format(R"("userKey":"{}")", hex(userKey)));
  }
  void clear() override {
    const std::string& prefix = key("clear");
    std::vector<std::string> keys;
    task_.store->scanPrefix(name_, prefix, [&](std::string_view k, std::string_view) {
      keys.emplace_back(k);
      return true;
    });
    for (const std::string& k : keys) task_.store->remove(name_, k);
    traceTtl(events::kTtlMapClear, "");
  }
};

// Removes every row of `cf`; how many there were.
size_t removeAll(StateStore& store, std::string_view cf) {
  std::vector<std::string> keys;
  store.scan(cf, "", "", [&](std::string_view k, std::string_view) {
    keys.emplace_back(k);
    return true;
  });
  for (const std::string& k : keys) store.remove(cf, k);
  return keys.size();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Handle
// ---------------------------------------------------------------------------------------------

std::optional<DurationMs> TaskHandle::declare(const std::string& name, StateKind kind,
                                              const StateVariableInfo& info,
                                              std::optional<TTLConfig> ttl) {
  const char* op = kind == StateKind::kValue  ? "get_value_state"
                   : kind == StateKind::kList ? "get_list_state"
                                              : "get_map_state";
  task_.requireInitState(op);
  // The state store's column family name rules (RocksDBStateStoreProvider).
  if (name.empty() || name == "default" || name.front() == ' ' || name.back() == ' ')
    task_.failWith("STATE_STORE_CANNOT_USE_COLUMN_FAMILY_WITH_INVALID_NAME",
                   {{"operationName", "create_col_family"}, {"colFamilyName", name}});
  if (name[0] == '$')
    task_.failWith("STATE_STORE_CANNOT_CREATE_COLUMN_FAMILY_WITH_RESERVED_CHARS",
                   {{"colFamilyName", name}}, "'$' starts the names of timers and TTL indexes");
  for (const StateVariable& v : task_.variables)
    if (v.name == name)
      task_.failWith("STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED", {{"stateVarName", name}});
  std::optional<DurationMs> ttlMs;
  // Spark's ttlEnabled: a zero duration is TTLConfig.NONE (a null one is not).
  if (ttl && ttl->ttlDuration == DurationMs{0}) ttl.reset();
  if (ttl) {
    if (task_.timeMode != TimeMode::kProcessingTime)
      task_.failWith("STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                     {{"stateName", name}, {"timeMode", std::string(sparkTimeModeName(task_.timeMode))}});
    if (!ttl->ttlDuration || *ttl->ttlDuration <= 0)
      task_.failWith("STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                     {{"operationType", "update"}, {"stateName", name}},
                     ttl->ttlDuration ? fmt::format("TTLConfig{{{}}}", *ttl->ttlDuration)
                                      : std::string("TTLConfig{null}"));
    ttlMs = *ttl->ttlDuration;
  }
  task_.variables.push_back(StateVariable{name, kind, ttlMs, info});
  return ttlMs;
}

std::shared_ptr<ValueStateBackend> TaskHandle::createValueState(const std::string& name,
                                                                const StateVariableInfo& info,
                                                                std::optional<TTLConfig> ttl) {
  auto t = declare(name, StateKind::kValue, info, ttl);
  return std::make_shared<ValueBackendImpl>(task_, name, t);
}

std::shared_ptr<ListStateBackend> TaskHandle::createListState(const std::string& name,
                                                              const StateVariableInfo& info,
                                                              std::optional<TTLConfig> ttl) {
  auto t = declare(name, StateKind::kList, info, ttl);
  return std::make_shared<ListBackendImpl>(task_, name, t);
}

std::shared_ptr<MapStateBackend> TaskHandle::createMapState(const std::string& name,
                                                            const StateVariableInfo& info,
                                                            std::optional<TTLConfig> ttl) {
  auto t = declare(name, StateKind::kMap, info, ttl);
  return std::make_shared<MapBackendImpl>(task_, name, t);
}

void TaskHandle::checkTimerCall(std::string_view op) {
  if (task_.timeMode == TimeMode::kNone)
    task_.failWith("STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE",
                   {{"operationType", std::string(op)}, {"timeMode", "NoTime"}},
                   "run the query with TimeMode ProcessingTime or EventTime");
  if (task_.handleState < HandleState::kInitialized ||
      task_.handleState >= HandleState::kTimerProcessed)
    task_.failWith("STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_HANDLE_STATE",
                   {{"operationType", std::string(op)},
                    {"handleState", std::string(handleStateName(task_.handleState))}},
                   fmt::format("timers can be used only in handleInitialState, handleInputRows and "
                               "handleExpiredTimer, not in {}",
                               phaseMethod(task_.phase)));
  task_.requireKey(op);
}

void TaskHandle::registerTimer(TimeMs ts) {
  checkTimerCall("register_timer");
  ++task_.registerTimerCalls;
  const std::string_view byKey = task_.timerKeys.byKey(task_.key, ts);
  // One timer per (key, timestamp).
  if (!task_.store->putIfAbsent(kTimersByKeyCf, byKey, "")) return;
  task_.store->put(kTimersByTimeCf, task_.timerKeys.byTime(task_.key, ts), "");
  if (task_.trace) task_.trace(events::kTimerRegistered, fmt::format("\"ts\":{}", ts));
}

void TaskHandle::deleteTimer(TimeMs ts) {
  checkTimerCall("delete_timer");
  ++task_.deleteTimerCalls;
  if (!timerExists(*task_.store, task_.timerKeys, task_.key, ts)) return;
  deleteTimerEntries(*task_.store, task_.timerKeys, task_.key, ts);
  ++task_.timersDeleted;
  if (task_.trace) task_.trace(events::kTimerDeleted, fmt::format("\"ts\":{}", ts));
}

std::vector<TimeMs> TaskHandle::listTimers() {
  checkTimerCall("list_timers");
  std::vector<TimeMs> out;
  const std::string& prefix = task_.key;
  task_.store->scanPrefix(kTimersByKeyCf, prefix, [&](std::string_view k, std::string_view) {
    if (k.size() == prefix.size() + 8) out.push_back(readOrderedTime(k.substr(prefix.size())));
    return true;
  });
  return out;
}

void TaskHandle::deleteIfExists(const std::string& name) {
  task_.requireInitState("delete_if_exists");
  if (name.empty() || name[0] == '$')
    task_.failWith("STATE_STORE_CANNOT_USE_COLUMN_FAMILY_WITH_INVALID_NAME",
                   {{"operationName", "remove_col_family"}, {"colFamilyName", name}},
                   "not a state variable name");
  if (task_.store == nullptr) return;  // start()'s dry run of init()
  // Spark counts numDeletedStateVars when the store had the column family; streamsim's store
  // has a variable's family while it holds rows.
  const size_t removed = removeAll(*task_.store, name) + removeAll(*task_.store, ttlIndexCf(name));
  if (removed > 0) ++task_.deletedStateVars;
}

// ---------------------------------------------------------------------------------------------
// Timers and TTL cleanup
// ---------------------------------------------------------------------------------------------

bool timerExists(StateStore& store, TimerKeys& keys, std::string_view key, TimeMs ts) {
  return store.get(kTimersByKeyCf, keys.byKey(key, ts)).has_value();
}

void deleteTimerEntries(StateStore& store, TimerKeys& keys, std::string_view key, TimeMs ts) {
  store.remove(kTimersByKeyCf, keys.byKey(key, ts));
  store.remove(kTimersByTimeCf, keys.byTime(key, ts));
}

DueTimers dueTimers(StateStore& store, TimeMs threshold) {
  DueTimers out;
  std::vector<size_t> ends;  // each key's end in out.keys: the views are set once it stops growing
  std::string end = prefixSuccessor(orderedTime(threshold));
  store.scan(kTimersByTimeCf, "", end, [&](std::string_view k, std::string_view) {
    if (k.size() >= 8) {
      out.keys.insert(out.keys.end(), k.begin() + 8, k.end());
      out.timers.push_back(DueTimer{readOrderedTime(k), {}});
      ends.push_back(out.keys.size());
    }
    return true;
  });
  size_t begin = 0;
  for (size_t i = 0; i < out.timers.size(); ++i) {
    out.timers[i].key = std::string_view(out.keys.data() + begin, ends[i] - begin);
    begin = ends[i];
  }
  return out;
}

int64_t cleanupExpired(StateStore& store, const StateVariable& variable, TimeMs now) {
  if (!variable.ttl) return 0;
  std::string indexCf = ttlIndexCf(variable.name);
  std::vector<std::string> due;
  store.scan(indexCf, "", prefixSuccessor(orderedTime(now)),
             [&](std::string_view k, std::string_view) {
               due.emplace_back(k);
               return true;
             });
  int64_t removed = 0;
  for (const std::string& indexKey : due) {
    std::string_view primary = std::string_view(indexKey).substr(8);
    if (auto stored = store.get(variable.name, primary)) {
      if (variable.kind == StateKind::kList) {
        std::vector<ListElement> list = decodeList(*stored, variable.name);
        size_t before = list.size();
        std::erase_if(list, [&](const ListElement& e) { return isExpired(e.expiresAt, now); });
        if (list.size() != before) {
          removed += static_cast<int64_t>(before - list.size());
          if (list.empty())
            store.remove(variable.name, primary);
          else
            store.put(variable.name, primary, encodeList(list));
        }
      } else {
        EntryView e = decodeEntry(*stored, variable.name);
        if (isExpired(e.expiresAt, now)) {
          store.remove(variable.name, primary);
          ++removed;
        }
      }
    }
    store.remove(indexCf, indexKey);
  }
  return removed;
}

}  // namespace detail
}  // namespace streamsim
