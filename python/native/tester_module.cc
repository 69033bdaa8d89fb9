// The rest of `_streamsim_native`: the tester behind streamsim.pyspark.TwsTester
// (ProcessorTesterBase on a Python processor) and run/sweep of scenario files (the CLI's
// commands, their JSON report returned as Python objects).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "build_paths.h"
#include "python_support.h"
#include "streamsim/harness/run/generated_scenario.h"
#include "streamsim/harness/processor_tester.h"
#include "streamsim/harness/python_processors.h"
#include "streamsim/harness/report/text_escape.h"
#include "streamsim/harness/run/api.h"
#include "streamsim/harness/run/count_workload.h"
#include "streamsim/harness/run/python_workload.h"
#include "streamsim/platform/platform.h"
#include "streamsim/processors/builtin.h"
#include "streamsim/sim/simulated_service.h"

namespace py = pybind11;

namespace streamsim::python {
namespace {

constexpr const char* kKeyColumn = "__streamsim_key";
// Spark 4.2.0's eventTimeExtractor: streamsim.pyspark adds each row's extracted event time in this
// column, the engine's event-time column, which the processor never sees.
constexpr const char* kEventTimeColumn = "__streamsim_event_time";

// A failed tester call as a Python exception: the handler's own exception when it raised one,
// else PySpark's error classes with the engine's message.
[[noreturn]] void raise(const Status& st, ProcessorRecord& record) {
  if (st.code() == Status::Code::kTaskFailed || st.code() == Status::Code::kFailedPrecondition) {
    if (!record.lastError.is_none()) {
      py::object e = record.lastError;
      record.lastError = py::none();
      PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(e.ptr())), e.ptr());
      throw py::error_already_set();
    }
  }
  py::module_ errors = py::module_::import("pyspark.errors");
  const char* cls = st.code() == Status::Code::kNotFound ? "PySparkAssertionError"
                    : st.code() == Status::Code::kInvalidArgument ? "PySparkValueError"
                                                                  : "PySparkRuntimeError";
  const char* condition = st.code() == Status::Code::kNotFound ? "STATE_NOT_EXISTS"
                          : st.code() == Status::Code::kInvalidArgument ? "INVALID_ARGUMENT"
                                                                        : "STREAMSIM_BATCH_FAILED";
  py::object exc = errors.attr(cls)(py::arg("message") = st.message(),
                                    py::arg("errorClass") = condition);
  PyErr_SetObject(exc.get_type().ptr(), exc.ptr());
  throw py::error_already_set();
}

template <class T>
T orRaise(Result<T> r, ProcessorRecord& record) {
  if (!r.ok()) raise(r.status(), record);
  return std::move(r).value();
}
void orRaise(const Status& st, ProcessorRecord& record) {
  if (!st.ok()) raise(st, record);
}

Row namedRow(py::handle names, py::handle values) {
  RowShapes once;
  return outputToRow(names, values, nullptr, once);
}

py::list rowsToPython(const std::vector<Row>& rows) {
  py::list out;
  for (const Row& r : rows) {
    py::list names;
    for (const Field& f : r.schema()->fields()) names.append(f.name);
    out.append(py::make_tuple(names, rowToTuple(r)));
  }
  return out;
}

