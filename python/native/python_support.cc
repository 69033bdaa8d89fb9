// The embedded-CPython adapter (python_support.h).
#include "python_support.h"
#include "build_paths.h"
#include "call_guard.h"
#include "one_pass.h"
#include "python_processor.h"

#include <Python.h>

#include <atomic>
#include <mutex>
#include <optional>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "streamsim/platform/platform.h"
#include "streamsim/processors/bug_classes.h"
#include "streamsim/processors/examples.h"
#include "streamsim/tws/state_codec.h"
#include "streamsim/tws/state_variables.h"


namespace streamsim::python {

[[noreturn]] void rethrowForEngine(py::error_already_set& e) {
  py::object value = e.value();
  std::string text;
  try {
    text = py::module_::import("streamsim._driver").attr("format_exception")(value).cast<std::string>();
  } catch (py::error_already_set& inner) {
    text = e.what();
  }
  if (py::hasattr(value, "_streamsim_rule")) {
    std::string rule = py::str(value.attr("_streamsim_rule"));
    throw StatefulProcessorError(rule, text);
  }
  throw std::runtime_error(text);
}

// ---------------------------------------------------------------------------------------------
// Interpreter

namespace {
// The embedded interpreter: puts the shim and the streamsim package first on sys.path (in order)
// and imports the native module (which registers its classes).
void prepare(const std::vector<std::string>& dirs) {
  py::list path = py::module_::import("sys").attr("path");
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) {
    bool present = false;
    for (auto p : path) present = present || py::str(p).cast<std::string>() == *it;
    if (!present) path.insert(0, *it);
  }
  py::module_::import("_streamsim_native");
}
}  // namespace

namespace {
// The hash seed this process's one interpreter starts with (PYTHONHASHSEED): 0, unless a
// `hash-seed-worker` set another before its first Python processor loaded. The interpreter is
// the process's, so its seed is too; runs reach it through RunRegistries::pythonHashSeed.
std::atomic<uint32_t> g_interpreterHashSeed{0};
void setInterpreterHashSeed(uint32_t hashSeed) { g_interpreterHashSeed.store(hashSeed); }
uint32_t interpreterHashSeed() { return g_interpreterHashSeed.load(); }
}  // namespace

Status ensureInterpreter() {
  static std::once_flag once;
  static Status status;
  std::call_once(once, [] {
    if (!Py_IsInitialized()) {
      PyConfig config;
      PyConfig_InitPythonConfig(&config);
      // Determinism: str/bytes hashes (and so set iteration order) are the same in every run:
      // hash seed 0, or the one a `hash-seed-worker` set (the hash_seed oracle's other run).
      config.use_hash_seed = 1;
      config.hash_seed = interpreterHashSeed();
      config.install_signal_handlers = 0;
      config.parse_argv = 0;
      config.write_bytecode = 0;
      // The prefix (stdlib, site-packages) of the interpreter built against: without a program
      // name CPython looks `python3` up on PATH, and a pyenv shim there gives another Python's
      // stdlib to this libpython, without Debian's packages (pandas).
      PyStatus st = PyConfig_SetBytesString(&config, &config.program_name, pythonExecutable());
      if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
      PyConfig_Clear(&config);
      if (PyStatus_Exception(st)) {
        status = Status::FailedPrecondition(fmt::format("cannot start Python: {}",
                                                        st.err_msg ? st.err_msg : "unknown error"));
        return;
      }
      try {
        py::gil_scoped_acquire gil;
        // The seed is fixed, not random: streamsim/__init__.py warns only about a random one.
        py::module_::import("sys").attr("_streamsim_hash_seed") = interpreterHashSeed();
        prepare(pythonPath());
      } catch (py::error_already_set& e) {
        status = Status::FailedPrecondition(fmt::format("cannot prepare Python: {}", e.what()));
      }
      // This process embeds Python (the CLI): a processor's crash is reported, not a bare one.
      installCrashReport();
      // The thread that started the interpreter holds the GIL: let every thread take it.
      PyEval_SaveThread();
      return;
    }
    // The extension module, in a user's Python: its sys.path is the user's, and the pyspark shim
    // comes in only inside streamsim's own calls (streamsim/_isolation.py), so a real PySpark in
    // the same environment keeps working.
    py::gil_scoped_acquire gil;
    try {
      py::module_::import("_streamsim_native");
    } catch (py::error_already_set& e) {
      status = Status::FailedPrecondition(fmt::format("cannot prepare Python: {}", e.what()));
    }
  });
  return status;
}

// ---------------------------------------------------------------------------------------------
// The native module: handle and state variables on the engine's own objects.

