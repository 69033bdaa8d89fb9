// The scenario runner (scenario_runner.h): Scenario -> query + harness actions, one action per
// step (actions.h), checks done against what a reader of the sink sees.
#include "streamsim/harness/scenario_runner.h"
#include "streamsim/harness/recording_writer.h"

#include <algorithm>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "streamsim/fault_points.h"
#include "streamsim/harness/actions.h"
#include "streamsim/harness/committed_state.h"
#include "streamsim/harness/foreach_writers.h"
#include "streamsim/harness/keep_files.h"
#include "streamsim/harness/oracles/reference.h"
#include "streamsim/harness/oracles/scenario_variants.h"
#include "streamsim/harness/oracles/table.h"
#include "streamsim/harness/row_diff.h"
#include "streamsim/harness/run/clean_restarts.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/checkpoint/file_sink_log.h"
#include "streamsim/io/console_sink.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/foreach_sink.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/sim/kafka_log.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"
#include "streamsim/ops/dedup.h"
#include "streamsim/ops/window_aggregation.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/transform_with_state.h"

namespace streamsim::harness {

std::string ScenarioRunResult::report() const {
  std::string out;
  if (!setupError.ok()) out += "  cannot run: " + setupError.message() + "\n";
  for (const auto& f : failures) {
    out += fmt::format("  {}: {}\n", f.where.toString(), f.message);
  }
  for (const auto& v : violations) {
    std::string text = v.toString();
    if (!text.empty() && text.back() == '\n') text.pop_back();
    out += "  oracle " + text + "\n";
  }
  return out;
}

sim::FaultKnobs sweepKnobs(const Scenario& sc) {
  sim::FaultKnobs k;
  k.partitions = sc.query.shufflePartitions;
  k.checkpointDir = sc.query.checkpoint;
  k.realTime = sc.query.trigger.kind == TriggerSpec::Kind::kRealTime;
  if (sc.sweep) {
    k.points = sc.sweep->crashPoints;
    k.maxCrashes = sc.sweep->maxCrashes;
    k.tornWrites = sc.sweep->tornWrites;
    k.taskFailureProbability = sc.sweep->taskFailures;
    k.ioErrorProbability = sc.sweep->ioErrors;
    k.landingFaultProbability = sc.sweep->landingFaults;
    k.batches = sc.sweep->batches;
    k.switchProbability = sc.sweep->switches;
    k.switchSteps = sc.sweep->switchSteps;
    k.downtimeMin = sc.sweep->downtimeMin;
    k.downtimeMax = sc.sweep->downtimeMax;
  }
  return k;
}

namespace {

Value jsonValue(const nlohmann::json& j) {
  if (j.is_null()) return Value();
  if (j.is_boolean()) return Value(j.get<bool>());
  if (j.is_number_integer()) return Value(j.get<int64_t>());
  if (j.is_number()) return Value(j.get<double>());
  if (j.is_string()) return Value(j.get<std::string>());
  // A struct or map column written as an object, an array as an array (Spark's JSON layout):
  // read back as a map and an array, typed like the expected rows by typedLike.
  if (j.is_array()) {
    std::vector<Value> elements;
    for (const auto& e : j) elements.push_back(jsonValue(e));
    return Value::arrayOf(std::move(elements));
  }
  if (j.is_object()) {
    std::vector<std::pair<Value, Value>> entries;
    for (auto it = j.begin(); it != j.end(); ++it) entries.emplace_back(Value(it.key()), jsonValue(*it));
    auto m = Value::mapOf(std::move(entries));
    if (m.ok()) return std::move(m).value();
  }
  return Value(j.dump());
}

Result<std::vector<Row>> parseJsonLines(const std::string& path, const std::string& text) {
  std::vector<Row> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return Status::Corruption(fmt::format("{}: not a JSON object: {}", path, line));
    std::vector<std::pair<std::string, Value>> named;
    for (auto it = j.begin(); it != j.end(); ++it) named.emplace_back(it.key(), jsonValue(*it));
    out.push_back(Row::fromNamed(std::move(named)));
  }
  return out;
}

// The key of the output rows in update mode: the last stateful operator's grouping columns
// (a window aggregation's also window_start and window_end).
std::vector<std::string> outputKeys(const Scenario& sc) {
  std::vector<std::string> keys;
  for (const auto& op : sc.query.operators) {
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) keys = t->groupBy;
    if (auto* w = std::get_if<WindowAggregationOp>(&op.op)) {
      keys = w->groupBy;
      keys.push_back("window_start");
      keys.push_back("window_end");
    }
  }
  return keys;
}

// What a reader of a file sink's folder sees: the files each batch listed in
// _spark_metadata/N, JSON typed as written (no schema needed: the scenario does not declare the
// output schema). In update mode the view is the latest row per key.
class FileSinkView final : public SinkView {
 public:
  FileSinkView(SimEnv& sim, std::string path, bool update, std::vector<std::string> keys)
      : sim_(sim), path_(std::move(path)), update_(update), keys_(std::move(keys)) {}
  Result<std::vector<Row>> rows() override {
    STREAMSIM_ASSIGN_OR_RETURN(auto perBatch, batches());
    std::vector<Row> all;
    for (auto& [id, rows] : perBatch) all.insert(all.end(), rows.begin(), rows.end());
    return update_ ? latestPerKey(all, keys_) : all;
  }
  // Batch N's rows: the files _spark_metadata/N (or N.compact) lists that no earlier batch did.
  Result<std::map<int64_t, std::vector<Row>>> batches() override {
    std::map<int64_t, std::vector<Row>> out;
    if (!sim_.fs().exists(path_)) return out;
    FileSinkLog log(sim_.env(), path_);
    STREAMSIM_ASSIGN_OR_RETURN(auto ids, log.listBatchIds());
    std::set<std::string> listed;
    for (int64_t id : ids) {
      STREAMSIM_ASSIGN_OR_RETURN(auto entries, log.get(id));
      auto& rows = out[id];
      if (!entries) continue;
      for (const auto& e : *entries) {
        if (e.isDir || e.action != kSinkAddAction) continue;
        std::string file = stripFileUri(e.path);
        if (!listed.insert(file).second) continue;
        auto text = sim_.fs().read(file);
        if (!text.ok())
          return Status::NotFound(fmt::format("{} is listed in {}/{} but cannot be read: {}", file,
                                              log.dir(), id, text.status().message()));
        STREAMSIM_ASSIGN_OR_RETURN(auto parsed, parseJsonLines(file, *text));
        rows.insert(rows.end(), parsed.begin(), parsed.end());
      }
    }
    return out;
  }
  std::string description() const override { return "files " + path_; }

 private:
  SimEnv& sim_;
  std::string path_;
  bool update_;
  std::vector<std::string> keys_;
};

// The foreach sink as its writer saw it: every row processed (duplicates included).
class ForeachView final : public SinkView {
 public:
  explicit ForeachView(std::shared_ptr<RecordingWriter> writer) : writer_(std::move(writer)) {}
  Result<std::vector<Row>> rows() override { return writer_->rows; }
  Result<std::map<int64_t, std::vector<Row>>> batches() override {
    std::map<int64_t, std::vector<Row>> out;
    for (size_t i = 0; i < writer_->rows.size(); ++i)
      out[writer_->batchOf[i]].push_back(writer_->rows[i]);
    return out;
  }
  std::string description() const override { return "foreach writer (every row processed)"; }

 private:
  std::shared_ptr<RecordingWriter> writer_;
};

// The console sink as a person reading the driver's output takes it: for each batch, its latest
// print (a batch a crash made it print again shows twice in the text, once here).
class ConsoleView final : public SinkView {
 public:
  explicit ConsoleView(std::shared_ptr<ConsoleOutput> out) : out_(std::move(out)) {}
  Result<std::vector<Row>> rows() override {
    std::vector<Row> out;
    for (auto& [batch, rows] : latest()) out.insert(out.end(), rows.begin(), rows.end());
    return out;
  }
  Result<std::map<int64_t, std::vector<Row>>> batches() override { return latest(); }
  std::string description() const override { return "console (each batch's latest print)"; }
  const ConsoleOutput& output() const { return *out_; }

 private:
  std::map<int64_t, std::vector<Row>> latest() const {
    std::map<int64_t, std::vector<Row>> out;
    for (const auto& p : out_->printed()) out[p.batchId] = p.rows;
    return out;
  }
  std::shared_ptr<ConsoleOutput> out_;
};

// A Kafka-like output topic as a consumer reads it: every record (duplicates of an at-least-once
// sink included), a JSON object value as its columns, anything else as {key, value}; the batch
// of each from the record's streamsim.batch header.
class KafkaTopicView final : public SinkView {
 public:
  KafkaTopicView(std::shared_ptr<sim::KafkaLog> log, std::string topic)
      : log_(std::move(log)), topic_(std::move(topic)) {}
  Result<std::vector<Row>> rows() override {
    std::vector<Row> out;
    batch_of_.clear();
    for (const LogRecord& r : log_->all(topic_)) {
      auto j = nlohmann::json::parse(r.value, nullptr, false);
      if (!j.is_discarded() && j.is_object()) {
        std::vector<std::pair<std::string, Value>> named;
        for (auto it = j.begin(); it != j.end(); ++it) named.emplace_back(it.key(), jsonValue(*it));
        out.push_back(Row::fromNamed(std::move(named)));
      } else {
        out.push_back(Row::fromNamed({{"key", r.key ? Value(*r.key) : Value()}, {"value", Value(r.value)}}));
      }
      int64_t batch = -1;
      for (const auto& [k, v] : r.headers)
        if (k == kKafkaBatchHeader) batch = std::atoll(v.c_str());
      batch_of_.push_back(batch);
    }
    return out;
  }
  Result<std::map<int64_t, std::vector<Row>>> batches() override {
    STREAMSIM_ASSIGN_OR_RETURN(auto all, rows());
    std::map<int64_t, std::vector<Row>> out;
    for (size_t i = 0; i < all.size(); ++i) out[batch_of_[i]].push_back(all[i]);
    return out;
  }
  std::string description() const override { return "kafka topic " + topic_ + " (every record)"; }
  const std::vector<int64_t>& batchOf() const { return batch_of_; }

