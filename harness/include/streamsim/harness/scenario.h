// The scenario language (DESIGN.md §6, docs/scenarios.md): one YAML file = one scenario — a
// query, a list of steps that map one to one onto harness actions, the oracles to apply and the
// knobs of a fault sweep. This header holds the typed model and the loader, which rejects a bad
// file before anything runs, with file:line:column and what was expected for every error.
// Plain values; loading touches only the file it is given and may run on several threads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "streamsim/harness/oracles/oracle_args.h"
#include "streamsim/ops/flat_map_groups_with_state.h"
#include "streamsim/ops/stream_stream_join.h"
#include "streamsim/status.h"
#include "streamsim/time.h"
#include "streamsim/tws/stateful_processor.h"
#include "streamsim/value.h"

namespace streamsim::expr {
class UserFunctions;  // expr/user_functions.h
}

namespace streamsim::harness {

struct ScenarioHooks;  // scenario_hooks.h
struct RunRegistries;  // run/registries.h

// Where something was written: 1-based line and column (0 when unknown).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string toString() const;  // "scenarios/x.yaml:12:7"
};

// One loader error: `file:line:col: message`.
struct ScenarioError {
  SourceLocation where;
  std::string message;
  std::string toString() const;
};

// A row as written in the file: column names with values typed from YAML (integers -> long,
// decimals -> double, true/false -> boolean, null/~ -> null, anything else -> string). Use
// toRow() to cast it to a schema (timestamps from "2026-01-01T00:00:00Z" strings).
struct RowSpec {
  std::vector<std::pair<std::string, Value>> fields;
  SourceLocation where;

  // A Row in `schema`'s column order; columns missing from the spec are null. InvalidArgument
  // when a column is not in the schema or a value does not cast.
  Result<Row> toRow(const Schema& schema) const;
  // A Row with the columns as written (schema inferred from the values).
  Row toRow() const;
};

// ---------------------------------------------------------------------------------------------
// query

struct SourceSpec {
  // kRate: Spark's rate source (io/rate_source.h); kRateMicroBatch: its rate-micro-batch
  // (io/rate_micro_batch_source.h).
  enum class Kind { kFiles, kMemory, kKafka, kRate, kRateMicroBatch };
  Kind kind = Kind::kFiles;
  std::string path;             // files only
  std::string topic;            // kafka only: the topic read (created with `partitions`)
  int partitions = 1;           // kafka only
  DurationMs retentionMs = 0;   // kafka only: 0 keeps every record
  bool binaryKeyValue = false;  // kafka only: key and value BINARY (Spark's) instead of STRING
  std::string format = "json";  // json (JSON lines), csv or text (io/csv_rows.h)
  std::string schemaDDL;        // Spark DDL, checked by Schema::parseDDL
  SchemaPtr schema;             // parsed from schemaDDL
  std::map<std::string, std::string> options;  // Spark's option names (maxFilesPerTrigger, ...)
  std::string name;  // Spark 4.2's DataStreamReader.name ("" unnamed)
  SourceLocation where;
  // `{sameReaderAs: i}`: this entry is source i's reader read a second time (Spark's
  // reader.union(reader)), -1 when it is a reader of its own (DataFrame's readers).
  int sameReaderAs = -1;
};

