// Workload 7 (workload.h): real-time mode (seed 004, docs/real-time.md).
#include "bench/workload.h"

#include <algorithm>

#include <fmt/format.h>

#include "bench/bench_support.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/query.h"
#include "streamsim/sim/kafka_log.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::bench {
// Workload 7: real-time mode (seed 004, docs/real-time.md). One Kafka-like log — `records` rows
// over `keys` keys on 4 partitions, one every `gapMs` of virtual time — counted per key by the
// count processor on RocksDB, once in real-time mode (5-minute long batches, 1 ms per record and
// a 5 ms sink) and once in micro-batch mode (a 5-minute processingTime trigger) over the same log.
// 7a: real-time records/s of wall time next to micro-batch's. 7b: the p99 end-to-end latency in
// virtual time (arrival to sink) next to micro-batch's over the same records: a record's latency
// there is its batch's trigger time minus its arrival.

namespace {

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

}  // namespace

std::vector<BenchRow> realTimeWorkload(BenchContext& ctx, bool& ok) {
  const bool quick = ctx.quick;
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

}  // namespace streamsim::bench
