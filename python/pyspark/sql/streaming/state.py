"""pyspark.sql.streaming.state for streamsim: GroupState and GroupStateTimeout of
applyInPandasWithState (PySpark's state.py: the same properties, methods and errors), and the
driver that calls an applyInPandasWithState function for the engine (docs/python.md
"applyInPandasWithState").

The engine's flatMapGroupsWithState operator (engine ops/flat_map_groups_with_state.h, Spark's
FlatMapGroupsWithStateExec / FlatMapGroupsInPandasWithStateExec) keeps the state and the timeout
and decides which keys are called; _GroupFunctionDriver runs one call here: it builds this
GroupState from the stored state, calls the function with pandas frames and hands back the rows
and what the function did to the state (updated, removed, the timeout it set)."""

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


class _GroupFunctionDriver:
    """Calls an applyInPandasWithState function for the engine's flatMapGroupsWithState operator
    (python/native/python_group_state.cc), as PySpark's worker does
    (worker.py wrap_grouped_map_pandas_udf_with_state): the key as a tuple; the key's rows as an
    iterator of pandas DataFrames of at most ``chunk_rows`` rows (Arrow's maxRecordsPerBatch), or
    one empty DataFrame with the input's columns when the state timed out; every yielded item
    checked to be a DataFrame with outputStructType's number of columns (UDF_RETURN_TYPE,
    RESULT_LENGTH_MISMATCH_FOR_PANDAS_UDF). Returns the rows and the GroupState's outcome."""

    def __init__(self, func: Callable[..., Iterator[Any]], output_len: int,
                 columns: Optional[list] = None, chunk_rows: int = 10000) -> None:
        self.func = func
        self.output_len = output_len
        self.columns = list(columns) if columns else []
        self.chunk_rows = chunk_rows

    def _frames(self, names: list, rows: list, timed_out: bool) -> Iterator[Any]:
        import pandas as pd
        if names:
            self.columns = list(names)
        if timed_out:
            return iter([pd.DataFrame(columns=self.columns)])
        n = self.chunk_rows
        return (pd.DataFrame.from_records(rows[i:i + n], columns=self.columns) for i in range(0, len(rows), n))

    def call(self, key: tuple, names: list, rows: list, value: Optional[tuple], processing_time: int,
             watermark: int, timeout_conf: str, timed_out: bool, watermark_present: bool) -> tuple:
        import pandas as pd
        from pyspark.errors import PySparkRuntimeError, PySparkTypeError
        from streamsim._driver import _plain
        state = GroupStateImpl(value, processing_time, watermark, timeout_conf, timed_out, watermark_present)
        result = self.func(key, self._frames(names, rows, timed_out), state)
        if isinstance(result, pd.DataFrame):
            raise PySparkTypeError(errorClass="UDF_RETURN_TYPE", messageParameters={
                "expected": "iterable of pandas.DataFrame", "actual": type(result).__name__})
        try:
            items = iter(result)
        except TypeError:
            raise PySparkTypeError(errorClass="UDF_RETURN_TYPE", messageParameters={
                "expected": "iterable", "actual": type(result).__name__}) from None
        out = []
        for df in items:
            if not isinstance(df, pd.DataFrame):
                raise PySparkTypeError(errorClass="UDF_RETURN_TYPE", messageParameters={
                    "expected": "iterator of pandas.DataFrame", "actual": "iterator of " + type(df).__name__})
            if not (len(df.columns) == self.output_len or (len(df.columns) == 0 and df.empty)):
                raise PySparkRuntimeError(errorClass="RESULT_LENGTH_MISMATCH_FOR_PANDAS_UDF", messageParameters={
                    "expected": str(self.output_len), "actual": str(len(df.columns))})
            cols = [str(c) for c in df.columns]
            for values in df.itertuples(index=False, name=None):
                out.append((cols, tuple(_plain(v) for v in values)))
        new_value = tuple(state._value) if state._defined else None
        return out, new_value, state._updated, state._removed, state._timeout_timestamp
