"""How streamsim's engine calls a Python StatefulProcessor (used by the C++ adapter, python/native).

``load(path, class_name)`` executes a processor file in a module of its own whose imports of the
wall clock and of randomness are guarded (WallClockGuard): a handler that reads them is reported (file:line)
instead of silently making a batch's re-run differ. ``Driver`` wraps one processor instance (one
per partition task, as Spark unpickles one per task) and turns rows, keys and outputs into plain
tuples for the engine.
"""

import builtins
import datetime as _datetime
import itertools
import os
import sys
import threading
import time as _time
import traceback
import types
from typing import Any, List, Optional, Sequence, Tuple

import _streamsim_native

from pyspark.sql.types import Row, _create_row
from pyspark.sql.streaming.stateful_processor import (
    AsyncStatefulProcessor,
    ExpiredTimerInfo,
    StatefulProcessor,
    StatefulProcessorHandle,
    TimerValues,
)

_counter = itertools.count()

# Compiled processor files by (path, bytes): a sweep loads the same file for every run (a fresh
# module each time, executed afresh, as the process_isolation oracle wants), and compiling is a
# pure function of the two. A code object is immutable; the newest few files are kept.
_compiled: "dict[Tuple[str, bytes], types.CodeType]" = {}
_COMPILED_KEPT = 32


def _compile(source: bytes, path: str) -> types.CodeType:
    key = (path, source)
    code = _compiled.pop(key, None)
    if code is None:
        code = compile(source, path, "exec")
        while len(_compiled) >= _COMPILED_KEPT:
            del _compiled[next(iter(_compiled))]
    _compiled[key] = code  # the most recently used last
    return code
# streamsim's own frames (this package, the pyspark shim) are left out of tracebacks.
_OWN_FILES = (os.path.dirname(os.path.abspath(__file__)) + os.sep,
              os.path.dirname(os.path.abspath(sys.modules["pyspark"].__file__)))


