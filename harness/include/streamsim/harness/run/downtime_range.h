// The downtime knob's text (`sweep: {downtime: 0..5m}` in a scenario, `streamsim sweep
// --downtime 0..5m`): MIN..MAX, or one duration D meaning 0..D (docs/faults.md "Downtime").
#pragma once

#include <string_view>
#include <utility>

#include "streamsim/status.h"
#include "streamsim/time.h"

namespace streamsim::harness {

// {min, max} with 0 <= min <= max; InvalidArgument naming the text and what was expected.
Result<std::pair<DurationMs, DurationMs>> parseDowntimeRange(std::string_view text);

}  // namespace streamsim::harness