struct WatermarkOp {
  std::string column;
  DurationMs delayMs = 0;
};
struct DropDuplicatesOp {
  std::vector<std::string> columns;
  bool withinWatermark = false;  // dropDuplicatesWithinWatermark
};
struct SelectOp {
  std::vector<std::string> columns;
};
struct AggSpec {
  std::string function;  // count | sum | min | max | avg
  std::string column;    // empty: count(*)
  std::string as;        // output name; empty: the engine's default
};
// `groupBy: [cols] + window: {...} + agg: [...]` (no `window:`: a window-less aggregation), or the
// expression form `groupBy: ["window(ts, '10 minutes')", user]` + `agg: ["count(*) AS n"]`
// (ops/expr_aggregation.h), kept as written in groupByExprs / aggExprs and planned when built.
struct WindowAggregationOp {
  std::vector<std::string> groupBy;  // besides the window; the expression form: the output keys
  bool windowless = false;           // no `window:` key
  std::string timeColumn;
  DurationMs windowMs = 0;
  DurationMs slideMs = 0;  // 0: tumbling
  DurationMs startTimeMs = 0;
  std::vector<AggSpec> aggregates;
  std::vector<std::string> groupByExprs;  // the expression form (then the fields above are unused)
  std::vector<std::string> aggExprs;
};
struct TransformWithStateOp {
  std::vector<std::string> groupBy;
  std::string processor;                  // a name in the run's processors (RunRegistries::processors)
  std::optional<std::string> outputMode;  // append | update (unset: the query's)
  std::string timeMode = "None";          // None | ProcessingTime | EventTime
  std::optional<std::string> eventTimeColumn;
  std::vector<RowSpec> initialState;
  bool initialStateGiven = false;  // the key was there (an empty list is an empty initial state)
  std::optional<DurationMs> ttlMs;  // `ttl:`, also params["ttl"] (docs/scenarios.md)
  // `params:` (and `ttl:` as "ttl"): handed to the registered processor's factory
  // (ProcessorSet::factory(name, params)).
  std::map<std::string, std::string, std::less<>> params;
  // A Python processor (python_processors.h): `python:` file (resolved), `class:`,
  // `outputStructType:` and `inPandas:`; pythonFile empty for a registered C++ processor.
  std::string pythonFile;
  std::string pythonClass;
  std::string outputStructType;
  bool inPandas = false;
  int64_t pythonCallLimitMs = 0;  // `callLimit:` (PythonProcessorSpec::callLimitMs; 0: the default)
  // A processor given in code rather than named in a file: the PySpark job API
  // (python/native/job_world.cc) sets it after loading its query, for the processor object a
  // job passes to transformWithState. When set, it is used instead of `processor`/`python`.
  ProcessorFactory factory;
};

// `groupBy: [cols]` with `flatMapGroupsWithState: {function, timeout, outputMode, params,
// stateStructType, outputStructType, name}` (ops/flat_map_groups_with_state.h): a built-in
// function (harness/src/scenario/group_state_functions.h) or, from the PySpark job API, one given in code.
// `limit: N`: Spark's limit on a stream (ops/streaming_limit.h).
struct LimitOp {
  int64_t n = 0;
};
struct FlatMapGroupsWithStateOp {
  std::vector<std::string> groupBy;
  std::string function;                   // a built-in name, or "job:N" (python/native/job_world.cc)
  std::string timeout = "NoTimeout";      // NoTimeout | ProcessingTimeTimeout | EventTimeTimeout
  std::string outputMode = "update";      // append | update
  std::map<std::string, std::string, std::less<>> params;  // a built-in function's
  std::string stateStructType;            // "" for a built-in: the function's own
  std::string outputStructType;           // the job's outputStructType ("" for a built-in)
  std::string name = "flatMapGroupsWithState";  // or applyInPandasWithState (Spark's shortName)
  // Set by the PySpark job API for a function given in code (used instead of `function`).
  GroupStateFunctionFactory factory;
};

// `join: {static: {schema, rows}, on: [cols], how: inner}`: a stream–static join
// (ops/stream_static_join.h); the rows are cast to the schema when the scenario loads.
// `join: {stream: {from: 1}, on: [cols], how: inner, range: {...}}`: a stream–stream join
// (ops/stream_stream_join.h) of sources [0, from) with sources [from, n); `stream` is set and
// holds both sides' schemas, the join type and the range.
struct JoinOp {
  SchemaPtr schema;
  std::vector<Row> rows;
  std::vector<std::string> on;
  std::string how = "inner";  // Spark's join type name, checked when the scenario loads
  std::optional<StreamStreamJoinSpec> stream;
};