namespace {

void checkAlive(const Alive& alive, const char* what) {
  if (!alive || !*alive)
    streamsim::detail::throwRule(
        "STATE_USED_AFTER_CLOSE",
        fmt::format("{} used after its partition task ended (do not keep state objects beyond "
                    "the processor's calls)", what));
}

SchemaPtr parseOrThrow(const std::string& ddl, const std::string& what) {
  auto s = parseSchema(ddl);
  if (!s.ok()) streamsim::detail::throwRule("INVALID_SCHEMA", what + ": " + s.status().message());
  return *s;
}

std::optional<TTLConfig> ttlOf(std::optional<int64_t> ms) {
  if (!ms) return std::nullopt;
  return TTLConfig{*ms};
}

struct PyValueState {
  ValueState<Row> s;
  SchemaPtr schema;
  std::string name;
  Alive alive;
  bool exists() { checkAlive(alive, "ValueState"); return s.exists(); }
  py::object get() {
    checkAlive(alive, "ValueState");
    auto v = s.getOption();
    if (!v) return py::none();
    // PySpark's ValueStateClient.get returns tuple(row): a plain tuple, no field names (a nested
    // struct stays a named Row).
    return rowToTuple(*v);
  }
  void update(py::handle value) {
    checkAlive(alive, "ValueState");
    s.update(tupleToRow(value, schema, WhatFn([&] { return "ValueState '" + name + "' update()"; })));
  }
  void clear() { checkAlive(alive, "ValueState"); s.clear(); }
};

struct PyListState {
  ListState<Row> s;
  SchemaPtr schema;
  std::string name;
  Alive alive;
  std::vector<Row> rows(py::handle list, const char* op) {
    std::vector<Row> out;
    const WhatFn what([&] { return fmt::format("ListState '{}' {}()", name, op); });
    for (py::handle item : list) out.push_back(tupleToRow(item, schema, what));
    return out;
  }
  bool exists() { checkAlive(alive, "ListState"); return s.exists(); }
  py::iterator get() {
    checkAlive(alive, "ListState");
    py::list out;
    for (const Row& r : s.get()) out.append(rowToTuple(r));
    return py::iter(out);
  }
  void put(py::handle list) { checkAlive(alive, "ListState"); s.put(rows(list, "put")); }
  void appendValue(py::handle value) {
    checkAlive(alive, "ListState");
    s.appendValue(tupleToRow(value, schema, WhatFn([&] { return "ListState '" + name + "' appendValue()"; })));
  }
  void appendList(py::handle list) { checkAlive(alive, "ListState"); s.appendList(rows(list, "appendList")); }
  void clear() { checkAlive(alive, "ListState"); s.clear(); }
};

struct PyMapState {
  MapState<Row, Row> s;
  SchemaPtr keySchema;
  SchemaPtr valueSchema;
  std::string name;
  Alive alive;
  Row key(py::handle k, const char* op) {
    return tupleToRow(k, keySchema, WhatFn([&] { return fmt::format("MapState '{}' {}() key", name, op); }));
  }
  bool exists() { checkAlive(alive, "MapState"); return s.exists(); }
  py::object getValue(py::handle k) {
    checkAlive(alive, "MapState");
    auto v = s.getValue(key(k, "getValue"));
    if (!v) return py::none();
    // PySpark's MapStateClient.get_value returns the unpickled Row as it is (a Row with field
    // names), unlike ValueStateClient.get and the iterators, which return tuple(row).
    return rowToNamedRow(*v);
  }
  bool containsKey(py::handle k) { checkAlive(alive, "MapState"); return s.containsKey(key(k, "containsKey")); }
  void updateValue(py::handle k, py::handle v) {
    checkAlive(alive, "MapState");
    s.updateValue(key(k, "updateValue"),
                  tupleToRow(v, valueSchema, WhatFn([&] { return "MapState '" + name + "' updateValue() value"; })));
  }
  py::iterator iterator() {
    checkAlive(alive, "MapState");
    py::list out;
    for (const auto& [k, v] : s.iterator()) out.append(py::make_tuple(rowToTuple(k), rowToTuple(v)));
    return py::iter(out);
  }
  py::iterator keys() {
    checkAlive(alive, "MapState");
    py::list out;
    for (const Row& k : s.keys()) out.append(rowToTuple(k));
    return py::iter(out);
  }
  py::iterator values() {
    checkAlive(alive, "MapState");
    py::list out;
    for (const Row& v : s.values()) out.append(rowToTuple(v));
    return py::iter(out);
  }
  void removeKey(py::handle k) { checkAlive(alive, "MapState"); s.removeKey(key(k, "removeKey")); }
  void clear() { checkAlive(alive, "MapState"); s.clear(); }
};

struct PyHandle {
  StatefulProcessorHandle* h = nullptr;
  Alive alive;
  std::shared_ptr<ProcessorRecord> record;
  StatefulProcessorHandle& handle() {
    checkAlive(alive, "StatefulProcessorHandle");
    return *h;
  }
  void declare(const std::string& name, const char* kind, const std::string& key,
               const std::string& value) {
    if (record) record->variables[name] = DeclaredVariable{kind, key, value};
  }
  PyValueState getValueState(const std::string& name, const std::string& ddl,
                             std::optional<int64_t> ttl) {
    SchemaPtr schema = parseOrThrow(ddl, "ValueState '" + name + "' schema");
    auto s = handle().getValueState<Row>(name, StateCodec<Row>(schema), ttlOf(ttl));
    declare(name, "value", "", schema->toDDL());
    return PyValueState{std::move(s), schema, name, alive};
  }
  PyListState getListState(const std::string& name, const std::string& ddl,
                           std::optional<int64_t> ttl) {
    SchemaPtr schema = parseOrThrow(ddl, "ListState '" + name + "' schema");
    auto s = handle().getListState<Row>(name, StateCodec<Row>(schema), ttlOf(ttl));
    declare(name, "list", "", schema->toDDL());
    return PyListState{std::move(s), schema, name, alive};
  }
  PyMapState getMapState(const std::string& name, const std::string& keyDDL,
                         const std::string& valueDDL, std::optional<int64_t> ttl) {
    SchemaPtr ks = parseOrThrow(keyDDL, "MapState '" + name + "' user key schema");
    SchemaPtr vs = parseOrThrow(valueDDL, "MapState '" + name + "' value schema");
    auto s = handle().getMapState<Row, Row>(name, StateCodec<Row>(ks), StateCodec<Row>(vs),
                                            ttlOf(ttl));
    declare(name, "map", ks->toDDL(), vs->toDDL());
    return PyMapState{std::move(s), ks, vs, name, alive};
  }
};

// Row.__new__ in C (pyspark.sql.types installs it when this module is there): Row(a=1, b=2) and
// Row(1, 2) without a Python frame; every other form goes to the Python __new__ it replaces.
struct RowNew {
  PyObject* rowType = nullptr;   // pyspark.sql.types.Row
  PyObject* classes = nullptr;   // _ROW_CLASSES: names tuple -> Row class
  PyObject* rowClass = nullptr;  // _row_class
  PyObject* pythonNew = nullptr;
};
RowNew g_rowNew;

PyObject* rowNewFallback(PyObject* args, PyObject* kwargs) {
  return PyObject_Call(g_rowNew.pythonNew, args, kwargs);
}

PyObject* rowNew(PyObject*, PyObject* args, PyObject* kwargs) {
  const Py_ssize_t nargs = PyTuple_GET_SIZE(args);  // (cls, *values)
  if (nargs < 1) return rowNewFallback(args, kwargs);
  PyObject* cls = PyTuple_GET_ITEM(args, 0);
  const bool named = kwargs != nullptr && PyDict_GET_SIZE(kwargs) > 0;
  if (!named) {  // Row(1, 2): a tuple of the values
    if (!PyType_Check(cls)) return rowNewFallback(args, kwargs);
    PyObject* values = PyTuple_GetSlice(args, 1, nargs);
    if (values == nullptr) return nullptr;
    auto* type = reinterpret_cast<PyTypeObject*>(cls);
    PyObject* row = type->tp_alloc(type, nargs - 1);
    if (row != nullptr)
      for (Py_ssize_t i = 0; i + 1 < nargs; ++i) {
        PyObject* v = PyTuple_GET_ITEM(values, i);
        Py_INCREF(v);
        PyTuple_SET_ITEM(row, i, v);
      }
    Py_DECREF(values);
    return row;
  }
  if (nargs != 1 || cls != g_rowNew.rowType) return rowNewFallback(args, kwargs);
  const Py_ssize_t n = PyDict_GET_SIZE(kwargs);
  PyObject* key = PyTuple_New(n);
  if (key == nullptr) return nullptr;
  Py_ssize_t pos = 0, i = 0;
  PyObject *k, *v;
  while (PyDict_Next(kwargs, &pos, &k, &v)) {
    Py_INCREF(k);
    PyTuple_SET_ITEM(key, i++, k);
  }
  PyObject* type = PyDict_GetItemWithError(g_rowNew.classes, key);  // borrowed
  Py_DECREF(key);
  if (type == nullptr) {
    if (PyErr_Occurred()) return nullptr;
    // A new set of names: _row_class makes (and keeps) its class, or says it keeps no more.
    return rowNewFallback(args, kwargs);
  }
  auto* t = reinterpret_cast<PyTypeObject*>(type);
  PyObject* row = t->tp_alloc(t, n);
  if (row == nullptr) return nullptr;
  pos = 0;
  i = 0;
  while (PyDict_Next(kwargs, &pos, &k, &v)) {
    Py_INCREF(v);
    PyTuple_SET_ITEM(row, i++, v);
  }
  return row;
}

PyMethodDef g_rowNewDef = {"__new__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&rowNew)),
                           METH_VARARGS | METH_KEYWORDS,
                           "Row(...) (streamsim: named rows of a cached Row class, built in C)"};

}  // namespace

