// ProcessorTester: unit-tests one transformWithState processor without a query (DESIGN.md §5,
// SEMANTICS.md §8 — Spark's TwsTester plus restart, TTL and timer inspection). Every call that
// moves the processor is one micro-batch of the engine's own transformWithState operator on a
// single partition, run against a private in-memory checkpoint: the state variables, timers,
// TTL, handle rules and initial state are the engine's code, not a second implementation.
//
//   ProcessorTester<CountProcessor> tester({.groupBy = {"action"}});
//   EXPECT_THAT(tester.test("click", {Row{{"action", "click"}}}),
//               EmitsRows({Row{{"action", "click"}, {"count", 1}}}));
//   EXPECT_EQ(tester.peekValueState<int64_t>("click", "count").value(), 1);
//
// What each call is, in engine terms:
// - test(key, rows): a batch whose only input is `rows` of `key`, at the current processing
//   time and watermark; due timers fire after the input, as in any batch. With realTimeMode,
//   a batch per row (one handleInputRows call per row, as in real-time mode).
// - test({{"a", rows}, {"b", rows}}): one batch holding rows of several keys, handled by ONE
//   processor instance in the engine's key order (as a query's task does): a value carried in a
//   member from one key to the next shows. With realTimeMode, a batch per row too.
// - setProcessingTime / setWatermark: move time; in the matching time mode a batch without
//   input runs, firing the timers that became due and removing expired TTL values.
// - peek*/listTimers: read one key's state at the current time, changing nothing (a batch
//   that runs no handler of the processor and is then aborted).
// - set*/delete*/registerTimer/deleteTimer: edit one key's state as a batch of its own (the
//   processor's handlers do not run for that key; timers already due fire as in any batch and
//   their rows come out of the next call).
// - restart(): the driver restarts: the operator is destroyed, uncommitted bytes are lost, and
//   a new operator instance loads the committed state and calls init again.
// A failed batch (processor exception, handle rule) returns its Status; its state changes are
// aborted and the next call starts from the last committed state, as a restarted query would.
// Owns its simulated filesystem and clock. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/operator.h"
#include "streamsim/progress.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/state_store.h"
#include "streamsim/status.h"
#include "streamsim/tws/async_processor.h"
#include "streamsim/tws/stateful_processor.h"
#include "streamsim/tws/transform_with_state.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/value.h"

namespace streamsim::harness {

struct TesterOptions {
  std::vector<std::string> groupBy = {"key"};  // the grouping columns of the input rows
  TimeMode timeMode = TimeMode::kNone;
  OutputMode outputMode = OutputMode::kAppend;  // Append or Update
  // Output column with event time (emitting at or below the watermark fails, as in a query).
  std::optional<std::string> eventTimeColumnName{};
  // EventTime mode: the input column whose late rows (<= watermark) are dropped.
  std::optional<std::string> inputEventTimeColumn{};
  // Initial state rows (the processor must be a StatefulProcessorWithInitialState); handled in
  // the first batch, before its input.
  std::optional<std::vector<Row>> initialState{};
  std::optional<std::vector<std::string>> initialStateGroupBy{};
  // Real-time mode (PySpark's TwsTester realTimeMode, seed 004): test() calls handleInputRows
  // once per input row, each row its own committed batch (due timers fire after each row);
  // test() with no rows then runs no batch. A failing row returns its Status; the rows before
  // it stay committed.
  bool realTimeMode = false;
  TimeMs processingTimeMs = 0;  // the starting processing time
  TimeMs watermarkMs = 0;       // the starting watermark
  StateStoreOptions stateStore{};
  uint64_t seed = 0;            // query ids and temp-file names
  std::string processorName = "processor";
  TraceSink* trace = nullptr;   // optional: receives the operator's trace events
  // Optional: the outside services an async processor awaits (sim/simulated_service.h);
  // their latency passes on the tester's virtual clock.
  ServiceDirectory* services = nullptr;

