// A Python AsyncStatefulProcessor as an engine async processor (docs/python.md "Async
// processors"; streamsim/_async.py is the Python half). Each handler call is one coroutine of
// the engine's async runtime (the root, returned by the handler) that steps the call's
// VirtualLoop until its coroutines all wait; every request they leave (a state or timer
// operation, a service call, a sleep) becomes a child coroutine that awaits the engine's own
// awaitable for it — detail::stateOp, AsyncService::call, a sleep until a virtual time — so the
// Env's Scheduler picks who resumes at each of them, as for a C++ async processor. When a
// request is done the child resolves the Python future and steps the loop again; the child that
// sees the call's main task finish transfers to the root, which takes its rows.
#include <coroutine>
#include <memory>
#include <stdexcept>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "call_guard.h"
#include "python_processor.h"
#include "streamsim/tws/async_processor.h"

namespace streamsim::python {
namespace {

// A Python reference a coroutine frame holds: released under the GIL wherever the frame ends.
class PyRef {
 public:
  PyRef() = default;
  explicit PyRef(py::object o) : p_(o.release().ptr()) {}
  PyRef(PyRef&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  PyRef& operator=(PyRef&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  ~PyRef() { reset(); }
  py::handle get() const { return p_; }  // REQUIRES: the GIL to use it

 private:
  void reset() {
    if (p_ == nullptr) return;
    py::gil_scoped_acquire gil;
    Py_DECREF(p_);
    p_ = nullptr;
  }
  PyObject* p_ = nullptr;
};

// The engine's virtual clock as the Python loop of a call reads it (VirtualLoop.time): the
// runtime the call runs under, handed to Python with the call (the loop's `clock`), detached when
// the call ends (a read after that is a RuntimeError, not a dangling runtime).
struct VirtualClock {
  detail::AsyncRuntime* runtime = nullptr;
  TimeMs nowMs() const {
    if (runtime == nullptr)
      throw std::runtime_error(
          "the virtual clock was read outside an async handler call streamsim runs");
    return runtime->now();
  }
};

struct CallCtx;
// The calls of one processor instance in flight: their CallRuns share the instance's event loop,
// so one call's code may make another ready (a Python asyncio.Lock released). One thread.
struct Calls {
  std::vector<CallCtx*> live;
};

// One handler call: its Python CallRun and the children serving its requests.
struct CallCtx {
  Shared* shared = nullptr;
  Calls* calls = nullptr;
  size_t call = 0;               // the runtime's index of the call (AsyncRuntime::currentCall)
  detail::AsyncRuntime* runtime = nullptr;  // the runtime the call runs under (its root's)
  std::shared_ptr<VirtualClock> clock;      // handed to the call's loop (python's VirtualLoop.clock)
  PyRef run;
  std::coroutine_handle<> root;  // the root, once it waits for the main task
  bool done = false;             // the call's main task finished (or stepping it failed)
  std::exception_ptr error;      // stepping failed
  std::vector<Task<>> children;  // destroyed before `run`
  ~CallCtx() {
    if (clock) clock->runtime = nullptr;
    if (calls != nullptr) std::erase(calls->live, this);
  }
};

std::exception_ptr engineError(py::error_already_set& e, Shared& shared) {
  shared.record->lastError = e.value();
  try {
    rethrowForEngine(e);
  } catch (...) {
    return std::current_exception();
  }
}

// Steps the call's loop (its coroutines run until they all wait) under the per-call limit
// (call_guard.h): an interrupted step fails the call with the limit's message.
bool step(CallCtx& ctx) {
  CallGuard guard(ctx.shared->name, "an async handler", ctx.shared->callLimitMs);
  try {
    ctx.run.get().attr("loop").attr("clock") = py::cast(ctx.clock);
    return ctx.run.get().attr("step")().cast<bool>();
  } catch (py::error_already_set& e) {
    if (!guard.interrupted()) throw;
    ctx.shared->record->lastError = e.value();
    throw std::runtime_error(guard.message());
  }
}

struct SleepUntil {
  TimeMs at;
  bool await_ready() const noexcept { return false; }
  template <class P>
  void await_suspend(std::coroutine_handle<P> h) {
    detail::runtimeOf(h).postAt(h, at);
  }
  void await_resume() const noexcept {}
};

struct WaitForMain {
  CallCtx* ctx;
  bool await_ready() const noexcept { return ctx->done; }
  void await_suspend(std::coroutine_handle<> h) noexcept { ctx->root = h; }
  void await_resume() const noexcept {}
};

// Ready again as a coroutine of call `call` (a call another call's code woke).
struct ReadyAs {
  size_t call;
  bool await_ready() const noexcept { return false; }
  template <class P>
  void await_suspend(std::coroutine_handle<P> h) {
    detail::runtimeOf(h).postFor(call, h);
  }
  void await_resume() const noexcept {}
};

struct TransferTo {
  std::coroutine_handle<> target;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<>) noexcept { return target; }
  void await_resume() const noexcept {}
};

enum class RequestKind { kState, kService, kSleep, kWake };

struct Request {
  PyRef req;
  RequestKind kind = RequestKind::kState;
  std::string opKind, opName, opName2;  // PendingOp's kind, name, op
  std::string service;
  DurationMs timeoutMs = 0;
  std::string payload;
  TimeMs whenMs = 0;
};

void spawn(CallCtx& ctx);

// The calls that `ctx`'s last step made ready (their wake requests): served as theirs.
// REQUIRES: the GIL.
std::vector<CallCtx*> takeWoken(CallCtx& ctx) {
  std::vector<CallCtx*> out;
  py::list woken = ctx.run.get().attr("take_woken")();
  for (py::handle w : woken)
    for (CallCtx* other : ctx.calls->live)
      if (other != &ctx && other->run.get().ptr() == w.ptr()) out.push_back(other);
  return out;
}
void wake(const std::vector<CallCtx*>& woken) {
  for (CallCtx* other : woken) spawn(*other);
}

// The step after a request is done: resolve its future, run what became ready, serve what the
// coroutines ask next.
void resumePython(CallCtx& ctx, const PyRef& req) {
  std::vector<CallCtx*> woken;
  {
    py::gil_scoped_acquire gil;
    try {
      ctx.run.get().attr("loop").attr("clock") = py::cast(ctx.clock);  // a callback may read it
      req.get().attr("resolve")();
      ctx.done = step(ctx);
      woken = takeWoken(ctx);
    } catch (py::error_already_set& e) {
      ctx.error = engineError(e, *ctx.shared);
      ctx.done = true;
    } catch (const std::runtime_error&) {  // the call limit (step)
      ctx.error = std::current_exception();
      ctx.done = true;
    }
  }
  wake(woken);
  if (!ctx.done) spawn(ctx);
}

Task<> serve(CallCtx& ctx, Request r) {
  switch (r.kind) {
    case RequestKind::kState:
      // The operation runs when the scheduler resumes this coroutine (the key current); its
      // error fails the task without resuming it: the processor never sees it.
      co_await detail::stateOp<void>(r.opKind, r.opName, r.opName2, [&r] {
        py::gil_scoped_acquire gil;
        try {
          r.req.get().attr("run")();
        } catch (py::error_already_set& e) {
          rethrowForEngine(e);
        }
      });
      break;
    case RequestKind::kService: {
      AsyncService svc(r.service, r.timeoutMs);
      ServiceResponse resp = co_await svc.call(r.payload);
      py::gil_scoped_acquire gil;
      r.req.get().attr("answer")(resp.status.ok(), resp.status.ok() ? "" : resp.status.message(),
                                 resp.body, resp.timedOut);
      break;
    }
    case RequestKind::kSleep:
      co_await SleepUntil{r.whenMs};
      break;
    case RequestKind::kWake:
      co_await ReadyAs{ctx.call};
      break;
  }
  resumePython(ctx, r.req);
  if (ctx.done && ctx.root) co_await TransferTo{ctx.root};
}

// Starts a child for every request the call's coroutines left (each runs to its await).
void spawn(CallCtx& ctx) {
  std::vector<std::coroutine_handle<>> started;
  {
    py::gil_scoped_acquire gil;
    try {
      py::list reqs = ctx.run.get().attr("take_requests")();
      for (py::handle item : reqs) {
        Request r;
        std::string kind = item.attr("kind").cast<std::string>();
        py::tuple label = item.attr("label");
        r.opKind = label[0].cast<std::string>();
        r.opName = label[1].cast<std::string>();
        r.opName2 = label[2].cast<std::string>();
        if (kind == "service") {
          r.kind = RequestKind::kService;
          r.service = item.attr("service").cast<std::string>();
          r.timeoutMs = item.attr("timeout_ms").cast<DurationMs>();
          r.payload = item.attr("payload").cast<std::string>();
        } else if (kind == "sleep") {
          r.kind = RequestKind::kSleep;
          r.whenMs = item.attr("when_ms").cast<TimeMs>();
        } else if (kind == "wake") {
          r.kind = RequestKind::kWake;
        }
        r.req = PyRef(py::reinterpret_borrow<py::object>(item));
        ctx.children.push_back(serve(ctx, std::move(r)));
        ctx.children.back().handle().promise().runtime = ctx.runtime;  // started here, not awaited
        started.push_back(ctx.children.back().handle());
      }
    } catch (py::error_already_set& e) {
      ctx.error = engineError(e, *ctx.shared);
      ctx.done = true;
    }
  }
  for (std::coroutine_handle<> h : started) h.resume();
}

Task<> nothing() { co_return; }

// The root coroutine of one handler call: `start` (under the GIL) makes the CallRun.
Task<> runCall(std::shared_ptr<Shared> shared, Calls& calls, std::function<py::object()> start,
               Output* out, OutputColumns* columns = nullptr) {
  CallCtx ctx;
  ctx.shared = shared.get();
  ctx.calls = &calls;
  ctx.runtime = &co_await detail::CurrentRuntime{};
  ctx.call = ctx.runtime->currentCall();
  ctx.clock = std::make_shared<VirtualClock>(VirtualClock{ctx.runtime});
  calls.live.push_back(&ctx);
  std::vector<CallCtx*> woken;
  {
    py::gil_scoped_acquire gil;
    try {
      ctx.run = PyRef(start());
      ctx.done = step(ctx);
      woken = takeWoken(ctx);
    } catch (py::error_already_set& e) {
      std::rethrow_exception(engineError(e, *shared));
    }
  }
  wake(woken);
  if (!ctx.done) {
    spawn(ctx);
    co_await WaitForMain{&ctx};
  }
  if (ctx.error) std::rethrow_exception(ctx.error);
  py::gil_scoped_acquire gil;
  py::object rows;
  try {
    rows = ctx.run.get().attr("result")();
  } catch (py::error_already_set& e) {
    std::rethrow_exception(engineError(e, *shared));
  }
  OutputColumns own;
  if (out != nullptr) {
    py::object run = py::reinterpret_borrow<py::object>(ctx.run.get());
    emitOutput(*shared, columns != nullptr ? *columns : own, rows, *out, run.attr("driver"),
               run.attr("method").cast<std::string>());
  }
}

class PythonAsyncProcessor final : public AsyncStatefulProcessorWithInitialState {
 public:
  explicit PythonAsyncProcessor(std::shared_ptr<Shared> shared)
      : shared_(std::move(shared)), alive_(std::make_shared<bool>(true)) {}
  ~PythonAsyncProcessor() override {
    *alive_ = false;
    py::gil_scoped_acquire gil;
    input_ = InputRows();
    output_ = OutputColumns();
    driver_ = py::object();
  }