// The expression operators (ops/expr_ops.h) with Spark SQL expression strings:
// `select:`/`selectExpr:` [exprs], `where:`/`filter:` expr, `withColumn:` {name: expr, ...},
// `withColumnRenamed:` {old: new, ...}, `drop:` [names], `explode:` {column, as, outer, position}.
struct ExprOp {
  enum class Kind { kSelect, kWhere, kWithColumn, kWithColumnRenamed, kDrop };
  Kind kind = Kind::kSelect;
  std::string keyword;             // as written: select, selectExpr, where, filter, explode, ...
  std::vector<std::string> exprs;  // select items / the condition / withColumn values
  std::vector<std::string> names;  // withColumn names / renamed old, new pairs / dropped names
};

struct OperatorSpec {
  std::variant<WatermarkOp, DropDuplicatesOp, SelectOp, WindowAggregationOp, TransformWithStateOp,
               JoinOp, ExprOp, FlatMapGroupsWithStateOp, LimitOp>
      op;
  SourceLocation where;
  std::string_view kindName() const;  // withWatermark, dropDuplicates, ...
};

struct SinkSpec {
  enum class Kind { kFiles, kMemory, kForeach, kKafka, kConsole };
  Kind kind = Kind::kMemory;
  std::string path;  // files only
  std::string topic;   // kafka only: the topic written (created with `partitions`)
  int partitions = 1;  // kafka only
  std::string format = "json";  // files only: json | parquet | csv | text (PySpark jobs; scenarios read json)
  std::string compression = "snappy";  // files, parquet only: snappy | gzip | none | uncompressed
  std::map<std::string, std::string> options;  // files, csv only: the CSV writer's options
  std::string writer;  // foreach only: a registered user ForeachWriter ("": the recording one)
  int numRows = 20;     // console only: Spark's numRows and truncate options
  bool truncate = true;
  std::string name;  // Spark 4.2's DataStreamWriter.name ("" unnamed)
  SourceLocation where;
};

struct TriggerSpec {
  enum class Kind { kDefault, kProcessingTime, kAvailableNow, kOnce, kRealTime };
  Kind kind = Kind::kDefault;
  DurationMs intervalMs = 0;  // processingTime; realTime: the batch duration (default 5 min)
};

struct QuerySpec {
  // The loader's user-defined functions (LoaderOptions::userFunctions), handed to the query.
  std::shared_ptr<const expr::UserFunctions> userFunctions;
  std::vector<SourceSpec> sources;  // `source:` (one) — a list is accepted for unions
  // `sources:` whose schemas differ: Spark's union by position (ops/expr_ops.h
  // unionByPositionSchema), applied before the operators; null when they agree.
  SchemaPtr unionSchema;
  // A source's own `operators:` (per-row expressions and withWatermark), run on that source's
  // rows before the union or stream-stream join of the sources (Spark's plan: the operators of
  // that child). One list per source when any source has some (a lone source's go to the
  // front of `operators`); empty otherwise.
  std::vector<std::vector<OperatorSpec>> sourceOperators;
  std::vector<OperatorSpec> operators;
  SinkSpec sink;
  std::string outputMode = "append";  // append | update | complete
  TriggerSpec trigger;
  std::string checkpoint = "/chk";
  std::string stateStore = "memory";  // memory | rocksdb
  bool stateStoreSet = false;         // `stateStore:` was written (real time defaults to rocksdb)
  int shufflePartitions = 4;
  int taskRetries = 0;
  std::map<std::string, std::string> conf;  // other DataStreamWriter options, passed through
  SourceLocation where;
};

// ---------------------------------------------------------------------------------------------
// steps (one to one with harness actions)

