// The scenario runner's one run (runner.h): Scenario -> query + harness actions, one row of the
// step table per step (step_table.h), checks done against what a reader of the sink sees.
#include "scenario/runner.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "scenario/generated_landing.h"
#include "scenario/operators.h"
#include "scenario/sink_views.h"
#include "scenario/steps.h"
#include "streamsim/harness/committed_state.h"
#include "streamsim/harness/foreach_writers.h"
#include "streamsim/harness/keep_files.h"
#include "streamsim/harness/scenario/query_builder.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/io/console_sink.h"
#include "streamsim/io/file_sink.h"
#include "streamsim/io/file_source.h"
#include "streamsim/io/foreach_sink.h"
#include "streamsim/io/kafka_source.h"
#include "streamsim/io/memory_sink.h"
#include "streamsim/io/memory_source.h"

namespace streamsim::harness::detail {

Runner::Runner(const Scenario& sc, const ScenarioRunOptions& options)
    : sc_(sc), options_(options), sim_(simOptions(sc, options)) {
  if (options.recordReach) {
    sim_.injector().recordReach();
    sim_.recordSchedulingChoices();
  }
}

ScenarioRunResult Runner::run() {
  ScenarioRunResult result;
  Status st = build();
  if (!st.ok()) {
    result.setupError = st;
    return result;
  }
  StepActions steps(sc_, options_, state_, [this](const QuerySpec& q) { return writerFor(q); });
  // A generated workload's files land before each trigger and while the driver is down.
  const std::shared_ptr<GeneratedLanding> landing = installGeneratedLanding(sc_, sim_);
  for (const auto& step : sc_.steps) {
    addLandingBefore(steps, landing, step);
    addStepActions(steps, step);
  }
  addLandingDrain(steps, landing, sc_, options_);
  // What the oracles read: the sink's reader view after the last step.
  steps.push(
       AssertOnQuery{[this](StreamTestContext& ctx) -> Status {
                       if (everyRow() && sc_.query.sink.kind == SinkSpec::Kind::kMemory &&
                           !(sc_.hooks && sc_.hooks->customSink)) {
                         // Every row of every committed batch, with its batch.
                         auto batches = ctx.sink.batches();
                         if (batches.ok())
                           for (const auto& [batch, rows] : *batches)
                             for (const Row& row : rows) {
                               final_rows_.push_back(row);
                               final_batch_of_.push_back(batch);
                             }
                         return Status::OK();
                       }
                       auto rows = ctx.sink.rows();
                       if (rows.ok()) final_rows_ = *rows;
                       if (state_.foreach) final_batch_of_ = state_.foreach->batchOf;
                       if (state_.kafkaView) final_batch_of_ = state_.kafkaView->batchOf();
                       // A generated workload's rows of no known batch (a file sink, a custom one).
                       if (everyRow() && final_batch_of_.empty()) final_batch_of_.assign(final_rows_.size(), -1);
                       return Status::OK();
                     },
                     "read the sink for the oracles"},
       SourceLocation{sc_.file, 0, 0});
  if (!steps.setupStatus().ok()) {
    result.setupError = steps.setupStatus();
    return result;
  }
  const std::vector<SourceLocation>& where = steps.where();
  const std::vector<std::string>& stepNames = steps.stepNames();
  StreamTestOptions so;
  so.supervisor.restartPlannedCrashes = options_.faultPlan.has_value();
  // A generated workload's driver is supervised as a job: a failed trigger is followed by a
  // restart too (up to the driver's limit).
  if (sc_.hooks && sc_.hooks->restartOnFailure) so.supervisor.restartPlannedCrashes = so.supervisor.restartOnFailure = true;
  // Under a plan with faults an unfired armed crash is settled by runScenario (docs/faults.md
  // "A plan's faults and the scenario's own steps"); without one it fails the run here.
  const bool planFaults = options_.faultPlan && !options_.faultPlan->faults.empty();
  so.unfiredCrashFails = !planFaults;
  so.reportOnPass = false;  // a passing run's report is read by nobody here (a failure's is in r.status)
  StreamTestResult r = runStreamTest(sim_, query_, steps.takeActions(), so);
  for (const auto& [index, message] : r.unfiredCrashes)
    result.unfiredArmedCrashes.push_back(
        {index >= 0 && index < static_cast<int>(where.size()) ? where[index] : SourceLocation{sc_.file, 0, 0},
         message});
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
    std::string msg = state_.failure.empty() ? r.status.message() : state_.failure;
    const std::string step = r.failedAction >= 0 && r.failedAction < static_cast<int>(stepNames.size())
                                 ? stepNames[r.failedAction]
                                 : std::string();
    result.failures.push_back({at, msg, step});
  }
  if (options_.keepFs != nullptr)
    if (Status kept = copyFileTree(sim_.fs(), "/", *options_.keepFs, options_.keepDir); !kept.ok())
      result.failures.push_back({SourceLocation{sc_.file, 0, 0}, kept.message()});
  result.collect(sim_);
  result.restarts = r.restarts;
  result.traceHash = sim_.trace().fingerprintHex();
  result.actual = std::move(state_.actual);
  result.sinkRows = std::move(final_rows_);
  result.sinkBatchOf = std::move(final_batch_of_);
  result.delivered = delivered_;
  if (sc_.oracleArgs.integer("state_bound", "per_key")) {  // the state_bound oracle per key
    auto rows = committedStateRowsPerKey(sim_.env(), sc_.query.checkpoint, storeKindOf(sc_.query));
    if (rows.ok()) result.stateRowsPerKey = std::move(*rows);
    else result.setupError = rows.status().withContext("reading the final state's rows per key");
  }
  if (options_.collectState) {
    auto dump = dumpCommittedState(sim_.env(), sc_.query.checkpoint, storeKindOf(sc_.query), false);
    if (dump.ok()) result.committedState = std::move(*dump);
    else result.setupError = dump.status().withContext("reading the final state");
  } else if (options_.oracleState && std::any_of(sc_.oracles.begin(), sc_.oracles.end(), [](const std::string& o) {
               // Their check compares the committed state with the engine's timers.
               return o == "interleaving" || o == "determinism" || o == "process_isolation";
             })) {
    auto state = dumpCommittedState(sim_.env(), sc_.query.checkpoint, storeKindOf(sc_.query), true);
    if (state.ok()) result.committedState = std::move(*state);
  }
  return result;
}

