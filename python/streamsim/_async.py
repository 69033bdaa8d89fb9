"""How streamsim runs a Python AsyncStatefulProcessor (seed 000; docs/python.md "Async processors").

Every handler call (one grouping key's handleInputRows, one timer, init, close) is a ``CallRun``
on the event loop of its processor instance (``VirtualLoop``, one per partition task, as the
instance is): its time is the engine's virtual clock and it never waits: stepping a call runs
that call's ready callbacks and stops. The calls share the loop, so asyncio objects kept in
``self`` (a Lock, an Event, a Queue) work across keys; a callback belongs to the call whose
context (a ContextVar every task of the call inherits) scheduled it, and a call that another
call's code made ready (a Lock released) is woken through the engine (a "wake" request, a
scheduling point like any other). What a coroutine awaits at the
bottom — a state or timer operation, a call of a simulated outside service, ``asyncio.sleep`` — is
a *request* the loop hands to the engine (python/native/python_async.cc): each becomes a
coroutine of the engine's async runtime (engine/src/tws/async_runtime.cc), so the engine's
Scheduler decides which key resumes next at every such await, the state operation runs when the
scheduler says (with that key current), services answer after their latency in virtual time and
sleeps end in virtual time. When a request is done the engine resolves its future and runs the
loop's ready callbacks again. No thread, no wall clock, no real asyncio loop.

A state operation's error never reaches the processor: the engine fails the task before the
awaiting coroutine resumes.
"""

import asyncio
import collections
import contextvars
import inspect
import math
from typing import Any, Deque, List, Optional, Tuple

import _streamsim_native

from pyspark.sql.streaming.stateful_processor import (
    AsyncStatefulProcessorHandle,
    ExpiredTimerInfo,
    TimerValues,
    _ttl,
)
from pyspark.sql.types import toEngineDDL
from streamsim._driver import Driver, RuleViolation


# The CallRun a coroutine belongs to (set in the context of each call's main task, which every
# task it creates copies).
_current_call: "contextvars.ContextVar[CallRun]" = contextvars.ContextVar("streamsim_call")


def _loop() -> "VirtualLoop":
    # The running call's loop while it steps, as asyncio.get_running_loop() would give it, read
    # without it: on Python 3.11 that call is a getpid() system call (~1 us on a VM), twice a
    # handler call of a count processor.
    call = _current_call.get(None)
    loop = call.loop if call is not None and call.loop._stepping else None
    if loop is None:
        raise RuntimeError(
            "an async state, timer or service operation was awaited outside the handlers "
            "streamsim runs (await it inside init, handleInputRows, handleExpiredTimer, "
            "handleInitialState or close)")
    return loop


class _Request:
    """One await the engine serves. kind: "state" (run() is the operation), "service" or "sleep"."""

    __slots__ = ("kind", "future", "fn", "label", "service", "timeout_ms", "payload", "when_ms",
                 "timer", "result", "call")

    def __init__(self, kind: str, future: Any) -> None:
        self.kind = kind
        self.future = future
        self.fn: Any = None
        self.label: Tuple[str, str, str] = ("", "", "")
        self.service = ""
        self.timeout_ms = 0
        self.payload = ""
        self.when_ms = 0
        self.timer: Any = None
        self.result: Any = None
        self.call: Any = None  # a "wake": the CallRun woken

    def run(self) -> None:
        """The state operation (the engine calls it with the key current). A future cancelled
        meanwhile (its task was cancelled) skips it."""
        if self.future is not None and self.future.cancelled():
            return
        self.result = self.fn()

    def resolve(self) -> None:
        if self.kind == "wake":
            self.call._wake_pending = False
            return
        if self.kind == "sleep":
            if not self.timer.cancelled():
                self.timer._run()
            return
        if not self.future.cancelled():
            self.future.set_result(self.result)

    def answer(self, ok: bool, error: str, body: str, timed_out: bool) -> None:
        self.result = ServiceResponse(ok, error, body, timed_out)


def _state_request(fn: Any, kind: str, name: str, op: str) -> Any:
    loop = _loop()
    r = _Request("state", loop.create_future())
    r.fn = fn
    r.label = (kind, name, op)
    loop.call_of(None).requests.append(r)
    return r.future


