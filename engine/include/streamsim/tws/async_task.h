// The coroutine task type of async processors (DESIGN.md §5a): Task<T> is a lazily started
// C++20 coroutine; `co_await task` runs it and yields its result (or rethrows its exception);
// whenAll(tasks) runs several at once and yields every result, in order. What a coroutine awaits
// at the bottom — a state operation, a timer operation, an outside call — is a scheduling point
// of the engine's runtime (detail::AsyncRuntime), which picks the coroutine to resume next.
// The runtime a coroutine runs under is carried by its promise (no process-wide slot): the
// runtime sets it on each root it starts, a Task awaited (or gathered by whenAll) inherits its
// parent's, and an awaitable reaches it through the awaiting coroutine's promise (runtimeOf).
// A Task owns its coroutine frame; it belongs to one partition task; not thread-safe.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "streamsim/time.h"

namespace streamsim {

class ServiceDirectory;

template <class T = void>
class Task;

namespace detail {

// A state or timer operation waiting in a suspended coroutine's frame: the runtime runs it (with
// the coroutine's grouping key current) just before it resumes that coroutine. If run() throws,
// the task fails and the coroutine is never resumed: processor code does not see the error.
struct PendingOp {
  void (*run)(PendingOp* self) = nullptr;
  std::string_view kind;  // "ValueState", "ListState", "MapState", "timer"
  std::string_view name;  // the state variable's name ("" for timers)
  std::string_view op;    // "get", "update", ...
};

// The scheduler's side of a running phase of handler calls (engine/src/tws/async_runtime.cc).
// Awaitables reach it through the awaiting coroutine's promise (runtimeOf below).
class AsyncRuntime {
 public:
  virtual ~AsyncRuntime() = default;
  // The suspended coroutine `h` is ready; `op` (optional) runs before it resumes.
  virtual void post(std::coroutine_handle<> h, PendingOp* op) = 0;
  // `h` becomes ready when the virtual clock reaches `readyAt`.
  virtual void postAt(std::coroutine_handle<> h, TimeMs readyAt) = 0;
  // The handler call whose coroutine runs now (an index of the phase), and `h` made ready as a
  // coroutine of call `call`: a call made ready by another call's code (a Python asyncio.Lock one
  // key's handler releases while another key's waits for it) resumes as its own call.
  virtual size_t currentCall() const = 0;
  virtual void postFor(size_t call, std::coroutine_handle<> h) = 0;
  virtual TimeMs now() = 0;
  // The run's outside services (null: none).
  virtual ServiceDirectory* services() = 0;
};

// Thrown by runtimeOf for a coroutine no runtime started (awaited outside a handler call).
[[noreturn]] void throwNoRuntime();

struct WhenAllJoin {
  size_t remaining = 0;
  std::coroutine_handle<> parent;
};

struct PromiseBase {
  std::coroutine_handle<> continuation;
  WhenAllJoin* join = nullptr;  // set when the task is a child of whenAll
  std::exception_ptr error;
  // The runtime this coroutine runs under: set by the runtime on a root it starts, inherited by
  // a Task when it is awaited or gathered (null: not started by a runtime).
  AsyncRuntime* runtime = nullptr;

  std::suspend_always initial_suspend() noexcept { return {}; }
  struct FinalAwaiter {
    bool await_ready() noexcept { return false; }
    template <class P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
      PromiseBase& p = h.promise();
      if (p.join != nullptr) {
        if (--p.join->remaining == 0) return p.join->parent;
        return std::noop_coroutine();
      }
      if (p.continuation) return p.continuation;
      return std::noop_coroutine();
    }
    void await_resume() noexcept {}
  };
  FinalAwaiter final_suspend() noexcept { return {}; }
  void unhandled_exception() { error = std::current_exception(); }
};

// The runtime the coroutine `h` runs under (its promise's); throws std::logic_error when no
// runtime started it. An awaitable's await_suspend takes the awaiting coroutine's handle typed
// (template <class P> ... std::coroutine_handle<P>) to reach it.
template <class P>
AsyncRuntime& runtimeOf(std::coroutine_handle<P> h) {
  static_assert(std::is_base_of_v<PromiseBase, P>,
                "the engine's awaitables are awaited in a streamsim::Task coroutine");
  AsyncRuntime* r = static_cast<PromiseBase&>(h.promise()).runtime;
  if (r == nullptr) throwNoRuntime();
  return *r;
}

// Hands the awaiting coroutine's runtime to `child` (a Task it is about to start).
template <class P>
void inheritRuntime(std::coroutine_handle<P> parent, PromiseBase& child) {
  if constexpr (std::is_base_of_v<PromiseBase, P>)
    if (child.runtime == nullptr) child.runtime = static_cast<PromiseBase&>(parent.promise()).runtime;
}

// `co_await CurrentRuntime{}` in a Task: the runtime it runs under, without suspending.
struct CurrentRuntime {
  AsyncRuntime* runtime = nullptr;
  bool await_ready() const noexcept { return false; }
  template <class P>
  bool await_suspend(std::coroutine_handle<P> h) {
    runtime = &runtimeOf(h);
    return false;  // resume at once
  }
  AsyncRuntime& await_resume() const noexcept { return *runtime; }
};

template <class T>
struct Promise : PromiseBase {
  std::optional<T> value;
  Task<T> get_return_object();
  template <class U>
  void return_value(U&& v) {
    value.emplace(std::forward<U>(v));
  }
};

template <>
struct Promise<void> : PromiseBase {
  Task<void> get_return_object();
  void return_void() {}
};

}  // namespace detail