py::object pysparkValueError(const StatefulProcessorError& e) {
  py::object cls = py::module_::import("pyspark.errors").attr("PySparkValueError");
  py::dict params;
  params["message"] = e.what();
  for (const auto& [k, v] : e.parameters()) params[py::str(k)] = v;  // Spark's parameters
  py::object exc = cls(py::arg("message") = std::string(e.what()), py::arg("errorClass") = e.rule(),
                       py::arg("messageParameters") = params);
  exc.attr("_streamsim_rule") = e.rule();
  return exc;
}

void defineNativeModule(py::module_& m) {
  m.def("row_new", [](py::object rowType, py::object classes, py::object rowClass, py::object pythonNew) {
    // Kept for the process's life, as the Row class they belong to.
    g_rowNew = RowNew{rowType.release().ptr(), classes.release().ptr(), rowClass.release().ptr(),
                      pythonNew.release().ptr()};
    PyObject* f = PyCFunction_New(&g_rowNewDef, nullptr);
    if (f == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(f);
  }, "Row.__new__ in C for pyspark.sql.types.Row (installed by that module)");
  m.doc() = "streamsim's engine objects for Python processors (state variables, handle)";
  defineAsyncModule(m);
  defineOnePass(m);
  // The conversions of TIMESTAMP and DATE values as a handler gets them, for the tests that hold
  // them equal to PySpark's (tests/python/test_rows.py).
  m.def("_timestamp_as_python", [](int64_t ms, bool arrow) {
    return timestampToPython(ms, arrow ? PyForm::kArrow : PyForm::kPickled);
  });
  m.def("_date_as_python", &dateToPython);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const StatefulProcessorError& e) {
      py::object exc = pysparkValueError(e);
      PyErr_SetObject(exc.get_type().ptr(), exc.ptr());
    }
  });
  py::class_<PyValueState>(m, "ValueState")
      .def("exists", &PyValueState::exists)
      .def("get", &PyValueState::get)
      .def("update", &PyValueState::update, py::arg("newValue"))
      .def("clear", &PyValueState::clear);
  py::class_<PyListState>(m, "ListState")
      .def("exists", &PyListState::exists)
      .def("get", &PyListState::get)
      .def("put", &PyListState::put, py::arg("newState"))
      .def("appendValue", &PyListState::appendValue, py::arg("newState"))
      .def("appendList", &PyListState::appendList, py::arg("newState"))
      .def("clear", &PyListState::clear);
  py::class_<PyMapState>(m, "MapState")
      .def("exists", &PyMapState::exists)
      .def("getValue", &PyMapState::getValue, py::arg("key"))
      .def("containsKey", &PyMapState::containsKey, py::arg("key"))
      .def("updateValue", &PyMapState::updateValue, py::arg("key"), py::arg("value"))
      .def("iterator", &PyMapState::iterator)
      .def("keys", &PyMapState::keys)
      .def("values", &PyMapState::values)
      .def("removeKey", &PyMapState::removeKey, py::arg("key"))
      .def("clear", &PyMapState::clear);
  py::class_<PyHandle>(m, "Handle")
      .def("getValueState", &PyHandle::getValueState)
      .def("getListState", &PyHandle::getListState)
      .def("getMapState", &PyHandle::getMapState)
      .def("registerTimer", [](PyHandle& h, int64_t ts) { h.handle().registerTimer(ts); })
      .def("deleteTimer", [](PyHandle& h, int64_t ts) { h.handle().deleteTimer(ts); })
      .def("listTimers", [](PyHandle& h) { return h.handle().listTimers(); })
      .def("deleteIfExists", [](PyHandle& h, const std::string& n) { h.handle().deleteIfExists(n); });
}

