// What the sync and the async adapter of Python processors share (python_support.cc,
// python_async.cc): the per-factory record of one processor file or object, the native handle
// given to init, and the conversion of rows in and out. Everything here REQUIRES the GIL.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "python_support.h"

namespace streamsim::python {

// Python code may keep a handle or state object beyond its task; every call checks this flag,
// cleared when the processor that created it is destroyed.
using Alive = std::shared_ptr<bool>;

// The output columns (positions in outputStructType) of the names a processor's rows carry, kept
// for the last names seen: a processor yields rows of one shape again and again.
struct OutputColumns {
  std::vector<py::object> names;
  std::vector<std::string> text;
  std::vector<int> index;
  // (names, values) as an engine row of `schema`, values matched by name and cast.
  Row toRow(py::handle names, py::handle values, const SchemaPtr& schema);
  // The schemas of rows whose types are inferred (no outputStructType).
  RowShapes inferred;
};

// What every processor instance of one factory shares; freed under the GIL (makeShared).
struct Shared {
  std::string name;
  SchemaPtr outputSchema;  // null: inferred
  py::object outputNames = py::none();
  py::object inPandas = py::none();
  std::vector<std::string> hidden;
  py::object guard = py::none();
  py::object loaded = py::none();
  py::object driverClass = py::none();  // _driver.Driver or _async.AsyncDriver
  std::function<py::object()> makeInstance;
  std::shared_ptr<ProcessorRecord> record;
  // Async: the class says `orderDependent = True` (its results may depend on how keys
  // interleave, on purpose): the interleaving oracle leaves it alone.
  bool orderDependent = false;
  bool arrowInputs = false;  // PythonFactoryOptions::arrowInputs
  int64_t callLimitMs = 0;   // PythonFactoryOptions::callLimitMs
  int64_t pandasChunkRows = 0;  // PythonFactoryOptions::pandasChunkRows
  std::string timeMode;         // PythonFactoryOptions::timeMode
  // The form of input rows, their key and initial-state rows: kArrow in a row-mode query, else
  // kPickled (pandas mode builds its frames from the pickled forms; the tester hands rows as given).
  PyForm inputForm(bool pandas) const { return arrowInputs && !pandas ? PyForm::kArrow : PyForm::kPickled; }
  ~Shared();
};

// The input rows of handler calls as Python objects, built in one pass: instances of the Row class
// of their column names (pyspark.sql.types._row_class, which holds the names once), or plain
// tuples in pandas mode. The names, columns and class are kept while the rows' schema repeats.
struct InputRows {
  SchemaPtr schema;
  py::object names;  // a list, set by build (null until then: made without the GIL)
  std::vector<int> cols;
  py::object rowClass;
  // The rows (and `names` for them); `tuples`: plain tuples instead of Rows.
  py::list build(const Shared& shared, RowRange rows, bool tuples);
};
std::shared_ptr<Shared> makeShared();

// The `_streamsim_native.Handle` on the engine's handle of one partition task.
py::object makeNativeHandle(StatefulProcessorHandle& handle, const Alive& alive,
                            const std::shared_ptr<ProcessorRecord>& record);

// The columns of `schema` the processor sees (all but the hidden ones): names and indexes.
void visibleColumns(const Shared& shared, const Schema& schema, py::list& names,
                    std::vector<int>& cols);
// The values of `row` in the columns `cols` of `first`'s schema (by name when `row` has
// another schema, e.g. rows of a union).
py::tuple visibleValues(const Row& row, const Row& first, const py::list& names,
                        const std::vector<int>& cols, PyForm form);
// Emits the (names, values) pairs the driver returned as engine rows (outputStructType).
// `columns`: the calling processor's own (an instance runs on one thread; another thread may take
// the GIL inside a conversion). A row that does not fit fails with its condition and the file:line
// of `driver`'s processor's `method`.
void emitOutput(Shared& shared, OutputColumns& columns, const py::object& result, Output& out,
                const py::object& driver, const std::string& method);
// A StatefulProcessorError as the PySparkValueError processors see (its condition, parameters).
py::object pysparkValueError(const StatefulProcessorError& e);

// An async processor on `shared` (python_async.cc), seen by the engine as any async processor.
std::unique_ptr<StatefulProcessor> makePythonAsyncProcessor(std::shared_ptr<Shared> shared);
// `_streamsim_native.VirtualClock`, the clock each call hands its loop (python_async.cc).
void defineAsyncModule(py::module_& m);

}  // namespace streamsim::python
