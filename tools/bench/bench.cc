// `streamsim bench` (bench.h): the five workloads of issue 7 and their limits, measured with
// steady_clock in this process (workload 5 in a child process of this binary).
#include "bench/bench.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include "bench/limits.h"
#include "bench/rearm_timer_processor.h"
#include "streamsim/harness/sweep.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/processors/async.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/sim/kafka_log.h"
#include "streamsim/sim/simulated_service.h"
#include "streamsim/query.h"
#include "streamsim/sim/sim_file_system.h"
#include "streamsim/sim/virtual_clock.h"
#include "streamsim/state/row_encoding.h"
#include "streamsim/tws/transform_with_state.h"

extern char** environ;

namespace streamsim::bench {
namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

constexpr TimeMs kStartMs = 1767225600000;  // 2026-01-01T00:00:00Z

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string human(double n) {
  if (n >= 1e9) return fmt::format("{:.2f}G", n / 1e9);
  if (n >= 1e6) return fmt::format("{:.2f}M", n / 1e6);
  if (n >= 1e3) return fmt::format("{:.1f}k", n / 1e3);
  return fmt::format("{:.1f}", n);
}

std::string count(int64_t n) {
  if (n >= 1000000 && n % 1000000 == 0) return fmt::format("{}M", n / 1000000);
  if (n >= 1000 && n % 1000 == 0) return fmt::format("{}k", n / 1000);
  return std::to_string(n);
}

// A simulated world without faults or trace: the engine's own cost only.
struct World {
  sim::VirtualClock clock{kStartMs};
  sim::SimFileSystem fs{&clock};
  sim::SeededIdGenerator ids{7};
  Env env;
  World() {
    env.clock = &clock;
    env.fs = &fs;
    env.ids = &ids;
  }
};

// ---------------------------------------------------------------------------------------------
// Workloads 1, 2, 5: count per key over JSON-lines files.

struct CountInput {
  int64_t events = 0;
  int64_t keys = 0;
  int files = 0;
  std::vector<std::string> names;
  std::vector<std::string> contents;
  // Per file: rows the count processor emits (distinct keys in the file) and the sum of their
  // counts (the running count of each such key after the file).
  std::vector<int64_t> expectedRows;
  std::vector<int64_t> expectedCountSum;
  // Per file: the (key, running count) updates of that batch, for the raw RocksDB limit.
  std::vector<std::vector<std::pair<std::string, int64_t>>> updates;
};

std::string keyName(int64_t k) { return fmt::format("k{:07d}", k); }

CountInput makeCountInput(int64_t events, int64_t keys, int files, bool withUpdates) {
  CountInput in;
  in.events = events;
  in.keys = keys;
  in.files = files;
  std::vector<int64_t> counts(keys, 0);
  std::vector<int64_t> lastFile(keys, -1);
  const int64_t perFile = events / files;
  int64_t e = 0;
  for (int f = 0; f < files; ++f) {
    std::string text;
    text.reserve(static_cast<size_t>(perFile) * 34);
    std::vector<int64_t> touched;
    int64_t n = f + 1 == files ? events - e : perFile;
    for (int64_t i = 0; i < n; ++i, ++e) {
      int64_t k = static_cast<int64_t>(splitmix64(static_cast<uint64_t>(e)) % keys);
      fmt::format_to(std::back_inserter(text), "{{\"key\":\"k{:07d}\",\"value\":{}}}\n", k, e);
      ++counts[k];
      if (lastFile[k] != f) {
        lastFile[k] = f;
        touched.push_back(k);
      }
    }
    int64_t sum = 0;
    for (int64_t k : touched) sum += counts[k];
    in.expectedRows.push_back(static_cast<int64_t>(touched.size()));
    in.expectedCountSum.push_back(sum);
    if (withUpdates) {
      std::sort(touched.begin(), touched.end());
      std::vector<std::pair<std::string, int64_t>> u;
      u.reserve(touched.size());
      for (int64_t k : touched) u.emplace_back(keyName(k), counts[k]);
      in.updates.push_back(std::move(u));
    }
    in.names.push_back(fmt::format("/landing/part-{:05d}.json", f));
    in.contents.push_back(std::move(text));
  }
  return in;
}

// Counts rows and sums the "count" column; checks every batch against the expected figures.
struct CountCheck {
  std::vector<int64_t> rows;
  std::vector<int64_t> countSum;
};

class CountingSink final : public Sink {
 public:
  explicit CountingSink(std::shared_ptr<CountCheck> check) : check_(std::move(check)) {}
  std::string description() const override { return "BenchCountingSink"; }
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override {
    int64_t sum = 0;
    int index = -1;
    for (const Row& r : rows) {
      if (index < 0) index = r.schema()->indexOf("count");
      if (index >= 0) sum += r[static_cast<size_t>(index)].asLong();
    }
    auto id = static_cast<size_t>(ctx.batchId);
    if (check_->rows.size() <= id) {
      check_->rows.resize(id + 1, 0);
      check_->countSum.resize(id + 1, 0);
    }
    check_->rows[id] = static_cast<int64_t>(rows.size());
    check_->countSum[id] = sum;
    return Status::OK();
  }

