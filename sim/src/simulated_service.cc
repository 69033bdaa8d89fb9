#include "streamsim/sim/simulated_service.h"

#include <fmt/format.h>

#include "streamsim/sim/random.h"

namespace streamsim::sim {

SimulatedService::SimulatedService(SimulatedServiceSpec spec, uint64_t seed)
    : spec_(std::move(spec)), seed_(seed) {}

ServiceReply SimulatedService::call(std::string_view request) {
  ++calls_;
  auto it = seen_.find(request);
  if (it == seen_.end()) it = seen_.emplace(std::string(request), 0).first;
  const int64_t nth = it->second++;
  Random r(mix64(seed_ ^ fnv1a64(request)) + static_cast<uint64_t>(nth));
  ServiceReply reply;
  const DurationMs lo = std::min(spec_.minLatencyMs, spec_.maxLatencyMs);
  reply.latencyMs = r.uniformInt(lo, std::max(spec_.minLatencyMs, spec_.maxLatencyMs));
  if (r.bernoulli(spec_.slowProbability)) reply.latencyMs = spec_.slowLatencyMs;
  if (r.bernoulli(spec_.errorProbability)) {
    reply.status = Status::IOError(fmt::format("service '{}' answered 503 to '{}'", spec_.name, request));
    return reply;
  }
  // The score depends on the service's name and the request only (not on the seed or the
  // attempt): every run and every retry agrees, only timing and failures vary.
  const uint64_t h = mix64(fnv1a64(spec_.name) ^ fnv1a64(request));
  reply.body = fmt::format("{:.1f}", static_cast<double>(h % 1000) / 10.0);
  return reply;
}

SimulatedServices::SimulatedServices(const std::vector<SimulatedServiceSpec>& specs, uint64_t runSeed) {
  const Random root = Random(runSeed).split("services");
  for (const SimulatedServiceSpec& s : specs)
    services_[s.name] = std::make_unique<SimulatedService>(s, root.split(s.name).seed());
}

Service* SimulatedServices::find(std::string_view name) {
  auto it = services_.find(name);
  return it == services_.end() ? nullptr : it->second.get();
}

}  // namespace streamsim::sim