 private:
  std::shared_ptr<sim::KafkaLog> log_;
  std::string topic_;
  std::vector<int64_t> batch_of_;
};

// Expected rows as written, with each value cast to the type its column has in `actual`.
std::vector<Row> typedLike(const std::vector<RowSpec>& expected, const std::vector<Row>& actual) {
  std::map<std::string, Field> types;  // a nested column's element types too
  for (const auto& r : actual)
    for (size_t i = 0; i < r.size(); ++i)
      if (!r[i].isNull()) types.emplace(r.schema()->field(i).name, fieldOf(r.schema()->field(i).name, r[i]));
  std::vector<Row> out;
  for (const auto& spec : expected) {
    std::vector<std::pair<std::string, Value>> named;
    for (const auto& [name, value] : spec.fields) {
      Value v = value;
      auto t = types.find(name);
      if (t != types.end() && !v.isNull() && (v.type() != t->second.type || v.isNested())) {
        auto cast = v.castTo(t->second);
        if (cast.ok()) v = *cast;
      }
      named.emplace_back(name, v);
    }
    out.push_back(Row::fromNamed(std::move(named)));
  }
  return out;
}

// Multiset difference a - b.
std::vector<Row> minus(std::vector<Row> a, const std::vector<Row>& b) {
  for (const auto& r : b) {
    auto it = std::find(a.begin(), a.end(), r);
    if (it != a.end()) a.erase(it);
  }
  return a;
}

Result<OperatorFactory> buildOperator(const OperatorSpec& spec) {
  if (auto* d = std::get_if<DropDuplicatesOp>(&spec.op)) {
    auto cols = d->columns;
    if (d->withinWatermark) return OperatorFactory([cols] { return makeDropDuplicatesWithinWatermark(cols); });
    return OperatorFactory([cols] { return makeDropDuplicates(cols); });
  }
  if (auto* w = std::get_if<WindowAggregationOp>(&spec.op)) {
    WindowAggregationSpec s;
    s.groupBy = w->groupBy;
    s.window = {w->timeColumn, w->windowMs, w->slideMs, w->startTimeMs};
    for (const auto& a : w->aggregates) {
      Aggregate agg;
      agg.function = a.function == "sum"   ? AggregateFunction::kSum
                     : a.function == "min" ? AggregateFunction::kMin
                     : a.function == "max" ? AggregateFunction::kMax
                     : a.function == "avg" ? AggregateFunction::kAvg
                                           : AggregateFunction::kCount;
      agg.column = a.column;
      agg.outputName = a.as;
      s.aggregates.push_back(agg);
    }
    STREAMSIM_RETURN_IF_ERROR(validateWindowAggregation(s));
    return OperatorFactory([s] { return makeWindowAggregation(s); });
  }
  if (auto* t = std::get_if<TransformWithStateOp>(&spec.op)) {
    TransformWithStateSpec s;
    s.groupBy = t->groupBy;
    if (!t->pythonFile.empty()) {
      STREAMSIM_ASSIGN_OR_RETURN(
          s.processorFactory,
          loadPythonProcessor({t->pythonFile, t->pythonClass, t->outputStructType, t->inPandas, {}}));
    } else {
      STREAMSIM_ASSIGN_OR_RETURN(s.processorFactory,
                                 ProcessorRegistry::factory(t->processor, t->params));
    }
    s.processorName = t->processor;
    STREAMSIM_ASSIGN_OR_RETURN(s.timeMode, parseTimeMode(t->timeMode));
    if (t->outputMode) {
      STREAMSIM_ASSIGN_OR_RETURN(OutputMode m, parseOutputMode(*t->outputMode));
      s.outputMode = m;
    }
    s.eventTimeColumnName = t->eventTimeColumn;
    if (!t->initialState.empty()) {
      std::vector<Row> rows;
      for (const auto& r : t->initialState) rows.push_back(r.toRow());
      s.initialState = rows;
    }
    return OperatorFactory([s] { return makeTransformWithState(s); });
  }
  return Status::InvalidArgument("unsupported operator");
}

class Runner {
 public:
  Runner(const Scenario& sc, const ScenarioRunOptions& options)
      : sc_(sc), options_(options), sim_(simOptions(sc, options)) {
    if (options.recordReach) {
      sim_.injector().recordReach();
      sim_.recordSchedulingChoices();
    }
  }

  ScenarioRunResult run() {
    ScenarioRunResult result;
    Status st = build();
    if (!st.ok()) {
      result.setupError = st;
      return result;
    }
    std::vector<Action> actions;
    std::vector<SourceLocation> where;
    for (const auto& step : sc_.steps) addStep(step, actions, where);
    // What the oracles read: the sink's reader view after the last step.
    push(actions, where,
         AssertOnQuery{[this](StreamTestContext& ctx) -> Status {
                         auto rows = ctx.sink.rows();
                         if (rows.ok()) final_rows_ = *rows;
                         if (foreach_) final_batch_of_ = foreach_->batchOf;
                         if (kafka_view_) final_batch_of_ = kafka_view_->batchOf();
                         return Status::OK();
                       },
                       "read the sink for the oracles"},
         SourceLocation{sc_.file, 0, 0});
    if (!setup_.ok()) {
      result.setupError = setup_;
      return result;
    }
    StreamTestOptions so;
    so.supervisor.restartPlannedCrashes = options_.faultPlan.has_value();
    so.unfiredCrashFails = true;
    StreamTestResult r = runStreamTest(sim_, query_, std::move(actions), so);
    if (r.startError.code() == Status::Code::kInvalidArgument) {
      // Bad input found when the query starts (an option, a column, the checkpoint folder) is
      // the scenario's: exit 2 at the step that started it, or at `query:`.
      SourceLocation at = r.failedAction >= 0 && r.failedAction < static_cast<int>(where.size())
                              ? where[r.failedAction]
                              : sc_.query.where;
      result.setupError = Status::InvalidArgument(fmt::format(
          "{}: the query cannot start: {}", at.toString(), r.startError.message()));
      return result;
    }
    if (!r.status.ok()) {
      SourceLocation at = r.failedAction >= 0 && r.failedAction < static_cast<int>(where.size())
                              ? where[r.failedAction]
                              : SourceLocation{sc_.file, 0, 0};
      std::string msg = failure_.empty() ? r.status.message() : failure_;
      result.failures.push_back({at, msg});
    }
    if (options_.keepFs != nullptr)
      if (Status kept = copyFileTree(sim_.fs(), "/", *options_.keepFs, options_.keepDir); !kept.ok())
        result.failures.push_back({SourceLocation{sc_.file, 0, 0}, kept.message()});
    result.collect(sim_);
    result.restarts = r.restarts;
    result.traceHash = sim_.trace().fingerprintHex();
    result.actual = std::move(actual_);
    result.sinkRows = std::move(final_rows_);
    result.sinkBatchOf = std::move(final_batch_of_);
    result.delivered = delivered_;
    if (sc_.stateBoundPerKey) {  // the state_bound oracle per key
      auto rows = committedStateRowsPerKey(sim_.env(), sc_.query.checkpoint, storeKind());
      if (rows.ok()) result.stateRowsPerKey = std::move(*rows);
      else result.setupError = rows.status().withContext("reading the final state's rows per key");
    }
    if (options_.collectState) {
      auto dump = dumpCommittedState(sim_.env(), sc_.query.checkpoint, storeKind(), false);
      if (dump.ok()) result.committedState = std::move(*dump);
      else result.setupError = dump.status().withContext("reading the final state");
    } else if (std::find(sc_.oracles.begin(), sc_.oracles.end(), "interleaving") != sc_.oracles.end()) {
      auto state = dumpCommittedState(sim_.env(), sc_.query.checkpoint, storeKind(), true);
      if (state.ok()) result.committedState = std::move(*state);
    }
    return result;
  }

 private:
  static SimEnvOptions simOptions(const Scenario& sc, const ScenarioRunOptions& o) {
    SimEnvOptions s;
    s.seed = o.seed;
    s.startTimeMs = sc.start;
    if (o.faultPlan) s.faultPlan = *o.faultPlan;
    for (const ServiceSpec& svc : sc.services)
      s.services.push_back(sim::SimulatedServiceSpec{svc.name, svc.minLatencyMs, svc.maxLatencyMs,
                                                     svc.errors, svc.slow, svc.slowLatencyMs});
    return s;
  }

