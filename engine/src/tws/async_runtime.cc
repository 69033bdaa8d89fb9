// The async processor runtime (async_runtime.h) and the sync view of async processors
// (AsyncProcessorAdapter, async_processor.h).
#include "tws/async_runtime.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/fault_points.h"
#include "streamsim/trace_events.h"

namespace streamsim {
namespace detail {

void throwNoRuntime() {
  throw std::logic_error(
      "an async state, timer or service operation was awaited outside a handler the engine "
      "runs (co_await it inside init, handleInputRows, handleExpiredTimer, "
      "handleInitialState or close)");
}

std::string describeAwait(const PendingOp* op) {
  if (op == nullptr) return "an outside call";
  if (op->name.empty()) return fmt::format("{} {}()", op->kind, op->op);
  return fmt::format("{} '{}'.{}()", op->kind, op->name, op->op);
}

namespace {

// A suspended coroutine of some call: ready (in ready_) or waiting for virtual time.
struct Fiber {
  std::coroutine_handle<> h;
  PendingOp* op = nullptr;
  size_t call = 0;
  uint64_t seq = 0;
  TimeMs readyAt = 0;
};

struct CallState {
  Task<> root;
  bool started = false;
  bool finished = false;
  Output out;
  std::string keyJson;  // cached for candidates
};

class PhaseRunner final : public AsyncRuntime {
 public:
  explicit PhaseRunner(AsyncPhase& phase) : phase_(phase), calls_(phase.calls) {}

  void post(std::coroutine_handle<> h, PendingOp* op) override {
    ready_.push_back(Fiber{h, op, current_, seq_++, now()});
  }
  void postAt(std::coroutine_handle<> h, TimeMs readyAt) override {
    if (readyAt <= now())
      post(h, nullptr);
    else
      waiting_.push_back(Fiber{h, nullptr, current_, seq_++, readyAt});
  }
  size_t currentCall() const override { return current_; }
  void postFor(size_t call, std::coroutine_handle<> h) override {
    ready_.push_back(Fiber{h, nullptr, call, seq_++, now()});
  }
  TimeMs now() override {
    Clock* clock = phase_.env != nullptr ? phase_.env->clock : nullptr;
    return clock != nullptr ? clock->nowMs() : local_now_;
  }
  ServiceDirectory* services() override {
    return phase_.env != nullptr ? phase_.env->services : nullptr;
  }

  Status run() {
    Status st = loop();
    if (!st.ok()) return st;
    for (size_t i = 0; i < calls_.size(); ++i)
      if (phase_.collect) STREAMSIM_RETURN_IF_ERROR(phase_.collect(i, calls_[i].out));
    return Status::OK();
  }

 private:
  // What can run next. kind: a ready fiber (index into ready_) or the start of call `next_`.
  struct Choice {
    bool start = false;
    size_t fiber = 0;
    size_t call = 0;
    uint64_t seq = 0;
    TimeMs readyAt = 0;
  };

  // A call's coroutines resume in the order they became ready in virtual time (then in the
  // order they suspended): a reply that arrived before a timeout is seen first even when the
  // scheduler let time pass while the call waited to run (a Python wait_for's two waits).
  static bool earlier(const Fiber& a, const Fiber& b) {
    return a.readyAt != b.readyAt ? a.readyAt < b.readyAt : a.seq < b.seq;
  }

  void advanceTo(TimeMs t) {
    Clock* clock = phase_.env != nullptr ? phase_.env->clock : nullptr;
    if (clock != nullptr)
      clock->sleepUntil(t);
    else
      local_now_ = std::max(local_now_, t);
  }