template <class T>
class [[nodiscard]] Task {
 public:
  using promise_type = detail::Promise<T>;
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle h) : h_(h) {}
  Task(Task&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Task& operator=(Task&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { reset(); }

  bool valid() const { return static_cast<bool>(h_); }
  bool done() const { return !h_ || h_.done(); }
  // The runtime's access (REQUIRES: valid()).
  Handle handle() const { return h_; }
  // The finished task's result; rethrows what it threw. REQUIRES: done().
  T result() {
    if (h_.promise().error) std::rethrow_exception(h_.promise().error);
    if constexpr (!std::is_void_v<T>) return std::move(*h_.promise().value);
  }

  // co_await task: starts it (symmetric transfer) and resumes the awaiter when it finishes.
  auto operator co_await() && noexcept { return Awaiter{h_}; }
  auto operator co_await() & noexcept { return Awaiter{h_}; }

 private:
  struct Awaiter {
    Handle h;
    bool await_ready() const noexcept { return !h || h.done(); }
    template <class P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> awaiting) noexcept {
      h.promise().continuation = awaiting;
      detail::inheritRuntime(awaiting, h.promise());
      return h;
    }
    T await_resume() {
      if (h.promise().error) std::rethrow_exception(h.promise().error);
      if constexpr (!std::is_void_v<T>) return std::move(*h.promise().value);
    }
  };
  void reset() {
    if (h_) h_.destroy();
    h_ = {};
  }
  Handle h_;
};

namespace detail {
template <class T>
Task<T> Promise<T>::get_return_object() {
  return Task<T>(std::coroutine_handle<Promise<T>>::from_promise(*this));
}
inline Task<void> Promise<void>::get_return_object() {
  return Task<void>(std::coroutine_handle<Promise<void>>::from_promise(*this));
}

// Starts every child at once (each runs until its first await) and resumes the awaiting
// coroutine when the last one finished.
template <class T>
struct StartAll {
  std::vector<Task<T>>& tasks;
  WhenAllJoin join;
  bool await_ready() const noexcept { return tasks.empty(); }
  template <class P>
  bool await_suspend(std::coroutine_handle<P> parent) {
    join.remaining = tasks.size() + 1;
    join.parent = parent;
    for (Task<T>& t : tasks) {
      if (!t.valid()) {
        --join.remaining;
        continue;
      }
      t.handle().promise().join = &join;
      inheritRuntime(parent, t.handle().promise());
      t.handle().resume();
    }
    return --join.remaining != 0;  // false: every child finished already, go on at once
  }
  void await_resume() noexcept {}
};
}  // namespace detail

// Runs the tasks concurrently (their awaits interleave, all with the caller's grouping key) and
// yields their results in the tasks' order; rethrows the first task's (in order) exception once
// all finished. Python's asyncio.gather.
template <class T>
Task<std::vector<T>> whenAll(std::vector<Task<T>> tasks) {
  co_await detail::StartAll<T>{tasks, {}};
  std::vector<T> out;
  out.reserve(tasks.size());
  for (Task<T>& t : tasks) out.push_back(t.result());
  co_return out;
}

inline Task<void> whenAll(std::vector<Task<void>> tasks) {
  co_await detail::StartAll<void>{tasks, {}};
  for (Task<void>& t : tasks) t.result();
}

}  // namespace streamsim
