// A PySpark job's Python UDFs as the engine's user-defined functions (expr/user_functions.h):
// `udf` and `pandas_udf` (scalar) objects and `spark.udf.register`'d functions, handed in as
// {name: (evaluate, returnType DDL, display name, file)}. `evaluate(columns)` is
// pyspark.sql.udf._evaluate bound to the function: it gets the batch's argument columns as lists
// of Python values (PySpark's pickled forms: a struct a Row, a timestamp a naive datetime) and
// returns the results already converted as Spark converts a Python worker's output (a value of
// another type is null, EvaluatePython.makeFromJava), or raises PythonException with the user's
// traceback. Each call runs under the per-call time limit of a processor's code (call_guard.h);
// an exception fails the evaluation, hence the task, as Spark's PythonException does.
#include "python_udf.h"

#include <memory>
#include <string>
#include <vector>

#include "call_guard.h"
#include "python_support.h"
#include "streamsim/expr/user_functions.h"
#include "streamsim/spark_errors.h"

namespace py = pybind11;

namespace streamsim::python {

std::shared_ptr<const expr::UserFunctions> userFunctionsOf(const py::object& udfs) {
  if (udfs.is_none() || py::len(udfs) == 0) return nullptr;
  auto table = std::make_shared<expr::UserFunctions>();
  for (auto [k, v] : py::reinterpret_borrow<py::dict>(udfs)) {
    const std::string name = py::str(k);
    py::tuple entry = py::reinterpret_borrow<py::tuple>(v);
    auto schema = parseSchema("result " + entry[1].cast<std::string>());
    if (!schema.ok()) throw py::value_error("the return type of UDF " + name + ": " + schema.status().toString());
    std::shared_ptr<py::object> fn(new py::object(entry[0]), [](py::object* p) {
      py::gil_scoped_acquire gil;
      delete p;
    });
    auto file = std::make_shared<std::string>(entry[3].cast<std::string>());
    expr::UserFunction f;
    f.displayName = entry[2].cast<std::string>();
    f.result = (*schema)->fields()[0];
    const Field result = f.result;
    const std::string display = f.displayName;
    f.eval = [fn, file, result, display](const std::vector<std::vector<Value>>& args, size_t rows,
                                         std::vector<Value>& out) -> Status {
      py::gil_scoped_acquire gil;
      CallGuard guard(*file, "udf", kDefaultCallLimitMs);
      try {
        py::list columns;
        for (const auto& col : args) {
          py::list values;
          for (const Value& value : col) values.append(toPython(value));
          columns.append(values);
        }
        py::list got = (*fn)(columns, rows);
        if (py::len(got) != rows)
          return Status::TaskFailed("UDF " + display + " returned " + std::to_string(py::len(got)) + " values for " +
                                  std::to_string(rows) + " rows");
        for (size_t r = 0; r < rows; ++r)
          out[r] = fromPython(got[r], result, [&] { return "the result of UDF " + display; });
        return Status::OK();
      } catch (py::error_already_set& e) {
        if (e.matches(PyExc_BaseException) && !e.matches(PyExc_Exception) && !guard.interrupted()) throw;
        std::string text = guard.interrupted() ? guard.message() : std::string(py::str(e.value()));
        // PythonRunner's PythonException (core/.../api/python/PythonRDD.scala): the task fails
        // with the worker's traceback as the message; it has no error condition.
        return Status::TaskFailed("org.apache.spark.api.python.PythonException: " + text);
      } catch (const std::exception& e) {
        return Status::TaskFailed(std::string("org.apache.spark.api.python.PythonException: ") + e.what());
      }
    };
    table->add(name, std::move(f));
  }
  return table;
}

}  // namespace streamsim::python