 private:
  std::shared_ptr<CountCheck> check_;
};

struct EngineRun {
  double seconds = 0;
  int64_t batches = 0;
  std::string error;  // empty when the output checked out
};

// `factory` (default: the sync count processor) and `services` let workload 6 run async
// processors; `virtualMs` gets the virtual time the run took (outside calls' latency); with
// `checkCounts` false only the number of output rows per batch is checked.
EngineRun runCountEngine(const CountInput& in, StateStoreKind kind, ProcessorFactory factory = {},
                         ServiceDirectory* services = nullptr, int64_t* virtualMs = nullptr,
                         bool checkCounts = true) {
  EngineRun run;
  World w;
  w.env.services = services;
  auto check = [&](const Status& st) {
    if (!st.ok() && run.error.empty()) run.error = st.toString();
    return st.ok();
  };
  if (!check(w.fs.mkdirs("/landing")) || !check(w.fs.mkdirs("/chk"))) return run;
  for (size_t f = 0; f < in.names.size(); ++f)
    if (!check(w.fs.write(in.names[f], in.contents[f])) || !check(w.fs.sync(in.names[f])))
      return run;
  auto schema = parseSchema("key string, value long");
  if (!check(schema.status())) return run;
  auto source = makeFileSource("/landing", *schema, {{"maxFilesPerTrigger", "1"}});
  if (!check(source.status())) return run;
  TransformWithStateSpec spec;
  spec.groupBy = {"key"};
  spec.processorFactory = [] { return std::make_unique<processors::CountProcessor>(); };
  if (factory) spec.processorFactory = factory;
  spec.processorName = "count";
  spec.outputMode = OutputMode::kUpdate;
  auto counts = std::make_shared<CountCheck>();
  DataStreamWriter writer = readStream(*source)
                                .transform([spec] { return makeTransformWithState(spec); })
                                .writeStream();
  writer.sink([counts] { return std::make_unique<CountingSink>(counts); })
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", "/chk")
      .option("stateStore", std::string(stateStoreKindName(kind)));

  auto t0 = Clock::now();
  const TimeMs virtual0 = w.clock.nowMs();
  auto query = writer.start(w.env);
  if (!check(query.status())) return run;
  if (!check((*query)->processAllAvailable())) return run;
  run.seconds = secondsSince(t0);
  if (virtualMs) *virtualMs = w.clock.nowMs() - virtual0;
  run.batches = (*query)->nextBatchId();
  if (run.batches != in.files)
    run.error = fmt::format("ran {} batches, expected {}", run.batches, in.files);
  else if (counts->rows != in.expectedRows ||
           (checkCounts && counts->countSum != in.expectedCountSum))
    run.error = "the count processor's output differs from the expected counts";
  return run;
}

// The RocksDB limit of workload 2: the engine's updates (key, running count) of every batch as
// one WriteBatch of puts per batch, on RocksDB's in-memory Env with the WAL off, as the engine's
// working copy is configured. Keys carry the same order-preserving encoding.
LimitRun runRocksDBLimit(const CountInput& in) {
  LimitRun run;
  std::vector<std::vector<std::pair<std::string, std::string>>> batches;
  batches.reserve(in.updates.size());
  for (const auto& u : in.updates) {
    std::vector<std::pair<std::string, std::string>> b;
    b.reserve(u.size());
    for (const auto& [k, c] : u) {
      std::string key, value;
      encodeOrderedValue(Value(k), key);
      encodeOrderedValue(Value(c), value);
      b.emplace_back(std::move(key), std::move(value));
    }
    batches.push_back(std::move(b));
  }
  std::unique_ptr<rocksdb::Env> memEnv(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = memEnv.get();
  rocksdb::WriteOptions writeOptions;
  writeOptions.disableWAL = true;
  auto t0 = Clock::now();
  rocksdb::DB* raw = nullptr;
  rocksdb::Status st = rocksdb::DB::Open(options, "/bench-limit", &raw);
  if (!st.ok()) {
    run.error = "RocksDB limit: " + st.ToString();
    return run;
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  for (const auto& b : batches) {
    rocksdb::WriteBatch wb;
    for (const auto& [k, v] : b) wb.Put(k, v);
    st = db->Write(writeOptions, &wb);
    if (!st.ok()) {
      run.error = "RocksDB limit: " + st.ToString();
      return run;
    }
  }
  run.seconds = secondsSince(t0);
  (void)db->Close();
  return run;
}

struct Sizes {
  int64_t smallEvents, bigEvents;
  int smallFiles, bigFiles;
};

Sizes countSizes(bool quick) {
  if (quick) return {5'000, 20'000, 5, 20};
  return {250'000, 1'000'000, 25, 100};
}

// Workload 1 (kind memory) or 2 (rocksdb) at `keys` keys. `memoryFigure`: workload 1's
// figure at the same key count (the limit of workload 2).
std::vector<BenchRow> countWorkload(const std::string& id, StateStoreKind kind, int64_t keys,
                                    bool quick, double* figureOut, double memoryFigure,
                                    bool& ok) {
  auto t0 = Clock::now();
  Sizes s = countSizes(quick);
  bool rocks = kind == StateStoreKind::kRocksDB;
  // The small run keeps the big run's shape: with few keys the same keys, with many keys
  // (about one per event) the keys scale with the events.
  int64_t smallKeys = keys > s.bigEvents / 10 ? keys * s.smallEvents / s.bigEvents : keys;
  CountInput small = makeCountInput(s.smallEvents, smallKeys, s.smallFiles, rocks);
  CountInput big = makeCountInput(s.bigEvents, keys, s.bigFiles, rocks);
  EngineRun es = runCountEngine(small, kind);
  EngineRun eb = runCountEngine(big, kind);
  std::string error = !es.error.empty() ? es.error : eb.error;
  double figure = eb.seconds > 0 ? static_cast<double>(big.events) / eb.seconds : 0;
  double smallFigure = es.seconds > 0 ? static_cast<double>(small.events) / es.seconds : 0;
  if (figureOut) *figureOut = figure;
  std::string sizes = fmt::format("{}->{} ev, {}->{} keys, {}->{} batches", count(small.events),
                                  count(big.events), count(small.keys), count(big.keys),
                                  small.files, big.files);
  std::vector<BenchRow> rows;
  BenchRow r;
  r.id = id;
  r.sizes = sizes;
  r.figure = figure;
  r.unit = "events/s";
  r.scaling = figure > 0 ? smallFigure / figure : 0;
  // The rows at the large key count (1b, 2b) also hold issue 20's scaling target: an event at
  // the large size costs at most 1.2x what it costs at the small one.
  const bool atScale = !id.empty() && id.back() == 'b';
  const bool scalesWell = r.scaling <= 1.2;
  const std::string scalingTarget = atScale ? ", scaling <= 1.2" : "";
  if (!rocks) {
    LimitRun limit = simdjsonCountLimit(big.contents, big.events);
    LimitRun oldLimit = nlohmannCountLimit(big.contents, big.events);
    if (error.empty()) error = !limit.error.empty() ? limit.error : oldLimit.error;
    r.name = fmt::format("throughput, memory state, {} keys", count(keys));
    r.limitName = "simdjson + flat map";
    r.limit = limit.seconds > 0 ? static_cast<double>(big.events) / limit.seconds : 0;
    r.ratio = r.limit > 0 ? r.figure / r.limit : 0;
    r.target = ">= 50% of limit" + scalingTarget;
    r.met = r.ratio >= 0.5 && (!atScale || scalesWell);
    // The limit of earlier rounds, for comparison with their figures (docs/performance.md).
    BenchRow old = r;
    old.id = id + "'";
    old.name = "  same, vs the old limit";
    old.limitName = "nlohmann SAX + std map";
    old.limit = oldLimit.seconds > 0 ? static_cast<double>(big.events) / oldLimit.seconds : 0;
    old.ratio = old.limit > 0 ? old.figure / old.limit : 0;
    old.target = "(none)";
    old.met = true;
    rows.push_back(r);
    rows.push_back(old);
  } else {
    LimitRun limit = runRocksDBLimit(big);
    if (error.empty()) error = limit.error;
    r.name = fmt::format("throughput, RocksDB state, {} keys", count(keys));
    r.limitName = "workload 1";
    r.limit = memoryFigure;
    r.ratio = r.limit > 0 ? r.figure / r.limit : 0;
    r.target = ">= 25% of workload 1" + scalingTarget;
    r.met = r.ratio >= 0.25 && (!atScale || scalesWell);
    BenchRow raw = r;
    raw.id = id + "'";
    raw.name = fmt::format("  same, vs raw RocksDB WriteBatch puts");
    raw.limitName = "WriteBatch puts";
    raw.limit = limit.seconds > 0 ? static_cast<double>(big.events) / limit.seconds : 0;
    raw.ratio = raw.limit > 0 ? raw.figure / raw.limit : 0;
    // At the large key count the engine's RocksDB state must keep 60% of raw puts' rate.
    raw.target = atScale ? ">= 60% of limit" : "(none)";
    raw.met = !atScale || raw.ratio >= 0.6;
    raw.scaling = r.scaling;
    rows.push_back(r);
    rows.push_back(raw);
  }
  if (rows.empty()) rows.push_back(r);
  if (!error.empty()) {
    ok = false;
    rows.front().note = error;
  }
  rows.front().seconds = secondsSince(t0);
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Workload 6: async processors (seed 000). 6a: workload 1's input through async_count next to
// the sync count processor (the cost of coroutines, awaits and the runtime per event; target:
// at most 1.5x the sync cost). 6b: a latency-bound workload — every row is one call to a
// simulated service answering after 10 ms of virtual time — with the calls of each key gathered
// (whenAll) vs one at a time; the figure is the virtual time the batches took (target <= 1/5).

std::vector<BenchRow> asyncWorkload(bool quick, int64_t keys, bool& ok) {
  auto t0 = Clock::now();
  std::vector<BenchRow> rows;
  Sizes s = countSizes(quick);
  CountInput in = makeCountInput(s.bigEvents, keys, s.bigFiles, false);
  auto asyncCount = [] { return asStatefulProcessor(std::make_unique<processors::AsyncCountProcessor>()); };
  // Best of two of each, interleaved (the machine's load moves).
  EngineRun sync = runCountEngine(in, StateStoreKind::kMemory);
  EngineRun async = runCountEngine(in, StateStoreKind::kMemory, asyncCount);
  EngineRun sync2 = runCountEngine(in, StateStoreKind::kMemory);
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

// ---------------------------------------------------------------------------------------------
// Workload 7: real-time mode (seed 004, docs/real-time.md). One Kafka-like log — `records` rows
// over `keys` keys on 4 partitions, one every `gapMs` of virtual time — counted per key by the
// count processor on RocksDB, once in real-time mode (5-minute long batches, 1 ms per record and
// a 5 ms sink) and once in micro-batch mode (a 5-minute processingTime trigger) over the same log.
// 7a: real-time records/s of wall time next to micro-batch's. 7b: the p99 end-to-end latency in
// virtual time (arrival to sink) next to micro-batch's over the same records: a record's latency
// there is its batch's trigger time minus its arrival.

struct LogRun {
  double seconds = 0;
  int64_t inputRows = 0;
  DurationMs p99 = 0;  // real time: the worst batch's p99; micro-batch: over every record
  std::string error;
};

LogRun runLogCount(int64_t records, int64_t keys, DurationMs gapMs, bool realTime) {
  constexpr DurationMs kBatch = 5 * 60'000;
  constexpr int kPartitions = 4;
  LogRun run;
  World w;
  auto check = [&](const Status& st) {
    if (!st.ok() && run.error.empty()) run.error = st.toString();
    return st.ok();
  };
  auto log = std::make_shared<sim::KafkaLog>();
  if (!check(log->createTopic("events", {kPartitions, 0}))) return run;
  std::vector<TimeMs> arrivals;
  arrivals.reserve(static_cast<size_t>(records));
  for (int64_t i = 0; i < records; ++i) {
    const TimeMs at = kStartMs + 1 + i * gapMs;
    arrivals.push_back(at);
    auto r = log->produce("events", fmt::format("k{:07d}", i % keys), std::to_string(i), at);
    if (!check(r.status())) return run;
  }
  auto source = makeKafkaSource(log, {{"subscribe", "events"}, {"startingOffsets", "earliest"}});
  if (!check(source.status())) return run;
  TransformWithStateSpec spec;
  spec.groupBy = {"key"};
  spec.processorFactory = [] { return std::make_unique<processors::CountProcessor>(); };
  spec.processorName = "count";
  spec.outputMode = OutputMode::kUpdate;
  auto out = std::make_shared<MemorySinkData>();
  DataStreamWriter writer = readStream(*source)
                                .transform([spec] { return makeTransformWithState(spec); })
                                .writeStream();
  writer.sink(makeMemorySink(out))
      .outputMode(OutputMode::kUpdate)
      .trigger(realTime ? Trigger::RealTime(kBatch) : Trigger::ProcessingTime(kBatch))
      .option("checkpointLocation", "/chk")
      .option("spark.sql.shuffle.partitions", std::to_string(kPartitions))
      .option("stateStore", "rocksdb")
      .option("realTime.recordCost", "1ms")
      .option("realTime.sinkLatency", "5ms");
  auto t0 = Clock::now();
  auto query = writer.start(w.env);
  if (!check(query.status())) return run;
  const TimeMs end = arrivals.empty() ? kStartMs : arrivals.back();
  // Triggers until the clock has passed the last record by a whole batch (bounded).
  for (int i = 0; i < 10'000 && w.clock.nowMs() <= end + kBatch; ++i) {
    auto ran = (*query)->awaitNextTrigger();
    if (!check(ran.status())) return run;
    if (!*ran) w.clock.advance(kBatch);
  }
  run.seconds = secondsSince(t0);
  std::vector<DurationMs> latencies;
  size_t next = 0;  // micro-batch: the first record not yet read by a batch
  for (const QueryProgress& p : (*query)->recentProgress()) {
    run.inputRows += p.numInputRows;
    if (realTime) {
      if (p.latency) run.p99 = std::max(run.p99, p.latency->p99);
      continue;
    }
    for (int64_t n = 0; n < p.numInputRows && next < arrivals.size(); ++n, ++next)
      latencies.push_back(p.timestamp - arrivals[next]);
  }
  if (!realTime) run.p99 = LatencyStats::of(std::move(latencies)).p99;
  if (run.inputRows != records)
    run.error = fmt::format("{} read {} of {} records",
                            realTime ? "real-time" : "micro-batch", run.inputRows, records);
  return run;
}

std::vector<BenchRow> realTimeWorkload(bool quick, bool& ok) {
  auto t0 = Clock::now();
  const int64_t records = quick ? 4'000 : 200'000;
  const int64_t keys = quick ? 100 : 10'000;
  const DurationMs gap = quick ? 150 : 6;  // 10 or 20 minutes of virtual time
  LogRun rt = runLogCount(records, keys, gap, true);
  LogRun mb = runLogCount(records, keys, gap, false);
  const std::string sizes = fmt::format("{} rec, {} keys", count(records), count(keys));
  BenchRow a;
  a.id = "7a";
  a.name = "real-time count, rocksdb, 4 partitions, 5 min batches";
  a.sizes = sizes;
  a.figure = rt.seconds > 0 ? static_cast<double>(records) / rt.seconds : 0;
  a.unit = "records/s";
  a.limitName = "micro-batch, same log";
  a.limit = mb.seconds > 0 ? static_cast<double>(records) / mb.seconds : 0;
  a.ratio = a.limit > 0 ? a.figure / a.limit : 0;
  a.target = "(reported)";
  a.met = true;
  a.scaling = 1;
  a.note = !rt.error.empty() ? rt.error : mb.error;
  a.seconds = secondsSince(t0);
  BenchRow b = a;
  b.id = "7b";
  b.name = "p99 end-to-end latency (virtual), real time";
  b.figure = static_cast<double>(rt.p99);
  b.unit = "virtual ms";
  b.limit = static_cast<double>(mb.p99);
  b.ratio = b.limit > 0 ? b.figure / b.limit : 0;
  b.target = "<= 1% of micro-batch";
  b.met = b.limit > 0 && b.ratio <= 0.01;
  b.seconds = 0;
  if (!a.note.empty()) ok = false;
  return {a, b};
}

// ---------------------------------------------------------------------------------------------
// Workload 3: time acceleration.

struct AccelRun {
  double seconds = 0;
  int64_t batches = 0;
  int64_t timersFired = 0;
  int64_t checkpointFiles = 0;  // at the end: bounded by retention, whatever the run's length
  int64_t checkpointBytes = 0;
  std::string error;
};

// The keys of the rows landing at the start of span h: every key once in the first span, then a
// hundred rows a span. The engine's run and its loop limit take the same input.
std::vector<int64_t> spanKeys(int64_t keys, int h) {
  std::vector<int64_t> out;
  int64_t n = h == 0 ? keys : std::min<int64_t>(100, keys);
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    out.push_back(h == 0 ? i : static_cast<int64_t>(splitmix64(h * 1000 + i) % keys));
  return out;
}

AccelRun runAcceleration(int64_t keys, int hours, DurationMs span) {
  AccelRun run;
  World w;
  auto check = [&](const Status& st) {
    if (!st.ok() && run.error.empty()) run.error = st.toString();
    return st.ok();
  };
  if (!check(w.fs.mkdirs("/landing")) || !check(w.fs.mkdirs("/chk"))) return run;
  auto schema = parseSchema("key string, value long");
  if (!check(schema.status())) return run;
  auto source = makeFileSource("/landing", *schema);
  if (!check(source.status())) return run;
  TransformWithStateSpec spec;
  spec.groupBy = {"key"};
  spec.processorFactory = [] { return std::make_unique<RearmTimerProcessor>(); };
  spec.processorName = "rearm_timer";
  spec.timeMode = TimeMode::kProcessingTime;
  spec.outputMode = OutputMode::kUpdate;
  auto counts = std::make_shared<CountCheck>();
  DataStreamWriter writer = readStream(*source)
                                .transform([spec] { return makeTransformWithState(spec); })
                                .writeStream();
  writer.sink([counts] { return std::make_unique<CountingSink>(counts); })
      .outputMode(OutputMode::kUpdate)
      .trigger(Trigger::ProcessingTime(1000))
      .option("checkpointLocation", "/chk");

  auto t0 = Clock::now();
  auto query = writer.start(w.env);
  if (!check(query.status())) return run;
  const int64_t triggersPerSpan = span / 1000;
  for (int h = 0; h < hours; ++h) {
    std::string text;
    int64_t i = 0;
    for (int64_t k : spanKeys(keys, h))
      fmt::format_to(std::back_inserter(text), "{{\"key\":\"k{:07d}\",\"value\":{}}}\n", k, i++);
    std::string name = fmt::format("/landing/span-{:05d}.json", h);
    if (!check(w.fs.write(name, text)) || !check(w.fs.sync(name))) return run;
    // In steps of a minute: the query keeps only its recent progress records.
    for (int64_t done = 0; done < triggersPerSpan;) {
      int64_t step = std::min<int64_t>(60, triggersPerSpan - done);
      auto ran = (*query)->runBatches(static_cast<int>(step));
      if (!check(ran.status())) return run;
      const auto& progress = (*query)->recentProgress();
      for (size_t i = progress.size() - static_cast<size_t>(*ran); i < progress.size(); ++i)
        for (const auto& op : progress[i].stateOperators) run.timersFired += op.numTimersFired;
      run.batches += *ran;
      done += step;
      if (*ran < step) break;
    }
  }
  run.seconds = secondsSince(t0);
  run.checkpointFiles = static_cast<int64_t>(w.fs.allFiles().size());
  run.checkpointBytes = w.fs.totalBytes();
  // Every key's timer fires on each minute boundary after its first input.
  int64_t minutes = static_cast<int64_t>(hours) * span / kRearmIntervalMs;
  int64_t expectedFired = keys * (minutes - 1);
  if (run.batches != static_cast<int64_t>(hours) * triggersPerSpan)
    run.error = fmt::format("ran {} batches, expected {}", run.batches, hours * triggersPerSpan);
  else if (run.timersFired < expectedFired)
    run.error = fmt::format("{} timers fired, expected at least {}", run.timersFired, expectedFired);
  return run;
}

std::vector<BenchRow> accelerationWorkload(bool quick, bool& ok) {
  auto t0 = Clock::now();
  const int64_t keys = quick ? 200 : 10'000;
  // One file lands per span. The big run is a full simulated day: checkpoint retention
  // (minBatchesToRetain, state store maintenance) keeps the checkpoint's size bounded.
  const DurationMs span = quick ? 10 * 60'000 : 60 * 60'000;
  const int smallSpans = quick ? 1 : 2, bigSpans = quick ? 3 : 24;
  AccelRun s = runAcceleration(keys, smallSpans, span);
  AccelRun b = runAcceleration(keys, bigSpans, span);
  BenchRow r;
  r.id = "3";
  r.name = fmt::format("time acceleration, {} keys, 1 timer/key/min, 1 s trigger", count(keys));
  auto simSeconds = [&](int spans) { return static_cast<double>(spans) * span / 1000.0; };
  r.sizes = fmt::format("{:g}->{:g} simulated h", simSeconds(smallSpans) / 3600,
                        simSeconds(bigSpans) / 3600);
  r.figure = b.seconds > 0 ? simSeconds(bigSpans) / b.seconds : 0;
  double smallFigure = s.seconds > 0 ? simSeconds(smallSpans) / s.seconds : 0;
  std::vector<std::vector<int64_t>> input;
  for (int h = 0; h < bigSpans; ++h) input.push_back(spanKeys(keys, h));
  TimerLoopRun loop = timerLoopLimit(keys, input, span / 1000, kStartMs, kRearmIntervalMs);
  r.unit = "x real time";
  r.limitName = "heap timer loop";
  r.limit = loop.seconds > 0 ? simSeconds(bigSpans) / loop.seconds : 0;
  r.ratio = r.limit > 0 ? r.figure / r.limit : 0;
  r.target = ">= 10000x, >= 25%";
  r.met = r.figure >= 10'000 && r.ratio >= 0.25;
  r.scaling = r.figure > 0 ? smallFigure / r.figure : 0;
  r.note = fmt::format("{} batches, {} timers fired in {:.1f} s (loop: {} in {:.3f} s); {} files, "
                       "{:.1f} MB at the end",
                       b.batches, b.timersFired, b.seconds, loop.fired, loop.seconds,
                       b.checkpointFiles, static_cast<double>(b.checkpointBytes) / 1e6);
  std::string error = !s.error.empty() ? s.error : b.error;
  if (!error.empty()) {
    ok = false;
    r.note = error;
  }
  r.seconds = secondsSince(t0);
  return {r};
}

// ---------------------------------------------------------------------------------------------
// Workload 4: sweep rate.

// The standard crash scenario (issue 7): the count processor over 20 files of 50 events, two
// files landing per 1 s trigger (about 10 batches), up to two crashes at any fault point with
// torn writes (harness::defaultFaultKnobs), every oracle that fits the count workload, each
// seed checked against its own fault-free reference run, and a determinism re-run every 10th.
harness::WorkloadConfig standardCrashWorkload() {
  harness::WorkloadConfig c = harness::standardWorkload(harness::WorkloadKind::kCount);
  c.name = "bench-count";
  c.spec.events = 1000;
  c.spec.eventsPerFile = 50;
  c.spec.arrivalInterval = 500;
  c.knobs.files = 20;
  c.knobs.batches = 10 + c.drainMs / c.triggerInterval;
  return c;
}

struct SweepRun {
  double seconds = 0;
  int failures = 0;
  std::string error;
};

SweepRun runSweep(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed) {
  SweepRun run;
  harness::SweepOptions o;
  o.seeds = seeds;
  o.firstSeed = firstSeed;
  o.jobs = 1;
  o.determinismEvery = 10;
  auto t0 = Clock::now();
  harness::SweepReport report = harness::sweepWorkload(config, o);
  run.seconds = secondsSince(t0);
  run.failures = report.failures();
  if (run.failures > 0) {
    std::string summary = report.summary();
    run.error = summary.substr(0, summary.find('\n'));
  }
  return run;
}

// The limit of workload 4: plain fault-free runs of the same workload, one a seed (the engine and
// the simulation alone: no fault plan, no reference run, no oracles).
SweepRun runPlain(const harness::WorkloadConfig& config, int seeds, uint64_t firstSeed) {
  SweepRun run;
  auto t0 = Clock::now();
  for (int i = 0; i < seeds; ++i) {
    harness::RunCase c;
    c.seed = firstSeed + static_cast<uint64_t>(i);
    c.plan.seed = c.seed;
    harness::RunResult r = harness::simulate(config, c);
    if (!r.error.ok() && run.error.empty()) {
      ++run.failures;
      run.error = fmt::format("seed {}: {}", c.seed, r.error.toString());
    }
  }
  run.seconds = secondsSince(t0);
  return run;
}

std::vector<BenchRow> sweepWorkload(bool quick, bool& ok) {
  auto t0 = Clock::now();
  BenchRow r;
  r.id = "4";
  r.name = "sweep rate, standard crash scenario (1 thread)";
  r.unit = "seeds/s/core";
  r.limitName = "plain runs";
  r.target = ">= 1000, >= 40%";
  harness::WorkloadConfig config = standardCrashWorkload();
  const int small = quick ? 5 : 50, big = quick ? 20 : 200;
  SweepRun s = runSweep(config, small, 0);
  SweepRun b = runSweep(config, big, 1'000'000);
  SweepRun plain = runPlain(config, big, 1'000'000);
  r.sizes = fmt::format("{}->{} seeds", small, big);
  r.figure = b.seconds > 0 ? big / b.seconds : 0;
  double smallFigure = s.seconds > 0 ? small / s.seconds : 0;
  r.limit = plain.seconds > 0 ? big / plain.seconds : 0;
  r.ratio = r.limit > 0 ? r.figure / r.limit : 0;
  r.met = r.figure >= 1000 && r.ratio >= 0.4;
  r.scaling = r.figure > 0 ? smallFigure / r.figure : 0;
  if (s.failures + b.failures + plain.failures > 0) {
    ok = false;
    r.note = fmt::format("{} seeds failed; {}", s.failures + b.failures + plain.failures,
                         !s.error.empty() ? s.error : !b.error.empty() ? b.error : plain.error);
  }
  r.seconds = secondsSince(t0);
  return {r};
}

// ---------------------------------------------------------------------------------------------
// Workload 5: peak RSS of workload 2 with 1M keys, each size in its own child process.

int64_t readVmHwmKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6));
  }
  return -1;
}

// Runs `selfExe bench --rss-child-keys K --rss-child-events E`; returns the child's VmHWM in
// KiB, or -1 with `error` set.
int64_t childPeakRss(const std::string& selfExe, int64_t keys, int64_t events, std::string& error) {
  int fds[2];
  if (pipe(fds) != 0) {
    error = "pipe() failed";
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> args = {selfExe, "bench", "--rss-child-keys", std::to_string(keys),
                                   "--rss-child-events", std::to_string(events)};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, selfExe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    error = fmt::format("could not start {}: error {}", selfExe, rc);
    return -1;
  }
  std::string output;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) output.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  auto pos = output.find("vmhwm_kib=");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || pos == std::string::npos) {
    error = "the workload 5 child failed: " + output;
    return -1;
  }
  return std::stoll(output.substr(pos + 10));
}