class NativeTester {
 public:
  NativeTester(py::object processor, const std::string& timeMode, py::list initialState,
               std::optional<std::string> eventTimeColumn, py::object pandasMode,
               const std::string& stateStore, py::list services, py::object makeInstance,
               py::object driverClass)
      : record_(std::make_shared<ProcessorRecord>()) {
    // Simulated outside services for async processors: (name, min ms, max ms, error
    // probability, slow probability, slow ms), seeded with the tester's seed (0).
    std::vector<sim::SimulatedServiceSpec> specs;
    for (py::handle item : services) {
      py::tuple t = py::reinterpret_borrow<py::tuple>(item);
      specs.push_back(sim::SimulatedServiceSpec{t[0].cast<std::string>(), t[1].cast<DurationMs>(),
                                                t[2].cast<DurationMs>(), t[3].cast<double>(),
                                                t[4].cast<double>(), t[5].cast<DurationMs>()});
    }
    if (!specs.empty()) services_ = std::make_unique<sim::SimulatedServices>(specs, 0);
    PythonFactoryOptions o;
    o.name = std::string(py::str(processor.get_type().attr("__name__")));
    o.pandasMode = pandasMode;
    o.hiddenColumns = {kKeyColumn, kEventTimeColumn};
    if (!makeInstance.is_none()) {
      // The caller's objects (streamsim.pyspark: PySpark's tester calls one processor's init once).
      o.makeInstance = [makeInstance]() { return makeInstance(); };
      o.driverClass = driverClass;
    } else {
      py::object deepcopy = py::module_::import("copy").attr("deepcopy");
      py::object pristine = deepcopy(processor);
      // A fresh copy per partition task and batch, as Spark unpickles one per task.
      o.makeInstance = [deepcopy, pristine]() { return deepcopy(pristine); };
    }
    o.processorClass = py::reinterpret_borrow<py::object>(processor.get_type());
    ProcessorFactory factory = orRaise(makePythonFactory(std::move(o), record_), *record_);

    harness::TesterOptions options;
    options.groupBy = {kKeyColumn};
    options.timeMode = orRaise(parseTimeMode(timeMode), *record_);
    options.outputMode = OutputMode::kUpdate;
    options.inputEventTimeColumn = eventTimeColumn;
    options.processorName = std::string(py::str(processor.get_type().attr("__name__")));
    if (stateStore == "rocksdb") options.stateStore.kind = StateStoreKind::kRocksDB;
    options.services = services_.get();
    if (!initialState.empty()) {
      std::vector<Row> rows;
      for (py::handle item : initialState) {
        py::tuple t = py::reinterpret_borrow<py::tuple>(item);  // (key, names, values)
        Row r = namedRow(t[1], t[2]);
        std::vector<Field> fields = r.schema()->fields();
        std::vector<Value> values = r.values();
        Value k = inferFromPython(t[0]);
        fields.push_back(fieldOf(kKeyColumn, k));
        values.push_back(k);
        rows.emplace_back(makeSchema(std::move(fields)), std::move(values));
      }
      options.initialState = std::move(rows);
    }
    tester_ = std::make_unique<harness::ProcessorTesterBase>(std::move(factory), std::move(options));
    // As PySpark's tester: init and the initial state run in the constructor.
    orRaise(tester_->test(harness::GroupKey(Value()), {}), *record_);
  }

  py::list test(py::handle key, py::list rows) {
    std::vector<Row> in;
    for (py::handle item : rows) {
      py::tuple t = py::reinterpret_borrow<py::tuple>(item);
      in.push_back(namedRow(t[0], t[1]));
    }
    return rowsToPython(orRaise(tester_->test(groupKey(key), std::move(in)), *record_));
  }
  py::list setProcessingTime(int64_t ms) {
    return rowsToPython(orRaise(tester_->setProcessingTime(ms), *record_));
  }
  py::list setWatermark(int64_t ms) {
    return rowsToPython(orRaise(tester_->setWatermark(ms), *record_));
  }
  int64_t processingTime() const { return tester_->processingTime(); }
  int64_t watermark() const { return tester_->watermark(); }

  py::object peek(const std::string& name, py::handle key) {
    const DeclaredVariable& v = variable(name);
    harness::RawStateValue raw = orRaise(tester_->peekRaw(groupKey(key), name), *record_);
    StateCodec<Row> value(v.valueDDL);
    if (v.kind == "value") {
      if (!raw.value) return py::none();
      return rowToTuple(decode(value, *raw.value, name));
    }
    if (v.kind == "list") {
      py::list out;
      for (const std::string& b : raw.list) out.append(rowToTuple(decode(value, b, name)));
      return out;
    }
    StateCodec<Row> keyCodec(v.keyDDL);
    py::dict out;
    for (const auto& [kb, vb] : raw.entries)
      out[rowToTuple(decode(keyCodec, kb, name))] = rowToTuple(decode(value, vb, name));
    return out;
  }

