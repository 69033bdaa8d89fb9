#include "streamsim/harness/sim_env.h"

#include <fmt/format.h>

#include "streamsim/platform/platform.h"
#include "streamsim/trace_events.h"


namespace streamsim::harness {

SimEnv::SimEnv(SimEnvOptions options)
    : options_(std::move(options)),
      clock_(options_.startTimeMs),
      fs_(&clock_),
      ids_(options_.seed),
      trace_(&clock_) {
  injector_ = std::make_unique<sim::FaultInjector>(options_.faultPlan, &fs_, &trace_);
  env_.clock = &clock_;
  env_.fs = &fs_;
  env_.ids = &ids_;
  // Region time zones from the system's tz database (read-only data, as Spark reads its JDK's).
  time_zones_ = platform::newSystemTimeZones();
  env_.timeZones = time_zones_.get();
  env_.faults = injector_.get();
  injector_->onDowntime([this](DurationMs d) { downUntil(clock_.nowMs() + d, "commit"); });
  env_.trace = options_.traceEngine ? &trace_ : nullptr;
  env_.parsedFiles = options_.parsedFiles.get();
  if (std::vector<sim::SwitchFault> switches = options_.faultPlan.switches(); !switches.empty()) {
    scheduler_ = std::make_unique<sim::PlannedScheduler>(switches);
    env_.scheduler = scheduler_.get();
  }
  if (!options_.services.empty()) {
    services_ = std::make_unique<sim::SimulatedServices>(options_.services, options_.seed);
    env_.services = services_.get();
  }
}

void SimEnv::recordSchedulingChoices() {
  if (scheduler_ == nullptr) scheduler_ = std::make_unique<sim::PlannedScheduler>(std::vector<sim::SwitchFault>());
  env_.scheduler = scheduler_.get();
}

SimEnv::~SimEnv() {
  // The query borrows everything here: it must go first.
  query_.reset();
}

void SimEnv::collectProgress() {
  if (query_ == nullptr) return;
  const auto& p = query_->recentProgress();
  for (size_t i = progress_seen_; i < p.size(); ++i) all_progress_.push_back(p[i]);
  progress_seen_ = p.size();
}

Status SimEnv::start(const DataStreamWriter& writer) {
  if (query_ != nullptr) return Status::FailedPrecondition("a query is already running");
  if (!writer_)  // the first start: a reference's downtime before it (DowntimeFault batch -1)
    for (const sim::DowntimeFault& d : options_.faultPlan.downtimes())
      if (d.batch < 0) downUntil(clock_.nowMs() + d.downtime, "commit");
  writer_.emplace(writer);
  return startAgain();
}

Status SimEnv::startAgain() {
  if (query_ != nullptr) return Status::FailedPrecondition("a query is already running");
  if (!writer_) return Status::FailedPrecondition("no query was started before");
  try {
    auto q = writer_->start(env_);
    if (!q.ok()) return q.status();
    query_ = std::move(q).value();
  } catch (const sim::SimulatedCrash& c) {
    onCrash(c);
    return Status::Aborted(c.what());
  }
  progress_seen_ = 0;
  return Status::OK();
}

void SimEnv::downUntil(TimeMs until, std::string_view after, int64_t crashBatch) {
  const TimeMs from = clock_.nowMs();
  if (until <= from) return;
  if (downtime_handler_) downtime_handler_(until);
  if (clock_.nowMs() < until) clock_.set(until);
  until = clock_.nowMs();  // a handler may end it later (a generated workload: at a trigger time)
  TraceEvent(events::kDriverDown)
      .add("after", after)
      .add("batch", crashBatch)
      .add("from", from)
      .add("until", until)
      .emit(&trace_);
  if (after == "crash") {
    downtime_ms_ += until - from;
    ++downtimes_;
  }
}

void SimEnv::onCrash(const sim::SimulatedCrash& c) {
  last_crash_ = c;
  ++crash_count_;
  collectProgress();
  query_.reset();
  injector_->applyCrash(fs_);
}

void SimEnv::crash() {
  collectProgress();
  query_.reset();
  ++crash_count_;
  injector_->applyCrash(fs_);
}

Status SimEnv::restart() {
  if (query_ != nullptr) crash();
  return startAgain();
}

void SimEnv::stop() {
  if (query_ == nullptr) return;
  collectProgress();
  try {
    query_->stop();
  } catch (const sim::SimulatedCrash& c) {
    onCrash(c);
    return;
  }
  query_.reset();
}

}  // namespace streamsim::harness
