// The driver with its supervisor loop (run/driver.h).
#include "streamsim/harness/run/driver.h"

#include <fmt/format.h>

namespace streamsim::harness {

bool Driver::recovers(const sim::SimulatedCrash& crash) const {
  return options_.restartPlannedCrashes && crash.planned;
}

void Driver::takeDowntime(const sim::SimulatedCrash& crash) {
  if (crash.downtime > 0) sim_.downUntil(sim_.clock().nowMs() + crash.downtime, "crash", crash.context.batchId);
}

Status Driver::leftDown(const sim::SimulatedCrash& crash, Status st) {
  takeDowntime(crash);
  return st;
}

Status Driver::countRestart(std::string_view why) {
  if (++restarts_ <= options_.maxRestarts) return Status::OK();
  return Status::FailedPrecondition(fmt::format(
      "the restart limit was hit: more than {} supervisor restarts in one run "
      "(SupervisorOptions::maxRestarts); the last after {}",
      options_.maxRestarts, why));
}

Status Driver::launch(const DataStreamWriter* writer, bool replace) {
  for (;;) {
    const int64_t crashes = sim_.crashCount();
    Status st = writer != nullptr && (replace || !sim_.hasWriter()) ? sim_.start(*writer) : sim_.startAgain();
    replace = false;  // a recovery restarts what the first attempt started
    if (st.ok()) return st;
    if (sim_.crashCount() != crashes) {
      // A crash during the start or the recovery of a restart.
      const sim::SimulatedCrash& c = *sim_.lastCrash();
      if (!recovers(c)) return leftDown(c, st);
      STREAMSIM_RETURN_IF_ERROR(countRestart(c.what() + " during the start"));
      takeDowntime(c);
      continue;
    }
    if (!options_.restartOnFailure) return st;
    STREAMSIM_RETURN_IF_ERROR(countRestart("a failed start: " + st.toString()));
  }
}

Status Driver::start(const DataStreamWriter& writer) {
  if (sim_.running()) return Status::FailedPrecondition("a query is already running");
  return launch(&writer, /*replace=*/false);
}

Status Driver::startWith(const DataStreamWriter& writer) {
  if (sim_.running()) return Status::FailedPrecondition("a query is already running");
  return launch(&writer, /*replace=*/true);
}

Status Driver::startAgain() {
  if (sim_.running()) return Status::FailedPrecondition("a query is already running");
  return launch(nullptr, /*replace=*/false);
}

Status Driver::supervise(const std::function<Status(StreamingQuery&)>& work,
                         const std::function<bool()>& done) {
  for (;;) {
    if (!sim_.running()) STREAMSIM_RETURN_IF_ERROR(startAgain());
    if (done && done()) return Status::OK();
    const int64_t crashes = sim_.crashCount();
    Status st = sim_.guarded([&](StreamingQuery& q) { return work(q); });
    if (sim_.crashCount() == crashes) {
      if (st.ok() || !options_.restartOnFailure) return st;
      // A failed trigger (not a crash): the supervisor stops the query and restarts it.
      sim_.stop();
      STREAMSIM_RETURN_IF_ERROR(countRestart("a failed trigger: " + st.toString()));
      continue;
    }
    const sim::SimulatedCrash& c = *sim_.lastCrash();
    if (!recovers(c)) return leftDown(c, st);  // Aborted naming the crash: the driver stays down
    STREAMSIM_RETURN_IF_ERROR(countRestart(c.what()));
    takeDowntime(c);
  }
}

}  // namespace streamsim::harness