SimEnvOptions Runner::simOptions(const Scenario& sc, const ScenarioRunOptions& o) {
  SimEnvOptions s;
  s.seed = o.seed;
  s.startTimeMs = sc.start;
  if (o.faultPlan) s.faultPlan = *o.faultPlan;
  s.parsedFiles = o.parsedFiles;
  for (const ServiceSpec& svc : sc.services)
    s.services.push_back(sim::SimulatedServiceSpec{svc.name, svc.minLatencyMs, svc.maxLatencyMs,
                                                   svc.errors, svc.slow, svc.slowLatencyMs});
  return s;
}

Status Runner::build() {
  const QuerySpec& q = sc_.query;
  if (sc_.fromCheckpoint)  // an incident's starting point (checkpointStartFiles), durable before the first step
    for (const auto& [path, data] : sc_.fromCheckpoint->files)
      STREAMSIM_RETURN_IF_ERROR(sim_.fs().putDurable(joinPath(q.checkpoint, path), data));
  STREAMSIM_ASSIGN_OR_RETURN(std::vector<SourceFactory> sources,
                             buildQuerySources(q, sim_, state_.log, state_.memory));
  const ScenarioHooks* hooks = sc_.hooks.get();
  if (hooks != nullptr && hooks->wrapSource && !sources.empty()) sources[0] = hooks->wrapSource(std::move(sources[0]));
  if (sc_.oracleArgs.has("reference")) {
    // the reference oracle reads what each source delivered
    delivered_ = std::make_shared<DeliveredRows>();
    for (size_t i = 0; i < sources.size(); ++i)
      sources[i] = recordingSource(std::move(sources[i]), static_cast<int>(i), delivered_);
  }
  sources_ = std::move(sources);
  STREAMSIM_ASSIGN_OR_RETURN(OutputMode mode, parseOutputMode(q.outputMode));
  std::shared_ptr<SinkView> view;
  if (hooks != nullptr && hooks->customSink) {
    CustomSink custom = hooks->customSink();
    sink_ = custom.factory;
    view = std::make_shared<CustomSinkView>(sim_, custom.view);
  } else if (q.sink.kind == SinkSpec::Kind::kFiles) {
    if (q.sink.format != "json")  // the scenario's sink views read JSON lines (sink_views.cc)
      return Status::InvalidArgument(fmt::format("a scenario's files sink writes json; format: {} is built for "
                                                 "PySpark jobs' file sinks (docs/python.md)", q.sink.format));
    sink_ = makeFileSink(q.sink.path);
    if (everyRow() && hooks->sinkSchema) {  // every committed row, read with the schema
      view = fileSinkView(sim_, q.sink.path, hooks->sinkSchema);
    } else {
      view = std::make_shared<FileSinkView>(sim_, q.sink.path, mode == OutputMode::kUpdate && !everyRow(),
                                            outputKeys(sc_));
    }
  } else if (q.sink.kind == SinkSpec::Kind::kMemory) {
    auto data = std::make_shared<MemorySinkData>();
    sink_ = makeMemorySink(data);
    view = memorySinkView(std::move(data));
  } else if (q.sink.kind == SinkSpec::Kind::kKafka) {
    STREAMSIM_RETURN_IF_ERROR(state_.log->createTopic(q.sink.topic, sim::TopicConfig{q.sink.partitions, 0})
                                  .withContext(q.sink.where.toString() + ": sink"));
    sink_ = makeKafkaSink(state_.log, q.sink.topic);
    state_.kafkaView = std::make_shared<KafkaTopicView>(state_.log, q.sink.topic);
    view = state_.kafkaView;
  } else if (q.sink.kind == SinkSpec::Kind::kConsole) {
    state_.console = std::make_shared<ConsoleOutput>();
    sink_ = makeConsoleSink(state_.console, ConsoleSinkOptions{q.sink.numRows, q.sink.truncate});
    view = std::make_shared<ConsoleView>(state_.console);
  } else {
    std::shared_ptr<ForeachWriter> user;
    if (!q.sink.writer.empty()) {
      STREAMSIM_ASSIGN_OR_RETURN(ForeachWriterFactory make, foreachWritersOf(sc_.registries.get()).factory(q.sink.writer));
      user = make();
    }
    state_.foreach = std::make_shared<RecordingWriter>(std::move(user));
    sink_ = makeForeachSink(state_.foreach, q.shufflePartitions);
    view = std::make_shared<ForeachView>(state_.foreach);
  }
  STREAMSIM_ASSIGN_OR_RETURN(DataStreamWriter writer, writerFor(q));
  query_ = TestQuery{writer, view};
  return Status::OK();
}


