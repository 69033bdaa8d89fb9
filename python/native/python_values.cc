// The engine's values as Python objects and back (python_support.h): scalars, and structs,
// arrays and maps converted by their Field as PySpark converts them.
#include "python_support.h"

#include <Python.h>
#include <datetime.h>

#include <fmt/format.h>
#include <pybind11/stl.h>

#include "streamsim/time.h"
#include "streamsim/tws/state_codec.h"
#include "streamsim/tws/state_variables.h"

namespace streamsim::python {
namespace {

[[noreturn]] void mismatch(py::handle o, Type type, const WhatFn& what) {
  std::string got = py::str(py::type::handle_of(o).attr("__name__"));
  std::string repr = py::repr(o);
  streamsim::detail::throwRule(
      "CANNOT_CONVERT_TYPE",
      fmt::format("{}: cannot store {} ({}) as {}", what(), repr, got, typeName(type)));
}

bool hasAttr(py::handle o, const char* name) { return PyObject_HasAttrString(o.ptr(), name) == 1; }

int64_t asInt64(py::handle o, Type type, const WhatFn& what) {
  PyObject* idx = PyNumber_Index(o.ptr());
  if (idx == nullptr) {
    PyErr_Clear();
    mismatch(o, type, what);
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (overflow != 0) mismatch(o, type, what);
  return v;
}

// Milliseconds since the epoch of a datetime (naive = UTC) or an int.
int64_t timestampMs(py::handle o, const WhatFn& what) {
  if (hasAttr(o, "timestamp") && hasAttr(o, "tzinfo")) {
    py::object dt = py::reinterpret_borrow<py::object>(o);
    if (dt.attr("tzinfo").is_none()) {
      py::object utc = py::module_::import("datetime").attr("timezone").attr("utc");
      dt = dt.attr("replace")(py::arg("tzinfo") = utc);
    }
    double seconds = dt.attr("timestamp")().cast<double>();
    return static_cast<int64_t>(seconds * 1000.0 + (seconds >= 0 ? 0.5 : -0.5));
  }
  return asInt64(o, Type::kTimestamp, what);
}


// PySpark's conditions for a value that does not fit a nested type (pyspark/errors
// error-conditions.json, raised by its type verifier): `field_name` is where the value is.
[[noreturn]] void pysparkError(std::string condition, ErrorParams params, std::string message) {
  // The text first: the order in which a call's arguments are evaluated is unspecified, and
  // clang moved `condition` away before reading it (the sanitized build's messages said "[]").
  std::string text = "[" + condition + "] " + message;
  throw StatefulProcessorError(std::move(condition), std::move(params), text);
}

[[noreturn]] void unacceptable(py::handle o, const Field& f, const WhatFn& what) {
  std::string name = what(), type = typeDDL(f), obj = py::repr(o);
  std::string objType = py::str(py::type::handle_of(o));
  pysparkError("FIELD_DATA_TYPE_UNACCEPTABLE_WITH_NAME",
               {{"field_name", name}, {"data_type", type}, {"obj", obj}, {"obj_type", objType}},
               fmt::format("{}: {} can not accept object {} in type {}.", name, type, obj, objType));
}

// An element, field, key or value of a nested value: None only where `f` is nullable.
Value childFromPython(py::handle o, const Field& f, const WhatFn& what, NamedRows named) {
  if (o.is_none()) {
    if (f.nullable) return Value();
    std::string name = what();
    pysparkError("FIELD_NOT_NULLABLE_WITH_NAME", {{"field_name", name}},
                 name + ": This field is not nullable, but got None.");
  }
  return fromPython(o, f, what, named);
}

// A struct: from a dict (by name: a missing field is None, other keys are ignored), a Row with
// field names in an output row (by name, as Row.asDict(True) hands it to Arrow), or any tuple or
// list (by position, as StructType.toInternal reads a state value; its length checked).
Value structFromPython(py::handle o, const Field& f, const WhatFn& what, NamedRows named) {
  const Schema& fields = *f.nested;
  std::vector<Value> out(fields.size());
  auto field = [&](size_t i, py::handle v) {
    const Field& fi = fields.field(i);
    out[i] = childFromPython(v, fi, WhatFn([&] { return what() + " field '" + fi.name + "'"; }),
                             named);
  };
  PyObject* p = o.ptr();
  if (PyDict_Check(p)) {
    for (size_t i = 0; i < fields.size(); ++i) {
      PyObject* v = PyDict_GetItemString(p, fields.field(i).name.c_str());  // borrowed
      field(i, v != nullptr ? py::handle(v) : py::handle(Py_None));
    }
  } else if (named == NamedRows::kByName && PyTuple_Check(p) && hasAttr(o, "__fields__")) {
    py::list names = py::list(o.attr("__fields__"));
    std::vector<bool> given(fields.size(), false);
    for (size_t j = 0; j < names.size() && j < static_cast<size_t>(PyTuple_GET_SIZE(p)); ++j) {
      int i = fields.indexOf(py::str(names[j]).cast<std::string>());
      if (i < 0) continue;
      given[static_cast<size_t>(i)] = true;
      field(static_cast<size_t>(i), PyTuple_GET_ITEM(p, static_cast<Py_ssize_t>(j)));
    }
    for (size_t i = 0; i < fields.size(); ++i)
      if (!given[i]) field(i, Py_None);
  } else if (PyTuple_Check(p) || PyList_Check(p)) {
    const size_t n = static_cast<size_t>(PySequence_Size(p));
    if (n != fields.size()) {
      std::string name = what();
      pysparkError("FIELD_STRUCT_LENGTH_MISMATCH_WITH_NAME",
                   {{"field_name", name},
                    {"object_length", std::to_string(n)},
                    {"field_length", std::to_string(fields.size())}},
                   fmt::format("{}: Length of object ({}) does not match with length of fields ({}).",
                               name, n, fields.size()));
    }
    py::sequence seq = py::reinterpret_borrow<py::sequence>(o);
    for (size_t i = 0; i < n; ++i) field(i, seq[i]);
  } else {
    unacceptable(o, f, what);
  }
  return Value::structOf(f.nested, std::move(out));
}

// An array: from a list or tuple (or a numpy array, through tolist()).
Value arrayFromPython(py::handle o, const Field& f, const WhatFn& what, NamedRows named) {
  PyObject* p = o.ptr();
  py::object listed;
  if (!PyList_Check(p) && !PyTuple_Check(p)) {
    if (PyUnicode_Check(p) || PyBytes_Check(p) || PyDict_Check(p) || !hasAttr(o, "ndim") ||
        !hasAttr(o, "tolist"))
      unacceptable(o, f, what);
    listed = o.attr("tolist")();
    if (!PyList_Check(listed.ptr())) unacceptable(o, f, what);
    p = listed.ptr();
  }
  const Field& element = f.nested->field(0);
  py::sequence seq = py::reinterpret_borrow<py::sequence>(p);
  std::vector<Value> out;
  out.reserve(seq.size());
  for (size_t i = 0; i < seq.size(); ++i)
    out.push_back(childFromPython(seq[i], element,
                                  WhatFn([&] { return fmt::format("{} element {}", what(), i); }),
                                  named));
  return Value::arrayOf(std::move(out));
}

// A map: from a dict, in its order.
Value mapFromPython(py::handle o, const Field& f, const WhatFn& what, NamedRows named) {
  if (!PyDict_Check(o.ptr())) unacceptable(o, f, what);
  const Field& key = f.nested->field(0);
  const Field& value = f.nested->field(1);
  std::vector<std::pair<Value, Value>> entries;
  for (auto item : py::reinterpret_borrow<py::dict>(o)) {
    // Named, not a structured binding: clang 14 (the sanitized build) cannot capture a binding.
    py::handle k = item.first;
    py::handle v = item.second;
    Value kv = childFromPython(k, key, WhatFn([&] { return what() + " key"; }), named);
    Value vv = childFromPython(
        v, value, WhatFn([&] { return what() + " value of key " + std::string(py::repr(k)); }),
        named);
    entries.emplace_back(std::move(kv), std::move(vv));
  }
  Result<Value> m = Value::mapOf(std::move(entries));
  if (!m.ok())
    streamsim::detail::throwRule("CANNOT_CONVERT_TYPE",
                                 fmt::format("{}: {}", what(), m.status().message()));
  return std::move(m).value();
}
}  // namespace

namespace {

// The civil date of `days` since the epoch, when a datetime.date can hold it (0001-01-01 to
// 9999-12-31: days -719,162 to 2,932,896), and the datetime module's C API, imported on first use.
bool civilDate(int64_t days, int& y, int& m, int& d) {
  if (days < -719'162 || days > 2'932'896) return false;  // also keeps civilFromDays' sums in range
  int64_t year;
  unsigned month, day;
  civilFromDays(days, year, month, day);
  y = static_cast<int>(year);
  m = static_cast<int>(month);
  d = static_cast<int>(day);
  if (PyDateTimeAPI == nullptr) PyDateTime_IMPORT;
  if (PyDateTimeAPI == nullptr) throw py::error_already_set();
  return true;
}

py::object stolen(PyObject* o) {
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

}  // namespace

py::object timestampToPython(int64_t ms, PyForm form) {
  // Pickled: a naive datetime (TimestampType.fromInternal, local time: streamsim's is UTC).
  // Arrow: an aware one in the session time zone (the batch's timestamp type carries it;
  // streamsim's is UTC), as TimestampScalar.as_py() gives. Built from its fields: the epoch plus
  // timedelta(milliseconds=ms) cost ~8k instructions a value (44% of bench row 4p, whose rows
  // carry an event time); that sum stays for a time past year 9999, to raise its OverflowError.
  const bool arrow = form == PyForm::kArrow;
  const int64_t day = 86'400'000;
  int64_t days = ms / day, rest = ms % day;  // no product: ms may be any int64
  if (rest < 0) {
    rest += day;  // [0, day)
    --days;
  }
  int y, m, d;
  if (civilDate(days, y, m, d)) {
    return stolen(PyDateTimeAPI->DateTime_FromDateAndTime(
        y, m, d, static_cast<int>(rest / 3'600'000), static_cast<int>(rest / 60'000 % 60),
        static_cast<int>(rest / 1000 % 60), static_cast<int>(rest % 1000 * 1000),
        arrow ? PyDateTimeAPI->TimeZone_UTC : Py_None, PyDateTimeAPI->DateTimeType));
  }
  py::module_ datetime = py::module_::import("datetime");
  py::object epoch = arrow ? datetime.attr("datetime")(1970, 1, 1, py::arg("tzinfo") = datetime.attr("timezone").attr("utc"))
                           : datetime.attr("datetime")(1970, 1, 1);
  return epoch + datetime.attr("timedelta")(py::arg("milliseconds") = ms);
}

py::object dateToPython(int64_t days) {
  // DateType.fromInternal: date(1970, 1, 1) + timedelta(days=days), built from its fields (the
  // sum stays past year 9999, to raise its OverflowError).
  int y, m, d;
  if (civilDate(days, y, m, d)) return stolen(PyDateTimeAPI->Date_FromDate(y, m, d, PyDateTimeAPI->DateType));
  py::module_ datetime = py::module_::import("datetime");
  return datetime.attr("date")(1970, 1, 1) + datetime.attr("timedelta")(py::arg("days") = days);
}

py::object toPython(const Value& v, PyForm form) {
  switch (v.type()) {
    case Type::kNull: return py::none();
    case Type::kBoolean: return py::bool_(v.asBool());
    case Type::kInt:
    case Type::kLong: return py::int_(v.asLong());
    case Type::kDouble: return py::float_(v.asDouble());
    case Type::kString: return py::str(v.asString());
    case Type::kTimestamp: return timestampToPython(v.asLong(), form);
    case Type::kDate: return dateToPython(v.asLong());
    case Type::kBinary: return py::bytes(v.asString());  // BinaryType: bytes (bytearray in Row)
    case Type::kStruct: {
      if (form == PyForm::kArrow) {  // StructScalar.as_py(): a dict by field name
        py::dict d;
        const auto& fields = v.structSchema()->fields();
        for (size_t i = 0; i < v.items().size(); ++i) d[py::str(fields[i].name)] = toPython(v.items()[i], form);
        return d;
      }
      // A Row with the struct's field names, as PySpark unpickles one.
      py::tuple t(v.items().size());
      for (size_t i = 0; i < v.items().size(); ++i) t[i] = toPython(v.items()[i], form);
      py::list names;
      for (const Field& f : v.structSchema()->fields()) names.append(f.name);
      static py::object* createRow =
          new py::object(py::module_::import("pyspark.sql.types").attr("_create_row"));
      return (*createRow)(names, t);
    }
    case Type::kArray: {
      py::list l;
      for (const Value& e : v.items()) l.append(toPython(e, form));
      return l;
    }
    case Type::kMap: {
      if (form == PyForm::kArrow) {  // MapScalar.as_py(): (key, value) tuples in the map's order
        py::list pairs;
        for (size_t i = 0; i < v.mapSize(); ++i)
          pairs.append(py::make_tuple(toPython(v.mapKey(i), form), toPython(v.mapValue(i), form)));
        return pairs;
      }
      py::dict d;
      for (size_t i = 0; i < v.mapSize(); ++i) d[toPython(v.mapKey(i), form)] = toPython(v.mapValue(i), form);
      return d;
    }
  }
  return py::none();
}

Value fromPython(py::handle o, Type type, const std::string& what) {
  return fromPython(o, type, WhatFn([&] { return what; }));
}

Value fromPython(py::handle o, Type type, const WhatFn& what) {
  if (o.is_none()) return Value();
  PyObject* p = o.ptr();
  switch (type) {
    case Type::kNull: return Value();
    case Type::kString:
      if (PyUnicode_Check(p)) return Value(o.cast<std::string>());
      break;
    case Type::kBoolean:
      if (PyBool_Check(p) || std::string(py::str(py::type::handle_of(o).attr("__name__"))) == "bool_")
        return Value(PyObject_IsTrue(p) == 1);
      break;
    case Type::kInt: {
      if (PyBool_Check(p) || PyFloat_Check(p) || PyUnicode_Check(p)) break;
      int64_t v = asInt64(o, type, what);
      if (v < INT32_MIN || v > INT32_MAX) mismatch(o, type, what);
      return Value(static_cast<int32_t>(v));
    }
    case Type::kLong:
      if (PyBool_Check(p) || PyFloat_Check(p) || PyUnicode_Check(p)) break;
      return Value(asInt64(o, type, what));
    case Type::kDouble: {
      if (PyBool_Check(p) || PyUnicode_Check(p)) break;
      double d = PyFloat_AsDouble(p);
      if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        break;
      }
      return Value(d);
    }
    case Type::kTimestamp:
      if (PyBool_Check(p) || PyUnicode_Check(p)) break;
      return Value::timestamp(timestampMs(o, what));
    case Type::kDate:
      if (hasAttr(o, "toordinal") && !hasAttr(o, "hour"))  // a datetime.date: its ordinal's day
        return Value::date(py::int_(o.attr("toordinal")()).cast<int64_t>() - 719163);
      break;
    case Type::kBinary:
      if (PyBytes_Check(p)) return Value::binary(std::string(PyBytes_AsString(p), static_cast<size_t>(PyBytes_Size(p))));
      if (PyByteArray_Check(p))
        return Value::binary(std::string(PyByteArray_AsString(p), static_cast<size_t>(PyByteArray_Size(p))));
      break;
    case Type::kStruct:
    case Type::kArray:
    case Type::kMap: break;  // their element types are on the Field: fromPython(o, Field, ...)
  }
  mismatch(o, type, what);
}

Value fromPython(py::handle o, const Field& f, const WhatFn& what, NamedRows named) {
  if (o.is_none() || !f.nested) return fromPython(o, f.type, what);
  switch (f.type) {
    case Type::kStruct: return structFromPython(o, f, what, named);
    case Type::kArray: return arrayFromPython(o, f, what, named);
    case Type::kMap: return mapFromPython(o, f, what, named);
    default: return fromPython(o, f.type, what);
  }
}

namespace {
// The first item of `items` that is not None (None when there is none).
py::handle firstNotNone(py::handle items) {
  for (py::handle i : items)
    if (!i.is_none()) return i;
  return Py_None;
}

Value inferValueImpl(py::handle o) {
  PyObject* p = o.ptr();
  const WhatFn what([] { return std::string("an output value"); });
  if (o.is_none()) return Value();
  if (PyBool_Check(p)) return Value(PyObject_IsTrue(p) == 1);
  if (PyLong_Check(p)) return Value(asInt64(o, Type::kLong, what));
  if (PyFloat_Check(p)) return Value(PyFloat_AsDouble(p));
  if (PyUnicode_Check(p)) return Value(o.cast<std::string>());
  if (hasAttr(o, "timestamp") && hasAttr(o, "tzinfo"))
    return Value::timestamp(timestampMs(o, what));
  if (PyTuple_Check(p)) {  // a struct: a Row's field names, or _1, _2, ... for a tuple
    const bool named = hasAttr(o, "__fields__");
    py::list names = named ? py::list(o.attr("__fields__")) : py::list();
    std::vector<Field> fields;
    std::vector<Value> values;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(p); ++i) {
      values.push_back(inferValueImpl(PyTuple_GET_ITEM(p, i)));
      std::string name = named && static_cast<size_t>(i) < names.size()
                             ? py::str(names[static_cast<size_t>(i)]).cast<std::string>()
                             : "_" + std::to_string(i + 1);
      fields.push_back(fieldOf(std::move(name), values.back()));
    }
    return Value::structOf(makeSchema(std::move(fields)), std::move(values));
  }
  if (hasAttr(o, "ndim") && hasAttr(o, "tolist") && py::int_(o.attr("ndim")).cast<int>() > 0)
    return inferValueImpl(o.attr("tolist")());  // a numpy array
  // An array or a map: the element (key, value) types of the first ones not None.
  if (PyList_Check(p)) {
    Field element = fieldOf("element", inferValueImpl(firstNotNone(o)));
    return fromPython(o, arrayField("array", std::move(element)), what, NamedRows::kByName);
  }
  if (PyDict_Check(p)) {
    py::dict d = py::reinterpret_borrow<py::dict>(o);
    Field key = fieldOf("key", inferValueImpl(firstNotNone(d.attr("keys")())));
    Field value = fieldOf("value", inferValueImpl(firstNotNone(d.attr("values")())));
    key.nullable = false;
    return fromPython(o, mapField("map", std::move(key), std::move(value)), what,
                      NamedRows::kByName);
  }
  if (hasAttr(o, "__index__")) return Value(asInt64(o, Type::kLong, what));
  if (hasAttr(o, "__float__")) return Value(o.cast<double>());
  return Value(std::string(py::str(o)));
}
}  // namespace

Value inferFromPython(py::handle o) { return inferValueImpl(o); }

Row tupleToRow(py::handle values, const SchemaPtr& schema, const std::string& what) {
  return tupleToRow(values, schema, WhatFn([&] { return what; }));
}

Row tupleToRow(py::handle values, const SchemaPtr& schema, const WhatFn& what, NamedRows named) {
  PyObject* p = values.ptr();
  if (!PySequence_Check(p) || PyUnicode_Check(p))
    streamsim::detail::throwRule(
        "CANNOT_CONVERT_TYPE",
        fmt::format("{}: expected a tuple of {} value(s) ({}), got {}", what(), schema->size(),
                    schema->toDDL(), std::string(py::repr(values))));
  // A tuple (or Row, a tuple subclass) is read in place; any other sequence through the protocol.
  py::object seqHolder;
  if (!PyTuple_Check(p)) {
    seqHolder = py::reinterpret_steal<py::object>(PySequence_Tuple(p));
    if (!seqHolder) throw py::error_already_set();
    p = seqHolder.ptr();
  }
  const size_t n = static_cast<size_t>(PyTuple_GET_SIZE(p));
  if (n != schema->size())
    streamsim::detail::throwRule(
        "STATE_SCHEMA_MISMATCH",
        fmt::format("{}: the schema ({}) has {} column(s) but the tuple {} has {}", what(),
                    schema->toDDL(), schema->size(), std::string(py::repr(values)), n));
  std::vector<Value> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const Field& f = schema->field(i);
    out.push_back(fromPython(PyTuple_GET_ITEM(p, static_cast<Py_ssize_t>(i)), f,
                             WhatFn([&] { return what() + " column '" + f.name + "'"; }), named));
  }
  return Row(schema, std::move(out));
}

py::tuple rowToTuple(const Row& row, PyForm form) {
  py::tuple t(row.size());
  for (size_t i = 0; i < row.size(); ++i) t[i] = toPython(row[i], form);
  return t;
}

py::object rowToNamedRow(const Row& row) {
  py::list names;
  for (const Field& f : row.schema()->fields()) names.append(f.name);
  return py::module_::import("pyspark.sql.types").attr("_create_row")(names, rowToTuple(row));
}

Row outputToRow(py::handle names, py::handle values, const SchemaPtr& schema, RowShapes& shapes) {
  py::sequence vals = py::reinterpret_borrow<py::sequence>(values);
  if (schema) {
    if (names.is_none())
      return tupleToRow(values, schema, WhatFn([] { return std::string("an output row"); }),
                        NamedRows::kByName);
    py::sequence ns = py::reinterpret_borrow<py::sequence>(names);
    std::vector<Value> out(schema->size());
    for (size_t i = 0; i < ns.size(); ++i) {
      std::string n = ns[i].cast<std::string>();
      int idx = schema->indexOf(n);
      if (idx < 0)
        streamsim::detail::throwRule(
            "OUTPUT_SCHEMA_MISMATCH",
            fmt::format("an output row has a column '{}' that outputStructType ({}) does not have",
                        n, schema->toDDL()));
      out[idx] = fromPython(vals[i], schema->field(idx),
                            WhatFn([&] { return "output column '" + n + "'"; }), NamedRows::kByName);
    }
    return Row(schema, std::move(out));
  }
  std::vector<Value> out;
  out.reserve(vals.size());
  for (size_t i = 0; i < vals.size(); ++i) out.push_back(inferFromPython(vals[i]));
  if (names.is_none()) {
    std::vector<std::string> gen;
    for (size_t i = 0; i < out.size(); ++i) gen.push_back("_" + std::to_string(i + 1));
    SchemaPtr inferred = shapes.infer(out, [&](size_t i) -> std::string_view { return gen[i]; });
    return Row(std::move(inferred), std::move(out));
  }
  std::vector<std::string> ns = names.cast<std::vector<std::string>>();
  if (ns.size() != out.size())
    streamsim::detail::throwRule("OUTPUT_SCHEMA_MISMATCH",
                                 fmt::format("an output row has {} names but {} values", ns.size(),
                                             out.size()));
  SchemaPtr inferred = shapes.infer(out, [&](size_t i) -> std::string_view { return ns[i]; });
  return Row(std::move(inferred), std::move(out));
}
}  // namespace streamsim::python
