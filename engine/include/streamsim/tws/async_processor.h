// The async transformWithState API (seed 000, DESIGN.md §5a, docs/processors.md "Async
// processors"): AsyncStatefulProcessor mirrors StatefulProcessor with coroutine handlers. State
// and timer operations are awaited (`co_await count_.get()`), list and map reads are async
// sequences (`while (auto v = co_await seq.next())`), whenAll (async_task.h) gathers, rows are
// emitted with out.emit(row) as in a sync handler. Creating state variables and deleteIfExists
// stay synchronous. The state layout is the sync one: a query may switch between the sync and
// the async version of a processor on one checkpoint.
//
// Concurrency: within a partition task the handlers of different grouping keys run at the same
// time on one thread, interleaving at their awaits (which coroutine resumes is the Env's
// Scheduler's choice); one key's calls stay in order. Members shared across keys can therefore
// be corrupted — keep per-key data in state. An error of a state or timer operation fails the
// task (it is retried); the awaiting code never sees it. State objects and the handle belong to
// one partition task; not thread-safe.
#pragma once

#include <coroutine>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "streamsim/scheduler.h"
#include "streamsim/tws/async_task.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim {

namespace detail {

// The awaitable of one state or timer operation: a scheduling point; `f` runs (with this
// coroutine's key current) just before the coroutine resumes, and its result is the value of
// the co_await. The state object must outlive the await (state objects are processor members).
template <class R, class F>
class [[nodiscard]] StateOp : private PendingOp {
 public:
  StateOp(std::string_view kind, std::string_view name, std::string_view op, F f)
      : f_(std::move(f)) {
    this->run = &StateOp::runOp;
    this->kind = kind;
    this->name = name;
    this->op = op;
  }
  StateOp(const StateOp&) = delete;
  StateOp& operator=(const StateOp&) = delete;
  bool await_ready() const noexcept { return false; }
  template <class P>
  void await_suspend(std::coroutine_handle<P> h) {
    runtimeOf(h).post(h, static_cast<PendingOp*>(this));
  }
  R await_resume() {
    if constexpr (!std::is_void_v<R>) return std::move(*result_);
  }

 private:
  static void runOp(PendingOp* p) {
    auto* self = static_cast<StateOp*>(p);
    if constexpr (std::is_void_v<R>)
      self->f_();
    else
      self->result_.emplace(self->f_());
  }
  struct Empty {};
  F f_;
  std::conditional_t<std::is_void_v<R>, Empty, std::optional<R>> result_;
};

template <class R, class F>
StateOp<R, F> stateOp(std::string_view kind, std::string_view name, std::string_view op, F f) {
  return StateOp<R, F>(kind, name, op, std::move(f));
}

}  // namespace detail

// The elements of a list or map read, consumed one by one: `while (auto v = co_await s.next())`.
// The read itself happens at the first next() (a scheduling point; the elements are a snapshot
// of that moment); the later next() calls do not suspend. Python's `async for`.
template <class T>
class AsyncSequence {
 public:
  using Fetch = std::function<std::vector<T>()>;
  AsyncSequence(std::string_view kind, std::string_view name, std::string_view op, Fetch fetch)
      : kind_(kind), name_(name), op_(op), fetch_(std::move(fetch)) {}

  class [[nodiscard]] NextAwaiter : private detail::PendingOp {
   public:
    explicit NextAwaiter(AsyncSequence& s) : s_(s) {
      this->run = &NextAwaiter::runOp;
      this->kind = s.kind_;
      this->name = s.name_;
      this->op = s.op_;
    }
    bool await_ready() const noexcept { return s_.items_.has_value(); }
    template <class P>
    void await_suspend(std::coroutine_handle<P> h) {
      detail::runtimeOf(h).post(h, static_cast<detail::PendingOp*>(this));
    }
    std::optional<T> await_resume() {
      if (s_.pos_ >= s_.items_->size()) return std::nullopt;
      return std::move((*s_.items_)[s_.pos_++]);
    }

   private:
    static void runOp(detail::PendingOp* p) {
      auto* self = static_cast<NextAwaiter*>(p);
      self->s_.items_.emplace(self->s_.fetch_());
    }
    AsyncSequence& s_;
  };

