// The engine side of the PySpark job API (job_world.h). A JobWorld is one SimEnv (clock,
// filesystem, fault injector, trace) with a Kafka-like log, driven one call at a time by
// python/streamsim/world.py: files put, records produced, time advanced, a streaming query
// started from its query spec (a scenario's `query:` in JSON, loaded by the scenario loader, so
// there is one query language and one builder: harness/scenario/query_builder.h), run by the run
// core's Driver, crashed at an armed fault point and started again. The batch side evaluates
// expression strings over rows with the engine's analyzer (expr/analyzer.h).
// Called from Python only (the GIL held throughout); one world per Python object.
#include "job_world.h"

#include <pybind11/stl.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python_support.h"
#include "python_foreach.h"
#include "python_group_state.h"
#include "python_udf.h"
#include "streamsim/expr/analyzer.h"
#include "streamsim/expr/parser.h"
#include "streamsim/fault_points.h"
#include "streamsim/harness/run/clean_restarts.h"
#include "streamsim/harness/run/driver.h"
#include "streamsim/harness/scenario.h"
#include "streamsim/harness/scenario/query_builder.h"
#include "streamsim/harness/sim_env.h"
#include "streamsim/io/console_sink.h"
#include "streamsim/io/csv_rows.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/rate_micro_batch_source.h"
#include "streamsim/sink.h"
#include "streamsim/sim/kafka_log.h"
#include "streamsim/tws/processor_registry.h"

namespace py = pybind11;

namespace streamsim::python {
namespace {

// Processors handed in code are named "job:N" in the query spec (the loader checks the name).
constexpr std::string_view kJobProcessorPrefix = "job:";

// A Status as the Python exception the job API raises: ValueError for bad input (a query spec the
// loader refuses, an unknown fault point), RuntimeError otherwise; the message carries Spark's
// condition when it has one.
[[noreturn]] void raiseStatus(const Status& st) {
  if (st.code() == Status::Code::kInvalidArgument) throw py::value_error(st.toString());
  throw std::runtime_error(st.toString());
}

// `schema` as DDL with every column name backquoted (the engine's toDDL writes names as they are,
// and expression outputs are named "(n * 2)"), so the shim and parseSchema read it back.
std::string quotedDDL(const Schema& schema) {
  std::string out;
  for (const Field& f : schema.fields()) {
    Field x = f;
    x.name = "x";
    std::string name = f.name;
    std::string quoted;
    for (char c : name) quoted += c == '`' ? std::string("``") : std::string(1, c);
    if (!out.empty()) out += ", ";
    out += "`" + quoted + "` " + makeSchema({x})->toDDL().substr(2);
  }
  return out;
}

// A processor object's factory: a deep copy per partition task, as Spark unpickles the processor
// it was given once per task.
Result<ProcessorFactory> objectFactory(const py::tuple& entry) {
  if (entry.size() != 3) return Status::InvalidArgument("a processor entry is (object, outputStructType DDL, inPandas)");
  // The object is freed under the GIL whenever the factory goes.
  std::shared_ptr<py::object> holder(new py::object(entry[0]), [](py::object* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
  PythonFactoryOptions o;
  py::object cls = py::type::of(*holder);
  o.name = cls.attr("__qualname__").cast<std::string>();
  o.outputSchemaDDL = entry[1].cast<std::string>();
  o.inPandas = entry[2].cast<bool>();
  o.arrowInputs = true;  // a query's run: rows as PySpark's worker reads them from Arrow
  o.processorClass = cls;
  o.makeInstance = [holder]() { return py::module_::import("copy").attr("deepcopy")(*holder); };
  return makePythonFactory(std::move(o));
}

// DataStreamWriter.foreachBatch's sink (Spark's ForeachBatchSink): every batch, the data batches
// and the no-data ones, goes to the job's function as (DDL of its rows, [tuples], batch id). An
// exception the function raises fails the batch, hence the query, with Spark's condition
// FOREACH_BATCH_USER_FUNCTION_ERROR (ForeachBatchSink.scala: ForeachBatchUserFuncException,
// reason = the exception's message). Like Spark's, it is not idempotent: a batch re-run after a
// crash is handed over again.
class ForeachBatchSink final : public Sink {
 public:
  explicit ForeachBatchSink(std::shared_ptr<py::object> fn) : fn_(std::move(fn)) {}
  std::string description() const override { return "ForeachBatchSink"; }
  Status addBatch(const SinkContext& ctx, const std::vector<Row>& rows) override {
    py::gil_scoped_acquire gil;
    try {
      py::list tuples;
      std::string ddl;
      for (const Row& r : rows) {
        if (ddl.empty()) ddl = quotedDDL(*r.schema());
        tuples.append(rowToTuple(r));
      }
      (*fn_)(ddl, tuples, ctx.batchId);
      return Status::OK();
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_BaseException) && !e.matches(PyExc_Exception)) throw;  // KeyboardInterrupt, ...
      std::string reason = py::str(e.value());
      std::string type = py::str(py::type::of(e.value()).attr("__name__"));
      return Status::FailedPrecondition(
                 fmt::format("[FOREACH_BATCH_USER_FUNCTION_ERROR] An error occurred in the user provided "
                             "function in foreach batch sink. Reason: {}: {} (batch {})",
                             type, reason, ctx.batchId))
          .withCondition("FOREACH_BATCH_USER_FUNCTION_ERROR", {{"reason", reason}});
    }
  }

 private:
  std::shared_ptr<py::object> fn_;
};

class JobWorld {
 public:
  // `planJson`: a fault plan the injector executes (a pytest sweep's seed, docs/faults.md's
  // JSON); `recordReach`: the (point, batch) pairs passed are recorded (reach()).
  JobWorld(uint64_t seed, int64_t startMs, const std::string& planJson, bool recordReach)
      : sim_(options(seed, startMs, planJson)), driver_(sim_, {}) {
    if (recordReach) sim_.injector().recordReach();
  }