class VirtualLoop(asyncio.AbstractEventLoop):
    """The event loop of one processor instance's handler calls: virtual time, no waiting (see the
    module's doc). Ready callbacks, requests and tasks are kept per call."""

    def __init__(self) -> None:
        self.calls: List["CallRun"] = []  # the calls not done, in the order they started
        # The engine's virtual clock of the call being served (_streamsim_native.VirtualClock),
        # set by the engine before it runs the call's Python code.
        self.clock: Any = None
        self.woken: List["CallRun"] = []  # calls another call made ready, for the engine to wake
        self._stepping = False  # run_ready is running callbacks (the loop is asyncio's running one)

    def call_of(self, context: Any) -> "CallRun":
        """The call a callback scheduled in ``context`` (None: the running one) belongs to."""
        call = context.get(_current_call) if context is not None else _current_call.get(None)
        if call is None:
            raise RuntimeError("an asyncio operation ran outside the handler calls streamsim runs")
        return call

    # --- what asyncio's Futures, Tasks, sleep, gather, wait_for and timeout call ---
    def time(self) -> float:
        if self.clock is None:
            raise RuntimeError("the virtual clock was read outside a handler call streamsim runs")
        return self.clock.now_ms() / 1000.0

    def call_soon(self, callback: Any, *args: Any, context: Any = None) -> Any:
        handle = asyncio.Handle(callback, args, self, context)
        self.call_of(context)._ready.append(handle)
        return handle

    def call_later(self, delay: float, callback: Any, *args: Any, context: Any = None) -> Any:
        return self.call_at(self.time() + delay, callback, *args, context=context)

    def call_at(self, when: float, callback: Any, *args: Any, context: Any = None) -> Any:
        timer = asyncio.TimerHandle(when, callback, args, self, context)
        timer._scheduled = True
        r = _Request("sleep", None)
        r.timer = timer
        r.when_ms = int(math.ceil(round(when * 1000.0, 6)))
        self.call_of(context).requests.append(r)
        return timer

    def _timer_handle_cancelled(self, handle: Any) -> None:
        pass  # the engine's sleep ends and finds the handle cancelled

    def create_future(self) -> Any:
        return asyncio.Future(loop=self)

    def create_task(self, coro: Any, *, name: Any = None, context: Any = None) -> Any:
        call = self.call_of(context)
        task = asyncio.Task(coro, loop=self, name=name, context=context)
        call.tasks.append(task)
        return task

    def call_soon_threadsafe(self, callback: Any, *args: Any, context: Any = None) -> Any:
        raise RuntimeError("streamsim runs async processors on one thread: no call_soon_threadsafe")

    def run_in_executor(self, executor: Any, func: Any, *args: Any) -> Any:
        raise RuntimeError(
            "run_in_executor: streamsim runs async processors without threads (await state, "
            "timer and service operations instead)")

    def get_debug(self) -> bool:
        return False

    def set_debug(self, enabled: bool) -> None:
        pass

    def is_running(self) -> bool:
        return True

    def is_closed(self) -> bool:
        return False

    def call_exception_handler(self, context: Any) -> None:
        pass  # e.g. "Task exception was never retrieved": the handler's own result decides

    def default_exception_handler(self, context: Any) -> None:
        pass

    def get_exception_handler(self) -> Any:
        return None

    # --- streamsim's side ---
    def run_ready(self, call: "CallRun") -> None:
        """Runs ``call``'s ready callbacks; a call they made ready gets a wake request (woken)."""
        asyncio.events._set_running_loop(self)
        self._stepping = True
        try:
            while call._ready:
                handle = call._ready.popleft()
                if not handle._cancelled:
                    handle._run()
        finally:
            self._stepping = False
            asyncio.events._set_running_loop(None)
        self.calls = [c for c in self.calls if not c.main.done()]
        for other in self.calls:
            if other is not call and other._ready and not other._wake_pending:
                other._wake_pending = True
                r = _Request("wake", None)
                r.call = other
                other.requests.append(r)
                self.woken.append(other)

    def take_woken(self) -> List["CallRun"]:
        out, self.woken = self.woken, []
        return out


class ServiceResponse:
    """The answer of a simulated outside service: ``ok``, ``body`` (text), ``error`` (the
    service's error or the timeout, "" when ok), ``timedOut``."""

    def __init__(self, ok: bool, error: str, body: str, timed_out: bool) -> None:
        self.ok = ok
        self.error = error
        self.body = body
        self.timedOut = timed_out

    def raise_for_status(self) -> None:
        if not self.ok:
            raise RuntimeError(self.error)

    def __repr__(self) -> str:
        return f"ServiceResponse(ok={self.ok}, body={self.body!r}, error={self.error!r})"


class AsyncService:
    """An outside service of the run (a scenario's ``services:``): ``await svc.call(request)``
    answers after the service's latency in virtual time. Errors and timeouts are answers."""

    def __init__(self, name: str, timeout_ms: int) -> None:
        self.name = name
        self.timeout_ms = timeout_ms

    async def call(self, request: Any) -> ServiceResponse:
        loop = _loop()
        r = _Request("service", loop.create_future())
        r.label = ("service", self.name, "call")
        r.service = self.name
        r.timeout_ms = self.timeout_ms
        r.payload = str(request)
        loop.call_of(None).requests.append(r)
        return await r.future


