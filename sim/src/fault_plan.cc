#include "streamsim/sim/fault_plan.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "streamsim/env.h"
#include "streamsim/fault_points.h"
#include "streamsim/sim/random.h"
#include "streamsim/json_nesting.h"

namespace streamsim::sim {
namespace {

using Json = nlohmann::ordered_json;

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

constexpr std::string_view kTaskPoint = "task.mid_partition";

std::string where(int64_t batch, int partition) {
  std::string out;
  if (batch >= 0) out += fmt::format(" batch {}", batch);
  if (partition >= 0) out += fmt::format(" partition {}", partition);
  return out;
}

Json toJsonValue(const Fault& fault) {
  Json j;
  std::visit(Overloaded{
                 [&](const CrashFault& f) {
                   j["type"] = "crash";
                   j["point"] = f.point;
                   if (f.batch >= 0) j["batch"] = f.batch;
                   if (f.partition >= 0) j["partition"] = f.partition;
                   if (f.nth != 1) j["nth"] = f.nth;
                   if (f.downtime != 0) j["downtime"] = f.downtime;
                 },
                 [&](const TaskFailureFault& f) {
                   j["type"] = "task_failure";
                   if (f.point != kTaskPoint) j["point"] = f.point;
                   if (f.batch >= 0) j["batch"] = f.batch;
                   if (f.partition >= 0) j["partition"] = f.partition;
                   if (f.count != 1) j["count"] = f.count;
                 },
                 [&](const IoErrorFault& f) {
                   j["type"] = "io_error";
                   if (!f.pathPrefix.empty()) j["prefix"] = f.pathPrefix;
                   if (!f.point.empty()) j["point"] = f.point;
                   if (f.batch >= 0) j["batch"] = f.batch;
                   if (f.noSpace) j["no_space"] = true;
                   if (f.count != 1) j["count"] = f.count;
                 },
                 [&](const TornWriteFault& f) {
                   j["type"] = "torn_write";
                   if (!f.pathPrefix.empty()) j["prefix"] = f.pathPrefix;
                   j["mode"] = tornModeName(f.mode);
                   if (f.mode == TornMode::kTornPrefix && f.bytes >= 0) j["bytes"] = f.bytes;
                 },
                 [&](const LandingFault& f) {
                   j["type"] = "landing";
                   j["kind"] = landingFaultKindName(f.kind);
                   j["file"] = f.file;
                   if (f.param != 0) j["param"] = f.param;
                 },
                 [&](const SwitchFault& f) {
                   j["type"] = "switch";
                   j["batch"] = f.batch;
                   j["partition"] = f.partition;
                   j["step"] = f.step;
                   if (f.pick != 1) j["pick"] = f.pick;
                 },
                 [&](const DowntimeFault& f) {
                   j["type"] = "downtime";
                   j["batch"] = f.batch;
                   j["downtime"] = f.downtime;
                 },
             },
             fault);
  return j;
}

// Reads fields of one fault object, remembering which keys were used so unknown keys (typos)
// are reported.
class FieldReader {
 public:
  FieldReader(const Json& j, size_t index) : j_(j), index_(index) {}

  Status error(std::string_view what) const {
    return Status::InvalidArgument(fmt::format("fault plan: faults[{}]: {}", index_, what));
  }
  Status getInt(const char* key, int64_t& out) {
    used_.insert(key);
    auto it = j_.find(key);
    if (it == j_.end()) return Status::OK();
    if (!it->is_number_integer()) return error(fmt::format("\"{}\" must be an integer, got {}", key, it->dump()));
    out = it->get<int64_t>();
    return Status::OK();
  }
  Status getInt(const char* key, int& out) {
    int64_t v = out;
    STREAMSIM_RETURN_IF_ERROR(getInt(key, v));
    out = static_cast<int>(v);
    return Status::OK();
  }
  Status getString(const char* key, std::string& out, bool required = false) {
    used_.insert(key);
    auto it = j_.find(key);
    if (it == j_.end()) return required ? error(fmt::format("missing \"{}\"", key)) : Status::OK();
    if (!it->is_string()) return error(fmt::format("\"{}\" must be a string, got {}", key, it->dump()));
    out = it->get<std::string>();
    return Status::OK();
  }
  Status getBool(const char* key, bool& out) {
    used_.insert(key);
    auto it = j_.find(key);
    if (it == j_.end()) return Status::OK();
    if (!it->is_boolean()) return error(fmt::format("\"{}\" must be true or false, got {}", key, it->dump()));
    out = it->get<bool>();
    return Status::OK();
  }
  Status checkPoint(const std::string& point) const {
    if (faults::isFaultPoint(point)) return Status::OK();
    return error(fmt::format("unknown fault point \"{}\" (streamsim list-faults shows them)", point));
  }
  Status finish() const {
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (!used_.count(it.key())) return error(fmt::format("unknown field \"{}\"", it.key()));
    return Status::OK();
  }