  // The next element, nullopt after the last.
  NextAwaiter next() { return NextAwaiter(*this); }
  // Every (remaining) element.
  Task<std::vector<T>> toVector() {
    std::vector<T> out;
    while (auto v = co_await next()) out.push_back(std::move(*v));
    co_return out;
  }

 private:
  std::string_view kind_, name_, op_;
  Fetch fetch_;
  std::optional<std::vector<T>> items_;
  size_t pos_ = 0;
};

// One value per grouping key (ValueState's rules; get() of an absent value is T{}).
template <class T>
class AsyncValueState {
 public:
  AsyncValueState() = default;
  explicit AsyncValueState(ValueState<T> s, std::string name)
      : s_(std::move(s)), name_(std::move(name)) {}
  auto exists() const { return op<bool>("exists", [this] { return s_.exists(); }); }
  auto get() const { return op<T>("get", [this] { return s_.get(); }); }
  auto getOption() const {
    return op<std::optional<T>>("getOption", [this] { return s_.getOption(); });
  }
  auto update(T value) {
    return op<void>("update", [this, v = std::move(value)] { s_.update(v); });
  }
  auto clear() {
    return op<void>("clear", [this] { s_.clear(); });
  }
  const ValueState<T>& sync() const { return s_; }

 private:
  template <class R, class F>
  auto op(std::string_view what, F f) const {
    return detail::stateOp<R>("ValueState", name_, what, std::move(f));
  }
  mutable ValueState<T> s_;
  std::string name_;
};

// A list per grouping key (ListState's rules).
template <class T>
class AsyncListState {
 public:
  AsyncListState() = default;
  explicit AsyncListState(ListState<T> s, std::string name)
      : s_(std::move(s)), name_(std::move(name)) {}
  auto exists() const {
    return detail::stateOp<bool>("ListState", name_, "exists", [this] { return s_.exists(); });
  }
  // The unexpired elements in list order, as an async sequence.
  AsyncSequence<T> get() const {
    return AsyncSequence<T>("ListState", name_, "get", [this] { return s_.get(); });
  }
  auto put(std::vector<T> values) {
    return detail::stateOp<void>("ListState", name_, "put",
                                 [this, v = std::move(values)] { s_.put(v); });
  }
  auto appendValue(T value) {
    return detail::stateOp<void>("ListState", name_, "appendValue",
                                 [this, v = std::move(value)] { s_.appendValue(v); });
  }
  auto appendList(std::vector<T> values) {
    return detail::stateOp<void>("ListState", name_, "appendList",
                                 [this, v = std::move(values)] { s_.appendList(v); });
  }
  auto clear() {
    return detail::stateOp<void>("ListState", name_, "clear", [this] { s_.clear(); });
  }

 private:
  mutable ListState<T> s_;
  std::string name_;
};

// A map per grouping key (MapState's rules; iteration in ascending encoded user-key order).
template <class K, class V>
class AsyncMapState {
 public:
  AsyncMapState() = default;
  explicit AsyncMapState(MapState<K, V> s, std::string name)
      : s_(std::move(s)), name_(std::move(name)) {}
  auto exists() const { return op<bool>("exists", [this] { return s_.exists(); }); }
  auto getValue(K key) const {
    return op<std::optional<V>>("getValue", [this, k = std::move(key)] { return s_.getValue(k); });
  }
  auto containsKey(K key) const {
    return op<bool>("containsKey", [this, k = std::move(key)] { return s_.containsKey(k); });
  }
  auto updateValue(K key, V value) {
    return op<void>("updateValue", [this, k = std::move(key), v = std::move(value)] {
      s_.updateValue(k, v);
    });
  }
  auto removeKey(K key) {
    return op<void>("removeKey", [this, k = std::move(key)] { s_.removeKey(k); });
  }
  auto clear() {
    return op<void>("clear", [this] { s_.clear(); });
  }
  AsyncSequence<std::pair<K, V>> iterator() const {
    return AsyncSequence<std::pair<K, V>>("MapState", name_, "iterator",
                                          [this] { return s_.iterator(); });
  }
  AsyncSequence<K> keys() const {
    return AsyncSequence<K>("MapState", name_, "keys", [this] { return s_.keys(); });
  }
  AsyncSequence<V> values() const {
    return AsyncSequence<V>("MapState", name_, "values", [this] { return s_.values(); });
  }