  Status build() {
    const QuerySpec& q = sc_.query;
    std::vector<SourceFactory> sources;
    for (const auto& s : q.sources) {
      if (s.kind == SourceSpec::Kind::kKafka) {
        memory_.push_back(nullptr);
        STREAMSIM_RETURN_IF_ERROR(log_->createTopic(s.topic, sim::TopicConfig{s.partitions, s.retentionMs})
                                      .withContext(s.where.toString() + ": source"));
        auto f = makeKafkaSource(log_, s.options);
        if (!f.ok()) return f.status().withContext(s.where.toString() + ": source");
        sources.push_back(*f);
      } else if (s.kind == SourceSpec::Kind::kMemory) {
        auto data = std::make_shared<MemoryStreamData>(s.schema);
        memory_.push_back(data);
        sources.push_back(makeMemorySource(data));
      } else {
        memory_.push_back(nullptr);
        STREAMSIM_RETURN_IF_ERROR(sim_.fs().mkdirs(s.path));
        auto f = makeFileSource(s.path, s.schema, s.options);
        if (!f.ok()) return f.status().withContext(s.where.toString() + ": source");
        sources.push_back(*f);
      }
    }
    if (!sc_.reference.empty()) {  // the reference oracle reads what each source delivered
      delivered_ = std::make_shared<DeliveredRows>();
      for (size_t i = 0; i < sources.size(); ++i)
        sources[i] = recordingSource(std::move(sources[i]), static_cast<int>(i), delivered_);
    }
    sources_ = std::move(sources);
    STREAMSIM_ASSIGN_OR_RETURN(OutputMode mode, parseOutputMode(q.outputMode));
    std::shared_ptr<SinkView> view;
    if (q.sink.kind == SinkSpec::Kind::kFiles) {
      sink_ = makeFileSink(q.sink.path);
      view = std::make_shared<FileSinkView>(sim_, q.sink.path, mode == OutputMode::kUpdate,
                                            outputKeyColumns());
    } else if (q.sink.kind == SinkSpec::Kind::kMemory) {
      auto data = std::make_shared<MemorySinkData>();
      sink_ = makeMemorySink(data);
      view = memorySinkView(std::move(data));
    } else if (q.sink.kind == SinkSpec::Kind::kKafka) {
      STREAMSIM_RETURN_IF_ERROR(log_->createTopic(q.sink.topic, sim::TopicConfig{q.sink.partitions, 0})
                                    .withContext(q.sink.where.toString() + ": sink"));
      sink_ = makeKafkaSink(log_, q.sink.topic);
      kafka_view_ = std::make_shared<KafkaTopicView>(log_, q.sink.topic);
      view = kafka_view_;
    } else if (q.sink.kind == SinkSpec::Kind::kConsole) {
      console_ = std::make_shared<ConsoleOutput>();
      sink_ = makeConsoleSink(console_, ConsoleSinkOptions{q.sink.numRows, q.sink.truncate});
      view = std::make_shared<ConsoleView>(console_);
    } else {
      std::shared_ptr<ForeachWriter> user;
      if (!q.sink.writer.empty()) {
        STREAMSIM_ASSIGN_OR_RETURN(ForeachWriterFactory make, ForeachWriterRegistry::factory(q.sink.writer));
        user = make();
      }
      foreach_ = std::make_shared<RecordingWriter>(std::move(user));
      sink_ = makeForeachSink(foreach_, q.shufflePartitions);
      view = std::make_shared<ForeachView>(foreach_);
    }
    STREAMSIM_ASSIGN_OR_RETURN(DataStreamWriter writer, writerFor(q));
    query_ = TestQuery{writer, view};
    return Status::OK();
  }

  // The writer of `q` on this run's sources and sink: the scenario's query, or the one a
  // `restart: {query: ...}` step switches to (the loader lets it change only the operators,
  // output mode, trigger and options; the sources, sink and checkpoint stay).
  Result<DataStreamWriter> writerFor(const QuerySpec& q) {
    DataFrame df = readStream(sources_);
    for (const auto& op : q.operators) {
      if (auto* w = std::get_if<WatermarkOp>(&op.op)) {
        df = df.withWatermark(w->column, w->delayMs);
      } else if (auto* s = std::get_if<SelectOp>(&op.op)) {
        df = df.select(s->columns);
      } else if (auto* j = std::get_if<JoinOp>(&op.op)) {
        df = df.join(StaticTable{j->schema, j->rows}, j->on, j->how);
      } else {
        auto f = buildOperator(op);
        if (!f.ok()) return f.status().withContext(op.where.toString() + ": " + std::string(op.kindName()));
        df = df.transform(*f);
      }
    }
    DataStreamWriter writer = df.writeStream();
    writer.option("checkpointLocation", q.checkpoint);
    writer.option("spark.sql.shuffle.partitions", std::to_string(q.shufflePartitions));
    // Real-time mode defaults to RocksDB: the store is passed on only when the file names one.
    if (q.stateStoreSet || q.trigger.kind != TriggerSpec::Kind::kRealTime) writer.option("stateStore", q.stateStore);
    writer.option("taskRetries", std::to_string(q.taskRetries));
    for (const auto& [k, v] : q.conf) writer.option(k, v);
    STREAMSIM_ASSIGN_OR_RETURN(OutputMode mode, parseOutputMode(q.outputMode));
    writer.outputMode(mode);
    switch (q.trigger.kind) {
      case TriggerSpec::Kind::kDefault: writer.trigger(Trigger::Default()); break;
      case TriggerSpec::Kind::kProcessingTime: writer.trigger(Trigger::ProcessingTime(q.trigger.intervalMs)); break;
      case TriggerSpec::Kind::kAvailableNow: writer.trigger(Trigger::AvailableNow()); break;
      case TriggerSpec::Kind::kOnce: writer.trigger(Trigger::Once()); break;
      case TriggerSpec::Kind::kRealTime: writer.trigger(Trigger::RealTime(q.trigger.intervalMs)); break;
    }
    if (options_.noDataBatchBeforeFirstBatchOfRun) {
      QueryOptions qo = writer.queryOptions();
      qo.noDataBatchBeforeFirstBatchOfRun = true;
      writer.options(std::move(qo));
    }
    writer.sink(sink_);
    return writer;
  }

  std::vector<std::string> outputKeyColumns() const { return outputKeys(sc_); }

  std::string rowsText(const std::vector<RowSpec>& rows, const Schema* schema, std::vector<Row>* out) {
    for (const auto& r : rows) {
      if (schema) {
        auto row = r.toRow(*schema);
        if (!row.ok()) return r.where.toString() + ": " + row.status().message();
        out->push_back(*row);
      } else {
        out->push_back(r.toRow());
      }
    }
    return {};
  }

  void setupFail(const SourceLocation& where, std::string msg) {
    if (setup_.ok()) setup_ = Status::InvalidArgument(where.toString() + ": " + msg);
  }

  void push(std::vector<Action>& actions, std::vector<SourceLocation>& where, Action a,
            const SourceLocation& at) {
    actions.push_back(std::move(a));
    where.push_back(at);
  }

  // A run step. Under a fault plan the driver restarts after the plan's crashes until the
  // step's work is done (StreamTestOptions::supervisor).
  void addRun(const RunStep& r, std::vector<Action>& actions, std::vector<SourceLocation>& where,
              const SourceLocation& at) {
    if (r.batches) push(actions, where, RunBatches{*r.batches}, at);
    else push(actions, where, ProcessAllAvailable{}, at);
  }

