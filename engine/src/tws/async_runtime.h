// The runtime of async processors (DESIGN.md §5a): runs one phase of a partition task — its
// handleInputRows calls, or its handleExpiredTimer calls — as coroutines on one thread. At every
// await the ready coroutines (and the next call, not yet started) are the candidates; the Env's
// Scheduler picks one where there is a choice (none: the sequential order). A call's key is made
// current before any of its code or state operations run. One phase at a time; not thread-safe.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <string_view>

#include "streamsim/env.h"
#include "streamsim/scheduler.h"
#include "streamsim/tws/async_processor.h"

namespace streamsim::detail {

struct AsyncPhase {
  const Env* env = nullptr;
  Scheduler* scheduler = nullptr;  // null: sequential
  SchedulingPoint where;           // batch, operator, partition, phase (step: from *steps)
  int64_t* steps = nullptr;        // the task's step counter, shared by its phases
  size_t calls = 0;
  // The call's encoded grouping key (calls of one key run one after the other).
  std::function<std::string_view(size_t)> encodedKey;
  // Makes call i's key current (task key, key row).
  std::function<void(size_t)> enter;
  // The key of call i as JSON (for scheduling candidates and the trace).
  std::function<std::string(size_t)> keyJson;
  // Creates call i's coroutine (after enter(i)); an invalid Task skips the call.
  std::function<Task<>(size_t, Output&)> start;
  // Call i finished (in completion order).
  std::function<Status(size_t)> done;
  // Call i's rows, once every call finished, in call order.
  std::function<Status(size_t, Output&)> collect;
  // Call i failed: `error` thrown by its code, or by the state operation `op` (then non-null;
  // the code never saw it). The returned Status fails the task.
  std::function<Status(size_t, std::exception_ptr error, const PendingOp* op)> failed;
  // Trace events (may be empty).
  std::function<void(std::string_view event, const std::string& fields)> trace;
};

Status runAsyncPhase(AsyncPhase& phase);

// "ValueState 'count'.get()", "timer registerTimer()", "start".
std::string describeAwait(const PendingOp* op);

}  // namespace streamsim::detail
