// Simulated runs of generated workloads (sweep.h): query building, the driver loop with crash
// recovery, and the oracles applied to a run.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "streamsim/fault_points.h"
#include "streamsim/harness/committed_state.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/run/clean_restarts.h"
#include "streamsim/harness/run/driver.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/harness/recording_writer.h"
#include "streamsim/harness/sweep.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/foreach_sink.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/ops/dedup.h"
#include "streamsim/ops/window_aggregation.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/sim/random.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness {

namespace {

constexpr TimeMs kStart = 1767225600000;  // 2026-01-01T00:00:00Z
const char* kLanding = "/landing";
const char* kCheckpoint = "/chk";
const char* kOut = "/out";

struct KindInfo {
  WorkloadKind kind;
  const char* name;
};
constexpr KindInfo kKinds[] = {
    {WorkloadKind::kCount, "count"},       {WorkloadKind::kSessionTracker, "session_tracker"},
    {WorkloadKind::kHeartbeat, "heartbeat"}, {WorkloadKind::kTtlCache, "ttl_cache"},
    {WorkloadKind::kDedup, "dedup"},       {WorkloadKind::kWindow, "window"},
    {WorkloadKind::kCustom, "custom"},
};

bool isTws(WorkloadKind k) {
  return k != WorkloadKind::kDedup && k != WorkloadKind::kWindow;
}

std::string outputSchemaFor(const WorkloadConfig& c) {
  if (!c.outputSchema.empty()) return c.outputSchema;
  switch (c.kind) {
    case WorkloadKind::kCount: return "key string, count long";
    case WorkloadKind::kSessionTracker: return "key string";
    case WorkloadKind::kHeartbeat: return "key string, status string, last_seen long";
    case WorkloadKind::kTtlCache: return "key string, value string, previous string";
    case WorkloadKind::kDedup: return std::string(sim::kEventSchema);
    case WorkloadKind::kWindow: return "key string, window_start timestamp, window_end timestamp, count long";
    case WorkloadKind::kCustom: return "key string";
  }
  return "key string";
}

// The pieces of one simulated run's query.
struct Built {
  DataStreamWriter writer{DataFrame()};
  std::function<void(SimEnv&, RunResult&)> readSink;
  std::shared_ptr<DeliveredRows> delivered;  // with a reference: the rows the file source delivered
};

Result<Built> buildQuery(const WorkloadConfig& c) {
  STREAMSIM_ASSIGN_OR_RETURN(SchemaPtr schema, parseSchema(sim::kEventSchema));
  STREAMSIM_ASSIGN_OR_RETURN(SourceFactory source, makeFileSource(kLanding, schema, {}));
  if (c.wrapSource) source = c.wrapSource(std::move(source));
  std::shared_ptr<DeliveredRows> delivered;
  if (c.reference) {
    delivered = std::make_shared<DeliveredRows>();
    source = recordingSource(std::move(source), 0, delivered);
  }
  DataFrame df = readStream(source);
  OutputMode mode = OutputMode::kUpdate;
  auto wrap = [&](OperatorFactory f) { return c.wrapOperator ? c.wrapOperator(std::move(f)) : f; };
  if (isTws(c.kind)) {
    TransformWithStateSpec s;
    s.groupBy = {"key"};
    s.processorName = std::string(workloadKindName(c.kind));
    switch (c.kind) {
      case WorkloadKind::kCount:
        s.processorFactory = [] { return std::make_unique<processors::CountProcessor>(); };
        break;
      case WorkloadKind::kSessionTracker:
        s.processorFactory = [] { return std::make_unique<processors::SessionTrackerProcessor>(); };
        df = df.map(
            [shapes = RowShapes()](const Row& r) mutable {
              std::vector<std::pair<std::string, Value>> named;
              for (size_t i = 0; i < r.size(); ++i) named.emplace_back(r.schema()->field(i).name, r[i]);
              int64_t v = r.get("value").isNull() ? 0 : r.get("value").asLong();
              named.emplace_back("session_id", Value("s" + std::to_string(v % 3)));
              return shapes.fromNamed(std::move(named));
            },
            "session_id = s<value % 3>");
        break;
      case WorkloadKind::kHeartbeat: {
        DurationMs t = c.timeoutMs;
        s.processorFactory = [t] { return std::make_unique<processors::HeartbeatProcessor>(t); };
        s.timeMode = TimeMode::kProcessingTime;
        break;
      }
      case WorkloadKind::kTtlCache: {
        DurationMs t = c.ttlMs;
        s.processorFactory = [t] { return std::make_unique<processors::TtlCacheProcessor>(t); };
        s.timeMode = TimeMode::kProcessingTime;
        break;
      }
      default:
        s.processorFactory = c.processor;
        if (!s.processorFactory && !c.processorRef.empty()) {
          STREAMSIM_ASSIGN_OR_RETURN(s.processorFactory, ProcessorRegistry::factory(c.processorRef));
        }
        if (!s.processorFactory)
          return Status::InvalidArgument("workload kind custom needs WorkloadConfig::processor or processorRef");
        s.timeMode = c.timeMode;
        s.processorName = c.processorRef.empty() ? c.name : c.processorRef;
        break;
    }
    if (s.timeMode == TimeMode::kEventTime) df = df.withWatermark("event_time", c.watermarkDelay);
    df = df.transform(wrap([s] { return makeTransformWithState(s); }));
  } else if (c.kind == WorkloadKind::kDedup) {
    mode = OutputMode::kAppend;
    df = df.withWatermark("event_time", c.watermarkDelay)
             .transform(wrap([] { return makeDropDuplicates({"event_id", "event_time"}); }));
  } else {
    mode = OutputMode::kAppend;
    WindowAggregationSpec w;
    w.groupBy = {"key"};
    w.window = {"event_time", c.windowMs, 0, 0};
    w.aggregates = {Aggregate::count()};
    STREAMSIM_RETURN_IF_ERROR(validateWindowAggregation(w));
    df = df.withWatermark("event_time", c.watermarkDelay).transform(wrap([w] { return makeWindowAggregation(w); }));
  }
  Built b;
  b.delivered = std::move(delivered);
  b.writer = df.writeStream();
  b.writer.option("checkpointLocation", kCheckpoint);
  b.writer.option("spark.sql.shuffle.partitions", std::to_string(c.partitions));
  b.writer.option("stateStore", c.stateStore);
  b.writer.option("taskRetries", std::to_string(c.taskRetries));
  b.writer.outputMode(mode);
  b.writer.trigger(Trigger::ProcessingTime(c.triggerInterval));
  if (c.customSink) {
    CustomSink cs = c.customSink();
    b.writer.sink(cs.factory);
    auto view = cs.view;
    b.readSink = [view](SimEnv& sim, RunResult& r) {
      r.sinkRows = view(sim.env());
      r.sinkBatchOf.assign(r.sinkRows.size(), -1);
    };
    return b;
  }
  switch (c.sink) {
    case SinkKind::kMemory: {
      auto data = std::make_shared<MemorySinkData>();
      b.writer.sink(makeMemorySink(data));
      b.readSink = [data](SimEnv&, RunResult& r) {
        for (const auto& [batch, rows] : data->batches())
          for (const Row& row : rows) {
            r.sinkRows.push_back(row);
            r.sinkBatchOf.push_back(batch);
          }
      };
      break;
    }
    case SinkKind::kFiles: {
      STREAMSIM_ASSIGN_OR_RETURN(SchemaPtr out, parseSchema(outputSchemaFor(c)));
      b.writer.sink(makeFileSink(kOut));
      b.readSink = [out](SimEnv& sim, RunResult& r) {
        auto rows = readFileSinkOutput(sim.env(), kOut, out);
        if (!rows.ok()) {
          if (rows.status().code() != Status::Code::kNotFound && r.error.ok())
            r.error = rows.status().withContext("reading the file sink");
          return;
        }
        r.sinkRows = std::move(*rows);
        r.sinkBatchOf.assign(r.sinkRows.size(), -1);
      };
      break;
    }
    case SinkKind::kForeach: {
      auto writer = std::make_shared<RecordingWriter>();
      b.writer.sink(makeForeachSink(writer, 1));
      b.readSink = [writer](SimEnv&, RunResult& r) {
        r.sinkRows = writer->rows;
        r.sinkBatchOf = writer->batchOf;
      };
      break;
    }
  }
  return b;
}

bool wanted(const WorkloadConfig& c, std::string_view oracle) {
  if (!c.oracles.empty()) return std::find(c.oracles.begin(), c.oracles.end(), oracle) != c.oracles.end();
  if (oracle == "state_bound") return c.stateBound.has_value() || c.stateBoundPerKey.has_value();
  if (oracle == "reference") return static_cast<bool>(c.reference);
  if (oracle == "batch_split" || oracle == "process_isolation" || oracle == "timer_bound" ||
      oracle == "restart_equivalence")
    return false;  // opt-in (named in the config's oracles)
  if (oracle == "latency_bound" || oracle == "mode_equivalence")
    return false;  // real-time mode's: scenarios only (a workload runs micro-batch, no Kafka-like log)
  if (oracle == "watermark") return c.kind == WorkloadKind::kDedup;
  if (oracle == "timers" || oracle == "ttl") return isTws(c.kind);
  return true;  // exactly_once, determinism (when asked through RunOptions)
}

// The plan without its driver-side faults: the same inputs at the same times (landing faults).
sim::FaultPlan referencePlan(const sim::FaultPlan& p) {
  sim::FaultPlan out;
  out.seed = p.seed;
  for (const auto& f : p.faults)
    if (std::holds_alternative<sim::LandingFault>(f)) out.faults.push_back(f);
  return out;
}

// The events in landing order, without files written half (they may be read cut).
std::vector<sim::Event> arrivals(const sim::Workload& w, const std::vector<sim::LandingAction>& actions) {
  std::set<int64_t> half, done;
  for (const auto& a : actions)
    if (a.kind == sim::LandingActionKind::kPutPartial) half.insert(a.file);
  std::vector<sim::Event> out;
  for (const auto& a : actions) {
    if (a.kind != sim::LandingActionKind::kPut || a.file < 0 || half.count(a.file) || done.count(a.file)) continue;
    done.insert(a.file);
    const auto& f = w.files[static_cast<size_t>(a.file)];
    for (size_t i = 0; i < f.eventCount; ++i) out.push_back(w.events[f.firstEvent + i]);
  }
  return out;
}

std::vector<sim::LandingAction> actionsFor(const WorkloadConfig& c, const sim::Workload& w, const RunCase& rc) {
  auto actions = sim::landingActions(w, rc.plan.landingFaults(), c.spec);
  if (rc.files) {
    std::set<int64_t> keep(rc.files->begin(), rc.files->end());
    std::erase_if(actions, [&](const sim::LandingAction& a) { return a.file >= 0 && !keep.count(a.file); });
  }
  return actions;
}

}  // namespace

