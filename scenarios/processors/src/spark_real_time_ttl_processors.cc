// The TTL processors of Spark's RealTimeTransformWithStateSuite (sql/core/src/test/scala/org/
// apache/spark/sql/streaming/RealTimeTransformWithStateSuite.scala) and the multi-variable one of
// TransformWithListStateTTLSuite.scala it borrows, re-created for the scenarios that port its TTL
// tests (scenarios/realtime/spark/rtws_*ttl*, rtws_cleans_up_every_entry_...). As in
// spark_real_time_processors.cc each emits {key columns..., ...}; one instance per partition task;
// not thread-safe.
//
// "rtm_list_ttl" (RealTimeListTTLProcessor): each row appends value, value+1, value+2 (its
//   `value` as a long) to ListState<long> "values" with a 10 s TTL; emits {count: list size}.
// "multi_variable_ttl" {ttl} (MultiStatefulVariableTTLProcessor, TransformWithListStateTTLSuite.
//   scala): ListState<string> "listState", MapState<long, long> "mapState" and ValueState<long>
//   "valueState", all with the TTL (default 10 s); each row appends its `value` to the list, puts
//   size+1 -> size+1 in the map, adds one to the value and emits {count: list size}. The three
//   must stay the same size: a call that finds them apart fails (Spark's assertSanity).
// "rtm_map_ttl_timer" (RealTimeMapTTLAndTimerProcessor): MapState<string, long> "count" with a
//   10 min TTL; each row adds one to entry "count", registers a timer at now + its `value` (ms)
//   and emits {kind: data, count}; a timer emits {kind: timer, count: its expiry time in ms}.
#include "streamsim/processors/builtin.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

#include <fmt/format.h>

#include <stdexcept>

namespace streamsim {
namespace processors {
namespace {

// The row's `value` column as a long (the Kafka value is a string such as "10").
int64_t longValue(const Row& row) {
  Value v = row.get("value");
  auto n = v.castTo(Type::kLong);
  if (v.isNull() || !n.ok() || n->isNull())
    throw std::invalid_argument(fmt::format("column 'value' = {} is not a whole number", v.toString()));
  return n->asLong();
}

class RtmListTtl : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    values_ = handle.getListState<int64_t>("values", TTLConfig{10'000});
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    for (const Row& row : rows) {
      const int64_t v = longValue(row);
      values_.appendList({v, v + 1, v + 2});
      out.emit(withKey(shapes_, key, "count", Value(static_cast<int64_t>(values_.get().size()))));
    }
  }

 private:
  ListState<int64_t> values_;
  RowShapes shapes_;
};

class MultiVariableTtl : public StatefulProcessor {
 public:
  explicit MultiVariableTtl(DurationMs ttl) : ttl_(ttl) {}
  void init(StatefulProcessorHandle& handle) override {
    list_ = handle.getListState<std::string>("listState", TTLConfig{ttl_});
    map_ = handle.getMapState<int64_t, int64_t>("mapState", TTLConfig{ttl_});
    value_ = handle.getValueState<int64_t>("valueState", TTLConfig{ttl_});
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues&, Output& out) override {
    checkInSync();
    for (const Row& row : rows) {
      const Value v = row.get("value");
      list_.appendValue(v.isNull() ? std::string() : v.toString());
      const auto mapSize = static_cast<int64_t>(map_.iterator().size());
      map_.updateValue(mapSize + 1, mapSize + 1);
      value_.update(value_.getOption().value_or(0) + 1);
      checkInSync();
      out.emit(withKey(shapes_, key, "count", Value(static_cast<int64_t>(list_.get().size()))));
    }
  }

 private:
  void checkInSync() const {
    const size_t list = list_.get().size(), map = map_.iterator().size();
    const auto value = static_cast<size_t>(value_.getOption().value_or(0));
    if (list != map || list != value)
      throw std::logic_error(fmt::format("state variables out of step: list {} map {} value {}", list, map, value));
  }

  DurationMs ttl_;
  ListState<std::string> list_;
  MapState<int64_t, int64_t> map_;
  ValueState<int64_t> value_;
  RowShapes shapes_;
};

class RtmMapTtlTimer : public StatefulProcessor {
 public:
  void init(StatefulProcessorHandle& handle) override {
    count_ = handle.getMapState<std::string, int64_t>("count", TTLConfig{10 * 60'000});
  }
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    for (const Row& row : rows) {
      const int64_t n = count_.getValue("count").value_or(0) + 1;
      count_.updateValue("count", n);
      getHandle().registerTimer(tv.getCurrentProcessingTimeInMs() + longValue(row));
      out.emit(withKey(shapes_, key, {{"kind", Value(std::string("data"))}, {"count", Value(n)}}));
    }
  }
  void handleExpiredTimer(const Row& key, const TimerValues&, const ExpiredTimerInfo& info, Output& out) override {
    out.emit(withKey(shapes_, key, {{"kind", Value(std::string("timer"))},
                                    {"count", Value(info.getExpiryTimeInMs())}}));
  }

 private:
  MapState<std::string, int64_t> count_;
  RowShapes shapes_;
};

ParamProcessor multiVariableTtlProcessor() {
  return {
    "multi_variable_ttl", {"ttl"}, [](const ProcessorParams& p) -> Result<ProcessorFactory> {
      STREAMSIM_ASSIGN_OR_RETURN(DurationMs ttl, durationParam(p, "ttl", 10'000));
      return ProcessorFactory([ttl] { return asStatefulProcessor(std::make_unique<MultiVariableTtl>(ttl)); });
    }};
}

}  // namespace
}  // namespace processors

namespace detail {
// This file's processors, added to a set by registerExampleProcessors (processors/examples.h).
void registerSparkRealTimeTtlProcessors(ProcessorSet& set) {
  processors::multiVariableTtlProcessor().addTo(set);
  set.add("rtm_list_ttl", processorFactoryOf<processors::RtmListTtl>());
  set.add("rtm_map_ttl_timer", processorFactoryOf<processors::RtmMapTtlTimer>());
}
}  // namespace detail

}  // namespace streamsim