class RuleViolation(Exception):
    """A broken rule of the processor API; the engine fails the task naming ``rule``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self._streamsim_rule = rule


def _caller(depth: int = 2) -> str:
    f = sys._getframe(depth)
    return f"{f.f_code.co_filename}:{f.f_lineno} in {f.f_code.co_name}"


class WallClockGuard:
    """Proxies of the modules that read the wall clock or draw randomness, for one processor
    module's own imports; while ``active`` (a handler runs) every such read is recorded with the
    caller's file:line and fails the call (``check``):

    - the wall clock (WALL_CLOCK_READ): ``time``, ``datetime``, pandas' ``Timestamp.now()`` /
      ``utcnow()`` / ``today()`` / ``Timestamp("now")`` / ``to_datetime("now")``;
    - randomness (NONDETERMINISTIC_READ): the module-level functions of ``random`` and
      ``numpy.random`` (the shared global generators; allowed when the processor class says
      ``seededRandom = True``: it seeds them itself), and what no seed makes repeatable:
      ``uuid.uuid1()`` / ``uuid4()``, ``os.urandom()`` / ``os.getrandom()``, ``secrets``,
      ``numpy.random.default_rng()`` without a seed.

    A generator of the processor's own (``random.Random(seed)``, ``numpy.random.default_rng(seed)``)
    is never reported."""

    def __init__(self) -> None:
        self.active = False
        self.seeded_random = False  # the processor class's `seededRandom = True`
        self.reads: List[Tuple[str, str]] = []  # (kind: clock | random | entropy, what at where)
        self._proxies: dict = {}

    def enter(self) -> None:
        """A call of the processor's code starts on this thread (a handler, init, close, the
        file's import)."""
        self.active = True
        _current.guard = self

    def leave(self) -> None:
        self.active = False
        _current.guard = None

    def _note(self, kind: str, what: str, depth: int = 3) -> None:
        """Records a read at the frame ``depth`` up from _caller's (3: the caller of a guarded
        Python function; 2: the caller of a C function that calls this, as OnePass)."""
        if self.active and not (kind == "random" and self.seeded_random):
            self.reads.append((kind, f"{what} at {_caller(depth)}"))

    def _watch(self, fn: Any, name: str, kind: str, only_without_args: bool = False,
               when: Any = None) -> Any:
        guard = self

        def guarded(*args: Any, **kwargs: Any) -> Any:
            if guard.active and not (only_without_args and (args or kwargs)) and \
                    (when is None or when(*args, **kwargs)):
                guard._note(kind, name)
            return fn(*args, **kwargs)
        guarded.__name__ = getattr(fn, "__name__", name)
        guarded.__doc__ = getattr(fn, "__doc__", None)
        return guarded

    @staticmethod
    def _copy(module: Any) -> Any:
        proxy = types.ModuleType(module.__name__)
        proxy.__dict__.update({k: v for k, v in module.__dict__.items()
                               if not k.startswith("__") or k in ("__file__", "__path__", "__version__")})
        return proxy

    def _time(self) -> Any:
        tm = self._copy(_time)
        for n in ("time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns"):
            setattr(tm, n, self._watch(getattr(_time, n), f"time.{n}()", "clock"))
        for n in ("localtime", "gmtime", "ctime", "asctime"):
            setattr(tm, n, self._watch(getattr(_time, n), f"time.{n}()", "clock", only_without_args=True))
        return tm

    def _datetime(self) -> Any:
        guard = self

        class datetime(_datetime.datetime):
            @classmethod
            def now(cls, tz: Any = None) -> Any:
                guard._note("clock", "datetime.now()")
                return _datetime.datetime.now(tz)

            @classmethod
            def utcnow(cls) -> Any:
                guard._note("clock", "datetime.utcnow()")
                return _datetime.datetime.utcnow()

            @classmethod
            def today(cls) -> Any:
                guard._note("clock", "datetime.today()")
                return _datetime.datetime.today()

        class date(_datetime.date):
            @classmethod
            def today(cls) -> Any:
                guard._note("clock", "date.today()")
                return _datetime.date.today()

        dm = self._copy(_datetime)
        dm.datetime, dm.date = datetime, date
        return dm

    def _random(self) -> Any:
        import random
        rm = self._copy(random)
        inst = getattr(random, "_inst", None)
        for n, f in random.__dict__.items():
            if getattr(f, "__self__", None) is inst and n not in ("seed", "getstate", "setstate"):
                setattr(rm, n, self._watch(f, f"random.{n}()", "random"))
        return rm

    def _entropy(self, module: Any, names: Sequence[str]) -> Any:
        proxy = self._copy(module)
        for n in names:
            if hasattr(module, n):
                setattr(proxy, n, self._watch(getattr(module, n), f"{module.__name__}.{n}()", "entropy"))
        return proxy

    def _numpy_random(self, npr: Any) -> Any:
        proxy = self._copy(npr)
        shared = getattr(getattr(npr, "mtrand", None), "_rand", None)
        for n, f in npr.__dict__.items():
            if shared is not None and getattr(f, "__self__", None) is shared and \
                    n not in ("seed", "get_state", "set_state"):
                setattr(proxy, n, self._watch(f, f"numpy.random.{n}()", "random"))
        if hasattr(npr, "default_rng"):
            proxy.default_rng = self._watch(npr.default_rng, "numpy.random.default_rng() without a seed",
                                            "entropy", when=lambda *a, **k: (a[0] if a else k.get("seed")) is None)
        return proxy

    def _numpy(self) -> Any:
        import numpy
        proxy = self._copy(numpy)
        proxy.random = self._proxy("numpy.random", numpy.random)
        return proxy

    def _pandas(self) -> Any:
        import pandas
        guard = self
        proxy = self._copy(pandas)
        real = pandas.Timestamp
        now_words = ("now", "today")

        class _AnyTimestamp(type):
            def __instancecheck__(cls, obj: Any) -> bool:
                return isinstance(obj, real)

            def __subclasscheck__(cls, sub: Any) -> bool:
                return issubclass(sub, real)

        try:
            class Timestamp(real, metaclass=_AnyTimestamp):  # type: ignore[misc]
                def __new__(cls, *args: Any, **kwargs: Any) -> Any:
                    if args and isinstance(args[0], str) and args[0].strip().lower() in now_words:
                        guard._note("clock", f"pandas.Timestamp({args[0]!r})")
                    return real(*args, **kwargs)

                @classmethod
                def now(cls, tz: Any = None) -> Any:
                    guard._note("clock", "pandas.Timestamp.now()")
                    return real.now(tz)

                @classmethod
                def utcnow(cls) -> Any:
                    guard._note("clock", "pandas.Timestamp.utcnow()")
                    return real.utcnow()

                @classmethod
                def today(cls, tz: Any = None) -> Any:
                    guard._note("clock", "pandas.Timestamp.today()")
                    return real.today(tz)
            Timestamp.__name__ = Timestamp.__qualname__ = "Timestamp"
            proxy.Timestamp = Timestamp
        except TypeError:  # a pandas whose Timestamp cannot be subclassed: its clock goes unseen
            pass
        proxy.to_datetime = self._watch(
            pandas.to_datetime, "pandas.to_datetime('now')", "clock",
            when=lambda *a, **k: bool(a) and isinstance(a[0], str) and a[0].strip().lower() in now_words)
        return proxy

    def _proxy(self, name: str, module: Any) -> Any:
        if name not in self._proxies:
            build = {
                "time": self._time, "datetime": self._datetime, "random": self._random,
                "uuid": lambda: self._entropy(module, ("uuid1", "uuid4")),
                "os": lambda: self._entropy(module, ("urandom", "getrandom")),
                "secrets": lambda: self._entropy(module, ("token_bytes", "token_hex", "token_urlsafe",
                                                          "choice", "randbelow", "randbits")),
                "numpy": self._numpy, "numpy.random": lambda: self._numpy_random(module),
                "pandas": self._pandas,
            }.get(name)
            self._proxies[name] = build() if build is not None else module
        return self._proxies[name]

    @property
    def time(self) -> Any:
        return self._proxy("time", _time)

    @property
    def datetime(self) -> Any:
        return self._proxy("datetime", _datetime)

    def import_(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                level: int = 0) -> Any:
        module = builtins.__import__(name, globals, locals, fromlist, level)
        if level != 0:
            return module
        # `import a.b` gives `a` (its `b` read from it); `from a.b import c` gives `a.b`.
        target = name if fromlist else name.partition(".")[0]
        return self._proxy(target, module) if target in _GUARDED else module

    def check(self, method: str) -> None:
        if not self.reads:
            return
        reads, self.reads = self.reads, []
        exits = [what for kind, what in reads if kind == "exit"]
        if exits:
            raise RuleViolation(
                "PROCESS_EXIT",
                f"{method} tried to end the process: {'; '.join(exits)}. In Spark the Python worker "
                "would die and the task fail; a handler ends by returning (or raising)")
        timers = [what for kind, what in reads if kind == "timer"]
        if timers:
            raise RuleViolation(
                "EVENT_TIME_TIMER_FROM_PROCESSING_TIME",
                f"{method} registered an event-time timer computed from the processing time: {timers[0]}. "
                "With TimeMode.EventTime() a timer fires when the watermark passes it (Spark's "
                "TimerStateImpl / ExpiredTimerInfo), so a timestamp from "
                "timerValues.getCurrentProcessingTimeInMs() fires whenever the event times happen to "
                "reach the wall-clock time, if ever; compute it from the watermark "
                "(getCurrentWatermarkInMs()) or the rows' event times, or use TimeMode.ProcessingTime()")
        twice = [what for kind, what in reads if kind == "rows"]
        if twice:
            raise RuleViolation(
                "ROWS_CONSUMED_TWICE",
                f"{method} iterated its input rows twice: {twice[0]}. PySpark hands `rows` as an "
                "iterator that is read once, so the second pass sees no rows (a count or sum over it "
                "is silently 0 on Spark); take `rows = list(rows)` first to use them twice")
        clock = [what for kind, what in reads if kind == "clock"]
        if clock:
            raise RuleViolation(
                "WALL_CLOCK_READ",
                f"{method} read the wall clock: {'; '.join(clock)}. A re-run of the batch (after a "
                "failure or restart) would see another time; use timerValues."
                "getCurrentProcessingTimeInMs() / getCurrentWatermarkInMs() instead")
        raise RuleViolation(
            "NONDETERMINISTIC_READ",
            f"{method} drew randomness: {'; '.join(what for _, what in reads)}. A re-run of the "
            "batch (after a failure or restart) would draw other values, and the sink would hold "
            "both; derive them from the key and timerValues, or draw from a generator of the "
            "processor's own seeded with them (random.Random(seed), numpy.random.default_rng(seed)). "
            "A processor that seeds the module-level random / numpy.random generators itself says "
            "so with the class attribute `seededRandom = True`")