// ---------------------------------------------------------------------------------------------
// The processor adapter

Shared::~Shared() {
  if (!loaded.is_none()) {
    try {
      loaded.attr("unload")();
    } catch (py::error_already_set&) {
    }
  }
}

std::shared_ptr<Shared> makeShared() {
  return std::shared_ptr<Shared>(new Shared, [](Shared* s) {
    py::gil_scoped_acquire gil;
    delete s;
  });
}

py::object makeNativeHandle(StatefulProcessorHandle& handle, const Alive& alive,
                            const std::shared_ptr<ProcessorRecord>& record) {
  return py::cast(PyHandle{&handle, alive, record});
}

void visibleColumns(const Shared& shared, const Schema& schema, py::list& names,
                    std::vector<int>& cols) {
  for (size_t i = 0; i < schema.size(); ++i) {
    const std::string& n = schema.field(i).name;
    bool hidden = false;
    for (const std::string& h : shared.hidden) hidden = hidden || h == n;
    if (hidden) continue;
    names.append(n);
    cols.push_back(static_cast<int>(i));
  }
}

py::tuple visibleValues(const Row& row, const Row& first, const py::list& names,
                        const std::vector<int>& cols, PyForm form) {
  py::tuple t(cols.size());
  const bool same = row.schema() == first.schema();
  for (size_t i = 0; i < cols.size(); ++i)
    t[i] = toPython(same ? row[cols[i]] : row.get(names[i].cast<std::string>()), form);
  return t;
}

