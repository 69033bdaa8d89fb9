"""pyspark.sql.streaming.state for streamsim: GroupState and GroupStateTimeout of
applyInPandasWithState (PySpark's state.py: the same properties, methods and errors), and the
adapter that runs an applyInPandasWithState function as a transformWithStateInPandas processor on
the engine (docs/python.md "applyInPandasWithState").

The adapter follows FlatMapGroupsWithStateExec: each key with rows in a batch calls the function
with a GroupState whose timeout starts unset (a timeout must be set again on every call, or it is
cleared); after the batch's rows, each key whose timeout timestamp is below the threshold (the
batch timestamp for ProcessingTimeTimeout, the watermark for EventTimeTimeout; strictly below)
is called with no rows and hasTimedOut; remove() without a new timeout drops the key's state.
The state is a ValueState of the stateStructType and the timeout a ValueState and a timer one
millisecond after it (a transformWithState timer fires at or below its threshold)."""

import datetime
from typing import Any, Callable, Iterator, Optional, Tuple

from pyspark.sql.types import Row, StructType

__all__ = ["GroupState", "GroupStateImpl", "GroupStateTimeout"]


class GroupStateTimeout:
    NoTimeout: str = "NoTimeout"
    ProcessingTimeTimeout: str = "ProcessingTimeTimeout"
    EventTimeTimeout: str = "EventTimeTimeout"


class GroupStateImpl:
    NO_TIMESTAMP: int = -1

    def __init__(self, optionalValue: Optional[tuple], batchProcessingTimeMs: int, eventTimeWatermarkMs: int,
                 timeoutConf: str, hasTimedOut: bool, watermarkPresent: bool) -> None:
        assert timeoutConf in (GroupStateTimeout.NoTimeout, GroupStateTimeout.ProcessingTimeTimeout,
                               GroupStateTimeout.EventTimeTimeout)
        self._value = optionalValue
        self._defined = optionalValue is not None
        self._updated = False
        self._removed = False
        self._batch_processing_time_ms = batchProcessingTimeMs
        self._event_time_watermark_ms = eventTimeWatermarkMs
        self._timeout_conf = timeoutConf
        self._has_timed_out = hasTimedOut
        self._watermark_present = watermarkPresent
        self._timeout_timestamp = GroupStateImpl.NO_TIMESTAMP

    @property
    def exists(self) -> bool:
        return self._defined

    @property
    def get(self) -> Tuple:
        if self.exists:
            return tuple(self._value)
        raise ValueError("State is either not defined or has already been removed")

    @property
    def getOption(self) -> Optional[Tuple]:
        return tuple(self._value) if self.exists else None

    @property
    def hasTimedOut(self) -> bool:
        return self._has_timed_out

    def update(self, newValue: Tuple) -> None:
        if newValue is None:
            raise ValueError("'None' is not a valid state value")
        self._value = Row(*newValue)
        self._defined = True
        self._updated = True
        self._removed = False

    def remove(self) -> None:
        self._defined = False
        self._updated = False
        self._removed = True

    def setTimeoutDuration(self, durationMs: int) -> None:
        if isinstance(durationMs, str):
            raise ValueError("durationMs should be int but get :%s" % type(durationMs))
        if self._timeout_conf != GroupStateTimeout.ProcessingTimeTimeout:
            raise RuntimeError("Cannot set timeout duration without enabling processing time timeout in "
                               "applyInPandasWithState")
        if durationMs <= 0:
            raise ValueError("Timeout duration must be positive")
        self._timeout_timestamp = durationMs + self._batch_processing_time_ms

    def setTimeoutTimestamp(self, timestampMs: int) -> None:
        if self._timeout_conf != GroupStateTimeout.EventTimeTimeout:
            raise RuntimeError("Cannot set timeout duration without enabling processing time timeout in "
                               "applyInPandasWithState")
        if isinstance(timestampMs, datetime.datetime):
            if timestampMs.tzinfo is None:
                timestampMs = timestampMs.replace(tzinfo=datetime.timezone.utc)
            timestampMs = int(timestampMs.timestamp() * 1000)
        if timestampMs <= 0:
            raise ValueError("Timeout timestamp must be positive")
        if self._event_time_watermark_ms != GroupStateImpl.NO_TIMESTAMP and \
                timestampMs < self._event_time_watermark_ms:
            raise ValueError("Timeout timestamp (%s) cannot be earlier than the current watermark (%s)"
                             % (timestampMs, self._event_time_watermark_ms))
        self._timeout_timestamp = timestampMs

    def getCurrentWatermarkMs(self) -> int:
        if not self._watermark_present:
            raise RuntimeError("Cannot get event time watermark timestamp without setting watermark "
                               "before applyInPandasWithState")
        return self._event_time_watermark_ms

    def getCurrentProcessingTimeMs(self) -> int:
        return self._batch_processing_time_ms

    def __str__(self) -> str:
        return "GroupState(%s)" % (self.get,) if self.exists else "GroupState(<undefined>)"


GroupState = GroupStateImpl


def _processor(func: Callable[..., Iterator[Any]], state_schema: StructType, timeout_conf: str,
               watermark_present: bool) -> Any:
    """func as a transformWithStateInPandas processor (module docstring)."""
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor

    class ApplyInPandasWithState(StatefulProcessor):
        def init(self, handle: Any) -> None:
            self._handle = handle
            self._state = handle.getValueState("groupState", state_schema)
            self._timeout = handle.getValueState("groupStateTimeout", "timeoutTimestamp bigint")

        def _call(self, key: Any, frames: Iterator[Any], timerValues: Any, timed_out: bool) -> Iterator[Any]:
            watermark = timerValues.getCurrentWatermarkInMs()
            gs = GroupStateImpl(self._state.get() if self._state.exists() else None,
                                timerValues.getCurrentProcessingTimeInMs(),
                                watermark if watermark is not None and watermark >= 0 else GroupStateImpl.NO_TIMESTAMP,
                                timeout_conf, timed_out, watermark_present)
            out = list(func(key, frames, gs))
            old = self._timeout.get()[0] if self._timeout.exists() else GroupStateImpl.NO_TIMESTAMP
            new = gs._timeout_timestamp
            if gs._removed and new == GroupStateImpl.NO_TIMESTAMP:
                self._state.clear()
            elif gs._updated:
                self._state.update(tuple(gs._value))
            elif gs._removed:
                self._state.clear()
            if new != old:
                if old != GroupStateImpl.NO_TIMESTAMP:
                    self._handle.deleteTimer(old + 1)
                if new != GroupStateImpl.NO_TIMESTAMP:
                    self._handle.registerTimer(new + 1)
                    self._timeout.update((new,))
                else:
                    self._timeout.clear()
            return iter(out)

        def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
            return self._call(key, rows, timerValues, False)

        def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
            return self._call(key, iter(()), timerValues, True)

        def close(self) -> None:
            pass

    ApplyInPandasWithState.__qualname__ = f"applyInPandasWithState({getattr(func, '__name__', 'func')})"
    return ApplyInPandasWithState()
