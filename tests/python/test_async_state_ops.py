# The async state classes are generated from the native ones (python/streamsim/_async.py): every
# public native operation has its async form, awaited or (the reads SEQUENCE_OPS names) an async
# sequence, so a state operation bound in python/native/python_support.cc needs no second adapter.
# Their behaviour on the engine is test_async.py's (every awaited operation on both stores).
import inspect

import pytest

import _streamsim_native
from streamsim import _async


@pytest.mark.parametrize("kind", ["ValueState", "ListState", "MapState"])
def test_every_native_state_operation_has_its_async_form(kind):
    cls = getattr(_async, "Async" + kind)
    ops = _async.native_state_ops(kind)
    assert ops, kind
    for op in ops:
        fn = getattr(cls, op)
        if op in _async.SEQUENCE_OPS[kind]:
            assert not inspect.iscoroutinefunction(fn), op
        else:
            assert inspect.iscoroutinefunction(fn), op
    # Nothing else public: the async class is the native one, awaited.
    public = sorted(n for n in vars(cls) if not n.startswith("_"))
    assert public == ops


@pytest.mark.parametrize("kind", ["ValueState", "ListState", "MapState"])
def test_every_sequence_op_is_a_native_operation(kind):
    missing = _async.SEQUENCE_OPS[kind] - set(_async.native_state_ops(kind))
    assert not missing, f"SEQUENCE_OPS[{kind!r}] names {sorted(missing)}, which the native class lacks"


def test_the_known_operations_are_there():
    # What docs/processors.md's async table promises (PySpark's state APIs).
    assert {"exists", "get", "update", "clear"} <= set(_async.native_state_ops("ValueState"))
    assert {"exists", "get", "put", "appendValue", "appendList", "clear"} <= set(
        _async.native_state_ops("ListState"))
    assert {"exists", "getValue", "containsKey", "updateValue", "iterator", "keys", "values",
            "removeKey", "clear"} <= set(_async.native_state_ops("MapState"))
    assert _streamsim_native.ValueState is not None