  // --- the world ---
  void putFile(const std::string& path, const py::bytes& content, std::optional<int64_t> mtime) {
    Status st = sim_.fs().putDurable(path, std::string(content));
    if (st.ok() && mtime) st = sim_.fs().setModificationTime(path, *mtime);
    if (!st.ok()) raiseStatus(st);
  }
  void removeAll(const std::string& path) {
    if (Status st = sim_.fs().removeAll(path); !st.ok()) raiseStatus(st);
  }
  // A batch DataFrame's rows written as one data file of `format` into `folder` (the engine's
  // file writers: io/file_sink.h encodeDataFile), then Spark's _SUCCESS marker; the file's path.
  std::string writeFormatFile(const std::string& folder, const std::string& format, const std::string& ddl,
                              const py::list& rows, const std::map<std::string, std::string>& options,
                              const std::string& compression) {
    auto schema = parseSchema(ddl);
    if (!schema.ok()) raiseStatus(schema.status());
    std::vector<Row> in;
    for (py::handle r : rows) in.push_back(tupleToRow(r, *schema, std::string("a row")));
    FileSinkOptions o;
    o.path = folder;
    o.format = format;
    o.formatOptions = options;
    auto codec = parseParquetCodec(compression);
    if (!codec.ok()) raiseStatus(codec.status());
    o.parquetCodec = *codec;
    if (Status st = checkFileSinkOptions(o); !st.ok()) raiseStatus(st);
    std::string written;
    if (Status st = sim_.fs().mkdirs(folder); !st.ok()) raiseStatus(st);
    if (!in.empty()) {
      auto file = encodeDataFile(o, in, sim_.env().ids->newUuid());
      if (!file.ok()) raiseStatus(file.status());
      written = joinPath(folder, file->name);
      if (Status st = sim_.fs().putDurable(written, file->data); !st.ok()) raiseStatus(st);
    }
    if (Status st = sim_.fs().putDurable(joinPath(folder, "_SUCCESS"), ""); !st.ok()) raiseStatus(st);
    return written;
  }
  py::bytes readFile(const std::string& path) {
    auto r = sim_.fs().read(path);
    if (!r.ok()) raiseStatus(r.status());
    return py::bytes(*r);
  }
  std::vector<std::string> listFiles(const std::string& dir) {
    std::vector<std::string> out;
    auto r = sim_.fs().list(dir);
    if (!r.ok()) return out;
    for (const FileInfo& f : *r) out.push_back(f.path);
    return out;
  }
  void createTopic(const std::string& topic, int partitions) {
    if (Status st = log_->createTopic(topic, sim::TopicConfig{partitions, 0}); !st.ok()) raiseStatus(st);
  }
  // The Kafka source's option checks (io/kafka_source.h) for DataStreamReader.load: None, or
  // what is wrong (Spark's IllegalArgumentException message).
  std::optional<std::string> checkKafkaSource(const std::map<std::string, std::string>& options) {
    auto f = makeKafkaSource(log_, options, true);
    if (f.ok()) return std::nullopt;
    return std::string(f.status().message());
  }
  // RatePerMicroBatchProvider.getTable's checks (at load(), as Spark's IllegalArgumentException).
  std::optional<std::string> checkRateMicroBatchSource(const std::map<std::string, std::string>& options) {
    auto o = RateMicroBatchOptions::fromMap(options);
    if (o.ok()) return std::nullopt;
    return std::string(o.status().message());
  }
  int topicPartitions(const std::string& topic) {
    auto n = log_->numPartitions(topic);
    return n.ok() ? *n : 0;
  }
  void produce(const std::string& topic, std::optional<std::string> key, const std::string& value,
               int partition, std::optional<int64_t> timestampMs,
               std::vector<std::pair<std::string, std::string>> headers) {
    // Readable from now on (its append time); its CreateTime the producer's, now unless given.
    LogRecord record;
    record.topic = topic;
    record.headers = std::move(headers);
    record.key = std::move(key);
    record.value = value;
    record.timestamp = timestampMs.value_or(sim_.clock().nowMs());
    auto r = log_->append(std::move(record), sim_.clock().nowMs(), partition);
    if (!r.ok()) raiseStatus(r.status());
  }
  // Every record of `topic` (partition by partition, in offset order): (key, value, partition, offset).
  py::list records(const std::string& topic) {
    py::list out;
    for (const LogRecord& r : log_->all(topic))
      out.append(py::make_tuple(r.key ? py::object(py::str(*r.key)) : py::object(py::none()), r.value,
                                r.partition, r.offset));
    return out;
  }
  void advance(int64_t ms) {
    if (ms < 0) throw py::value_error("time moves forward only");
    sim_.clock().advance(ms);
  }
  int64_t now() { return sim_.clock().nowMs(); }