 private:
  const Json& j_;
  size_t index_;
  std::set<std::string> used_{"type"};
};

Result<Fault> faultFromJson(const Json& j, size_t index) {
  FieldReader r(j, index);
  if (!j.is_object()) return r.error(fmt::format("expected an object, got {}", j.dump()));
  std::string type;
  STREAMSIM_RETURN_IF_ERROR(r.getString("type", type, true));
  Fault out;
  if (type == "crash") {
    CrashFault f;
    STREAMSIM_RETURN_IF_ERROR(r.getString("point", f.point, true));
    STREAMSIM_RETURN_IF_ERROR(r.checkPoint(f.point));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("batch", f.batch));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("partition", f.partition));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("nth", f.nth));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("downtime", f.downtime));
    out = f;
  } else if (type == "task_failure") {
    TaskFailureFault f;
    STREAMSIM_RETURN_IF_ERROR(r.getString("point", f.point));
    STREAMSIM_RETURN_IF_ERROR(r.checkPoint(f.point));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("batch", f.batch));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("partition", f.partition));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("count", f.count));
    out = f;
  } else if (type == "io_error") {
    IoErrorFault f;
    STREAMSIM_RETURN_IF_ERROR(r.getString("prefix", f.pathPrefix));
    STREAMSIM_RETURN_IF_ERROR(r.getString("point", f.point));
    if (!f.point.empty()) STREAMSIM_RETURN_IF_ERROR(r.checkPoint(f.point));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("batch", f.batch));
    STREAMSIM_RETURN_IF_ERROR(r.getBool("no_space", f.noSpace));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("count", f.count));
    out = f;
  } else if (type == "torn_write") {
    TornWriteFault f;
    std::string mode;
    STREAMSIM_RETURN_IF_ERROR(r.getString("prefix", f.pathPrefix));
    STREAMSIM_RETURN_IF_ERROR(r.getString("mode", mode, true));
    if (mode == "lose") f.mode = TornMode::kLoseUnsynced;
    else if (mode == "torn") f.mode = TornMode::kTornPrefix;
    else if (mode == "keep") f.mode = TornMode::kKeepAll;
    else return r.error(fmt::format("unknown torn-write mode \"{}\" (expected lose, torn or keep)", mode));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("bytes", f.bytes));
    out = f;
  } else if (type == "landing") {
    LandingFault f;
    std::string kind;
    STREAMSIM_RETURN_IF_ERROR(r.getString("kind", kind, true));
    bool found = false;
    for (LandingFaultKind k : {LandingFaultKind::kResend, LandingFaultKind::kDuplicate, LandingFaultKind::kOldMtime,
                               LandingFaultKind::kOutOfOrder, LandingFaultKind::kHalfWritten}) {
      if (kind == landingFaultKindName(k)) {
        f.kind = k;
        found = true;
      }
    }
    if (!found)
      return r.error(fmt::format(
          "unknown landing fault kind \"{}\" (expected resend, duplicate, old_mtime, out_of_order or half_written)", kind));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("file", f.file));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("param", f.param));
    out = f;
  } else if (type == "switch") {
    SwitchFault f;
    STREAMSIM_RETURN_IF_ERROR(r.getInt("batch", f.batch));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("partition", f.partition));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("step", f.step));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("pick", f.pick));
    out = f;
  } else if (type == "downtime") {
    DowntimeFault f;
    STREAMSIM_RETURN_IF_ERROR(r.getInt("batch", f.batch));
    STREAMSIM_RETURN_IF_ERROR(r.getInt("downtime", f.downtime));
    out = f;
  } else {
    return r.error(fmt::format("unknown type \"{}\" (expected crash, task_failure, io_error, torn_write, landing, switch or downtime)", type));
  }
  STREAMSIM_RETURN_IF_ERROR(r.finish());
  return out;
}