  // Attaching to an existing checkpoint (the state of a one-partition query, e.g. to compare
  // it): the filesystem to use instead of a private one, the checkpoint root, the operator id
  // and the batch id the checkpoint's next batch would have. timeMode and outputMode must be the
  // query's (Spark's restart check: STATE_STORE_INVALID_CONFIG_AFTER_RESTART).
  FileSystem* fileSystem = nullptr;
  std::string checkpointRoot = "/tester";
  int operatorId = 0;
  int64_t firstBatchId = 0;
};

// A grouping key as tests write it: one value for a single grouping column ("a", 3, a Value), or
// a Row of the grouping columns in groupBy order.
class GroupKey {
 public:
  GroupKey(Value v) : value_(std::move(v)) {}                 // NOLINT: implicit by design
  GroupKey(const char* s) : value_(Value(s)) {}                // NOLINT
  GroupKey(const std::string& s) : value_(Value(s)) {}         // NOLINT
  GroupKey(int32_t i) : value_(Value(i)) {}                    // NOLINT
  GroupKey(int64_t i) : value_(Value(i)) {}                    // NOLINT
  GroupKey(Row r) : row_(std::move(r)) {}                      // NOLINT
  const std::optional<Value>& value() const { return value_; }
  const std::optional<Row>& row() const { return row_; }

 private:
  std::optional<Value> value_;
  std::optional<Row> row_;
};

// What the processor's variables hold for one key, as stored (codec-encoded bytes).
struct RawStateValue {
  enum class Kind { kValue, kList, kMap };
  Kind kind = Kind::kValue;
  std::optional<std::string> value;                          // kValue; nullopt = absent
  std::vector<std::string> list;                             // kList
  std::vector<std::pair<std::string, std::string>> entries;  // kMap, ascending user key
  // Read without enforcing TTL (peekRawWithoutTTL): expired values too, and each one's expiry
  // (nullopt: no TTL) parallel to value / list / entries.
  std::optional<TimeMs> valueExpiresAt;
  std::vector<std::optional<TimeMs>> listExpiresAt;
  std::vector<std::optional<TimeMs>> entriesExpiresAt;
};

// What a probe action can reach: the processor's declared variables (raw bytes) and the handle,
// both bound to the probed key.
class ProbeScope {
 public:
  virtual ~ProbeScope() = default;
  virtual Result<RawStateValue> read(const std::string& name) = 0;
  // Spark's getWithoutEnforcingTTL / getTTLValue: expired values too, with their expiry.
  virtual Result<RawStateValue> readWithoutTTL(const std::string& name) = 0;
  virtual Status write(const std::string& name, const RawStateValue& v) = 0;
  virtual Status clear(const std::string& name) = 0;
  virtual Status removeMapKey(const std::string& name, const std::string& userKey) = 0;
  virtual StatefulProcessorHandle& handle() = 0;
  virtual std::vector<std::pair<std::string, std::string>> variables() = 0;
};

class TesterProcessor;

// One key's rows of a multi-key tester batch.
struct KeyRows {
  GroupKey key;
  std::vector<Row> rows;
};

// The untyped tester (any processor factory); ProcessorTester<P> adds the type.
class ProcessorTesterBase {
 public:
  ProcessorTesterBase(ProcessorFactory factory, TesterOptions options);
  virtual ~ProcessorTesterBase();
  ProcessorTesterBase(const ProcessorTesterBase&) = delete;
  ProcessorTesterBase& operator=(const ProcessorTesterBase&) = delete;

  // One handleInputRows call (plus due timers) as a one-key batch; returns every row emitted.
  // Rows without the grouping columns get them from `key`.
  Result<std::vector<Row>> test(const GroupKey& key, std::vector<Row> rows);
  // One batch with the rows of several keys (a key may appear more than once: its rows are
  // joined); returns every row emitted, in the engine's order.
  Result<std::vector<Row>> test(std::vector<KeyRows> batch);