class _ProcessingTimeMs(int):
    """The batch's processing time as an EventTime-mode processor gets it: an int that stays one
    through + - * // % with ints, so registerTimer can tell an event-time timer set from it."""


def _keeps_tag(op: str) -> Any:
    base = getattr(int, op)

    def f(self: int, other: Any) -> Any:
        r = base(self, other)
        if r is NotImplemented or isinstance(r, bool) or not isinstance(r, int):
            return r
        return _ProcessingTimeMs(r)
    return f


for _op in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
            "__floordiv__", "__rfloordiv__", "__mod__"):
    setattr(_ProcessingTimeMs, _op, _keeps_tag(_op))


# A handler's `rows`: an iterator read once, as PySpark hands it; a second pass is noted on the
# guard (ROWS_CONSUMED_TWICE with file:line). A C type (python/native/one_pass.h): a Python
# __next__ was a frame per row.
_OnePass = _streamsim_native.OnePass


# The guard of the processor call running on this thread (WallClockGuard.enter), if any.
_current = threading.local()


def _intercept_exit(name: str, real: Any) -> Any:
    """os._exit / os.abort that, called from a processor's code, raise instead of ending the
    process (and the run with it, as exit 0 with nothing checked): the call fails with
    PROCESS_EXIT. Elsewhere (streamsim itself, a user's own tests) they are the real ones."""
    def intercepted(*args: Any, **kwargs: Any) -> Any:
        guard = getattr(_current, "guard", None)
        if guard is None or not guard.active:
            return real(*args, **kwargs)
        call = f"os.{name}({', '.join(repr(a) for a in args)})"
        guard.reads.append(("exit", f"{call} at {_caller(2)}"))
        raise RuleViolation("PROCESS_EXIT", f"{call} called: a processor must not end the process (in "
                            "Spark its Python worker would die and the task fail)")
    intercepted.__name__ = name
    intercepted._streamsim_real = real  # type: ignore[attr-defined]
    return intercepted


