// Parameters of the registered example processors (`params:` in a scenario, ProcessorParams): the
// readers the processor files share.
#pragma once

#include <string_view>

#include <fmt/format.h>

#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/tws/processor_registry.h"

namespace streamsim::processors {

// A positive duration parameter ("1m", "250ms"); `fallback` when absent.
inline Result<DurationMs> durationParam(const ProcessorParams& params, std::string_view name,
                                        DurationMs fallback) {
  auto it = params.find(name);
  if (it == params.end()) return fallback;
  auto d = parseDuration(it->second);
  if (!d.ok() || *d <= 0)
    return Status::InvalidArgument(fmt::format(
        "parameter '{}' must be a positive duration such as 1m, 10s, 250ms; got '{}'", name,
        it->second));
  return *d;
}

}  // namespace streamsim::processors