  void set(const std::string& name, py::handle key, py::handle value) {
    const DeclaredVariable& v = variable(name);
    harness::RawStateValue raw;
    StateCodec<Row> codec(v.valueDDL);
    std::string what = "set state '" + name + "'";
    if (v.kind == "value") {
      raw.kind = harness::RawStateValue::Kind::kValue;
      if (!value.is_none()) {
        raw.value.emplace();
        codec.encode(tupleToRow(value, codec.schema, what), *raw.value);
      }
    } else if (v.kind == "list") {
      raw.kind = harness::RawStateValue::Kind::kList;
      for (py::handle item : value) {
        std::string b;
        codec.encode(tupleToRow(item, codec.schema, what), b);
        raw.list.push_back(std::move(b));
      }
    } else {
      raw.kind = harness::RawStateValue::Kind::kMap;
      StateCodec<Row> keyCodec(v.keyDDL);
      py::dict d = py::reinterpret_borrow<py::dict>(value);
      std::vector<std::pair<std::string, std::string>> entries;
      for (auto [k, val] : d) {
        std::string kb, vb;
        keyCodec.encode(tupleToRow(k, keyCodec.schema, what + " key"), kb);
        codec.encode(tupleToRow(val, codec.schema, what + " value"), vb);
        entries.emplace_back(std::move(kb), std::move(vb));
      }
      std::sort(entries.begin(), entries.end());
      raw.entries = std::move(entries);
    }
    orRaise(tester_->setRaw(groupKey(key), name, raw), *record_);
  }

  void deleteState(const std::string& name, py::handle key) {
    variable(name);
    orRaise(tester_->deleteState(groupKey(key), name), *record_);
  }
  std::vector<TimeMs> listTimers(py::handle key) {
    return orRaise(tester_->listTimers(groupKey(key)), *record_);
  }
  void restart() { orRaise(tester_->restart(), *record_); }
  std::string kindOf(const std::string& name) { return variable(name).kind; }

 private:
  harness::GroupKey groupKey(py::handle key) const { return harness::GroupKey(inferFromPython(key)); }

  const DeclaredVariable& variable(const std::string& name) {
    auto it = record_->variables.find(name);
    if (it == record_->variables.end()) {
      std::string known;
      for (const auto& [n, v] : record_->variables) known += (known.empty() ? "" : ", ") + n;
      raise(Status::NotFound("State " + name + " has not been initialized (the processor's init "
                             "declares: " + (known.empty() ? "none" : known) + ")"),
            *record_);
    }
    return it->second;
  }

  static Row decode(const StateCodec<Row>& codec, const std::string& bytes, const std::string& name) {
    return streamsim::detail::decodeWith(codec, bytes, name);
  }

  std::shared_ptr<ProcessorRecord> record_;
  std::unique_ptr<sim::SimulatedServices> services_;  // before tester_: outlives it
  std::unique_ptr<harness::ProcessorTesterBase> tester_;
};

// A JSON value as the Python objects json.loads would give (dict, list, str, int, float, bool,
// None), built directly: no JSON text and no file between C++ and Python.
py::object toPython(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = toPython(v);
      return d;
    }
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& v : j) l.append(toPython(v));
      return l;
    }
    case nlohmann::json::value_t::string: {
      const std::string& s = j.get_ref<const std::string&>();
      // A byte that is not UTF-8 (a scenario's name, a processor's message) as U+FFFD.
      return py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
    }
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    default: return py::none();
  }
}

