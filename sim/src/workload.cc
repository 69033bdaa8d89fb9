#include "streamsim/sim/workload.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <string_view>

#include <fmt/format.h>

namespace streamsim::sim {
namespace {
constexpr DurationMs kDefaultOldAge = 8LL * 24 * 3600 * 1000;  // past the default maxFileAge (7 days)

std::string fileName(const WorkloadSpec& spec, size_t i) { return fmt::format("{}{:05d}", spec.filePrefix, i); }
}  // namespace

Status validate(const WorkloadSpec& s) {
  auto bad = [](std::string what) { return Status::InvalidArgument("workload: " + what); };
  auto frac = [&](const char* name, double v) -> Status {
    if (v >= 0 && v <= 1) return Status::OK();
    return bad(fmt::format("{} must be in [0, 1], got {}", name, v));
  };
  if (s.events < 0) return bad(fmt::format("events must be >= 0, got {}", s.events));
  if (s.keys < 1) return bad(fmt::format("keys must be >= 1, got {}", s.keys));
  if (s.zipfExponent < 0) return bad(fmt::format("zipf exponent must be >= 0, got {}", s.zipfExponent));
  STREAMSIM_RETURN_IF_ERROR(frac("hot key fraction", s.hotKeyFraction));
  STREAMSIM_RETURN_IF_ERROR(frac("late fraction", s.lateFraction));
  STREAMSIM_RETURN_IF_ERROR(frac("duplicate fraction", s.duplicateFraction));
  if (s.eventSpacing < 0) return bad(fmt::format("event spacing must be >= 0, got {}", s.eventSpacing));
  if (s.maxOutOfOrder < 0) return bad(fmt::format("max out-of-orderness must be >= 0, got {}", s.maxOutOfOrder));
  if (s.lateBy < 0) return bad(fmt::format("lateBy must be >= 0, got {}", s.lateBy));
  if (s.maxValue < 1) return bad(fmt::format("max value must be >= 1, got {}", s.maxValue));
  if (s.eventsPerFile < 1) return bad(fmt::format("events per file must be >= 1, got {}", s.eventsPerFile));
  if (s.arrivalInterval < 0) return bad(fmt::format("arrival interval must be >= 0, got {}", s.arrivalInterval));
  if (s.dir.empty() || s.dir[0] != '/') return bad(fmt::format("dir must be an absolute path, got \"{}\"", s.dir));
  return Status::OK();
}

// Appended piece by piece rather than through fmt::format, straight into the file's content: a
// sweep generates every seed's workload, and these lines were most of that cost.
void Event::appendJsonLine(std::string& out) const {
  using namespace std::string_view_literals;  // appends of known lengths (no strlen)
  out += R"({"event_id":")"sv;
  out += eventId;
  out += R"(","key":")"sv;
  out += key;
  out += R"(","event_time":")"sv;
  appendTimestamp(out, eventTime);  // no string of its own per line
  out += R"(","value":)"sv;
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  (void)ec;  // 24 chars hold any int64_t
  out.append(digits, end);
  out += '}';
}

std::string Event::toJsonLine() const {
  std::string out;
  out.reserve(96);
  appendJsonLine(out);
  return out;
}

std::string toJsonLines(const std::vector<Event>& events) {
  std::string out;
  for (const Event& e : events) {
    e.appendJsonLine(out);
    out += '\n';
  }
  return out;
}

