#include "streamsim/sim/fault_injector.h"

#include <algorithm>

#include <fmt/format.h>

#include "streamsim/fault_points.h"
#include "streamsim/sim/random.h"
#include "streamsim/trace_events.h"

namespace streamsim::sim {
namespace {

bool matches(int64_t batch, int partition, const FaultContext& ctx) {
  return (batch < 0 || ctx.batchId == batch) && (partition < 0 || ctx.partition == partition);
}

std::string whereText(const FaultContext& ctx) {
  std::string out = fmt::format("batch {}", ctx.batchId);
  if (ctx.partition >= 0) out += fmt::format(", partition {}", ctx.partition);
  if (!ctx.path.empty()) out += fmt::format(", {}", ctx.path);
  return out;
}

}  // namespace

SimFileSystem::CrashPolicy crashPolicy(const FaultPlan& plan, uint64_t crashNumber) {
  std::vector<TornWriteFault> rules = plan.tornWrites();
  uint64_t seed = plan.seed;
  return [rules = std::move(rules), seed, crashNumber](const std::string& path, size_t durable, size_t full) -> size_t {
    const TornWriteFault* best = nullptr;
    for (const TornWriteFault& r : rules) {
      if (path.compare(0, r.pathPrefix.size(), r.pathPrefix) != 0) continue;
      if (best == nullptr || r.pathPrefix.size() > best->pathPrefix.size()) best = &r;
    }
    if (best == nullptr) return durable;
    size_t unsynced = full - durable;
    switch (best->mode) {
      case TornMode::kLoseUnsynced: return durable;
      case TornMode::kKeepAll: return full;
      case TornMode::kTornPrefix:
        if (best->bytes >= 0) return durable + std::min(unsynced, static_cast<size_t>(best->bytes));
        return durable + static_cast<size_t>(mix64(seed ^ fnv1a64(path) ^ mix64(crashNumber + 1)) % (unsynced + 1));
    }
    return durable;
  };
}

FaultInjector::FaultInjector(FaultPlan plan, SimFileSystem* fs, TraceSink* trace)
    : plan_(std::move(plan)), fs_(fs), trace_(trace), plan_fired_(plan_.faults.size(), 0) {
  for (size_t i = 0; i < plan_.faults.size(); ++i) arm(plan_.faults[i], static_cast<int>(i), -1);
}

std::vector<int> FaultInjector::planFired() const { return plan_fired_; }

int FaultInjector::arm(const Fault& fault) {
  int handle = static_cast<int>(later_fired_.size());
  if (!arm(fault, -1, handle)) return -1;
  later_fired_.push_back(0);
  return handle;
}

bool FaultInjector::armedFired(int handle) const {
  return handle >= 0 && static_cast<size_t>(handle) < later_fired_.size() &&
         later_fired_[static_cast<size_t>(handle)] != 0;
}

bool FaultInjector::arm(const Fault& fault, int planIndex, int laterIndex) {
  int64_t count = 1;
  if (std::holds_alternative<TornWriteFault>(fault) || std::holds_alternative<LandingFault>(fault) ||
      std::holds_alternative<SwitchFault>(fault))
    return false;
  // Before the first start: SimEnv::start takes it.
  if (auto* d = std::get_if<DowntimeFault>(&fault); d != nullptr && d->batch < 0) return false;
  if (auto* t = std::get_if<TaskFailureFault>(&fault)) count = t->count;
  if (auto* io = std::get_if<IoErrorFault>(&fault)) count = io->count;
  if (count <= 0) return false;
  armed_.push_back(Armed{fault, 0, 0, false, planIndex, laterIndex});
  ++pending_;
  return true;
}

void FaultInjector::fired(const Armed& a) {
  if (a.planIndex >= 0) ++plan_fired_[static_cast<size_t>(a.planIndex)];
  if (a.laterIndex >= 0) later_fired_[static_cast<size_t>(a.laterIndex)] = 1;
}

int FaultInjector::armCrash(std::string_view point, int64_t batch, int partition, int64_t nth) {
  return arm(CrashFault{std::string(point), batch, partition, nth});
}

void FaultInjector::disarmAll() {
  for (Armed& a : armed_) a.done = true;
  armed_.clear();
  pending_ = 0;
}

int64_t FaultInjector::countPass(std::string_view point) {
  for (auto& [name, n] : passes_)
    if (name == point) return ++n;
  passes_.emplace_back(std::string(point), 1);
  return 1;
}

int64_t FaultInjector::passes(std::string_view point) const {
  for (const auto& [name, n] : passes_)
    if (name == point) return n;
  return 0;
}

void FaultInjector::finish(Armed& a) {
  if (!a.done) {
    a.done = true;
    --pending_;
  }
}

void FaultInjector::record(std::string kind, std::string_view point, const FaultContext& ctx, int64_t pass,
                           bool planned) {
  if (trace_ != nullptr) {
    TraceEvent e(events::kFaultInjected);
    e.add("kind", kind).add("point", point).add("batch", ctx.batchId);
    if (ctx.partition >= 0) e.add("partition", ctx.partition);
    if (ctx.operatorId >= 0) e.add("operator", ctx.operatorId);
    if (!ctx.path.empty()) e.add("path", ctx.path);
    if (!planned) e.add("step", true);  // a scenario step's armed fault, not the plan's
    std::move(e).add("pass", pass).emit(trace_);
  }
  injected_.push_back(InjectedFault{std::move(kind), std::string(point), ctx, pass, planned});
}

Status FaultInjector::at(std::string_view point, const FaultContext& ctx) {
  int64_t pass = countPass(point);
  if (record_reach_) {
    auto it = std::find_if(reach_.begin(), reach_.end(), [&](const CrashTarget& t) {
      return t.batch == ctx.batchId && t.point == point;
    });
    if (it == reach_.end()) reach_.push_back(CrashTarget{std::string(point), ctx.batchId, 1});
    else ++it->passes;
  }
  if (pending_ == 0) return Status::OK();

  // Write faults on a path prefix are armed when their batch starts; they never stop the point.
  for (Armed& a : armed_) {
    auto* io = std::get_if<IoErrorFault>(&a.fault);
    if (a.done || io == nullptr || io->pathPrefix.empty()) continue;
    if (io->batch >= 0 && ctx.batchId < io->batch) continue;
    if (fs_ != nullptr) {
      Status st = io->noSpace ? Status::NoSpace(fmt::format("injected: no space left on device (batch {})", ctx.batchId))
                              : Status::IOError(fmt::format("injected I/O error (batch {})", ctx.batchId));
      fs_->addWriteFault(io->pathPrefix, st, io->count);
      record(io->noSpace ? "no_space" : "io_error", io->pathPrefix, ctx, 0, a.planIndex >= 0);
      fired(a);
    }
    finish(a);
  }

  // Downtime after a commit comes before a crash at the same pass (the reference of a crash with
  // downtime may also restart there: run/clean_restarts.h).
  if (point == faults::kCommitsAfterWrite) {
    for (Armed& a : armed_) {
      auto* d = std::get_if<DowntimeFault>(&a.fault);
      if (a.done || d == nullptr || d->batch != ctx.batchId) continue;
      finish(a);
      a.fired = 1;
      fired(a);
      record("downtime", point, ctx, pass, a.planIndex >= 0);
      if (on_downtime_) on_downtime_(d->downtime);
    }
  }

  for (size_t i = 0; i < armed_.size(); ++i) {
    Armed& a = armed_[i];
    if (a.done) continue;
    if (auto* c = std::get_if<CrashFault>(&a.fault)) {
      if (c->point != point || !matches(c->batch, c->partition, ctx)) continue;
      if (++a.matched < c->nth) continue;
      // Every other crash that matches this pass counts it too and fires with it: one crash
      // happens, and it is a step's armed crash if any armed one is among them.
      bool planned = a.planIndex >= 0;
      DurationMs downtime = c->downtime;
      std::vector<Armed*> firing{&a};
      for (size_t k = i + 1; k < armed_.size(); ++k) {
        Armed& b = armed_[k];
        auto* d = std::get_if<CrashFault>(&b.fault);
        if (b.done || d == nullptr || d->point != point || !matches(d->batch, d->partition, ctx)) continue;
        if (++b.matched < d->nth) continue;
        firing.push_back(&b);
        planned = planned && b.planIndex >= 0;
        downtime = std::max(downtime, d->downtime);
      }
      for (Armed* f : firing) {
        finish(*f);
        f->fired = 1;
        fired(*f);
      }
      ++crashes_;
      record("crash", point, ctx, pass, planned);
      throw SimulatedCrash{std::string(point), ctx, pass, planned, downtime};
    }
    if (auto* t = std::get_if<TaskFailureFault>(&a.fault)) {
      if (t->point != point || !matches(t->batch, t->partition, ctx)) continue;
      ++a.matched;
      int n = ++a.fired;
      if (n >= t->count) finish(a);
      fired(a);
      record("task_failure", point, ctx, pass, a.planIndex >= 0);
      return Status::TaskFailed(fmt::format("injected task failure at {} ({}), failure {} of {}", point,
                                            whereText(ctx), n, t->count));
    }
    if (auto* io = std::get_if<IoErrorFault>(&a.fault)) {
      if (io->point.empty() || io->point != point || !matches(io->batch, -1, ctx)) continue;
      ++a.matched;
      int n = ++a.fired;
      if (n >= io->count) finish(a);
      fired(a);
      record(io->noSpace ? "no_space" : "io_error", point, ctx, pass, a.planIndex >= 0);
      std::string msg = fmt::format("injected {} at {} ({}), failure {} of {}",
                                    io->noSpace ? "no space left on device" : "I/O error", point, whereText(ctx), n,
                                    io->count);
      return io->noSpace ? Status::NoSpace(std::move(msg)) : Status::IOError(std::move(msg));
    }
  }
  if (pending_ == 0) armed_.clear();
  return Status::OK();
}

void FaultInjector::applyCrash(SimFileSystem& fs) {
  uint64_t number = applied_crashes_++;
  SimFileSystem::CrashPolicy base = crashPolicy(plan_, number);
  int64_t files = 0;
  int64_t dropped = 0;
  fs.crash([&](const std::string& path, size_t durable, size_t full) {
    size_t keep = base(path, durable, full);
    ++files;
    dropped += static_cast<int64_t>(full - keep);
    return keep;
  });
  if (trace_ != nullptr) {
    TraceEvent(events::kCrashApplied)
        .add("crash", number)
        .add("files_unsynced", files)
        .add("bytes_dropped", dropped)
        .emit(trace_);
  }
  FaultContext ctx;
  injected_.push_back(InjectedFault{"crash_applied", "", ctx, static_cast<int64_t>(number), false});
}

}  // namespace streamsim::sim