 private:
  template <class R, class F>
  auto op(std::string_view what, F f) const {
    return detail::stateOp<R>("MapState", name_, what, std::move(f));
  }
  mutable MapState<K, V> s_;
  std::string name_;
};

// The answer of an outside call.
struct ServiceResponse {
  Status status;          // the service's error; IOError after the timeout; NotFound: no such service
  bool timedOut = false;  // no answer within the caller's timeout
  std::string body;
};

// An outside service a processor awaits (the Env's ServiceDirectory): `co_await svc.call(req)`
// suspends the coroutine until the reply arrives in virtual time; other coroutines (other keys,
// or the other requests of a whenAll) run meanwhile. Errors and timeouts are answers, seen by
// the processor (unlike state-operation errors).
class AsyncService {
 public:
  AsyncService() = default;
  AsyncService(std::string name, DurationMs timeoutMs) : name_(std::move(name)), timeout_ms_(timeoutMs) {}

  class [[nodiscard]] CallAwaiter {
   public:
    CallAwaiter(const AsyncService& s, std::string request) : s_(s), request_(std::move(request)) {}
    bool await_ready() const noexcept { return false; }
    template <class P>
    void await_suspend(std::coroutine_handle<P> h) {
      suspendOn(detail::runtimeOf(h), h);
    }
    ServiceResponse await_resume() { return std::move(response_); }

   private:
    void suspendOn(detail::AsyncRuntime& rt, std::coroutine_handle<> h);
    const AsyncService& s_;
    std::string request_;
    ServiceResponse response_;
  };
  CallAwaiter call(std::string request) const { return CallAwaiter(*this, std::move(request)); }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  DurationMs timeout_ms_ = 0;  // 0: none
};

// The async processor's window on state, timers and services (StatefulProcessorHandle's rules).
class AsyncStatefulProcessorHandle {
 public:
  explicit AsyncStatefulProcessorHandle(StatefulProcessorHandle& sync) : sync_(sync) {}

  template <class T>
  AsyncValueState<T> getValueState(const std::string& name, StateCodec<T> codec,
                                   std::optional<TTLConfig> ttl = std::nullopt) {
    return AsyncValueState<T>(sync_.getValueState<T>(name, std::move(codec), ttl), name);
  }
  template <class T>
  AsyncValueState<T> getValueState(const std::string& name,
                                   std::optional<TTLConfig> ttl = std::nullopt) {
    return getValueState<T>(name, StateCodec<T>{}, ttl);
  }
  template <class T>
  AsyncListState<T> getListState(const std::string& name, StateCodec<T> codec,
                                 std::optional<TTLConfig> ttl = std::nullopt) {
    return AsyncListState<T>(sync_.getListState<T>(name, std::move(codec), ttl), name);
  }
  template <class T>
  AsyncListState<T> getListState(const std::string& name,
                                 std::optional<TTLConfig> ttl = std::nullopt) {
    return getListState<T>(name, StateCodec<T>{}, ttl);
  }
  template <class K, class V>
  AsyncMapState<K, V> getMapState(const std::string& name, StateCodec<K> keyCodec,
                                  StateCodec<V> valueCodec,
                                  std::optional<TTLConfig> ttl = std::nullopt) {
    return AsyncMapState<K, V>(
        sync_.getMapState<K, V>(name, std::move(keyCodec), std::move(valueCodec), ttl), name);
  }
  template <class K, class V>
  AsyncMapState<K, V> getMapState(const std::string& name,
                                  std::optional<TTLConfig> ttl = std::nullopt) {
    return getMapState<K, V>(name, StateCodec<K>{}, StateCodec<V>{}, ttl);
  }
  // Synchronous, as in Spark.
  void deleteIfExists(const std::string& name) { sync_.deleteIfExists(name); }
  QueryInfo getQueryInfo() const { return sync_.getQueryInfo(); }
  // An outside service of the run by name (looked up at each call; `timeoutMs` 0 = none).
  AsyncService getService(std::string name, DurationMs timeoutMs = 0) const {
    return AsyncService(std::move(name), timeoutMs);
  }

