// The built-in example processors (processors/builtin.h) and their registrations.
#include "streamsim/processors/builtin.h"

#include <fmt/format.h>

#include "streamsim/time.h"

#include "streamsim/tws/processor_registry.h"

namespace streamsim {
namespace processors {

Row withKey(const Row& key, std::vector<std::pair<std::string, Value>> extra) {
  RowShapes once;
  return withKey(once, key, std::move(extra));
}

Row withKey(RowShapes& shapes, const Row& key, std::vector<std::pair<std::string, Value>> extra) {
  // Values straight into the row (no intermediate named pairs).
  std::vector<Value> values;
  values.reserve(key.size() + extra.size());
  for (size_t i = 0; i < key.size(); ++i) values.push_back(key[i]);
  for (auto& e : extra) values.push_back(std::move(e.second));
  SchemaPtr schema = shapes.infer(values, [&](size_t i) -> std::string_view {
    return i < key.size() ? std::string_view(key.schema()->field(i).name)
                          : std::string_view(extra[i - key.size()].first);
  });
  return Row(std::move(schema), std::move(values));
}

Row withKey(const Row& key, std::string_view name, Value value) {
  RowShapes once;
  return once.appended(key, name, std::move(value));
}

Row withKey(RowShapes& shapes, const Row& key, std::string_view name, Value value) {
  return shapes.appended(key, name, std::move(value));
}

namespace {
Value firstKeyValue(const Row& key) { return key.size() > 0 ? key[0] : Value(); }
}  // namespace

// --- count ---

void CountProcessor::init(StatefulProcessorHandle& handle) {
  count_ = handle.getValueState<int64_t>("count");
}

void CountProcessor::handleInputRows(const Row& key, RowRange rows, const TimerValues&,
                                     Output& out) {
  // getOption(): one state read (exists() then get() would read twice).
  int64_t total = count_.getOption().value_or(0) + static_cast<int64_t>(rows.size());
  count_.update(total);
  out.emit(withKey(shapes_, key, "count", Value(total)));
}

// --- simple_counter ---

void SimpleCounterProcessor::init(StatefulProcessorHandle& handle) {
  value_state_ = handle.getValueState<int32_t>("valueState");
  list_state_ = handle.getListState<int32_t>("listState");
  map_state_ = handle.getMapState<std::string, int32_t>("mapState");
}

void SimpleCounterProcessor::handleInputRows(const Row& key, RowRange rows, const TimerValues&,
                                             Output& out) {
  // Seed the running total from state so the count accumulates across micro-batches.
  int32_t count = value_state_.exists() ? value_state_.get() : 0;
  for (const Row& row : rows) {
    (void)row;
    const std::vector<int32_t> listStateRows = {120, 20};
    list_state_.put(listStateRows);
    list_state_.appendValue(111);
    list_state_.appendList(listStateRows);
    count += 1;
  }
  value_state_.update(count);
  std::vector<int32_t> list = list_state_.get();
  (void)list;  // the seed reads the first element and does nothing with it
  int32_t value = count;
  const std::string userKey = "user_key";
  if (map_state_.exists() && map_state_.containsKey(userKey)) value += *map_state_.getValue(userKey);
  map_state_.updateValue(userKey, value);
  Value id = firstKeyValue(key);
  out.emit(shapes_.fromNamed({{"id", id.isNull() ? Value() : Value(id.toString())},
                             {"countAsString", std::to_string(count)}}));
}

// --- session_tracker ---

void SessionTrackerProcessor::init(StatefulProcessorHandle& handle) {
  sessions_ = handle.getMapState<std::string, int64_t>("sessions");
}

void SessionTrackerProcessor::handleInputRows(const Row&, RowRange rows, const TimerValues&,
                                              Output&) {
  for (const Row& row : rows) {
    std::string sessionKey = row.get("session_id").toString();  // the MapState key
    int64_t count = sessions_.containsKey(sessionKey) ? *sessions_.getValue(sessionKey) : 0;
    sessions_.updateValue(sessionKey, count + 1);
  }
}

// --- counter_with_initial_state ---

void CounterWithInitialState::init(StatefulProcessorHandle& handle) {
  count_state_ = handle.getValueState<int32_t>("countState");
}

void CounterWithInitialState::handleInitialState(const Row&, const Row& initialState,
                                                 const TimerValues&, Output&) {
  const Value& c = initialState.get("count");
  count_state_.update(c.isNull() ? 0 : static_cast<int32_t>(c.asLong()));
}

void CounterWithInitialState::handleInputRows(const Row& key, RowRange rows, const TimerValues&,
                                              Output& out) {
  int32_t count = count_state_.exists() ? count_state_.get() : 0;
  count += static_cast<int32_t>(rows.size());
  count_state_.update(count);
  out.emit(shapes_.fromNamed({{"id", firstKeyValue(key)}, {"count", count}}));
}

// --- heartbeat ---

void HeartbeatProcessor::init(StatefulProcessorHandle& handle) {
  last_seen_ = handle.getValueState<int64_t>("last_seen");
}

void HeartbeatProcessor::handleInputRows(const Row&, RowRange, const TimerValues& timerValues,
                                         Output&) {
  StatefulProcessorHandle& handle = getHandle();
  for (TimeMs t : handle.listTimers()) handle.deleteTimer(t);
  TimeMs now = timerValues.getCurrentProcessingTimeInMs();
  handle.registerTimer(now + timeout_ms_);
  last_seen_.update(now);
}

void HeartbeatProcessor::handleExpiredTimer(const Row& key, const TimerValues&,
                                            const ExpiredTimerInfo&, Output& out) {
  Value lastSeen = last_seen_.exists() ? Value(last_seen_.get()) : Value();
  out.emit(withKey(shapes_, key, {{"status", "missing"}, {"last_seen", lastSeen}}));
  last_seen_.clear();
}

// --- ttl_cache ---

void TtlCacheProcessor::init(StatefulProcessorHandle& handle) {
  value_ = handle.getValueState<std::string>("value", TTLConfig{ttl_ms_});
}

void TtlCacheProcessor::handleInputRows(const Row& key, RowRange rows, const TimerValues&,
                                        Output& out) {
  std::optional<std::string> previous = value_.getOption();
  std::string latest;
  for (const Row& row : rows) latest = row.has("value") ? row.get("value").toString() : row.toJson();
  value_.update(latest);
  out.emit(withKey(shapes_, key, {{"value", latest}, {"previous", previous ? Value(*previous) : Value()}}));
}

}  // namespace processors

namespace {
// heartbeat {timeout}: the silence after which a key is reported missing (default 10s).
ParamProcessor heartbeatProcessor() {
  return {
    "heartbeat", {"timeout"}, [](const ProcessorParams& params) -> Result<ProcessorFactory> {
      STREAMSIM_ASSIGN_OR_RETURN(DurationMs timeout, durationParam(params, "timeout", 10'000));
      return ProcessorFactory([timeout] {
        return asStatefulProcessor(std::make_unique<processors::HeartbeatProcessor>(timeout));
      });
    }};
}

// ttl_cache {ttl}: the value state's TTL (default 60s; a scenario's `ttl:` sets it), handed to
// TTLConfig as given so Spark's rules decide in init: 0 is no TTL, a negative duration or "null"
// (a scenario's `ttl: null`, Scala's TTLConfig(null)) is STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE.
ParamProcessor ttlCacheProcessor() {
  return {
    "ttl_cache", {"ttl"}, [](const ProcessorParams& params) -> Result<ProcessorFactory> {
      std::optional<DurationMs> ttl = 60'000;
      if (auto it = params.find("ttl"); it != params.end()) {
        if (it->second == "null") {
          ttl.reset();
        } else {
          auto d = parseDuration(it->second);
          if (!d.ok())
            return Status::InvalidArgument(fmt::format(
                "parameter 'ttl' must be a duration such as 1m, 10s, 250ms (or null); got '{}'", it->second));
          ttl = *d;
        }
      }
      return ProcessorFactory([ttl] {
        return asStatefulProcessor(std::make_unique<processors::TtlCacheProcessor>(ttl));
      });
    }};
}
}  // namespace

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerBuiltinProcessors(ProcessorSet& set) {
  heartbeatProcessor().addTo(set);
  ttlCacheProcessor().addTo(set);
  set.add("count", processorFactoryOf<processors::CountProcessor>());
  // A count per key is split-invariant and is the harness's built-in "count" reference; the
  // heartbeat keeps one timer per key (docs/processors.md; the oracles: harness oracles/promises.h).
  set.promise("count", {.splitInvariant = true, .reference = "count"});
  set.promise("heartbeat", {.timersPerKey = 1});
  set.add("simple_counter", processorFactoryOf<processors::SimpleCounterProcessor>());
  set.add("session_tracker", processorFactoryOf<processors::SessionTrackerProcessor>());
  set.add("counter_with_initial_state", processorFactoryOf<processors::CounterWithInitialState>());
}
}  // namespace detail

}  // namespace streamsim
