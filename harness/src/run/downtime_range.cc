// The downtime knob's text (run/downtime_range.h).
#include "streamsim/harness/run/downtime_range.h"

#include <string>

#include <fmt/format.h>

#include "streamsim/sim/fault_plan.h"

namespace streamsim::harness {

Result<std::pair<DurationMs, DurationMs>> parseDowntimeRange(std::string_view text) {
  const std::string s(text);
  const size_t dots = s.find("..");
  auto bad = [&] {
    return Status::InvalidArgument(fmt::format(
        "bad downtime range '{}': expected MIN..MAX with 0 <= MIN <= MAX <= 100 years (e.g. 0..5m), or one "
        "duration (5m = 0..5m)", s));
  };
  if (dots == std::string::npos) {
    auto d = parseDuration(s);
    if (!d.ok() || *d < 0 || *d > sim::kMaxDowntimeMs) return bad();
    return std::make_pair(DurationMs{0}, *d);
  }
  auto lo = parseDuration(s.substr(0, dots));
  auto hi = parseDuration(s.substr(dots + 2));
  if (!lo.ok() || !hi.ok() || *lo < 0 || *hi < *lo || *hi > sim::kMaxDowntimeMs) return bad();
  return std::make_pair(*lo, *hi);
}

}  // namespace streamsim::harness