class ReferenceCache {
 public:
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const RunResult>> runs;
  std::map<uint64_t, sim::Reach> reach;  // per workload seed
};

std::shared_ptr<ReferenceCache> makeReferenceCache() { return std::make_shared<ReferenceCache>(); }

std::string_view workloadKindName(WorkloadKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k.name;
  return "custom";
}

Result<WorkloadKind> parseWorkloadKind(std::string_view name) {
  for (const auto& k : kKinds)
    if (name == k.name) return k.kind;
  return Status::InvalidArgument(fmt::format(
      "unknown workload '{}': expected count, session_tracker, heartbeat, ttl_cache, dedup or window", name));
}

sim::WorkloadSpec defaultWorkloadSpec() {
  sim::WorkloadSpec s;
  s.events = 200;
  s.eventsPerFile = 10;
  s.keys = 8;
  s.zipfExponent = 0.5;
  s.maxOutOfOrder = 2'000;
  s.lateFraction = 0.05;
  s.lateBy = 5'000;
  s.duplicateFraction = 0.05;
  s.startEventTime = kStart;
  s.firstArrival = kStart + 500;
  s.arrivalInterval = 1'000;
  s.dir = kLanding;
  return s;
}

sim::FaultKnobs defaultFaultKnobs() {
  sim::FaultKnobs k;
  k.points = {"all"};
  k.maxCrashes = 2;
  k.tornWrites = true;
  k.taskFailureProbability = 0.01;
  k.batches = 24;
  k.partitions = 2;
  k.checkpointDir = kCheckpoint;
  // Outages: about half of the seeds' crashes leave the driver down up to 10 s (the standard
  // input lands over 20 s), while files keep landing.
  k.downtimeMax = 10'000;
  return k;
}

