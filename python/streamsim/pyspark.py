"""PySpark's TwsTester, on streamsim's engine: ``from streamsim.pyspark import TwsTester``.

The API is PySpark's (python/pyspark/sql/streaming/tws_tester.py), so a test written for it runs
after changing its import. Spark's history holds two shapes of it and both are taken: the one
released in Spark 4.2.0 (``versionadded 4.2.0``: ``updateValueState``/``updateListState``/
``updateMapState``, ``setProcessingTime`` and ``setWatermark`` that must move forward,
``outputMode``, ``eventTimeExtractor`` for late-row filtering, a watermark that moves only when
set) and the earlier one marked ``versionadded 4.0.2`` (``setValueState``..., ``advanceProcessingTime``,
``advanceWatermark``, ``realTimeMode``, ``eventTimeColumnName`` + ``watermarkDelayMs``: the
watermark follows the data). Each call is a micro-batch of the engine's transformWithState
operator on one key (harness/processor_tester.h): state variables, timers, TTL and the handle's
rules are the engine's, and ``restart()`` restarts the driver (uncommitted state lost, init runs
again).

As in PySpark's tester, ``init`` runs once, in the constructor, on the processor object given, and
every call goes to that object (streamsim._tester_driver): a count kept in ``self`` survives. An
AsyncStatefulProcessor (streamsim's addition) gets a copy per batch and init per batch, as a query.

Where PySpark's tester and the engine differ, the engine's rule (Spark's) holds:
- due timers fire in the batch after the input, in timestamp order across keys;
- TTL is applied (ProcessingTime mode): expired values disappear when time moves;
- a handler that raises fails its batch: its state writes are rolled back, not kept;
- what a handler yields is checked as a query's serializer checks it (a Row with field names in
  row mode; PySpark's tester returns whatever was yielded).
"""

from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

import _streamsim_native
from streamsim._isolation import inside_shim, shim

with shim():  # streamsim's pyspark, whatever else is installed (streamsim/_isolation.py)
    from pyspark.errors import PySparkValueError
    from pyspark.errors.exceptions.base import IllegalArgumentException
    from pyspark.sql.types import Row, _create_row
    from streamsim._tester_driver import InitOnce, InitOnceDriver

__all__ = ["TwsTester"]

# The engine's event-time column for Spark 4.2.0's eventTimeExtractor (tester_module.cc hides it).
_EVENT_TIME_COLUMN = "__streamsim_event_time"


def _plain(v: Any) -> Any:
    item = getattr(v, "item", None)
    return item() if item is not None and not isinstance(v, (str, bytes)) else v


def _row_parts(row: Any) -> Tuple[List[str], Tuple[Any, ...]]:
    if hasattr(row, "__fields__"):
        return list(row.__fields__), tuple(_plain(v) for v in row)
    if isinstance(row, dict):
        return list(row.keys()), tuple(_plain(v) for v in row.values())
    raise PySparkValueError(errorClass="CANNOT_CONVERT_TYPE",
                            messageParameters={"from_type": type(row).__name__,
                                               "to_type": "Row with field names"})


def _to_rows(pairs: Iterable[Tuple[Sequence[str], Tuple[Any, ...]]]) -> List[Row]:
    return [_create_row(list(names), tuple(values)) for names, values in pairs]


def _key(key: Any) -> Any:
    return _plain(key)


def _service_spec(spec: Any) -> Tuple[str, int, int, float, float, int]:
    """A simulated outside service for an async processor (streamsim): ``{"name": "scoring",
    "latencyMs": 10}`` or ``"latencyMs": (5, 15)`` (uniform), ``"errors"`` and ``"slow"``
    (probabilities per call), ``"slowLatencyMs"``."""
    unknown = set(spec) - {"name", "latencyMs", "errors", "slow", "slowLatencyMs"}
    if "name" not in spec or unknown:
        raise PySparkValueError(
            errorClass="INVALID_ARGUMENT",
            messageParameters={"message": f"a service is {{name, latencyMs, errors, slow, "
                                          f"slowLatencyMs}}; got {sorted(spec)}"})
    latency = spec.get("latencyMs", 10)
    lo, hi = (latency, latency) if isinstance(latency, (int, float)) else tuple(latency)
    return (str(spec["name"]), int(lo), int(hi), float(spec.get("errors", 0.0)),
            float(spec.get("slow", 0.0)), int(spec.get("slowLatencyMs", 10_000)))