  // Timers of the current grouping key, awaited.
  auto registerTimer(TimeMs expiryTimestampMs) {
    return detail::stateOp<void>("timer", "", "registerTimer",
                                 [this, t = expiryTimestampMs] { sync_.registerTimer(t); });
  }
  auto deleteTimer(TimeMs expiryTimestampMs) {
    return detail::stateOp<void>("timer", "", "deleteTimer",
                                 [this, t = expiryTimestampMs] { sync_.deleteTimer(t); });
  }
  AsyncSequence<TimeMs> listTimers() {
    return AsyncSequence<TimeMs>("timer", "", "listTimers", [this] { return sync_.listTimers(); });
  }

  StatefulProcessorHandle& sync() { return sync_; }

 private:
  StatefulProcessorHandle& sync_;
};

// An async stateful processor. Handlers are coroutines returning Task<> (write `co_return;` in
// one that has nothing to await). `key`, `rows`, `timerValues` and `out` stay valid until the
// handler's task finishes.
class AsyncStatefulProcessor {
 public:
  virtual ~AsyncStatefulProcessor() = default;
  virtual Task<> init(AsyncStatefulProcessorHandle& handle) = 0;
  virtual Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                                 Output& out) = 0;
  virtual Task<> handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                                    const ExpiredTimerInfo& expiredTimerInfo, Output& out) {
    (void)key;
    (void)timerValues;
    (void)expiredTimerInfo;
    (void)out;
    co_return;
  }
  virtual Task<> close() { co_return; }
  // True when the processor's results may depend on how keys interleave (it declares so on
  // purpose): the interleaving oracle then does not compare it with the sequential run.
  virtual bool orderDependent() const { return false; }
};

// One that also receives initial state (batch 0 only, before any input).
class AsyncStatefulProcessorWithInitialState : public AsyncStatefulProcessor {
 public:
  virtual Task<> handleInitialState(const Row& key, const Row& initialState,
                                    const TimerValues& timerValues, Output& out) = 0;
};

namespace detail {

// Runs `task` to completion as the only call (its awaits in order, outside calls waited for in
// virtual time). A failed state operation is rethrown here, the task having been dropped
// without resuming. `env` may be null (no services, no clock).
void runToCompletion(const Env* env, Task<> task);

// An async processor seen through the sync interface: each handler call runs its coroutine to
// completion. The transformWithState operator recognises it and runs the handlers of different
// keys concurrently instead (engine/src/tws/async_runtime.cc).
class AsyncProcessorAdapter : public StatefulProcessorWithInitialState {
 public:
  explicit AsyncProcessorAdapter(std::unique_ptr<AsyncStatefulProcessor> p)
      : p_(std::move(p)),
        with_initial_(dynamic_cast<AsyncStatefulProcessorWithInitialState*>(p_.get())) {}

  void init(StatefulProcessorHandle& handle) override;
  void handleInputRows(const Row& key, RowRange rows, const TimerValues& timerValues,
                       Output& out) override;
  void handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                          const ExpiredTimerInfo& info, Output& out) override;
  void handleInitialState(const Row& key, const Row& initialState, const TimerValues& timerValues,
                          Output& out) override;
  void close() override;

  AsyncStatefulProcessor& processor() { return *p_; }
  // Null when the processor takes no initial state.
  AsyncStatefulProcessorWithInitialState* withInitialState() { return with_initial_; }
  const Env* env() const { return env_; }

 private:
  std::unique_ptr<AsyncStatefulProcessor> p_;
  AsyncStatefulProcessorWithInitialState* with_initial_;
  std::unique_ptr<AsyncStatefulProcessorHandle> handle_;
  const Env* env_ = nullptr;
};

}  // namespace detail

// A processor as the engine takes it: a sync one as is, an async one wrapped in the adapter.
// (processorFactoryOf, ProcessorTester and testStream go through this.)
template <class P>
std::unique_ptr<StatefulProcessor> asStatefulProcessor(std::unique_ptr<P> p) {
  if constexpr (std::is_base_of_v<AsyncStatefulProcessor, P>)
    return std::make_unique<detail::AsyncProcessorAdapter>(std::move(p));
  else
    return std::unique_ptr<StatefulProcessor>(std::move(p));
}

}  // namespace streamsim