WorkloadConfig standardWorkload(WorkloadKind kind, std::string stateStore) {
  WorkloadConfig c;
  c.kind = kind;
  c.name = std::string(workloadKindName(kind));
  c.stateStore = std::move(stateStore);
  if (kind == WorkloadKind::kWindow) c.drainMs = 4'000;
  c.knobs.batches = (c.spec.events + c.spec.eventsPerFile - 1) / c.spec.eventsPerFile + c.drainMs / c.triggerInterval;
  c.knobs.partitions = c.partitions;
  c.knobs.files = (c.spec.events + c.spec.eventsPerFile - 1) / c.spec.eventsPerFile;
  return c;
}

nlohmann::json RunCase::toJson() const {
  nlohmann::json j{{"seed", seed}, {"plan", nlohmann::json::parse(plan.toJson())}};
  if (files) j["files"] = *files;
  return j;
}

Result<RunCase> RunCase::fromJson(const nlohmann::json& j) {
  RunCase c;
  c.seed = j.value("seed", uint64_t{0});
  if (j.contains("plan")) {
    STREAMSIM_ASSIGN_OR_RETURN(c.plan, sim::FaultPlan::fromJson(j["plan"].dump()));
  }
  if (j.contains("files")) c.files = j["files"].get<std::vector<int64_t>>();
  return c;
}