class _AsyncSequence:
    """The elements of a list, map or timer read, consumed with ``async for``: the read happens
    at the first element (an await), the rest do not suspend."""

    def __init__(self, fn: Any, kind: str, name: str, op: str) -> None:
        self._fn = fn
        self._label = (kind, name, op)
        self._items: Optional[List[Any]] = None
        self._pos = 0

    def __aiter__(self) -> "_AsyncSequence":
        return self

    async def __anext__(self) -> Any:
        if self._items is None:
            self._items = await _state_request(self._fn, *self._label)
        if self._pos >= len(self._items):
            raise StopAsyncIteration
        self._pos += 1
        return self._items[self._pos - 1]


# The async state classes are generated from the native ones (python/native/python_support.cc:
# ValueState, ListState, MapState): every public operation of a native class is awaited, except
# the reads named here, which return a sequence consumed with ``async for``. A new state operation
# is bound once, in python_support.cc; its async form follows (tests/python/test_async_state_ops.py
# fails for a name here that the native class lacks).
SEQUENCE_OPS = {
    "ValueState": frozenset(),
    "ListState": frozenset({"get"}),
    "MapState": frozenset({"iterator", "keys", "values"}),
}


def native_state_ops(kind: str) -> List[str]:
    """The public operations of the native state class ``kind`` (sorted)."""
    native = getattr(_streamsim_native, kind)
    return sorted(n for n in dir(native) if not n.startswith("_") and callable(getattr(native, n)))


def _awaited(kind: str, op: str) -> Any:
    async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        return await _state_request(lambda: getattr(self._s, op)(*args, **kwargs), kind,
                                    self._name, op)
    call.__name__ = call.__qualname__ = op
    call.__doc__ = f"``await`` {kind}.{op} (a scheduling point: the engine's scheduler resumes it)."
    return call


def _sequence(kind: str, op: str) -> Any:
    def call(self: Any, *args: Any, **kwargs: Any) -> _AsyncSequence:
        return _AsyncSequence(lambda: list(getattr(self._s, op)(*args, **kwargs)), kind,
                              self._name, op)
    call.__name__ = call.__qualname__ = op
    call.__doc__ = (f"``async for`` over {kind}.{op} (the read happens at the first element, a "
                    "scheduling point; the rest do not suspend).")
    return call


def _async_state_class(kind: str) -> type:
    def __init__(self: Any, native: Any, name: str) -> None:
        self._s = native
        self._name = name

    sequences = SEQUENCE_OPS[kind]
    ops = native_state_ops(kind)
    members: dict = {"__init__": __init__, "__slots__": ("_s", "_name")}
    for op in ops:
        members[op] = _sequence(kind, op) if op in sequences else _awaited(kind, op)
    awaited = [op for op in ops if op not in sequences]
    members["__doc__"] = (f"{kind} with awaited operations ({', '.join(awaited)})"
                          + (f"; ``async for`` over {', '.join(sorted(sequences))}."
                             if sequences else "."))
    return type("Async" + kind, (), members)


AsyncValueState = _async_state_class("ValueState")
AsyncListState = _async_state_class("ListState")
AsyncMapState = _async_state_class("MapState")


class AsyncHandle(AsyncStatefulProcessorHandle):
    """The AsyncStatefulProcessorHandle: creating state variables, deleteIfExists and
    getService are synchronous; timers are awaited (listTimers with ``async for``)."""

    def __init__(self, native: Any) -> None:
        self._native = native

    def getValueState(self, stateName: str, schema: Any, ttlDurationMs: Optional[int] = None) -> Any:
        return AsyncValueState(
            self._native.getValueState(stateName, toEngineDDL(schema), _ttl(ttlDurationMs)), stateName)

    def getListState(self, stateName: str, schema: Any, ttlDurationMs: Optional[int] = None) -> Any:
        return AsyncListState(
            self._native.getListState(stateName, toEngineDDL(schema), _ttl(ttlDurationMs)), stateName)

    def getMapState(self, stateName: str, userKeySchema: Any, valueSchema: Any,
                    ttlDurationMs: Optional[int] = None) -> Any:
        return AsyncMapState(
            self._native.getMapState(stateName, toEngineDDL(userKeySchema), toEngineDDL(valueSchema),
                                     _ttl(ttlDurationMs)), stateName)

    def deleteIfExists(self, stateName: str) -> None:
        self._native.deleteIfExists(stateName)

    def getService(self, name: str, timeoutMs: int = 0) -> AsyncService:
        return AsyncService(str(name), int(timeoutMs))

    async def registerTimer(self, expiryTimestampMs: int) -> None:
        t = int(expiryTimestampMs)
        await _state_request(lambda: self._native.registerTimer(t), "timer", "", "registerTimer")

    async def deleteTimer(self, expiryTimestampMs: int) -> None:
        t = int(expiryTimestampMs)
        await _state_request(lambda: self._native.deleteTimer(t), "timer", "", "deleteTimer")

    def listTimers(self) -> _AsyncSequence:
        return _AsyncSequence(lambda: list(self._native.listTimers()), "timer", "", "listTimers")