  // --- the query ---
  // Starts `querySpec` (a scenario's `query:` as JSON) with `processors` ("job:N" -> (object,
  // outputStructType, inPandas)). A query still active is an error (one query at a time); an
  // inactive one (finished, failed, crashed) is replaced.
  py::dict start(const std::string& querySpec, const py::dict& processors, const py::object& foreachBatch,
                 const py::object& udfs, const py::object& foreachWriter) {
    if (sim_.running() && sim_.query()->isActive())
      throw py::value_error(
          "a streaming query is already active in this world; streamsim runs one query at a time "
          "(stop() it first; docs/python.md)");
    if (sim_.running()) sim_.stop();
    harness::LoaderOptions lo;
    lo.userFunctions = userFunctionsOf(udfs);
    lo.registries = pythonRunRegistries();
    lo.isProcessor = [processors = lo.registries->processors](std::string_view name) {
      return name.substr(0, kJobProcessorPrefix.size()) == kJobProcessorPrefix || processors->has(name);
    };
    std::string doc = "{\"name\": \"job\", \"steps\": [], \"query\": " + querySpec + "}";
    harness::ScenarioLoad load = harness::parseScenario(doc, "<job query>", lo);
    if (!load.ok()) throw py::value_error("the query spec does not load:\n" + load.errorText());
    query_ = load.scenario->query;
    for (harness::OperatorSpec& op : query_.operators) {
      // applyInPandasWithState's function, on the flatMapGroupsWithState operator.
      if (auto* g = std::get_if<harness::FlatMapGroupsWithStateOp>(&op.op);
          g != nullptr && g->function.rfind(kJobProcessorPrefix, 0) == 0) {
        if (!processors.contains(g->function)) throw py::value_error("no function object " + g->function);
        auto f = pythonGroupStateFunction(processors[py::str(g->function)].cast<py::tuple>());
        if (!f.ok()) raiseStatus(f.status());
        g->factory = *f;
        continue;
      }
      auto* t = std::get_if<harness::TransformWithStateOp>(&op.op);
      if (t == nullptr || t->processor.rfind(kJobProcessorPrefix, 0) != 0) continue;
      if (!processors.contains(t->processor)) throw py::value_error("no processor object " + t->processor);
      auto f = objectFactory(processors[py::str(t->processor)].cast<py::tuple>());
      if (!f.ok()) raiseStatus(f.status());
      t->factory = *f;
    }
    std::vector<std::shared_ptr<MemoryStreamData>> memory;
    auto sources = harness::buildQuerySources(query_, sim_, log_, memory);
    if (!sources.ok()) raiseStatus(sources.status());
    memorySink_.reset();
    console_.reset();
    SinkFactory sink;
    const harness::SinkSpec& s = query_.sink;
    if (!foreachWriter.is_none()) {
      py::tuple w = foreachWriter.cast<py::tuple>();  // (writer, file)
      sink = foreachSinkOf(w[0], w[1].cast<std::string>());
    } else if (!foreachBatch.is_none()) {
      std::shared_ptr<py::object> fn(new py::object(foreachBatch), [](py::object* p) {
        py::gil_scoped_acquire gil;
        delete p;
      });
      sink = [fn]() -> std::unique_ptr<Sink> { return std::make_unique<ForeachBatchSink>(fn); };
    } else switch (s.kind) {
      case harness::SinkSpec::Kind::kMemory:
        memorySink_ = std::make_shared<MemorySinkData>();
        sink = makeMemorySink(memorySink_);
        break;
      case harness::SinkSpec::Kind::kConsole:
        console_ = std::make_shared<ConsoleOutput>();
        sink = makeConsoleSink(console_, ConsoleSinkOptions{s.numRows, s.truncate});
        break;
      case harness::SinkSpec::Kind::kFiles: {
        FileSinkOptions o;
        o.path = s.path;
        o.format = s.format;
        auto codec = parseParquetCodec(s.compression);
        if (!codec.ok()) raiseStatus(codec.status());
        o.parquetCodec = *codec;
        o.formatOptions = s.options;
        sink = makeFileSink(std::move(o));
        break;
      }
      case harness::SinkSpec::Kind::kKafka:
        if (Status st = log_->createTopic(s.topic, sim::TopicConfig{s.partitions, 0}); !st.ok()) raiseStatus(st);
        sink = makeKafkaSink(log_, s.topic);
        break;
      default: throw py::value_error("this sink kind is not built for PySpark jobs (docs/python.md)");
    }
    auto writer = harness::buildQueryWriter(query_, *sources, sink, nullptr, 0, nullptr, lo.registries.get());
    if (!writer.ok()) raiseStatus(writer.status());
    error_ = Status::OK();
    crashed_ = false;
    progressFrom_ = sim_.allProgress().size();
    const int64_t crashes = sim_.crashCount();
    Status st = driver_.startWith(*writer);
    noteOutcome(st, crashes);
    py::dict out;
    if (sim_.running()) {
      out["id"] = sim_.query()->id();
      out["runId"] = sim_.query()->runId();
    }
    return out;
  }
  // Runs until the sources have nothing new (Spark's processAllAvailable); an AvailableNow or Once
  // query then stops (Spark's awaitTermination of those triggers).
  void processAllAvailable() {
    if (!sim_.running() || !error_.ok() || crashed_) return;
    const int64_t crashes = sim_.crashCount();
    const bool terminates = query_.trigger.kind == harness::TriggerSpec::Kind::kAvailableNow ||
                            query_.trigger.kind == harness::TriggerSpec::Kind::kOnce;
    Status st = driver_.supervise([terminates](StreamingQuery& q) {
      return terminates ? q.awaitTermination() : q.processAllAvailable();
    });
    noteOutcome(st, crashes);
  }
  // One trigger at the clock's current time (StreamingQuery::triggerOnce): a data batch, a
  // re-run, or a no-data batch an operator asks for (a processing-time timer, a moved
  // watermark) -- what a running trigger loop does when time has passed.
  void triggerNow() {
    if (!sim_.running() || !error_.ok() || crashed_) return;
    const int64_t crashes = sim_.crashCount();
    Status st = driver_.supervise([](StreamingQuery& q) { return q.triggerOnce().status(); });
    noteOutcome(st, crashes);
  }
  // `n` triggers on the trigger's schedule (the clock moves to each trigger's time).
  void runBatches(int n) {
    if (!sim_.running() || !error_.ok() || crashed_) return;
    const int64_t crashes = sim_.crashCount();
    Status st = driver_.supervise([n](StreamingQuery& q) { return q.runBatches(n).status(); });
    noteOutcome(st, crashes);
  }
  void armCrash(const std::string& point, int64_t batch, int partition, int64_t nth) {
    if (!faults::isFaultPoint(point))
      throw py::value_error("unknown fault point '" + point + "' (see streamsim list-faults)");
    armed_.push_back(sim_.injector().armCrash(point, batch, partition, nth));
  }
  // Whether every armed crash fired.
  bool armedCrashesFired() {
    for (int h : armed_)
      if (!sim_.injector().armedFired(h)) return false;
    return true;
  }
  void crashNow() {
    if (sim_.running()) sim_.crash();
    crashed_ = true;
  }
  void stop() {
    if (sim_.running()) sim_.stop();
  }
  // "active", "terminated", "failed" or "crashed" (the driver died: a restart brings it back).
  std::string status() {
    if (crashed_) return "crashed";
    if (!error_.ok()) return "failed";
    if (sim_.running() && sim_.query()->isActive()) return "active";
    return "terminated";
  }
  // None, or (message, condition) of the query's failure.
  py::object exception() {
    if (error_.ok()) return py::none();
    return py::make_tuple(error_.toString(), error_.condition());
  }
  // The progress of every batch since the query started (each a JSON text), restarts included.
  std::vector<std::string> progress() {
    std::vector<std::string> out;
    const auto& all = sim_.allProgress();
    for (size_t i = progressFrom_; i < all.size(); ++i) out.push_back(all[i].toJson());
    return out;
  }
  // The memory sink's rows as Spark's MemorySink keeps them: every row of every batch in append
  // and update mode, the last batch's in complete mode; as (DDL of the first row, [tuples]).
  py::tuple memoryRows() {
    py::list rows;
    std::string ddl;
    if (memorySink_ != nullptr) {
      std::vector<Row> all = query_.outputMode == "complete" ? memorySink_->completeView()
                                                              : memorySink_->appendView();
      for (const Row& r : all) {
        if (ddl.empty()) ddl = quotedDDL(*r.schema());
        rows.append(rowToTuple(r));
      }
    }
    return py::make_tuple(ddl, rows);
  }
  // The rows a file sink committed (its _spark_metadata log), as Spark's reader of a sink folder.
  py::tuple fileSinkRows(const std::string& path, const std::string& ddl) {
    auto schema = parseSchema(ddl);
    if (!schema.ok()) raiseStatus(schema.status());
    auto rows = readFileSinkOutput(sim_.env(), path, *schema);
    if (!rows.ok()) raiseStatus(rows.status());
    py::list out;
    for (const Row& r : *rows) out.append(rowToTuple(r));
    return py::make_tuple(quotedDDL(**schema), out);
  }
  // spark.read.csv / .text of a folder (or one file): the files Spark's file index reads
  // (filesToRead: a sink folder's committed files), read by the engine's CSV or text reader.
  py::tuple readFormatFiles(const std::string& path, const std::string& format, const std::string& ddl,
                            const std::map<std::string, std::string>& options) {
    auto schema = parseSchema(ddl);
    if (!schema.ok()) raiseStatus(schema.status());
    auto listed = filesToRead(sim_.env(), path);
    if (!listed.ok()) throw py::value_error(std::string(listed.status().message()));
    const std::vector<std::string>& files = *listed;
    std::map<std::string, std::string> formatOptions;
    ParseMode mode = ParseMode::kPermissive;
    std::string corrupt = "_corrupt_record";
    for (const auto& [k, v] : options) {
      std::string key = k;
      for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (key == "mode") {
        auto m = parseParseMode(v);
        if (!m.ok()) raiseStatus(m.status());
        mode = *m;
      } else if (key == "columnnameofcorruptrecord") {
        corrupt = v;
      } else if (isFormatOption(format, key)) {
        formatOptions[k] = v;
      } else {
        throw py::value_error(fmt::format("the {} reader option '{}' is not built in streamsim (docs/python.md)", format, k));
      }
    }
    std::vector<Row> rows;
    if (format == "csv") {
      auto p = CsvRowParser::make(*schema, formatOptions, mode, corrupt);
      if (!p.ok()) raiseStatus(p.status());
      for (const std::string& f : files)
        if (Status st = p->parseFile(*sim_.fs().read(f), f, rows); !st.ok()) raiseStatus(st);
    } else if (format == "json") {
      // The streaming source's JSON reader for these options (io/file_source.h).
      FileSourceOptions o;
      o.schema = *schema;
      o.formatOptions = formatOptions;
      o.mode = mode;
      o.columnNameOfCorruptRecord = corrupt;
      auto p = o.jsonParser();
      if (!p.ok()) raiseStatus(p.status());
      for (const std::string& f : files)
        if (Status st = p->parseLines(*sim_.fs().read(f), f, rows); !st.ok()) raiseStatus(st);
    } else {
      auto p = TextRowParser::make(*schema, formatOptions);
      if (!p.ok()) raiseStatus(p.status());
      for (const std::string& f : files)
        if (Status st = p->parseFile(*sim_.fs().read(f), rows); !st.ok()) raiseStatus(st);
    }
    py::list out;
    for (const Row& r : rows) out.append(rowToTuple(r));
    return py::make_tuple(quotedDDL(**schema), out);
  }
  // spark.read.parquet(path): a sink folder's committed files, a folder's files or one file,
  // with `ddl` ("" the files' own schema): (the schema's DDL, rows).
  py::tuple readParquet(const std::string& path, const std::string& ddl) {
    SchemaPtr schema;
    if (!ddl.empty()) {
      auto parsed = parseSchema(ddl);
      if (!parsed.ok()) raiseStatus(parsed.status());
      schema = *parsed;
    }
    auto read = readParquetPath(sim_.env(), path, schema);
    if (!read.ok()) raiseStatus(read.status());
    py::list out;
    for (const Row& r : read->rows) out.append(rowToTuple(r));
    return py::make_tuple(quotedDDL(*read->schema), out);
  }
  std::string consoleText() { return console_ == nullptr ? std::string() : console_->text(); }
  int64_t crashes() { return sim_.crashCount(); }
  // The (point, batch, passes) a run passed (with recordReach), for the plan of a sweep's seed.
  std::vector<std::tuple<std::string, int64_t, int64_t>> reach() {
    std::vector<std::tuple<std::string, int64_t, int64_t>> out;
    for (const auto& t : sim_.injector().reach()) out.emplace_back(t.point, t.batch, t.passes);
    return out;
  }
  // How many of the plan's faults fired (each counted once).
  int64_t faultsFired() {
    int64_t n = 0;
    for (int f : sim_.injector().planFired()) n += f > 0 ? 1 : 0;
    return n;
  }
  std::vector<std::string> topics() { return log_->topicNames(); }
  uint64_t traceHash() { return sim_.trace().fingerprint(); }
  // The fault-free reference's plan for this run (harness/run/clean_restarts.h, the harness's
  // one rule): the same clean restarts (Spark withholds the no-data batch after a restart),
  // downtime and re-planned batches as this run took.
  std::string sameRestartsPlan() { return harness::withSameRestarts(sim::FaultPlan{}, sim_.trace().lines()).toJson(); }

