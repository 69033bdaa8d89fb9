// Embedded CPython for streamsim (DESIGN.md §5c): starts the interpreter (fixed PYTHONHASHSEED,
// the pyspark shim on sys.path), adapts a Python StatefulProcessor to the C++ processor interface
// and defines the `_streamsim_native` module whose state objects are the engine's own state
// variables. Every call into Python takes the GIL, so processors may run on several threads of a
// sweep (their Python code then runs one at a time). Python objects are owned under the GIL.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/run/registries.h"
#include "streamsim/status.h"
#include "streamsim/tws/processor_registry.h"
#include "streamsim/tws/stateful_processor.h"

namespace streamsim::python {

namespace py = pybind11;

// Starts the interpreter once per process (unless this code runs inside Python already) and
// puts the pyspark shim (python/) on sys.path. Safe to call from any thread.
Status ensureInterpreter();

// What a processor declared in init: name -> {kind, key DDL, value DDL}; the tester reads it to
// encode and decode the values it peeks and sets.
struct DeclaredVariable {
  std::string kind;  // value | list | map
  std::string keyDDL;
  std::string valueDDL;
};
// What the processors of one factory recorded: the variables declared in init and the last
// Python exception a handler raised (the tester re-raises it). Owned under the GIL.
struct ProcessorRecord {
  std::map<std::string, DeclaredVariable> variables;
  py::object lastError = py::none();
};

// A factory for Python processors. `makeInstance` returns a fresh processor object (called with
// the GIL held); the factory owns it through shared state freed under the GIL.
struct PythonFactoryOptions {
  std::string name;
  std::string outputSchemaDDL;
  bool inPandas = false;
  // When set, read at every call instead of inPandas (the tester switches per call).
  py::object pandasMode = py::none();
  std::vector<std::string> hiddenColumns;
  // Row mode hands input rows, their key and initial-state rows in PyForm::kArrow (a query's
  // run); off in the tester, which hands them as given.
  bool arrowInputs = false;
  py::object guard = py::none();  // the file's WallClockGuard (None: no guard)
  py::object loaded = py::none();  // the file's _driver.Loaded (unloaded with the factory)
  std::function<py::object()> makeInstance;
  // The processor's class: a subclass of AsyncStatefulProcessor runs as an async processor
  // (python_async.cc) on the engine's async runtime. None: a sync StatefulProcessor.
  py::object processorClass = py::none();
  // A sync processor's driver, called as streamsim._driver.Driver is (instance, guard, inPandas,
  // outputNames); None: Driver. The tester's runs init once per tester (streamsim.pyspark).
  py::object driverClass = py::none();
  int64_t callLimitMs = 0;  // the per-call limit (call_guard.h; 0: kDefaultCallLimitMs)
  // Pandas mode: the most rows of one DataFrame a handler gets (0: Spark's default 10,000,
  // spark.sql.execution.arrow.maxRecordsPerBatch).
  int64_t pandasChunkRows = 0;
  // The query's time mode ("EventTime": a timer registered from the processing time is reported).
  std::string timeMode;
};
Result<ProcessorFactory> makePythonFactory(PythonFactoryOptions options,
                                           std::shared_ptr<ProcessorRecord> record = nullptr);

// Loads spec.file and returns its reference function spec.function (RunRegistries::pythonReferences).
Result<harness::PythonReference> loadPythonReferenceFile(const harness::PythonReferenceSpec& spec);
// Loads spec.file and returns a factory of spec.className instances (RunRegistries::pythonProcessors).
Result<ProcessorFactory> loadPythonProcessorFile(const harness::PythonProcessorSpec& spec);
// What a runner embedding this Python support adds to what it hands its runs (run/registries.h):
// the two loaders above, the CLI the hash_seed oracle starts and the interpreter's hash seed. The
// CLI's main adds them to the runner's own registries.
void addPythonSupport(harness::RunRegistries& registries);
// The Python module's: the example processors and the bug-class ones (registerExampleProcessors,
// registerBugClassProcessors), the built-in references and the Python support; a new
// value each call.
std::shared_ptr<const harness::RunRegistries> pythonRunRegistries();

// The engine's values as Python objects and back (python_values.cc; cast to `type`; throws
// StatefulProcessorError for a value that does not fit). Out, in one of two forms PySpark hands a
// handler:
// - kPickled, a row PySpark pickles (state reads, timer keys; the tester, like PySpark's TwsTester,
//   whose rows reach the handler as given): a struct is a Row with its field names, an array a
//   list, a map a dict;
// - kArrow, a row-mode query's input rows, their grouping key and initial-state rows, which
//   PySpark's worker takes from Arrow batches column by column with `.as_py()`
//   (TransformWithStateInPySparkRowSerializer): a struct is a dict, an array a list, a map a list
//   of (key, value) tuples, a timestamp an aware datetime in the session time zone (UTC; pickled:
//   a naive one).
enum class PyForm { kPickled, kArrow };
py::object toPython(const Value& v, PyForm form = PyForm::kPickled);
// A TIMESTAMP (ms since the epoch) as a datetime: naive when pickled, UTC-aware in Arrow form; a
// DATE (days since the epoch) as a date. As PySpark converts them (toPython does).
py::object timestampToPython(int64_t ms, PyForm form);
py::object dateToPython(int64_t days);
// What a value is ("ValueState 'count' update() column 'n'"), for the message of a value that does
// not fit: built only then, not for every value converted.
using WhatFn = std::function<std::string()>;
Value fromPython(py::handle o, Type type, const std::string& what);
Value fromPython(py::handle o, Type type, const WhatFn& what);
// How a struct given as a Row with field names is read: by name in output rows (PySpark hands
// Row.asDict(True) to Arrow), by position in state values (StructType.toInternal, a Row being a
// tuple).
enum class NamedRows { kByName, kByPosition };
// A value of field `f`, nested types included: a struct from a tuple or list (by position, its
// length checked), a dict (by name) or a named Row (NamedRows); an array from a list or tuple (or
// a numpy array); a map from a dict. A value that does not fit raises PySpark's condition
// (FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME, FIELD_STRUCT_LENGTH_MISMATCH_WITH_NAME,
// FIELD_NOT_NULLABLE_WITH_NAME for None inside a nested value where its type has no nulls) or,
// for a scalar, CANNOT_CONVERT_TYPE.
Value fromPython(py::handle o, const Field& f, const WhatFn& what,
                 NamedRows named = NamedRows::kByPosition);
// A tuple (or Row) in `schema`'s column order as an engine Row.
Row tupleToRow(py::handle values, const SchemaPtr& schema, const std::string& what);
Row tupleToRow(py::handle values, const SchemaPtr& schema, const WhatFn& what,
               NamedRows named = NamedRows::kByPosition);
py::tuple rowToTuple(const Row& row, PyForm form = PyForm::kPickled);
// The row as PySpark unpickles a struct the JVM pickled: a Row with the schema's field names
// (MapState.getValue hands it over as it is; ValueState.get and the iterators take tuple() of it).
py::object rowToNamedRow(const Row& row);
// A Python value as an engine Value of the type its Python type suggests (int -> long, ...; a
// Row or tuple -> a struct (fields _1, _2, ... for a tuple), a list -> an array, a dict -> a map,
// of the element types of their first items that are not None).
Value inferFromPython(py::handle o);
// (names or None, values) as emitted by _driver.Driver, as an engine Row: with `schema`
// (outputStructType) the values are matched by name and cast, otherwise types are inferred.
Row outputToRow(py::handle names, py::handle values, const SchemaPtr& schema, RowShapes& shapes);

// Defines the classes of `_streamsim_native` (handle and state variables) in `m`.
void defineNativeModule(py::module_& m);
// Adds the tester (streamsim.pyspark.TwsTester's engine) and run/sweep to `m` (tester_module.cc).
void defineTesterModule(py::module_& m);

// main() of streamsim-python: CPython's command line (`-m pytest ...`) with the module built in,
// PYTHONHASHSEED fixed and the pyspark shim on sys.path.
int runPythonMain(int argc, char** argv);

// The Python exception being handled, rethrown for the engine: a StatefulProcessorError when it
// carries a rule (_streamsim_rule), else std::runtime_error with "Type: msg at file:line" and the
// traceback. REQUIRES: the GIL.
[[noreturn]] void rethrowForEngine(py::error_already_set& e);

}  // namespace streamsim::python
