// DataStreamWriter.foreach of a PySpark job (python_foreach.h) on the engine's ForeachSink
// (io/foreach_sink.h), following PySpark's DataStreamWriter.foreach (pyspark/sql/streaming/
// readwriter.py): a function is called with each row; an object has process(row) and optional
// open(partition_id, epoch_id) -> bool and close(error). Each partition task works on its own
// copy of the object (Spark unpickles the writer in every task): open() runs on a fresh deep
// copy, process() and close() on that copy. A falsy open() skips process() for the partition;
// close(error) always runs, with the exception process() raised (or None); an exception of any
// of them fails the task, as PySpark re-raises it in the Python worker.
#include "python_foreach.h"

#include <memory>
#include <stdexcept>
#include <string>

#include "call_guard.h"
#include "python_support.h"
#include "streamsim/io/foreach_sink.h"

namespace py = pybind11;

namespace streamsim::python {
namespace {

class PythonForeachWriter final : public ForeachWriter {
 public:
  explicit PythonForeachWriter(std::shared_ptr<py::object> writer, std::string file)
      : writer_(std::move(writer)), file_(std::move(file)) {}
  ~PythonForeachWriter() override {
    py::gil_scoped_acquire gil;
    task_ = py::object();
    error_ = py::object();
  }

  bool open(int64_t partitionId, int64_t epochId) override {
    py::gil_scoped_acquire gil;
    error_ = py::none();
    return call("open", [&] {
      task_ = py::module_::import("copy").attr("deepcopy")(*writer_);
      if (!py::hasattr(task_, "open")) return true;
      return py::bool_(task_.attr("open")(partitionId, epochId)).cast<bool>();
    });
  }
  void process(const Row& row) override {
    py::gil_scoped_acquire gil;
    call("process", [&] {
      task_.attr("process")(rowToNamedRow(row));
      return true;
    });
  }
  void close(const Status& error) override {
    py::gil_scoped_acquire gil;
    py::object err = error.ok() ? py::none() : error_;
    call("close", [&] {
      if (py::hasattr(task_, "close")) task_.attr("close")(err);
      return true;
    });
  }

 private:
  // One call of the writer's code under the per-call limit; a Python exception becomes a
  // std::runtime_error (the engine fails the task with it) and is kept for close(error).
  template <class F>
  bool call(const char* method, F&& f) {
    CallGuard guard(file_, method, kDefaultCallLimitMs);
    try {
      return f();
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_BaseException) && !e.matches(PyExc_Exception) && !guard.interrupted()) throw;
      error_ = e.value();
      std::string type = py::str(py::type::of(e.value()).attr("__name__"));
      std::string text = guard.interrupted() ? guard.message() : type + ": " + std::string(py::str(e.value()));
      throw std::runtime_error("org.apache.spark.api.python.PythonException: " + text);
    }
  }

  std::shared_ptr<py::object> writer_;
  std::string file_;
  py::object task_;   // this partition's copy
  py::object error_;  // what process() raised
};

}  // namespace

std::function<std::unique_ptr<Sink>()> foreachSinkOf(const py::object& writer, const std::string& file) {
  std::shared_ptr<py::object> held(new py::object(writer), [](py::object* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
  return makeForeachSink(std::make_shared<PythonForeachWriter>(held, file));
}

}  // namespace streamsim::python