struct PutStep {  // a landing file appears atomically
  std::string path;
  std::vector<RowSpec> rows;
  std::optional<std::string> text;  // raw content instead of rows (malformed lines, ...)
  std::optional<TimeMs> mtime;      // default: the virtual clock
};
struct PutPartialStep {  // a landing file visible while being written
  std::string path;
  std::vector<RowSpec> rows;
  std::optional<std::string> text;
  std::optional<int64_t> visibleBytes;
  std::optional<double> fraction;  // of the full content, in (0, 1)
};
struct ResendStep {  // same content, new name
  std::string from;
  std::string to;
  std::optional<TimeMs> mtime;
};
struct TouchStep {
  std::string path;
  TimeMs mtime = 0;
};
struct DeleteStep {
  std::string path;
};
struct AddRowsStep {  // memory source
  std::vector<RowSpec> rows;
  int source = 0;
};
struct AdvanceStep {  // virtual time: exactly one of by / to
  std::optional<DurationMs> by;
  std::optional<TimeMs> to;
  bool triggerOnce = false;  // `trigger: once` (with by): then exactly one trigger (AdvanceManualClock)
  // Programs only (a generated workload's times, generated_scenario.h): `to` already passed is no
  // error — the clock stays, and with triggerOnce no trigger is taken (the driver was down then).
  bool catchUp = false;
};
struct RunStep {
  std::optional<int> batches;  // unset: `run: available` (process all available)
};
struct CrashStep {
  std::string at;       // a fault point (faults::isFaultPoint)
  int64_t batch = -1;   // -1: the next pass of the point
  int partition = -1;
  bool now = false;     // crash right away (between batches) instead of arming the point
  int64_t nth = 1;      // the nth pass of the point (realtime.after_record: after N records)
};
struct ProduceRecord {  // one record a producer sends to a Kafka-like topic
  std::optional<std::string> key;
  std::string value;              // a map in the file is sent as its JSON
  std::optional<TimeMs> at;       // default: the step's `at`, else the virtual clock
  int partition = -1;             // -1: chosen from the key
  int duplicates = 0;             // extra copies a retrying producer appends
  SourceLocation where;
};
struct ProduceStep {  // records appended to a topic at virtual times (they arrive then)
  std::string topic;  // default: the first kafka source's topic
  std::optional<TimeMs> at;
  std::vector<ProduceRecord> records;
};
// `restart: {}` crashes the driver (when it runs) and starts it again; `restart: {query: {...}}`
// starts it with the query's operators, outputMode, trigger, stateStore, shufflePartitions,
// taskRetries or conf replaced by those given (a new processor version, sync -> async,
// micro-batch -> real time) on the same sources, sink and checkpoint, as Spark restarts a
// changed query on its checkpoint. Later restarts keep the new query. `restart: {after: 2m}`:
// the driver stays down for that virtual time (an outage) — the steps after it (put, add_rows,
// advance, expect) happen while it is down — and comes back when a step needs the query (a run,
// advance with triggerOnce), once the clock is at least that far.
struct RestartStep {
  std::optional<QuerySpec> query;
  DurationMs after = 0;
};
struct StopStep {};

struct StateExpectation {
  RowSpec key;  // `key: a` (single column) or `key: {col: a}`
  std::string variable;
  bool absent = false;        // `value: null` or `absent: true`
  std::optional<Value> value;  // scalar value
  std::optional<std::vector<Value>> list;  // `values: [...]` for ListState
  std::optional<std::vector<std::pair<Value, Value>>> map;  // `entries: {k: v}` for MapState
  // `raw: true`: also values whose TTL expired by the clock's now but that no cleanup removed
  // yet (Spark's getWithoutEnforcingTTL); by default they are hidden, as from a handler now.
  bool raw = false;
  // `expires_at: T` / `[T1, null, ...]`: each value's TTL expiry (null: no TTL), in stored order.
  std::optional<std::vector<std::optional<TimeMs>>> expiresAt;
  SourceLocation where;
};
struct TimerExpectation {
  RowSpec key;
  std::vector<TimeMs> timers;  // ascending
  SourceLocation where;
};
struct CheckpointExpectation {
  std::optional<std::vector<int64_t>> offsets;
  std::optional<std::vector<int64_t>> commits;
  std::vector<std::string> filesExist;
  std::vector<std::string> filesAbsent;
};