  void addStep(const Step& step, std::vector<Action>& actions, std::vector<SourceLocation>& where) {
    const SourceLocation& at = step.where;
    const Schema* schema = !sc_.query.sources.empty() && sc_.query.sources[0].schema
                               ? sc_.query.sources[0].schema.get()
                               : nullptr;
    std::visit(
        [&](const auto& s) {
          using T = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<T, PutStep> || std::is_same_v<T, PutPartialStep>) {
            AddFile file;
            if (s.text) {
              file = AddFile{s.path, *s.text};
            } else {
              std::vector<Row> rows;
              std::string bad = rowsText(s.rows, schema, &rows);
              if (!bad.empty()) return setupFail(at, bad);
              file = AddJsonFile(s.path, rows);
            }
            if constexpr (std::is_same_v<T, PutPartialStep>) {
              size_t n = s.visibleBytes ? static_cast<size_t>(*s.visibleBytes)
                                        : static_cast<size_t>(file.content.size() * *s.fraction);
              file.visibleBytes = std::min(n, file.content.size());
            }
            push(actions, where, file, at);
            if constexpr (std::is_same_v<T, PutStep>) {
              if (s.mtime) push(actions, where, TouchFile{s.path, *s.mtime}, at);
            }
          } else if constexpr (std::is_same_v<T, ResendStep>) {
            push(actions, where, ResendFile{s.from, s.to}, at);
            if (s.mtime) push(actions, where, TouchFile{s.to, *s.mtime}, at);
          } else if constexpr (std::is_same_v<T, TouchStep>) {
            push(actions, where, TouchFile{s.path, s.mtime}, at);
          } else if constexpr (std::is_same_v<T, DeleteStep>) {
            push(actions, where, DeleteFile{s.path}, at);
          } else if constexpr (std::is_same_v<T, AddRowsStep>) {
            if (s.source >= static_cast<int>(memory_.size()) || !memory_[s.source])
              return setupFail(at, "add_rows needs a memory source");
            std::vector<Row> rows;
            for (const auto& r : s.rows) rows.push_back(r.toRow());
            push(actions, where, AddData{memory_[s.source], rows}, at);
          } else if constexpr (std::is_same_v<T, AdvanceStep>) {
            if (s.by && s.triggerOnce) {
              push(actions, where, AdvanceManualClock{*s.by}, at);
            } else if (s.by) {
              push(actions, where, AdvanceClock{*s.by}, at);
            } else {
              TimeMs to = *s.to;
              push(actions, where,
                   AssertOnQuery{[to](StreamTestContext& ctx) -> Status {
                                   if (ctx.sim.clock().nowMs() > to)
                                     return Status::InvalidArgument(fmt::format(
                                         "advance to {}: the clock is already at {}",
                                         formatTimestamp(to), formatTimestamp(ctx.sim.clock().nowMs())));
                                   ctx.sim.clock().set(to);
                                   return Status::OK();
                                 },
                                 "advance to " + formatTimestamp(to)},
                   at);
            }
          } else if constexpr (std::is_same_v<T, RunStep>) {
            addRun(s, actions, where, at);
          } else if constexpr (std::is_same_v<T, ProduceStep>) {
            addProduce(s, actions, where, at);
          } else if constexpr (std::is_same_v<T, CrashStep>) {
            if (options_.skipCrashSteps) return;
            if (s.now) {
              push(actions, where, Crash{}, at);
            } else {
              push(actions, where, Crash{s.at, s.batch, s.partition, s.nth}, at);
            }
          } else if constexpr (std::is_same_v<T, RestartStep>) {
            if (!s.query) {
              push(actions, where, Restart{s.after}, at);
              return;
            }
            // The driver goes down as in a plain restart, then comes back with the other query
            // on the same checkpoint (later restarts keep it).
            auto writer = writerFor(*s.query);
            if (!writer.ok()) return setupFail(at, writer.status().message());
            push(actions, where, Crash{}, at);
            push(actions, where, StartStream{*writer}, at);
          } else if constexpr (std::is_same_v<T, StopStep>) {
            push(actions, where, StopStream{}, at);
          } else if constexpr (std::is_same_v<T, ExpectStep>) {
            if (!options_.skipExpectations) {
              addExpect(s, actions, where, at);
            } else if (s.error) {
              // An expected error steers the run (the query is down after it), so a run that
              // skips the checks still takes it, or a failed start would end that run.
              push(actions, where, ExpectFailure{*s.error, std::nullopt, s.errorCondition, s.errorParameters}, at);
            }
          }
        },
        step.step);
  }

  // produce: the records are appended to the topic at their times (default: the clock's now).
  void addProduce(const ProduceStep& p, std::vector<Action>& actions,
                  std::vector<SourceLocation>& where, const SourceLocation& at) {
    auto log = log_;
    push(actions, where,
         AssertOnQuery{[log, p](StreamTestContext& ctx) -> Status {
                         for (const ProduceRecord& r : p.records) {
                           TimeMs t = r.at.value_or(p.at.value_or(ctx.sim.clock().nowMs()));
                           STREAMSIM_RETURN_IF_ERROR(
                               log->produce(p.topic, r.key, r.value, t, r.partition, r.duplicates)
                                   .status()
                                   .withContext(r.where.toString()));
                         }
                         return Status::OK();
                       },
                       fmt::format("produce {} record(s) to {}", p.records.size(), p.topic)},
         at);
  }

  void addExpect(const ExpectStep& e, std::vector<Action>& actions,
                 std::vector<SourceLocation>& where, const SourceLocation& at) {
    if (e.error)
      push(actions, where, ExpectFailure{*e.error, std::nullopt, e.errorCondition, e.errorParameters}, at);
    for (const auto& st : e.state) addStateExpect(st, actions, where);
    for (const auto& t : e.timers) addTimersExpect(t, actions, where);
    // new_rows first: both read the rows since the last sink/new_rows expectation.
    if (e.newRows) {
      auto expected = *e.newRows;
      SourceLocation w = e.newRowsWhere;
      push(actions, where,
           AssertOnQuery{[this, expected, w](StreamTestContext& ctx) -> Status {
                           STREAMSIM_ASSIGN_OR_RETURN(auto fresh, newRows(ctx));
                           RowDiff d = diffRows(typedLike(expected, fresh), fresh);
                           if (options_.collectActual)
                             actual_.push_back({w, "new_rows", fresh, d.equal});
                           if (d.equal) return Status::OK();
                           failure_ = "the new rows differ:\n" + d.report;
                           return Status::FailedPrecondition(failure_);
                         },
                         "expect new_rows"},
           at);
    }
    if (e.console) {
      std::string expected = *e.console;
      push(actions, where,
           AssertOnQuery{[this, expected](StreamTestContext&) -> Status {
                           std::string got = console_ != nullptr ? console_->latestText() : "";
                           if (got == expected) return Status::OK();
                           failure_ = "the console output differs: expected\n" + expected + "got\n" + got;
                           return Status::FailedPrecondition(failure_);
                         },
                         "expect console"},
           at);
    }
    if (e.sink) {
      auto expected = *e.sink;
      SourceLocation w = e.sinkWhere;
      push(actions, where,
           AssertOnQuery{[this, expected, w](StreamTestContext& ctx) -> Status {
                           STREAMSIM_ASSIGN_OR_RETURN(auto rows, ctx.sink.rows());
                           STREAMSIM_RETURN_IF_ERROR(markSeen(ctx, rows));
                           RowDiff d = diffRows(typedLike(expected, rows), rows);
                           if (options_.collectActual) actual_.push_back({w, "sink", rows, d.equal});
                           if (d.equal) return Status::OK();
                           failure_ = "the sink differs:\n" + d.report;
                           return Status::FailedPrecondition(failure_);
                         },
                         "expect sink"},
           at);
    }
    // Under a fault plan batch ids, re-runs and per-batch figures legitimately change: the
    // progress of the last batch is only checked in plain runs.
    if (!e.progress.empty() && !options_.faultPlan) {
      auto fields = e.progress;
      push(actions, where,
           AssertOnQuery{[this, fields](StreamTestContext& ctx) -> Status {
                           const auto& all = ctx.sim.allProgress();
                           if (all.empty()) return fail("expect progress: no batch has run");
                           const QueryProgress& p = all.back();
                           auto stateSum = [&](auto member) {
                             int64_t n = 0;
                             for (const auto& s : p.stateOperators) n += s.*member;
                             return n;
                           };
                           std::string diffs;
                           for (const auto& [name, want] : fields) {
                             Value got;
                             if (name == "batchId") got = Value(p.batchId);
                             else if (name == "timestamp") got = Value::timestamp(p.timestamp);
                             else if (name == "watermark") got = Value::timestamp(p.eventTime.watermark);
                             else if (name == "numInputRows") got = Value(p.numInputRows);
                             else if (name == "numOutputRows") got = Value(p.numOutputRows);
                             else if (name == "numRowsDroppedByWatermark") got = Value(p.numRowsDroppedByWatermark);
                             else if (name == "numRowsTotal") got = Value(stateSum(&StateOperatorProgress::numRowsTotal));
                             else if (name == "numRowsUpdated") got = Value(stateSum(&StateOperatorProgress::numRowsUpdated));
                             else if (name == "numRowsRemoved") got = Value(stateSum(&StateOperatorProgress::numRowsRemoved));
                             else if (name == "numTimersFired") got = Value(stateSum(&StateOperatorProgress::numTimersFired));
                             else if (name == "numValuesRemovedByTTL") got = Value(stateSum(&StateOperatorProgress::numValuesRemovedByTTL));
                             else if (name == "rerun") got = Value(p.rerun);
                             else if (name == "batchDurationMs" && p.batchDurationMs) got = Value(*p.batchDurationMs);
                             else if (name == "latencyP50" && p.latency) got = Value(p.latency->p50);
                             else if (name == "latencyP95" && p.latency) got = Value(p.latency->p95);
                             else if (name == "latencyP99" && p.latency) got = Value(p.latency->p99);
                             else if (name == "latencyMax" && p.latency) got = Value(p.latency->max);
                             else if (name == "numExpiredTimers") got = Value(stateSum(&StateOperatorProgress::numTimersFired));
                             else if (name == "numRegisteredTimers") got = Value(stateSum(&StateOperatorProgress::numRegisteredTimers));
                             else if (name == "numDeletedTimers") got = Value(stateSum(&StateOperatorProgress::numDeletedTimers));
                             else if (name == "numValuesRemovedDueToTTLExpiry") got = Value(stateSum(&StateOperatorProgress::numValuesRemovedByTTL));
                             if (!(got == want))
                               diffs += fmt::format("\n  {}: expected {}, got {}", name, want.toString(), got.toString());
                           }
                           if (diffs.empty()) return Status::OK();
                           return fail(fmt::format("progress of batch {} differs:{}", p.batchId, diffs));
                         },
                         "expect progress"},
           at);
    }
    if (e.checkpoint) {
      const auto& c = *e.checkpoint;
      if (c.offsets || c.commits) push(actions, where, CheckCheckpoint{c.offsets, c.commits}, at);
      if (!c.filesExist.empty() || !c.filesAbsent.empty()) {
        std::string root = sc_.query.checkpoint;
        auto exist = c.filesExist;
        auto absent = c.filesAbsent;
        push(actions, where,
             AssertOnQuery{[this, root, exist, absent](StreamTestContext& ctx) -> Status {
                             std::string diffs;
                             auto full = [&](const std::string& f) {
                               return !f.empty() && f[0] == '/' ? f : joinPath(root, f);
                             };
                             for (const auto& f : exist)
                               if (!ctx.sim.fs().exists(full(f))) diffs += "\n  missing: " + full(f);
                             for (const auto& f : absent)
                               if (ctx.sim.fs().exists(full(f))) diffs += "\n  present: " + full(f);
                             if (diffs.empty()) return Status::OK();
                             return fail("checkpoint files differ:" + diffs);
                           },
                           "expect checkpoint files"},
             at);
      }
    }
  }

  // The grouping key of a state/timers expectation as a Row typed like the query's input:
  // `key: a` names the first transformWithState operator's single grouping column.
  Result<Row> keyRow(const RowSpec& spec) {
    std::vector<std::string> groupBy;
    for (const auto& op : sc_.query.operators)
      if (auto* t = std::get_if<TransformWithStateOp>(&op.op)) {
        groupBy = t->groupBy;
        break;
      }
    if (groupBy.empty())
      return Status::InvalidArgument("expect state/timers needs a transformWithState operator");
    const Schema* schema = !sc_.query.sources.empty() && sc_.query.sources[0].schema
                               ? sc_.query.sources[0].schema.get()
                               : nullptr;
    std::map<std::string, Value> given;
    for (const auto& [name, value] : spec.fields) given[name] = value;
    if (spec.fields.size() == 1 && spec.fields[0].first == "key" && groupBy.size() == 1 &&
        groupBy[0] != "key") {
      given = {{groupBy[0], spec.fields[0].second}};
    }
    if (given.size() != groupBy.size())
      return Status::InvalidArgument(fmt::format(
          "the key must give the {} grouping column(s) {}; a single value only for one column",
          groupBy.size(), fmt::join(groupBy, ", ")));
    std::vector<std::pair<std::string, Value>> named;
    for (const auto& col : groupBy) {
      auto it = given.find(col);
      if (it == given.end())
        return Status::InvalidArgument(fmt::format("the key has no grouping column '{}'", col));
      Value v = it->second;
      if (schema) {
        int idx = schema->indexOf(col);
        if (idx >= 0 && !v.isNull() && (v.type() != schema->field(idx).type || v.isNested())) {
          STREAMSIM_ASSIGN_OR_RETURN(v, v.castTo(schema->field(idx)));
        }
      }
      named.emplace_back(col, v);
    }
    return Row::fromNamed(std::move(named));
  }

  StateStoreKind storeKind() const {
    const bool rocksdb = sc_.query.stateStore == "rocksdb" ||
                         (!sc_.query.stateStoreSet && sc_.query.trigger.kind == TriggerSpec::Kind::kRealTime);
    return rocksdb ? StateStoreKind::kRocksDB : StateStoreKind::kMemory;
  }

  static bool sameValue(const Value& want, const Value& got) {
    if (want == got) return true;
    if (want.isNull() || got.isNull()) return false;
    if (got.isNested() && want.isNested()) {  // typed like the stored value, then strictly
      auto cast = want.castTo(fieldOf("value", got));
      return cast.ok() && *cast == got;
    }
    auto cast = want.castTo(got.type());
    if (cast.ok() && *cast == got) return true;
    return want.toString() == got.toString();
  }

  void addStateExpect(const StateExpectation& st, std::vector<Action>& actions,
                      std::vector<SourceLocation>& where) {
    auto key = keyRow(st.key);
    if (!key.ok()) return setupFail(st.where, "state key: " + key.status().message());
    Row k = *key;
    push(actions, where,
         AssertOnQuery{[this, st, k](StreamTestContext& ctx) -> Status {
                         STREAMSIM_ASSIGN_OR_RETURN(
                             CommittedVariable stored,
                             readCommittedVariable(ctx.sim.env(), sc_.query.checkpoint,
                                                   storeKind(), k, st.variable));
                         const CommittedVariable got =
                             st.raw ? stored : stored.visibleAt(ctx.sim.clock().nowMs());
                         using K = CommittedVariable::Kind;
                         if (st.expiresAt) {
                           std::vector<std::optional<TimeMs>> have =
                               got.kind == K::kValue  ? std::vector<std::optional<TimeMs>>{got.valueExpiresAt}
                               : got.kind == K::kList ? got.listExpiresAt
                                                      : got.mapExpiresAt;
                           auto text = [](const std::vector<std::optional<TimeMs>>& v) {
                             std::string s = "[";
                             for (size_t i = 0; i < v.size(); ++i)
                               s += (i ? ", " : "") + (v[i] ? formatTimestamp(*v[i]) : std::string("null"));
                             return s + "]";
                           };
                           if (have != *st.expiresAt)
                             return fail(fmt::format("state '{}' of key {}: TTL expiries {}, expected {}",
                                                     st.variable, k.toString(), text(have),
                                                     text(*st.expiresAt)));
                         }
                         std::string want;
                         bool ok = true;
                         if (st.absent) {
                           want = "absent";
                           ok = got.kind == K::kAbsent ||
                                (got.kind == K::kList && got.list.empty()) ||
                                (got.kind == K::kMap && got.map.empty());
                         } else if (st.value) {
                           want = st.value->toString();
                           ok = got.kind == K::kValue && sameValue(*st.value, got.value);
                         } else if (st.list) {
                           CommittedVariable w;
                           w.kind = K::kList;
                           w.list = *st.list;
                           want = w.toString();
                           ok = (got.kind == K::kList || got.kind == K::kAbsent) &&
                                got.list.size() == st.list->size();
                           for (size_t i = 0; ok && i < got.list.size(); ++i)
                             ok = sameValue((*st.list)[i], got.list[i]);
                         } else if (st.map) {
                           CommittedVariable w;
                           w.kind = K::kMap;
                           w.map = *st.map;
                           std::sort(w.map.begin(), w.map.end(), [](const auto& a, const auto& b) {
                             return a.first.toString() < b.first.toString();
                           });
                           want = w.toString();
                           auto g = got.map;
                           std::sort(g.begin(), g.end(), [](const auto& a, const auto& b) {
                             return a.first.toString() < b.first.toString();
                           });
                           ok = (got.kind == K::kMap || got.kind == K::kAbsent) &&
                                g.size() == w.map.size();
                           for (size_t i = 0; ok && i < g.size(); ++i)
                             ok = sameValue(w.map[i].first, g[i].first) &&
                                  sameValue(w.map[i].second, g[i].second);
                         }
                         if (ok) return Status::OK();
                         return fail(fmt::format("state '{}' of key {} after the last commit: "
                                                 "expected {}, got {}",
                                                 st.variable, k.toString(),
                                                 want, got.toString()));
                       },
                       "expect state"},
         st.where);
  }

  void addTimersExpect(const TimerExpectation& t, std::vector<Action>& actions,
                       std::vector<SourceLocation>& where) {
    auto key = keyRow(t.key);
    if (!key.ok()) return setupFail(t.where, "timers key: " + key.status().message());
    Row k = *key;
    push(actions, where,
         AssertOnQuery{[this, t, k](StreamTestContext& ctx) -> Status {
                         STREAMSIM_ASSIGN_OR_RETURN(
                             auto got, readCommittedTimers(ctx.sim.env(), sc_.query.checkpoint,
                                                           storeKind(), k));
                         if (got == t.timers) return Status::OK();
                         auto text = [](const std::vector<TimeMs>& ts) {
                           std::string s = "[";
                           for (size_t i = 0; i < ts.size(); ++i)
                             s += (i ? ", " : "") + formatTimestamp(ts[i]);
                           return s + "]";
                         };
                         return fail(fmt::format("timers of key {} after the last commit: "
                                                 "expected {}, got {}",
                                                 k.toString(), text(t.timers),
                                                 text(got)));
                       },
                       "expect timers"},
         t.where);
  }

  // Rows written since the last sink/new_rows expectation: those of the batches committed since
  // (a foreach sink: every row its writer got since; complete mode: the current view minus the
  // rows seen then).
  Result<std::vector<Row>> newRows(StreamTestContext& ctx) {
    STREAMSIM_ASSIGN_OR_RETURN(auto rows, ctx.sink.rows());
    std::vector<Row> fresh;
    if (foreach_ || kafka_view_) {
      fresh.assign(rows.begin() + static_cast<std::ptrdiff_t>(std::min(seen_count_, rows.size())),
                   rows.end());
    } else if (sc_.query.outputMode == "complete") {
      fresh = minus(rows, seen_);
    } else {
      STREAMSIM_ASSIGN_OR_RETURN(auto batches, ctx.sink.batches());
      for (const auto& [id, batchRows] : batches)
        if (id > seen_batch_) fresh.insert(fresh.end(), batchRows.begin(), batchRows.end());
    }
    STREAMSIM_RETURN_IF_ERROR(markSeen(ctx, rows));
    return fresh;
  }

  Status markSeen(StreamTestContext& ctx, const std::vector<Row>& rows) {
    seen_ = rows;
    seen_count_ = rows.size();
    if (!foreach_ && !kafka_view_ && sc_.query.outputMode != "complete") {
      STREAMSIM_ASSIGN_OR_RETURN(auto batches, ctx.sink.batches());
      if (!batches.empty()) seen_batch_ = std::max(seen_batch_, batches.rbegin()->first);
    }
    return Status::OK();
  }

  Status fail(std::string msg) {
    failure_ = msg;
    return Status::FailedPrecondition(std::move(msg));
  }

  const Scenario& sc_;
  const ScenarioRunOptions& options_;
  SimEnv sim_;
  TestQuery query_{DataStreamWriter(DataFrame()), nullptr};
  std::vector<SourceFactory> sources_;  // built once: every writer of the run reads them
  std::shared_ptr<DeliveredRows> delivered_;  // what they delivered (the reference oracle)
  SinkFactory sink_;                    // likewise, writes it
  std::vector<std::shared_ptr<MemoryStreamData>> memory_;
  Status setup_;
  std::string failure_;
  std::vector<Row> seen_;
  size_t seen_count_ = 0;
  int64_t seen_batch_ = -1;
  std::shared_ptr<RecordingWriter> foreach_;
  std::shared_ptr<ConsoleOutput> console_;  // a console sink's prints
  // The Kafka-like log of the run's sources and sink (outside the engine: survives crashes).
  std::shared_ptr<sim::KafkaLog> log_ = std::make_shared<sim::KafkaLog>();
  std::shared_ptr<KafkaTopicView> kafka_view_;
  std::vector<ActualRows> actual_;
  std::vector<Row> final_rows_;
  std::vector<int64_t> final_batch_of_;
};

}  // namespace