 private:
  static harness::SimEnvOptions options(uint64_t seed, int64_t startMs, const std::string& planJson) {
    harness::SimEnvOptions o;
    o.seed = seed;
    o.startTimeMs = startMs;
    if (!planJson.empty()) {
      auto plan = sim::FaultPlan::fromJson(planJson);
      if (!plan.ok()) throw py::value_error("fault plan: " + plan.status().message());
      Status valid = sim::validate(*plan);
      if (!valid.ok()) throw py::value_error("fault plan: " + valid.message());
      o.faultPlan = std::move(*plan);
    }
    return o;
  }
  // A crash (the driver is down until the job starts the query again) or a failure (the query
  // terminated with that error, as Spark's StreamingQueryException).
  void noteOutcome(const Status& st, int64_t crashesBefore) {
    if (st.ok()) return;
    if (st.code() == Status::Code::kAborted && sim_.crashCount() > crashesBefore && !sim_.running()) {
      crashed_ = true;
      return;
    }
    error_ = st;
    if (sim_.running()) sim_.stop();
  }

  harness::SimEnv sim_;
  harness::Driver driver_;
  std::shared_ptr<sim::KafkaLog> log_ = std::make_shared<sim::KafkaLog>();
  harness::QuerySpec query_;
  std::shared_ptr<MemorySinkData> memorySink_;
  std::shared_ptr<ConsoleOutput> console_;
  Status error_;
  bool crashed_ = false;
  size_t progressFrom_ = 0;
  std::vector<int> armed_;
};

// Rows of `ddl` (tuples) as engine rows.
std::vector<Row> rowsOf(const std::string& ddl, const py::list& rows, SchemaPtr& schema) {
  auto parsed = parseSchema(ddl);
  if (!parsed.ok()) raiseStatus(parsed.status());
  schema = *parsed;
  std::vector<Row> out;
  out.reserve(rows.size());
  for (py::handle r : rows) out.push_back(tupleToRow(r, schema, std::string("a row")));
  return out;
}

expr::SqlConf confOf(const py::dict& conf) {
  expr::SqlConf c;
  for (auto [k, v] : conf) {
    std::string key = py::str(k);
    if (!expr::SqlConf::isSqlConf(key)) continue;
    if (Status st = c.set(key, std::string(py::str(v))); !st.ok()) raiseStatus(st);
  }
  return c;
}

// select(exprs) over rows: (output DDL, [tuples]).
py::tuple evalSelect(const std::string& ddl, const py::list& rows, const std::vector<std::string>& exprs,
                     const py::dict& conf, int64_t nowMs, const py::object& udfs) {
  SchemaPtr schema;
  std::vector<Row> in = rowsOf(ddl, rows, schema);
  std::vector<expr::Column> columns;
  for (const std::string& e : exprs) {
    auto c = expr::parseExpression(e);
    if (!c.ok()) raiseStatus(c.status());
    columns.push_back(*c);
  }
  expr::SqlConf sqlConf = confOf(conf);
  sqlConf.userFunctions = userFunctionsOf(udfs);
  auto compiled = expr::analyzeSelect(columns, *schema, sqlConf);
  if (!compiled.ok()) raiseStatus(compiled.status());
  std::vector<const Row*> ptrs;
  for (const Row& r : in) ptrs.push_back(&r);
  std::vector<Field> fields;
  std::vector<std::vector<Value>> cols(compiled->size());
  expr::EvalContext ctx{&sqlConf, nowMs};
  for (size_t i = 0; i < compiled->size(); ++i) {
    Field f = (*compiled)[i].field();
    f.name = (*compiled)[i].name();
    fields.push_back(f);
    if (Status st = (*compiled)[i].evaluate(ptrs, ctx, cols[i]); !st.ok()) raiseStatus(st);
  }
  SchemaPtr outSchema = makeSchema(fields);
  py::list out;
  for (size_t r = 0; r < in.size(); ++r) {
    std::vector<Value> values;
    for (size_t i = 0; i < cols.size(); ++i) values.push_back(cols[i][r]);
    out.append(rowToTuple(Row(outSchema, std::move(values))));
  }
  return py::make_tuple(quotedDDL(*outSchema), out);
}

// The indexes of the rows `condition` holds for (null is false, as Spark's Filter).
std::vector<size_t> evalWhere(const std::string& ddl, const py::list& rows, const std::string& condition,
                              const py::dict& conf, int64_t nowMs, const py::object& udfs) {
  SchemaPtr schema;
  std::vector<Row> in = rowsOf(ddl, rows, schema);
  auto c = expr::parseExpression(condition);
  if (!c.ok()) raiseStatus(c.status());
  expr::SqlConf sqlConf = confOf(conf);
  sqlConf.userFunctions = userFunctionsOf(udfs);
  auto compiled = expr::analyze(*c, *schema, sqlConf);
  if (!compiled.ok()) raiseStatus(compiled.status());
  if (compiled->field().type != Type::kBoolean)
    throw py::value_error(fmt::format("[DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN] Cannot resolve \"{}\": filter "
                                      "expression is not of type boolean", compiled->sql()));
  std::vector<const Row*> ptrs;
  for (const Row& r : in) ptrs.push_back(&r);
  std::vector<Value> values;
  expr::EvalContext ctx{&sqlConf, nowMs};
  if (Status st = compiled->evaluate(ptrs, ctx, values); !st.ok()) raiseStatus(st);
  std::vector<size_t> out;
  for (size_t i = 0; i < values.size(); ++i)
    if (!values[i].isNull() && values[i].asBool()) out.push_back(i);
  return out;
}

// Dataset.show's text of rows.
std::string showRows(const std::string& ddl, const py::list& rows, int numRows, bool truncate) {
  SchemaPtr schema;
  std::vector<Row> in = rowsOf(ddl, rows, schema);
  return showString(*schema, in, numRows, truncate);
}

}  // namespace

void defineJobModule(py::module_& m) {
  py::class_<JobWorld>(m, "JobWorld")
      .def(py::init<uint64_t, int64_t, const std::string&, bool>(), py::arg("seed"),
           py::arg("start_ms"), py::arg("plan") = "", py::arg("record_reach") = false)
      .def("reach", &JobWorld::reach)
      .def("faults_fired", &JobWorld::faultsFired)
      .def("topics", &JobWorld::topics)
      .def("trace_hash", &JobWorld::traceHash)
      .def("same_restarts_plan", &JobWorld::sameRestartsPlan)
      .def("put_file", &JobWorld::putFile, py::arg("path"), py::arg("content"), py::arg("mtime") = py::none())
      .def("read_file", &JobWorld::readFile)
      .def("remove_all", &JobWorld::removeAll)
      .def("write_format_file", &JobWorld::writeFormatFile)
      .def("list_files", &JobWorld::listFiles)
      .def("create_topic", &JobWorld::createTopic)
      .def("topic_partitions", &JobWorld::topicPartitions)
      .def("check_kafka_source", &JobWorld::checkKafkaSource)
      .def("check_rate_micro_batch_source", &JobWorld::checkRateMicroBatchSource)
      .def("records", &JobWorld::records)
      .def("produce", &JobWorld::produce, py::arg("topic"), py::arg("key"), py::arg("value"),
           py::arg("partition") = -1, py::arg("timestamp_ms") = std::nullopt,
           py::arg("headers") = std::vector<std::pair<std::string, std::string>>{})
      .def("advance", &JobWorld::advance)
      .def("now", &JobWorld::now)
      .def("start", &JobWorld::start, py::arg("query_spec"), py::arg("processors"),
           py::arg("foreach_batch") = py::none(), py::arg("udfs") = py::none(),
           py::arg("foreach_writer") = py::none())
      .def("file_sink_rows", &JobWorld::fileSinkRows)
      .def("read_format_files", &JobWorld::readFormatFiles)
      .def("read_parquet", &JobWorld::readParquet)
      .def("process_all_available", &JobWorld::processAllAvailable)
      .def("run_batches", &JobWorld::runBatches)
      .def("trigger_now", &JobWorld::triggerNow)
      .def("arm_crash", &JobWorld::armCrash, py::arg("point"), py::arg("batch") = -1,
           py::arg("partition") = -1, py::arg("nth") = 1)
      .def("armed_crashes_fired", &JobWorld::armedCrashesFired)
      .def("crash_now", &JobWorld::crashNow)
      .def("stop", &JobWorld::stop)
      .def("status", &JobWorld::status)
      .def("exception", &JobWorld::exception)
      .def("progress", &JobWorld::progress)
      .def("memory_rows", &JobWorld::memoryRows)
      .def("console_text", &JobWorld::consoleText)
      .def("crashes", &JobWorld::crashes);
  m.def("eval_select", &evalSelect, py::arg("ddl"), py::arg("rows"), py::arg("exprs"), py::arg("conf"),
        py::arg("now_ms") = 0, py::arg("udfs") = py::none());
  m.def("eval_where", &evalWhere, py::arg("ddl"), py::arg("rows"), py::arg("condition"), py::arg("conf"),
        py::arg("now_ms") = 0, py::arg("udfs") = py::none());
  m.def("show_rows", &showRows);
}

}  // namespace streamsim::python