py::list InputRows::build(const Shared& shared, RowRange rows, bool tuples) {
  if (rows.empty()) {
    names = py::list();
    schema = nullptr;
    return py::list();
  }
  const SchemaPtr& first = rows.front().schema();
  if (first != schema || !rowClass) {
    py::list fresh;
    cols.clear();
    visibleColumns(shared, *first, fresh, cols);
    names = fresh;
    // pyspark.sql.types._row_class, as row_new holds it (an import per processor instance was
    // 1.8% of bench row 4p).
    if (g_rowNew.rowClass != nullptr) {
      rowClass = py::reinterpret_steal<py::object>(PyObject_CallOneArg(g_rowNew.rowClass, names.ptr()));
      if (!rowClass) throw py::error_already_set();
    } else {
      rowClass = py::module_::import("pyspark.sql.types").attr("_row_class")(names);
    }
    schema = first;
  }
  auto* cls = reinterpret_cast<PyTypeObject*>(rowClass.ptr());
  const PyForm form = shared.inputForm(tuples);
  const auto n = static_cast<Py_ssize_t>(cols.size());
  py::list out(rows.size());
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const bool same = row.schema() == first;
    PyObject* t = tuples ? PyTuple_New(n) : cls->tp_alloc(cls, n);
    if (t == nullptr) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(r), t);  // the list owns it (and frees it on a throw)
    for (Py_ssize_t i = 0; i < n; ++i) {
      const Value& v = same ? row[static_cast<size_t>(cols[static_cast<size_t>(i)])]
                            : row.get(py::reinterpret_borrow<py::list>(names)[static_cast<size_t>(i)]
                                          .cast<std::string>());
      PyTuple_SET_ITEM(t, i, toPython(v, form).release().ptr());
    }
  }
  return out;
}

Row OutputColumns::toRow(py::handle ns, py::handle values, const SchemaPtr& schema) {
  py::object nfast = py::reinterpret_steal<py::object>(PySequence_Fast(ns.ptr(), "output names"));
  if (!nfast) throw py::error_already_set();
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(nfast.ptr());
  PyObject** items = PySequence_Fast_ITEMS(nfast.ptr());
  bool same = static_cast<size_t>(n) == names.size();
  for (Py_ssize_t i = 0; same && i < n; ++i) {
    int eq = PyObject_RichCompareBool(items[i], names[static_cast<size_t>(i)].ptr(), Py_EQ);
    if (eq < 0) throw py::error_already_set();
    same = eq == 1;
  }
  if (!same) {
    names.clear();
    text.clear();
    index.clear();
    for (Py_ssize_t i = 0; i < n; ++i) {
      std::string name = py::reinterpret_borrow<py::object>(items[i]).cast<std::string>();
      int idx = schema->indexOf(name);
      if (idx < 0) {
        names.clear();
        text.clear();
        index.clear();
        streamsim::detail::throwRule(
            "OUTPUT_SCHEMA_MISMATCH",
            fmt::format("an output row has a column '{}' that outputStructType ({}) does not have",
                        name, schema->toDDL()));
      }
      names.push_back(py::reinterpret_borrow<py::object>(items[i]));
      text.push_back(std::move(name));
      index.push_back(idx);
    }
  }
  py::object vfast = py::reinterpret_steal<py::object>(PySequence_Fast(values.ptr(), "output values"));
  if (!vfast) throw py::error_already_set();
  if (PySequence_Fast_GET_SIZE(vfast.ptr()) < n)
    streamsim::detail::throwRule("OUTPUT_SCHEMA_MISMATCH",
                                 fmt::format("an output row has {} names but {} values", n,
                                             PySequence_Fast_GET_SIZE(vfast.ptr())));
  PyObject** vals = PySequence_Fast_ITEMS(vfast.ptr());
  std::vector<Value> out(schema->size());
  for (Py_ssize_t i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    out[static_cast<size_t>(index[k])] =
        fromPython(vals[i], schema->field(static_cast<size_t>(index[k])),
                   WhatFn([&] { return "output column '" + text[k] + "'"; }), NamedRows::kByName);
  }
  return Row(schema, std::move(out));
}