Status validateFault(const Fault& fault, size_t i) {
  auto bad = [i](std::string_view what) {
    return Status::InvalidArgument(fmt::format("fault plan: faults[{}]: {}", i, what));
  };
  // -1 means any batch / partition; another negative number is no batch at all, not "any".
  auto anyOr = [&](int64_t batch, int64_t partition) -> Status {
    if (batch < -1) return bad(fmt::format("batch must be >= 0, or -1 for any batch; got {}", batch));
    if (partition < -1) return bad(fmt::format("partition must be >= 0, or -1 for any partition; got {}", partition));
    return Status::OK();
  };
  auto point = [&](const std::string& p) -> Status {
    if (faults::isFaultPoint(p)) return Status::OK();
    return bad(fmt::format("unknown fault point \"{}\"", p));
  };
  return std::visit(Overloaded{
                        [&](const CrashFault& f) -> Status {
                          STREAMSIM_RETURN_IF_ERROR(point(f.point));
                          STREAMSIM_RETURN_IF_ERROR(anyOr(f.batch, f.partition));
                          if (f.nth < 1) return bad(fmt::format("nth must be >= 1, got {}", f.nth));
                          if (f.downtime < 0) return bad(fmt::format("downtime must be >= 0 ms, got {}", f.downtime));
                          if (f.downtime > kMaxDowntimeMs)
                            return bad(fmt::format("downtime must be at most {} ms (100 years), got {}",
                                                   kMaxDowntimeMs, f.downtime));
                          return Status::OK();
                        },
                        [&](const TaskFailureFault& f) -> Status {
                          STREAMSIM_RETURN_IF_ERROR(point(f.point));
                          STREAMSIM_RETURN_IF_ERROR(anyOr(f.batch, f.partition));
                          if (f.count < 0) return bad(fmt::format("count must be >= 0, got {}", f.count));
                          return Status::OK();
                        },
                        [&](const IoErrorFault& f) -> Status {
                          STREAMSIM_RETURN_IF_ERROR(anyOr(f.batch, -1));
                          if (f.pathPrefix.empty() == f.point.empty())
                            return bad("an io_error needs exactly one of \"prefix\" and \"point\"");
                          if (!f.point.empty()) STREAMSIM_RETURN_IF_ERROR(point(f.point));
                          if (f.count < 0) return bad(fmt::format("count must be >= 0, got {}", f.count));
                          return Status::OK();
                        },
                        [&](const TornWriteFault& f) -> Status {
                          if (f.bytes < -1) return bad(fmt::format("bytes must be >= 0 or -1 (seeded), got {}", f.bytes));
                          return Status::OK();
                        },
                        [&](const LandingFault& f) -> Status {
                          if (f.file < 0) return bad(fmt::format("file must be >= 0, got {}", f.file));
                          if (f.param < 0) return bad(fmt::format("param must be >= 0, got {}", f.param));
                          return Status::OK();
                        },
                        [&](const SwitchFault& f) -> Status {
                          if (f.batch < 0 || f.partition < 0 || f.step < 0)
                            return bad("a switch needs batch, partition and step >= 0");
                          if (f.pick < 1) return bad(fmt::format("pick must be >= 1, got {}", f.pick));
                          return Status::OK();
                        },
                        [&](const DowntimeFault& f) -> Status {
                          if (f.batch < -1) return bad(fmt::format("batch must be >= -1, got {}", f.batch));
                          if (f.downtime < 0) return bad(fmt::format("downtime must be >= 0, got {}", f.downtime));
                          return Status::OK();
                        },
                    },
                    fault);
}

}  // namespace