Workload generateWorkload(const Random& rng, const WorkloadSpec& spec) {
  Random keys = rng.split("keys");
  Random times = rng.split("times");
  Random late = rng.split("late");
  Random dups = rng.split("duplicates");
  Random values = rng.split("values");

  std::vector<double> cdf;
  double total = 0;
  for (int i = 0; i < spec.keys; ++i) {
    total += spec.zipfExponent == 0 ? 1.0 : 1.0 / std::pow(static_cast<double>(i + 1), spec.zipfExponent);
    cdf.push_back(total);
  }
  auto drawKey = [&]() -> int {
    bool hot = keys.bernoulli(spec.hotKeyFraction);
    double u = keys.uniformDouble() * total;
    if (hot) return 0;
    auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
    return static_cast<int>(std::min<std::ptrdiff_t>(it - cdf.begin(), spec.keys - 1));
  };

  Workload w;
  w.events.reserve(static_cast<size_t>(spec.events));
  std::vector<size_t> originals;  // indexes of non-duplicate rows
  bool haveMax = false;
  TimeMs maxSoFar = 0;
  int64_t unique = 0;
  for (int64_t i = 0; i < spec.events; ++i) {
    TimeMs base = spec.startEventTime + i * spec.eventSpacing;
    // Draw from every stream on every row, so one knob's outcome never shifts another stream.
    bool isDup = dups.bernoulli(spec.duplicateFraction);
    size_t dupOf = originals.empty() ? 0 : dups.index(originals.size());
    bool isLate = late.bernoulli(spec.lateFraction);
    DurationMs lateExtra = late.uniformInt(0, std::max<DurationMs>(spec.lateBy, spec.eventSpacing));
    DurationMs disorder = times.uniformInt(0, spec.maxOutOfOrder);
    int key = drawKey();
    int64_t value = values.uniformInt(1, spec.maxValue);

    Event e;
    if (isDup && !originals.empty()) {
      e = w.events[originals[dupOf]];
      e.duplicate = true;
    } else {
      // "e%06d" and "k%d" written into a buffer (once per row of every seed's workload; both
      // fit the short-string buffer, so each is one string without an allocation).
      char buf[24];
      buf[0] = 'e';
      auto [idEnd, ec1] = std::to_chars(buf + 1, buf + sizeof buf, unique++);
      const size_t idDigits = static_cast<size_t>(idEnd - (buf + 1));
      if (idDigits < 6) {
        std::memmove(buf + 1 + (6 - idDigits), buf + 1, idDigits);
        std::memset(buf + 1, '0', 6 - idDigits);
        idEnd = buf + 7;
      }
      e.eventId.assign(buf, idEnd);
      buf[0] = 'k';
      auto [keyEnd, ec2] = std::to_chars(buf + 1, buf + sizeof buf, key);
      (void)ec1;
      (void)ec2;  // 24 chars hold any int64_t
      e.key.assign(buf, keyEnd);
      e.value = value;
      if (isLate && haveMax) {
        e.eventTime = maxSoFar - spec.lateBy - 1 - lateExtra;
        e.late = true;
      } else {
        e.eventTime = base - disorder;
      }
      originals.push_back(w.events.size());
    }
    if (!haveMax || e.eventTime > maxSoFar) maxSoFar = e.eventTime;
    haveMax = true;
    w.events.push_back(std::move(e));
  }

  size_t per = static_cast<size_t>(spec.eventsPerFile);
  for (size_t first = 0, i = 0; first < w.events.size(); first += per, ++i) {
    LandingFile f;
    f.path = joinPath(spec.dir, fileName(spec, i) + ".json");
    f.arrivalTime = spec.firstArrival + static_cast<TimeMs>(i) * spec.arrivalInterval;
    f.mtime = f.arrivalTime;
    f.firstEvent = first;
    f.eventCount = std::min(per, w.events.size() - first);
    f.content.reserve(f.eventCount * 96);
    for (size_t k = first; k < first + f.eventCount; ++k) {
      w.events[k].appendJsonLine(f.content);
      f.content += '\n';
    }
    w.files.push_back(std::move(f));
  }
  return w;
}

std::string_view landingActionKindName(LandingActionKind kind) {
  switch (kind) {
    case LandingActionKind::kPut: return "put";
    case LandingActionKind::kPutPartial: return "put_partial";
    case LandingActionKind::kComplete: return "complete";
    case LandingActionKind::kTouch: return "touch";
  }
  return "?";
}

std::string LandingAction::describe() const {
  std::string out = fmt::format("at {} {} {}", at, landingActionKindName(kind), path);
  if (kind == LandingActionKind::kPutPartial) out += fmt::format(" ({} of {} bytes)", visibleBytes, content.size());
  out += fmt::format(" mtime {}", mtime);
  return out;
}

