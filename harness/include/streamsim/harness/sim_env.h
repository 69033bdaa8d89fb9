// SimEnv: one simulated world for a query (DESIGN.md §4) — a VirtualClock, a SimFileSystem, a
// SeededIdGenerator, a FaultInjector and a TraceRecorder, bundled into the engine's Env — and
// the driver lifecycle on top of it: start a query from a DataStreamWriter, crash it, restart it
// (destroy the engine objects, apply the crash to the filesystem, start a fresh instance from
// the same writer), stop it. SimEnv owns all of these; the query borrows them.
// Not thread-safe: one SimEnv per simulated run (several may live in one process).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/env.h"
#include "streamsim/query.h"
#include "streamsim/sim/fault_injector.h"
#include "streamsim/sim/fault_plan.h"
#include "streamsim/sim/planned_scheduler.h"
#include "streamsim/sim/simulated_service.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/simulated_crash.h"
#include "streamsim/sim/trace.h"
#include "streamsim/sim/virtual_clock.h"

namespace streamsim::harness {

struct SimEnvOptions {
  uint64_t seed = 0;          // seeds the id generator (query ids, temp-file names)
  TimeMs startTimeMs = 0;     // the virtual clock's start
  sim::FaultPlan faultPlan;   // faults the injector executes (crashes can also be armed later)
  // false: queries get no trace sink (Env::trace null), for a run whose trace nobody reads (a
  // sweep's fault-free reference). trace() then stays empty of engine events.
  bool traceEngine = true;
  // Outside services async processors can await (seeded from `seed`).
  std::vector<sim::SimulatedServiceSpec> services;
  // Rows of the files the runs of one input read (Env::parsedFiles); null: every read parses.
  std::shared_ptr<ParsedFiles> parsedFiles;
};

class SimEnv {
 public:
  explicit SimEnv(SimEnvOptions options = {});
  SimEnv(const SimEnv&) = delete;
  SimEnv& operator=(const SimEnv&) = delete;
  ~SimEnv();

  sim::VirtualClock& clock() { return clock_; }
  sim::SimFileSystem& fs() { return fs_; }
  sim::SeededIdGenerator& ids() { return ids_; }
  sim::FaultInjector& injector() { return *injector_; }
  // The async scheduler of the plan's context switches (nullptr: the plan has none and no
  // choices are recorded).
  const sim::PlannedScheduler* scheduler() const { return scheduler_.get(); }
  // Gives async tasks the plan's scheduler even without switches, so that it records every
  // scheduling choice they meet (PlannedScheduler::choices: the reach of a fault-free run).
  // Before the first start.
  void recordSchedulingChoices();
  sim::TraceRecorder& trace() { return trace_; }
  // The Env handed to queries (clock, fs, ids, fault hook, trace).
  const Env& env() const { return env_; }

  // --- driver lifecycle ---
  // Starts a query from `writer` and keeps the writer for restarts. FailedPrecondition if a
  // query is running; otherwise the Status of DataStreamWriter::start.
  Status start(const DataStreamWriter& writer);
  // Starts a new instance from the last writer (after stop() or a crash).
  Status startAgain();
  // Driver restart: destroys the running query (without close), applies a crash to the
  // filesystem with the fault plan's torn-write rules, and starts a new query instance from
  // the same writer — exactly what a driver restart does.
  Status restart();
  // Crash now: destroys the query without stopping it and applies the crash to the filesystem.
  void crash();
  // Graceful stop (processors' close()); the query object is destroyed.
  void stop();

  // --- downtime (an outage) ---
  // The driver is down until virtual time `until` (no later than now: nothing): the world moves
  // on — the downtime handler, when set, applies what arrives meanwhile (a generated workload's
  // landing files at their times) — and the clock ends at `until`. Traced as
  // {"event":"driver_down","after":<after>,"from":...,"until":...}. `after`: "crash" (the
  // supervisor after a plan crash with downtime: Driver), "restart" (a `restart: {after: D}`
  // step), "commit" (a reference's DowntimeFault).
  // `crashBatch`: the batch the crash's fault point was in (after "crash").
  void downUntil(TimeMs until, std::string_view after, int64_t crashBatch = -1);
  // What the world does while the driver is down (must leave the clock at `until` or before).
  void setDowntimeHandler(std::function<void(TimeMs until)> f) { downtime_handler_ = std::move(f); }
  // The downtime the plan's crashes caused ("crash"): total virtual ms and how many times.
  DurationMs downtimeMs() const { return downtime_ms_; }
  int64_t downtimes() const { return downtimes_; }

  // Runs `f(query)` and turns a SimulatedCrash thrown inside it into a crash of the driver:
  // the query is destroyed, the crash applied to the filesystem, and the crash recorded
  // (lastCrash()). Returns f's result, or Aborted naming the crash. REQUIRES: running().
  template <class F>
  auto guarded(F&& f) -> decltype(f(std::declval<StreamingQuery&>()));

  bool running() const { return query_ != nullptr; }
  StreamingQuery* query() { return query_.get(); }
  bool hasWriter() const { return writer_.has_value(); }
  // The last crash caught by guarded() (cleared by nothing; check crashCount()).
  const std::optional<sim::SimulatedCrash>& lastCrash() const { return last_crash_; }
  int64_t crashCount() const { return crash_count_; }
  // Progress of every batch of every run of this SimEnv, in order (queries keep only their own).
  const std::vector<QueryProgress>& allProgress() const { return all_progress_; }

 private:
  void collectProgress();
  void onCrash(const sim::SimulatedCrash& c);

  SimEnvOptions options_;
  sim::VirtualClock clock_;
  sim::SimFileSystem fs_;
  sim::SeededIdGenerator ids_;
  sim::TraceRecorder trace_;
  std::unique_ptr<sim::FaultInjector> injector_;
  // Async processors: the plan's context switches (null without any) and the services.
  std::unique_ptr<sim::PlannedScheduler> scheduler_;
  std::unique_ptr<sim::SimulatedServices> services_;
  std::unique_ptr<TimeZoneSource> time_zones_;  // region ids of spark.sql.session.timeZone
  Env env_;
  std::optional<DataStreamWriter> writer_;
  std::unique_ptr<StreamingQuery> query_;
  size_t progress_seen_ = 0;  // entries of query_->recentProgress() already collected
  std::vector<QueryProgress> all_progress_;
  std::optional<sim::SimulatedCrash> last_crash_;
  int64_t crash_count_ = 0;
  std::function<void(TimeMs)> downtime_handler_;
  DurationMs downtime_ms_ = 0;
  int64_t downtimes_ = 0;
};

template <class F>
auto SimEnv::guarded(F&& f) -> decltype(f(std::declval<StreamingQuery&>())) {
  using R = decltype(f(std::declval<StreamingQuery&>()));
  if (query_ == nullptr) return R(Status::FailedPrecondition("no query is running"));
  try {
    R r = f(*query_);
    collectProgress();
    return r;
  } catch (const sim::SimulatedCrash& c) {
    onCrash(c);
    return R(Status::Aborted(c.what()));
  }
}

}  // namespace streamsim::harness