std::string_view tornModeName(TornMode mode) {
  switch (mode) {
    case TornMode::kLoseUnsynced: return "lose";
    case TornMode::kTornPrefix: return "torn";
    case TornMode::kKeepAll: return "keep";
  }
  return "?";
}

std::string_view landingFaultKindName(LandingFaultKind kind) {
  switch (kind) {
    case LandingFaultKind::kResend: return "resend";
    case LandingFaultKind::kDuplicate: return "duplicate";
    case LandingFaultKind::kOldMtime: return "old_mtime";
    case LandingFaultKind::kOutOfOrder: return "out_of_order";
    case LandingFaultKind::kHalfWritten: return "half_written";
  }
  return "?";
}

std::string describe(const Fault& fault) {
  return std::visit(
      Overloaded{
          [](const CrashFault& f) {
            std::string out = fmt::format("crash at {}{}", f.point, where(f.batch, f.partition));
            if (f.nth != 1) out += fmt::format(" (pass {})", f.nth);
            if (f.downtime != 0) out += fmt::format(", then down {}", formatDuration(f.downtime));
            return out;
          },
          [](const TaskFailureFault& f) {
            return fmt::format("task failure at {}{} x{}", f.point, where(f.batch, f.partition), f.count);
          },
          [](const IoErrorFault& f) {
            std::string what = f.noSpace ? "no space" : "I/O error";
            std::string target = f.pathPrefix.empty() ? fmt::format("at {}", f.point)
                                                      : fmt::format("on writes under {}", f.pathPrefix);
            return fmt::format("{} {}{} x{}", what, target, where(f.batch, -1), f.count);
          },
          [](const TornWriteFault& f) {
            std::string scope = f.pathPrefix.empty() ? "every file" : f.pathPrefix;
            switch (f.mode) {
              case TornMode::kLoseUnsynced: return fmt::format("crash loses unsynced bytes of {}", scope);
              case TornMode::kKeepAll: return fmt::format("crash keeps every written byte of {}", scope);
              case TornMode::kTornPrefix:
                if (f.bytes < 0) return fmt::format("crash tears {} at a seeded length", scope);
                return fmt::format("crash keeps {} unsynced bytes of {}", f.bytes, scope);
            }
            return std::string("?");
          },
          [](const LandingFault& f) {
            std::string out = fmt::format("landing {} of file {}", landingFaultKindName(f.kind), f.file);
            if (f.param != 0) out += fmt::format(" (param {})", f.param);
            return out;
          },
          [](const SwitchFault& f) {
            std::string out = fmt::format("switch at batch {} partition {} step {}", f.batch, f.partition, f.step);
            if (f.pick != 1) out += fmt::format(" (candidate {})", f.pick);
            return out;
          },
          [](const DowntimeFault& f) {
            std::string after = f.batch < 0 ? std::string("before the first start")
                                            : fmt::format("after batch {} commits", f.batch);
            return fmt::format("driver down {} for {} (no crash)", after, formatDuration(f.downtime));
          },
      },
      fault);
}

std::string FaultPlan::toJson() const {
  Json j;
  j["seed"] = seed;
  Json list = Json::array();
  for (const Fault& f : faults) list.push_back(toJsonValue(f));
  j["faults"] = std::move(list);
  return j.dump();
}

Result<FaultPlan> FaultPlan::fromJson(std::string_view text) {
  Json j = parseJsonBounded<Json>(text);
  if (j.is_discarded()) return Status::InvalidArgument(fmt::format("fault plan: not valid JSON: {}", text));
  if (!j.is_object()) return Status::InvalidArgument("fault plan: expected a JSON object {\"seed\":...,\"faults\":[...]}");
  FaultPlan plan;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() != "seed" && it.key() != "faults")
      return Status::InvalidArgument(fmt::format("fault plan: unknown field \"{}\" (expected seed, faults)", it.key()));
  }
  if (auto it = j.find("seed"); it != j.end()) {
    if (!it->is_number_unsigned() && !it->is_number_integer())
      return Status::InvalidArgument(fmt::format("fault plan: \"seed\" must be an integer, got {}", it->dump()));
    plan.seed = it->is_number_unsigned() ? it->get<uint64_t>() : static_cast<uint64_t>(it->get<int64_t>());
  }
  if (auto it = j.find("faults"); it != j.end()) {
    if (!it->is_array()) return Status::InvalidArgument(fmt::format("fault plan: \"faults\" must be an array, got {}", it->dump()));
    for (size_t i = 0; i < it->size(); ++i) {
      STREAMSIM_ASSIGN_OR_RETURN(Fault f, faultFromJson((*it)[i], i));
      plan.faults.push_back(std::move(f));
    }
  }
  STREAMSIM_RETURN_IF_ERROR(validate(plan));
  return plan;
}