std::string RunResult::report() const {
  std::string out;
  if (!error.ok()) out += "  run error: " + error.message() + "\n";
  for (const auto& v : violations) out += "  " + v.toString();
  return out;
}

namespace {
// The seed the workload of `seed` is generated from: seeds that share it share their input.
uint64_t workloadSeed(const WorkloadConfig& c, uint64_t seed) {
  return c.workloadSeed.value_or(c.workloadVariety > 0 ? seed % static_cast<uint64_t>(c.workloadVariety) : seed);
}
}  // namespace

sim::Workload workloadFor(const WorkloadConfig& c, uint64_t seed) {
  return sim::generateWorkload(sim::Random(workloadSeed(c, seed)).split("workload"), c.spec);
}

sim::FaultPlan planFor(const WorkloadConfig& c, uint64_t seed, const sim::Reach& reach) {
  sim::FaultPlan p = sim::generateFaultPlan(sim::Random(seed).split("faults"), c.knobs, reach);
  p.seed = seed;
  return p;
}

sim::FaultPlan planFor(const WorkloadConfig& c, uint64_t seed) { return planFor(c, seed, workloadReach(c, seed)); }

namespace {

// What restart_equivalence's runs need besides a plain run: Spark's no-data batch rule set aside
// (QueryOptions::noDataBatchBeforeFirstBatchOfRun) and the committed state after the run; what
// workloadReach's run records.
struct RunExtras {
  bool recordReach = false;
  bool noDataBatchBeforeFirstBatchOfRun = false;
  bool readCommittedState = false;  // RunOutcome::committedState (dumpCommittedState without timers)
  Status stateError;
};

// simulate() on an already generated workload (runCase generates it once for all its runs).
// `traced` false: the engine gets no trace sink (the trace and the fingerprint then cover only
// the sink), for the fault-free reference, of which only the sink rows and the error are read.
RunResult simulateWorkload(const WorkloadConfig& c, const RunCase& rc, const sim::Workload& w,
                           bool traced = true, RunExtras* extras = nullptr) {
  RunResult r;
  r.seed = rc.seed;
  auto actions = actionsFor(c, w, rc);
  {
    std::set<int64_t> files;
    for (const auto& a : actions)
      if (a.file >= 0) files.insert(a.file);
    r.files = static_cast<int64_t>(files.size());
    for (int64_t f : files) r.events += static_cast<int64_t>(w.files[static_cast<size_t>(f)].eventCount);
  }
  SimEnvOptions so;
  so.seed = sim::Random(rc.seed).split("names").seed();
  so.startTimeMs = kStart;
  so.faultPlan = rc.plan;
  so.traceEngine = traced;
  SimEnv sim(so);
  if (extras != nullptr && extras->recordReach) {
    sim.injector().recordReach();
    sim.recordSchedulingChoices();
  }
  auto built = buildQuery(c);
  if (!built.ok()) {
    r.error = built.status();
    return r;
  }
  if (extras != nullptr && extras->noDataBatchBeforeFirstBatchOfRun) {
    QueryOptions qo = built->writer.queryOptions();
    qo.noDataBatchBeforeFirstBatchOfRun = true;
    built->writer.options(std::move(qo));
  }
  if (Status st = sim.fs().mkdirs(kLanding); !st.ok()) {
    r.error = st;
    return r;
  }
  TimeMs last = kStart;
  for (const auto& a : actions) last = std::max(last, a.at);
  // The run goes on drainMs after the last file lands and after the driver last came back.
  TimeMs end = last + c.drainMs;
  size_t next = 0;
  Status landing;
  // Landing actions due by `t`, each at its own time.
  auto land = [&](TimeMs t) {
    while (landing.ok() && next < actions.size() && actions[next].at <= t) {
      sim.clock().set(std::max(sim.clock().nowMs(), actions[next].at));
      Status st = sim::applyLandingAction(sim.fs(), actions[next]);
      if (!st.ok()) landing = st.withContext("landing action " + actions[next].describe());
      ++next;
    }
  };
  // While the driver is down (a crash's downtime, a reference's DowntimeFault) the files keep
  // landing; it comes back at a trigger time.
  sim.setDowntimeHandler([&](TimeMs until) {
    const TimeMs since = until - kStart;
    const TimeMs back = kStart + (since + c.triggerInterval - 1) / c.triggerInterval * c.triggerInterval;
    land(back);
    sim.clock().set(std::max(sim.clock().nowMs(), back));
    end = std::max(end, back + c.drainMs);
  });
  // The supervisor: a crash or a failed trigger is followed by a restart (after the crash's
  // downtime; else at the same virtual time).
  SupervisorOptions supervisor;
  supervisor.restartPlannedCrashes = true;
  supervisor.restartOnFailure = true;
  Driver driver(sim, supervisor);
  bool started = false;
  TimeMs lastTrigger = kStart;  // a trigger time is taken once (a restart after downtime took it)
  for (TimeMs t = kStart + c.triggerInterval; r.error.ok() && t <= end + c.triggerInterval - 1;
       t += c.triggerInterval) {
    land(t);
    if (!landing.ok()) {
      r.error = landing;
      return r;
    }
    if (t <= lastTrigger) continue;  // the driver was down then
    sim.clock().set(t);
    if (!started) {  // the first start at the first trigger's time
      started = true;
      r.error = driver.start(built->writer);
      if (!r.error.ok()) break;
    }
    // One trigger at t; after a restart it triggers again unless the interrupted batch committed.
    int64_t batchBefore = -1;
    r.error = driver.supervise(
        [&](StreamingQuery& q) {
          if (batchBefore < 0) batchBefore = q.nextBatchId();
          return q.triggerOnce().status();
        },
        [&] { return batchBefore >= 0 && sim.query()->nextBatchId() > batchBefore; });
    if (r.error.ok()) r.error = landing;
    lastTrigger = sim.clock().nowMs();
  }
  if (sim.running()) sim.stop();
  built->readSink(sim, r);
  r.delivered = built->delivered;
  const StateStoreKind store = c.stateStore == "rocksdb" ? StateStoreKind::kRocksDB : StateStoreKind::kMemory;
  if (extras != nullptr && extras->readCommittedState) {
    auto state = dumpCommittedState(sim.env(), kCheckpoint, store, false);
    if (state.ok()) r.committedState = std::move(*state);
    else extras->stateError = state.status();
  }
  if (c.stateBoundPerKey && isTws(c.kind)) {
    auto rows = committedStateRowsPerKey(sim.env(), kCheckpoint, store);
    if (rows.ok()) r.stateRowsPerKey = std::move(*rows);
    else if (r.error.ok()) r.error = rows.status().withContext("reading the final state's rows per key");
  }
  r.collect(sim);
  r.restarts = driver.restarts();
  // The fingerprint covers what the run did (the trace) and what it produced (the sink).
  for (const Row& row : r.sinkRows)  // FNV-1a runs on: the line, then "\n", without a joined copy
    r.fingerprint = sim::fnv1a64("\n", sim::fnv1a64(row.toJson(), r.fingerprint));
  return r;
}

}  // namespace