  // Moves processing time forward (InvalidArgument if backwards). ProcessingTime mode: runs a
  // batch at the new time and returns what the due timers emitted.
  Result<std::vector<Row>> setProcessingTime(TimeMs ms);
  Result<std::vector<Row>> advanceProcessingTime(DurationMs d) {
    return setProcessingTime(processing_time_ + d);
  }
  // Moves the watermark forward (InvalidArgument if backwards). EventTime mode: runs a batch
  // with the new eviction watermark and returns what the due timers emitted.
  Result<std::vector<Row>> setWatermark(TimeMs ms);

  TimeMs processingTime() const { return processing_time_; }
  TimeMs watermark() const { return watermark_; }
  // The id the next batch gets (= committed state version).
  int64_t nextBatchId() const { return next_batch_id_; }
  // Figures of the last batch (timers fired, values removed by TTL, ...).
  const std::optional<StateOperatorProgress>& lastProgress() const { return last_progress_; }

  // --- state, untyped (the typed forms are below in ProcessorTester) ---
  // NotFound if the processor declares no variable `name`, InvalidArgument for a wrong kind.
  Result<RawStateValue> peekRaw(const GroupKey& key, const std::string& name);
  // As peekRaw, without enforcing TTL (Spark's getWithoutEnforcingTTL / getTTLValue test hooks):
  // values whose TTL expired but that the cleanup has not removed yet are returned too, each
  // with its expiry in the *ExpiresAt fields.
  Result<RawStateValue> peekRawWithoutTTL(const GroupKey& key, const std::string& name);
  Status setRaw(const GroupKey& key, const std::string& name, const RawStateValue& v);
  // Clears `name` for one key (ValueState.clear / ListState.clear / MapState.clear).
  Status deleteState(const GroupKey& key, const std::string& name);
  // Removes one entry of a MapState (the user key as its codec encodes it).
  Status removeMapKey(const GroupKey& key, const std::string& name,
                      const std::string& encodedUserKey);

  // Timers of one key, ascending (empty with TimeMode None).
  Result<std::vector<TimeMs>> listTimers(const GroupKey& key);
  Status registerTimer(const GroupKey& key, TimeMs ts);
  Status deleteTimer(const GroupKey& key, TimeMs ts);
  // The state variables the processor declares in init: name -> kind ("value"|"list"|"map").
  Result<std::vector<std::pair<std::string, std::string>>> stateVariables();

  // Driver restart: the operator instance is dropped, the filesystem loses what was not
  // synced, and a new instance loads the committed state (init runs again in the next batch).
  Status restart();

  // Rows emitted by timers during state edits, not yet returned by a call (normally none).
  const std::vector<Row>& pendingOutput() const { return pending_output_; }

  // The key as a Row of the grouping columns; InvalidArgument if it has the wrong arity.
  Result<Row> keyRow(const GroupKey& key) const;
  const TesterOptions& options() const { return options_; }
  FileSystem& fileSystem() { return *fs_; }

 protected:
  friend class TesterProcessor;
  struct Probe;
  // Runs a probe batch for `key`: `action` runs in place of the processor's handleInputRows.
  // commit=false: timers are not fired and nothing is kept; commit=true: a real batch.
  Status runProbe(const GroupKey& key, bool commit, std::function<Status(ProbeScope&)> action);

 private:
  Result<std::vector<Row>> runBatch(std::vector<Row> input, bool commit, Probe* probe);
  Status startOperator(Operator& op, StateStoreProvider& stores);
  std::unique_ptr<Operator> makeOperator();
  Row withKeyColumns(const Row& key, const Row& row) const;
  std::vector<Row> takePending(std::vector<Row> rows);
  Result<std::vector<Row>> moveTime(TimeMs& clock, TimeMs ms, const char* what, TimeMode firesIn);
  static std::string formatKey(const Row& key);

