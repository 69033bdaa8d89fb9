// Simulated outside services for async processors (DESIGN.md §5a, scheduler.h): each answers a
// request after a seeded latency in virtual time, sometimes with an error, sometimes too slowly
// (a caller's timeout). Every reply is a pure function of (service seed, request, how many times
// that request was made before), so a run whose keys interleave differently gets the same
// replies. The body is a score in [0, 100) derived from the service name and the request only
// ("73.5"): the same in every run. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "streamsim/scheduler.h"

namespace streamsim::sim {

struct SimulatedServiceSpec {
  std::string name;
  DurationMs minLatencyMs = 10;   // latency uniform in [min, max]
  DurationMs maxLatencyMs = 10;
  double errorProbability = 0;    // the reply is an IOError
  double slowProbability = 0;     // the latency is slowLatencyMs instead (to hit timeouts)
  DurationMs slowLatencyMs = 10'000;
};

class SimulatedService final : public Service {
 public:
  SimulatedService(SimulatedServiceSpec spec, uint64_t seed);
  ServiceReply call(std::string_view request) override;
  int64_t calls() const { return calls_; }

 private:
  SimulatedServiceSpec spec_;
  uint64_t seed_;
  std::map<std::string, int64_t, std::less<>> seen_;
  int64_t calls_ = 0;
};

// The services of one simulated run; seeds derive from the run seed and each service's name.
class SimulatedServices final : public ServiceDirectory {
 public:
  SimulatedServices(const std::vector<SimulatedServiceSpec>& specs, uint64_t runSeed);
  Service* find(std::string_view name) override;
  bool empty() const { return services_.empty(); }

 private:
  std::map<std::string, std::unique_ptr<SimulatedService>, std::less<>> services_;
};

}  // namespace streamsim::sim
