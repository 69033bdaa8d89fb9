// Python processors in scenarios (DESIGN.md §5c): `transformWithState: {python: FILE, class: C,
// outputStructType: DDL}` names a PySpark StatefulProcessor class. The harness holds only the
// loader's type: the embedded-CPython support (python/native) provides the loader, and the runner
// hands it to its runs (run/registries.h: RunRegistries, loadPythonProcessor).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "streamsim/status.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::harness {

struct PythonProcessorSpec {
  std::string file;       // the processor's .py file (resolved against the scenario's folder)
  std::string className;  // a StatefulProcessor subclass defined in it
  std::string outputSchemaDDL;  // outputStructType ("" = inferred from the rows emitted)
  bool inPandas = false;        // transformWithStateInPandas: rows and output as DataFrames
  // Input columns the processor does not see (the tester's synthetic key column).
  std::vector<std::string> hiddenColumns;
  // The longest one call of the processor's code may run (wall clock, ms; 0: the default, 60 s):
  // past it the call is interrupted and fails its task (`callLimit:`, docs/python.md).
  int64_t callLimitMs = 0;
  // transformWithStateInPandas: the most rows of one DataFrame of a handler call's input
  // (spark.sql.execution.arrow.maxRecordsPerBatch; 0: Spark's default, 10,000). A key's rows in
  // one call come as several DataFrames when they are more (pandasChunkRows below).
  int64_t pandasChunkRows = 0;
  // The operator's timeMode (None | ProcessingTime | EventTime): with EventTime, a timer registered
  // from timerValues.getCurrentProcessingTimeInMs() fails the call
  // (EVENT_TIME_TIMER_FROM_PROCESSING_TIME).
  std::string timeMode;
};

// A factory of fresh processor instances of spec.className (RunRegistries::pythonProcessors).
using PythonProcessorLoader = Result<ProcessorFactory> (*)(const PythonProcessorSpec&);

// A Python reference function (`oracles: [{reference: file.py:function}]`, the reference oracle):
// `function(rows)` gets every row the sources delivered (pyspark Rows, in delivery order) and
// returns the expected final view (Rows or dicts), cast to `outputSchemaDDL` when given (the
// query's last transformWithState's outputStructType), else typed as Python's values suggest.
struct PythonReferenceSpec {
  std::string file;
  std::string function;
  std::string outputSchemaDDL;
};
// The loaded function: an error for a Python exception in it (its message and file:line).
using PythonReference = std::function<Result<std::vector<Row>>(const std::vector<Row>&)>;
using PythonReferenceLoader = Result<PythonReference> (*)(const PythonReferenceSpec&);

// spark.sql.execution.arrow.maxRecordsPerBatch: PySpark's TransformWithStateInPandasSerializer
// cuts a key's rows into DataFrames of at most this many rows (SQLConf's default 10,000; <= 0:
// no limit). A scenario's `conf:` may set it; the engine never reads it.
inline constexpr const char* kArrowMaxRecordsPerBatchConf = "spark.sql.execution.arrow.maxRecordsPerBatch";
inline constexpr int64_t kArrowMaxRecordsPerBatchDefault = 10'000;
inline constexpr int64_t kArrowUnlimitedRecords = 2147483647;  // 2^31 - 1, PySpark's "no limit"
// The configured size in `conf` (the default when unset; a value <= 0 is no limit). A value
// that is not an integer is the parser's error (scenario `conf:`), read here as the default.
int64_t arrowMaxRecordsPerBatch(const std::map<std::string, std::string>& conf);
// Seed s's DataFrame size under `max`: a plain run (seed 0) gets `max`, as Spark; another seed,
// drawn from its stream "pandas_chunks", 1, 2 or 3 rows (several DataFrames per key and call)
// three times in four, else `max`. A correct pandas processor gives the same output at any size
// (the pandas_chunks oracle compares).
int64_t pandasChunkRowsOf(uint64_t seed, int64_t max);

// Hash seeds (the hash_seed oracle, docs/oracles.md). CPython fixes str/bytes hashing (and so a
// set's iteration order) when its interpreter starts, so the same case under another hash seed
// runs in another process: the built CLI's `hash-seed-worker`, whose path the runner hands its
// runs beside the loader (RunRegistries::pythonCli; empty: hash_seed is not checked).
// The interpreter's own seed is the Python support's (RunRegistries::pythonHashSeed).
// Seed s's other hash seed: one of kPythonHashSeeds values, never 0 (the CLI's own), chosen by s
// alone (its stream "hash_seed"), so a replay line's --seed reproduces it. The seeds of a sweep
// share those few values so that one worker process per value serves them all (a sweep keeps
// them, ScenarioRunOptions::keptWorkers): a process tests one hash seed, and starting Python (and
// importing pandas) costs more than the run it makes. Eight orders of every set against hash
// seed 0's, drawn again for every seed's input and faults.
inline constexpr size_t kPythonHashSeeds = 8;
uint32_t pythonHashSeedOf(uint64_t seed);

}  // namespace streamsim::harness
