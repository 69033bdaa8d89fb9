"""How streamsim.pyspark.TwsTester runs one processor object with ``init`` called once.

PySpark's TwsTester (python/pyspark/sql/streaming/tws_tester.py, 4.0.2 and 4.2.0 alike) calls
``processor.init(handle)`` once, in its constructor, on the object it was given, and every later
call goes to that object. The engine makes a processor per partition task and batch and calls
``init`` on each (as a query does: Spark unpickles one per task). Here each batch's engine handle
is bound to one ``InitOnce``: the first batch runs the user's ``init`` with a ``SharedHandle``,
which records the state variables it declares and hands out proxies; every later batch declares
the same variables on its own engine handle (so the engine sees them declared in init, its rule)
without calling the user's ``init``, and the proxies reach the variables of the call running.
"""

import copy
from typing import Any, Dict, List, Optional, Tuple

from pyspark.sql.streaming.stateful_processor import (
    ListState,
    MapState,
    StatefulProcessorHandle,
    ValueState,
)
from streamsim._driver import Driver


class InitOnce:
    """One tester's processor object, the variables its ``init`` declared and the driver whose
    call runs now (``active``)."""

    def __init__(self, processor: Any) -> None:
        self.pristine = copy.deepcopy(processor)  # what restart() starts again from
        self.reset(processor)

    def reset(self, processor: Any) -> None:
        self.processor = processor
        self.declared: List[Tuple[str, str, tuple, dict]] = []  # (method, name, args, kwargs)
        self.handle: Optional[SharedHandle] = None
        self.active: Optional["InitOnceDriver"] = None

    def restart(self) -> None:
        """A restart (streamsim's addition): a new object, as a new task unpickles one; its init
        runs again in the next batch."""
        self.reset(copy.deepcopy(self.pristine))

    def current(self) -> "InitOnceDriver":
        if self.active is None:
            raise RuntimeError("a state variable or timer of the tester used outside a tester call")
        return self.active


class _StateProxy:
    """A state variable declared in init: each use reaches the variable of the call running."""

    def __init__(self, binding: InitOnce, name: str) -> None:
        self._binding = binding
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._binding.current().states[self._name], attr)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._name!r})"


class _ValueProxy(_StateProxy, ValueState):
    pass


class _ListProxy(_StateProxy, ListState):
    pass


class _MapProxy(_StateProxy, MapState):
    pass


class SharedHandle(StatefulProcessorHandle):
    """The handle the user's init gets once: it records the variables declared and forwards
    timers to the engine handle of the call running."""

    def __init__(self, binding: InitOnce) -> None:
        self._binding = binding

    @property
    def _native(self) -> Any:  # StatefulProcessorHandle's methods call self._native
        return self._binding.current().handle._native

    def _declare(self, method: str, proxy: type, name: str, args: tuple, kwargs: dict) -> Any:
        driver = self._binding.current()
        driver.states[name] = getattr(driver.handle, method)(name, *args, **kwargs)
        self._binding.declared.append((method, name, args, kwargs))
        return proxy(self._binding, name)

    def getValueState(self, stateName: str, *args: Any, **kwargs: Any) -> Any:
        return self._declare("getValueState", _ValueProxy, stateName, args, kwargs)

    def getListState(self, stateName: str, *args: Any, **kwargs: Any) -> Any:
        return self._declare("getListState", _ListProxy, stateName, args, kwargs)

    def getMapState(self, stateName: str, *args: Any, **kwargs: Any) -> Any:
        return self._declare("getMapState", _MapProxy, stateName, args, kwargs)


class InitOnceDriver(Driver):
    """A Driver whose ``init`` calls the user's init once per InitOnce (see the module)."""

    def __init__(self, processor: Any, guard: Any, in_pandas: bool, output_names: Any,
                 binding: InitOnce, **options: Any) -> None:
        # options: Driver's keyword options (chunk_rows, time_mode) as the adapter passes them.
        super().__init__(processor, guard, in_pandas, output_names, **options)
        self.binding = binding
        self.handle: Optional[StatefulProcessorHandle] = None
        self.states: Dict[str, Any] = {}

    def _run(self, method: str, fn: Any, *args: Any) -> Any:
        previous, self.binding.active = self.binding.active, self
        try:
            return super()._run(method, fn, *args)
        finally:
            self.binding.active = previous

    def init(self, native_handle: Any) -> None:
        self.handle = StatefulProcessorHandle(native_handle)
        b = self.binding
        if b.handle is None:
            b.handle = SharedHandle(b)
            try:
                self._run("init", self.processor.init, b.handle)
            except BaseException:
                b.handle, b.declared = None, []  # init failed: it runs again next time
                raise
            return
        # A later batch: the same variables on this batch's handle; the user's init ran already.
        for method, name, args, kwargs in b.declared:
            self.states[name] = getattr(self.handle, method)(name, *args, **kwargs)

    def close(self) -> None:
        """PySpark's tester never calls close (its processor lives as long as the tester)."""
