"""How streamsim's engine calls a Python StatefulProcessor (used by the C++ adapter, python/native).

``load(path, class_name)`` executes a processor file in a module of its own whose imports of
``time`` and ``datetime`` are guarded: a handler that reads the wall clock is reported (file:line)
instead of silently making a batch's re-run differ. ``Driver`` wraps one processor instance (one
per partition task, as Spark unpickles one per task) and turns rows, keys and outputs into plain
tuples for the engine.
"""

import builtins
import datetime as _datetime
import itertools
import os
import sys
import time as _time
import traceback
import types
from typing import Any, List, Optional, Sequence, Tuple

from pyspark.sql.types import _create_row
from pyspark.sql.streaming.stateful_processor import (
    AsyncStatefulProcessor,
    ExpiredTimerInfo,
    StatefulProcessor,
    StatefulProcessorHandle,
    TimerValues,
)

_counter = itertools.count()
# streamsim's own frames (this package, the pyspark shim) are left out of tracebacks.
_OWN_FILES = (os.path.dirname(os.path.abspath(__file__)) + os.sep,
              os.path.dirname(os.path.abspath(sys.modules["pyspark"].__file__)))


class RuleViolation(Exception):
    """A broken rule of the processor API; the engine fails the task naming ``rule``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self._streamsim_rule = rule


def _caller() -> str:
    f = sys._getframe(2)
    return f"{f.f_code.co_filename}:{f.f_lineno} in {f.f_code.co_name}"


class WallClockGuard:
    """Proxies of ``time`` and ``datetime`` for one processor module; while ``active`` (a handler
    runs) every wall-clock read is recorded with the caller's file:line."""

    def __init__(self) -> None:
        self.active = False
        self.reads: List[str] = []
        guard = self

        def watch(fn: Any, name: str, only_without_args: bool = False) -> Any:
            def guarded(*args: Any, **kwargs: Any) -> Any:
                if guard.active and not (only_without_args and (args or kwargs)):
                    guard.reads.append(f"{name} at {_caller()}")
                return fn(*args, **kwargs)
            guarded.__name__ = getattr(fn, "__name__", name)
            return guarded

        tm = types.ModuleType("time")
        tm.__dict__.update({k: getattr(_time, k) for k in dir(_time) if not k.startswith("__")})
        for n in ("time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns"):
            setattr(tm, n, watch(getattr(_time, n), f"time.{n}()"))
        for n in ("localtime", "gmtime", "ctime", "asctime"):
            setattr(tm, n, watch(getattr(_time, n), f"time.{n}()", only_without_args=True))
        self.time = tm

        class datetime(_datetime.datetime):
            @classmethod
            def now(cls, tz: Any = None) -> Any:
                if guard.active:
                    guard.reads.append(f"datetime.now() at {_caller()}")
                return _datetime.datetime.now(tz)

            @classmethod
            def utcnow(cls) -> Any:
                if guard.active:
                    guard.reads.append(f"datetime.utcnow() at {_caller()}")
                return _datetime.datetime.utcnow()

            @classmethod
            def today(cls) -> Any:
                if guard.active:
                    guard.reads.append(f"datetime.today() at {_caller()}")
                return _datetime.datetime.today()

        class date(_datetime.date):
            @classmethod
            def today(cls) -> Any:
                if guard.active:
                    guard.reads.append(f"date.today() at {_caller()}")
                return _datetime.date.today()

        dm = types.ModuleType("datetime")
        dm.__dict__.update({k: getattr(_datetime, k) for k in dir(_datetime) if not k.startswith("__")})
        dm.datetime, dm.date = datetime, date
        self.datetime = dm

    def import_(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                level: int = 0) -> Any:
        module = builtins.__import__(name, globals, locals, fromlist, level)
        if level == 0 and name == "time":
            return self.time
        if level == 0 and name == "datetime":
            return self.datetime
        return module

    def check(self, method: str) -> None:
        if not self.reads:
            return
        reads, self.reads = self.reads, []
        raise RuleViolation(
            "WALL_CLOCK_READ",
            f"{method} read the wall clock: {'; '.join(reads)}. A re-run of the batch (after a "
            "failure or restart) would see another time; use timerValues."
            "getCurrentProcessingTimeInMs() / getCurrentWatermarkInMs() instead")