for _name in ("_exit", "abort"):
    if not hasattr(getattr(os, _name), "_streamsim_real"):
        setattr(os, _name, _intercept_exit(_name, getattr(os, _name)))


# The modules whose imports by a processor file are guarded (WallClockGuard).
_GUARDED = frozenset(("time", "datetime", "random", "uuid", "os", "secrets", "numpy", "numpy.random",
                      "pandas"))


class Loaded:
    """A processor file executed in its own module, and its processor class."""

    def __init__(self, path: str, class_name: str, source: Optional[bytes] = None,
                 function: bool = False) -> None:
        self.path = os.path.abspath(path)
        self.guard = WallClockGuard()
        folder = os.path.dirname(self.path)
        if folder not in sys.path:
            sys.path.append(folder)
        if source is None:
            with open(self.path, "rb") as f:
                source = f.read()
        # Bytes, as `python file.py` reads them: a PEP 263 coding line (``# -*- coding: latin-1
        # -*-``) or a UTF-8 BOM decides the encoding, UTF-8 otherwise.
        code = _compile(source, self.path)
        self.module_name = f"streamsim_processor_{next(_counter)}"
        module = types.ModuleType(self.module_name)
        module.__file__ = self.path
        module.__dict__["__builtins__"] = dict(builtins.__dict__, __import__=self.guard.import_)
        sys.modules[self.module_name] = module
        self.guard.enter()
        try:
            exec(code, module.__dict__)
        except BaseException:
            del sys.modules[self.module_name]
            raise
        finally:
            self.guard.leave()
            self.guard.reads = [r for r in self.guard.reads if r[0] == "exit"]  # the import's own reads
        self.guard.check(f"the import of {self.path}")
        self.module = module
        if function:  # a reference function (oracles: [{reference: file.py:function}])
            fn = module.__dict__.get(class_name)
            if not callable(fn) or isinstance(fn, type):
                found = sorted(n for n, v in module.__dict__.items()
                               if isinstance(v, types.FunctionType) and v.__module__ == self.module_name)
                raise LookupError(f"{path} defines no function '{class_name}' (its functions: "
                                  f"{', '.join(found) or 'none'})")
            self.cls = None
            self.fn = fn
            return
        cls = module.__dict__.get(class_name)
        if not isinstance(cls, type):
            found = sorted(n for n, v in module.__dict__.items()
                           if isinstance(v, type) and v.__module__ == self.module_name
                           and issubclass(v, (StatefulProcessor, AsyncStatefulProcessor)))
            raise LookupError(f"{path} defines no class '{class_name}' (its processor classes: "
                              f"{', '.join(found) or 'none'})")
        self.cls = cls
        self.guard.seeded_random = bool(getattr(cls, "seededRandom", False))

    def unload(self) -> None:
        sys.modules.pop(self.module_name, None)