class _PandasMode:
    """Whether the processor's calls get pandas DataFrames (testInPandas) or Rows (test)."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __bool__(self) -> bool:
        return self.on


@inside_shim
class TwsTester:
    """Tests a StatefulProcessor one key at a time, on the engine (see the module's docstring)."""

    def __init__(
        self,
        processor: Any,
        initialStateRow: Optional[List[Tuple[Any, Row]]] = None,
        initialStatePandas: Optional[List[Tuple[Any, Any]]] = None,
        timeMode: str = "None",
        realTimeMode: bool = False,
        eventTimeColumnName: Optional[str] = None,
        watermarkDelayMs: int = 0,
        stateStore: str = "memory",
        services: Optional[List[Any]] = None,
        outputMode: str = "Append",
        eventTimeExtractor: Optional[Callable[[Any], int]] = None,
    ) -> None:
        mode = timeMode.lower()
        if mode not in ("none", "processingtime", "eventtime"):
            raise PySparkValueError(errorClass="INVALID_TIME_MODE",
                                    messageParameters={"time_mode": timeMode})
        if outputMode.lower() not in ("append", "update", "complete"):
            raise PySparkValueError(errorClass="INVALID_ARGUMENT",
                                    messageParameters={"message": f"outputMode is Append, Update or "
                                                                  f"Complete; got {outputMode!r}"})
        if mode == "eventtime" and eventTimeColumnName is None and eventTimeExtractor is None:
            # Spark 4.2.0 names eventTimeExtractor; the 4.0.2 shape eventTimeColumnName.
            raise PySparkValueError(
                errorClass="ARGUMENT_REQUIRED",
                messageParameters={"arg_name": "eventTimeExtractor",
                                   "condition": "timeMode is EventTime"})
        # PySpark's tester (both shapes): `assert initialStatePandas is None, "Cannot specify
        # both Row and Pandas initial states."` -- an AssertionError with that message.
        assert initialStateRow is None or initialStatePandas is None, \
            "Cannot specify both Row and Pandas initial states."
        self._mode = mode
        self._eventTimeColumnName = eventTimeColumnName
        self._eventTimeExtractor = eventTimeExtractor
        self._watermarkDelayMs = int(watermarkDelayMs)
        self._outputMode = outputMode
        self.realTimeMode = realTimeMode
        self.processor = processor
        initial = []
        for key, row in initialStateRow or []:
            names, values = _row_parts(row)
            initial.append((_key(key), names, values))
        for key, df in initialStatePandas or []:
            for rec in df.to_dict("records"):
                initial.append((_key(key), list(rec.keys()), tuple(_plain(v) for v in rec.values())))
        self._pandas = _PandasMode(initialStatePandas is not None)
        self._init_once: Optional[InitOnce] = None
        extra = {}
        from pyspark.sql.streaming import AsyncStatefulProcessor
        if not isinstance(processor, AsyncStatefulProcessor):
            binding = self._init_once = InitOnce(processor)
            extra = dict(makeInstance=lambda: binding.processor,
                         driverClass=lambda p, g, pandas, names, **options: InitOnceDriver(
                             p, g, pandas, names, binding, **options))
        event_column = None
        if mode == "eventtime":
            event_column = eventTimeColumnName or _EVENT_TIME_COLUMN
        self._native = _streamsim_native.Tester(
            processor, timeMode, initial, event_column,
            self._pandas, stateStore, [_service_spec(s) for s in services or []], **extra)

    # --- input ---------------------------------------------------------------------------------

    def test(self, key: Any, input: List[Row]) -> List[Row]:
        """One batch with ``input`` for ``key``; the rows the processor emitted (and, in EventTime
        mode, the rows of timers that the watermark, moved by the data, made due)."""
        if self.realTimeMode:
            return [r for row in input for r in self._test(key, [row])]
        return self._test(key, input)

    def _with_event_time(self, row: Any, parts: Tuple[List[str], Tuple[Any, ...]]) -> Any:
        """A row's (names, values) with the event time eventTimeExtractor gives it, in the
        engine's hidden event-time column (EventTime mode without eventTimeColumnName)."""
        if self._mode != "eventtime" or self._eventTimeColumnName is not None:
            return parts
        names, values = parts
        return (names + [_EVENT_TIME_COLUMN], values + (int(_plain(self._eventTimeExtractor(row))),))

    def _late(self, event_time: Any) -> bool:
        """Spark 4.2.0's tester with eventTimeExtractor: a row at or below the watermark is late
        and never reaches the processor (the watermark moves only by setWatermark)."""
        return int(_plain(event_time)) <= self._native.watermark()

    def _test(self, key: Any, input: List[Row]) -> List[Row]:
        self._pandas.on = False
        if self._mode == "eventtime" and self._eventTimeExtractor is not None:
            input = [r for r in input if not self._late(self._eventTimeExtractor(r))]
        out = _to_rows(self._native.test(_key(key), [self._with_event_time(r, _row_parts(r))
                                                     for r in input]))
        if self._mode == "eventtime" and self._eventTimeColumnName is not None:
            times = [_plain(getattr(r, self._eventTimeColumnName)) for r in input]
            out += self._follow_data(times)
        return out

    def testInPandas(self, key: Any, input: Any) -> Any:
        """``test`` with pandas DataFrames in and out (a transformWithStateInPandas processor)."""
        import pandas as pd
        self._native_pandas_check()
        self._pandas.on = True
        if self._mode == "eventtime" and self._eventTimeExtractor is not None:
            extractor = self._eventTimeExtractor
            input = input[[not self._late(extractor(row)) for _, row in input.iterrows()]]
        records = input.to_dict("records")
        batches = [[r] for r in records] if self.realTimeMode else [records]
        frames = []
        for batch in batches:
            rows = [self._with_event_time(pd.Series(r), (list(r.keys()), tuple(_plain(v) for v in r.values())))
                    for r in batch]
            out = self._native.test(_key(key), rows)
            if self._mode == "eventtime" and self._eventTimeColumnName is not None:
                out += [(r.__fields__, tuple(r)) for r in
                        self._follow_data([_plain(r[self._eventTimeColumnName]) for r in batch])]
            frames.append(self._frame(out))
        frames = [f for f in frames if len(f.columns)]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def _native_pandas_check(self) -> None:
        if not getattr(self, "_pandas_checked", False):
            import pandas  # noqa: F401
            self._pandas_checked = True

    @staticmethod
    def _frame(pairs: List[Tuple[Sequence[str], Tuple[Any, ...]]]) -> Any:
        import pandas as pd
        if not pairs:
            return pd.DataFrame()
        return pd.DataFrame([dict(zip(n, v)) for n, v in pairs])

    def _follow_data(self, event_times: List[Any]) -> List[Row]:
        """EventTime: the watermark follows the data (max event time - watermarkDelayMs)."""
        if not event_times:
            return []
        candidate = max(int(t) for t in event_times) - self._watermarkDelayMs
        if candidate <= self._native.watermark():
            return []
        return _to_rows(self._native.setWatermark(candidate))

    # --- time ----------------------------------------------------------------------------------

    def _require(self, mode: str, what: str) -> None:
        if self._mode != mode:
            raise PySparkValueError(
                errorClass="UNSUPPORTED_OPERATION",
                messageParameters={"operation": f"{what} with TimeMode other than "
                                   + ("ProcessingTime" if mode == "processingtime" else "EventTime")})

    def advanceProcessingTime(self, durationMs: int) -> List[Row]:
        self._require("processingtime", "advanceProcessingTime")
        return _to_rows(self._native.setProcessingTime(self._native.processingTime() + int(durationMs)))

    def setProcessingTime(self, currentTimeMs: int) -> List[Row]:
        """Spark 4.2.0: time must move forward (IllegalArgumentException otherwise)."""
        self._require("processingtime", "setProcessingTime")
        current = self._native.processingTime()
        if int(currentTimeMs) <= current:
            raise IllegalArgumentException(
                message=f"Processing time must move forward. Current: {current} ms, provided: "
                        f"{int(currentTimeMs)} ms.")
        return _to_rows(self._native.setProcessingTime(int(currentTimeMs)))

    def advanceWatermark(self, durationMs: int) -> List[Row]:
        self._require("eventtime", "advanceWatermark")
        return _to_rows(self._native.setWatermark(self._native.watermark() + int(durationMs)))

    def setWatermark(self, currentWatermarkMs: int) -> List[Row]:
        """Spark 4.2.0: the watermark must move forward (IllegalArgumentException otherwise)."""
        self._require("eventtime", "setWatermark")
        current = self._native.watermark()
        if int(currentWatermarkMs) <= current:
            raise IllegalArgumentException(
                message=f"Watermark must move forward. Current: {current} ms, provided: "
                        f"{int(currentWatermarkMs)} ms.")
        return _to_rows(self._native.setWatermark(int(currentWatermarkMs)))

    def _in_pandas(self, call: Any, arg: int) -> Any:
        self._pandas.on = True
        try:
            rows = call(arg)
        finally:
            self._pandas.on = False
        return self._frame([(r.__fields__, tuple(r)) for r in rows])

    def advanceProcessingTimeInPandas(self, durationMs: int) -> Any:
        return self._in_pandas(self.advanceProcessingTime, durationMs)

    def advanceWatermarkInPandas(self, durationMs: int) -> Any:
        return self._in_pandas(self.advanceWatermark, durationMs)

    def setProcessingTimeInPandas(self, currentTimeMs: int) -> Any:
        return self._in_pandas(self.setProcessingTime, currentTimeMs)

    def setWatermarkInPandas(self, currentWatermarkMs: int) -> Any:
        return self._in_pandas(self.setWatermark, currentWatermarkMs)

    # --- state ---------------------------------------------------------------------------------

    def _kind(self, stateName: str, kind: str) -> None:
        actual = self._native.kindOf(stateName)
        if actual != kind:
            raise PySparkValueError(errorClass="STATE_KIND_MISMATCH",
                                    messageParameters={"state": stateName, "kind": actual,
                                                       "expected": kind})

    def peekValueState(self, stateName: str, key: Any) -> Optional[tuple]:
        self._kind(stateName, "value")
        return self._native.peek(stateName, _key(key))

    def setValueState(self, stateName: str, key: Any, value: tuple) -> None:
        self._kind(stateName, "value")
        self._native.set(stateName, _key(key), value)

    def peekListState(self, stateName: str, key: Any) -> List[tuple]:
        self._kind(stateName, "list")
        return self._native.peek(stateName, _key(key))

    def setListState(self, stateName: str, key: Any, value: List[tuple]) -> None:
        self._kind(stateName, "list")
        self._native.set(stateName, _key(key), list(value))

    def peekMapState(self, stateName: str, key: Any) -> dict:
        self._kind(stateName, "map")
        return self._native.peek(stateName, _key(key))

    def setMapState(self, stateName: str, key: Any, value: dict) -> None:
        self._kind(stateName, "map")
        self._native.set(stateName, _key(key), dict(value))

    # The newer names of the same operations.
    updateValueState = setValueState
    updateListState = setListState
    updateMapState = setMapState

    def deleteState(self, stateName: str, key: Any) -> None:
        self._native.deleteState(stateName, _key(key))

    def listTimers(self, key: Any) -> List[int]:
        """The key's pending timers, ascending (streamsim's addition)."""
        return list(self._native.listTimers(_key(key)))

    def restart(self) -> None:
        """The driver restarts: what was not committed is lost; the next call runs init again on
        the committed state (streamsim's addition), on a new copy of the processor given, as a
        new task would unpickle one."""
        if self._init_once is not None:
            self._init_once.restart()
        self._native.restart()