struct ExpectStep {
  std::optional<std::vector<RowSpec>> sink;      // the reader's view, order-insensitive
  std::optional<std::vector<RowSpec>> newRows;   // rows added since the last expect
  // `sink_contains:` the reader's view holds these rows (a multiset: each as often as listed),
  // and maybe others: Spark's CheckAnswerRowsContains, for a sink that may repeat rows (a
  // real-time query's at-least-once sink after a restart).
  std::optional<std::vector<RowSpec>> sinkContains;
  // `columns: partial`: sink and new_rows compare only the columns each expected row names
  // (RowMatch::partial); `columns: all` (the default) compares whole rows.
  bool partialColumns = false;
  std::vector<StateExpectation> state;
  std::vector<TimerExpectation> timers;
  std::map<std::string, Value> progress;  // field -> value of the last progress record
  // field -> how the record's figure compares with `progress`'s value: "==" (the default), ">=",
  // ">", "<=", "<" or "!=", written as a string (`numInputRows: ">= 3"`), as Spark's suites assert
  // `progress.numInputRows >= 3`.
  std::map<std::string, std::string> progressOps;
  std::optional<CheckpointExpectation> checkpoint;
  std::optional<std::string> error;  // the query failed with a message containing this
  // The console sink's text: what it printed for each batch (its latest print of a batch a crash
  // made it print again), in batch order (io/console_sink.h).
  std::optional<std::string> console;
  // error: {condition: NAME, parameters: {name: value}, message: text}: Spark's condition too.
  std::string errorCondition;
  std::vector<std::pair<std::string, std::string>> errorParameters;
  SourceLocation sinkWhere;          // for --update: where the `sink:` list starts
  SourceLocation newRowsWhere;
};

using StepVariant = std::variant<PutStep, PutPartialStep, ResendStep, TouchStep, DeleteStep,
                                 AddRowsStep, AdvanceStep, RunStep, CrashStep, RestartStep,
                                 StopStep, ExpectStep, ProduceStep>;

struct Step {
  StepVariant step;
  SourceLocation where;
  std::string_view kindName() const;  // put, put_partial, ..., expect
};

// ---------------------------------------------------------------------------------------------
// sweep knobs (mapped onto sim::FaultKnobs by the sweep runner)

struct SweepSpec {
  int seeds = 100;
  std::vector<std::string> crashPoints;  // empty: all
  int maxCrashes = 1;
  bool tornWrites = false;
  double taskFailures = 0;    // probability per (batch, partition)
  double ioErrors = 0;        // probability per batch
  double landingFaults = 0;   // probability per landing file (resend, old mtime, half written...)
  int64_t batches = 10;
  double switches = 0;        // probability per (batch, partition) of async context switches
  int64_t switchSteps = 8;    // the scheduling steps they target: [0, switch_steps)
  // `downtime: 0..5m` (or `downtime: 5m`, the same): the plan's crashes leave the driver down
  // that long (sim::FaultKnobs::downtimeMin/Max: a value per seed, 0 in about half of them).
  DurationMs downtimeMin = 0;
  DurationMs downtimeMax = 0;
  // The landing files landing faults may target, and the scale of their delays (a generated
  // workload's: generated_scenario.h; a scenario file's puts are its own steps: 0).
  int64_t files = 0;
  DurationMs fileInterval = 1000;
  SourceLocation where;
};

// An outside service async processors await (`services:`; sim/simulated_service.h).
struct ServiceSpec {
  std::string name;
  DurationMs minLatencyMs = 10;  // `latency: 10ms` or `latency: [5ms, 20ms]`
  DurationMs maxLatencyMs = 10;
  double errors = 0;             // probability of an error reply
  double slow = 0;               // probability of a reply after `slow_latency`
  DurationMs slowLatencyMs = 10'000;
  SourceLocation where;
};

