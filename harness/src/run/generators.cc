// RapidCheck generators (generators.h).
#include "streamsim/harness/run/generators.h"

#include <string>

#include "streamsim/sim/random.h"

namespace streamsim::harness {

rc::Gen<Row> genEventRow(int keys) {
  return rc::gen::apply(
      [](int id, int key, int64_t offset, int64_t value) {
        return Row{{"event_id", Value("e" + std::to_string(id))},
                   {"key", Value("k" + std::to_string(key))},
                   {"event_time", Value::timestamp(1767225600000 + offset)},
                   {"value", Value(value)}};
      },
      rc::gen::inRange(0, 100000), rc::gen::inRange(0, std::max(1, keys)),
      rc::gen::inRange<int64_t>(0, 3'600'000), rc::gen::inRange<int64_t>(1, 101));
}

rc::Gen<sim::WorkloadSpec> genWorkloadSpec(int64_t maxEvents) {
  return rc::gen::apply(
      [](int64_t events, int keys, int64_t perFile, int disorderS, int latePct, int dupPct) {
        sim::WorkloadSpec s = defaultWorkloadSpec();
        s.events = events;
        s.keys = keys;
        s.eventsPerFile = perFile;
        s.maxOutOfOrder = disorderS * 1000;
        s.lateFraction = latePct / 100.0;
        s.duplicateFraction = dupPct / 100.0;
        return s;
      },
      rc::gen::inRange<int64_t>(1, maxEvents + 1), rc::gen::inRange(1, 9),
      rc::gen::inRange<int64_t>(1, 11), rc::gen::inRange(0, 4), rc::gen::inRange(0, 11),
      rc::gen::inRange(0, 11));
}

rc::Gen<std::vector<sim::Event>> genEventStream(int64_t maxEvents) {
  return rc::gen::apply(
      [](const sim::WorkloadSpec& spec, uint64_t seed) {
        return sim::generateWorkload(sim::Random(seed), spec).events;
      },
      genWorkloadSpec(maxEvents), rc::gen::arbitrary<uint64_t>());
}

rc::Gen<sim::Fault> genFault(const sim::FaultKnobs& knobs) {
  std::vector<std::string> points = sim::crashPoints(knobs);
  const int64_t batches = std::max<int64_t>(1, knobs.batches);
  const int partitions = std::max(1, knobs.partitions);
  auto crash = rc::gen::apply(
      [points](size_t p, int64_t batch, int partition) {
        sim::CrashFault f;
        f.point = points[p % points.size()];
        f.batch = batch;
        if (f.point == "task.mid_partition" || f.point == "state.before_commit" ||
            f.point == "state.after_commit")
          f.partition = partition;
        return sim::Fault(f);
      },
      rc::gen::inRange<size_t>(0, points.size()), rc::gen::inRange<int64_t>(0, batches),
      rc::gen::inRange(-1, partitions));
  auto task = rc::gen::apply(
      [](int64_t batch, int partition) {
        sim::TaskFailureFault f;
        f.batch = batch;
        f.partition = partition;
        return sim::Fault(f);
      },
      rc::gen::inRange<int64_t>(0, batches), rc::gen::inRange(0, partitions));
  std::string chk = knobs.checkpointDir;
  auto io = rc::gen::apply(
      [chk](int dir, int64_t batch, bool noSpace) {
        static const char* kDirs[] = {"/offsets", "/commits", "/state", "/sources"};
        sim::IoErrorFault f;
        f.pathPrefix = chk + kDirs[dir];
        f.batch = batch;
        f.noSpace = noSpace;
        return sim::Fault(f);
      },
      rc::gen::inRange(0, 4), rc::gen::inRange<int64_t>(0, batches), rc::gen::arbitrary<bool>());
  auto torn = rc::gen::apply(
      [](int mode, bool stateOnly) {
        sim::TornWriteFault f;
        f.mode = mode == 0 ? sim::TornMode::kTornPrefix : mode == 1 ? sim::TornMode::kKeepAll
                                                                    : sim::TornMode::kLoseUnsynced;
        if (stateOnly) f.pathPrefix = "/chk/state";
        return sim::Fault(f);
      },
      rc::gen::inRange(0, 3), rc::gen::arbitrary<bool>());
  return rc::gen::weightedOneOf<sim::Fault>({{6, crash}, {2, task}, {1, io}, {2, torn}});
}

rc::Gen<sim::FaultPlan> genFaultPlan(const sim::FaultKnobs& knobs, int maxFaults) {
  return rc::gen::apply(
      [](std::vector<sim::Fault> faults, uint64_t seed) {
        sim::FaultPlan p;
        p.seed = seed;
        p.faults = std::move(faults);
        return p;
      },
      rc::gen::resize(maxFaults, rc::gen::container<std::vector<sim::Fault>>(genFault(knobs))),
      rc::gen::inRange<uint64_t>(0, 1000));
}

rc::Gen<sim::FaultPlan> genWorkloadPlan(const WorkloadConfig& config, int maxFaults) {
  return rc::gen::apply(
      [](uint64_t seed, sim::FaultPlan plan) {
        plan.seed = seed;
        return plan;
      },
      rc::gen::inRange<uint64_t>(0, 1'000'000), genFaultPlan(config.knobs, maxFaults));
}

}  // namespace streamsim::harness
