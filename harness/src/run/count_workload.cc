// The count workload (run/count_workload.h).
#include "streamsim/harness/run/count_workload.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "streamsim/io/file_source.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness {
namespace {

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

}  // namespace

SinkFactory countingSink(std::shared_ptr<CountCheck> check) {
  return [check] { return std::make_unique<CountingSink>(check); };
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string countKeyName(int64_t k) { return fmt::format("k{:07d}", k); }

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
      for (int64_t k : touched) u.emplace_back(countKeyName(k), counts[k]);
      in.updates.push_back(std::move(u));
    }
    in.names.push_back(fmt::format("/landing/part-{:05d}.json", f));
    in.contents.push_back(std::move(text));
  }
  return in;
}

CountRun runCountEngine(const CountInput& in, StateStoreKind kind, ProcessorFactory factory,
                         ServiceDirectory* services, int64_t* virtualMs, bool checkCounts) {
  CountRun run;
  PlainWorld w;
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
  spec.processorFactory = factory;
  spec.processorName = "count";
  spec.outputMode = OutputMode::kUpdate;
  auto counts = std::make_shared<CountCheck>();
  DataStreamWriter writer = readStream(*source)
                                .transform([spec] { return makeTransformWithState(spec); })
                                .writeStream();
  writer.sink(countingSink(counts))
      .outputMode(OutputMode::kUpdate)
      .option("checkpointLocation", "/chk")
      .option("stateStore", std::string(stateStoreKindName(kind)));

  const auto t0 = std::chrono::steady_clock::now();
  const TimeMs virtual0 = w.clock.nowMs();
  auto query = writer.start(w.env);
  if (!check(query.status())) return run;
  if (!check((*query)->processAllAvailable())) return run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (virtualMs) *virtualMs = w.clock.nowMs() - virtual0;
  run.batches = (*query)->nextBatchId();
  if (run.batches != in.files)
    run.error = fmt::format("ran {} batches, expected {}", run.batches, in.files);
  else if (counts->rows != in.expectedRows ||
           (checkCounts && counts->countSum != in.expectedCountSum))
    run.error = "the count processor's output differs from the expected counts";
  return run;
}

CountWorkloadRun runCountWorkload(const ProcessorFactory& processor, int64_t events, int64_t keys, int files) {
  CountInput in = makeCountInput(events, keys, files, false);
  CountRun run = runCountEngine(in, StateStoreKind::kMemory, processor);
  CountWorkloadRun out;
  out.eventsPerSecond = run.seconds > 0 ? static_cast<double>(events) / run.seconds : 0;
  out.error = run.error;
  out.contents = std::move(in.contents);
  return out;
}

}  // namespace streamsim::harness