namespace {

// Whether one of the scenario's async processors declares its results order-dependent
// (AsyncStatefulProcessor::orderDependent): the interleaving oracle then does not apply.
bool orderDependent(const Scenario& sc) {
  for (const auto& op : sc.query.operators) {
    auto* t = std::get_if<TransformWithStateOp>(&op.op);
    if (t == nullptr) continue;
    std::unique_ptr<StatefulProcessor> p;
    if (!t->pythonFile.empty()) {  // a Python class says so with `orderDependent = True`
      auto f = loadPythonProcessor({t->pythonFile, t->pythonClass, t->outputStructType, t->inPandas, {}});
      if (f.ok()) p = (*f)();
    } else if (auto r = ProcessorRegistry::create(t->processor); r.ok()) {
      p = std::move(*r);
    }
    if (auto* a = dynamic_cast<detail::AsyncProcessorAdapter*>(p.get()); a && a->processor().orderDependent())
      return true;
  }
  return false;
}

// The input rows in arrival order (put and add_rows steps; half-written files left out) as
// events for the watermark oracle: id from `event_id` (else the arrival index), event time
// from the watermark column.
std::vector<sim::Event> arrivals(const Scenario& sc, const std::string& column) {
  std::vector<sim::Event> out;
  const Schema* schema = !sc.query.sources.empty() && sc.query.sources[0].schema
                             ? sc.query.sources[0].schema.get()
                             : nullptr;
  auto add = [&](const std::vector<RowSpec>& rows) {
    for (const auto& spec : rows) {
      Row r = spec.toRow();
      if (schema) {
        auto typed = spec.toRow(*schema);
        if (typed.ok()) r = *typed;
      }
      int t = r.schema()->indexOf(column);
      if (t < 0 || r[static_cast<size_t>(t)].isNull()) continue;
      Value time = r[static_cast<size_t>(t)];
      if (time.type() != Type::kTimestamp) {
        auto cast = time.castTo(Type::kTimestamp);
        if (!cast.ok()) continue;
        time = *cast;
      }
      sim::Event e;
      int id = r.schema()->indexOf("event_id");
      e.eventId = id >= 0 ? r[static_cast<size_t>(id)].toString() : std::to_string(out.size());
      e.eventTime = time.asLong();
      out.push_back(std::move(e));
    }
  };
  for (const auto& step : sc.steps) {
    if (auto* p = std::get_if<PutStep>(&step.step)) add(p->rows);
    if (auto* a = std::get_if<AddRowsStep>(&step.step)) add(a->rows);
  }
  return out;
}

// What the logic oracles (oracles/logic.h) compare a run with: timer_bound's bound,
// process_isolation's run after another seed's, batch_split's one-batch variant.
void addLogicOracleInputs(const Scenario& sc, const ScenarioRunOptions& quiet, OracleInput& in,
                          int& runs) {
  in.timerBound = sc.timerBound;
  in.againAfterOther = [&sc, quiet, &runs]() -> RunOutcome {
    ScenarioRunOptions other = quiet;  // another seed, without the fault plan
    other.seed = quiet.seed + 1;
    other.skipExpectations = true;
    other.faultPlan.reset();
    runScenario(sc, other);
    runs += 2;
    return runScenario(sc, quiet);
  };
  in.againInFreshRegistry = [&sc, quiet, &runs]() -> RunOutcome {
    ProcessorRegistry::FreshScope fresh;  // new factories for this run
    ++runs;
    return runScenario(sc, quiet);
  };
  in.keyColumns = finalGroupBy(sc);
  if (std::find(sc.oracles.begin(), sc.oracles.end(), "batch_split") == sc.oracles.end()) return;
  // The cut varies by seed (its stream "batch_cut"; a plain run, seed 0: all input in one batch),
  // so a replay line's --seed reproduces it.
  auto variant = std::make_shared<Scenario>(
      quiet.seed == 0 ? oneBatchScenario(sc) : cutScenario(sc, sim::Random(quiet.seed).split("batch_cut"), &in.batchCut));
  if (quiet.seed == 0) in.batchCut = "all input in one batch";
  in.batchCut += fmt::format(" (the cut of seed {})", quiet.seed);
  in.batchSplit = [&sc, quiet, &runs, variant] {
    ScenarioRunOptions plain = quiet;  // fault-free: the cut is what differs
    plain.skipExpectations = true;
    plain.skipCrashSteps = true;
    plain.faultPlan.reset();
    runs += 2;
    return std::make_pair(runScenario(*variant, plain).sinkRows, runScenario(sc, plain).sinkRows);
  };
}

// The scenario run to the end of its log in real-time mode (realTime) or micro-batch mode (a
// processingTime trigger of the real-time batch duration), on RocksDB: its steps, then the
// clock moved past every produced record and everything available processed.
Scenario drainedIn(const Scenario& sc, bool realTime) {
  Scenario s = sc;
  const DurationMs d = sc.query.trigger.kind == TriggerSpec::Kind::kRealTime ||
                               sc.query.trigger.kind == TriggerSpec::Kind::kProcessingTime
                           ? std::max<DurationMs>(sc.query.trigger.intervalMs, kDefaultRealTimeMinBatchMs)
                           : kDefaultRealTimeBatchMs;
  s.query.trigger.kind = realTime ? TriggerSpec::Kind::kRealTime : TriggerSpec::Kind::kProcessingTime;
  s.query.trigger.intervalMs = d;
  s.query.outputMode = "update";
  s.query.stateStore = "rocksdb";
  s.query.stateStoreSet = true;
  TimeMs last = sc.start;
  for (const auto& step : sc.steps)
    if (auto* p = std::get_if<ProduceStep>(&step.step))
      for (const auto& r : p->records) last = std::max(last, r.at.value_or(p->at.value_or(last)));
  Step advance;
  advance.step = AdvanceStep{last - sc.start + d, std::nullopt};
  s.steps.push_back(advance);
  Step run;
  run.step = RunStep{};
  s.steps.push_back(run);
  s.oracles.clear();
  return s;
}

// mode_equivalence's input: the scenario drained in micro-batch and in real-time mode over the
// same log (no faults, no crash steps), their final state without timers and their last output
// per key. An error when either run fails.
Result<OracleInput::ModeRuns> modeRuns(const Scenario& sc, const ScenarioRunOptions& quiet) {
  ScenarioRunOptions o = quiet;
  o.skipExpectations = true;
  o.skipCrashSteps = true;
  o.faultPlan.reset();
  o.collectState = true;
  ScenarioRunResult mb = runScenario(drainedIn(sc, false), o);
  ScenarioRunResult rt = runScenario(drainedIn(sc, true), o);
  for (auto* run : {&mb, &rt})
    if (!run->passed())
      return Status::FailedPrecondition(fmt::format(
          "the {} run failed:\n{}", run == &mb ? "micro-batch" : "real-time", run->report()));
  const std::vector<std::string> keys = outputKeys(sc);
  OracleInput::ModeRuns m;
  m.keyColumns = keys;
  m.microBatchState = std::move(mb.committedState);
  m.realTimeState = std::move(rt.committedState);
  m.microBatchLast = latestPerKey(mb.sinkRows, keys);
  m.realTimeLast = latestPerKey(rt.sinkRows, keys);
  return m;
}

// restart_equivalence's runs: the scenario (its expectations skipped, the seed's plan left out)
// restarted cleanly right after each committed batch — every other restart after 90 s of
// downtime — and the scenario down as long at the same batches without restarting; both with a
// no-data batch allowed right after a restart (not Spark's rule: the one visible effect of a clean
// restart that is Spark's, not the processor's).
Result<RestartRuns> restartRuns(const Scenario& sc, const ScenarioRunOptions& quiet) {
  constexpr int64_t kBoundaries = 64;
  constexpr DurationMs kDowntime = 90'000;
  ScenarioRunOptions o = quiet;
  o.applyOracles = false;
  o.skipExpectations = true;
  o.collectState = true;
  o.noDataBatchBeforeFirstBatchOfRun = true;
  o.faultPlan = sim::FaultPlan{};
  for (int64_t b = 0; b < kBoundaries; ++b)
    o.faultPlan->faults.push_back(
        sim::CrashFault{std::string(faults::kCommitsAfterWrite), b, -1, 1, b % 2 == 1 ? kDowntime : 0});
  ScenarioRunResult restarted = runScenario(sc, o);
  o.faultPlan = sim::FaultPlan{};
  for (const sim::DowntimeFault& d : downtimeWithoutRestarts(restarted.trace)) o.faultPlan->faults.push_back(d);
  ScenarioRunResult paused = runScenario(sc, o);
  for (auto* run : {&restarted, &paused})
    if (!run->passed())
      return Status::FailedPrecondition(fmt::format(
          "the run {} failed:\n{}", run == &restarted ? "restarted after each batch" : "without the restarts",
          run->report()));
  RestartRuns out;
  out.restartedSink = std::move(restarted.sinkRows);
  out.pausedSink = std::move(paused.sinkRows);
  out.restartedState = std::move(restarted.committedState);
  out.pausedState = std::move(paused.committedState);
  out.restarts = restarted.restarts;
  return out;
}

// The fault-free reference of a run with `options`: the scenario without the plan's faults (a
// plain run's also without its own crash steps).
ScenarioRunOptions faultFreeReference(const ScenarioRunOptions& options) {
  ScenarioRunOptions ref = options;
  ref.applyOracles = false;
  ref.collectActual = false;
  ref.keepFs = nullptr;
  ref.recordReach = false;
  ref.skipCrashSteps = !options.faultPlan;
  ref.faultPlan.reset();
  return ref;
}

// The reference of run `r`: the fault-free reference, restarted after each commit after which `r`
// restarted cleanly and had a no-data batch withheld (run/clean_restarts.h), so that both run the
// same batches.
ScenarioRunOptions referenceOf(const ScenarioRunOptions& options, const ScenarioRunResult& r) {
  ScenarioRunOptions ref = faultFreeReference(options);
  if (sim::FaultPlan same = withSameRestarts(sim::FaultPlan{}, r.trace); !same.faults.empty())
    ref.faultPlan = std::move(same);
  return ref;
}

std::string batchList(const std::vector<int64_t>& batches) {
  std::string out;
  for (int64_t b : batches) out += (out.empty() ? "" : ", ") + std::to_string(b);
  return out;
}

// Restart transparency, for a faulted run whose reference took clean restarts (referenceOf): both
// would show a processor that loses something on a restart, so the restarts are also checked
// without Spark's withholding rule (noDataBatchBeforeFirstBatchOfRun): the plan's run and the
// fault-free run, both under that rule, must give the same sink (as they did before the rule).
// The exactly_once violation's text when they do not.
std::optional<std::string> restartTransparencyBreach(const Scenario& sc, const ScenarioRunOptions& quiet,
                                                     std::string_view sinkKind, int& runs) {
  ScenarioRunOptions faulted = quiet;
  faulted.applyOracles = false;
  faulted.skipExpectations = true;
  faulted.noDataBatchBeforeFirstBatchOfRun = true;
  ScenarioRunOptions plain = faultFreeReference(faulted);
  ScenarioRunResult t = runScenario(sc, faulted);
  // The plan's downtime stays (the clock moved on): the fault-free run takes it too.
  if (sim::FaultPlan down = withSameRestarts(sim::FaultPlan{}, t.trace, /*cleanRestarts=*/false); !down.faults.empty())
    plain.faultPlan = std::move(down);
  ScenarioRunResult b = runScenario(sc, plain);
  runs += 2;
  const char* rule = "with a no-data batch allowed before a run's first batch (not Spark's rule)";
  if (!b.passed()) return fmt::format("the fault-free run {} failed:\n{}", rule, b.report());
  if (!t.passed()) return fmt::format("the run under the plan {} failed:\n{}", rule, t.report());
  if (auto v = checkExactlyOnce(b.sinkRows, t.sinkRows, t.sinkBatchOf, sinkKind))
    return fmt::format("a restart changed the processor's output: {}, the run under the plan differs from the "
                       "fault-free run: {}", rule, v->message);
  return std::nullopt;
}

// Why run `r` under a fault plan, failing an expectation, is judged against its reference with
// the same restarts instead (empty: it is not). Only when (a) a clean restart of the plan withheld
// a no-data batch (the trace's no_data_batch_withheld after a restart the fault-free run does not
// have), (b) the fault-free run passes every expectation and (c) the reference with the same
// restarts fails first at the same expectation with the same message. The caller then runs it
// without expectations under exactly_once: (d) its sink equals that reference's, and the
// restarts are transparent without Spark's rule (restartTransparencyBreach).
std::string restartJudgement(const Scenario& sc, const ScenarioRunOptions& options,
                             const ScenarioRunResult& r, int& runs) {
  if (!options.faultPlan || !options.applyOracles || options.skipExpectations ||
      options.noDataBatchBeforeFirstBatchOfRun || !r.setupError.ok() || r.failures.empty())
    return {};
  const std::vector<int64_t> clean = withheldAfterCleanRestart(r.trace);
  const bool downtime = !downtimeAfterCrashes(r.trace).empty();
  if (clean.empty() && !downtime) return {};
  ScenarioRunOptions plainOptions = faultFreeReference(options);
  ScenarioRunResult plain = Runner(sc, plainOptions).run();
  ++runs;
  if (!plain.setupError.ok() || !plain.failures.empty()) return {};  // (b)
  const std::vector<int64_t> own = withheldAfterCleanRestart(plain.trace);
  std::vector<int64_t> planOnly;
  for (int64_t c : clean)
    if (std::find(own.begin(), own.end(), c) == own.end()) planOnly.push_back(c);
  if (planOnly.empty() && !downtime) return {};  // (a)
  ScenarioRunResult same = Runner(sc, referenceOf(options, r)).run();
  ++runs;
  if (!same.setupError.ok() || same.failures.empty()) return {};  // (c)
  const CheckFailure& a = r.failures.front();
  const CheckFailure& b = same.failures.front();
  if (a.where.toString() != b.where.toString() || a.message != b.message) return {};
  if (planOnly.empty())
    return fmt::format(
        "{}: the plan's crashes left the driver down while the clock moved on; the fault-free run passes this "
        "expectation and the reference with the same downtime fails it the same way",
        a.where.toString());
  return fmt::format(
      "{}: a clean restart of the plan after batch {} withheld the next no-data batch (Spark runs none "
      "before a batch of the new run); the fault-free run passes this expectation and the reference with "
      "the same restarts fails it the same way",
      a.where.toString(), batchList(planOnly));
}

void applyScenarioOracles(const Scenario& sc, const ScenarioRunOptions& options, ScenarioRunResult& r) {
  ScenarioRunOptions quiet = options;
  quiet.applyOracles = false;
  quiet.collectActual = false;
  quiet.keepFs = nullptr;
  OracleInput in(r);
  in.sinkKind = sc.query.sink.kind == SinkSpec::Kind::kForeach ? "foreach"
                : sc.query.sink.kind == SinkSpec::Kind::kKafka ? "kafka"
                : sc.query.sink.kind == SinkSpec::Kind::kConsole ? "console"
                : sc.query.sink.kind == SinkSpec::Kind::kFiles ? "files"
                                                               : "memory";
  in.reference = [&]() -> Result<std::vector<Row>> {
    // A sweep's reference is the fault-free run of the scenario (its own crashes kept); a plain
    // run's is the scenario without its crash steps; both restart where the run restarted cleanly
    // and had a no-data batch withheld.
    ScenarioRunOptions ref = referenceOf(quiet, r);
    ref.skipExpectations = true;
    if (options.faultPlan && ref.faultPlan)
      if (auto breach = restartTransparencyBreach(sc, quiet, in.sinkKind, r.oracleRuns))
        return Status::FailedPrecondition(*breach);
    ScenarioRunResult expected = runScenario(sc, ref);
    ++r.oracleRuns;
    if (!expected.passed())
      return Status::FailedPrecondition("the reference run (without faults) failed:\n" + expected.report());
    return expected.sinkRows;
  };
  for (const auto& op : sc.query.operators)
    if (auto* t = std::get_if<TransformWithStateOp>(&op.op); t && t->timeMode == "EventTime")
      in.timerClock = TimerClock::kEventTime;
  const WatermarkOp* wm = nullptr;
  for (const auto& op : sc.query.operators)
    if (auto* w = std::get_if<WatermarkOp>(&op.op)) wm = w;
  if (wm) {
    in.watermarkDelay = wm->delayMs;
    in.arrivals = [&sc, wm] { return arrivals(sc, wm->column); };
  }
  in.stateBound = sc.stateBound;
  in.stateBoundPerKey = sc.stateBoundPerKey;
  in.stateRowsPerKey = [&]() -> Result<std::map<std::string, int64_t>> { return r.stateRowsPerKey; };
  if (!sc.reference.empty()) {
    in.referenceViews = [&]() -> Result<ReferenceViews> {
      STREAMSIM_ASSIGN_OR_RETURN(ReferenceFunction f, ReferenceRegistry::function(sc.reference));
      if (!r.delivered) return Status::FailedPrecondition("reference: the run recorded no source rows");
      ReferenceViews views;
      views.name = sc.reference;
      views.expected = f(r.delivered->input(sc.query.sources.size(), finalGroupBy(sc)));
      std::vector<std::string> keys = ReferenceRegistry::keyColumns(sc.reference);
      if (keys.empty()) keys = outputKeys(sc);
      views.actual = sc.query.outputMode == "update" ? latestPerKey(r.sinkRows, keys) : r.sinkRows;
      return views;
    };
  }
  in.latencyBound = sc.latencyBound;
  in.modeRuns = [&]() -> Result<OracleInput::ModeRuns> {
    r.oracleRuns += 2;
    return modeRuns(sc, quiet);
  };
  in.again = [&]() -> RunOutcome {
    ++r.oracleRuns;
    return runScenario(sc, quiet);
  };
  addLogicOracleInputs(sc, quiet, in, r.oracleRuns);
  in.restartRuns = [&]() -> Result<RestartRuns> {
    r.oracleRuns += 2;
    return restartRuns(sc, quiet);
  };
  in.committedState = r.committedState;
  if (options.faultPlan && !options.faultPlan->switches().empty() && !orderDependent(sc)) {
    in.sequential = [&]() -> std::optional<OracleInput::Sequential> {
      // The same plan without its context switches.
      ScenarioRunOptions seq = quiet;
      seq.skipExpectations = true;
      seq.faultPlan->faults.clear();
      for (const sim::Fault& f : options.faultPlan->faults)
        if (!std::holds_alternative<sim::SwitchFault>(f)) seq.faultPlan->faults.push_back(f);
      ScenarioRunResult sequential = runScenario(sc, seq);
      ++r.oracleRuns;
      if (!sequential.setupError.ok() || !sequential.failures.empty()) return std::nullopt;
      return OracleInput::Sequential{std::move(sequential.sinkRows), std::move(sequential.committedState)};
    };
  }
  std::vector<std::string> names;
  for (const auto& o : sc.oracles)
    if ((o != "state_bound" || sc.stateBound || sc.stateBoundPerKey) && (o != "timer_bound" || sc.timerBound))
      names.push_back(o);
  // An oracle that could not be applied (its reference run failed) is a broken promise too.
  for (auto& e : applyOracles(names, in, r)) {
    Violation v;
    v.oracle = e.oracle;
    v.message = e.status.message();
    r.violations.push_back(std::move(v));
  }
}

}  // namespace

