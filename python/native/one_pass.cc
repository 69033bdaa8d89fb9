// `_streamsim_native.OnePass` (one_pass.h): a handler's `rows` as an iterator type in C.
#include "one_pass.h"

namespace streamsim::python {
namespace {

struct OnePass {
  PyObject_HEAD
  PyObject* it;     // the rows' iterator; null once exhausted
  PyObject* guard;  // the file's WallClockGuard, or None
};

int onePassTraverse(PyObject* self, visitproc visit, void* arg) {
  auto* p = reinterpret_cast<OnePass*>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(p->it);
  Py_VISIT(p->guard);
  return 0;
}

int onePassClear(PyObject* self) {
  auto* p = reinterpret_cast<OnePass*>(self);
  Py_CLEAR(p->it);
  Py_CLEAR(p->guard);
  return 0;
}

void onePassDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  onePassClear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject* onePassNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* rows = nullptr;
  PyObject* guard = nullptr;
  static const char* kNames[] = {"rows", "guard", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:OnePass", const_cast<char**>(kNames), &rows, &guard))
    return nullptr;
  PyObject* it = PyObject_GetIter(rows);
  if (it == nullptr) return nullptr;
  auto* self = reinterpret_cast<OnePass*>(type->tp_alloc(type, 0));
  if (self == nullptr) {
    Py_DECREF(it);
    return nullptr;
  }
  self->it = it;
  Py_INCREF(guard);
  self->guard = guard;
  return reinterpret_cast<PyObject*>(self);
}

PyObject* onePassNext(PyObject* self) {
  auto* p = reinterpret_cast<OnePass*>(self);
  if (p->it != nullptr) {
    PyObject* row = PyIter_Next(p->it);
    if (row != nullptr || PyErr_Occurred()) return row;
    Py_CLEAR(p->it);  // exhausted: the next read is a second pass
    return nullptr;
  }
  if (p->guard != Py_None) {
    // Depth 2 from _note's _caller: _caller, _note, then the frame that read `rows` (no frame of
    // this iterator's own in between).
    PyObject* r = PyObject_CallMethod(p->guard, "_note", "ssi", "rows",
                                      "`rows` read again after it was exhausted", 2);
    if (r == nullptr) return nullptr;
    Py_DECREF(r);
  }
  return nullptr;
}

PyType_Slot kOnePassSlots[] = {
    {Py_tp_doc, const_cast<char*>(
                    "OnePass(rows, guard): a handler's `rows`, an iterator read once as PySpark hands "
                    "it; a read after it was exhausted is noted on the guard (ROWS_CONSUMED_TWICE).")},
    {Py_tp_new, reinterpret_cast<void*>(onePassNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(onePassDealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(onePassTraverse)},
    {Py_tp_clear, reinterpret_cast<void*>(onePassClear)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(onePassNext)},
    {0, nullptr},
};

PyType_Spec kOnePassSpec = {
    "_streamsim_native.OnePass", sizeof(OnePass), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    kOnePassSlots,
};

}  // namespace

void defineOnePass(py::module_& m) {
  PyObject* type = PyType_FromSpec(&kOnePassSpec);
  if (type == nullptr) throw py::error_already_set();
  m.add_object("OnePass", py::reinterpret_steal<py::object>(type));
}

}  // namespace streamsim::python
