// applyInPandasWithState's bridge (python_group_state.h).
#include "python_group_state.h"

#include <stdexcept>

#include <fmt/format.h>

namespace streamsim::python {

namespace {

constexpr const char* kEntryTag = "applyInPandasWithState";

// One query run's driver and conversions; freed under the GIL.
struct GroupFunctionRun {
  py::object driver;
  SchemaPtr outputSchema;
  SchemaPtr stateSchema;
  RowShapes shapes;
};

std::shared_ptr<GroupFunctionRun> makeRun() {
  return std::shared_ptr<GroupFunctionRun>(new GroupFunctionRun, [](GroupFunctionRun* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
}

[[noreturn]] void rethrowAsFunctionError(py::error_already_set& e) {
  if (e.matches(PyExc_BaseException) && !e.matches(PyExc_Exception)) throw;  // KeyboardInterrupt, ...
  std::string type = py::str(py::type::of(e.value()).attr("__name__"));
  std::string message = py::str(e.value());
  throw std::runtime_error(fmt::format("{}: {}", type, message));
}

}  // namespace

bool isGroupStateFunctionEntry(const py::handle& entry) {
  if (!py::isinstance<py::tuple>(entry)) return false;
  py::tuple t = py::reinterpret_borrow<py::tuple>(entry);
  return t.size() == 5 && py::isinstance<py::str>(t[0]) && t[0].cast<std::string>() == kEntryTag;
}

Result<GroupStateFunctionFactory> pythonGroupStateFunction(const py::tuple& entry) {
  if (!isGroupStateFunctionEntry(entry))
    return Status::InvalidArgument(
        "an applyInPandasWithState entry is (\"applyInPandasWithState\", func, outputStructType, "
        "stateStructType, columns)");
  STREAMSIM_ASSIGN_OR_RETURN(SchemaPtr output, parseSchema(entry[2].cast<std::string>()));
  STREAMSIM_ASSIGN_OR_RETURN(SchemaPtr state, parseSchema(entry[3].cast<std::string>()));
  // The function and the columns are freed under the GIL whenever the factory goes.
  std::shared_ptr<py::object> func(new py::object(entry[1]), [](py::object* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
  std::shared_ptr<py::object> columns(new py::object(entry[4]), [](py::object* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
  return GroupStateFunctionFactory([func, columns, output, state]() -> Result<GroupStateFunction> {
    py::gil_scoped_acquire gil;
    auto run = makeRun();
    run->outputSchema = output;
    run->stateSchema = state;
    try {
      run->driver = py::module_::import("pyspark.sql.streaming.state")
                        .attr("_GroupFunctionDriver")(*func, static_cast<int>(output->size()), *columns);
    } catch (py::error_already_set& e) {
      return Status::FailedPrecondition(fmt::format("applyInPandasWithState: {}", e.what()));
    }
    return GroupStateFunction([run](const Row& key, const std::vector<Row>& values, GroupState& s) {
      py::gil_scoped_acquire gil;
      py::list names;
      if (!values.empty())
        for (const Field& f : values.front().schema()->fields()) names.append(py::str(f.name));
      py::list rows;
      for (const Row& r : values) rows.append(rowToTuple(r));
      py::object stateValue = s.exists() ? py::object(rowToTuple(*s.getOption())) : py::object(py::none());
      py::tuple result;
      try {
        result = run->driver
                     .attr("call")(rowToTuple(key), names, rows, stateValue, s.getCurrentProcessingTimeMs(),
                                   s.eventTimeWatermarkMs(), std::string(groupStateTimeoutName(s.timeoutConf())),
                                   s.hasTimedOut(), s.watermarkPresent())
                     .cast<py::tuple>();
      } catch (py::error_already_set& e) {
        rethrowAsFunctionError(e);
      }
      std::vector<Row> out;
      for (py::handle pair : result[0]) {
        py::tuple t = py::reinterpret_borrow<py::tuple>(pair);
        out.push_back(outputToRow(t[0], t[1], run->outputSchema, run->shapes));
      }
      std::optional<Row> value;
      if (!result[1].is_none())
        value = tupleToRow(result[1], run->stateSchema, std::string("GroupState.update() value"));
      s.setOutcome(std::move(value), result[2].cast<bool>(), result[3].cast<bool>(), result[4].cast<int64_t>());
      return out;
    });
  });
}

}  // namespace streamsim::python