def load(path: str, class_name: str, source: Optional[bytes] = None) -> Loaded:
    return Loaded(path, class_name, source)


def load_function(path: str, name: str, source: Optional[bytes] = None) -> Loaded:
    return Loaded(path, name, source, function=True)


def call_reference(loaded: Loaded, rows: List[Any]) -> List[Tuple[Any, Tuple[Any, ...]]]:
    """The reference function of ``loaded`` over every delivered row (a list of Rows): the rows it
    returns, as a handler's would be taken (Rows or dicts; guarded as a handler's call)."""
    driver = Driver(None, loaded.guard, False, None)
    return driver._run("the reference function " + loaded.fn.__name__, loaded.fn, rows)


def _plain(v: Any) -> Any:
    """numpy scalars and NaN as Python values (numpy arrays as lists)."""
    if v is None or isinstance(v, (str, bool, int, float)):
        if isinstance(v, float) and v != v:
            return None
        return v
    if isinstance(v, (list, tuple, dict)):
        return v
    if getattr(v, "ndim", 0) > 0 and hasattr(v, "tolist"):
        return v.tolist()
    item = getattr(v, "item", None)
    if item is not None:
        v = item()
        return None if isinstance(v, float) and v != v else v
    return v


class Driver:
    """One processor instance, called by the engine's adapter. Every call returns the rows the
    processor emitted as ``(names or None, values)`` pairs."""

    def __init__(self, processor: Any, guard: Optional[WallClockGuard], in_pandas: bool,
                 output_names: Optional[Sequence[str]], chunk_rows: int = 10000,
                 time_mode: str = "") -> None:
        self.processor = processor
        # EventTime mode: the processing time is handed tagged, and a timer registered from it is
        # reported (EVENT_TIME_TIMER_FROM_PROCESSING_TIME).
        self.event_time = time_mode == "EventTime"
        self.guard = guard
        self.in_pandas = in_pandas
        # Pandas mode: the most rows of one DataFrame (spark.sql.execution.arrow.maxRecordsPerBatch,
        # or the smaller size a sweep's seed chose).
        self.chunk_rows = chunk_rows if chunk_rows > 0 else 10000
        self.output_names = list(output_names) if output_names else None
        # handleInputRows may do _run's and _collect's work inline (unless a subclass wraps them).
        self._inline = type(self)._run is Driver._run and type(self)._collect is Driver._collect
        if in_pandas:
            import pandas  # noqa: F401  (fails early with a clear ImportError)

    def _run(self, method: str, fn: Any, *args: Any) -> List[Tuple[Any, Tuple[Any, ...]]]:
        guard = self.guard
        if guard is not None:
            guard.enter()
        try:
            result = fn(*args)
            out = self._collect(result) if result is not None else []
        finally:
            if guard is not None:
                guard.leave()
        if guard is not None:
            guard.check(method)
        return out

    def _collect(self, result: Any) -> List[Tuple[Any, Tuple[Any, ...]]]:
        out: List[Tuple[Any, Tuple[Any, ...]]] = []
        for item in result:
            if self.in_pandas:
                # PySpark's ArrowStreamPandasUDFSerializer reads every item a pandas handler
                # yields as a DataFrame (its _create_struct_array reads df.columns): a dict, a
                # Series or a tuple fails there, and here with the same AttributeError.
                if not hasattr(item, "itertuples") or not hasattr(item, "columns"):
                    raise AttributeError(
                        f"'{type(item).__name__}' object has no attribute 'columns' (a handler of "
                        "transformWithStateInPandas yields pandas DataFrames; PySpark's "
                        "ArrowStreamPandasUDFSerializer reads each item as one)")
                names = [str(c) for c in item.columns]
                for values in item.itertuples(index=False, name=None):
                    out.append((names, tuple(_plain(v) for v in values)))
            elif hasattr(item, "__fields__"):
                # A Row with field names, matched to outputStructType by name as PySpark's
                # serializer does (row.asDict(True), then pyarrow's RecordBatch.from_pylist with
                # the schema: a missing field is null, another one ignored). numpy scalars in it
                # are converted by the engine's adapter.
                out.append((item.__fields__, item))  # a Row is a tuple: read in place
            elif isinstance(item, Row):
                # Row("a", 1), a Row without field names: its asDict raises CANNOT_CONVERT_TYPE,
                # as in PySpark.
                item.asDict(True)
                raise AssertionError("unreachable: a Row without field names has no asDict")
            else:
                # PySpark's TransformWithStateInPySparkRowSerializer.dump_stream calls
                # row.asDict(True) on each item (python/pyspark/sql/pandas/serializers):
                # a string, a tuple of any length, a dict, a list or a number is no Row there
                # (`yield 'ab'` became the row (a, b) here; a tuple was taken by position).
                raise AttributeError(
                    f"'{type(item).__name__}' object has no attribute 'asDict' (a handler of "
                    "transformWithState yields Rows; PySpark's TransformWithStateInPySparkRowSerializer "
                    "calls row.asDict(True) on each item)")
        return out

    def _rows(self, names: Sequence[str], rows: Sequence[Tuple[Any, ...]]) -> Any:
        """The engine's adapter gives the rows built already: Rows, or tuples in pandas mode.
        Pandas mode cuts a key's rows into DataFrames of at most ``chunk_rows`` rows, in order,
        as PySpark's TransformWithStateInPandasSerializer.load_stream does at
        arrow_max_records_per_batch (each frame indexed from 0)."""
        if self.in_pandas:
            import pandas as pd
            rows = list(rows)
            cols = list(names)
            n = self.chunk_rows
            frames = [pd.DataFrame.from_records(rows[i:i + n], columns=cols)
                      for i in range(0, len(rows), n)] or [pd.DataFrame.from_records([], columns=cols)]
            return _OnePass(frames, self.guard)
        return _OnePass(rows, self.guard)

    def _timer_values(self, processing_time: int, watermark: int) -> TimerValues:
        return TimerValues(_ProcessingTimeMs(processing_time) if self.event_time else processing_time, watermark)

    def init(self, native_handle: Any) -> None:
        handle = StatefulProcessorHandle(native_handle)
        if self.event_time:
            guard = self.guard

            def check_timer(ts: Any) -> None:
                if isinstance(ts, _ProcessingTimeMs) and guard is not None and guard.active:
                    guard.reads.append(("timer", f"registerTimer({int(ts)}) at {_caller(3)}"))
            handle._timer_check = check_timer
        self._run("init", self.processor.init, handle)

    def handleInputRows(self, key: Tuple[Any, ...], names: Sequence[str],
                        rows: Sequence[Tuple[Any, ...]], processing_time: int, watermark: int) -> Any:
        if self.in_pandas or self.event_time or not self._inline:
            return self._run("handleInputRows", self.processor.handleInputRows, key,
                             self._rows(names, rows), self._timer_values(processing_time, watermark))
        # The call the engine makes per key and batch, in rows mode: what _run, _rows,
        # _timer_values and _collect do, in one frame (issue 38: those four calls cost more than
        # a count processor's own code); a yielded item other than a Row with field names goes
        # through _collect, which takes or refuses it. A subclass that wraps _run or _collect
        # (the tester's InitOnceDriver) takes the path above.
        guard = self.guard
        if guard is not None:
            guard.enter()
        try:
            result = self.processor.handleInputRows(key, _OnePass(rows, guard),
                                                    TimerValues(processing_time, watermark))
            out: List[Tuple[Any, Tuple[Any, ...]]] = []
            if result is not None:
                for item in result:
                    fields = getattr(item, "__fields__", None)
                    if fields is not None:
                        out.append((fields, item))
                    else:
                        out.extend(self._collect((item,)))
        finally:
            if guard is not None:
                guard.leave()
        if guard is not None:
            guard.check("handleInputRows")
        return out

    def handleExpiredTimer(self, key: Tuple[Any, ...], processing_time: int, watermark: int,
                           expiry: int) -> Any:
        return self._run("handleExpiredTimer", self.processor.handleExpiredTimer, key,
                         self._timer_values(processing_time, watermark), ExpiredTimerInfo(expiry))

    def handleInitialState(self, key: Tuple[Any, ...], names: Sequence[str], values: Tuple[Any, ...],
                           processing_time: int, watermark: int) -> Any:
        if self.in_pandas:
            import pandas as pd
            state: Any = pd.DataFrame.from_records([values], columns=list(names))
        else:
            state = _create_row(list(names), values)
        return self._run("handleInitialState", self.processor.handleInitialState, key, state,
                         self._timer_values(processing_time, watermark))

    def close(self) -> None:
        self._run("close", self.processor.close)


def handler_location(driver: "Driver", method: str) -> str:
    """``file:line in method`` where the processor of ``driver`` defines ``method``."""
    code = getattr(getattr(type(driver.processor), method, None), "__code__", None)
    if code is None:
        return f"{type(driver.processor).__name__}.{method}"
    return f"{code.co_filename}:{code.co_firstlineno} in {method}"


def format_exception(exc: BaseException) -> str:
    """``Type: message at file:line in function`` (the processor's innermost frame), then the
    traceback without streamsim's own frames."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not f.filename.startswith(_OWN_FILES)]
    head = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    if frames:
        last = frames[-1]
        head += f" at {last.filename}:{last.lineno} in {last.name}"
        head += "\nTraceback (most recent call last):\n" + "".join(traceback.format_list(frames)).rstrip()
    return head