  ProcessorFactory factory_;
  TesterOptions options_;
  std::unique_ptr<sim::VirtualClock> clock_;
  std::unique_ptr<sim::SimFileSystem> own_fs_;
  FileSystem* fs_ = nullptr;
  std::unique_ptr<IdGenerator> ids_;
  Env env_;
  std::unique_ptr<StateStoreProvider> stores_;
  std::unique_ptr<Operator> operator_;
  Probe* current_probe_ = nullptr;
  std::string query_id_;
  std::string run_id_;
  TimeMs processing_time_ = 0;
  TimeMs watermark_ = 0;
  TimeMs late_watermark_ = 0;
  int64_t next_batch_id_ = 0;
  std::optional<StateOperatorProgress> last_progress_;
  std::vector<Row> pending_output_;
};


// The typed tester (P sync or async). P is default-constructed for every batch (as the engine creates one
// processor per task), or made by `factory`.
template <class P>
class ProcessorTester : public ProcessorTesterBase {
 public:
  explicit ProcessorTester(TesterOptions options = {})
      : ProcessorTesterBase([] { return asStatefulProcessor(std::make_unique<P>()); },
                            std::move(options)) {}
  ProcessorTester(std::function<std::unique_ptr<P>()> factory, TesterOptions options)
      : ProcessorTesterBase([f = std::move(factory)] { return asStatefulProcessor(f()); },
                            std::move(options)) {}

  // Typed state access (bodies in processor_tester.hpp). Peeks return nullopt / empty for an
  // absent value; NotFound for a name the processor does not declare.
  template <class T>
  Result<std::optional<T>> peekValueState(const GroupKey& key, const std::string& name,
                                          StateCodec<T> codec = {});
  template <class T>
  Result<std::vector<T>> peekListState(const GroupKey& key, const std::string& name,
                                       StateCodec<T> codec = {});
  template <class K, class V>
  Result<std::vector<std::pair<K, V>>> peekMapState(const GroupKey& key, const std::string& name,
                                                    StateCodec<K> keyCodec = {},
                                                    StateCodec<V> valueCodec = {});
  // Spark's getTTLValue: the stored value (expired or not) and its expiry (nullopt: no TTL).
  template <class T>
  Result<std::optional<std::pair<T, std::optional<TimeMs>>>> peekValueStateTTL(
      const GroupKey& key, const std::string& name, StateCodec<T> codec = {});
  // Spark's getTTLValues: every stored element (expired or not) with its expiry.
  template <class T>
  Result<std::vector<std::pair<T, std::optional<TimeMs>>>> peekListStateTTL(
      const GroupKey& key, const std::string& name, StateCodec<T> codec = {});
  // Spark's MapState getWithoutEnforcingTTL / getTTLValue: every stored entry (expired or not),
  // ascending by user key, with its expiry.
  template <class K, class V>
  Result<std::vector<std::tuple<K, V, std::optional<TimeMs>>>> peekMapStateTTL(
      const GroupKey& key, const std::string& name, StateCodec<K> keyCodec = {},
      StateCodec<V> valueCodec = {});
  template <class T>
  Status setValueState(const GroupKey& key, const std::string& name, const T& value,
                       StateCodec<T> codec = {});
  template <class T>
  Status setListState(const GroupKey& key, const std::string& name, const std::vector<T>& values,
                      StateCodec<T> codec = {});
  template <class K, class V>
  Status setMapState(const GroupKey& key, const std::string& name,
                     const std::vector<std::pair<K, V>>& entries, StateCodec<K> keyCodec = {},
                     StateCodec<V> valueCodec = {});
};

// A tester for a processor looked up in `processors` ("count", "session_tracker"...).
// NotFound lists the set's names.
Result<std::unique_ptr<ProcessorTester<StatefulProcessor>>> makeRegistryTester(
    const ProcessorSet& processors, std::string_view processorName, TesterOptions options);

}  // namespace streamsim::harness

#include "streamsim/harness/processor_tester.hpp"