class CallRun:
    """One handler call on its driver's VirtualLoop; the engine steps it (step), serves its
    requests (take_requests), wakes the calls it made ready (take_woken) and takes its rows
    (result) once ``done``."""

    def __init__(self, driver: "AsyncDriver", method: str, fn: Any, args: Tuple[Any, ...]) -> None:
        self.driver = driver
        self.method = method
        self.loop = driver.loop
        self._ready: Deque[Any] = collections.deque()
        self.requests: List[_Request] = []
        self.tasks: List[Any] = []
        self._wake_pending = False
        context = contextvars.copy_context()
        context.run(_current_call.set, self)
        self.main = self.loop.create_task(self._main(fn, args), context=context)
        self.loop.calls.append(self)

    async def _main(self, fn: Any, args: Tuple[Any, ...]) -> List[Any]:
        result = fn(*args)
        if inspect.isasyncgen(result):
            return [item async for item in result]
        if inspect.isawaitable(result):
            result = await result
        if result is None:
            return []
        if hasattr(result, "__aiter__"):
            return [item async for item in result]
        return list(result)

    def step(self) -> bool:
        guard = self.driver.guard
        if guard is not None:
            guard.enter()
        try:
            self.loop.run_ready(self)
        finally:
            if guard is not None:
                guard.leave()
        return self.main.done()

    def take_requests(self) -> List[_Request]:
        out, self.requests = self.requests, []
        return out

    def take_woken(self) -> List["CallRun"]:
        return self.loop.take_woken()

    def result(self) -> List[Tuple[Any, Tuple[Any, ...]]]:
        guard = self.driver.guard
        if guard is not None:
            guard.check(self.method)
        if self.main.cancelled():
            raise RuntimeError(f"{self.method} was cancelled")
        exc = self.main.exception()
        if exc is not None:
            raise exc
        pending = [t for t in self.tasks if t is not self.main and not t.done()]
        if pending:
            raise RuleViolation(
                "ASYNC_TASK_NOT_AWAITED",
                f"{self.method} returned while {len(pending)} task(s) it started were still "
                f"running ({pending[0].get_coro().__qualname__}): await every task a handler "
                "creates (asyncio.gather, await task) before it returns")
        return self.driver._collect(self.main.result())


class AsyncDriver(Driver):
    """One AsyncStatefulProcessor instance: every engine call returns a CallRun."""

    def __init__(self, processor: Any, guard: Any, in_pandas: bool, output_names: Any) -> None:
        if in_pandas:
            raise RuleViolation(
                "UNSUPPORTED_OPERATION",
                f"{type(processor).__name__} is an AsyncStatefulProcessor: async processors run "
                "with transformWithState (rows), not transformWithStateInPandas")
        super().__init__(processor, guard, False, output_names)
        self.loop = VirtualLoop()  # every call of this instance (one partition task) runs on it

    def start_init(self, native_handle: Any) -> CallRun:
        return CallRun(self, "init", self.processor.init, (AsyncHandle(native_handle),))

    def start_input(self, key: Tuple[Any, ...], names: Any, rows: Any, processing_time: int,
                    watermark: int) -> CallRun:
        return CallRun(self, "handleInputRows", self.processor.handleInputRows,
                       (key, self._rows(names, rows), TimerValues(processing_time, watermark)))

    def start_timer(self, key: Tuple[Any, ...], processing_time: int, watermark: int,
                    expiry: int) -> CallRun:
        return CallRun(self, "handleExpiredTimer", self.processor.handleExpiredTimer,
                       (key, TimerValues(processing_time, watermark), ExpiredTimerInfo(expiry)))

    def start_initial(self, key: Tuple[Any, ...], names: Any, values: Tuple[Any, ...],
                      processing_time: int, watermark: int) -> CallRun:
        from pyspark.sql.types import _create_row
        return CallRun(self, "handleInitialState", self.processor.handleInitialState,
                       (key, _create_row(list(names), values), TimerValues(processing_time, watermark)))

    def start_close(self) -> CallRun:
        return CallRun(self, "close", self.processor.close, ())
