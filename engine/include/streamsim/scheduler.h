// What the engine asks the outside world while async processors run (DESIGN.md §5a): a Scheduler
// that decides which ready coroutine of a partition task resumes at each scheduling point, and
// the Services (outside systems) processors await. Like Clock, the engine declares them and the
// caller hands them in through Env: none given = the sequential order and no services. sim/
// provides the seeded scheduler and simulated services. Implementations need not be thread-safe:
// one engine, one Env.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim {

// Where a scheduling choice is made: the step counts the choices of one partition task (its
// input phase and timer phase together), from 0, and restarts with every attempt of the task.
struct SchedulingPoint {
  int64_t batch = -1;
  int operatorId = 0;
  int partition = -1;
  int64_t step = 0;
  std::string_view phase;  // "handleInputRows" | "handleExpiredTimer"
  // True when the sequential run would wait here (its oldest unfinished call awaits an outside
  // call that has not answered yet); every candidate is then a deviation and kWait waits.
  bool sequentialWaits = false;
};

// One coroutine that could run next: a call (one handler invocation for one grouping key) that
// is ready to resume, or the next call of the phase, not started yet.
struct SchedulingCandidate {
  size_t call = 0;             // the call's index in the phase (keys in the sequential order)
  std::string_view key;        // the grouping key as JSON
  std::string_view at;         // where it resumes: "ValueState 'count'.get()", "start", ...
};

class Scheduler {
 public:
  static constexpr size_t kWait = std::numeric_limits<size_t>::max();
  virtual ~Scheduler() = default;
  // Called only where there is a choice: more than one candidate, or the sequential run would
  // wait. Unless `at.sequentialWaits`, ready[0] is what the sequential run resumes. Returns an
  // index into `ready`, or kWait (only when at.sequentialWaits) to let virtual time pass.
  virtual size_t pick(const SchedulingPoint& at, std::span<const SchedulingCandidate> ready) = 0;
};

// The sequential order: one key's handler after the other, as a sync processor runs; only the
// awaits inside one handler (whenAll) overlap.
class SequentialScheduler final : public Scheduler {
 public:
  size_t pick(const SchedulingPoint& at, std::span<const SchedulingCandidate> ready) override {
    (void)ready;
    return at.sequentialWaits ? kWait : 0;
  }
};

// What one call of an outside service does: it answers after `latencyMs` of virtual time with
// `status` (OK or an error) and `body`. A caller's timeout turns a later answer into
// DeadlineExceeded at the timeout.
struct ServiceReply {
  DurationMs latencyMs = 0;
  Status status;
  std::string body;
};

// An outside system (an HTTP API, a database) a processor awaits. call() decides the reply at
// once; the engine delivers it after its latency. REQUIRES: deterministic in the request and the
// number of earlier calls with the same request (so a reordered run gets the same replies).
class Service {
 public:
  virtual ~Service() = default;
  virtual ServiceReply call(std::string_view request) = 0;
};

// The services of a run, by name.
class ServiceDirectory {
 public:
  virtual ~ServiceDirectory() = default;
  // nullptr when no service of that name exists.
  virtual Service* find(std::string_view name) = 0;
};

}  // namespace streamsim