struct Scenario {
  std::string name;
  std::string description;
  QuerySpec query;
  TimeMs start = 0;  // `start:` the virtual clock's initial time (default 2026-01-01T00:00:00Z)
  std::vector<Step> steps;
  std::vector<std::string> oracles;
  SourceLocation oraclesWhere;
  // The parameters of `oracles: [{state_bound: N}, {reference: NAME}, ...]`, each oracle's own
  // (oracles/oracle_args.h; the forms: docs/oracles.md).
  OracleArgs oracleArgs;
  std::optional<SweepSpec> sweep;
  std::vector<ServiceSpec> services;
  // `from_checkpoint: {path: DIR, batch: K}`: the run starts after committed batch K of a real
  // checkpoint (an incident, docs/incident-replay.md): K's offsets and commit and the state K
  // committed (checkpoint_replay.h's checkpointStartFiles, read when the scenario loads) are in the
  // query's checkpoint folder before the first step; the scenario's own source starts with nothing read.
  struct CheckpointStartSpec {
    std::string path;   // resolved against the scenario's folder
    int64_t batch = 0;
    std::map<std::string, std::string> files;  // relative to query.checkpoint -> bytes
    std::string stateLoaded;
  };
  std::optional<CheckpointStartSpec> fromCheckpoint;
  std::string file;  // the path it was loaded from
  // Set only by a C++ program that builds the scenario (a generated workload's:
  // generated_scenario.h), never by the loader: its processor factory, C++ reference function and
  // test hooks (scenario_hooks.h).
  std::shared_ptr<const ScenarioHooks> hooks;
  // What the runner that loaded it hands its runs (run/registries.h: the Python loaders, ...):
  // LoaderOptions::registries, or set by the program that built it. Null: none.
  std::shared_ptr<const RunRegistries> registries;
};

struct LoaderOptions {
  // Whether a processor name is known; default: one of registries->processors (none without).
  std::function<bool(std::string_view)> isProcessor;
  // Known processor names for the error message; default: registries->processors' names.
  std::function<std::vector<std::string>()> processorNames;
  // Oracle names accepted; default: oracleNames() (oracles.h).
  std::vector<std::string> oracles;
  // User-defined functions the query's expressions may call (a PySpark job's udf /
  // spark.udf.register; expr/user_functions.h); null: none.
  std::shared_ptr<const expr::UserFunctions> userFunctions;
  // Set on the scenario (Scenario::registries): what the runner hands its runs.
  std::shared_ptr<const RunRegistries> registries;
};

// Every error of the file (not only the first) or the scenario.
struct ScenarioLoad {
  std::optional<Scenario> scenario;  // set only when errors is empty
  std::vector<ScenarioError> errors;
  bool ok() const { return errors.empty(); }
  // One error per line.
  std::string errorText() const;
};

ScenarioLoad parseScenario(std::string_view yaml, const std::string& fileName,
                           const LoaderOptions& options = {});
ScenarioLoad loadScenarioFile(const std::string& path, const LoaderOptions& options = {});
// InvalidArgument whose message lists every error, one per line.
Result<Scenario> loadScenario(const std::string& path, const LoaderOptions& options = {});

// The queries a scenario runs: its `query:` first, then each query a `restart: {query: ...}`
// switches to, in step order. What asks "does any of its queries ..." walks these.
std::vector<const QuerySpec*> scenarioQueries(const Scenario& scenario);

// Whether the scenario's query, or a query a `restart: {query: ...}` switches to, runs in
// real-time mode.
bool runsRealTime(const Scenario& scenario);

// `sweep`/`replay --state-store S`: runs the scenario's query, and every query a
// `restart: {query: ...}` switches to, on store S. A real-time scenario keeps its own store
// (real time runs on RocksDB; one naming another store shows Spark's refusal of it): false then.
bool overrideStateStore(Scenario& scenario, const std::string& store);

}  // namespace streamsim::harness