ScenarioRunResult runScenario(const Scenario& scenario, const ScenarioRunOptions& options) {
  ScenarioRunResult r;
  {
    Runner runner(scenario, options);
    r = runner.run();
  }
  // An expectation that a clean restart's withheld no-data batch changed (Spark's rule, not the
  // processor's) gives way: the run is run again without its expectations and judged by
  // exactly_once against its reference with the same restarts, and by the scenario's oracles.
  int runs = 0;
  ScenarioRunOptions judged = options;
  Scenario withExactlyOnce;
  const Scenario* sc = &scenario;
  if (std::string why = restartJudgement(scenario, options, r, runs); !why.empty()) {
    judged.skipExpectations = true;
    Runner runner(scenario, judged);
    r = runner.run();
    r.judgedAgainstRestartReference = std::move(why);
    r.oracleRuns += runs + 1;
    if (std::find(scenario.oracles.begin(), scenario.oracles.end(), "exactly_once") == scenario.oracles.end()) {
      withExactlyOnce = scenario;
      withExactlyOnce.oracles.push_back("exactly_once");
      sc = &withExactlyOnce;
    }
  } else {
    r.oracleRuns += runs;
  }
  if (options.applyOracles && !options.skipExpectations && r.setupError.ok() &&
      r.failures.empty() && !sc->oracles.empty())
    applyScenarioOracles(*sc, judged, r);
  return r;
}