void emitOutput(Shared& shared, OutputColumns& columns, const py::object& result, Output& out,
                const py::object& driver, const std::string& method) {
  try {
    for (py::handle item : result) {
      py::tuple pair = py::reinterpret_borrow<py::tuple>(item);
      if (shared.outputSchema && !pair[0].is_none())
        out.emit(columns.toRow(pair[0], pair[1], shared.outputSchema));
      else
        out.emit(outputToRow(pair[0], pair[1], shared.outputSchema, columns.inferred));
    }
  } catch (py::error_already_set& e) {
    shared.record->lastError = e.value();
    rethrowForEngine(e);
  } catch (const StatefulProcessorError& e) {
    // A row that does not fit outputStructType: the rows were taken after the handler returned,
    // so the handler is named where it is defined.
    std::string where;
    try {
      where = py::module_::import("streamsim._driver")
                  .attr("handler_location")(driver, method)
                  .cast<std::string>();
    } catch (py::error_already_set&) {
      where = "in " + method;
    }
    StatefulProcessorError located(e.rule(), e.parameters(),
                                   std::string(e.what()) + " (a row returned by " + where + ")");
    shared.record->lastError = pysparkValueError(located);
    throw located;
  }
}

namespace {

class PythonProcessor final : public StatefulProcessorWithInitialState {
 public:
  explicit PythonProcessor(std::shared_ptr<Shared> shared)
      : shared_(std::move(shared)), alive_(std::make_shared<bool>(true)) {}
  ~PythonProcessor() override {
    *alive_ = false;
    py::gil_scoped_acquire gil;
    handleInputRows_ = py::object();
    input_ = InputRows();
    output_ = OutputColumns();
    driver_ = py::object();
  }

  void init(StatefulProcessorHandle& handle) override {
    py::gil_scoped_acquire gil;
    call("init", [&] {
      py::object instance = shared_->makeInstance();
      driver_ = shared_->driverClass(instance, shared_->guard, shared_->inPandas,
                                     shared_->outputNames, py::arg("chunk_rows") = shared_->pandasChunkRows,
                                     py::arg("time_mode") = shared_->timeMode);
      PyHandle h{&handle, alive_, shared_->record};
      handleInputRows_ = driver_.attr("handleInputRows");
      driver_.attr("init")(py::cast(std::move(h)));
      return py::none();
    });
  }

  void handleInputRows(const Row& key, RowRange rows, const TimerValues& tv, Output& out) override {
    py::gil_scoped_acquire gil;
    emit(call("handleInputRows", [&] {
           const bool tuples = PyObject_IsTrue(shared_->inPandas.ptr()) == 1;
           py::list values = input_.build(*shared_, rows, tuples);
           if (!handleInputRows_) handleInputRows_ = driver_.attr("handleInputRows");
           return handleInputRows_(rowToTuple(key, shared_->inputForm(tuples)), input_.names, values,
                                   tv.getCurrentProcessingTimeInMs(), tv.getCurrentWatermarkInMs());
         }),
         out, "handleInputRows");
  }

  void handleExpiredTimer(const Row& key, const TimerValues& tv, const ExpiredTimerInfo& info,
                          Output& out) override {
    py::gil_scoped_acquire gil;
    emit(call("handleExpiredTimer", [&] {
           return driver_.attr("handleExpiredTimer")(rowToTuple(key),
                                                     tv.getCurrentProcessingTimeInMs(),
                                                     tv.getCurrentWatermarkInMs(),
                                                     info.getExpiryTimeInMs());
         }),
         out, "handleExpiredTimer");
  }

  void handleInitialState(const Row& key, const Row& state, const TimerValues& tv,
                          Output& out) override {
    py::gil_scoped_acquire gil;
    emit(call("handleInitialState", [&] {
           py::list names;
           std::vector<int> cols;
           visibleColumns(*state.schema(), names, cols);
           const PyForm form = shared_->inputForm(PyObject_IsTrue(shared_->inPandas.ptr()) == 1);
           py::tuple t = visibleValues(state, state, names, cols, form);
           return driver_.attr("handleInitialState")(rowToTuple(key, form), names, t,
                                                     tv.getCurrentProcessingTimeInMs(),
                                                     tv.getCurrentWatermarkInMs());
         }),
         out, "handleInitialState");
  }

  void close() override {
    py::gil_scoped_acquire gil;
    if (!driver_) return;
    call("close", [&] { return driver_.attr("close")(); });
  }

 private:
  // One call of the processor's code, under its per-call limit (call_guard.h).
  template <class F>
  py::object call(const char* method, F&& f) {
    CallGuard guard(shared_->name, method, shared_->callLimitMs);
    try {
      return f();
    } catch (py::error_already_set& e) {
      shared_->record->lastError = e.value();
      if (guard.interrupted()) throw std::runtime_error(guard.message());
      rethrowForEngine(e);
    }
  }