  Task<> init(AsyncStatefulProcessorHandle& handle) override {
    StatefulProcessorHandle* sync = &handle.sync();
    return runCall(shared_, calls_, [this, sync] {
      py::object instance = shared_->makeInstance();
      driver_ = shared_->driverClass(instance, shared_->guard, shared_->inPandas,
                                     shared_->outputNames);
      return driver_.attr("start_init")(makeNativeHandle(*sync, alive_, shared_->record));
    }, nullptr);
  }

  Task<> handleInputRows(const Row& key, RowRange rows, const TimerValues& tv,
                         Output& out) override {
    return runCall(shared_, calls_, [this, &key, rows, tv] {
      py::list values = input_.build(*shared_, rows, /*tuples=*/false);
      return driver_.attr("start_input")(rowToTuple(key, shared_->inputForm(false)), input_.names, values,
                                         tv.getCurrentProcessingTimeInMs(),
                                         tv.getCurrentWatermarkInMs());
    }, &out, &output_);
  }

  Task<> handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo& info,
                            Output& out) override {
    const TimeMs expiry = info.getExpiryTimeInMs();
    return runCall(shared_, calls_, [this, &key, tv, expiry] {
      return driver_.attr("start_timer")(rowToTuple(key), tv.getCurrentProcessingTimeInMs(),
                                         tv.getCurrentWatermarkInMs(), expiry);
    }, &out, &output_);
  }