sim::Reach workloadReach(const WorkloadConfig& c, uint64_t seed, ReferenceCache* cache) {
  const uint64_t w = workloadSeed(c, seed);
  if (cache != nullptr) {
    std::lock_guard<std::mutex> lock(cache->mu);
    if (auto it = cache->reach.find(w); it != cache->reach.end()) return it->second;
  }
  RunCase plain;  // the seed's workload, no faults
  plain.seed = seed;
  RunExtras extras;
  extras.recordReach = true;
  sim::Reach reach = simulateWorkload(c, plain, workloadFor(c, seed), /*traced=*/false, &extras).reach;
  if (cache != nullptr) {
    std::lock_guard<std::mutex> lock(cache->mu);
    cache->reach.emplace(w, reach);
  }
  return reach;
}

RunResult simulate(const WorkloadConfig& c, const RunCase& rc, bool traceEngine) {
  return simulateWorkload(c, rc, workloadFor(c, rc.seed), traceEngine);
}

RunResult runCase(const WorkloadConfig& c, const RunCase& rc, const RunOptions& o) {
  // The seed's workload, generated once for the run, its reference run and its re-run.
  if (Status names = checkOracleNames(c.oracles); !names.ok()) {
    RunResult bad;
    bad.seed = rc.seed;
    bad.error = names;
    return bad;
  }
  const sim::Workload w = workloadFor(c, rc.seed);
  // determinism compares the committed state of its two runs too.
  RunExtras stateOfRun;
  stateOfRun.readCommittedState = o.determinism;
  RunResult r = simulateWorkload(c, rc, w, true, &stateOfRun);
  if (!r.error.ok() || !o.oracles) return r;
  OracleInput in(r);
  in.sinkKind = c.customSink ? "custom" : c.sink == SinkKind::kForeach ? "foreach"
                                         : c.sink == SinkKind::kFiles ? "files" : "memory";
  in.reference = [&]() -> Result<std::vector<Row>> {
    RunCase ref = rc;
    // Restarted where the run restarted cleanly and had a no-data batch withheld.
    // and took the same downtime at the same batch boundaries.
    ref.plan = withSameRestarts(referencePlan(rc.plan), r.trace);
    std::shared_ptr<const RunResult> cached;
    std::string cacheKey;
    if (o.references) {
      // The workload seed stands for the input files (one config, one generator: the same seed
      // gives the same files); hashing the files' contents instead was 2% of a sweep.
      nlohmann::json k{{"w", workloadSeed(c, rc.seed)}, {"p", ref.plan.toJson()}};
      if (rc.files) k["f"] = *rc.files;
      cacheKey = k.dump();
      std::lock_guard<std::mutex> lock(o.references->mu);
      auto it = o.references->runs.find(cacheKey);
      if (it != o.references->runs.end()) cached = it->second;
    }
    if (!cached) {
      ++r.oracleRuns;
      ref.plan.seed = 0;  // the reference run does not depend on the seed's plan
      auto fresh = std::make_shared<RunResult>(simulateWorkload(c, ref, w, /*traced=*/false));
      if (o.references) {
        std::lock_guard<std::mutex> lock(o.references->mu);
        o.references->runs.emplace(cacheKey, fresh);
      }
      cached = fresh;
    }
    if (!cached->error.ok()) return cached->error.withContext("the fault-free run");
    return cached->sinkRows;
  };
  in.timerClock = c.kind == WorkloadKind::kCustom && c.timeMode == TimeMode::kEventTime
                      ? TimerClock::kEventTime
                      : TimerClock::kProcessingTime;
  if (c.kind == WorkloadKind::kDedup || c.kind == WorkloadKind::kWindow ||
      (c.kind == WorkloadKind::kCustom && c.timeMode == TimeMode::kEventTime)) {
    in.watermarkDelay = c.watermarkDelay;  // the queries with a withWatermark
  }
  in.arrivals = [&] { return arrivals(w, actionsFor(c, w, rc)); };
  in.stateBound = c.stateBound;
  in.stateBoundPerKey = c.stateBoundPerKey;
  in.stateRowsPerKey = [&]() -> Result<std::map<std::string, int64_t>> { return r.stateRowsPerKey; };
  if (c.reference) {
    in.referenceViews = [&]() -> Result<ReferenceViews> {
      if (!r.delivered) return Status::FailedPrecondition("reference: the run recorded no source rows");
      ReferenceViews views;
      views.name = c.referenceName;
      views.expected = c.reference(r.delivered->input(1, isTws(c.kind) ? std::vector<std::string>{"key"}
                                                                        : std::vector<std::string>{}));
      // Update mode (transformWithState): the last row per key; append mode: every row.
      views.actual = isTws(c.kind) ? latestPerKey(r.sinkRows, {"key"}) : r.sinkRows;
      return views;
    };
  }
  in.again = [&]() -> RunOutcome {
    ++r.oracleRuns;
    RunExtras state;
    state.readCommittedState = true;
    return simulateWorkload(c, rc, w, true, &state);
  };
  in.againAfterOther = [&]() -> RunOutcome {
    RunCase other = rc;  // the next seed's workload first
    other.seed = rc.seed + 1;
    simulateWorkload(c, other, workloadFor(c, other.seed));
    r.oracleRuns += 2;
    return simulateWorkload(c, rc, w);
  };
  // The other cut varies by seed (its stream "batch_cut", so the replay line's --seed reproduces
  // it): the files land every 0 (all at once), 250, 500, 2000 or 3000 ms instead.
  const DurationMs cutInterval = sim::Random(rc.seed).split("batch_cut").pick(std::vector<DurationMs>{0, 250, 500, 2000, 3000});
  in.batchCut = fmt::format("the files landing every {} ms instead of every {} ms (the cut of seed {})", cutInterval,
                            c.spec.arrivalInterval, rc.seed);
  in.batchSplit = [&] {
    WorkloadConfig all = c;
    all.spec.arrivalInterval = cutInterval;
    RunCase plain = rc;
    plain.plan = sim::FaultPlan{};
    r.oracleRuns += 2;
    return std::make_pair(simulate(all, plain).sinkRows, simulate(c, plain).sinkRows);
  };
  // restart_equivalence: the seed's input (its landing faults) restarted cleanly right after each
  // committed batch — every other restart after 5 triggers of downtime, while files keep landing —
  // against the same input down as long at the same batches without restarting; both with a
  // no-data batch allowed right after a restart (Spark withholds it: docs/oracles.md).
  in.restartRuns = [&]() -> Result<RestartRuns> {
    const DurationMs downtime = 5 * c.triggerInterval;
    RunCase restarted = rc;
    restarted.plan = referencePlan(rc.plan);
    for (int64_t b = 0; b < c.knobs.batches; ++b)
      restarted.plan.faults.push_back(
          sim::CrashFault{std::string(faults::kCommitsAfterWrite), b, -1, 1, b % 2 == 1 ? downtime : 0});
    RunExtras a, b;
    a.noDataBatchBeforeFirstBatchOfRun = b.noDataBatchBeforeFirstBatchOfRun = true;
    a.readCommittedState = b.readCommittedState = true;
    RunResult ra = simulateWorkload(c, restarted, w, true, &a);
    RunCase paused = rc;
    paused.plan = referencePlan(rc.plan);
    for (const sim::DowntimeFault& d : downtimeWithoutRestarts(ra.trace)) paused.plan.faults.push_back(d);
    RunResult rb = simulateWorkload(c, paused, w, true, &b);
    r.oracleRuns += 2;
    for (const auto& [run, extras, what] : {std::tuple{&ra, &a, "restarted after each batch"},
                                            std::tuple{&rb, &b, "without the restarts"}}) {
      if (!run->error.ok()) return run->error.withContext(fmt::format("the run {}", what));
      if (!extras->stateError.ok()) return extras->stateError.withContext(fmt::format("the run {}: its state", what));
    }
    RestartRuns out;
    out.restartedSink = std::move(ra.sinkRows);
    out.pausedSink = std::move(rb.sinkRows);
    out.restartedState = std::move(ra.committedState);
    out.pausedState = std::move(rb.committedState);
    out.restarts = ra.restarts;
    return out;
  };
  std::vector<std::string> names;
  for (const Oracle& oracle : oracleTable()) {
    std::string_view n = oracle.name;
    if (n == "determinism" ? o.determinism : n == "batch_split" ? o.batchSplit : wanted(c, n))
      names.emplace_back(n);
  }
  auto errors = applyOracles(names, in, r);
  if (!errors.empty()) r.error = errors.front().status;
  return r;
}

RunResult runSeed(const WorkloadConfig& c, uint64_t seed, const RunOptions& o) {
  RunCase rc;
  rc.seed = seed;
  rc.plan = planFor(c, seed, workloadReach(c, seed, o.references.get()));
  return runCase(c, rc, o);
}

}  // namespace streamsim::harness