// streamsim.run(path, seed): every scenario file `path` names run once (harness/run/api.h), as
// `streamsim run` runs them: {"exit_code", "passed", "output", "results": [{file, name, passed,
// report, trace, batches, crashes}]}.
py::dict runScenarios(const std::string& path, uint64_t seed) {
  py::dict d;
  std::string output;
  int exitCode = 0;
  py::list results;
  auto files = harness::findScenarioFiles({path});
  auto scenarios = files.ok() ? harness::loadScenarios(*files, pythonRunRegistries()) : Result<std::vector<harness::Scenario>>(files.status());
  if (!scenarios.ok()) {
    output = fmt::format("streamsim run: {}\n", scenarios.status().message());
    exitCode = 2;
  } else {
    for (const harness::Scenario& sc : *scenarios) {
      harness::ScenarioRunOptions o;
      o.seed = seed;
      harness::ScenarioRunResult r;
      {
        py::gil_scoped_release release;  // a Python processor takes the GIL for its calls
        r = harness::runScenario(sc, o);
      }
      py::dict one;
      one["file"] = sc.file;
      one["name"] = sc.name;
      one["passed"] = r.passed();
      one["report"] = r.report();
      one["trace"] = r.traceHash;
      one["batches"] = r.batches;
      one["crashes"] = r.crashes;
      results.append(one);
      if (!r.setupError.ok()) {
        output += fmt::format("{}: cannot run: {}\n", harness::shownForTerminal(sc.file),
                              harness::shownForTerminal(r.setupError.message(), true));
        exitCode = 2;
        continue;
      }
      if (!r.passed() && exitCode == 0) exitCode = 1;
      output += harness::runVerdictText(sc, r, cliPath(), seed);
    }
  }
  d["exit_code"] = exitCode;
  d["passed"] = exitCode == 0;
  d["output"] = output;
  d["results"] = results;
  return d;
}

// streamsim.sweep(path, seeds, jobs, first_seed): the sweep of `streamsim sweep` (the same checks,
// sweepPaths): {"exit_code", "passed", "output" (its text), "report" (its --json report)}.
py::dict sweepScenarios(const std::string& path, int seeds, int jobs, uint64_t firstSeed) {
  harness::SweepRequest q;
  q.paths = {path};
  q.seeds = seeds;
  q.jobs = jobs;
  q.firstSeed = firstSeed;
  q.program = cliPath();
  q.workerExe = cliPath();  // Python scenarios' seeds in worker processes with jobs > 1
  q.registries = pythonRunRegistries();
  std::optional<Result<harness::SweepResult>> sweep;
  {
    py::gil_scoped_release release;  // sweeps may run on several threads
    sweep = harness::sweepPaths(q);
  }
  py::dict d;
  if (!sweep->ok()) {
    d["exit_code"] = 2;
    d["passed"] = false;
    d["output"] = "streamsim sweep: " + sweep->status().message() + "\n";
    d["report"] = py::none();
    return d;
  }
  const harness::SweepSummary summary = harness::sweepSummary(**sweep);
  d["exit_code"] = summary.exitCode();
  d["passed"] = summary.exitCode() == 0;
  d["output"] = (*sweep)->notes + summary.text;
  d["report"] = toPython(harness::sweepReportJson(**sweep));
  return d;
}

// The sweep of a generated workload (harness::sweepGenerated, workload kind custom) on a Python
// processor: files of events (event_id, key, event_time, value) grouped by key, under seeded
// faults, with the oracles asked for (batch_split among them: the same events in one batch):
// {"passed", "exit_code", "failures", "summary" (sweepSummary's text), "report" (the sweep --json
// report)}.
py::dict sweepProcessor(const std::string& path, const std::string& className, int seeds,
                        std::vector<std::string> oracles, const std::string& outputSchema,
                        const std::string& timeMode, int jobs) {
  ProcessorRecord none;
  if (jobs < 1 || jobs > harness::kMaxSweepJobs)  // as the CLI's --jobs
    raise(Status::InvalidArgument(fmt::format("sweep_processor: jobs={}: expected 1 to {}", jobs,
                                              harness::kMaxSweepJobs)), none);
  harness::PythonWorkloadSpec spec;
  spec.file = path;
  spec.className = className;
  spec.outputSchemaDDL = py::module_::import("pyspark.sql.types").attr("toEngineDDL")(outputSchema)
                             .cast<std::string>();
  spec.timeMode = timeMode;
  spec.oracles = std::move(oracles);
  spec.registries = pythonRunRegistries();
  harness::WorkloadConfig c;
  harness::RunOptions run;
  orRaise(harness::preparePythonSweep(spec, c, run), none);
  harness::ScenarioSweepOptions o;
  o.seeds = seeds;
  o.jobs = jobs;
  // jobs > 1: worker processes of the built CLI (one interpreter has one GIL), each loading the
  // processor file again.
  o.program = cliPath();  // the replay lines name the built CLI, which loads the file again
  o.workerCommand = {cliPath()};
  for (std::string& a : spec.workerArgs()) o.workerCommand.push_back(std::move(a));
  std::optional<Result<harness::SweepResult>> sweep;
  {
    py::gil_scoped_release release;
    sweep = harness::sweepGenerated(c, o, run);
  }
  orRaise(sweep->status(), none);
  const harness::SweepResult& swept = **sweep;
  const harness::SweepSummary summary = harness::sweepSummary(swept);
  py::dict d;
  d["passed"] = summary.exitCode() == 0;
  d["exit_code"] = summary.exitCode();
  d["failures"] = swept.report.totals.failed;
  d["summary"] = summary.text;
  d["report"] = toPython(harness::sweepReportJson(swept));
  return d;
}