namespace {

std::string flowRow(const Row& r) {
  std::string out = "{";
  for (size_t c = 0; c < r.size(); ++c) {
    std::string v = r[c].isNull() ? "null" : r[c].toString();
    if (r[c].type() == Type::kString || r[c].type() == Type::kTimestamp) v = "\"" + v + "\"";
    out += fmt::format("{}{}: {}", c ? ", " : "", r.schema()->field(c).name, v);
  }
  return out + "}";
}

size_t indentOf(const std::string& line) {
  size_t i = line.find_first_not_of(' ');
  return i == std::string::npos ? line.size() : i;
}

bool blank(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  return i == std::string::npos || line[i] == '#';
}

}  // namespace

Result<std::string> updateExpectedRows(const std::string& fileText,
                                       const std::vector<ActualRows>& actual, std::string* diff) {
  // Replace each located list that did not match with the actual rows, bottom-up so that
  // earlier locations stay valid: a flow list (`sink: [...]` on one line) stays a flow list, a
  // block list (`sink:` then `- {...}` lines) stays a block list with one row per line.
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= fileText.size()) {
    size_t end = fileText.find('\n', start);
    if (end == std::string::npos) end = fileText.size();
    lines.push_back(fileText.substr(start, end - start));
    start = end + 1;
  }
  std::vector<ActualRows> sorted;
  for (const auto& a : actual)
    if (!a.matches) sorted.push_back(a);
  std::sort(sorted.begin(), sorted.end(), [](const ActualRows& a, const ActualRows& b) {
    return a.where.line > b.where.line;
  });
  std::string d;
  for (const auto& a : sorted) {
    if (a.where.line <= 0 || a.where.line > static_cast<int>(lines.size()))
      return Status::InvalidArgument(fmt::format("no line {} to update", a.where.line));
    size_t li = a.where.line - 1;
    std::string& line = lines[li];
    size_t col = a.where.column - 1;
    if (col < line.size() && line[col] == '-' &&
        line.find_first_not_of(' ') == col) {
      // A block list: the items start at this indent; an item's continuation lines are deeper.
      size_t indent = col;
      size_t last = li;
      for (size_t i = li + 1; i < lines.size(); ++i) {
        if (blank(lines[i])) continue;
        size_t in = indentOf(lines[i]);
        if (in > indent || (in == indent && lines[i].compare(in, 2, "- ") == 0)) {
          last = i;
          continue;
        }
        break;
      }
      std::vector<std::string> replacement;
      if (a.rows.empty()) {
        // No rows: the list becomes `[]` after its key on the line before.
        if (li == 0) return Status::InvalidArgument(a.where.toString() + ": no key before the list");
        std::string& keyLine = lines[li - 1];
        std::string before = keyLine;
        keyLine += " []";
        std::string hunk = fmt::format("@@ line {}\n-{}\n+{}\n", li, before, keyLine);
        for (size_t i = li; i <= last; ++i) hunk += "-" + lines[i] + "\n";
        d = hunk + d;
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li),
                    lines.begin() + static_cast<std::ptrdiff_t>(last + 1));
        continue;
      }
      for (const Row& r : a.rows) replacement.push_back(std::string(indent, ' ') + "- " + flowRow(r));
      std::string hunk = fmt::format("@@ line {}\n", a.where.line);
      for (size_t i = li; i <= last; ++i) hunk += "-" + lines[i] + "\n";
      for (const auto& r : replacement) hunk += "+" + r + "\n";
      d = hunk + d;
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li),
                  lines.begin() + static_cast<std::ptrdiff_t>(last + 1));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(li), replacement.begin(),
                   replacement.end());
      continue;
    }
    if (col >= line.size() || line[col] != '[')
      return Status::InvalidArgument(fmt::format(
          "{}: --update rewrites a flow list ({}: [...], on one line or several) or a block list "
          "({}: then one `- {{...}}` line per row)",
          a.where.toString(), a.key, a.key));
    // The matching ']', on this line or a later one (brackets inside quoted strings don't count).
    size_t closeLine = li, close = std::string::npos;
    {
      int depth = 0;
      char quote = 0;
      for (size_t l = li; l < lines.size() && close == std::string::npos; ++l) {
        const std::string& text = lines[l];
        for (size_t i = l == li ? col : 0; i < text.size(); ++i) {
          char c = text[i];
          if (quote) {
            if (c == '\\' && quote == '"') ++i;
            else if (c == quote) quote = 0;
            continue;
          }
          if (c == '"' || c == '\'') quote = c;
          else if (c == '#' && (i == 0 || text[i - 1] == ' ')) break;  // a comment to the line's end
          else if (c == '[') ++depth;
          else if (c == ']' && --depth == 0) {
            closeLine = l;
            close = i;
            break;
          }
        }
      }
    }
    if (close == std::string::npos)
      return Status::InvalidArgument(a.where.toString() + ": --update: the flow list's closing ] is missing");
    std::string rows;
    if (closeLine != li) {
      // A flow list over several lines stays one: a row per line at its second line's indent.
      std::string contIndent(indentOf(lines[li + 1]), ' ');
      std::string text = lines[li].substr(0, col) + "[";
      for (size_t i = 0; i < a.rows.size(); ++i) text += (i ? ",\n" + contIndent : "") + flowRow(a.rows[i]);
      text += "]" + lines[closeLine].substr(close + 1);
      std::vector<std::string> replacement;
      for (size_t at = 0;;) {
        size_t nl = text.find('\n', at);
        replacement.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
        if (nl == std::string::npos) break;
        at = nl + 1;
      }
      std::string hunk = fmt::format("@@ line {}\n", a.where.line);
      for (size_t i = li; i <= closeLine; ++i) hunk += "-" + lines[i] + "\n";
      for (const auto& r : replacement) hunk += "+" + r + "\n";
      d = hunk + d;
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(li),
                  lines.begin() + static_cast<std::ptrdiff_t>(closeLine + 1));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(li), replacement.begin(), replacement.end());
      continue;
    }
    for (size_t i = 0; i < a.rows.size(); ++i) rows += (i ? ", " : "") + flowRow(a.rows[i]);
    std::string updated = line.substr(0, col) + "[" + rows + "]" + line.substr(close + 1);
    if (updated != line) {
      d = fmt::format("@@ line {}\n-{}\n+{}\n", a.where.line, line, updated) + d;
      line = updated;
    }
  }
  if (diff) *diff = d;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

}  // namespace streamsim::harness