  void visibleColumns(const Schema& schema, py::list& names, std::vector<int>& cols) const {
    python::visibleColumns(*shared_, schema, names, cols);
  }
  void emit(const py::object& result, Output& out, const char* method) {
    emitOutput(*shared_, output_, result, out, driver_, method);
  }

  std::shared_ptr<Shared> shared_;
  Alive alive_;
  py::object driver_;
  py::object handleInputRows_;  // driver_.handleInputRows, looked up once
  InputRows input_;
  OutputColumns output_;
};

}  // namespace

Result<ProcessorFactory> makePythonFactory(PythonFactoryOptions options,
                                           std::shared_ptr<ProcessorRecord> record) {
  STREAMSIM_RETURN_IF_ERROR(ensureInterpreter());
  py::gil_scoped_acquire gil;
  auto shared = makeShared();
  shared->name = options.name;
  shared->inPandas = options.pandasMode.is_none() ? py::object(py::bool_(options.inPandas))
                                                  : options.pandasMode;
  shared->hidden = options.hiddenColumns;
  shared->arrowInputs = options.arrowInputs;
  shared->callLimitMs = options.callLimitMs;
  shared->pandasChunkRows = options.pandasChunkRows;
  shared->timeMode = options.timeMode;
  shared->guard = options.guard;
  shared->loaded = options.loaded;
  shared->makeInstance = std::move(options.makeInstance);
  shared->record = record ? std::move(record) : std::make_shared<ProcessorRecord>();
  if (!options.outputSchemaDDL.empty()) {
    try {
      std::string ddl = py::module_::import("pyspark.sql.types")
                            .attr("toEngineDDL")(options.outputSchemaDDL)
                            .cast<std::string>();
      STREAMSIM_ASSIGN_OR_RETURN(shared->outputSchema, parseSchema(ddl));
    } catch (py::error_already_set& e) {
      return Status::InvalidArgument(fmt::format("outputStructType '{}': {}",
                                                 options.outputSchemaDDL, e.what()));
    }
    py::list names;
    for (const Field& f : shared->outputSchema->fields()) names.append(f.name);
    shared->outputNames = names;
  }
  bool isAsync = false;
  try {
    isAsync = !options.processorClass.is_none() &&
              PyObject_IsSubclass(options.processorClass.ptr(),
                                  py::module_::import("pyspark.sql.streaming")
                                      .attr("AsyncStatefulProcessor")
                                      .ptr()) == 1;
    shared->driverClass = isAsync ? py::module_::import("streamsim._async").attr("AsyncDriver")
                          : !options.driverClass.is_none()
                              ? options.driverClass
                              : py::module_::import("streamsim._driver").attr("Driver");
  } catch (py::error_already_set& e) {
    return Status::FailedPrecondition(fmt::format("cannot import streamsim's driver: {}", e.what()));
  }
  if (isAsync && options.pandasMode.is_none() && options.inPandas)
    return Status::InvalidArgument(fmt::format(
        "{}: an AsyncStatefulProcessor runs with transformWithState (rows), not "
        "transformWithStateInPandas (inPandas: true)",
        options.name));
  if (isAsync) {
    try {
      shared->orderDependent =
          py::bool_(py::getattr(options.processorClass, "orderDependent", py::bool_(false)));
    } catch (py::error_already_set& e) {
      return Status::InvalidArgument(fmt::format("{}: orderDependent: {}", options.name, e.what()));
    }
  }
  if (isAsync)
    return ProcessorFactory([shared]() { return makePythonAsyncProcessor(shared); });
  return ProcessorFactory([shared]() -> std::unique_ptr<StatefulProcessor> {
    return std::make_unique<PythonProcessor>(shared);
  });
}

namespace {
// The loaded module of a reference function, released under the GIL.
struct LoadedReference {
  py::object loaded;
  ~LoadedReference() {
    py::gil_scoped_acquire gil;
    if (loaded) loaded.attr("unload")();
    loaded = py::object();
  }
};
}  // namespace

