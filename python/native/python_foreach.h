// DataStreamWriter.foreach of a PySpark job as the engine's foreach sink (python_foreach.cc).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "streamsim/sink.h"

namespace streamsim::python {

// `writer`: an object with process(row) and optional open(partition_id, epoch_id) / close(error)
// (pyspark/sql/streaming/readwriter.py wraps a plain function into one); `file`: where its code
// is, for the call guard's messages.
std::function<std::unique_ptr<Sink>()> foreachSinkOf(const pybind11::object& writer, const std::string& file);

}  // namespace streamsim::python
