"""The transformWithState processor API of PySpark (StatefulProcessor and its handle), for streamsim.

State variables are streamsim's engine state (its state store, TTL and timers): the handle hands
out the engine's ValueState / ListState / MapState objects, whose values are tuples in the order of
the schema given (a StructType or a DDL string such as ``"count int"``).
"""

from abc import ABC, abstractmethod
from typing import Any, Iterator, Optional, Union

from pyspark.sql.types import StructType, toEngineDDL

__all__ = [
    "StatefulProcessor",
    "StatefulProcessorHandle",
    "AsyncStatefulProcessor",
    "AsyncStatefulProcessorHandle",
    "TimerValues",
    "ExpiredTimerInfo",
    "ValueState",
    "ListState",
    "MapState",
]


class ValueState(ABC):
    """One value per grouping key: exists(), get() -> tuple or None, update(tuple), clear()."""


class ListState(ABC):
    """A list per grouping key: exists(), get() -> iterator of tuples, put(list),
    appendValue(tuple), appendList(list), clear()."""


class MapState(ABC):
    """A map per grouping key: exists(), getValue(k), containsKey(k), updateValue(k, v),
    iterator(), keys(), values(), removeKey(k), clear(); keys and values are tuples."""


def _register_engine_states() -> None:
    """streamsim's engine objects count as ValueState / ListState / MapState (isinstance)."""
    try:
        import _streamsim_native
    except ImportError:  # the shim imported outside streamsim: nothing to register
        return
    ValueState.register(_streamsim_native.ValueState)
    ListState.register(_streamsim_native.ListState)
    MapState.register(_streamsim_native.MapState)


_register_engine_states()


class TimerValues:
    """The processing time and watermark of the batch (use these, never the wall clock)."""

    def __init__(self, currentProcessingTimeInMs: int = -1, currentWatermarkInMs: int = -1) -> None:
        self._processing_time = currentProcessingTimeInMs
        self._watermark = currentWatermarkInMs

    def getCurrentProcessingTimeInMs(self) -> int:
        return self._processing_time

    def getCurrentWatermarkInMs(self) -> int:
        return self._watermark

    def __repr__(self) -> str:
        return f"TimerValues({self._processing_time}, {self._watermark})"


class ExpiredTimerInfo:
    """The expiry time of the timer whose handler runs."""

    def __init__(self, expiryTimeInMs: int = -1) -> None:
        self._expiry = expiryTimeInMs

    def getExpiryTimeInMs(self) -> int:
        return self._expiry

    def __repr__(self) -> str:
        return f"ExpiredTimerInfo({self._expiry})"


def _ttl(ttlDurationMs: Optional[int]) -> Optional[int]:
    return None if ttlDurationMs is None else int(ttlDurationMs)


class StatefulProcessorHandle:
    """The processor's window on state and timers; state variables are created in init() only."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self._timer_check: Optional[Any] = None  # streamsim._driver's (EventTime mode)

    def getValueState(self, stateName: str, schema: Union[StructType, str],
                      ttlDurationMs: Optional[int] = None) -> ValueState:
        return self._native.getValueState(stateName, toEngineDDL(schema), _ttl(ttlDurationMs))

    def getListState(self, stateName: str, schema: Union[StructType, str],
                     ttlDurationMs: Optional[int] = None) -> ListState:
        return self._native.getListState(stateName, toEngineDDL(schema), _ttl(ttlDurationMs))

    def getMapState(self, stateName: str, userKeySchema: Union[StructType, str],
                    valueSchema: Union[StructType, str],
                    ttlDurationMs: Optional[int] = None) -> MapState:
        return self._native.getMapState(stateName, toEngineDDL(userKeySchema),
                                        toEngineDDL(valueSchema), _ttl(ttlDurationMs))

    def registerTimer(self, expiryTimestampMs: int) -> None:
        check = getattr(self, "_timer_check", None)  # a subclass may not call __init__
        if check is not None:
            check(expiryTimestampMs)
        self._native.registerTimer(int(expiryTimestampMs))

    def deleteTimer(self, expiryTimestampMs: int) -> None:
        self._native.deleteTimer(int(expiryTimestampMs))

    def listTimers(self) -> Iterator[int]:
        return iter(self._native.listTimers())

    def deleteIfExists(self, stateName: str) -> None:
        self._native.deleteIfExists(stateName)


class StatefulProcessor(ABC):
    """Arbitrary stateful logic per grouping key (transformWithState / transformWithStateInPandas).

    Keep per-key data in state variables, never in ``self``: Spark (and streamsim) create a new
    processor for every partition task, so anything kept in ``self`` is lost or shared by keys.
    """

    @abstractmethod
    def init(self, handle: StatefulProcessorHandle) -> None:
        ...

    @abstractmethod
    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: TimerValues) -> Iterator[Any]:
        ...

    def handleExpiredTimer(self, key: Any, timerValues: TimerValues,
                           expiredTimerInfo: ExpiredTimerInfo) -> Iterator[Any]:
        return iter([])

    def handleInitialState(self, key: Any, initialState: Any, timerValues: TimerValues) -> None:
        pass

    def close(self) -> None:
        pass


class AsyncStatefulProcessorHandle(StatefulProcessorHandle):
    """The handle of an AsyncStatefulProcessor: getValueState / getListState / getMapState,
    deleteIfExists and (streamsim) getService(name, timeoutMs) are synchronous; registerTimer and
    deleteTimer are awaited, listTimers() is consumed with ``async for``. The state objects'
    reads and updates are awaited; ListState.get() and MapState.iterator()/keys()/values() are
    consumed with ``async for``. (streamsim/_async.py is the engine's implementation.)"""


class AsyncStatefulProcessor(ABC):
    """A processor whose handlers are ``async def`` (seed 000; Databricks' API — Apache Spark's
    PySpark has no AsyncStatefulProcessor). Handlers of different grouping keys run
    concurrently and interleave at their awaits; one key's calls stay in order. Errors of state
    operations fail the task and never reach the processor's code. Set the class attribute
    ``orderDependent = True`` if the results may depend on the interleaving on purpose."""

    @abstractmethod
    async def init(self, handle: AsyncStatefulProcessorHandle) -> None:
        ...

    @abstractmethod
    async def handleInputRows(self, key: Any, rows: Any, timerValues: TimerValues) -> Any:
        ...

    async def handleExpiredTimer(self, key: Any, timerValues: TimerValues,
                                 expiredTimerInfo: ExpiredTimerInfo) -> Any:
        return

    async def handleInitialState(self, key: Any, initialState: Any, timerValues: TimerValues) -> None:
        pass

    async def close(self) -> None:
        pass