Result<harness::PythonReference> loadPythonReferenceFile(const harness::PythonReferenceSpec& spec) {
  STREAMSIM_RETURN_IF_ERROR(ensureInterpreter());
  py::gil_scoped_acquire gil;
  const std::string what = spec.file + ":" + spec.function;
  auto source = platform::readInputFile(spec.file, platform::kMaxSourceFileBytes);
  if (!source.ok())
    return Status::InvalidArgument(fmt::format("Python reference {}: {}", what, source.status().message()));
  py::module_ driver;
  auto held = std::make_shared<LoadedReference>();
  try {
    driver = py::module_::import("streamsim._driver");
    held->loaded = driver.attr("load_function")(spec.file, spec.function, py::bytes(*source));
  } catch (py::error_already_set& e) {
    std::string text;
    try {
      text = driver.attr("format_exception")(e.value()).cast<std::string>();
    } catch (py::error_already_set&) {
      text = e.what();
    }
    return Status::InvalidArgument(fmt::format("Python reference {}: {}", what, text));
  }
  SchemaPtr schema;
  if (!spec.outputSchemaDDL.empty()) {
    try {
      std::string ddl = py::module_::import("pyspark.sql.types").attr("toEngineDDL")(spec.outputSchemaDDL).cast<std::string>();
      STREAMSIM_ASSIGN_OR_RETURN(schema, parseSchema(ddl));
    } catch (py::error_already_set& e) {
      return Status::InvalidArgument(fmt::format("outputStructType '{}': {}", spec.outputSchemaDDL, e.what()));
    }
  }
  return harness::PythonReference([held, schema, what](const std::vector<Row>& rows) -> Result<std::vector<Row>> {
    py::gil_scoped_acquire gil;
    CallGuard guard(what, "reference", 0);
    try {
      py::list input;
      for (const Row& r : rows) input.append(rowToNamedRow(r));
      py::object result = py::module_::import("streamsim._driver").attr("call_reference")(held->loaded, input);
      std::vector<Row> out;
      RowShapes shapes;
      for (py::handle item : result) {
        py::tuple pair = py::reinterpret_borrow<py::tuple>(item);
        out.push_back(outputToRow(pair[0], pair[1], schema, shapes));
      }
      return out;
    } catch (py::error_already_set& e) {
      if (guard.interrupted()) return Status::Aborted(guard.message());
      std::string text;
      try {
        text = py::module_::import("streamsim._driver").attr("format_exception")(e.value()).cast<std::string>();
      } catch (py::error_already_set&) {
        text = e.what();
      }
      return Status::InvalidArgument(fmt::format("the Python reference {} raised {}", what, text));
    } catch (const std::exception& e) {  // a row that does not fit outputStructType
      return Status::InvalidArgument(fmt::format("the Python reference {} returned a row that does not fit: {}",
                                                 what, e.what()));
    }
  });
}

std::shared_ptr<const harness::RunRegistries> pythonRunRegistries() {
  auto processors = std::make_shared<ProcessorSet>();
  registerExampleProcessors(*processors);
  registerBugClassProcessors(*processors);
  auto r = std::make_shared<harness::RunRegistries>();
  r->processors = std::move(processors);
  addPythonSupport(*r);
  return r;
}

void addPythonSupport(harness::RunRegistries& r) {
  r.pythonProcessors = &loadPythonProcessorFile;
  r.pythonReferences = &loadPythonReferenceFile;
  r.pythonCli = cliPath();  // the hash_seed oracle's worker
  r.setPythonHashSeed = &setInterpreterHashSeed;
  r.pythonHashSeed = &interpreterHashSeed;
}

Result<ProcessorFactory> loadPythonProcessorFile(const harness::PythonProcessorSpec& spec) {
  STREAMSIM_RETURN_IF_ERROR(ensureInterpreter());
  py::gil_scoped_acquire gil;
  // Read as every file input (a FIFO or a device is refused unread); Python compiles the bytes,
  // so a PEP 263 coding line or a UTF-8 BOM decides their encoding, as `python file.py` does.
  auto source = platform::readInputFile(spec.file, platform::kMaxSourceFileBytes);
  if (!source.ok())
    return Status::InvalidArgument(fmt::format("Python processor {} (class {}): {}", spec.file, spec.className,
                                               source.status().message()));
  py::object loaded;
  try {
    loaded = py::module_::import("streamsim._driver").attr("load")(spec.file, spec.className, py::bytes(*source));
  } catch (py::error_already_set& e) {
    std::string text;
    try {
      text = py::module_::import("streamsim._driver").attr("format_exception")(e.value()).cast<std::string>();
    } catch (py::error_already_set&) {
      text = e.what();
    }
    return Status::InvalidArgument(fmt::format("Python processor {} (class {}): {}", spec.file,
                                               spec.className, text));
  }
  PythonFactoryOptions o;
  o.name = spec.file + ":" + spec.className;
  o.outputSchemaDDL = spec.outputSchemaDDL;
  o.inPandas = spec.inPandas;
  o.hiddenColumns = spec.hiddenColumns;
  o.arrowInputs = true;  // a query's run: the rows come as PySpark's worker reads them from Arrow
  o.callLimitMs = spec.callLimitMs;
  o.pandasChunkRows = spec.pandasChunkRows;
  o.timeMode = spec.timeMode;
  o.guard = loaded.attr("guard");
  o.loaded = loaded;
  py::object cls = loaded.attr("cls");
  o.processorClass = cls;
  // One fresh instance per partition task, as Spark unpickles the processor once per task.
  o.makeInstance = [cls]() { return cls(); };
  return makePythonFactory(std::move(o));
}

}  // namespace streamsim::python