std::string FaultPlan::toString() const {
  if (faults.empty()) return "(no faults)";
  std::string out = fmt::format("fault plan (seed {}):", seed);
  for (size_t i = 0; i < faults.size(); ++i) out += fmt::format("\n  {}. {}", i + 1, describe(faults[i]));
  return out;
}

std::vector<LandingFault> FaultPlan::landingFaults() const {
  std::vector<LandingFault> out;
  for (const Fault& f : faults)
    if (auto* l = std::get_if<LandingFault>(&f)) out.push_back(*l);
  return out;
}

std::vector<TornWriteFault> FaultPlan::tornWrites() const {
  std::vector<TornWriteFault> out;
  for (const Fault& f : faults)
    if (auto* t = std::get_if<TornWriteFault>(&f)) out.push_back(*t);
  return out;
}

std::vector<SwitchFault> FaultPlan::switches() const {
  std::vector<SwitchFault> out;
  for (const Fault& f : faults)
    if (auto* s = std::get_if<SwitchFault>(&f)) out.push_back(*s);
  return out;
}

std::vector<DowntimeFault> FaultPlan::downtimes() const {
  std::vector<DowntimeFault> out;
  for (const Fault& f : faults)
    if (auto* d = std::get_if<DowntimeFault>(&f)) out.push_back(*d);
  return out;
}

Status validate(const FaultPlan& plan) {
  for (size_t i = 0; i < plan.faults.size(); ++i) STREAMSIM_RETURN_IF_ERROR(validateFault(plan.faults[i], i));
  return Status::OK();
}

Status validate(const FaultKnobs& k) {
  for (const std::string& p : k.points) {
    if (p == "all" || faults::isFaultPoint(p)) continue;
    return Status::InvalidArgument(fmt::format("fault knobs: unknown fault point \"{}\" (use \"all\" or names from streamsim list-faults)", p));
  }
  auto prob = [](const char* name, double p) -> Status {
    if (p >= 0 && p <= 1) return Status::OK();
    return Status::InvalidArgument(fmt::format("fault knobs: {} must be in [0, 1], got {}", name, p));
  };
  STREAMSIM_RETURN_IF_ERROR(prob("task_failures", k.taskFailureProbability));
  STREAMSIM_RETURN_IF_ERROR(prob("io_errors", k.ioErrorProbability));
  STREAMSIM_RETURN_IF_ERROR(prob("landing_faults", k.landingFaultProbability));
  if (k.maxCrashes < 0) return Status::InvalidArgument(fmt::format("fault knobs: max_crashes must be >= 0, got {}", k.maxCrashes));
  if (k.batches < 1) return Status::InvalidArgument(fmt::format("fault knobs: batches must be >= 1, got {}", k.batches));
  if (k.partitions < 1) return Status::InvalidArgument(fmt::format("fault knobs: partitions must be >= 1, got {}", k.partitions));
  STREAMSIM_RETURN_IF_ERROR(prob("switches", k.switchProbability));
  if (k.switchSteps < 1) return Status::InvalidArgument(fmt::format("fault knobs: switch_steps must be >= 1, got {}", k.switchSteps));
  if (k.files < 0) return Status::InvalidArgument(fmt::format("fault knobs: files must be >= 0, got {}", k.files));
  if (k.downtimeMin < 0 || k.downtimeMax < k.downtimeMin)
    return Status::InvalidArgument(fmt::format("fault knobs: downtime must be a range 0 <= min <= max, got {}..{} ms",
                                               k.downtimeMin, k.downtimeMax));
  return Status::OK();
}

