// Workload 6 (workload.h): async processors (seed 000).
#include "bench/workload.h"

#include <fmt/format.h>

#include "bench/bench_support.h"
#include "streamsim/processors/async.h"
#include "streamsim/sim/simulated_service.h"

namespace streamsim::bench {
// Workload 6: async processors (seed 000). 6a: workload 1's input through async_count next to
// the sync count processor (the cost of coroutines, awaits and the runtime per event; target:
// at most 1.5x the sync cost). 6b: a latency-bound workload — every row is one call to a
// simulated service answering after 10 ms of virtual time — with the calls of each key gathered
// (whenAll) vs one at a time; the figure is the virtual time the batches took (target <= 1/5).

std::vector<BenchRow> asyncWorkload(BenchContext& ctx, bool& ok) {
  const bool quick = ctx.quick;
  const int64_t keys = ctx.fewKeys;
  auto t0 = Clock::now();
  std::vector<BenchRow> rows;
  Sizes s = countSizes(quick);
  CountInput in = makeCountInput(s.bigEvents, keys, s.bigFiles, false);
  auto asyncCount = [] { return asStatefulProcessor(std::make_unique<processors::AsyncCountProcessor>()); };
  // Best of two of each, interleaved (the machine's load moves).
  EngineRun sync = runCountEngine(in, StateStoreKind::kMemory, exampleCount());
  EngineRun async = runCountEngine(in, StateStoreKind::kMemory, asyncCount);
  EngineRun sync2 = runCountEngine(in, StateStoreKind::kMemory, exampleCount());
  EngineRun async2 = runCountEngine(in, StateStoreKind::kMemory, asyncCount);
  double syncSec = std::min(sync.seconds, sync2.seconds);
  double asyncSec = std::min(async.seconds, async2.seconds);
  BenchRow a;
  a.id = "6a";
  a.name = fmt::format("async_count, memory state, {} keys", count(keys));
  a.sizes = fmt::format("{} ev, {} batches", count(in.events), in.files);
  a.figure = asyncSec > 0 ? static_cast<double>(in.events) / asyncSec : 0;
  a.unit = "events/s";
  a.limitName = "sync count";
  a.limit = syncSec > 0 ? static_cast<double>(in.events) / syncSec : 0;
  a.ratio = a.limit > 0 ? a.figure / a.limit : 0;
  a.target = ">= 67% of sync (<= 1.5x cost)";
  a.met = a.ratio >= 1.0 / 1.5;
  a.scaling = 1;
  for (const EngineRun* r : {&sync, &async, &sync2, &async2})
    if (!r->error.empty() && a.note.empty()) a.note = r->error;
  a.seconds = secondsSince(t0);
  rows.push_back(a);

  auto t1 = Clock::now();
  const int64_t latencyKeys = quick ? 50 : 1'000;
  const int64_t perKey = 10;
  CountInput calls = makeCountInput(latencyKeys * perKey, latencyKeys, 1, false);
  sim::SimulatedServices services({{.name = "scoring", .minLatencyMs = 10, .maxLatencyMs = 10}}, 1);
  int64_t gatherMs = 0, sequentialMs = 0;
  EngineRun g = runCountEngine(
      calls, StateStoreKind::kMemory,
      [] { return asStatefulProcessor(std::make_unique<processors::ScoreProcessor>(true)); },
      &services, &gatherMs, false);
  EngineRun q = runCountEngine(
      calls, StateStoreKind::kMemory,
      [] { return asStatefulProcessor(std::make_unique<processors::ScoreProcessor>(false)); },
      &services, &sequentialMs, false);
  BenchRow b;
  b.id = "6b";
  b.name = fmt::format("latency-bound: 10 ms call per row, gather vs one at a time");
  b.sizes = fmt::format("{} keys x {} rows", count(latencyKeys), perKey);
  b.figure = static_cast<double>(gatherMs);
  b.unit = "virtual ms";
  b.limitName = "one at a time";
  b.limit = static_cast<double>(sequentialMs);
  b.ratio = b.limit > 0 ? b.figure / b.limit : 0;
  b.target = "<= 20% of one at a time";
  b.met = b.limit > 0 && b.ratio <= 0.2;
  b.scaling = 1;
  b.note = !g.error.empty() ? g.error : q.error;
  b.seconds = secondsSince(t1);
  rows.push_back(b);
  if (!a.note.empty() || !b.note.empty()) ok = false;
  return rows;
}

}  // namespace streamsim::bench