std::vector<LandingAction> landingActions(const Workload& w, const std::vector<LandingFault>& faults,
                                          const WorkloadSpec& spec) {
  struct Plan {
    TimeMs arrival;
    TimeMs mtime;
    bool oldMtime = false;
    DurationMs halfFor = -1;  // >= 0: half written for this long
  };
  std::vector<Plan> plans;
  TimeMs last = spec.firstArrival;
  for (const LandingFile& f : w.files) {
    plans.push_back(Plan{f.arrivalTime, f.mtime});
    last = std::max(last, f.arrivalTime);
  }
  auto valid = [&](const LandingFault& lf) { return lf.file >= 0 && static_cast<size_t>(lf.file) < w.files.size(); };

  // Faults that change how a file itself lands: arrival first, then mtime and half-writing.
  for (const LandingFault& lf : faults) {
    if (!valid(lf) || lf.kind != LandingFaultKind::kOutOfOrder) continue;
    Plan& p = plans[static_cast<size_t>(lf.file)];
    p.arrival += lf.param > 0 ? lf.param : (last - p.arrival) + std::max<DurationMs>(1, spec.arrivalInterval);
    if (!p.oldMtime) p.mtime = p.arrival;
  }
  for (const LandingFault& lf : faults) {
    if (!valid(lf)) continue;
    Plan& p = plans[static_cast<size_t>(lf.file)];
    if (lf.kind == LandingFaultKind::kOldMtime) {
      p.mtime = p.arrival - (lf.param > 0 ? lf.param : kDefaultOldAge);
      p.oldMtime = true;
    } else if (lf.kind == LandingFaultKind::kHalfWritten) {
      p.halfFor = std::max<DurationMs>(1, lf.param);
    }
  }

  std::vector<LandingAction> out;
  for (size_t i = 0; i < w.files.size(); ++i) {
    const LandingFile& f = w.files[i];
    const Plan& p = plans[i];
    int64_t idx = static_cast<int64_t>(i);
    if (p.halfFor >= 0) {
      out.push_back(LandingAction{p.arrival, LandingActionKind::kPutPartial, f.path, f.content, f.content.size() / 2,
                                  p.arrival, idx});
      TimeMs done = p.arrival + p.halfFor;
      out.push_back(LandingAction{done, LandingActionKind::kComplete, f.path, "", 0, p.oldMtime ? p.mtime : done, idx});
    } else {
      out.push_back(LandingAction{p.arrival, LandingActionKind::kPut, f.path, f.content, 0, p.mtime, idx});
    }
  }
  // Extra copies: renamed resends and same-name duplicates.
  std::map<int64_t, int> resends;
  for (const LandingFault& lf : faults) {
    if (!valid(lf)) continue;
    const LandingFile& f = w.files[static_cast<size_t>(lf.file)];
    const Plan& p = plans[static_cast<size_t>(lf.file)];
    TimeMs at = p.arrival + (p.halfFor >= 0 ? p.halfFor : 0) + lf.param;
    if (lf.kind == LandingFaultKind::kResend) {
      int n = ++resends[lf.file];
      std::string path = joinPath(spec.dir, fmt::format("{}.resend-{}.json", fileName(spec, static_cast<size_t>(lf.file)), n));
      out.push_back(LandingAction{at, LandingActionKind::kPut, path, f.content, 0, at, lf.file});
    } else if (lf.kind == LandingFaultKind::kDuplicate) {
      out.push_back(LandingAction{at, LandingActionKind::kPut, f.path, f.content, 0, at, lf.file});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const LandingAction& a, const LandingAction& b) { return a.at < b.at; });
  return out;
}

Status applyLandingAction(SimFileSystem& fs, const LandingAction& a) {
  switch (a.kind) {
    case LandingActionKind::kPut:
      STREAMSIM_RETURN_IF_ERROR(fs.putDurable(a.path, a.content));
      break;
    case LandingActionKind::kPutPartial:
      STREAMSIM_RETURN_IF_ERROR(fs.putPartial(a.path, a.content, a.visibleBytes));
      break;
    case LandingActionKind::kComplete:
      STREAMSIM_RETURN_IF_ERROR(fs.completePartial(a.path));
      break;
    case LandingActionKind::kTouch:
      break;
  }
  return fs.setModificationTime(a.path, a.mtime);
}

}  // namespace streamsim::sim