std::vector<std::string> crashPoints(const FaultKnobs& k) {
  std::vector<std::string> out;
  bool all = k.points.empty() || std::find(k.points.begin(), k.points.end(), "all") != k.points.end();
  if (all) {
    for (const auto& info : faults::allFaultPoints())
      if (info.drawn == faults::DrawnByAll::kAlways ||
          (info.drawn == faults::DrawnByAll::kRealTimeOnly && k.realTime))
        out.emplace_back(info.name);
    return out;
  }
  for (const std::string& p : k.points)
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  return out;
}

FaultPlan generateFaultPlan(const Random& rng, const FaultKnobs& k) {
  FaultPlan plan;
  plan.seed = rng.split("torn_seed").seed();

  // Crashes: 0..maxCrashes, each at a random point, batch, and (for per-partition points) partition.
  {
    Random r = rng.split("crashes");
    std::vector<std::string> points = crashPoints(k);
    std::vector<CrashTarget> targets;
    for (const auto& t : k.targets)
      if (t.passes > 0 && std::find(points.begin(), points.end(), t.point) != points.end()) targets.push_back(t);
    if (!k.targets.empty()) {
      int n = targets.empty() ? 0 : static_cast<int>(r.uniformInt(std::min(k.minCrashes, k.maxCrashes), k.maxCrashes));
      for (int i = 0; i < n; ++i) {
        const CrashTarget& t = targets[static_cast<size_t>(r.uniformInt(0, static_cast<int64_t>(targets.size()) - 1))];
        CrashFault f;
        f.point = t.point;
        f.batch = t.batch;
        if (faults::isPerPartition(f.point) && r.bernoulli(0.5))
          f.partition = static_cast<int>(r.uniformInt(0, k.partitions - 1));
        // One of the first passes there (realtime.after_record: one of the first 10 records).
        const int64_t firstPasses = f.point == faults::kRealTimeAfterRecord ? 10 : 3;
        f.nth = f.partition >= 0 ? 1 : r.uniformInt(1, std::min<int64_t>(t.passes, firstPasses));
        plan.faults.push_back(f);
      }
    }
    int n = points.empty() || !k.targets.empty() ? 0 : static_cast<int>(r.uniformInt(0, k.maxCrashes));
    for (int i = 0; i < n; ++i) {
      CrashFault f;
      f.point = r.pick(points);
      f.batch = r.uniformInt(0, k.batches - 1);
      bool perPartition = faults::isPerPartition(f.point);
      if (perPartition && r.bernoulli(0.5)) f.partition = static_cast<int>(r.uniformInt(0, k.partitions - 1));
      if (f.point == faults::kLogMidWrite) f.nth = r.uniformInt(1, 3);  // one of the batch's first log writes
      if (f.point == faults::kRealTimeAfterRecord) f.nth = r.uniformInt(1, 10);
      plan.faults.push_back(f);
    }
  }
  // Downtime: one value per seed (0 in about half of them), taken by every crash of the plan.
  if (k.downtimeMax > 0) {
    Random r = rng.split("downtime");
    DurationMs d = 0;
    if (r.bernoulli(0.5)) d = r.uniformInt(std::max<DurationMs>(1, k.downtimeMin), k.downtimeMax);
    for (Fault& f : plan.faults)
      if (auto* c = std::get_if<CrashFault>(&f)) c->downtime = d;
  }
  // Task failures: per (batch, partition).
  if (k.taskFailureProbability > 0) {
    Random r = rng.split("task_failures");
    for (int64_t b = 0; b < k.batches; ++b)
      for (int p = 0; p < k.partitions; ++p)
        if (r.bernoulli(k.taskFailureProbability))
          plan.faults.push_back(TaskFailureFault{std::string(faults::kTaskMidPartition), b, p, 1});
  }
  // I/O errors: per batch, on one checkpoint subfolder.
  if (k.ioErrorProbability > 0) {
    Random r = rng.split("io_errors");
    const std::vector<std::string> dirs = {"offsets", "commits", "state", "sources"};
    for (int64_t b = 0; b < k.batches; ++b) {
      if (!r.bernoulli(k.ioErrorProbability)) continue;
      IoErrorFault f;
      f.pathPrefix = joinPath(k.checkpointDir, r.pick(dirs));
      f.batch = b;
      f.noSpace = r.bernoulli(0.3);
      plan.faults.push_back(f);
    }
  }
  // Torn writes: a rule for every file, sometimes one for the state store's files.
  if (k.tornWrites) {
    Random r = rng.split("torn");
    TornWriteFault all;
    all.mode = r.bernoulli(0.75) ? TornMode::kTornPrefix : TornMode::kKeepAll;
    plan.faults.push_back(all);
    if (r.bernoulli(0.5)) {
      TornWriteFault state;
      state.pathPrefix = joinPath(k.checkpointDir, "state");
      state.mode = r.bernoulli(0.5) ? TornMode::kTornPrefix : TornMode::kLoseUnsynced;
      plan.faults.push_back(state);
    }
  }
  // Landing faults: per landing file.
  if (k.landingFaultProbability > 0 && k.files > 0) {
    Random r = rng.split("landing");
    const std::vector<LandingFaultKind> kinds = {LandingFaultKind::kResend, LandingFaultKind::kDuplicate,
                                                 LandingFaultKind::kOldMtime, LandingFaultKind::kOutOfOrder,
                                                 LandingFaultKind::kHalfWritten};
    DurationMs step = std::max<DurationMs>(1, k.fileInterval);
    for (int64_t i = 0; i < k.files; ++i) {
      if (!r.bernoulli(k.landingFaultProbability)) continue;
      LandingFault f;
      f.kind = r.pick(kinds);
      f.file = i;
      switch (f.kind) {
        case LandingFaultKind::kOldMtime: f.param = r.bernoulli(0.5) ? 0 : r.uniformInt(1, 10) * step; break;
        case LandingFaultKind::kHalfWritten: f.param = r.uniformInt(1, 3) * step; break;
        default: f.param = r.uniformInt(0, 5) * step; break;
      }
      plan.faults.push_back(f);
    }
  }
  // Context switches of async processors: per (batch, partition), one or two.
  if (k.switchProbability > 0 && k.switchTargets) {
    // Per (batch, partition) the fault-free run made choices in, one or two of its steps.
    Random r = rng.split("switches");
    const std::vector<SwitchTarget>& all = *k.switchTargets;
    for (size_t i = 0; i < all.size();) {
      size_t end = i;
      while (end < all.size() && all[end].batch == all[i].batch && all[end].partition == all[i].partition) ++end;
      if (r.bernoulli(k.switchProbability)) {
        int n = r.bernoulli(0.3) ? 2 : 1;
        for (int s = 0; s < n; ++s) {
          const SwitchTarget& at = all[i + static_cast<size_t>(r.uniformInt(0, static_cast<int64_t>(end - i) - 1))];
          plan.faults.push_back(SwitchFault{at.batch, at.partition, at.step, static_cast<int>(r.uniformInt(1, 3))});
        }
      }
      i = end;
    }
  } else if (k.switchProbability > 0) {
    Random r = rng.split("switches");
    for (int64_t b = 0; b < k.batches; ++b)
      for (int p = 0; p < k.partitions; ++p) {
        if (!r.bernoulli(k.switchProbability)) continue;
        int n = r.bernoulli(0.3) ? 2 : 1;
        for (int i = 0; i < n; ++i)
          plan.faults.push_back(SwitchFault{b, p, r.uniformInt(0, k.switchSteps - 1),
                                            static_cast<int>(r.uniformInt(1, 3))});
      }
  }
  return plan;
}

FaultPlan generateFaultPlan(const Random& rng, FaultKnobs knobs, const Reach& reach) {
  if (reach.crashes.empty() && reach.switches.empty()) return FaultPlan{};  // no fault could fire
  if (!reach.crashes.empty()) {
    knobs.targets = reach.crashes;
    knobs.minCrashes = 1;
  }
  knobs.switchTargets = reach.switches;
  return generateFaultPlan(rng, knobs);
}

}  // namespace streamsim::sim