std::vector<BenchRow> memoryWorkload(const std::string& selfExe, bool quick, bool& ok) {
  auto t0 = Clock::now();
  Sizes s = countSizes(quick);
  const int64_t bigKeys = quick ? 20'000 : 1'000'000;
  const int64_t smallKeys = bigKeys / 4;
  BenchRow r;
  r.id = "5";
  r.name = fmt::format("peak RSS of workload 2, {} keys", count(bigKeys));
  r.sizes = fmt::format("{}->{} keys", count(smallKeys), count(bigKeys));
  r.unit = "MiB";
  r.limitName = "budget 1 GiB";
  r.limit = 1024;
  r.target = "< 1024 MiB";
  std::string error;
  int64_t small = childPeakRss(selfExe, smallKeys, s.smallEvents, error);
  int64_t big = error.empty() ? childPeakRss(selfExe, bigKeys, s.bigEvents, error) : -1;
  if (!error.empty()) {
    ok = false;
    r.note = error;
    return {r};
  }
  r.figure = static_cast<double>(big) / 1024.0;
  r.ratio = r.figure / r.limit;
  r.met = r.figure < 1024;
  // Bytes per key, big over small.
  r.scaling = (static_cast<double>(big) / bigKeys) / (static_cast<double>(small) / smallKeys);
  r.note = fmt::format("{:.0f} MiB at {} keys", small / 1024.0, count(smallKeys));
  r.seconds = secondsSince(t0);
  return {r};
}

