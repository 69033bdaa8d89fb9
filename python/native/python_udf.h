// A PySpark job's Python UDFs as the engine's user-defined functions (python_udf.cc).
#pragma once

#include <memory>

#include <pybind11/pybind11.h>

namespace streamsim::expr {
class UserFunctions;
}

namespace streamsim::python {

// {name: (evaluate, returnType DDL, display name, file)} -> the table; null for None or {}.
std::shared_ptr<const expr::UserFunctions> userFunctionsOf(const pybind11::object& udfs);

}  // namespace streamsim::python
