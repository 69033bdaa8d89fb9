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
  ~Shared();
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
                        const std::vector<int>& cols);
// Emits the (names, values) pairs the driver returned as engine rows (outputStructType).
void emitOutput(Shared& shared, const py::object& result, Output& out);

// An async processor on `shared` (python_async.cc), seen by the engine as any async processor.
std::unique_ptr<StatefulProcessor> makePythonAsyncProcessor(std::shared_ptr<Shared> shared);
// `_streamsim_native.virtual_now_ms` (python_async.cc).
void defineAsyncModule(py::module_& m);

}  // namespace streamsim::python
