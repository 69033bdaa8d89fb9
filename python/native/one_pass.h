// A handler's `rows` as PySpark hands them: an iterator read once (a generator over the Arrow
// batches of the key: TransformWithStateInPySparkRowSerializer / TransformWithStateInPandas-
// Serializer.load_stream in pyspark/sql/pandas/serializers.py; stateful_processor.py types it
// `Iterator[Row]` / `Iterator[pd.DataFrame]`). A second pass (`list(rows)` then `for r in rows`)
// sees nothing there and here alike; here the read after the end is also noted on the file's
// WallClockGuard (`guard._note("rows", ...)`), which fails the call with ROWS_CONSUMED_TWICE and
// the reader's file:line instead of leaving a silently wrong count.
//
// In C, not Python (issue 38): a Python `__next__` was a frame per row, 17% of a Python count
// processor's run on the engine (callgrind, python/bench/python_count_bench.py's input).
#pragma once

#include <pybind11/pybind11.h>

namespace streamsim::python {

namespace py = pybind11;

// Adds the type `OnePass(rows, guard)` to the module (`rows`: any iterable; `guard`: None or an
// object with `_note(kind, what, depth)`).
void defineOnePass(py::module_& m);

}  // namespace streamsim::python