  void promoteDue() {
    if (waiting_.empty()) return;
    const TimeMs t = now();
    for (size_t i = 0; i < waiting_.size();) {
      if (waiting_[i].readyAt <= t) {
        ready_.push_back(waiting_[i]);
        waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }

  TimeMs nextWake() const {
    TimeMs t = waiting_.front().readyAt;
    for (const Fiber& f : waiting_) t = std::min(t, f.readyAt);
    return t;
  }

  bool startable(size_t j) const {
    if (j >= calls_.size()) return false;
    if (!phase_.encodedKey) return true;
    const std::string_view key = phase_.encodedKey(j);
    for (size_t i = oldest_; i < j; ++i)
      if (calls_[i].started && !calls_[i].finished && phase_.encodedKey(i) == key) return false;
    return true;
  }

  const std::string& keyJson(size_t call) {
    CallState& c = calls_[call];
    if (c.keyJson.empty()) c.keyJson = phase_.keyJson ? phase_.keyJson(call) : "null";
    return c.keyJson;
  }

  void enter(size_t call) {
    current_ = call;
    if (entered_ == call) return;
    entered_ = call;
    if (phase_.enter) phase_.enter(call);
  }

  Status loop() {
    std::vector<Choice> choices;
    std::vector<SchedulingCandidate> candidates;
    std::vector<std::string> ats;
    while (true) {
      promoteDue();
      while (oldest_ < calls_.size() && calls_[oldest_].finished) ++oldest_;
      if (oldest_ == calls_.size()) return Status::OK();

      // The sequential choice: the oldest unfinished call's earliest ready coroutine, or its
      // start; none when it waits for an outside call.
      choices.clear();
      bool sequentialWaits = false;
      if (calls_[oldest_].started) {
        std::optional<size_t> best;
        for (size_t i = 0; i < ready_.size(); ++i)
          if (ready_[i].call == oldest_ && (!best || earlier(ready_[i], ready_[*best]))) best = i;
        if (best)
          choices.push_back(Choice{false, *best, oldest_, ready_[*best].seq, ready_[*best].readyAt});
        else
          sequentialWaits = true;
      } else {
        choices.push_back(Choice{true, 0, next_, 0});
      }
      const bool withScheduler = phase_.scheduler != nullptr;
      // The other candidates (only a scheduler looks at them).
      if (withScheduler) {
        const size_t first = choices.size();
        // A call's coroutine that became ready later than another of the same call is no
        // candidate: time orders them (only coroutines of different calls, or of one call
        // ready at the same time, are reordered).
        earliest_.clear();
        for (const Fiber& f : ready_) {
          auto [it, fresh] = earliest_.try_emplace(f.call, f.readyAt);
          if (!fresh) it->second = std::min(it->second, f.readyAt);
        }
        for (size_t i = 0; i < ready_.size(); ++i) {
          if (!choices.empty() && first == 1 && !choices[0].start && choices[0].fiber == i) continue;
          if (ready_[i].readyAt > earliest_[ready_[i].call]) continue;
          choices.push_back(Choice{false, i, ready_[i].call, ready_[i].seq, ready_[i].readyAt});
        }
        std::sort(choices.begin() + static_cast<std::ptrdiff_t>(first), choices.end(),
                  [](const Choice& a, const Choice& b) {
                    if (a.call != b.call) return a.call < b.call;
                    return a.readyAt != b.readyAt ? a.readyAt < b.readyAt : a.seq < b.seq;
                  });
        const bool nextIsSequential = !choices.empty() && choices[0].start;
        if (!nextIsSequential && startable(next_)) choices.push_back(Choice{true, 0, next_, 0});
      }

      if (choices.empty()) {
        if (waiting_.empty())
          return Status::FailedPrecondition(fmt::format(
              "async processor: the handler for key {} is suspended on something the engine "
              "does not resume (await only state, timer and service operations, Tasks and "
              "whenAll)",
              keyJson(oldest_)));
        advanceTo(nextWake());
        continue;
      }

      size_t pick = 0;
      bool wait = false;
      if (sequentialWaits && !withScheduler) {
        wait = true;
      } else if (withScheduler && (choices.size() > 1 || sequentialWaits)) {
        candidates.clear();
        ats.clear();
        ats.reserve(choices.size());
        for (const Choice& c : choices)
          ats.push_back(c.start ? std::string("start") : describeAwait(ready_[c.fiber].op));
        for (size_t i = 0; i < choices.size(); ++i)
          candidates.push_back(SchedulingCandidate{choices[i].call, keyJson(choices[i].call), ats[i]});
        SchedulingPoint at = phase_.where;
        at.step = phase_.steps != nullptr ? (*phase_.steps)++ : 0;
        at.sequentialWaits = sequentialWaits;
        pick = phase_.scheduler->pick(at, candidates);
        if (pick == Scheduler::kWait) {
          // Waiting helps only when something the oldest call waits for comes with time: one
          // that waits for another call (a Python asyncio.Lock) cannot wait, the first other
          // candidate runs.
          wait = sequentialWaits && !waiting_.empty();
          pick = 0;
        } else if (pick >= choices.size()) {
          pick = 0;
        }
        if (!wait && (pick != 0 || sequentialWaits)) {
          const Choice& c = choices[pick];
          enter(c.call);
          if (phase_.trace)
            phase_.trace(events::kTwsSwitch,
                         fmt::format(R"("step":{},"at":{},"instead_key":{},"instead_at":{})",
                                     at.step, nlohmann::json(ats[pick]).dump(),
                                     sequentialWaits ? "null" : keyJson(choices[0].call),
                                     nlohmann::json(sequentialWaits ? "wait" : ats[0]).dump()));
        }
      }
      if (wait) {
        advanceTo(nextWake());
        continue;
      }
      const Choice c = choices[pick];
      STREAMSIM_RETURN_IF_ERROR(c.start ? startCall(c.call) : resumeFiber(c.fiber));
    }
  }

  Status startCall(size_t j) {
    CallState& call = calls_[j];
    ++next_;
    enter(j);
    call.started = true;
    call.root = phase_.start(j, call.out);
    if (!call.root.valid()) return finish(j);
    call.root.handle().promise().runtime = this;  // its awaited children inherit it
    call.root.handle().resume();
    return afterResume(j);
  }

  Status resumeFiber(size_t index) {
    const Fiber f = ready_[index];
    ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(index));
    enter(f.call);
    if (f.op != nullptr) {
      if (phase_.env != nullptr && phase_.env->faults != nullptr) {
        // An injected failure here is a failed state operation (a crash propagates).
        FaultContext ctx;
        ctx.batchId = phase_.where.batch;
        ctx.partition = phase_.where.partition;
        ctx.operatorId = phase_.where.operatorId;
        Status st = phase_.env->faults->at(faults::kAsyncStateOp, ctx);
        if (!st.ok())
          return phase_.failed(f.call, std::make_exception_ptr(std::runtime_error(st.message())), f.op);
      }
      try {
        f.op->run(f.op);
      } catch (const std::exception&) {
        return phase_.failed(f.call, std::current_exception(), f.op);
      }
    }
    f.h.resume();
    return afterResume(f.call);
  }

  Status afterResume(size_t j) {
    CallState& call = calls_[j];
    if (!call.root.done()) return Status::OK();
    if (call.root.handle().promise().error)
      return phase_.failed(j, call.root.handle().promise().error, nullptr);
    return finish(j);
  }

  Status finish(size_t j) {
    calls_[j].finished = true;
    // What the call left suspended is never resumed (a C++ handler leaves nothing; a Python
    // one may leave a cancelled timer's sleep): a finished call is not a candidate again.
    auto ofCall = [j](const Fiber& f) { return f.call == j; };
    ready_.erase(std::remove_if(ready_.begin(), ready_.end(), ofCall), ready_.end());
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(), ofCall), waiting_.end());
    return phase_.done ? phase_.done(j) : Status::OK();
  }