  Task<> handleInitialState(const Row& key, const Row& state, const TimerValues& tv,
                            Output& out) override {
    return runCall(shared_, calls_, [this, &key, &state, tv] {
      py::list names;
      std::vector<int> cols;
      visibleColumns(*shared_, *state.schema(), names, cols);
      const PyForm form = shared_->inputForm(false);
      py::tuple t = visibleValues(state, state, names, cols, form);
      return driver_.attr("start_initial")(rowToTuple(key, form), names, t,
                                           tv.getCurrentProcessingTimeInMs(),
                                           tv.getCurrentWatermarkInMs());
    }, &out);
  }

  Task<> close() override {
    {
      py::gil_scoped_acquire gil;
      if (!driver_) return nothing();
    }
    return runCall(shared_, calls_, [this] { return driver_.attr("start_close")(); }, nullptr);
  }

  bool orderDependent() const override { return shared_->orderDependent; }

 private:
  std::shared_ptr<Shared> shared_;
  Alive alive_;
  py::object driver_;
  InputRows input_;
  OutputColumns output_;
  Calls calls_;
};

}  // namespace

std::unique_ptr<StatefulProcessor> makePythonAsyncProcessor(std::shared_ptr<Shared> shared) {
  return asStatefulProcessor(std::make_unique<PythonAsyncProcessor>(std::move(shared)));
}

void defineAsyncModule(py::module_& m) {
  py::class_<VirtualClock, std::shared_ptr<VirtualClock>>(
      m, "VirtualClock", "The engine's virtual clock of one async handler call (VirtualLoop.clock).")
      .def("now_ms", &VirtualClock::nowMs, "The virtual time (ms) the call runs at.");
}

}  // namespace streamsim::python