// The count workload of `streamsim bench` (workload 1) with a Python count processor (empty
// class: the C++ one): harness::runCountWorkload, as the bench runs it.
py::dict benchCount(const std::string& path, const std::string& className, int64_t events,
                    int64_t keys, int files) {
  ProcessorRecord none;
  ProcessorFactory factory = processorFactoryOf<processors::CountProcessor>();
  if (!className.empty())
    factory = orRaise(loadPythonProcessorFile({path, className, "key string, count long", false, {}}),
                      none);
  harness::CountWorkloadRun run;
  {
    py::gil_scoped_release release;
    run = harness::runCountWorkload(factory, events, keys, files);
  }
  if (!run.error.empty()) raise(Status::Corruption("bench: " + run.error), none);
  py::dict d;
  d["events_per_second"] = run.eventsPerSecond;
  py::list contents;
  for (const std::string& c : run.contents) contents.append(py::bytes(c));
  d["contents"] = contents;
  return d;
}

}  // namespace

void defineTesterModule(py::module_& m) {
  py::class_<NativeTester>(m, "Tester")
      .def(py::init<py::object, const std::string&, py::list, std::optional<std::string>, py::object,
                    const std::string&, py::list, py::object, py::object>(),
           py::arg("processor"), py::arg("timeMode"), py::arg("initialState"),
           py::arg("eventTimeColumn"), py::arg("pandasMode"), py::arg("stateStore"),
           py::arg("services"), py::arg("makeInstance") = py::none(),
           py::arg("driverClass") = py::none())
      .def("test", &NativeTester::test)
      .def("setProcessingTime", &NativeTester::setProcessingTime)
      .def("setWatermark", &NativeTester::setWatermark)
      .def("processingTime", &NativeTester::processingTime)
      .def("watermark", &NativeTester::watermark)
      .def("peek", &NativeTester::peek)
      .def("set", &NativeTester::set)
      .def("deleteState", &NativeTester::deleteState)
      .def("listTimers", &NativeTester::listTimers)
      .def("restart", &NativeTester::restart)
      .def("kindOf", &NativeTester::kindOf);
  m.def("run", &runScenarios, py::arg("path"), py::arg("seed") = 0);
  m.def("sweep", &sweepScenarios, py::arg("path"), py::arg("seeds") = 0, py::arg("jobs") = 1,
        py::arg("first_seed") = 0);
  // The built CLI (what the replay lines name): tests run it as a process of its own.
  m.def("cli_path", [] { return std::string(cliPath()); });
  m.def("bench_count", &benchCount, py::arg("path"), py::arg("class_name"), py::arg("events"),
        py::arg("keys"), py::arg("files"));
  m.def("sweep_processor", &sweepProcessor, py::arg("path"), py::arg("class_name"),
        py::arg("seeds"), py::arg("oracles"), py::arg("output_schema"), py::arg("time_mode"),
        py::arg("jobs"));
}

}  // namespace streamsim::python