  AsyncPhase& phase_;
  std::vector<CallState> calls_;
  std::vector<Fiber> ready_;
  std::vector<Fiber> waiting_;
  size_t current_ = 0;
  size_t entered_ = static_cast<size_t>(-1);
  size_t oldest_ = 0;
  size_t next_ = 0;
  uint64_t seq_ = 0;
  std::unordered_map<size_t, TimeMs> earliest_;  // per call: its earliest ready coroutine
  TimeMs local_now_ = 0;
};

}  // namespace

Status runAsyncPhase(AsyncPhase& phase) {
  PhaseRunner runner(phase);
  return runner.run();
}

void runToCompletion(const Env* env, Task<> task) {
  AsyncPhase phase;
  phase.env = env;
  phase.calls = 1;
  std::exception_ptr error;
  phase.start = [&](size_t, Output&) { return std::move(task); };
  phase.failed = [&](size_t, std::exception_ptr e, const PendingOp*) {
    error = e;
    return Status::TaskFailed("async handler failed");
  };
  Status st = runAsyncPhase(phase);
  if (error) std::rethrow_exception(error);
  if (!st.ok()) throw std::runtime_error(st.message());
}

// ---------------------------------------------------------------------------------------------
// AsyncProcessorAdapter

void AsyncProcessorAdapter::init(StatefulProcessorHandle& handle) {
  env_ = handle.env();
  handle_ = std::make_unique<AsyncStatefulProcessorHandle>(handle);
  runToCompletion(env_, p_->init(*handle_));
}

void AsyncProcessorAdapter::handleInputRows(const Row& key, RowRange rows,
                                            const TimerValues& timerValues, Output& out) {
  runToCompletion(env_, p_->handleInputRows(key, rows, timerValues, out));
}

void AsyncProcessorAdapter::handleExpiredTimer(const Row& key, const TimerValues& timerValues,
                                               const ExpiredTimerInfo& info, Output& out) {
  runToCompletion(env_, p_->handleExpiredTimer(key, timerValues, info, out));
}

void AsyncProcessorAdapter::handleInitialState(const Row& key, const Row& initialState,
                                               const TimerValues& timerValues, Output& out) {
  if (with_initial_ == nullptr)
    throwRule("NO_INITIAL_STATE_HANDLER",
              "initial state was given but the async processor does not derive from "
              "AsyncStatefulProcessorWithInitialState");
  runToCompletion(env_, with_initial_->handleInitialState(key, initialState, timerValues, out));
}

void AsyncProcessorAdapter::close() { runToCompletion(env_, p_->close()); }

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// AsyncService

void AsyncService::CallAwaiter::suspendOn(detail::AsyncRuntime& rt, std::coroutine_handle<> h) {
  ServiceDirectory* dir = rt.services();
  Service* service = dir != nullptr ? dir->find(s_.name_) : nullptr;
  DurationMs latency = 0;
  if (service == nullptr) {
    response_.status = Status::NotFound(
        fmt::format("no outside service named '{}' in this run", s_.name_));
  } else {
    ServiceReply reply = service->call(request_);
    latency = std::max<DurationMs>(0, reply.latencyMs);
    if (s_.timeout_ms_ > 0 && latency > s_.timeout_ms_) {
      latency = s_.timeout_ms_;
      response_.timedOut = true;
      response_.status = Status::IOError(fmt::format(
          "service '{}' did not answer within {} ms", s_.name_, s_.timeout_ms_));
    } else {
      response_.status = std::move(reply.status);
      response_.body = std::move(reply.body);
    }
  }
  rt.postAt(h, rt.now() + latency);
}

}  // namespace streamsim