class Loaded:
    """A processor file executed in its own module, and its processor class."""

    def __init__(self, path: str, class_name: str, source: Optional[bytes] = None) -> None:
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
        code = compile(source, self.path, "exec")
        self.module_name = f"streamsim_processor_{next(_counter)}"
        module = types.ModuleType(self.module_name)
        module.__file__ = self.path
        module.__dict__["__builtins__"] = dict(builtins.__dict__, __import__=self.guard.import_)
        sys.modules[self.module_name] = module
        try:
            exec(code, module.__dict__)
        except BaseException:
            del sys.modules[self.module_name]
            raise
        self.module = module
        cls = module.__dict__.get(class_name)
        if not isinstance(cls, type):
            found = sorted(n for n, v in module.__dict__.items()
                           if isinstance(v, type) and v.__module__ == self.module_name
                           and issubclass(v, (StatefulProcessor, AsyncStatefulProcessor)))
            raise LookupError(f"{path} defines no class '{class_name}' (its processor classes: "
                              f"{', '.join(found) or 'none'})")
        self.cls = cls

    def unload(self) -> None:
        sys.modules.pop(self.module_name, None)


def load(path: str, class_name: str, source: Optional[bytes] = None) -> Loaded:
    return Loaded(path, class_name, source)


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
                 output_names: Optional[Sequence[str]]) -> None:
        self.processor = processor
        self.guard = guard
        self.in_pandas = in_pandas
        self.output_names = list(output_names) if output_names else None
        if in_pandas:
            import pandas  # noqa: F401  (fails early with a clear ImportError)

    def _run(self, method: str, fn: Any, *args: Any) -> List[Tuple[Any, Tuple[Any, ...]]]:
        guard = self.guard
        if guard is not None:
            guard.active = True
        try:
            result = fn(*args)
            out = self._collect(result) if result is not None else []
        finally:
            if guard is not None:
                guard.active = False
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
            elif isinstance(item, (str, bytes, bytearray)):
                # PySpark's TransformWithStateInPySparkRowSerializer.dump_stream calls
                # row.asDict(True) on each item: a string is no row (here it would have become
                # one column per character).
                raise AttributeError(
                    f"'{type(item).__name__}' object has no attribute 'asDict' (a handler of "
                    "transformWithState yields Rows; PySpark's TransformWithStateInPySparkRowSerializer "
                    "calls row.asDict(True) on each item)")
            # numpy scalars in rows, dicts and tuples are converted by the engine's adapter.
            elif hasattr(item, "__fields__"):
                out.append((item.__fields__, item))  # a Row is a tuple: read in place
            elif isinstance(item, dict):
                out.append((list(item.keys()), tuple(item.values())))
            else:
                out.append((None, tuple(item)))
        return out

    def _rows(self, names: Sequence[str], rows: Sequence[Tuple[Any, ...]]) -> Any:
        """The engine's adapter gives the rows built already: Rows, or tuples in pandas mode."""
        if self.in_pandas:
            import pandas as pd
            return iter([pd.DataFrame.from_records(list(rows), columns=list(names))])
        return iter(rows)

    def init(self, native_handle: Any) -> None:
        self._run("init", self.processor.init, StatefulProcessorHandle(native_handle))

    def handleInputRows(self, key: Tuple[Any, ...], names: Sequence[str],
                        rows: Sequence[Tuple[Any, ...]], processing_time: int, watermark: int) -> Any:
        return self._run("handleInputRows", self.processor.handleInputRows, key,
                         self._rows(names, rows), TimerValues(processing_time, watermark))

    def handleExpiredTimer(self, key: Tuple[Any, ...], processing_time: int, watermark: int,
                           expiry: int) -> Any:
        return self._run("handleExpiredTimer", self.processor.handleExpiredTimer, key,
                         TimerValues(processing_time, watermark), ExpiredTimerInfo(expiry))

    def handleInitialState(self, key: Tuple[Any, ...], names: Sequence[str], values: Tuple[Any, ...],
                           processing_time: int, watermark: int) -> Any:
        if self.in_pandas:
            import pandas as pd
            state: Any = pd.DataFrame.from_records([values], columns=list(names))
        else:
            state = _create_row(list(names), values)
        return self._run("handleInitialState", self.processor.handleInitialState, key, state,
                         TimerValues(processing_time, watermark))

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
