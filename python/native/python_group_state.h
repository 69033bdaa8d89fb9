// applyInPandasWithState's function on the engine's flatMapGroupsWithState operator
// (ops/flat_map_groups_with_state.h): the bridge to pyspark.sql.streaming.state's
// _GroupFunctionDriver, which runs PySpark's GroupState and pandas framing in Python.
#pragma once

#include "python_support.h"
#include "streamsim/ops/flat_map_groups_with_state.h"

namespace streamsim::python {

// `entry` is what GroupedData.applyInPandasWithState registers: ("applyInPandasWithState", func,
// outputStructType DDL, stateStructType DDL, input column names or None). The factory makes one
// driver per query run; each call holds the GIL. A Python exception becomes a std::runtime_error
// "Type: message" (the operator's FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR).
// REQUIRES: the GIL.
Result<GroupStateFunctionFactory> pythonGroupStateFunction(const py::tuple& entry);

// Whether a job's registered entry is an applyInPandasWithState function (else a processor).
bool isGroupStateFunctionEntry(const py::handle& entry);

}  // namespace streamsim::python