int rssChild(int64_t keys, int64_t events) {
  int files = static_cast<int>(std::max<int64_t>(1, events / 10'000));
  CountInput in = makeCountInput(events, keys, files, /*withUpdates=*/false);
  EngineRun run = runCountEngine(in, StateStoreKind::kRocksDB);
  if (!run.error.empty()) {
    std::cout << "error: " << run.error << "\n";
    return 1;
  }
  std::cout << "vmhwm_kib=" << readVmHwmKiB() << "\n";
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Output.

std::string figureText(double v, const std::string& unit) {
  if (unit == "MiB") return fmt::format("{:.0f} {}", v, unit);
  if (unit == "x real time") return fmt::format("{}x", human(v));
  return fmt::format("{} {}", human(v), unit);
}

void printTable(const std::vector<BenchRow>& rows, bool quick, double total, std::ostream& out) {
  out << fmt::format("streamsim bench{} — figure | limit (same run) | ratio | target | scaling "
                     "(per-unit cost big/small, 1.00 = linear)\n",
                     quick ? " --quick" : "");
  out << fmt::format("{:<4} {:<52} {:>16} {:>22} {:>7}  {:<22} {:<4} {:>7}\n", "id", "workload",
                     "figure", "limit", "ratio", "target", "met", "scaling");
  for (const BenchRow& r : rows) {
    out << fmt::format("{:<4} {:<52} {:>16} {:>22} {:>6.0f}%  {:<22} {:<4} {:>7.2f}\n", r.id,
                       r.name, figureText(r.figure, r.unit),
                       r.limitName.empty() ? "" : fmt::format("{} ({})", figureText(r.limit, r.unit), r.limitName),
                       r.ratio * 100, r.target, r.met ? "yes" : "NO", r.scaling);
    out << fmt::format("     sizes: {}{}{}\n", r.sizes, r.note.empty() ? "" : "; ", r.note);
  }
  out << fmt::format("total wall time {:.1f} s\n", total);
}

json toJson(const std::vector<BenchRow>& rows, bool quick, double total) {
  json j;
  j["quick"] = quick;
  j["total_seconds"] = total;
  j["workloads"] = json::array();
  for (const BenchRow& r : rows) {
    j["workloads"].push_back({{"id", r.id},           {"name", r.name},     {"sizes", r.sizes},
                              {"figure", r.figure},   {"unit", r.unit},     {"limit_name", r.limitName},
                              {"limit", r.limit},     {"ratio", r.ratio},   {"target", r.target},
                              {"met", r.met},         {"scaling", r.scaling}, {"seconds", r.seconds},
                              {"note", r.note}});
  }
  return j;
}

// A saved `bench --json` run, read before anything runs so a bad file fails at once.
struct SavedRun {
  bool quick = false;
  std::vector<std::pair<std::string, std::pair<double, double>>> figures;  // id -> (figure, ratio)
};

Result<SavedRun> readSavedRun(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::InvalidArgument(fmt::format("--compare {}: cannot open the file", path));
  json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("workloads") || !j["workloads"].is_array())
    return Status::InvalidArgument(fmt::format(
        "--compare {}: not a `streamsim bench --json` report (expected an object with a "
        "\"workloads\" array)", path));
  SavedRun saved;
  if (j.contains("quick") && j["quick"].is_boolean()) saved.quick = j["quick"].get<bool>();
  size_t index = 0;
  for (const json& w : j["workloads"]) {
    if (!w.is_object() || !w.contains("id") || !w["id"].is_string() || !w.contains("figure") ||
        !w["figure"].is_number() || !w.contains("ratio") || !w["ratio"].is_number())
      return Status::InvalidArgument(fmt::format(
          "--compare {}: workloads[{}] lacks a string \"id\" and numbers \"figure\", \"ratio\"",
          path, index));
    saved.figures.push_back(
        {w["id"].get<std::string>(), {w["figure"].get<double>(), w["ratio"].get<double>()}});
    ++index;
  }
  return saved;
}

void printComparison(const std::vector<BenchRow>& rows, const SavedRun& saved, bool quick,
                     const std::string& path, std::ostream& out) {
  out << fmt::format("\ncompared with {}{}\n", path,
                     saved.quick != quick ? " (NOTE: its sizes differ: one run is --quick)" : "");
  out << fmt::format("{:<4} {:>16} {:>16} {:>8}   {:>7} {:>7}\n", "id", "then", "now", "change",
                     "ratio", "then");
  for (const BenchRow& r : rows) {
    auto it = std::find_if(saved.figures.begin(), saved.figures.end(),
                           [&](const auto& f) { return f.first == r.id; });
    if (it == saved.figures.end()) {
      out << fmt::format("{:<4} {:>16} {:>16}\n", r.id, "(new)", figureText(r.figure, r.unit));
      continue;
    }
    auto [figure, ratio] = it->second;
    double change = figure != 0 ? (r.figure - figure) / figure * 100 : 0;
    // Memory is better when smaller; everything else when larger.
    bool worse = r.unit == "MiB" ? change > 5 : change < -5;
    out << fmt::format("{:<4} {:>16} {:>16} {:>+7.1f}%   {:>6.0f}% {:>6.0f}%{}\n", r.id,
                       figureText(figure, r.unit), figureText(r.figure, r.unit), change,
                       r.ratio * 100, ratio * 100, worse ? "  slower" : "");
  }
}

}  // namespace

CountWorkloadRun runCountWorkload(const ProcessorFactory& processor, int64_t events, int64_t keys,
                                  int files) {
  CountInput in = makeCountInput(events, keys, files, false);
  EngineRun run = runCountEngine(in, StateStoreKind::kMemory, processor);
  CountWorkloadRun out;
  out.eventsPerSecond = run.seconds > 0 ? static_cast<double>(events) / run.seconds : 0;
  out.error = run.error;
  out.contents = std::move(in.contents);
  return out;
}

int benchCommand(const BenchOptions& options, const std::string& selfExe, std::ostream& out,
                 std::ostream& err) {
  if (options.rssChildKeys) return rssChild(*options.rssChildKeys, options.rssChildEvents);
  for (const std::string& w : options.only) {
    if (w.size() != 1 || w[0] < '1' || w[0] > '7') {
      err << fmt::format("streamsim bench: --only '{}': expected a workload number 1..7\n", w);
      return 2;
    }
  }
  auto selected = [&](char w) {
    return options.only.empty() ||
           std::find(options.only.begin(), options.only.end(), std::string(1, w)) != options.only.end();
  };
  std::optional<SavedRun> saved;
  if (!options.compare.empty()) {
    auto read = readSavedRun(options.compare);
    if (!read.ok()) {
      err << "streamsim bench: " << read.status().message() << "\n";
      return 2;
    }
    saved = std::move(*read);
  }
  auto t0 = Clock::now();
  bool ok = true;
  const bool quick = options.quick;
  const int64_t fewKeys = quick ? 1'000 : 10'000;
  const int64_t manyKeys = quick ? 20'000 : 1'000'000;
  std::vector<BenchRow> rows;
  auto add = [&](std::vector<BenchRow> more) {
    for (auto& r : more) rows.push_back(std::move(r));
  };
  double mem1 = 0, mem2 = 0;
  if (selected('1') || selected('2')) {
    add(countWorkload("1a", StateStoreKind::kMemory, fewKeys, quick, &mem1, 0, ok));
    add(countWorkload("1b", StateStoreKind::kMemory, manyKeys, quick, &mem2, 0, ok));
    if (!selected('1')) rows.clear();
  }
  if (selected('2')) {
    add(countWorkload("2a", StateStoreKind::kRocksDB, fewKeys, quick, nullptr, mem1, ok));
    add(countWorkload("2b", StateStoreKind::kRocksDB, manyKeys, quick, nullptr, mem2, ok));
  }
  if (selected('3')) add(accelerationWorkload(quick, ok));
  if (selected('4')) add(sweepWorkload(quick, ok));
  if (selected('5')) add(memoryWorkload(selfExe, quick, ok));
  if (selected('6')) add(asyncWorkload(quick, fewKeys, ok));
  if (selected('7')) add(realTimeWorkload(quick, ok));
  double total = secondsSince(t0);
  if (options.json)
    out << toJson(rows, quick, total).dump(2) << "\n";
  else
    printTable(rows, quick, total, out);
  if (saved && !options.json) printComparison(rows, *saved, quick, options.compare, out);
  if (!ok) err << "streamsim bench: a workload's output did not check out (see its note)\n";
  return ok ? 0 : 1;
}

}  // namespace streamsim::bench