// The most rows of one DataFrame a pandas processor gets in this run: the seed's size
// (pandasChunkRowsOf) under the query's spark.sql.execution.arrow.maxRecordsPerBatch, or the
// run's override (the pandas_chunks oracle's run at the configured size).
int64_t Runner::pandasChunkRows(const QuerySpec& q) const {
  const int64_t max = arrowMaxRecordsPerBatch(q.conf);
  return options_.pandasChunkRows.value_or(pandasChunkRowsOf(options_.seed, max));
}

// The writer of `q` on this run's sources and sink: the scenario's query, or the one a
// `restart: {query: ...}` step switches to (the loader lets it change only the operators,
// output mode, trigger and options; the sources, sink and checkpoint stay).
Result<DataStreamWriter> Runner::writerFor(const QuerySpec& given) {
  // The processors this run was handed instead of its scenario's (ScenarioRunOptions::processors):
  // each `processor: NAME` made from them, so the query builder finds its factory set
  // (TransformWithStateOp::factory).
  QuerySpec resolved;
  const QuerySpec* q = &given;
  if (options_.processors) {
    resolved = given;
    for (auto& op : resolved.operators) {
      auto* t = std::get_if<TransformWithStateOp>(&op.op);
      if (t == nullptr || t->factory || !t->pythonFile.empty()) continue;
      STREAMSIM_ASSIGN_OR_RETURN(t->factory, options_.processors->factory(t->processor, t->params));
    }
    q = &resolved;
  }
  // The sources and sink keep the scenario's names across a `restart: {query: ...}`.
  STREAMSIM_ASSIGN_OR_RETURN(DataStreamWriter writer, buildQueryWriter(*q, sources_, sink_, &sc_.query, pandasChunkRows(*q),
                                                                       sc_.hooks.get(), sc_.registries.get()));
  if (options_.noDataBatchBeforeFirstBatchOfRun || options_.traceOutputRows) {
    QueryOptions qo = writer.queryOptions();
    qo.noDataBatchBeforeFirstBatchOfRun = options_.noDataBatchBeforeFirstBatchOfRun;
    qo.traceOutputRows = options_.traceOutputRows;
    writer.options(std::move(qo));
  }
  return writer;
}
}  // namespace streamsim::harness::detail
